// Who is signed in. Members keep their choices on the server; guests and visitors in this
// browser only.
import { get, patch, post } from './api.js';
import { LANGUAGES, savedLanguage, setLanguage } from './i18n.js';
import { applyLook } from './prefs.js';

export const session = { user: null };
const listeners = new Set();

export function onSession(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed() {
  for (const listener of listeners) listener(session.user);
}

export async function loadSession() {
  const { user } = await get('/api/web/session');
  await setUser(user);
  return user;
}

export async function setUser(user) {
  session.user = user;
  const lang = user && !user.is_guest ? user.language : savedLanguage();
  await setLanguage(lang);
  applyLook(user);
  changed();
}

export const isMember = () => Boolean(session.user && !session.user.is_guest);

export async function signOut() {
  await post('/api/auth/logout');
  await setUser(null);
}

export async function chooseLanguage(code) {
  if (!(code in LANGUAGES)) return;
  localStorage.setItem('tn_lang', code);
  if (isMember()) session.user = await patch('/api/me', { language: code });
  await setLanguage(code);
}

export async function updateProfile(fields) {
  session.user = await patch('/api/me', fields);
  applyLook(session.user);
  changed();
  return session.user;
}
