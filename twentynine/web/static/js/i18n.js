// Strings in English, Bengali, Hindi and Nepali. English is loaded with the page; the others
// are fetched when chosen. A missing string falls back to English.
import en from './strings/en.js';

export const LANGUAGES = { en: 'English', bn: 'বাংলা', hi: 'हिन्दी', ne: 'नेपाली' };

let current = 'en';
let strings = en;
const listeners = new Set();

/**
 * The string ``key`` in the current language with ``{name}`` replaced by ``vars[name]``;
 * ``{name:one|other}`` picks a word by the number ``vars[name]`` (the language's plural rules:
 * the first word for the category "one", the second for every other), as in
 * ``"{tricks} {tricks:trick|tricks}"``.
 */
export function t(key, vars) {
  let text = strings[key] ?? en[key] ?? key;
  if (vars) {
    text = text.replace(/\{(\w+)(?::([^|{}]*)\|([^{}]*))?\}/g, (m, name, one, other) => {
      if (!(name in vars)) return m;
      if (one === undefined) return String(vars[name]);
      return plurals().select(Number(vars[name])) === 'one' ? one : other;
    });
  }
  return text;
}

let pluralRules = null;
let pluralLanguage = null;
function plurals() {
  if (pluralLanguage !== current) {
    pluralRules = new Intl.PluralRules(current);
    pluralLanguage = current;
  }
  return pluralRules;
}

/** A refusal of the server's in the current language: the string for its ``reason`` where
 * there is one, else the server's own (English) words. */
export function refusalText(reason, message) {
  return reason && has(`err_${reason}`) ? t(`err_${reason}`) : message;
}

export function has(key) {
  return key in en;
}

export function language() {
  return current;
}

export async function setLanguage(code) {
  if (!(code in LANGUAGES)) code = 'en';
  strings = code === 'en' ? en : (await import(`./strings/${code}.js`)).default;
  current = code;
  document.documentElement.lang = code;
  for (const listener of listeners) listener(code);
}

export function onLanguage(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The language a visitor without an account prefers: saved here, else the browser's. */
export function savedLanguage() {
  const saved = localStorage.getItem('tn_lang');
  if (saved && saved in LANGUAGES) return saved;
  const browser = (navigator.language || 'en').slice(0, 2);
  return browser in LANGUAGES ? browser : 'en';
}
