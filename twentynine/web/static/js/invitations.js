// Inviting by mail someone who has no account: offered when a friend request finds no account
// with the address; the invitations waiting for a sign-up, with Withdraw.
import { del, get, post } from './api.js';
import { h, replace, toast } from './dom.js';
import { t } from './i18n.js';
import { button, empty } from './ui.js';

/** "No account with that email: send an invitation?" into ``box``. */
export function invitationOffer(box, email, done) {
  replace(box, h('div', { class: 'notice', role: 'status' },
    h('p', {}, t('no_account_invite', { email })),
    h('div', { class: 'row' },
      button(t('send_invitation'), async () => {
        await post('/api/friends/invitations', { email });
        toast(t('invitation_sent', { email }));
        replace(box);
        await done();
      }, { class: 'primary' }),
      button(t('cancel'), () => replace(box)))));
  box.querySelector('button').focus();
}

/** The section listing your invitations that wait for a sign-up. */
export async function invitationsList(again) {
  const rows = await get('/api/friends/invitations');
  return h('section', { class: 'invitations' }, h('h3', {}, t('your_invitations')),
    rows.length ? h('ul', { class: 'people' }, rows.map((row) => h('li', { 'data-invitation': row.id },
      h('span', {}, row.email),
      button(t('withdraw'), async () => {
        await del(`/api/friends/invitations/${row.id}`);
        await again();
      }, { 'aria-label': t('withdraw_named', { email: row.email }) }))))
      : empty(t('no_invitations')));
}
