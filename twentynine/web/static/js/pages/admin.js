// The admin page (admins only): one section each for what admins look after. A section is a
// module under pages/admin/ exporting {id, title, render(body, page)}; render fills its body
// and returns {refresh, onLive(message), stop} (each optional; stop: the page is left); after an action that others may
// show (a grant changes an account's tier) it calls page.changed(). To add a section, add its
// module to SECTIONS.
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { session } from '../session.js';
import { loading, pageFrame } from '../ui.js';
import * as requests from './admin/requests.js';
import * as accounts from './admin/accounts.js';
import * as tables from './admin/tables.js';
import * as reports from './admin/reports.js';

const SECTIONS = [requests, accounts, tables, reports];

export function render(root) {
  if (!session.user || !session.user.is_admin) {
    root.append(pageFrame(t('admin_page'), h('p', {}, t('admins_only'))));
    return undefined;
  }
  const handles = [];
  const page = {
    /** Something changed: every section shows it afresh. */
    changed() {
      for (const handle of handles) if (handle.refresh) handle.refresh().catch(() => {});
    },
  };
  const parts = SECTIONS.map((section) => {
    const body = h('div', { class: 'admin-body' }, loading());
    const el = h('section', { class: 'admin-section', 'data-section': section.id,
      'aria-labelledby': `admin-${section.id}` },
    h('h2', { id: `admin-${section.id}` }, t(section.title)), body);
    Promise.resolve(section.render(body, page))
      .then((handle) => { if (handle) handles.push(handle); })
      .catch((e) => replace(body, h('p', { class: 'error', role: 'alert' }, e.message)));
    return el;
  });
  root.append(pageFrame(t('admin_page'), h('div', { class: 'admin-grid' }, parts)));
  return {
    /** A live message for the admin page (live.js hands it to the page shown): every section
     * sees it. */
    onLive(message) {
      for (const section of handles) if (section.onLive) section.onLive(message);
    },
    cleanup() {
      for (const section of handles) if (section.stop) section.stop();
    },
  };
}
