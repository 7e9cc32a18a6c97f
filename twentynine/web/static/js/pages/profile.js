// The profile: name, avatar, card deck, table theme, language, and your statistics.
import { get } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { LANGUAGES, language, t } from '../i18n.js';
import { AVATARS, DECKS, THEMES } from '../prefs.js';
import { show } from '../router.js';
import { chooseLanguage, session, updateProfile } from '../session.js';
import { cardEl } from '../cards.js';
import { busy, field, loading, pageFrame, selectEl } from '../ui.js';
import { put } from '../api.js';
import { live, loadPrefs, onLive, watchHistory } from '../live.js';
import { yourDataSection } from '../yourdata.js';
import { ratingSection } from '../ratings.js';
import { safetySection } from '../safety.js';

function choices(name, options, value, draw) {
  return h('fieldset', { class: 'choice-grid' }, h('legend', {}, t(name)),
    options.map((option) => h('label', {},
      h('input', { type: 'radio', name, value: option, checked: option === value }),
      draw(option))));
}

export function render(root) {
  const user = session.user;
  if (!user) {
    root.append(pageFrame(t('profile'), h('p', {}, t('sign_in_for_profile')),
      h('a', { class: 'button primary', href: '#/signin' }, t('nav_sign_in'))));
    return;
  }
  const name = h('input', { name: 'first_name', value: user.first_name, maxlength: 60,
    required: true, autocomplete: 'given-name' });
  const lang = selectEl('language', Object.entries(LANGUAGES), language());
  const form = h('form', { class: 'stack', 'aria-label': t('profile') },
    field(t('first_name'), name),
    choices('avatar', ['', ...Object.keys(AVATARS)], user.avatar || '', (a) => h('span', {},
      h('span', { class: 'emoji', 'aria-hidden': 'true' }, AVATARS[a] || '·'),
      h('span', {}, a ? t(`avatar_${a}`) : t('avatar_none')))),
    choices('card_deck', DECKS, user.card_deck, (d) => h('span', { 'data-deck-preview': d },
      h('span', { class: 'row' }, ['JS', 'TD', 'QH', 'AC'].map((c) => cardEl(c, { small: true }))),
      h('span', {}, t(`deck_${d}`)))),
    choices('table_theme', THEMES, user.table_theme, (th) => h('span', {},
      h('span', { class: `swatch swatch-${th}`, 'aria-hidden': 'true' }), t(`theme_${th}`))),
    field(t('language'), lang, user.is_guest ? t('language_guest_note') : null),
    h('button', { type: 'submit', class: 'primary' }, t('save')));
  // typed into and not saved: a change from another device (accountlive.js) does not draw the
  // page again over it (``relabel`` below)
  form.addEventListener('input', () => { form.dataset.dirty = 'true'; });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    busy(form.querySelector('button[type=submit]'), async () => {
      await updateProfile({
        first_name: String(data.get('first_name')).trim(),
        avatar: String(data.get('avatar') || ''),
        card_deck: String(data.get('card_deck')),
        table_theme: String(data.get('table_theme')),
      });
      delete form.dataset.dirty; // saved: the page may be drawn again (a new language)
      localStorage.setItem('tn_deck', String(data.get('card_deck')));
      localStorage.setItem('tn_theme', String(data.get('table_theme')));
      if (lang.value !== language()) await chooseLanguage(lang.value);
      toast(t('saved'));
    });
  });
  const stats = h('div', { class: 'stats', 'aria-live': 'polite' }, loading());
  const safety = safetySection();
  const rating = user.is_guest ? null : ratingSection(user.id);
  const account = h('dl', { class: 'info' },
    h('dt', {}, t('email')), h('dd', {}, user.email || t('guest')),
    h('dt', {}, t('account_tier')), h('dd', {}, t(`tier_${user.is_guest ? 'guest' : user.tier}`)),
    user.is_admin ? [h('dt', {}, t('admin')), h('dd', {}, t('yes'))] : null);
  root.append(pageFrame(t('profile'), h('div', { class: 'profile-grid' },
    h('section', {}, form),
    h('section', {}, h('h2', {}, t('your_stats')), stats, h('h2', {}, t('account')), account,
      noticesForm(), yourDataSection()),
    user.is_guest ? null : h('section', { class: 'rating-section' }, h('h2', {}, t('rating')),
      rating),
    h('section', {}, h('h2', {}, t('chat_safety')), safety))));
  const figures = () => get('/api/stats/me').then((s) => replace(stats, [
    ['games', s.games], ['games_won', s.games_won], ['rounds', s.rounds],
    ['contracts', s.contracts], ['contracts_made', s.contracts_made], ['sets_won', s.sets_won],
  ].map(([key, value]) => h('div', { class: 'stat', 'data-stat': key },
    h('strong', {}, String(value)), h('span', {}, t(`stat_${key}`))))))
    .catch((e) => replace(stats, h('p', { class: 'error' }, e.message)));
  figures();
  // a deal of yours recorded (deal_recorded, below), or the channel back after missing some
  const stops = [watchHistory(), onLive('resync', () => {
    figures();
    if (rating) rating.redraw();
  })];
  return {
    cleanup: () => stops.forEach((stop) => stop()),
    /** The account changed (here, or on another device: accountlive.js) or the language did:
     * drawn again, unless something typed here is not saved yet. */
    relabel() {
      if (!form.dataset.dirty) show();
    },
    onLive(message) { // notices chosen on another page or device: the boxes follow (live.js)
      if (message.type === 'safety_changed') safety.redraw(); // muted or blocked elsewhere
      if (message.type === 'deal_recorded') figures();
      if (message.type === 'ratings_changed' && rating
        && message.user_ids.includes(user.id)) rating.redraw(); // a rated game of yours
      if (message.type !== 'prefs_changed') return;
      for (const [name, on] of [['notice_sound', live.prefs.sound],
        ['notice_notify', live.prefs.notify]]) {
        const box = root.querySelector(`input[name="${name}"]`);
        if (box) box.checked = on;
      }
    },
  };
}

/** Notices (live.js): a sound and a browser notification for "your turn" and invitations,
 * both off until turned on here (kept on the server, so every browser of yours follows). */
function noticesForm() {
  const sound = h('input', { type: 'checkbox', name: 'notice_sound' });
  const notify = h('input', { type: 'checkbox', name: 'notice_notify' });
  const save = async (fields) => {
    live.prefs = await put('/api/live/prefs', fields);
    sound.checked = live.prefs.sound;
    notify.checked = live.prefs.notify;
    toast(t('saved'));
  };
  sound.addEventListener('change', () => busy(sound, () => save({ sound: sound.checked })));
  notify.addEventListener('change', () => busy(notify, async () => {
    if (notify.checked && 'Notification' in window && Notification.permission !== 'granted') {
      const answer = await Notification.requestPermission();
      if (answer !== 'granted') toast(t('notify_denied'), 'error');
    }
    await save({ notify: notify.checked });
  }));
  loadPrefs().then((prefs) => {
    sound.checked = prefs.sound;
    notify.checked = prefs.notify;
  });
  return h('fieldset', { class: 'stack notices-form' }, h('legend', {}, t('notices')),
    field(t('notice_sound'), sound), field(t('notice_notify'), notify));
}
