// The Host tab's way out of "yours is basic": ask the admins for a standard account, with an
// optional note, and see where the request stands (it changes live when an admin answers).
import { get, post } from './api.js';
import { h, replace, toast } from './dom.js';
import { t } from './i18n.js';
import { setUser } from './session.js';
import { busy, field } from './ui.js';

const HOSTING_TIERS = ['standard', 'standard_guest'];

export const canHost = (user) => Boolean(user && HOSTING_TIERS.includes(user.tier));

/** For a person whose tier (as this page last knew it) cannot host: fills ``box`` with the
 * request panel and answers true; or, when an admin has granted the tier meanwhile, takes
 * the fresh account into the session and answers false (the caller goes on to hosting). */
export async function tierRequestPanel(box) {
  const [user, { request }] = await Promise.all([get('/api/me'),
    get('/api/tier-requests/mine')]);
  if (canHost(user)) {
    await setUser(user);
    return false;
  }
  const intro = h('p', {}, t('host_needs_standard', { tier: t(`tier_${user.tier}`) }));
  if (user.is_guest) {
    replace(box, intro);
    return true;
  }
  if (request && request.status === 'pending') {
    replace(box, intro, h('p', { class: 'notice', role: 'status', 'data-tier-request': 'pending' },
      t('tier_request_waiting')),
    request.note ? h('blockquote', { class: 'note' }, request.note) : null);
    return true;
  }
  const note = h('textarea', { name: 'note', maxlength: 500, rows: 3 });
  const form = h('form', { class: 'stack', 'aria-label': t('request_standard') },
    field(t('tier_request_note'), note, t('tier_request_note_hint')),
    h('button', { type: 'submit', class: 'primary' }, t('request_standard')));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    busy(form.querySelector('button'), async () => {
      await post('/api/tier-requests', { note: note.value.trim() });
      toast(t('tier_request_sent'));
      await tierRequestPanel(box);
    });
  });
  replace(box, intro,
    request && request.status === 'declined'
      ? h('p', { class: 'notice', 'data-tier-request': 'declined' }, t('tier_request_declined'))
      : h('p', {}, t('tier_request_explain')),
    form);
  return true;
}
