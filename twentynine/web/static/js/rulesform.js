// The rules a table plays: a preset, and house rules on top of it (every option of the engine,
// with the values the engine allows, read from /api/web/rules).
import { get } from './api.js';
import { h } from './dom.js';
import { has, t } from './i18n.js';
import { field, selectEl } from './ui.js';

let cached = null;

export async function rulesData() {
  if (!cached) cached = get('/api/web/rules');
  return cached;
}

export const optionLabel = (name) => (has(`opt_${name}`) ? t(`opt_${name}`) : name);
export const valueLabel = (value) => {
  if (typeof value === 'boolean') return value ? t('yes') : t('no');
  return has(`val_${value}`) ? t(`val_${value}`) : String(value);
};
export const presetLabel = (name) => (has(`preset_${name}`) ? t(`preset_${name}`) : name);

function control(option, value) {
  const name = `opt-${option.name}`;
  if (option.kind === 'bool') return h('input', { type: 'checkbox', name, checked: value });
  if (option.kind === 'int') {
    return h('input', { type: 'number', name, value, min: 1, max: option.name === 'match_rounds'
      ? 1000 : 29, step: 1, inputmode: 'numeric' });
  }
  return selectEl(name, option.choices.map((c) => [c, valueLabel(c)]), value);
}

function read(input, option) {
  if (option.kind === 'bool') return input.checked;
  if (option.kind === 'int') return Number.parseInt(input.value, 10);
  return input.value;
}

/** A preset select and a fold-out of house rules. value() gives {preset, options}. */
export async function rulesEditor(initial = 'standard') {
  const data = await rulesData();
  const presets = Object.fromEntries(data.presets.map((p) => [p.name, p]));
  const presetSelect = selectEl('preset', data.presets.map((p) => [p.name, presetLabel(p.name)]),
    initial);
  const inputs = {};
  const grid = h('div', { class: 'options-grid' });
  const describe = h('p', { class: 'hint', 'aria-live': 'polite' });

  function fill() {
    const preset = presets[presetSelect.value];
    grid.replaceChildren();
    for (const option of data.options) {
      inputs[option.name] = control(option, preset.options[option.name]);
      grid.append(field(optionLabel(option.name), inputs[option.name]));
    }
    describe.textContent = t(`preset_${preset.name}_about`);
  }
  presetSelect.addEventListener('change', fill);
  fill();

  const el = h('div', { class: 'rules-editor' },
    field(t('preset'), presetSelect), describe,
    h('details', { class: 'house-rules' }, h('summary', {}, t('house_rules')), grid));

  function value() {
    const preset = presets[presetSelect.value];
    const options = {};
    for (const option of data.options) {
      const v = read(inputs[option.name], option);
      if (v !== preset.options[option.name]) options[option.name] = v;
    }
    return { preset: preset.name, options };
  }
  return { el, value };
}
