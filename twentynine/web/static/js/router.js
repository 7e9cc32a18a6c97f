// The hash router: #/page/param…?query. Pages are modules loaded when first visited; each
// exports render(root, route) and may return {cleanup, relabel}.
import { h, replace } from './dom.js';
import { t } from './i18n.js';

const PAGES = {
  '': () => import('./pages/landing.js'),
  signin: () => import('./pages/signin.js'),
  dashboard: () => import('./pages/dashboard.js'),
  lobby: () => import('./pages/lobby.js'),
  table: () => import('./pages/table.js'),
  profile: () => import('./pages/profile.js'),
  rules: () => import('./pages/rules.js'),
  tutorial: () => import('./pages/tutorial.js'),
  replay: () => import('./pages/replay.js'),
  admin: () => import('./pages/admin.js'),
  privacy: () => import('./pages/privacy.js'),
  leaderboard: () => import('./pages/leaderboard.js'),
  tournaments: () => import('./pages/tournaments.js'),
  tournament: () => import('./pages/tournament.js'),
};

let current = null; // {route, handle}
let root = null;
let renderCount = 0;
const listeners = new Set();

export function parseHash(hash = location.hash) {
  const raw = hash.replace(/^#\/?/, '');
  const [path, qs = ''] = raw.split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { page: parts[0] || '', params: parts.slice(1), query: new URLSearchParams(qs) };
}

export function go(path) {
  const target = `#/${path.replace(/^[#/]+/, '')}`;
  if (location.hash === target) show();
  else location.hash = target;
}

export function onRoute(listener) {
  listeners.add(listener);
}

function stop() {
  if (current && current.handle && current.handle.cleanup) current.handle.cleanup();
  current = null;
}

export async function show() {
  const route = parseHash();
  const load = PAGES[route.page];
  const mine = ++renderCount;
  stop();
  for (const listener of listeners) listener(route);
  if (!load) {
    replace(root, h('section', { class: 'page narrow' }, h('h1', {}, t('not_found')),
      h('p', {}, h('a', { href: '#/' }, t('nav_home')))));
    return;
  }
  const module = await load();
  if (mine !== renderCount) return; // the visitor moved on meanwhile
  replace(root);
  root.dataset.page = route.page || 'landing';
  const result = await module.render(root, route);
  if (mine !== renderCount) {
    if (result && result.cleanup) result.cleanup();
    return;
  }
  current = { route, handle: typeof result === 'function' ? { cleanup: result } : result };
  const heading = root.querySelector('h1');
  if (heading) document.title = `${heading.textContent} · TwentyNine`;
}

/** What the page shown now returned (``{cleanup, relabel, onLive}``, each optional), or null:
 * live.js hands every live message to its ``onLive``. */
export function pageHandle() {
  return current && current.handle ? current.handle : null;
}

/** The language changed: pages that can, relabel themselves; others render again. */
export function relabel() {
  if (current && current.handle && current.handle.relabel) current.handle.relabel();
  else show();
}

/** Start loading the page the address asks for at once (while the session is fetched). */
export function prefetch() {
  const load = PAGES[parseHash().page];
  if (load) load().catch(() => {}); // a failure shows when the page is shown
}

export function start(mount) {
  root = mount;
  window.addEventListener('hashchange', show);
  return show();
}
