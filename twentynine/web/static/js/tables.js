// A table as a line in a list (dashboard, lobby): its name, rules, seats and what you can do.
import { post } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { go } from './router.js';
import { presetLabel } from './rulesform.js';
import { turnSecondsLabel } from './table/clock.js';
import { button } from './ui.js';

export function seatNames(table) {
  return table.seats.map((s) => {
    if (s.bot) return t('bot_named', { level: s.bot });
    if (!s.user_id) return t('open_seat');
    return s.joined ? s.name : t('not_joined_yet', { name: s.name });
  });
}

export function tableItem(table, actions) {
  const preset = table.rules && table.rules.preset;
  return h('li', { class: 'table-item', 'data-table': table.id },
    h('div', { class: 'table-item-main' },
      h('strong', {}, table.name || (table.rated ? t('rated_table') : table.id)),
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
