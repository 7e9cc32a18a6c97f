// Admin page: tables that are open now (close one, for good).
import { get, post } from '../../api.js';
import { h, replace, toast } from '../../dom.js';
import { t } from '../../i18n.js';
import { watchTables } from '../../live.js';
import { button, empty, when } from '../../ui.js';

export const id = 'tables';
export const title = 'admin_tables';

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
  // every table's changes (opened, started, ended, closed, seats), while this list is shown:
  // without it the live channel tells an admin only of the tables they are at
  const stop = watchTables();
  await refresh();
  return {
    refresh,
    stop,
    onLive(message) {
      // (hello: the channel came back, and what it missed meanwhile is not kept for a topic)
      if (message.type === 'table_changed' || message.type === 'hello') {
        refresh().catch(() => {});
      }
    },
  };
}
