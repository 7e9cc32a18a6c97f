"""The play of the tricks (RULES.md §4, §5): legal cards, showing trump, the pair, trick
winners, and the end of the round."""

from __future__ import annotations

from collections.abc import Sequence

from .actions import PLAYS, SIMPLE_ACTIONS, Act, Action
from .cards import SUIT_MASKS, mask_points
from .events import CardPlayed, Event, PairDeclared, TrickWon, TrumpShown
from .scoring import end_played, holds_pair, settled
from .state import Phase, RoundState, Trick, TrumpMode, partner, team_of

# Enum members bound once: looking one up on its Enum class is slow in Python 3.11,
# and these are read on every action.
ACT_PAIR = Act.PAIR
ACT_PLAY = Act.PLAY
ACT_REVEAL = Act.REVEAL
PH_PLAY = Phase.PLAY
TM_SEVENTH = TrumpMode.SEVENTH


def play_options(st: RoundState, seat: int) -> tuple[int, bool]:
    """(mask of the cards ``seat`` may play, whether it may ask for trump to be shown).

    Assumes it is ``seat``'s turn to play. A mask may hold the hidden indicator card: playing
    it shows trump.
    """
    hand = st.hands[seat]
    hidden = st.indicator if seat == st.bidder and not st.trump_shown else -1
    rules = st.rules
    if not st.trick:  # leading
        if not hand:
            return 1 << hidden, False
        if (
            not rules.bidder_leads_trump_before_reveal
            and seat == st.bidder
            and not st.trump_shown
            and st.trump >= 0
            and not st.trump_led
        ):
            trumps = hand & SUIT_MASKS[st.trump]
            if trumps and trumps != hand:
                return hand & ~trumps, False
        return hand, False
    lead = st.lead_suit
    follow = hand & SUIT_MASKS[lead]
    if follow:
        return follow, False
    if hidden >= 0 and (not hand or (hidden >> 3 == lead and st.trump_mode is TM_SEVENTH)):
        return 1 << hidden, False  # the face-down card must be shown and played
    if not st.trump_shown:
        if st.caller >= 0 or rules.trump_reveal == "automatic":
            return hand, False
        if rules.trump_reveal == "forced_on_void":
            return 0, True
        return hand, True
    trumps = hand & SUIT_MASKS[st.trump]
    if not trumps:
        return hand, False
    if seat == st.must_trump:
        if rules.no_undertrump or (rules.overtrump_after_reveal and _opponent_trump_wins(st, seat)):
            higher = trumps & _above_top_trump(st)
            if higher:
                return higher, False
        return trumps, False
    if rules.no_undertrump:
        above = _above_top_trump(st)
        if above != SUIT_MASKS[st.trump]:  # the trick has been trumped
            allowed = hand & ~(trumps & ~above)
            if allowed:
                return allowed, False
    return hand, False


def _above_top_trump(st: RoundState) -> int:
    """Trump cards stronger than every trump in the current trick (all trumps if none)."""
    trump = st.trump
    top = -1
    for _, card in st.trick:
        if card >> 3 == trump and card > top:
            top = card
    suit = SUIT_MASKS[trump]
    if top < 0:
        return suit
    return suit & ~((2 << top) - 1)


def _opponent_trump_wins(st: RoundState, seat: int) -> bool:
    winner, card = trick_leader_now(st.trick, st.lead_suit, st.trump)
    return card >> 3 == st.trump and team_of(winner) != team_of(seat)


def trick_leader_now(plays: Sequence[tuple[int, int]], lead: int, trump: int) -> tuple[int, int]:
    """(seat, card) winning the trick so far; ``trump`` -1 when trumps do not count."""
    best_seat, best = plays[0]
    best_trump = best >> 3 == trump
    for seat, card in plays[1:]:
        suit = card >> 3
        if suit == trump:
            if not best_trump or card > best:
                best_seat, best, best_trump = seat, card, True
        elif suit == lead and not best_trump and card > best:
            best_seat, best = seat, card
    return best_seat, best


def legal(st: RoundState, seat: int) -> list[Action]:
    out: list[Action] = []
    if seat == st.turn:
        mask, can_reveal = play_options(st, seat)
        plays = PLAYS[seat]
        while mask:
            low = mask & -mask
            out.append(plays[low.bit_length() - 1])
            mask ^= low
        if can_reveal:
            out.append(SIMPLE_ACTIONS[seat][ACT_REVEAL])
    if seat == st.pair_window:
        out.append(SIMPLE_ACTIONS[seat][ACT_PAIR])
    return out


def is_legal(st: RoundState, action: Action) -> bool:
    seat = action.seat
    act = action.act
    if act is ACT_PLAY:
        if seat != st.turn:
            return False
        card = action.arg
        if type(card) is not int or not 0 <= card < 32:
            return False
        mask, _ = play_options(st, seat)
        return bool(mask >> card & 1)
    if act is ACT_REVEAL:
        return seat == st.turn and play_options(st, seat)[1]
    if act is ACT_PAIR:
        return seat == st.pair_window
    return False


def apply(st: RoundState, action: Action, ev: list[Event]) -> None:
    if action.act is ACT_PLAY:
        _play(st, action.seat, action.arg, ev)
    elif action.act is ACT_REVEAL:
        show_trump(st, action.seat, ev, asked=True)
        _settle_check(st, ev)
    else:
        _declare_pair(st, action.seat, ev)


def show_trump(st: RoundState, seat: int, ev: list[Event], asked: bool) -> None:
    st.trump_shown = True
    st.shown_by = seat
    st.shown_in_trick = len(st.tricks) + 1
    indicator = st.indicator
    if indicator >= 0:
        hands = list(st.hands)
        hands[st.bidder] |= 1 << indicator
        st.hands = (hands[0], hands[1], hands[2], hands[3])
        st.indicator = -1
    ev.append(TrumpShown(seat, st.trump, st.shown_in_trick, indicator))
    if asked and st.rules.must_trump_after_reveal:
        st.must_trump = seat
    if st.rules.pair_timing == "on_reveal":
        for s in range(4):
            if holds_pair(st.hands[s], st.trump):
                _declare_pair(st, s, ev)
                break


def _declare_pair(st: RoundState, seat: int, ev: list[Event]) -> None:
    rules = st.rules
    if team_of(seat) == team_of(st.bidder):
        st.target = max(rules.min_bid, st.target - 4)
    else:
        st.target = min(rules.max_bid, st.target + 4)
    st.pair_by = seat
    st.pair_window = -1
    ev.append(PairDeclared(seat, st.target))


def _play(st: RoundState, seat: int, card: int, ev: list[Event]) -> None:
    if card == st.indicator and seat == st.bidder and not st.trump_shown:
        # showing the hidden seventh card and playing it are one action: the card lands in
        # the trick before anything (a pair declared on the showing) may end the round
        show_trump(st, seat, ev, asked=False)
    hands = list(st.hands)
    hands[seat] &= ~(1 << card)
    st.hands = (hands[0], hands[1], hands[2], hands[3])
    if not st.trick:
        st.lead_suit = card >> 3
        st.leader = seat
        if card >> 3 == st.trump:
            st.trump_led = True
    st.trick = (*st.trick, (seat, card))
    ev.append(CardPlayed(seat, card))
    if st.must_trump == seat:
        st.must_trump = -1
    st.pair_window = -1
    if len(st.trick) == (3 if st.caller >= 0 else 4):
        _finish_trick(st, ev)
        return
    nxt = (seat + 1) & 3
    if st.caller >= 0 and nxt == partner(st.caller):
        nxt = (nxt + 1) & 3
    st.turn = nxt
    if (
        st.rules.trump_reveal == "automatic"
        and not st.trump_shown
        and st.caller < 0
        and not st.hands[nxt] & SUIT_MASKS[st.lead_suit]
        and not (
            nxt == st.bidder
            and st.trump_mode is TM_SEVENTH  # the hidden seventh card must follow suit
            and st.indicator >> 3 == st.lead_suit
        )
    ):
        show_trump(st, nxt, ev, asked=True)
    _settle_check(st, ev)


def _finish_trick(st: RoundState, ev: list[Event]) -> None:
    trump = st.trump if st.trump_shown else -1
    winner, _ = trick_leader_now(st.trick, st.lead_suit, trump)
    mask = 0
    for _, card in st.trick:
        mask |= 1 << card
    points = mask_points(mask)
    number = len(st.tricks) + 1
    if number == 8 and st.rules.last_trick_point:
        points += 1
    st.tricks = (*st.tricks, Trick(st.leader, st.trick, winner, points))
    team = team_of(winner)
    if team == 0:
        st.points = (st.points[0] + points, st.points[1])
        st.tricks_won = (st.tricks_won[0] + 1, st.tricks_won[1])
    else:
        st.points = (st.points[0], st.points[1] + points)
        st.tricks_won = (st.tricks_won[0], st.tricks_won[1] + 1)
    st.trick = ()
    st.lead_suit = -1
    ev.append(TrickWon(number, winner, points))
    if number == 8 or (st.caller >= 0 and winner != st.caller):
        end_played(st, ev)
        return
    st.leader = st.turn = winner
    if st.rules.pair_timing == "after_trick_won" and st.pair_by < 0 and st.trump_shown:
        for s in (winner, partner(winner)):
            if holds_pair(st.hands[s], st.trump):
                st.pair_window = s
    _settle_check(st, ev)


def _settle_check(st: RoundState, ev: list[Event]) -> None:
    if st.rules.early_finish and st.phase is PH_PLAY and settled(st):
        end_played(st, ev)
