// Small DOM helpers: build elements declaratively, without a framework.

/** h('button', {class: 'x', onclick: f, 'aria-label': 'y'}, 'text', child, [more]) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'class') {
      el.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : value;
    } else if (key === 'html') {
      el.innerHTML = value; // only ever our own SVG markup
    } else if (key in PROPS) {
      el[PROPS[key]] = value;
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

const PROPS = { value: 'value', checked: 'checked', selected: 'selected', text: 'textContent' };

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function replace(el, ...children) {
  clear(el);
  return append(el, children);
}

/** Re-render a region while keeping keyboard focus on the "same" element (by data-key). */
export function keepFocus(region, render) {
  const active = document.activeElement;
  const key = active && region.contains(active) ? active.dataset.key : null;
  render();
  if (key) {
    const again = region.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
  }
}

/** A short-lived message for everyone, read out by screen readers. */
export function toast(message, kind = 'info') {
  const box = document.getElementById('toasts');
  if (!box) return;
  const item = h('div', { class: ['toast', kind], role: kind === 'error' ? 'alert' : 'status' },
    message);
  box.append(item);
  setTimeout(() => item.remove(), kind === 'error' ? 6000 : 3500);
}
