// The live channel (docs/protocol.md, /ws/me): one socket for a signed-in person's pages, over
// which the server tells of every change they show — friend requests and answers, invitations,
// games to join or watch, public tables, who is online. It reconnects by itself and catches up
// (last_id); pages subscribe by message type with onLive(type, listener), or take every
// message through an ``onLive(message)`` in what their render returned (router.js). A visitor
// who is not signed in has one too (?visitor=1): what every page hears (the tournaments'
// changes) and the topics its pages follow, so that their pages are live as well.
//
// It also keeps what the header and the tab's title show: what waits for you (friend requests,
// games to join), the people online and playing, your friends' presence; and it shows a notice
// (with a sound and a browser notification, when turned on in the profile) for "your turn" at
// another table, a new invitation and a rated table found.
import { get } from './api.js';
import { h } from './dom.js';
import { onLanguage, t } from './i18n.js';
import { onRoute, pageHandle, show } from './router.js';
import { loadSession, onSession, session } from './session.js';
import { noticeTableName } from './tables.js';

const FATAL = new Set([4401, 4403]);
const PING_MS = 25000;

/** What the pages read: counts, friends' presence (user id → state), what waits. */
export const live = {
  counts: { online: 0, playing: 0 },
  presence: new Map(),
  waiting: { requests: 0, join: 0 },
  prefs: { sound: false, notify: false },
};

const listeners = new Map(); // type ('*' for every message, 'resync', 'waiting') → Set
let ws = null;
let userId = null;
let visiting = false; // a socket of a visitor who is not signed in
let lastId = null;
let attempt = 0;
let timer = null;
let pinger = null;
let connectedBefore = false;
// pages showing what only some pages show, by topic: the server tells this socket of it
// (lobby: the public tables; counts: how many people are online and playing; leaderboard:
// rated games rated; history: deals of one's own recorded; tables: every table, and accounts:
// every change to the list of accounts, for the admin page)
const watchers = { lobby: 0, counts: 0, leaderboard: 0, history: 0, tables: 0, accounts: 0 };

function sendWatch() {
  if (ws && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify({ type: 'watch', lobby: watchers.lobby > 0,
      counts: watchers.counts > 0, leaderboard: watchers.leaderboard > 0,
      history: watchers.history > 0, tables: watchers.tables > 0,
      accounts: watchers.accounts > 0 }));
  }
}

function watch(topic) {
  watchers[topic] += 1;
  if (watchers[topic] === 1) sendWatch();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    watchers[topic] -= 1;
    if (watchers[topic] === 0) sendWatch();
  };
}

/** Follow the public tables (``table_changed`` of kind public) until the returned function is
 * called: only pages showing the lobby are told of them. */
export function watchLobby() {
  return watch('lobby');
}

/** Follow the counts of people online and playing (``counts``) until the returned function is
 * called: only pages showing them are told. */
export function watchCounts() {
  return watch('counts');
}

/** Follow the ratings (``ratings_changed``: a rated game was rated) until the returned function
 * is called: only pages showing the leaderboard are told. */
export function watchLeaderboard() {
  return watch('leaderboard');
}

/** Follow one's own deals as they are recorded (``deal_recorded``) until the returned function
 * is called: only pages showing one's history or figures are told. */
export function watchHistory() {
  return watch('history');
}

/** Follow every table's changes (``table_changed``) until the returned function is called:
 * the admin page's list (the server refuses it to a page that is not an admin's). */
export function watchTables() {
  return watch('tables');
}

/** Follow every change to the list of accounts (``account_listed``: admins only) until the
 * returned function is called. */
export function watchAccounts() {
  return watch('accounts');
}

/** Call ``listener(message)`` for each message of ``type``; returns the way to stop. */
export function onLive(type, listener) {
  if (!listeners.has(type)) listeners.set(type, new Set());
  listeners.get(type).add(listener);
  return () => listeners.get(type).delete(listener);
}

function emit(type, message) {
  for (const listener of [...(listeners.get(type) || [])]) {
    try {
      listener(message);
    } catch (e) {
      console.error(e); // one page's failure does not stop the others
    }
  }
}

function url() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  let query = lastId === null ? '' : `?last_id=${lastId}`;
  if (visiting) query = '?visitor=1';
  return `${proto}//${location.host}/ws/me${query}`;
}

function connect() {
  clearTimeout(timer);
  const socket = new WebSocket(url());
  ws = socket;
  socket.onopen = () => {
    attempt = 0;
    // what this page follows, again: a new socket (first or after a drop) follows nothing yet
    if (Object.values(watchers).some((n) => n > 0)) sendWatch();
    clearInterval(pinger);
    pinger = setInterval(() => {
      if (socket.readyState === WebSocket.OPEN) socket.send('{"type":"ping"}');
    }, PING_MS);
  };
  socket.onmessage = (event) => {
    if (socket !== ws) return;
    take(JSON.parse(event.data));
  };
  socket.onclose = (event) => {
    if (socket !== ws) return;
    clearInterval(pinger);
    ws = null;
    if (event.code === 4401 && userId) { // signed out (in another tab of this browser, say):
      const was = userId; // the page is drawn again for whoever the browser is now
      loadSession().then((user) => { if (!user || user.id !== was) show(); }).catch(() => {});
      return;
    }
    if (FATAL.has(event.code) || (!userId && !visiting)) return;
    const delay = Math.min(15000, 500 * 2 ** attempt) * (0.8 + Math.random() * 0.4);
    attempt += 1;
    timer = setTimeout(connect, delay);
  };
}

function stop() {
  clearTimeout(timer);
  clearInterval(pinger);
  const socket = ws;
  ws = null;
  if (socket) socket.close();
  userId = null;
  visiting = false;
  lastId = null;
  connectedBefore = false;
  live.presence.clear();
  live.waiting = { requests: 0, join: 0 };
  showWaiting();
}

function take(message) {
  inFlight.clear(); // what was asked before this message may not show it: ask afresh
  if (typeof message.seq === 'number' && (lastId === null || message.seq > lastId)) {
    lastId = message.seq;
  }
  switch (message.type) {
    case 'hello':
      lastId = message.last_id;
      if ('online' in message) live.counts = { online: message.online, playing: message.playing };
      if (message.friends) {
        live.presence = new Map(Object.entries(message.friends).map(([k, v]) => [Number(k), v]));
      }
      if (connectedBefore || !message.complete) emit('resync', message);
      connectedBefore = true;
      recount();
      break;
    case 'counts':
      live.counts = { online: message.online, playing: message.playing };
      break;
    case 'presence':
      if (message.state === 'offline') live.presence.delete(message.user_id);
      else live.presence.set(message.user_id, message.state);
      break;
    case 'your_turn':
      if (!lookingAt(message.table_id)) {
        notice(t('notice_your_turn', { name: noticeTableName(message) }), message.table_id);
      }
      break;
    case 'rated_match': // the game starts at once: away from the lobby (whose panel takes
      // the player to the table) a queued player must hear of it wherever they are
      if (!location.hash.startsWith('#/lobby')) notice(t('rated_found'), message.table_id);
      break;
    case 'table_invite':
      notice(t('notice_invite', { host: message.host_name, name: noticeTableName(message) }),
        message.table_id);
      waitsOneMore('join'); // at once; the count that follows is the server's
      break;
    case 'prefs_changed': // chosen on another page or device: its sound and notices follow
      live.prefs = { sound: Boolean(message.sound), notify: Boolean(message.notify) };
      break;
    case 'signed_out': // the account was disabled or deleted: this browser's session ended
      notice(t('signed_out_notice'), null);
      loadSession().catch(() => {});
      break;
    case 'friend_request':
      notice(t('notice_friend_request', { name: message.name }), null, '#/dashboard/friends');
      waitsOneMore('requests');
      break;
    default:
      break;
  }
  emit(message.type, message);
  emit('*', message);
  const page = pageHandle(); // a page may take every message through what it returned
  if (page && typeof page.onLive === 'function') {
    try {
      page.onLive(message);
    } catch (e) {
      console.error(e);
    }
  }
  // after the pages: a page drawing again asks first, and the count shares its request
  if (message.type.startsWith('friend_')) recount(['friends']);
  if (message.type.startsWith('table_')) recount(['tables']);
}

// -- what waits: friend requests to answer, games to join ----------------------------------------
const inFlight = new Map();

/** GET ``path``, sharing a request already on its way since the latest message (the badges
 * and the open tab often want the same list after one message). */
export function fresh(path) {
  if (!inFlight.has(path)) {
    const request = get(path).finally(() => inFlight.delete(path));
    inFlight.set(path, request);
  }
  return inFlight.get(path);
}

const counting = { friends: null, tables: null };
const countAgain = { friends: false, tables: false };

/** Count again what waits: friend requests (``friends``), games to join (``tables``). */
function recount(what = ['friends', 'tables']) {
  if (!session.user || session.user.is_guest) return;
  for (const kind of what) {
    if (counting[kind]) {
      countAgain[kind] = true; // once more after this one: something changed meanwhile
      continue;
    }
    counting[kind] = (async () => {
      try {
        if (kind === 'friends') {
          live.waiting.requests = (await fresh('/api/friends')).incoming.length;
        } else {
          const mine = await fresh('/api/tables/mine');
          // games others made that you play in: your own solo or public table waits for
          // nobody (a tournament's match waits for its players, its organiser among them)
          live.waiting.join = mine.join.filter((table) => table.status !== 'closed'
            && (table.host_id !== session.user.id || table.kind === 'tournament')).length;
        }
        showWaiting();
        emit('waiting', live.waiting);
      } catch {
        // signed out meanwhile, or the server is away: the next change counts again
      }
      counting[kind] = null;
      if (countAgain[kind]) {
        countAgain[kind] = false;
        recount([kind]);
      }
    })();
  }
}

function waitsOneMore(what) {
  live.waiting = { ...live.waiting, [what]: live.waiting[what] + 1 };
  showWaiting();
  emit('waiting', live.waiting);
}

/** The total that waits, on the Dashboard link and in the tab's title. */
function showWaiting() {
  const total = live.waiting.requests + live.waiting.join;
  const link = document.querySelector('#nav a[href="#/dashboard"]');
  if (link) setBadge(link, total);
  fixTitle();
}

/** A small count on ``el`` (none at 0), read out with its label. */
export function setBadge(el, count) {
  let badge = el.querySelector('.count-badge');
  if (!count) {
    if (badge) badge.remove();
    return;
  }
  if (!badge) {
    badge = h('span', { class: 'count-badge' });
    el.append(badge);
  }
  badge.textContent = String(count);
  badge.setAttribute('aria-label', t('badge_waiting', { count }));
}

function fixTitle() {
  const total = live.waiting.requests + live.waiting.join;
  const bare = document.title.replace(/^\(\d+\) /, '');
  const wanted = total ? `(${total}) ${bare}` : bare;
  if (document.title !== wanted) document.title = wanted;
}

// -- notices ---------------------------------------------------------------------------------
function lookingAt(tableId) {
  return location.hash.startsWith(`#/table/${tableId}`) && document.visibilityState === 'visible';
}

// a table's notices go once its page is the one shown: they would only cover its hand
function dropShownNotices() {
  for (const item of document.querySelectorAll('.toast.notice[data-notice-table]')) {
    if (lookingAt(item.dataset.noticeTable)) item.remove();
  }
}

function notice(text, tableId, href = null) {
  const box = document.getElementById('toasts');
  const link = href || (tableId ? `#/table/${encodeURIComponent(tableId)}` : null);
  if (box) {
    const item = h('div', { class: 'toast notice', role: 'status',
      'data-notice-table': tableId }, h('span', {}, text),
      link ? h('a', { href: link, class: 'button small' }, t('notice_open')) : null);
    // one notice a table, the latest (a page coming back is given every turn it missed)
    if (tableId) {
      for (const older of box.querySelectorAll('.toast.notice[data-notice-table]')) {
        if (older.dataset.noticeTable === String(tableId)) older.remove();
      }
    }
    box.append(item);
    setTimeout(() => item.remove(), 12000);
  }
  if (!tableId) return; // sounds and notifications: your turn and invitations only
  if (live.prefs.sound) beep();
  if (live.prefs.notify && 'Notification' in window && Notification.permission === 'granted'
    && document.visibilityState !== 'visible') {
    const shown = new Notification('TwentyNine', { body: text, tag: `tn-${tableId}` });
    shown.onclick = () => {
      window.focus();
      location.hash = link;
    };
  }
}

let audio = null;
/** Two short tones of our own (no sound file). */
function beep() {
  try {
    audio = audio || new AudioContext();
    const start = audio.currentTime;
    [660, 880].forEach((freq, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + i * 0.16);
      gain.gain.exponentialRampToValueAtTime(0.2, start + i * 0.16 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.16 + 0.14);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + i * 0.16);
      osc.stop(start + i * 0.16 + 0.15);
    });
  } catch {
    // no audio here
  }
}

export async function loadPrefs() {
  try {
    live.prefs = await get('/api/live/prefs');
  } catch {
    live.prefs = { sound: false, notify: false };
  }
  return live.prefs;
}

// -- starting and stopping with the session --------------------------------------------------
function follow(user) {
  const id = user ? user.id : null;
  if (id === userId && (id || visiting)) return;
  stop();
  if (!id) { // a visitor: live too, with what every page may hear
    visiting = true;
    connect();
    return;
  }
  userId = id;
  loadPrefs();
  connect();
}

/** Start following the session (main.js calls it once). */
export function startLive() {
  onSession(follow);
  // the header is drawn again on each of these: the badge goes back on after it
  const redraw = () => setTimeout(showWaiting, 0);
  onSession(redraw);
  onRoute(redraw);
  onRoute(dropShownNotices);
  onLanguage(redraw);
  const title = document.querySelector('title');
  if (title) new MutationObserver(fixTitle).observe(title, { childList: true });
  follow(session.user);
}
