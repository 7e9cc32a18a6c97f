// Tournaments as a list (the dashboard, the lobby, the tournaments page).
import { get } from '../api.js';
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { empty, loading } from '../ui.js';
import { onLive } from './live.js';

export function statusText(doc) {
  if (doc.status === 'running') return t('tour_status_running', { round: doc.current_round });
  return t(`tour_status_${doc.status}`);
}

export function tournamentItem(doc) {
  return h('li', { class: 'table-item tournament-item', 'data-tournament': doc.id },
    h('div', { class: 'table-item-main' },
      h('a', { href: `#/tournament/${doc.id}` }, h('strong', {}, doc.name)),
      h('span', { class: 'muted' }, ` · ${t(`fmt_${doc.format}`)} · ${statusText(doc)}`),
      doc.you && doc.you.organiser ? h('span', { class: 'badge' }, t('tour_you_organise')) : null,
      doc.you && doc.you.entered ? h('span', { class: 'badge' }, t('tour_you_entered')) : null,
      h('div', { class: 'seat-names' },
        t('tour_teams_count', { teams: doc.teams, max: doc.max_teams }), ' · ',
        t('tour_organiser', { name: doc.organiser.name }))),
    h('div', { class: 'row' }, h('a', { class: 'button', href: `#/tournament/${doc.id}` },
      t('tour_open'))));
}

/** A live list of tournaments (``keep`` picks which); returns {el, stop}. It stops by itself
 * once its page is gone. */
export function tournamentList(keep = () => true) {
  const el = h('div', { class: 'tournament-list', 'aria-live': 'polite' }, loading());
  let timer = null;
  const refresh = async () => {
    try {
      const all = (await get('/api/tournaments')).filter(keep);
      el.dataset.shown = '1';
      replace(el, all.length ? h('ul', { class: 'table-list' }, all.map(tournamentItem))
        : empty(t('tour_none')));
    } catch (e) {
      replace(el, h('p', { class: 'error' }, e.message));
    }
  };
  refresh();
  const stop = onLive((m) => {
    if (!el.isConnected && el.dataset.shown) { // its page is gone
      clearTimeout(timer);
      stop();
      return;
    }
    // a change is told to the pages open at the time (not kept for catch-up): a channel that
    // came back (hello) may have missed some, so the list is asked for again
    if (m.type !== 'tournament_changed' && m.type !== 'hello') return;
    clearTimeout(timer);
    timer = setTimeout(refresh, 150);
  });
  return { el, stop: () => { clearTimeout(timer); stop(); } };
}

/** A section for the dashboard and the lobby: the tournaments ``keep`` picks, and a link to all
 * (where one is organised). */
export function tournamentsSection(title, keep) {
  const list = tournamentList(keep);
  return h('section', { class: 'tournaments-section' }, h('h2', {}, title), list.el,
    h('p', {}, h('a', { href: '#/tournaments', class: 'button' }, t('tour_all'))));
}
