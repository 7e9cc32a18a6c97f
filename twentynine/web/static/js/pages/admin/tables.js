// Admin page: tables that are open now (close one, for good).
import { get, post } from '../../api.js';
import { h, replace, toast } from '../../dom.js';
import { t } from '../../i18n.js';
import { button, empty, when } from '../../ui.js';

export const id = 'tables';
export const title = 'admin_tables';

/** How often the list looks again: the live channel tells an admin only of the tables they
 * are at (or their friends host), not of every table opened, started or closed. */
const LOOK_AGAIN_MS = 2000;

export async function render(body, page) {
  let shown = null;
  async function refresh() {
    const open = await get('/api/admin/tables');
    const seen = JSON.stringify(open);
    if (seen === shown) return; // unchanged: keep the list (and the focus in it)
    shown = seen;
    replace(body, open.length
      ? h('ul', { class: 'table-list' }, open.map((table) => h('li', { class: 'table-item',
        'data-table': table.id },
      h('div', {},
        h('strong', {}, table.name || t(`admin_kind_${table.kind}`)),
        h('div', { class: 'muted' }, [t(`admin_kind_${table.kind}`), t(`status_${table.status}`),
          table.host || null, when(table.created_at)].filter(Boolean).join(' · '))),
      table.kind === 'tournament' ? null : button(t('close_table'), async () => { // (a match
        // closes when it is decided)
        if (!window.confirm(t('close_table_confirm'))) return;
        await post(`/api/admin/tables/${encodeURIComponent(table.id)}/close`);
        toast(t('table_closed_by_admin'));
        page.changed();
      }, { class: 'danger', 'aria-label': t('close_table_named', { id: table.id }) }))))
      : empty(t('no_open_tables')));
  }
  await refresh();
  const timer = setInterval(() => {
    if (!body.isConnected) clearInterval(timer); // the admin page is gone
    else refresh().catch(() => {});
  }, LOOK_AGAIN_MS);
  return {
    refresh,
    onLive(message) {
      if (message.type === 'table_changed') refresh();
    },
  };
}
