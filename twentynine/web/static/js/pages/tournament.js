// One tournament: what it is, signing up, the entrants, the organiser's controls, the bracket
// (knockout) or the standings (Swiss, round robin), every match with its live score and a link
// to watch it, the final ranking and the exports. It updates itself from the live channel.
import { get, post } from '../api.js';
import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { isMember, session } from '../session.js';
import { botName } from '../tables.js';
import {
  button, empty, field, loading, pageFrame, selectEl, signInLink, when,
} from '../ui.js';
import { bracketSvg } from '../tournament/bracket.js';
import { statusText } from '../tournament/list.js';
import { onLive } from '../tournament/live.js';

export function render(root, route) {
  const id = Number(route.params[0]);
  const body = h('div', { class: 'tournament' }, loading());
  root.append(h('section', { class: 'page tournament-page' }, body));
  let timer = null;
  let doc = null;
  let drawn = '';
  const load = async () => {
    try {
      doc = await get(`/api/tournaments/${id}`);
      const seen = JSON.stringify(doc);
      if (seen === drawn) return; // nothing new: keep what the organiser may be editing
      drawn = seen;
      draw(body, doc, load);
    } catch (e) {
      replace(body, pageFrame(t('tour_title'), h('p', { class: 'error', role: 'alert' },
        e.message)));
    }
  };
  load();
  // (a visitor who is not signed in has the live channel too: the event's changes are told to
  // every page; hello: the channel came back, and what it missed is not kept for a visitor)
  const stop = onLive((m) => {
    if (m.tournament_id !== id && m.type !== 'hello') return;
    clearTimeout(timer);
    timer = setTimeout(load, 120);
  });
  return {
    cleanup: () => { clearTimeout(timer); stop(); },
    relabel: () => { if (doc) draw(body, doc, load); },
  };
}

/** A team's name in the page's language: the server names a bot team in English
 * ("Expert bots 2"), the page says it in its own words with the same number. */
export function teamName(e) {
  if (!e.bot) return e.name;
  const n = (/(\d+)$/.exec(e.name) || [])[1] || '';
  return t('tour_bot_team', { level: botName(e.bot), n }).trim();
}

function namesOf(doc) {
  return Object.fromEntries(doc.entries.map((e) => [e.id, teamName(e)]));
}

function draw(body, doc, reload) {
  const names = namesOf(doc);
  const act = (path, payload) => async () => {
    await post(`/api/tournaments/${doc.id}${path}`, payload);
    await reload();
  };
  const head = h('header', { class: 'tournament-head' },
    h('h1', {}, doc.name),
    h('p', { class: 'muted' }, `${t(`fmt_${doc.format}`)} · `,
      h('span', { 'data-status': doc.status, class: 'tournament-status' }, statusText(doc)),
      ` · ${t('tour_teams_count', { teams: doc.teams, max: doc.max_teams })} · `,
      t('tour_organiser', { name: doc.organiser.name })),
    doc.description ? h('p', { class: 'prewrap' }, doc.description) : null,
    doc.conference_url ? h('p', {}, h('a', { href: doc.conference_url, target: '_blank',
      rel: 'noopener noreferrer' }, t('tour_conference_link'))) : null);
  const parts = [head, signUp(doc, act), organiserPanel(doc, act), ranking(doc, names),
    doc.format === 'knockout' ? bracket(doc, names) : standings(doc, names),
    roundsList(doc, names, act), entrants(doc, act), about(doc), exportsOf(doc)];
  replace(body, parts);
  document.title = `${doc.name} · TwentyNine`;
}

function section(title, ...children) {
  return h('section', { class: 'tournament-section' }, h('h2', {}, title), children);
}

/** When registration opens and closes (those the organiser set), while it may still come. */
function registrationWindow(doc) {
  if (doc.status !== 'registration') return null;
  const lines = [['tour_opens', doc.registration_opens_at],
    ['tour_closes', doc.registration_closes_at]].filter(([, at]) => at);
  if (!lines.length) return null;
  return h('p', { class: 'registration-window' }, lines.map(([key, at], i) => [i ? ' · ' : '',
    `${t(key)}: `, h('time', { datetime: at }, when(at))]));
}

function signUp(doc, act) {
  const dates = registrationWindow(doc);
  if (!session.user && doc.registration_open) { // a visitor: sign in, and come back here
    return section(t('tour_register'), dates,
      h('p', {}, signInLink(t('tour_sign_in_to_register'))));
  }
  if (!doc.registration_open && !doc.you.entry_id) {
    return dates ? section(t('tour_register'), dates) : null;
  }
  if (!isMember()) return null;
  const mine = doc.entries.find((e) => e.id === doc.you.entry_id);
  if (mine) {
    const me = session.user.id;
    const partnerToConfirm = mine.status === 'partner'
      && mine.players.length > 1 && mine.players[1].user_id === me;
    return h('div', { class: 'notice-box', 'data-entry': mine.id },
      h('p', {}, t('tour_registered', { status: t(`entry_${mine.status}`) }), ' — ',
        h('strong', {}, mine.name)),
      h('div', { class: 'row' },
        partnerToConfirm ? button(t('tour_confirm'), act(`/entries/${mine.id}/confirm`),
          { class: 'primary', 'data-action': 'confirm' }) : null,
        doc.status === 'registration' ? button(t('tour_withdraw'),
          act(`/entries/${mine.id}/withdraw`), { 'data-action': 'withdraw' }) : null));
  }
  if (!doc.registration_open) return null;
  const partner = h('input', { name: 'partner_email', type: 'email', autocomplete: 'off' });
  const name = h('input', { name: 'team_name', maxlength: 100 });
  const form = h('form', { class: 'stack register-form', 'aria-label': t('tour_register') },
    dates, doc.entry_note ? h('p', { class: 'prewrap hint' }, doc.entry_note) : null,
    doc.team_mode === 'pairs' ? field(t('tour_partner_email'), partner) : null,
    field(t('tour_team_name'), name),
    h('button', { type: 'submit', class: 'primary' }, t('tour_register')));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const payload = { name: name.value.trim() };
    if (partner.value.trim()) payload.partner_email = partner.value.trim();
    act('/entries', payload)().catch((e) => toast(e.message, 'error'));
  });
  return section(t('tour_register'), form);
}

function organiserPanel(doc, act) {
  if (!doc.you.organiser || doc.status === 'finished') return null;
  const controls = [];
  if (doc.status === 'registration') {
    const teams = h('input', { name: 'bot_teams', type: 'number', min: 1, max: 128, value: 1 });
    const level = selectEl('bot_level', ['random', 'beginner', 'intermediate', 'expert'].map(
      (lv) => [lv, t('bot_named', { level: botName(lv) })]), 'intermediate');
    controls.push(h('div', { class: 'row' }, field(t('tour_bot_teams'), teams),
      field(t('tour_bot_level'), level),
      button(t('tour_add_bots'), () => act('/bots', { teams: Number(teams.value),
        level: level.value })(), { 'data-action': 'add-bots' })));
    // a call on every entrant's open pages before the start ("starts in 10 minutes")
    const minutes = h('input', { name: 'call_minutes', type: 'number', min: 1, max: 180,
      value: 10 });
    controls.push(h('div', { class: 'row' }, field(t('tour_call_minutes'), minutes),
      button(t('tour_call'), async () => {
        const wait = Number(minutes.value);
        const called = await post(`/api/tournaments/${doc.id}/call`,
          wait ? { minutes: wait } : {});
        toast(t('tour_called', { people: called.called }));
      }, { 'data-action': 'call' })));
    controls.push(button(t('tour_start'), act('/start'), { class: 'primary big',
      'data-action': 'start' }));
  }
  controls.push(button(t('tour_end'), async () => {
    if (window.confirm(t('tour_end_confirm'))) await act('/end')();
  }, { class: 'danger', 'data-action': 'end' }));
  return h('div', { class: 'organiser-panel stack' }, controls);
}

function ranking(doc, names) {
  if (!doc.ranking) return null;
  return section(t('tour_ranking'), h('ol', { class: 'ranking' }, doc.ranking.map((r) =>
    h('li', { 'data-entry': r.entry, 'data-place': r.place },
      h('span', { class: 'place' }, String(r.place)), ' ', names[r.entry] || '?'))));
}

function bracket(doc, names) {
  if (!doc.round_count || !doc.rounds.length) return null;
  return section(t('tour_bracket'), h('div', { class: 'bracket-wrap' }, bracketSvg(doc, names)));
}

function standings(doc, names) {
  if (!doc.standings.length) return null;
  const head = ['tour_place', 'tour_team', 'tour_played', 'tour_wdl', 'tour_points',
    'tour_buchholz', 'tour_cards'];
  return section(t('tour_standings'), h('div', { class: 'scroll-x' },
    h('table', { class: 'standings' },
      h('thead', {}, h('tr', {}, head.map((k) => h('th', { scope: 'col' }, t(k))))),
      h('tbody', {}, doc.standings.map((s) => h('tr', { 'data-entry': s.entry },
        h('td', {}, String(s.rank)), h('th', { scope: 'row' }, names[s.entry] || '?'),
        h('td', {}, String(s.played)),
        h('td', {}, `${s.won}-${s.drawn}-${s.lost}`, // a bye is a win: say where its point is
          s.byes ? ` + ${s.byes} ${t('tour_bye')}` : ''),
        h('td', {}, String(s.points)), h('td', {}, String(s.buchholz)),
        h('td', {}, s.card_difference > 0 ? `+${s.card_difference}` : String(s.card_difference))
      ))))));
}

function matchLine(doc, m, names, act) {
  const decided = m.result && m.result.score;
  // a result set (or forfeited) before a deal was played has no score to tell: "0–0" read as
  // a match that was played and drawn
  const scored = decided && (m.result.deals > 0 || decided.some((points) => points !== 0));
  const score = scored ? decided : (!decided && m.live && m.live.score);
  const mine = doc.you.entry_id && [m.a, m.b].includes(doc.you.entry_id);
  const team = (entry) => h('span', { class: m.winner === entry ? 'won' : '' },
    names[entry] || '?');
  const notes = [];
  if (m.result && m.result.forfeit) notes.push(t('tour_forfeit'));
  if (m.result && m.result.adjusted) notes.push(t('tour_adjusted'));
  const links = [];
  if (m.table_id && m.status !== 'done' && m.status !== 'void') {
    links.push(h('a', { class: mine ? 'button primary' : 'button', href: `#/table/${m.table_id}`,
      'data-action': mine ? 'play' : 'watch' }, mine ? t('tour_play') : t('tour_watch')));
  }
  if (m.conference_url && m.status !== 'done') {
    links.push(h('a', { class: 'button', href: m.conference_url, target: '_blank',
      rel: 'noopener noreferrer' }, t('tour_conference_link')));
  }
  if (doc.you.organiser && doc.conference_per_match && m.status !== 'done'
    && m.status !== 'void') {
    const link = h('input', { type: 'url', name: 'match_conference', placeholder: 'https://…',
      value: m.conference_url || '', 'aria-label': t('tour_match_link') });
    const save = h('form', { class: 'row inline-form' }, link,
      h('button', { type: 'submit' }, t('tour_save')));
    save.addEventListener('submit', (event) => {
      event.preventDefault();
      act(`/matches/${m.id}/conference`, { conference_url: link.value.trim() })()
        .catch((e) => toast(e.message, 'error'));
    });
    links.push(save);
  }
  if (doc.you.organiser && doc.status === 'running' && m.round === doc.current_round) {
    const choices = [['', t('tour_set_result')], [m.a, t('tour_wins', { name: names[m.a] })],
      [m.b, t('tour_wins', { name: names[m.b] })]];
    if (doc.format !== 'knockout') choices.push(['draw', t('tour_draw')]);
    const pick = selectEl('winner', choices, '', { 'aria-label': t('tour_set_result') });
    pick.addEventListener('change', () => {
      if (!pick.value) return;
      act(`/matches/${m.id}/result`, { winner: pick.value === 'draw' ? null
        : Number(pick.value) })().catch((e) => toast(e.message, 'error'));
    });
    links.push(pick);
  }
  return h('li', { class: 'table-item match-item', 'data-match': m.id, 'data-status': m.status },
    h('div', { class: 'table-item-main' },
      h('strong', {}, team(m.a), ' – ', team(m.b)),
      h('span', { class: 'muted' }, ` · ${m.kind === 'third_place' ? `${t('tour_third')} · ` : ''}`
        + t(`tour_match_${m.status}`)),
      score ? h('span', { class: 'match-score' }, ' · ',
        t('tour_score', { a: score[0], b: score[1] })) : null,
      notes.length ? h('span', { class: 'muted' }, ` (${notes.join(', ')})`) : null),
    h('div', { class: 'row' }, links));
}

const repairOpen = new Set(); // rounds whose re-pairing editor is open (kept across redraws)

/** The organiser pairs the current round again (while none of its matches has started):
 * a row a slot, each side a choice of the round's teams (the second may be a bye). */
function repairForm(doc, rnd, names, act) {
  const slots = [...rnd.matches.map((m) => [m.slot, m.a, m.b]),
    ...(rnd.bye_slots || []).map(([slot, entry]) => [slot, entry, null])]
    .sort((x, y) => x[0] - y[0]);
  const teams = slots.flatMap(([, a, b]) => (b === null ? [a] : [a, b]));
  const choices = teams.map((e) => [e, names[e] || '?']);
  const rows = slots.map(([, a, b]) => [
    selectEl('a', choices, a, { 'aria-label': t('tour_team') }),
    selectEl('b', [...choices, ['', t('tour_bye')]], b === null ? '' : b,
      { 'aria-label': t('tour_team') })]);
  const form = h('form', { class: 'stack repair-form', 'aria-label': t('tour_repair') },
    rows.map(([a, b]) => h('div', { class: 'row' }, a, ' – ', b)),
    h('button', { type: 'submit', class: 'primary' }, t('tour_repair')));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const matches = rows.map(([a, b]) => [Number(a.value), b.value ? Number(b.value) : null]);
    act(`/rounds/${rnd.number}/pairing`, { matches })().catch((e) => toast(e.message, 'error'));
  });
  const details = h('details', { class: 'repair', open: repairOpen.has(rnd.number) },
    h('summary', {}, t('tour_repair')), form);
  details.addEventListener('toggle', () => {
    if (details.open) repairOpen.add(rnd.number);
    else repairOpen.delete(rnd.number);
  });
  return details;
}

function roundsList(doc, names, act) {
  if (doc.status === 'registration') return null;
  if (!doc.rounds.length) return section(t('tour_rounds_list'), empty(t('tour_no_matches')));
  const canRepair = (rnd) => doc.you.organiser && doc.status === 'running'
    && doc.format !== 'round_robin' && rnd.number === doc.current_round
    && rnd.matches.every((m) => m.status === 'waiting' && m.kind !== 'third_place');
  return section(t('tour_rounds_list'), [...doc.rounds].reverse().map((rnd) =>
    h('div', { class: 'round', 'data-round': rnd.number },
      h('h3', {}, t('tour_round_n', { n: rnd.number })),
      canRepair(rnd) ? repairForm(doc, rnd, names, act) : null,
      h('ul', { class: 'table-list' }, rnd.matches.map((m) => matchLine(doc, m, names, act))),
      rnd.byes.length ? h('p', { class: 'muted' }, t('tour_byes', {
        names: rnd.byes.map((e) => names[e] || '?').join(', ') })) : null)));
}

function entrants(doc, act) {
  const shown = doc.entries.filter((e) => e.status !== 'merged');
  if (!shown.length) return section(t('tour_entrants'), empty(t('tour_none')));
  const organiser = doc.you.organiser && doc.status === 'registration';
  return section(t('tour_entrants'), h('ul', { class: 'table-list entrants' }, shown.map((e) =>
    h('li', { class: 'table-item', 'data-entry': e.id, 'data-entry-status': e.status },
      h('div', { class: 'table-item-main' },
        h('strong', {}, teamName(e)),
        h('span', { class: 'muted' }, ` · ${t(`entry_${e.status}`)}`,
          e.paid ? ` · ${t('tour_paid')}` : '', e.seed ? ` · ${t('tour_seed', { seed: e.seed })}`
            : ''),
        h('div', { class: 'seat-names' }, e.players.map((p) => (p.bot ? t('bot_named',
          { level: botName(p.bot) }) : p.name)).join(' & '))),
      h('div', { class: 'row' },
        organiser && e.status === 'pending' ? button(t('tour_approve'),
          act(`/entries/${e.id}/approve`, { paid: true }), { class: 'primary',
            'data-action': 'approve' }) : null,
        organiser && ['partner', 'pending', 'entered'].includes(e.status)
          ? button(t('tour_withdraw'), act(`/entries/${e.id}/withdraw`),
            { class: 'link', 'data-action': 'withdraw' }) : null,
        doc.you.organiser && doc.status !== 'finished' && e.status === 'entered'
          ? e.players.filter((p) => p.user_id).map((p) => button(
            t('tour_replace', { name: p.name }), async () => {
              const email = window.prompt(t('tour_replace_prompt', { name: p.name }));
              if (email) await act(`/entries/${e.id}/replace`, { user_id: p.user_id, email })();
            }, { class: 'link', 'data-action': 'replace' })) : null)))));
}

function about(doc) {
  if (!doc.rules_text) return null;
  return section(t('tour_rules_text'), h('div', { class: 'prewrap' }, doc.rules_text));
}

function exportsOf(doc) {
  if (doc.status === 'registration') return null;
  const base = `/api/tournaments/${doc.id}`;
  return section(t('tour_export'), h('div', { class: 'row' },
    h('a', { class: 'button', href: `${base}/export.csv`, download: '' }, t('tour_export_csv')),
    h('a', { class: 'button', href: `${base}/export.csv?part=matches`, download: '' },
      t('tour_export_matches')),
    h('a', { class: 'button', href: `${base}/export.json`, download: '' },
      t('tour_export_json'))));
}
