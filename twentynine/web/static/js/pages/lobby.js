// The lobby (seed 002): public tables to join or watch, quick join, and creating a table.
import { get, post } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { go } from '../router.js';
import { isMember } from '../session.js';
import { rulesEditor } from '../rulesform.js';
import { tournamentsSection } from '../tournament/list.js';
import { botName, joinButton, tableItem, watchButton } from '../tables.js';
import { turnSecondsSelect } from '../table/clock.js';
import { button, empty, field, loading, pageFrame, selectEl } from '../ui.js';
import { onLive, watchLobby } from '../live.js';
import { playRatedPanel } from '../matchmaking.js';

export function render(root) {
  if (!isMember()) {
    root.append(pageFrame(t('nav_lobby'), h('p', {}, t('lobby_members_only')),
      h('a', { class: 'button primary', href: '#/signin' }, t('nav_sign_in'))));
    return undefined;
  }
  const list = h('div', { class: 'lobby-list', 'aria-live': 'polite' }, loading());
  const create = h('div', { class: 'create-table' }, loading());
  const quick = button(t('quick_join'), async () => {
    const r = await post('/api/tables/quick-join');
    go(`table/${r.table}`);
  }, { class: 'primary big' });
  const rated = playRatedPanel();
  root.append(pageFrame(t('nav_lobby'),
    h('p', {}, t('lobby_intro')),
    h('div', { class: 'row' }, quick,
      button(t('refresh'), () => refresh(list), { class: 'link' })),
    h('section', { class: 'panel' }, h('h2', {}, t('play_rated')), rated.el),
    h('div', { class: 'lobby-grid' },
      h('section', {}, h('h2', {}, t('public_tables')), list),
      h('section', {}, h('h2', {}, t('create_table')), create),
      h('section', {}, h('h2', {}, t('private_table')), inviteForm()),
      tournamentsSection(t('tour_in_lobby'), (d) => d.status === 'registration'))));
  refresh(list);
  createForm(create);
  const timer = setInterval(() => refresh(list), 15000);
  // public tables opening, filling and closing arrive live (live.js); a reconnect reloads
  const stops = [
    watchLobby(),
    onLive('table_changed', (m) => { if (m.kind === 'public') refresh(list); }),
    onLive('resync', () => refresh(list)),
  ];
  return () => {
    clearInterval(timer);
    rated.stop();
    stops.forEach((stopIt) => stopIt());
  };
}

async function refresh(list) {
  try {
    const tables = await get('/api/tables');
    replace(list, tables.length
      ? h('ul', { class: 'table-list' }, tables.map((table) => tableItem(table, [
        table.open_seats > 0 || table.seats.some((s) => s.bot)
          ? joinButton(table) : null,
        watchButton(table),
      ])))
      : empty(t('no_public_tables')));
  } catch (e) {
    replace(list, h('p', { class: 'error' }, e.message));
  }
}

async function createForm(box) {
  const editor = await rulesEditor();
  const { levels, best } = await get('/api/web/bots');
  const seatChoices = [['open', t('open_seat')], ...levels.map((lv) =>
    [`bot:${lv}`, t('bot_named', { level: botName(lv) })])];
  const seatKeys = ['seat_after_you', 'seat_partner', 'seat_before_you'];
  const seats = seatKeys.map((key, i) => field(t(key), selectEl(`seat${i}`, seatChoices, 'open')));
  const kind = selectEl('kind', [['public', t('kind_public')], ['private', t('kind_private')]],
    'public');
  const name = h('input', { name: 'name', maxlength: 80 });
  const takeover = h('input', { name: 'takeover_seconds', type: 'number', min: 1, max: 600,
    value: 60 });
  const rated = h('input', { type: 'checkbox', name: 'rated' });
  const clock = turnSecondsSelect(20);
  kind.addEventListener('change', () => {
    if (!clock.dataset.chosen) clock.value = kind.value === 'public' ? '20' : '0';
  });
  clock.addEventListener('change', () => { clock.dataset.chosen = 'yes'; });
  const form = h('form', { class: 'stack', 'aria-label': t('create_table') },
    field(t('table_name'), name), field(t('kind'), kind), seats,
    field(t('rated_table'), rated, t('rated_table_hint')), editor.el,
    field(t('turn_seconds'), clock, t('turn_clock_hint')),
    field(t('takeover_seconds'), takeover, t('takeover_hint')),
    h('p', { class: 'hint' }, t('best_bot', { level: botName(best) })),
    h('button', { type: 'submit', class: 'primary' }, t('create_table')));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const payload = {
      kind: kind.value,
      name: name.value.trim(),
      rules: editor.value(),
      seats: ['me', ...seats.map((f) => f.querySelector('select').value)],
      takeover_seconds: Number(takeover.value),
      turn_seconds: Number(clock.value),
    };
    if (rated.checked) {
      Object.assign(payload, { kind: 'public', rated: true, seats: ['me', 'open', 'open', 'open'] });
    }
    post('/api/tables', payload).then((table) => {
      const code = table.invite_code ? `?code=${encodeURIComponent(table.invite_code)}` : '';
      go(`table/${table.id}${code}`);
    }).catch((e) => toast(e.message, 'error'));
  });
  replace(box, form);
}

function inviteForm() {
  const link = h('input', { name: 'invite', required: true, autocomplete: 'off' });
  const form = h('form', { class: 'stack', 'aria-label': t('private_table') },
    field(t('invite_link'), link, t('invite_hint')),
    h('button', { type: 'submit' }, t('open_table')));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const found = link.value.match(/table\/([\w-]+)(?:\?code=([\w-]+))?/);
    if (!found) {
      toast(t('invite_bad'), 'error');
      return;
    }
    go(`table/${found[1]}${found[2] ? `?code=${found[2]}` : ''}`);
  });
  return form;
}
