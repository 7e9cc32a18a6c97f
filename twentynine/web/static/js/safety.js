// Chat safety in the browser: mute, block and report from a chat line; your mutes and blocks
// on the profile (the admins' list of reports is pages/admin/reports.js).
import { api, get, post } from './api.js';
import { h, replace, toast } from './dom.js';
import { t } from './i18n.js';
import { session } from './session.js';
import { button, empty, loading } from './ui.js';

/** The buttons beside someone else's chat line; ``hide(userId)`` drops their lines here. */
export function chatTools(line, { hide, code } = {}) {
  const me = session.user && session.user.id;
  if (!line.user_id || line.user_id === me || !line.id) return null;
  const who = { name: line.name };
  const menu = h('details', { class: 'chat-tools' },
    h('summary', { 'aria-label': t('chat_tools_for', who), title: t('chat_tools_for', who) }, '⋯'),
    h('div', { class: 'chat-tools-menu' },
      button(t('mute_player', who), async () => {
        await api('PUT', `/api/safety/mutes/${line.user_id}`);
        toast(t('muted_player', who));
        hide(line.user_id);
      }, { class: 'small', 'data-action': 'mute' }),
      button(t('block_player', who), async () => {
        if (!window.confirm(t('block_confirm', who))) return;
        await api('PUT', `/api/safety/blocks/${line.user_id}`);
        toast(t('blocked_player', who));
        hide(line.user_id);
      }, { class: 'small', 'data-action': 'block' }),
      button(t('report_line'), async () => {
        const reason = window.prompt(t('report_reason'), '');
        if (reason === null) return;
        await post('/api/safety/reports', { message_id: line.id, reason: reason.slice(0, 300),
          code: code || undefined });
        toast(t('reported'));
        menu.open = false;
      }, { class: 'small', 'data-action': 'report' })));
  return menu;
}

/** The profile's list of players you muted or blocked, each with a way back; ``redraw()``
 * on the box asks again (a change made on another page: ``safety_changed``). */
export function safetySection() {
  const box = h('div', { class: 'safety-lists', 'aria-live': 'polite' }, loading());
  const draw = async () => {
    const lists = await get('/api/safety');
    const group = (key, path, undo) => [h('h3', {}, t(key)),
      lists[key].length ? h('ul', { class: 'plain' }, lists[key].map((p) => h('li', {},
        `${p.name} `, button(t(undo), async () => {
          await api('DELETE', `/api/safety/${path}/${p.id}`);
          await draw();
        }, { class: 'small', 'data-action': undo })))) : empty(t(`${key}_none`))];
    replace(box, group('muted', 'mutes', 'unmute'), group('blocked', 'blocks', 'unblock'));
  };
  box.redraw = () => draw().catch((e) => replace(box, h('p', { class: 'error' }, e.message)));
  box.redraw();
  return box;
}
