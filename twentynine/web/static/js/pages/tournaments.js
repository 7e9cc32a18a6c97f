// Tournaments: every event (live), and the form to organise one (a standard account).
import { post } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { go } from '../router.js';
import { rulesEditor } from '../rulesform.js';
import { isMember, session } from '../session.js';
import { field, loading, pageFrame, selectEl } from '../ui.js';
import { tournamentList } from '../tournament/list.js';

export function render(root) {
  const list = tournamentList();
  const create = h('div', { class: 'create-tournament' }, loading());
  root.append(pageFrame(t('tour_title'), h('p', {}, t('tour_intro')),
    h('div', { class: 'lobby-grid' },
      h('section', {}, h('h2', {}, t('tour_all')), list.el),
      h('section', {}, h('h2', {}, t('tour_create')), create))));
  createForm(create).catch((e) => replace(create, h('p', { class: 'error' }, e.message)));
  return list.stop;
}

const input = (name, attrs = {}) => h('input', { name, ...attrs });

async function createForm(box) {
  const user = session.user;
  if (!isMember() || !['standard', 'standard_guest'].includes(user.tier)) {
    replace(box, h('p', {}, t('tour_create_needs_standard')));
    return;
  }
  const editor = await rulesEditor();
  const f = {
    name: input('name', { required: true, maxlength: 100 }),
    description: h('textarea', { name: 'description', rows: 3, maxlength: 5000 }),
    rules_text: h('textarea', { name: 'rules_text', rows: 4, maxlength: 20000 }),
    format: selectEl('format', ['knockout', 'swiss', 'round_robin'].map((v) =>
      [v, t(`fmt_${v}`)]), 'knockout'),
    rounds: input('rounds', { type: 'number', min: 1, max: 20, value: 4 }),
    team_mode: selectEl('team_mode', [['pairs', t('mode_pairs')],
      ['individuals', t('mode_individuals')]], 'pairs'),
    match_deals: input('match_deals', { type: 'number', min: 0, max: 50, value: 0 }),
    max_teams: input('max_teams', { type: 'number', min: 2, max: 128, value: 16 }),
    opens: input('registration_opens_at', { type: 'datetime-local' }),
    closes: input('registration_closes_at', { type: 'datetime-local' }),
    conference_url: input('conference_url', { type: 'url', placeholder: 'https://…',
      pattern: 'https://.+' }),
    conference_per_match: input('conference_per_match', { type: 'checkbox' }),
    entry_note: h('textarea', { name: 'entry_note', rows: 2, maxlength: 2000 }),
    approval: input('approval', { type: 'checkbox' }),
    no_show: selectEl('no_show', [['bot', t('no_show_bot')], ['forfeit', t('no_show_forfeit')]],
      'bot'),
    grace_seconds: input('grace_seconds', { type: 'number', min: 0, max: 3600, value: 300 }),
    third_place: input('third_place', { type: 'checkbox' }),
  };
  const roundsField = field(t('tour_rounds'), f.rounds);
  const thirdField = field(t('tour_third_place'), f.third_place);
  const showFormat = () => {
    roundsField.hidden = f.format.value !== 'swiss';
    thirdField.hidden = f.format.value !== 'knockout';
    if (f.format.value === 'round_robin' && Number(f.max_teams.value) > 8) f.max_teams.value = 8;
  };
  f.format.addEventListener('change', showFormat);
  showFormat();
  const when = (el) => (el.value ? new Date(el.value).toISOString() : null);
  const form = h('form', { class: 'stack', 'aria-label': t('tour_create') },
    field(t('tour_name'), f.name), field(t('tour_description'), f.description),
    field(t('tour_format'), f.format), roundsField, thirdField,
    field(t('tour_team_mode'), f.team_mode), field(t('tour_match_deals'), f.match_deals),
    field(t('tour_max_teams'), f.max_teams), field(t('tour_opens'), f.opens),
    field(t('tour_closes'), f.closes), editor.el, field(t('tour_rules_text'), f.rules_text),
    field(t('tour_conference'), f.conference_url),
    field(t('tour_conference_per_match'), f.conference_per_match),
    field(t('tour_entry_note'), f.entry_note), field(t('tour_approval'), f.approval),
    field(t('tour_no_show'), f.no_show), field(t('tour_grace'), f.grace_seconds),
    h('button', { type: 'submit', class: 'primary' }, t('tour_create')));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const format = f.format.value;
    const body = {
      name: f.name.value.trim(),
      description: f.description.value,
      rules_text: f.rules_text.value,
      rules: editor.value(),
      format,
      team_mode: f.team_mode.value,
      match_deals: Number(f.match_deals.value),
      max_teams: Number(f.max_teams.value),
      registration_opens_at: when(f.opens),
      registration_closes_at: when(f.closes),
      conference_url: f.conference_url.value.trim(),
      conference_per_match: f.conference_per_match.checked,
      entry_note: f.entry_note.value,
      approval: f.approval.checked,
      no_show: f.no_show.value,
      grace_seconds: Number(f.grace_seconds.value),
    };
    if (format === 'swiss') body.rounds = Number(f.rounds.value);
    if (format === 'knockout') body.third_place = f.third_place.checked;
    post('/api/tournaments', body).then((doc) => go(`tournament/${doc.id}`))
      .catch((e) => toast(e.message, 'error'));
  });
  replace(box, form);
}
