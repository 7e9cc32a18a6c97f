// The profile's "Your data": what is kept (the privacy page), a download of all of it as JSON,
// and deleting the account.
import { post } from './api.js';
import { h, replace, toast } from './dom.js';
import { t } from './i18n.js';
import { go } from './router.js';
import { setUser } from './session.js';
import { busy, field } from './ui.js';

export function yourDataSection() {
  const confirmBox = h('div', { class: 'delete-account' });
  const ask = h('button', { type: 'button', class: 'danger' }, t('delete_account'));
  ask.addEventListener('click', () => confirmDelete(confirmBox, ask));
  return h('section', { class: 'your-data', 'aria-labelledby': 'your-data' },
    h('h2', { id: 'your-data' }, t('your_data')),
    h('p', {}, t('your_data_intro'), ' ', h('a', { href: '#/privacy' }, t('privacy_link'))),
    h('div', { class: 'row' },
      h('a', { class: 'button', href: '/api/me/data', download: 'twentynine-my-data.json' },
        t('download_data')),
      ask),
    confirmBox);
}

function confirmDelete(box, ask) {
  const sure = h('input', { type: 'checkbox', name: 'sure', required: true });
  const form = h('form', { class: 'stack notice', 'aria-label': t('delete_account') },
    h('p', {}, t('delete_account_explain')),
    field(t('delete_account_sure'), sure),
    h('div', { class: 'row' },
      h('button', { type: 'submit', class: 'danger' }, t('delete_account_now')),
      h('button', { type: 'button', onclick: () => { replace(box); ask.hidden = false; } },
        t('cancel'))));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!sure.checked) return;
    busy(form.querySelector('button[type=submit]'), async () => {
      await post('/api/me/delete', { confirm: true });
      await setUser(null);
      toast(t('account_deleted'));
      go('');
    });
  });
  ask.hidden = true;
  replace(box, form);
  sure.focus();
}
