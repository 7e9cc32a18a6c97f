// A person's tournament notices on whatever page is open: their match is ready (with a link to
// its table), their team sits out, a partner named them, their entry is approved, the
// organiser calls them before the start, the event is over; an organiser's, a new entry. A match's notice stays until it is followed or
// dismissed, the others a while.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { onLive } from './live.js';

let stop = null;

function text(m) {
  switch (m.type) {
    case 'tournament_match': return t('tour_notice_match', m);
    case 'tournament_bye': return t('tour_notice_bye', m);
    case 'tournament_partner': return t('tour_notice_partner', m);
    case 'tournament_approved': return t('tour_notice_approved', m);
    case 'tournament_entry': return t('tour_notice_entry', m);
    case 'tournament_finished': return t('tour_notice_finished', m);
    case 'tournament_call': return m.minutes ? t('tour_notice_call', m)
      : t('tour_notice_call_soon', m);
    default: return null;
  }
}

function show(m) {
  const words = text(m);
  const box = document.getElementById('toasts');
  if (!words || !box) return;
  const item = h('div', { class: 'toast notice tournament-notice', role: 'status',
    'data-type': m.type });
  const dismiss = () => item.remove();
  const link = m.type === 'tournament_match' && m.table_id
    ? h('a', { href: `#/table/${m.table_id}`, class: 'button primary', onclick: dismiss,
      'data-action': 'go-table' }, t('tour_go_table'))
    : h('a', { href: `#/tournament/${m.tournament_id}`, class: 'button', onclick: dismiss },
      t('tour_open'));
  item.append(h('span', {}, words), ' ', link, ' ',
    h('button', { type: 'button', class: 'link', onclick: dismiss, 'aria-label': '×' }, '×'));
  box.append(item);
  if (m.type !== 'tournament_match') setTimeout(dismiss, 12000); // a match's stays until followed
}

/** Listen while someone is signed in (``member``), not otherwise. */
export function tournamentNotices(member) {
  if (member && !stop) stop = onLive(show);
  if (!member && stop) {
    stop();
    stop = null;
  }
}
