// The rules: how to play (in your language), every preset with every option's value as the
// engine has it, and the complete rules page (docs/rules.md).
import { get } from '../api.js';
import { h, replace } from '../dom.js';
import { language, t } from '../i18n.js';
import { markdown, wireAnchors } from '../markdown.js';
import { optionLabel, presetLabel, rulesData, valueLabel } from '../rulesform.js';
import { loading, pageFrame } from '../ui.js';

const SUMMARY = ['rules_s_cards', 'rules_s_teams', 'rules_s_auction', 'rules_s_trump',
  'rules_s_stakes', 'rules_s_play', 'rules_s_reveal', 'rules_s_pair', 'rules_s_single',
  'rules_s_score', 'rules_s_invalid'];

export function render(root, route) {
  const presetBox = h('div', { class: 'preset-view', 'aria-live': 'polite' }, loading());
  const full = h('div', { class: 'rules-text' }, loading());
  wireAnchors(full);
  root.append(pageFrame(t('nav_rules'),
    h('section', { 'aria-labelledby': 'how-to' }, h('h2', { id: 'how-to' }, t('rules_how')),
      SUMMARY.map((key) => h('p', {}, t(key)))),
    h('section', { 'aria-labelledby': 'presets' }, h('h2', { id: 'presets' }, t('presets')),
      h('p', {}, t('presets_intro')), presetBox),
    h('section', { 'aria-labelledby': 'full-rules' },
      h('h2', { id: 'full-rules' }, t('rules_full')),
      language() === 'en' ? null : h('p', { class: 'muted' }, t('rules_full_english')),
      full)));
  showPresets(presetBox, route.params[0] || 'standard');
  get('/api/web/rules-text').then(({ markdown: text }) => {
    if (!text) { replace(full, h('p', {}, t('rules_text_missing'))); return; }
    full.innerHTML = markdown(text.replace(/^# .*\n/, ''));
    full.lang = 'en';
  });
}

async function showPresets(box, chosen) {
  const data = await rulesData();
  const standard = data.presets.find((p) => p.name === 'standard');
  const draw = (name) => {
    const preset = data.presets.find((p) => p.name === name) || standard;
    const rows = data.options.map((o) => {
      const value = preset.options[o.name];
      const differs = preset.differs.includes(o.name);
      return h('tr', { class: differs ? 'diff' : null },
        h('th', { scope: 'row' }, optionLabel(o.name), h('br'), h('code', {}, o.name)),
        h('td', { class: differs ? 'diff' : null }, valueLabel(value),
          differs ? h('span', { class: 'sr-only' }, ` (${t('differs')})`) : null),
        h('td', {}, valueLabel(standard.options[o.name])),
        h('td', { class: 'muted' }, o.choices ? o.choices.map(valueLabel).join(', ')
          : o.kind === 'bool' ? `${t('yes')} / ${t('no')}` : t('number')));
    });
    replace(box,
      h('div', { class: 'preset-tabs', role: 'group', 'aria-label': t('presets') },
        data.presets.map((p) => h('button', {
          type: 'button', 'aria-pressed': String(p.name === preset.name), 'data-preset': p.name,
          onclick: () => {
            history.replaceState(null, '', `#/rules/${p.name}`); // no new route: no re-render
            draw(p.name);
          },
        }, presetLabel(p.name)))),
      h('h3', {}, presetLabel(preset.name)),
      h('p', {}, t(`preset_${preset.name}_about`)),
      h('p', { class: 'muted' }, t('preset_source', { source: preset.source })),
      h('div', { class: 'scroll-x' }, h('table', { class: 'data options-table' },
        h('caption', { class: 'sr-only' }, t('options_of', { preset: presetLabel(preset.name) })),
        h('thead', {}, h('tr', {}, [t('option'), t('value'), t('standard_value'), t('choices')]
          .map((x) => h('th', { scope: 'col' }, x)))),
        h('tbody', {}, rows))));
  };
  draw(chosen);
}
