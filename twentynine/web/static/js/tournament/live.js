// Live messages for the tournament pages and notices: the page's one live channel (live.js,
// /ws/me), so a tournament page opens no second socket. Each handler gets every message.
import { onLive as onLiveType } from '../live.js';

/** Call ``handler`` with each live message until the returned function is called. */
export function onLive(handler) {
  return onLiveType('*', handler);
}
