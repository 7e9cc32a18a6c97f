// Words for what happens at the table: events for the log and for screen readers, the
// actions on buttons, and the reason an invalid round is void.
import { cardName, suitName } from '../cards.js';
import { has, t } from '../i18n.js';

export function reasonText(reason) {
  return has(`reason_${reason}`) ? t(`reason_${reason}`) : reason;
}

export function teamName(team, names) {
  return t('team_of', { a: names[team], b: names[team + 2] });
}

/** A line for the log, or null for events that need none. ``before`` is what the table showed
 * before the event: its ``target`` (a pair at the bid's limit leaves the target as it was). */
export function eventText(event, names, before = {}) {
  const who = (seat) => names[seat] ?? '?';
  switch (event.type) {
    case 'bid': return t('ev_bid', { name: who(event.seat), bid: event.bid });
    case 'pass': return t(`ev_pass_${event.stage}`, { name: who(event.seat) });
    case 'auction_won': return t(event.forced ? 'ev_auction_forced' : 'ev_auction_won',
      { name: who(event.bidder), bid: event.bid });
    case 'trump_chosen': return t(`ev_trump_${event.mode}`, { name: who(event.seat) });
    case 'stake_raised': return t('ev_stake', { name: who(event.seat), call: t(`act_${event.call}`),
      stake: event.stake });
    case 'single_hand': return t('ev_single_hand', { name: who(event.seat) });
    case 'trump_shown': return t('ev_trump_shown', { name: who(event.seat),
      suit: suitName(event.suit) });
    case 'pair': return event.target === before.target
      ? t('ev_pair_same', { name: who(event.seat), target: event.target })
      : t('ev_pair', { name: who(event.seat), target: event.target });
    case 'card_played': return t('ev_card', { name: who(event.seat), card: cardName(event.card) });
    case 'trick_won': return t('ev_trick', { name: who(event.winner), trick: event.trick,
      points: event.points });
    case 'round_invalid': return t('ev_invalid', { reason: reasonText(event.reason) });
    case 'round_ended': return event.outcome === 'invalid' ? null
      : t(`ev_round_${event.outcome}`, { delta: event.score_delta.join(' : ') });
    case 'game_over': return event.winner === null || event.winner === undefined
      ? t('ev_game_drawn') : t('ev_game_over', { team: teamName(event.winner, names) });
    case 'game_started': return t('ev_game_started', { name: who(event.dealer) });
    case 'new_deal': return t('ev_new_deal', { name: who(event.dealer) });
    case 'seat_taken': return t('ev_seat_taken', { name: who(event.seat) });
    case 'seat_renamed': return t('ev_seat_renamed', { old: event.old, name: who(event.seat) });
    case 'seat_left': // who left (the seat's name now may be the bot that took it)
      if (!event.name) return t('ev_seat_left', { seat: event.seat + 1 });
      return t(event.bot ? 'ev_seat_left_bot' : 'ev_seat_left_named', { name: event.name });
    case 'bots_seated': return t('ev_bots_seated');
    case 'seat_away': return t('ev_seat_away', { name: who(event.seat), seconds: event.seconds });
    case 'bot_takeover': return t('ev_bot_takeover', { name: who(event.seat) });
    case 'seat_back': return t('ev_seat_back', { name: who(event.seat) });
    case 'timeout': return t('ev_timeout', { name: who(event.seat) });
    case 'bot_keeps_seat': return t('ev_bot_keeps_seat', { name: who(event.seat) });
    case 'reset': return t(`ev_reset_${event.what}`);
    case 'paused': return t(event.reason === 'nobody_here' ? 'ev_paused_nobody' : 'ev_paused');
    case 'resumed': return t('ev_resumed');
    case 'closed': return t('ev_closed');
    case 'rated': return t(event.reason === 'left' ? 'ev_rated_left' : 'ev_rated');
    default: return null;
  }
}

/** Events worth saying out loud at once (assertive), beyond the polite log. */
export const LOUD = new Set(['round_invalid', 'trump_shown', 'single_hand', 'game_over',
  'bot_takeover', 'pair', 'stake_raised', 'reset',
  'bot_keeps_seat']);

/** The target as a run of events leaves it (the auction's bid, then each pair's change). */
export function targetAfter(event, target) {
  if (event.type === 'auction_won') return event.bid;
  if (event.type === 'pair') return event.target;
  if (event.type === 'new_deal' || event.type === 'game_started') return null;
  return target;
}

/** "bid 17" → {act: 'bid', value: 17} and so on (the text forms of docs/rules.md). */
export function parseAction(text) {
  const [act, arg] = String(text).split(' ');
  if (act === 'bid') return { act, value: Number(arg) };
  if (act === 'play') return { act, card: arg };
  if (act === 'trump') return arg.length === 2 ? { act, card: arg } : { act, suit: arg };
  return { act };
}

/** A move in a list of moves (the replay): "Bid 17", a card's name, "Trump: hearts", and the
 * other acts as their buttons say them. */
export function moveText(action) {
  if (action.act === 'bid') return `${t('bid')} ${action.value}`;
  if (action.act === 'play') return cardName(action.card);
  if (action.act === 'trump' && !action.card && action.suit !== 'seventh') {
    return t('trump_is', { suit: suitName(action.suit) });
  }
  return actionLabel(action, null, null);
}

/** The label of an action button. */
export function actionLabel(action, view, me) {
  switch (action.act) {
    case 'bid':
      return action.value === view.bid && view.holder === me
        ? t('act_match', { bid: action.value }) : String(action.value);
    case 'trump':
      if (action.suit === 'seventh') return t('act_seventh');
      if (action.card) return t('act_trump_card', { card: cardName(action.card) });
      return suitName(action.suit);
    default:
      return t(`act_${action.act}`);
  }
}

/** What the player to act is asked, in one sentence. */
export function promptText(view, me, names) {
  const mine = me !== null && view.to_act.includes(me);
  if (!mine) {
    const waiting = view.to_act.map((s) => names[s]).join(', ');
    return waiting ? t('waiting_for', { names: waiting }) : '';
  }
  const legal = view.legal_json;
  const acts = new Set(legal.map((a) => a.act));
  switch (view.phase) {
    case 'auction':
      if (view.holder === me && legal.some((a) => a.act === 'bid' && a.value === view.bid)) {
        return t('ask_match', { bid: view.bid });
      }
      return view.bid ? t('ask_bid_higher', { bid: view.bid }) : t('ask_first_bid');
    case 'trump':
      return legal.some((a) => a.card) ? t('ask_trump_card') : t('ask_trump');
    case 'doubling':
    case 'single_hand_doubling':
      return t(`ask_${[...acts].find((a) => a !== 'pass') || 'pass'}`);
    case 'seventh_redouble': return t('ask_seventh_redouble');
    case 'single_hand': return acts.has('single_hand') ? t('ask_single_hand')
      : t('ask_single_hand_pass');
    case 'play':
      if (acts.has('reveal')) return t('ask_reveal');
      if (view.must_trump === me) return t('ask_must_trump');
      if (acts.has('pair')) return t('ask_pair');
      return view.trick.length ? t('ask_follow') : t('ask_lead');
    default: return '';
  }
}
