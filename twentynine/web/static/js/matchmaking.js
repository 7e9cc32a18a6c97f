// "Play rated": the queue for a rated table, how many wait, and off to the table once seated.
import { del, get, post } from './api.js';
import { h, replace, toast } from './dom.js';
import { t } from './i18n.js';
import { go } from './router.js';
import { button } from './ui.js';
import { onLive } from './tournament/live.js';
import { onLive as onLiveType } from './live.js';

// the live channel tells of changes at once (and the panel asks again when it reconnects);
// these polls only mend a socket that dropped unnoticed
const EVERY_QUEUED = 5000;
const EVERY_IDLE = 15000;

/** The lobby's panel; returns {el, stop}. */
export function playRatedPanel() {
  const status = h('p', { class: 'queue-status', 'aria-live': 'polite' });
  const action = h('div', { class: 'row' });
  const el = h('div', { class: 'play-rated' }, h('p', {}, t('play_rated_intro')), action, status);
  let state = null;
  let timer = null;
  let stopped = false;
  let polling = false;

  const show = (s, joined = false) => {
    const was = state;
    state = s;
    if ((joined || (was && was.queued)) && !s.queued && s.table_id) {
      toast(t('rated_found'));
      go(`table/${s.table_id}`);
      return;
    }
    el.dataset.queued = String(s.queued);
    el.dataset.waiting = String(s.waiting);
    replace(status, s.queued ? t('rated_waiting_you', { count: s.waiting, band: s.band })
      : t('rated_waiting', { count: s.waiting }));
    replace(action, s.queued
      ? button(t('rated_leave'), async () => show(await del('/api/matchmaking/queue')),
        { 'data-action': 'leave-queue' })
      : playOrBack(s));
  };
  // one rated game at a time: during one, the way back to its table
  const playOrBack = (s) => (s.playing && s.table_id
    ? h('a', { class: 'button primary big', href: `#/table/${s.table_id}`,
      'data-action': 'back-to-rated' }, t('rated_back'))
    : button(t('play_rated'), async () => show(await post('/api/matchmaking/queue'), true),
      { class: 'primary big', 'data-action': 'play-rated' }));
  const poll = async () => {
    if (stopped || polling) return;
    polling = true;
    clearTimeout(timer);
    try {
      show(await get('/api/matchmaking'));
    } catch (e) {
      replace(status, h('span', { class: 'error' }, e.message));
    }
    polling = false;
    if (!stopped) timer = setTimeout(poll, state && state.queued ? EVERY_QUEUED : EVERY_IDLE);
  };
  const unlisten = onLive((m) => {
    if (!state || stopped) return;
    if (m.type === 'rated_queue') show({ ...state, waiting: m.waiting });
    else if (m.type === 'rated_match' && state.queued) {
      show({ ...state, queued: false, table_id: m.table_id });
    }
  });
  // the live channel came back: what it said meanwhile (the count is not kept) is asked for
  const unresync = onLiveType('resync', () => poll());
  poll();
  return { el, stop: () => { stopped = true; clearTimeout(timer); unlisten(); unresync(); } };
}
