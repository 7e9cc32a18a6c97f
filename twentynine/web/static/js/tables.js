// A table as a line in a list (dashboard, lobby): its name, rules, seats and what you can do.
import { post } from './api.js';
import { h } from './dom.js';
import { has, t } from './i18n.js';
import { go } from './router.js';
import { presetLabel } from './rulesform.js';
import { session } from './session.js';
import { turnSecondsLabel } from './table/clock.js';
import { button } from './ui.js';

/** A bot's level in the page's language ("Expert" is "বিশেষজ্ঞ" in Bengali). */
export function botName(level) {
  return has(`bot_level_${level}`) ? t(`bot_level_${level}`) : level;
}

/** What a seat at the table is called: its person, its bot's level, or "Open seat". */
export function seatName(s, i) {
  if (s.bot) return botName(s.bot);
  if (!s.user_id) return t('seat_open');
  const me = session.user && session.user.id === s.user_id;
  if (me && session.user.is_guest && s.name === 'Guest') return t('guest'); // the default name
  return s.name || t('seat_n', { n: i + 1 });
}

/** A table's name in the page's language when its host gave it none: the server stores the
 * English "<host>'s table" ("<host>'s game" for a hosted game); here it is "Table against bots"
 * at a solo table, else the host's table (or game) in the page's words. */
export function tableName(table) {
  const seats = table.seats || [];
  const host = seats.find((s) => s.user_id && s.user_id === table.host_id);
  return named(table.name, table.kind, host ? host.name : '',
    host ? seatName(host, host.seat) : '');
}

/** The table a live notice tells of (``name``, ``kind``, ``rated``, ``host_name``), named as
 * ``tableName`` names it in lists (and an unnamed rated table as one). */
export function noticeTableName({ name, kind, rated, host_name: host }) {
  return named(name, kind, host, host, rated);
}

/** ``name`` unless it is the server's default for ``host`` (the host's stored name), else the
 * page's words for it, with ``shown`` (how the page names the host). */
function named(name, kind, host, shown, rated = false) {
  const hosted = kind === 'hosted';
  const given = host && name === `${host}'s ${hosted ? 'game' : 'table'}` ? '' : name;
  if (given) return given;
  if (rated) return t('rated_table');
  if (kind === 'solo') return t('table_solo');
  return shown ? t(hosted ? 'game_of_host' : 'table_of_host', { name: shown }) : t('table');
}

/** Put ``text`` on the clipboard (the older way where the Clipboard API is not allowed). */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch (e) {
    const area = h('textarea', { class: 'sr-only', readonly: true }, text);
    document.body.append(area);
    area.select();
    const done = document.execCommand('copy');
    area.remove();
    if (!done) throw e;
  }
}

export function seatNames(table) {
  return table.seats.map((s) => {
    if (s.bot) return t('bot_named', { level: botName(s.bot) });
    if (!s.user_id) return t('open_seat');
    return s.joined ? s.name : t('not_joined_yet', { name: s.name });
  });
}

export function tableItem(table, actions) {
  const preset = table.rules && table.rules.preset;
  return h('li', { class: 'table-item', 'data-table': table.id },
    h('div', { class: 'table-item-main' },
      h('strong', {}, !table.name && table.rated ? t('rated_table') : tableName(table)),
      table.rated ? h('span', { class: 'badge rated' }, t('rated')) : null,
      h('span', { class: 'muted' }, ` · ${presetLabel(preset)} · ${t(`status_${table.status}`)}`),
      turnSecondsLabel(table) ? h('span', { class: 'badge clock', 'data-turn-seconds':
        table.turn_seconds }, turnSecondsLabel(table)) : null,
      h('div', { class: 'seat-names' }, seatNames(table).join(' · '))),
    h('div', { class: 'row' }, actions));
}

export async function joinAndOpen(table, body = {}) {
  await post(`/api/tables/${encodeURIComponent(table.id)}/join`, body);
  go(`table/${table.id}`);
}

export const joinButton = (table, label = t('join')) =>
  button(label, () => joinAndOpen(table), { class: 'primary', 'data-action': 'join' });

export const watchButton = (table) =>
  h('a', { class: 'button', href: `#/table/${table.id}`, 'data-action': 'watch' }, t('watch'));
