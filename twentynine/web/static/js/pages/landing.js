// The front page: play against bots at once (as a guest, or with your account), or sign in.
import { get, post } from '../api.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { go } from '../router.js';
import { isMember, session, setUser } from '../session.js';
import { busy, field } from '../ui.js';
import { cardEl } from '../cards.js';
import { live, onLive, watchCounts } from '../live.js';

/** A solo table against the strongest bots there are; returns its id. */
export async function startSolo() {
  const { best } = await get('/api/web/bots');
  const bot = `bot:${best}`;
  const table = await post('/api/tables', { kind: 'solo', seats: ['me', bot, bot, bot] });
  return table.id;
}

async function playNow(form) {
  const name = new FormData(form).get('first_name')?.toString().trim();
  if (!session.user) {
    const user = await post('/api/auth/guest', name ? { first_name: name } : {});
    await setUser(user);
  }
  go(`table/${await startSolo()}`);
}

export function render(root) {
  const form = h('form', { class: 'play-now' },
    session.user ? null : field(t('your_name_optional'),
      h('input', { name: 'first_name', maxlength: 60, autocomplete: 'given-name' })),
    h('button', { type: 'submit', class: 'primary big' }, t('play_now')));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    busy(form.querySelector('button'), () => playNow(form));
  });
  // how many people are online and playing now (seed 002's menu), live (a visitor's page has
  // the live channel too)
  const counts = h('p', { class: 'live-counts', 'aria-live': 'polite' });
  const showCounts = ({ online, playing }) => {
    counts.textContent = online ? t('live_counts', { online, playing }) : '';
  };
  showCounts(live.counts);
  const stops = [onLive('counts', () => showCounts(live.counts)),
    onLive('hello', () => showCounts(live.counts)), watchCounts()];
  if (!live.counts.online) { // the channel's hello may not have come yet
    get('/api/live/counts').then((now) => { if (!live.counts.online) showCounts(now); })
      .catch(() => {});
  }
  const fan = h('div', { class: 'hero-fan', 'aria-hidden': 'true' },
    ['JS', '9H', 'AC', 'TD'].map((c) => cardEl(c)));
  root.append(h('section', { class: 'page landing' },
    h('div', { class: 'hero' }, fan,
      h('div', {},
        h('h1', {}, t('landing_title')),
        h('p', { class: 'lead' }, t('landing_lead')),
        form,
        h('p', { class: 'muted' }, session.user ? null : t('play_now_guest_note')),
        counts)),
    h('div', { class: 'cards-row' },
      tile(t('landing_friends_title'), t('landing_friends_text'),
        isMember() ? ['#/dashboard', t('nav_dashboard')] : ['#/signin', t('nav_sign_in')]),
      tile(t('landing_learn_title'), t('landing_learn_text'), ['#/tutorial', t('nav_tutorial')]),
      tile(t('landing_rules_title'), t('landing_rules_text'), ['#/rules', t('nav_rules')]))));
  return () => stops.forEach((stopIt) => stopIt());
}

function tile(title, text, [href, label]) {
  return h('article', { class: 'tile' }, h('h2', {}, title), h('p', {}, text),
    h('a', { href, class: 'button' }, label));
}
