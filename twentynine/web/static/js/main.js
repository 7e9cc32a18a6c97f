// The client starts here: who is signed in, the header, then the page the address asks for.
import { h, replace, toast } from './dom.js';
import { LANGUAGES, language, onLanguage, t } from './i18n.js';
import { onRoute, prefetch, relabel, start } from './router.js';
import { chooseLanguage, isMember, loadSession, onSession, session, signOut } from './session.js';
import { avatarOf } from './prefs.js';
import { ensureSprite } from './cards.js';
import { startLive } from './live.js';
import { wireAccountLive } from './accountlive.js';
import { tournamentNotices } from './tournament/notices.js';

const NAV = [
  ['', 'nav_play'],
  ['lobby', 'nav_lobby', () => isMember()],
  ['dashboard', 'nav_dashboard', () => isMember()],
  ['leaderboard', 'leaderboard', () => isMember()],
  ['rules', 'nav_rules'],
  ['tutorial', 'nav_tutorial'],
  ['admin', 'nav_admin', () => Boolean(session.user && session.user.is_admin)],
];

let page = '';

function renderNav() {
  const nav = document.getElementById('nav');
  const links = NAV.filter(([, , shown]) => !shown || shown()).map(([path, key]) =>
    h('a', { href: `#/${path}`, 'aria-current': page === path ? 'page' : null }, t(key)));
  const user = session.user;
  const who = user
    ? [
      h('a', { href: '#/profile', class: 'who', 'aria-current': page === 'profile' ? 'page' : null },
        avatarOf(user) ? h('span', { class: 'avatar', 'aria-hidden': 'true' }, avatarOf(user)) : null,
        user.is_guest && user.first_name !== 'Guest' ? t('guest_name', { name: user.first_name })
          : user.first_name),
      h('button', { type: 'button', class: 'link', onclick: doSignOut }, t('nav_sign_out')),
    ]
    : [h('a', { href: '#/signin', 'aria-current': page === 'signin' ? 'page' : null },
      t('nav_sign_in'))];
  replace(nav, h('div', { class: 'links' }, links), h('div', { class: 'account' }, who));
  renderLanguage();
  relabelShell(nav);
}

/** What index.html says in English before the strings load: the skip link, the labels. */
function relabelShell(nav) {
  nav.setAttribute('aria-label', t('nav_main'));
  document.querySelector('a.brand')?.setAttribute('aria-label', t('brand_home'));
  const skip = document.querySelector('a.skip');
  if (skip) skip.textContent = t('skip_to_content');
}

function renderLanguage() {
  const select = document.getElementById('lang');
  replace(select, Object.entries(LANGUAGES).map(([code, name]) =>
    h('option', { value: code, selected: code === language() }, name)));
  select.setAttribute('aria-label', t('language'));
}

async function doSignOut() {
  await signOut();
  location.hash = '#/';
}

/** Keep ``--topbar-bottom`` (the menu's lower edge) for the messages' box, which sits under
 * it: on a phone the menu wraps to two rows or more, and a message over it hid its links. */
function followTopbar() {
  const bar = document.querySelector('header.topbar');
  if (!bar || typeof ResizeObserver === 'undefined') return;
  const set = () => document.documentElement.style.setProperty('--topbar-bottom',
    `${bar.offsetTop + bar.offsetHeight}px`);
  new ResizeObserver(set).observe(bar);
  set();
}

function wire() {
  followTopbar();
  document.getElementById('lang').addEventListener('change', async (event) => {
    try {
      await chooseLanguage(event.target.value);
    } catch (e) {
      toast(e.message, 'error');
    }
  });
  onLanguage(() => {
    renderNav();
    relabel();
  });
  onSession(renderNav);
  onSession(() => tournamentNotices(isMember()));
  onRoute((route) => {
    page = route.page;
    renderNav();
    document.getElementById('app').focus({ preventScroll: true });
  });
  window.addEventListener('unhandledrejection', (event) => {
    toast(event.reason && event.reason.message ? event.reason.message : String(event.reason),
      'error');
  });
}

async function boot() {
  prefetch();
  ensureSprite();
  wire();
  try {
    await loadSession();
  } catch (e) {
    toast(e.message, 'error');
  }
  renderNav();
  startLive(); // the live channel (/ws/me) for a signed-in person
  wireAccountLive(); // what it changes about your own account, on any page
  tournamentNotices(isMember());
  await start(document.getElementById('app'));
}

boot();
