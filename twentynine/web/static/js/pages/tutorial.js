// The tutorial: a scripted deal (tutorial/deal.js) played in the browser. The computer players'
// moves come from the script; at each of your moves the coach says what to do and why, and
// waits for the right card or button.
import { h, keepFocus, replace } from '../dom.js';
import { t } from '../i18n.js';
import { parseAction } from '../table/describe.js';
import { renderActions, renderFelt, renderHand, renderInfo, renderResult } from '../table/render.js';
import deal from '../tutorial/deal.js';

const BOT_PAUSE_MS = 450;
const NAMES = ['tut_name_0', 'tut_name_1', 'tut_name_2', 'tut_name_3'];

const same = (a, b) => a.act === b.act && a.value === b.value && a.card === b.card
  && a.suit === b.suit;

const firstHand = () => (deal.dealer + 1) % 4;

function freshState() {
  return { hands: [[], [], [], []], bid: 0, holder: null, bidder: null, target: null,
    trump: null, shown: false, trick: [], tricks: [], points: [0, 0], tricksWon: [0, 0],
    end: null, phase: 'auction' };
}

function dealBatch(state, batch) {
  for (let k = 0; k < 4; k += 1) {
    const seat = (firstHand() + k) % 4;
    const start = (batch - 1) * 16 + 4 * k;
    state.hands[seat].push(...deal.deck.slice(start, start + 4));
  }
}

function applyStep(state, step) {
  if (step.deal) dealBatch(state, step.deal);
  if (step.phase) state.phase = step.phase;
  if (step.act === 'bid') { state.bid = step.value; state.holder = step.seat; }
  if (step.bidder) { [state.bidder, state.target] = step.bidder; state.phase = 'trump'; }
  if (step.act === 'trump') state.trump = step.suit;
  if (step.shown) state.shown = true;
  if (step.act === 'play') {
    state.hands[step.seat] = state.hands[step.seat].filter((c) => c !== step.card);
    state.trick.push([step.seat, step.card]);
  }
  if (step.won) {
    const [winner, points] = step.won;
    state.tricks.push({ leader: state.trick[0][0], plays: state.trick, winner, points });
    state.points[winner & 1] += points;
    state.tricksWon[winner & 1] += 1;
    state.trick = [];
  }
  if (step.end) { state.end = step.end; state.phase = 'over'; }
}

const ORDER = 'J9ATKQ87';
const SUITS = 'CDHS';
const sorted = (cards) => [...cards].sort((a, b) => SUITS.indexOf(a[1]) - SUITS.indexOf(b[1])
  || ORDER.indexOf(a[0]) - ORDER.indexOf(b[0]));

/** The learner's view in the engine's shape, so the table is drawn by the same code. */
function viewOf(state, step) {
  const learner = step && step.seat === deal.you && !state.end;
  const over = Boolean(state.end);
  return {
    viewer: deal.you, dealer: deal.dealer, first_hand: firstHand(),
    phase: over ? 'over' : (step && step.phase) || state.phase,
    to_act: step && step.seat !== undefined && !over ? [step.seat] : [],
    legal_json: learner ? step.legal.map(parseAction) : [],
    hands: state.hands.map((hand, seat) => (seat === deal.you || over ? sorted(hand) : null)),
    hand_sizes: state.hands.map((hand) => hand.length),
    has_indicator: false, indicator: null,
    holder: state.holder, bid: state.bid, bidder: state.bidder, target: state.target,
    trump_mode: state.trump ? 'suit' : null, trump: state.trump, trump_shown: state.shown,
    stake: 1, double_level: 0, caller: null, sits_out: null, single_hand_level: 0,
    trick: state.trick, tricks: state.tricks, points: state.points, tricks_won: state.tricksWon,
    pair_by: null, must_trump: null, outcome: over ? state.end.outcome : null, reason: null,
    score_delta: over ? state.end.score_delta : [0, 0], early: over && state.end.early,
  };
}

export function render(root, route) {
  const pace = Number(route.query.get('pace'));
  const lesson = new Lesson(root, pace > 0 ? Math.min(pace, 5000) : BOT_PAUSE_MS);
  lesson.restart();
  return { cleanup: () => lesson.stop(), relabel: () => lesson.draw() };
}

class Lesson {
  constructor(root, pause) {
    this.pause = pause;
    this.coach = h('div', { class: 'coach', role: 'region', 'aria-live': 'polite',
      'aria-label': t('tut_coach') });
    this.felt = h('div', { class: 'felt-wrap' });
    this.overlay = h('div', { class: 'result-wrap' });
    this.actions = h('div', { class: 'action-bar' });
    this.hand = h('div', { class: 'hand-wrap' });
    this.info = h('section', { class: 'panel' });
    this.section = h('section', { class: 'table-page tutorial' },
      h('h1', {}, t('nav_tutorial')), this.coach,
      h('div', { class: 'table-body' },
        h('div', { class: 'play-area' }, this.felt, this.overlay, this.actions, this.hand),
        h('aside', { class: 'table-side' }, this.info)));
    root.append(this.section);
    this.seenTrick = new Set();
  }

  restart() {
    clearTimeout(this.timer);
    this.state = freshState();
    this.index = 0;
    this.feedback = null;
    this.run();
  }

  stop() {
    clearTimeout(this.timer);
  }

  get step() {
    return deal.steps[this.index];
  }

  /** Play the script up to the next thing the learner must read or do. */
  run() {
    const step = this.step;
    if (!step) { this.draw(); return; }
    if (step.seat === deal.you) { this.draw(); return; }
    if (step.act || step.deal) applyStep(this.state, step);
    this.draw();
    if (!step.say) {
      this.timer = setTimeout(() => this.next(), this.pause);
    }
  }

  next() {
    this.index += 1;
    this.feedback = null;
    this.run();
  }

  attempt(action) {
    const step = this.step;
    if (!step || step.seat !== deal.you) return;
    const wanted = { act: step.act, value: step.value, card: step.card, suit: step.suit };
    if (!same(action, wanted)) {
      this.feedback = t(`${step.say}_hint`);
      this.draw();
      return;
    }
    applyStep(this.state, step);
    this.next();
  }

  context(view) {
    return {
      view,
      table: { seats: [0, 1, 2, 3].map((seat) => ({ seat, name: t(NAMES[seat]) })),
        you: { seat: deal.you, spectator: false }, direction: 'counter_clockwise', game: null },
      me: deal.you, bottom: deal.you, direction: 'counter_clockwise',
      names: NAMES.map((key) => t(key)), live: !this.state.end, pending: false,
      ui: { lastTrick: false, peekPartner: false }, seenTrick: this.seenTrick,
      act: (a) => this.attempt(a), toggle: () => {}, peek: () => {}, lastTrick: () => {},
    };
  }

  draw() {
    const step = this.step;
    const view = viewOf(this.state, step);
    const ctx = this.context(view);
    const learner = step && step.seat === deal.you;
    this.section.dataset.step = String(this.index);
    this.section.dataset.waiting = learner ? 'move' : step && step.say ? 'next' : 'auto';
    keepFocus(this.section, () => {
      replace(this.coach, this.coachBox(step, learner));
      replace(this.felt, renderFelt(ctx));
      replace(this.actions, renderActions(ctx));
      replace(this.hand, renderHand(ctx));
      replace(this.info, h('h2', {}, t('this_round')), renderInfo(ctx));
      replace(this.overlay, this.state.end && !step ? renderResult({ view,
        names: ctx.names }, { ...ctx, live: false }) : null);
    });
  }

  coachBox(step, learner) {
    const total = deal.steps.length;
    const done = Math.min(this.index, total);
    const text = step ? (step.say ? t(step.say) : '') : t('tut_done');
    const nextButton = step && !learner && step.say
      ? h('button', { type: 'button', class: 'primary', 'data-key': 'tut-next',
        'data-action': 'next', onclick: () => this.next() }, t('next')) : null;
    if (nextButton) setTimeout(() => nextButton.isConnected && nextButton.focus(), 0);
    return [
      h('div', { class: 'progress', role: 'progressbar', 'aria-valuemin': 0,
        'aria-valuemax': total, 'aria-valuenow': done, 'aria-label': t('tut_progress') },
      h('span', { style: `width:${(100 * done) / total}%` })),
      h('p', { class: 'coach-text' }, text),
      this.feedback ? h('p', { class: 'feedback', role: 'alert' }, this.feedback) : null,
      h('div', { class: 'row' }, nextButton,
        h('button', { type: 'button', class: 'link', 'data-action': 'restart',
          onclick: () => this.restart() }, t('tut_restart')),
        !step ? h('a', { class: 'button primary', href: '#/' }, t('play_now')) : null),
    ];
  }
}
