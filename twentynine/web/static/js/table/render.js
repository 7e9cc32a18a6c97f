// Drawing a table from one view: the felt with four seats and the trick, your hand, the
// prompt and its buttons, the contract, the score, and the round's result. Every function
// takes the same context (see contextFor in pages/table.js) and returns fresh elements.
import { cardEl, cardName, pointsOf, sortHand, suitIcon, suitName } from '../cards.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { turnClock } from './clock.js';
import { actionLabel, promptText, reasonText, teamName } from './describe.js';
import { partnerOf, position, teamOf } from './seats.js';
import { ratingBadge } from '../ratings.js';

export const KEYS = { pass: 'p', double: 'd', redouble: 'r', setdouble: 's', reveal: 't',
  pair: 'm', single_hand: 'h' };

const isCardAction = (a) => a.act === 'play' || (a.act === 'trump' && a.card);

/** For each card code in the viewer's hand that may be chosen now: the action to send. */
export function cardActions(view) {
  const byCard = new Map();
  view.legal_json.forEach((a) => { if (isCardAction(a)) byCard.set(a.card, a); });
  return byCard;
}

// -- seats and the felt ------------------------------------------------------------------------
function seatBadges(ctx, seat) {
  const { view, table } = ctx;
  const info = table.seats[seat] || {};
  const badges = [];
  if (view && view.dealer === seat) badges.push(['dealer', t('badge_dealer')]);
  if (view && view.bidder === seat && view.caller === null) {
    badges.push(['bidder', t('badge_bidder', { bid: view.target ?? view.bid })]);
  } else if (view && view.phase === 'auction' && view.holder === seat) {
    badges.push(['holder', t('badge_holder', { bid: view.bid })]);
  }
  if (view && view.caller === seat) badges.push(['caller', t('badge_single_hand')]);
  if (view && view.sits_out === seat) badges.push(['out', t('badge_sits_out')]);
  if (info.bot) badges.push(['bot', t('badge_bot')]);
  if (info.standin) badges.push(['bot', t('badge_standin')]);
  if (info.user_id && !info.bot && info.joined === false) badges.push(['away', t('badge_not_joined')]);
  else if (info.user_id && !info.bot && info.connected === false) badges.push(['away', t('badge_away')]);
  return badges;
}

function countdown(info) {
  if (!info || !info.takeover_at) return null;
  return h('span', { class: 'countdown', 'data-takeover-at': info.takeover_at, role: 'timer' },
    takeoverText(info.takeover_at));
}

export function takeoverText(at) {
  const left = Math.max(0, Math.round(at - Date.now() / 1000));
  return t('takeover_in', { seconds: left });
}

function seatHand(ctx, seat) {
  const { view, ui } = ctx;
  if (!view) return null;
  const known = view.hands[seat];
  const size = view.hand_sizes[seat];
  const partnerPeek = ctx.me !== null && view.caller === ctx.me && seat === partnerOf(ctx.me)
    && known;
  if (partnerPeek && !ui.peekPartner) {
    return h('button', { type: 'button', class: 'peek', 'data-key': 'peek',
      onclick: () => ctx.peek() }, h('span', { class: 'seat-hand closed' }, backs(size, true)),
    h('span', {}, t('look_at_partner')));
  }
  const cards = known ? known.map((c) => cardEl(c, { small: true }))
    : backs(size, true);
  const label = known ? t('hand_of', { name: ctx.names[seat] })
    : t('cards_held', { name: ctx.names[seat], count: size });
  // a viewer turns a hand up (or down again) by clicking it too (the "Show …'s hand" button
  // beside it is the way for the keyboard and screen readers)
  const toggles = Boolean(size) && canToggle(ctx, seat);
  const tip = toggles ? t(known ? 'hide_hand' : 'show_hand', { name: ctx.names[seat] }) : null;
  return h('div', { class: ['seat-hand', known ? 'open' : 'closed', toggles && 'toggles'],
    'aria-label': label, role: 'group', title: tip,
    onclick: toggles ? () => ctx.toggle(seat) : null },
  cards, known ? null : h('span', { class: 'count' }, String(size)));
}

function backs(count, small) {
  return Array.from({ length: count }, () => cardEl(null, { small }));
}

function indicatorEl(ctx, seat) {
  const { view } = ctx;
  if (!view || view.bidder !== seat || view.caller !== null || !view.trump_mode
    || view.trump_shown || view.phase === 'over') return null;
  // the 7th card or a hand card lies face down; a suit named in hand is marked by a spare card
  const label = view.indicator ? t('indicator_known', { card: cardName(view.indicator) })
    : view.has_indicator ? t('indicator_hidden') : t('indicator_spare');
  return h('div', { class: 'indicator', title: label },
    cardEl(view.indicator, { small: true, label, extraClass: 'indicator-card' }),
    h('span', { class: 'indicator-label' }, t('trump_card')));
}

/** Whether this viewer may turn ``seat``'s hand face up or down. */
function canToggle(ctx, seat) {
  const { table, view } = ctx;
  const you = table.you || {};
  if (!you.can_toggle || !view) return false;
  const host = table.seats.find((s) => s.user_id && s.user_id === table.host_id);
  return !(host && host.seat === seat); // the host's hand is always shown
}

function toggleButton(ctx, seat) {
  const { table } = ctx;
  const you = table.you || {};
  if (!canToggle(ctx, seat)) return null;
  const shown = (you.sees || []).includes(seat);
  return h('button', { type: 'button', class: 'small toggle-hand', 'data-seat': seat,
    'data-key': `toggle-${seat}`, 'aria-pressed': shown ? 'true' : 'false',
    onclick: () => ctx.toggle(seat) },
  shown ? t('hide_hand', { name: ctx.names[seat] }) : t('show_hand', { name: ctx.names[seat] }));
}

function seatEl(ctx, seat) {
  const { view, table } = ctx;
  const pos = position(seat, ctx.bottom, ctx.direction);
  const toAct = Boolean(view && view.to_act.includes(seat) && view.phase !== 'over');
  const info = table.seats[seat] || {};
  const relation = ctx.me === null ? '' : seat === ctx.me ? t('you')
    : seat === partnerOf(ctx.me) ? t('partner') : t('opponent');
  const badges = seatBadges(ctx, seat);
  const label = [ctx.names[seat], relation, toAct ? t('to_act') : '',
    ...badges.map(([, text]) => text)].filter(Boolean).join(', ');
  return h('div', { class: ['seat', `seat-${pos}`, toAct && 'to-act', `team-${teamOf(seat)}`],
    'data-seat': seat, 'data-pos': pos, role: 'group', 'aria-label': label },
  h('div', { class: 'seat-name' },
    h('span', { class: 'name' }, ctx.names[seat]), ratingBadge(ctx, seat),
    relation && seat !== ctx.me ? h('span', { class: 'relation' }, relation) : null,
    toAct ? h('span', { class: 'turn-dot', 'aria-hidden': 'true' }) : null),
  h('div', { class: 'badges' }, badges.map(([kind, text]) =>
    h('span', { class: ['badge', kind] }, text)), countdown(info), turnClock(ctx, seat)),
  pos === 'bottom' ? null : seatHand(ctx, seat),
  indicatorEl(ctx, seat),
  toggleButton(ctx, seat));
}

function trickEl(ctx) {
  const { view } = ctx;
  if (!view) return h('div', { class: 'trick' });
  let plays = view.trick;
  let done = null;
  const last = view.tricks[view.tricks.length - 1];
  if (!plays.length && last && (view.phase === 'play' || view.phase === 'over')) {
    plays = last.plays;
    done = last;
  }
  const cards = plays.map(([seat, code]) => {
    const pos = position(seat, ctx.bottom, ctx.direction);
    const isNew = !done && !ctx.seenTrick.has(`${seat}${code}`);
    return h('div', { class: ['played', `from-${pos}`, isNew && 'enter'], 'data-seat': seat },
      cardEl(code, { label: t('played_by', { name: ctx.names[seat], card: cardName(code) }) }));
  });
  ctx.seenTrick.clear();
  plays.forEach(([seat, code]) => ctx.seenTrick.add(`${seat}${code}`));
  const caption = done ? t('trick_won_by', { name: ctx.names[done.winner], points: done.points })
    : '';
  return [h('div', { class: ['trick', done && 'done'], role: 'group',
    'aria-label': done ? caption : t('current_trick'),
    'data-trick': view.trick.map(([s, c]) => `${s}:${c}`).join(' ') }, cards),
  h('div', { class: 'trick-caption' }, caption)];
}

function lastTrickEl(ctx) {
  const { view, ui } = ctx;
  if (!ui.lastTrick || !view || !view.tricks.length) return null;
  const last = view.tricks[view.tricks.length - 1];
  return h('div', { class: 'last-trick', role: 'dialog', 'aria-label': t('last_trick') },
    h('strong', {}, t('last_trick')),
    h('div', { class: 'row' }, last.plays.map(([seat, code]) => h('figure', {},
      cardEl(code, { small: true }), h('figcaption', {}, ctx.names[seat])))),
    h('p', {}, t('trick_won_by', { name: ctx.names[last.winner], points: last.points })),
    h('button', { type: 'button', class: 'small', 'data-key': 'close-last',
      onclick: () => ctx.lastTrick(false) }, t('close')));
}

export function renderFelt(ctx) {
  const seats = [0, 1, 2, 3].map((s) => seatEl(ctx, s));
  return h('div', { class: 'felt', 'data-direction': ctx.direction }, seats,
    h('div', { class: 'centre' }, trickEl(ctx), callsEl(ctx), trumpBadge(ctx)), lastTrickEl(ctx));
}

/** A call of the auction: "Ana 17", "Bo Pass". */
function callText(ctx, [seat, bid]) {
  return `${ctx.names[seat]} ${bid ? String(bid) : t('act_pass')}`;
}

/** The auction's calls in the middle of the table, until the first card is played. */
function callsEl(ctx) {
  const { view } = ctx;
  if (!view || !view.calls || !view.calls.length || view.trick.length || view.tricks.length) {
    return null;
  }
  return h('ol', { class: 'calls', 'aria-label': t('bid_history'), 'data-testid': 'calls' },
    view.calls.map((call) => h('li', { class: call[1] ? 'bid' : 'pass', 'data-seat': call[0] },
      callText(ctx, call))));
}

function trumpBadge(ctx) {
  const { view } = ctx;
  if (!view || view.bidder === null || view.caller !== null || !view.trump_mode) return null;
  if (view.trump) {
    return h('div', { class: ['trump-badge', view.trump_shown ? 'shown' : 'secret'] },
      suitIcon(view.trump, 22),
      h('span', {}, view.trump_shown ? t('trump_is', { suit: suitName(view.trump) })
        : t('trump_secret', { suit: suitName(view.trump) })));
  }
  return h('div', { class: 'trump-badge hidden-trump' }, h('span', {}, t('trump_hidden')));
}

// -- your hand ---------------------------------------------------------------------------------
export function renderHand(ctx) {
  const { view } = ctx;
  const seat = ctx.bottom;
  if (!view) return h('div', { class: 'hand empty' });
  const known = view.hands[seat];
  const size = view.hand_sizes[seat];
  const choices = ctx.live ? cardActions(view) : new Map();
  const cards = (known || []).map((code, i) => {
    const action = choices.get(code);
    const props = { legal: Boolean(action) && !ctx.pending, key: `card-${code}`,
      label: `${i + 1}: ${cardName(code)}${action ? '' : ` (${t('not_playable')})`}` };
    if (ctx.live && ctx.me === seat && view.to_act.includes(seat) && choices.size) {
      return cardEl(code, { ...props, onclick: () => ctx.act(action) });
    }
    return cardEl(code, { ...props, legal: false });
  });
  const hidden = Math.max(0, size - (known ? known.length : 0));
  const extra = backs(hidden, false);
  const own = ctx.me === seat;
  const hint = own && ctx.live && choices.size
    ? h('p', { class: 'hand-hint', 'aria-hidden': 'true' }, t('key_hint')) : null;
  const label = own ? t('your_hand', { count: size }) : t('hand_of', { name: ctx.names[seat] });
  return h('div', { class: 'hand-box' }, h('div', {
    class: ['hand', choices.size && own ? 'choosing' : null], role: 'group', 'aria-label': label,
    'data-seat': seat },
  cards, extra,
  own && view.phase === 'seventh_redouble' && view.indicator
    ? h('div', { class: 'seventh-note' }, cardEl(view.indicator, { small: true }),
      h('span', {}, t('seventh_only'))) : null), hint);
}

// -- the prompt and its buttons ------------------------------------------------------------------
export function renderActions(ctx) {
  const { view } = ctx;
  if (!view || !ctx.live) return h('div', { class: 'actions' });
  const prompt = view.phase === 'over' ? t('round_over') : promptText(view, ctx.me, ctx.names);
  const mine = ctx.me !== null && view.to_act.includes(ctx.me);
  const buttons = view.legal_json.map((a, i) => [a, i]).filter(([a]) => !isCardAction(a));
  const bids = buttons.filter(([a]) => a.act === 'bid');
  const others = buttons.filter(([a]) => a.act !== 'bid');
  const make = ([a, i]) => h('button', {
    type: 'button',
    class: ['act', a.act === 'pass' ? 'secondary' : 'primary', a.act === 'bid' && 'bid'],
    'data-act': a.act,
    'data-value': a.value ?? a.suit ?? null,
    'data-key': `act-${i}-${a.act}-${a.value ?? a.suit ?? ''}`,
    'aria-keyshortcuts': KEYS[a.act] ? KEYS[a.act].toUpperCase() : null,
    disabled: ctx.pending,
    onclick: () => ctx.act(a),
  }, a.act === 'trump' && a.suit && a.suit !== 'seventh' ? suitIcon(a.suit) : null,
  actionLabel(a, view, ctx.me),
  KEYS[a.act] ? h('kbd', { 'aria-hidden': 'true' }, KEYS[a.act].toUpperCase()) : null);
  if (!prompt && !buttons.length) return h('div', { class: 'actions idle' });
  return h('div', { class: ['actions', mine && 'mine'], role: 'group',
    'aria-label': t('your_options') },
  h('p', { class: 'prompt', id: 'prompt' }, prompt, mine ? turnClock(ctx, ctx.me, true) : null),
  bids.length ? h('div', { class: 'bids', role: 'group', 'aria-label': t('bids') },
    bids.map(make)) : null,
  others.length ? h('div', { class: 'row' }, others.map(make)) : null);
}

// -- the contract and the score ------------------------------------------------------------------
export function renderInfo(ctx) {
  const { view } = ctx;
  if (!view) return h('dl', { class: 'info' });
  const rows = [];
  const add = (term, value) => rows.push(h('dt', {}, term), h('dd', {}, value));
  add(t('dealer'), ctx.names[view.dealer]);
  if (view.caller !== null) {
    add(t('contract'), t('single_hand_by', { name: ctx.names[view.caller] }));
  } else if (view.bidder !== null) {
    add(t('bidder'), `${ctx.names[view.bidder]} · ${view.bid}`);
    if (view.target !== null && view.target !== view.bid) add(t('target'), String(view.target));
    if (view.pair_by !== null) add(t('pair'), ctx.names[view.pair_by]);
  } else if (view.phase === 'auction' && view.bid) {
    add(t('bid'), `${view.bid} (${ctx.names[view.holder]})`);
  }
  if (view.calls && view.calls.length) {
    add(t('bid_history'), h('span', { 'data-testid': 'info-calls' },
      view.calls.map((call) => callText(ctx, call)).join(' · ')));
  }
  if (view.outcome !== 'invalid' && view.stake) add(t('stake'), String(view.stake));
  const us = teamOf(ctx.bottom);
  for (const team of [us, 1 - us]) {
    add(teamName(team, ctx.names), t('points_tricks', { points: view.points[team],
      tricks: view.tricks_won[team] }));
  }
  return h('dl', { class: 'info' }, rows);
}

/** A six of hearts (positive) or spades (negative): score pips uncovered, the rest covered. */
export function sixSVG(score) {
  const red = score > 0;
  const s = score < 0 ? 'S' : 'H';
  const spots = [[31, 32], [69, 32], [31, 70], [69, 70], [31, 108], [69, 108]];
  const n = Math.min(6, Math.abs(score));
  const pips = spots.map(([x, y], i) => `<use href="#tn-suit-${s}" x="${x - 11}" y="${y - 11}" `
    + `width="22" height="22" class="s-${s}${i < n ? '' : ' covered'}"/>`).join('');
  const kind = score === 0 ? 'zero' : red ? 'red' : 'black';
  return `<svg class="card-svg six ${kind}" viewBox="0 0 100 140" aria-hidden="true">`
    + `<rect x="1" y="1" width="98" height="138" rx="7" class="paper"/>${pips}</svg>`;
}

export function renderScore(ctx) {
  const game = ctx.table.game;
  if (!game) return h('div', { class: 'score' });
  const us = teamOf(ctx.bottom);
  const matchRounds = ctx.rules && ctx.rules.game_end === 'match_rounds';
  const box = (team) => {
    const score = game.scores[team];
    const label = t('score_of', { team: teamName(team, ctx.names), score });
    return h('div', { class: ['team-score', team === us ? 'us' : 'them'], role: 'group',
      'aria-label': label, 'data-team': team },
    h('span', { class: 'six', html: sixSVG(score), 'aria-hidden': 'true' }),
    h('div', {},
      h('div', { class: 'team-name' }, teamName(team, ctx.names)),
      h('div', { class: 'score-number' }, score > 0 ? `+${score}` : String(score)),
      h('div', { class: 'sets' },
        h('span', { class: 'set red', title: t('red_sets') },
          `${t('red_sets_short')} ${game.red_sets[team]}`),
        h('span', { class: 'set black', title: t('black_sets') },
          `${t('black_sets_short')} ${game.black_sets[team]}`),
        matchRounds ? h('span', { class: 'set' }, t('rounds_won', { n: game.rounds_won[team] }))
          : null)));
  };
  return h('div', { class: 'score' }, box(us), box(1 - us),
    game.over ? h('p', { class: 'game-over' }, game.winner === null ? t('ev_game_drawn')
      : t('ev_game_over', { team: teamName(game.winner, ctx.names) })) : null);
}

// -- the round's result ----------------------------------------------------------------------------
/** Every card a seat held this round: what it played, what is left, and a face-down card. */
export function fullHand(view, seat) {
  const cards = new Set(view.hands[seat] || []);
  for (const trick of view.tricks) trick.plays.forEach(([s, c]) => { if (s === seat) cards.add(c); });
  view.trick.forEach(([s, c]) => { if (s === seat) cards.add(c); });
  if (view.indicator && view.bidder === seat) cards.add(view.indicator);
  return sortHand([...cards]);
}

/** The round's result; ``onClose`` closes it (Esc too), ``extra`` is more to offer (Play
 * again when the game is over). */
export function renderResult(result, ctx, onClose, extra = null) {
  const { view, names } = result;
  const bidderTeam = view.caller !== null ? teamOf(view.caller) : view.bidder !== null
    ? teamOf(view.bidder) : null;
  let heading;
  if (view.outcome === 'invalid') heading = t('result_invalid', { reason: reasonText(view.reason) });
  else if (view.caller !== null) {
    heading = t(`result_single_${view.outcome}`, { name: names[view.caller] });
  } else {
    heading = t(`result_${view.outcome}_by`, { team: teamName(bidderTeam, names),
      target: view.target });
  }
  const handRows = [0, 1, 2, 3].map((seat) => h('div', { class: 'result-hand' },
    h('span', { class: 'name' }, names[seat]),
    h('div', { class: 'row' }, fullHand(view, seat).map((c) => cardEl(c, { small: true }))),
    h('span', { class: 'muted' }, t('hand_points', {
      points: fullHand(view, seat).reduce((n, c) => n + pointsOf(c), 0) }))));
  const teams = [0, 1].map((team) => h('li', {}, t('result_team_line', {
    team: teamName(team, names), points: view.points[team], tricks: view.tricks_won[team],
    delta: view.score_delta[team] > 0 ? `+${view.score_delta[team]}` : view.score_delta[team] })));
  return h('div', { class: 'result', role: 'dialog', 'aria-labelledby': 'result-heading',
    'data-testid': 'result', 'data-outcome': view.outcome },
  h('h2', { id: 'result-heading' }, heading),
  view.outcome !== 'invalid' ? h('p', {}, t('result_stake', { stake: view.stake })) : null,
  view.caller === null && view.trump ? h('p', { class: 'result-trump' }, suitIcon(view.trump, 18),
    ' ', t('trump_is', { suit: suitName(view.trump) })) : null,
  view.early ? h('p', { class: 'muted' }, t('result_early')) : null,
  view.outcome === 'invalid' ? h('p', { class: 'muted' }, t('result_redeal')) : null,
  h('ul', { class: 'plain' }, teams),
  h('div', { class: 'result-hands', 'aria-label': t('all_hands'), role: 'group' }, handRows),
  onClose || extra ? h('div', { class: 'row' }, extra,
    onClose ? h('button', { type: 'button', class: extra ? null : 'primary',
      'data-key': 'result-close', onclick: onClose }, ctx.live ? t('continue') : t('close'))
      : null) : null);
}
