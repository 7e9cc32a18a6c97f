// Sign in by email: we mail a 6-digit code and a link; either one signs you in.
import { get, post } from '../api.js';
import { h, replace } from '../dom.js';
import { language, t } from '../i18n.js';
import { go } from '../router.js';
import { setUser } from '../session.js';
import { busy, field, pageFrame } from '../ui.js';

function emailStep(box, next) {
  const form = h('form', { class: 'stack', 'aria-label': t('signin_email_step') },
    field(t('email'), h('input', { name: 'email', type: 'email', required: true,
      autocomplete: 'email', inputmode: 'email' })),
    field(t('first_name'), h('input', { name: 'first_name', maxlength: 60,
      autocomplete: 'given-name' }), t('first_name_hint')),
    h('button', { type: 'submit', class: 'primary' }, t('send_code')));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const email = String(data.get('email')).trim();
    const name = String(data.get('first_name') || '').trim();
    busy(form.querySelector('button'), async () => {
      // (the page's language: a new account starts in it)
      await post('/api/auth/email', name ? { email, first_name: name, language: language() }
        : { email, language: language() });
      codeStep(box, email, next);
    });
  });
  replace(box, form);
  form.querySelector('input').focus();
}

function codeStep(box, email, next) {
  const input = h('input', { name: 'code', required: true, inputmode: 'numeric',
    pattern: '[0-9]{6}', maxlength: 6, autocomplete: 'one-time-code' });
  const form = h('form', { class: 'stack', 'aria-label': t('signin_code_step') },
    h('p', { role: 'status' }, t('code_sent', { email })),
    field(t('code'), input, t('code_hint')),
    h('button', { type: 'submit', class: 'primary' }, t('sign_in')),
    h('button', { type: 'button', class: 'link', onclick: () => emailStep(box, next) },
      t('other_email')));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    busy(form.querySelector('button'), async () => {
      const user = await post('/api/auth/code', { email, code: input.value.trim() });
      await setUser(user);
      go(next || 'dashboard');
    });
  });
  replace(box, form);
  input.focus();
}

async function providers(list) {
  const found = await get('/api/auth/providers');
  if (!found.length) return;
  replace(list, h('h2', {}, t('or_sign_in_with')), h('div', { class: 'row' }, found.map((p) =>
    h('a', { class: 'button', href: `/auth/oidc/${encodeURIComponent(p.name)}/login` },
      p.title || p.name))));
}

/** Where to go once signed in: the page that sent the visitor here (``?next=``, a route of
 * this site's own: the router only ever goes to an address within the page). */
function nextRoute(route) {
  const next = (route && route.query.get('next')) || '';
  return next.replace(/^[#/]+/, '');
}

export function render(root, route) {
  const next = nextRoute(route);
  const box = h('div', { class: 'signin-box' });
  const list = h('div', { class: 'providers' });
  root.append(pageFrame(t('sign_in'), h('p', {}, t('signin_intro')), box, list,
    h('p', { class: 'muted' }, h('a', { href: '#/privacy' }, t('privacy_link')))));
  emailStep(box, next);
  providers(list);
}
