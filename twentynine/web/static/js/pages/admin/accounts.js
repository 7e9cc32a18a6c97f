// Admin page: accounts, searched by email or name; set a tier, disable or enable, make admin.
import { get, post } from '../../api.js';
import { h, replace, toast } from '../../dom.js';
import { t } from '../../i18n.js';
import { watchAccounts } from '../../live.js';
import { session } from '../../session.js';
import { button, empty, field, selectEl, when } from '../../ui.js';

export const id = 'accounts';
export const title = 'admin_accounts';

const TIERS = ['basic', 'standard', 'standard_guest'];

export async function render(body, page) {
  const search = h('input', { name: 'q', type: 'search', maxlength: 320, autocomplete: 'off' });
  const form = h('form', { class: 'row', role: 'search', 'aria-label': t('admin_search') },
    field(t('admin_search'), search), h('button', { type: 'submit' }, t('search')));
  const list = h('div', { class: 'admin-accounts' });
  replace(body, form, list);

  let asked = 0; // a list that comes back after a newer search's is not shown
  async function refresh() {
    const q = search.value.trim();
    const mine = ++asked;
    const found = await get(`/api/admin/users${q ? `?q=${encodeURIComponent(q)}` : ''}`);
    if (mine !== asked) return;
    replace(list, found.accounts.length
      ? h('div', { class: 'scroll-x' }, h('table', { class: 'data' },
        h('thead', {}, h('tr', {}, [t('first_name'), t('email'), t('account_tier'),
          t('tab_friends'), t('created'), ''].map((x) => h('th', { scope: 'col' }, x)))),
        h('tbody', {}, found.accounts.map(row))))
      : empty(t('admin_no_accounts')),
    found.more ? h('p', { class: 'muted' }, t('admin_more_accounts')) : null);
  }

  function row(a) {
    const mine = session.user && a.id === session.user.id;
    const tier = selectEl('tier', TIERS.map((x) => [x, t(`tier_${x}`)]), a.tier,
      { 'aria-label': t('tier_of', { name: a.first_name }), disabled: a.deleted });
    tier.addEventListener('change', async () => {
      try {
        await post(`/api/admin/users/${a.id}/tier`, { tier: tier.value });
        toast(t('tier_set', { name: a.first_name, tier: t(`tier_${tier.value}`) }));
      } catch (e) {
        toast(e.message, 'error');
      }
      page.changed(); // a pending request for this tier is granted by it
    });
    const act = (label, path, attrs) => button(label, async () => {
      await post(`/api/admin/users/${a.id}/${path}`);
      page.changed();
    }, attrs);
    const flags = [a.is_admin ? t('admin') : null, a.disabled && !a.deleted ? t('disabled') : null,
      a.deleted ? t('deleted_account') : null].filter(Boolean);
    return h('tr', { 'data-account': a.id },
      h('td', {}, h('strong', {}, a.first_name),
        flags.length ? h('span', { class: 'muted' }, ` (${flags.join(', ')})`) : null),
      h('td', {}, a.email || '—'),
      h('td', {}, tier),
      h('td', {}, String(a.friends)),
      h('td', {}, when(a.created_at)),
      h('td', {}, h('div', { class: 'row' }, a.deleted ? null : [
        a.disabled
          ? act(t('enable'), 'enable', { 'aria-label': t('enable_named', { name: a.first_name }) })
          : (mine ? null : act(t('disable'), 'disable', { class: 'danger',
            'aria-label': t('disable_named', { name: a.first_name }) })),
        a.is_admin || a.disabled ? null : act(t('make_admin'), 'admin',
          { 'aria-label': t('make_admin_named', { name: a.first_name }) }),
      ])));
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    refresh().catch((e) => toast(e.message, 'error'));
  });
  // every change to the list (an account made, renamed, disabled …, by anyone) while it is
  // shown; many at once are one request
  const stop = watchAccounts();
  let soon = null;
  const refreshSoon = () => {
    if (soon === null) {
      soon = setTimeout(() => {
        soon = null;
        refresh().catch(() => {});
      }, 150);
    }
  };
  await refresh();
  return {
    refresh,
    stop() {
      stop();
      clearTimeout(soon);
    },
    onLive(message) {
      // (hello: the channel came back, and what it missed meanwhile is not kept for a topic)
      if (message.type === 'account_listed' || message.type === 'hello'
        || (message.type === 'tier_request' && message.status === 'granted')) refreshSoon();
    },
  };
}
