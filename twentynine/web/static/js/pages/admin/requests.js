// Admin page: tier requests waiting for an answer (grant / decline; the asker is told live).
import { get, post } from '../../api.js';
import { h, replace, toast } from '../../dom.js';
import { t } from '../../i18n.js';
import { button, empty, when } from '../../ui.js';

export const id = 'requests';
export const title = 'admin_requests';

export async function render(body, page) {
  async function refresh() {
    const pending = await get('/api/admin/tier-requests');
    replace(body, pending.length
      ? h('ul', { class: 'people' }, pending.map((r) => h('li', { 'data-request': r.id },
        h('div', {},
          h('strong', {}, r.name), h('span', { class: 'muted' }, ` ${r.email || ''}`),
          h('div', { class: 'muted' }, t('admin_asks_for', { tier: t(`tier_${r.tier}`),
            when: when(r.created_at) })),
          r.note ? h('blockquote', { class: 'note' }, r.note) : null),
        h('div', { class: 'row' },
          button(t('grant'), async () => {
            await post(`/api/admin/tier-requests/${r.id}/grant`);
            toast(t('granted_to', { name: r.name }));
            page.changed();
          }, { class: 'primary', 'aria-label': t('grant_named', { name: r.name }) }),
          button(t('decline'), async () => {
            await post(`/api/admin/tier-requests/${r.id}/decline`);
            toast(t('declined_for', { name: r.name }));
            page.changed();
          }, { 'aria-label': t('decline_named', { name: r.name }) })))))
      : empty(t('no_tier_requests')));
  }
  await refresh();
  return {
    refresh,
    onLive(message) {
      // (hello: the channel came back and could not catch up on what it missed)
      if (message.type === 'tier_request' || (message.type === 'hello' && !message.complete)) {
        refresh();
      }
    },
  };
}
