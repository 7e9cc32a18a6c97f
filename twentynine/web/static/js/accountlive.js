// What the live channel changes about your own account, on whatever page is open: a request
// for a standard account answered (a notice; the Host tab shows what follows), the account
// changed by an admin or on another device (the session takes it; the profile page shows it). (live.js itself signs the page out on
// 'signed_out', and hands each message to the open page's onLive: the admin page's news.)
import { get } from './api.js';
import { toast } from './dom.js';
import { t } from './i18n.js';
import { onLive } from './live.js';
import { parseHash, show } from './router.js';
import { session, setUser } from './session.js';

const onHostTab = () => {
  const route = parseHash();
  return route.page === 'dashboard' && route.params[0] === 'host';
};

export function wireAccountLive() {
  onLive('tier_request', (message) => {
    if (!session.user || message.user_id !== session.user.id) return; // (an admin's news)
    if (message.status === 'granted') toast(t('tier_request_granted'));
    if (message.status === 'declined') {
      toast(t('tier_request_declined_live'));
      if (onHostTab()) show();
    }
  });
  onLive('account_changed', async (message) => {
    if (!session.user || message.user_id !== session.user.id) return;
    await setUser(await get('/api/me')); // (pages draw again: the profile its new name)
    if (onHostTab()) show();
  });
}
