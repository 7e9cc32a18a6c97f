// What the server keeps about you, and why (seed 000 promises the bare minimum).
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { session } from '../session.js';
import { pageFrame } from '../ui.js';

const PARTS = ['account', 'signin', 'sessions', 'friends', 'games', 'live', 'not', 'yours', 'delete'];

export function render(root) {
  root.append(pageFrame(t('privacy_title'),
    h('div', { class: 'prose privacy' },
      h('p', { class: 'lead' }, t('privacy_intro')),
      PARTS.map((part) => h('section', { 'data-part': part },
        h('h2', {}, t(`privacy_h_${part}`)), h('p', {}, t(`privacy_${part}`)),
        part === 'games' ? h('p', {}, t('privacy_tournaments')) : null)),
      session.user && !session.user.is_guest
        ? h('p', {}, h('a', { class: 'button', href: '#/profile' }, t('privacy_to_profile')))
        : null)));
}
