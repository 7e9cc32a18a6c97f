// Building blocks shared by the pages: a page frame, labelled fields, and buttons that show
// they are busy and report failures.
import { h, toast } from './dom.js';
import { t } from './i18n.js';

export function pageFrame(title, ...children) {
  return h('section', { class: 'page' }, h('h1', {}, title), children);
}

let fieldCount = 0;

/** A label and its control, tied together by id. */
export function field(label, control, hint) {
  fieldCount += 1;
  const id = control.id || `f${fieldCount}`;
  control.id = id;
  const hintEl = hint ? h('small', { id: `${id}-hint`, class: 'hint' }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  const isCheck = control.type === 'checkbox' || control.type === 'radio';
  return isCheck
    ? h('div', { class: 'field check' }, control, h('label', { for: id }, label), hintEl)
    : h('div', { class: 'field' }, h('label', { for: id }, label), control, hintEl);
}

export function selectEl(name, options, value, attrs = {}) {
  return h('select', { name, ...attrs }, options.map(([v, label]) =>
    h('option', { value: v, selected: String(v) === String(value) }, label)));
}

/** Run an async action from a button or form: disable it meanwhile, toast any failure. */
export async function busy(control, action) {
  if (control) control.disabled = true;
  try {
    return await action();
  } catch (e) {
    toast(e.message || String(e), 'error');
    return undefined;
  } finally {
    if (control) control.disabled = false;
  }
}

export function button(label, onclick, attrs = {}) {
  const el = h('button', { type: 'button', ...attrs }, label);
  el.addEventListener('click', () => busy(el, () => onclick(el)));
  return el;
}

/** A link to sign in that comes back to the page shown now (its address, query and all: a
 * private table's invite code, say) once signed in. */
export function signInLink(label = t('nav_sign_in')) {
  const here = location.hash.replace(/^#\/?/, '');
  return h('a', { class: 'button primary', href: `#/signin?next=${encodeURIComponent(here)}` },
    label);
}

export function empty(text) {
  return h('p', { class: 'empty' }, text);
}

export function loading() {
  return h('p', { class: 'loading', role: 'status' }, t('loading'));
}

/** Tabs as links (the tab is part of the address, so Back works). */
export function tabLinks(base, tabs, active) {
  return h('nav', { class: 'tabs', 'aria-label': t('sections') }, tabs.map(([id, label]) =>
    h('a', { href: `#/${base}/${id}`, class: 'tab', 'aria-current': id === active ? 'page' : null },
      label)));
}

export function when(iso) {
  if (!iso) return '';
  const d = new Date(iso.endsWith('Z') || iso.includes('+') ? iso : `${iso}Z`);
  return d.toLocaleString();
}

/** Ask before something that cannot be undone: a modal dialog with ``question``, a button
 * ``yes`` and Cancel. Resolves to whether the person chose ``yes`` (Esc is Cancel). */
export function confirmDialog(question, yes) {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'confirm', 'aria-label': question },
      h('p', {}, question),
      h('form', { method: 'dialog', class: 'row' },
        h('button', { value: 'yes', class: 'danger', 'data-action': 'confirm' }, yes),
        h('button', { value: 'no', 'data-action': 'cancel', autofocus: true }, t('cancel'))));
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'yes');
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
