// Admin page: reported chat lines, each with the lines around it as they were said; closing one
// takes it off the list. A new report, and one another admin closed, show at once.
import { get, post } from '../../api.js';
import { h, replace } from '../../dom.js';
import { t } from '../../i18n.js';
import { button, empty, when } from '../../ui.js';

export const id = 'reports';
export const title = 'reports';

export async function render(body) {
  async function refresh() {
    const reports = await get('/api/admin/reports');
    replace(body, reports.length ? h('ul', { class: 'plain report-list' }, reports.map((r) =>
      h('li', { class: 'report', 'data-report': r.id },
        h('p', {}, t('report_by', { reporter: r.reporter_name, author: r.author_name,
          at: when(r.created_at) })),
        r.reason ? h('p', { class: 'muted' }, t('report_reason_was', { reason: r.reason })) : null,
        h('ol', { class: 'chat-lines context' }, r.context.map((c) => h('li', {
          class: c.id === r.message_id ? 'reported' : null },
        h('strong', {}, c.name), `: ${c.text}`))),
        button(t('report_close'), async () => {
          await post(`/api/admin/reports/${r.id}/close`);
          await refresh();
        }, { class: 'small', 'data-action': 'close-report' }))))
      : empty(t('reports_none')));
  }
  await refresh();
  return {
    refresh,
    onLive(message) {
      // (closed: by another admin; hello: the channel came back and could not catch up)
      if (message.type === 'chat_reported' || message.type === 'report_closed'
        || (message.type === 'hello' && !message.complete)) refresh();
    },
  };
}
