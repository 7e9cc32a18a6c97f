// The turn clock on the page: a countdown for each seat whose clock runs, the choice of seconds
// when a table is opened, and the "I'm back" notice for a seat a bot keeps after two timeouts.
// The server says when each clock runs out as a wall-clock time, with its own time now
// (docs/protocol.md); the page counts down from what the server's time was when the message
// came, so a computer whose clock is off still shows the same seconds.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { selectEl } from '../ui.js';

/** A small clock face, drawn in the text's colour. */
const CLOCK_SVG = '<svg viewBox="0 0 16 16" width="12" height="12" fill="none" '
  + 'stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="8" cy="9" r="6"/>'
  + '<path d="M8 9V6M8 9h2.5M6 1.5h4"/></svg>';

/** Seconds a move a table may have (0: no clock). */
export const TURN_SECONDS = [0, 5, 10, 15, 20, 30, 45, 60, 90, 120]; // the API's 5-120, or none

/** The server's time minus this page's, from a message that came at `receivedAt` (ms). */
export function clockOffset(table, receivedAt) {
  return typeof table.server_time === 'number' ? table.server_time - receivedAt / 1000 : 0;
}

export function secondsLeft(endsAt, offset) {
  return Math.max(0, Math.ceil(endsAt - (Date.now() / 1000 + offset)));
}

export function clockText(left) {
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
}

function clockEnd(table, seat) {
  const running = (table.clock || []).find((c) => c.seat === seat);
  return running ? running.ends_at : null;
}

/** The countdown of `seat`'s clock, or null when it has none running. */
export function turnClock(ctx, seat, own = false) {
  const endsAt = clockEnd(ctx.table, seat);
  if (endsAt === null || ctx.table.status !== 'playing') return null;
  const left = secondsLeft(endsAt, ctx.clockOffset || 0);
  return h('span', { class: ['turn-clock', own && 'own', left <= 5 && 'urgent'], role: 'timer',
    'data-clock-end': endsAt, 'data-seat': seat, title: t('turn_clock_left', { seconds: left }) },
  h('span', { class: 'turn-clock-icon', 'aria-hidden': 'true', html: CLOCK_SVG }),
  h('span', { class: 'turn-clock-time' }, clockText(left)));
}

/** Move every countdown on the page on by what time has passed. */
export function tickClocks(root, offset) {
  for (const el of root.querySelectorAll('[data-clock-end]')) {
    const left = secondsLeft(Number(el.dataset.clockEnd), offset);
    const time = el.querySelector('.turn-clock-time');
    if (time) time.textContent = clockText(left);
    el.classList.toggle('urgent', left <= 5);
    el.title = t('turn_clock_left', { seconds: left });
  }
}

/** For the seat's own player while a bot keeps their seat: say so, and the way back. */
export function backNotice(ctx, onBack) {
  const me = ctx.me;
  const seat = me === null ? null : ctx.table.seats[me];
  if (!seat || !seat.kept) return null;
  return h('div', { class: 'actions kept', role: 'group', 'data-testid': 'kept' },
    h('p', { class: 'prompt' }, t('bot_keeps_your_seat')),
    h('button', { type: 'button', class: 'primary', 'data-action': 'back', onclick: onBack },
      t('im_back')));
}

/** The choice of a turn clock for a form that opens a table. */
export function turnSecondsSelect(value) {
  return selectEl('turn_seconds', TURN_SECONDS.map((s) => [s, s ? t('turn_clock_short',
    { seconds: s }) : t('turn_clock_off')]), value);
}

/** A table's clock as the lobby and the dashboard say it, or '' for none. */
export function turnSecondsLabel(table) {
  return table.turn_seconds ? t('turn_clock_short', { seconds: table.turn_seconds }) : '';
}
