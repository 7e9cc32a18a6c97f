"""From the auction's end to the first lead: trump, doubling, the second deal, the validity
checks, the seventh-card Redouble and Single Hand (RULES.md §2 stages 3-10, §6, §8)."""

from __future__ import annotations

from .actions import SIMPLE_ACTIONS, TRUMP_CARDS, TRUMP_SUITS, Act, Action
from .cards import JACKS, POINT_CARDS, SUIT_MASKS, cards_in, mask_of
from .events import (
    Dealt,
    Event,
    Passed,
    SingleHandCalled,
    StakeRaised,
    TrumpChosen,
)
from .scoring import end_invalid
from .state import (
    DOUBLING_CALLS,
    SINGLE_HAND_STAKES,
    TRUMP_MODE_NAMES,
    Phase,
    RoundState,
    TrumpMode,
    partner,
    team_of,
)

# Enum members bound once: looking one up on its Enum class is slow in Python 3.11,
# and these are read on every action.
ACT_DOUBLE = Act.DOUBLE
ACT_PASS = Act.PASS
ACT_REDOUBLE = Act.REDOUBLE
ACT_SETDOUBLE = Act.SETDOUBLE
ACT_SINGLE_HAND = Act.SINGLE_HAND
ACT_TRUMP_CARD = Act.TRUMP_CARD
ACT_TRUMP_SEVENTH = Act.TRUMP_SEVENTH
ACT_TRUMP_SUIT = Act.TRUMP_SUIT
PH_DOUBLING = Phase.DOUBLING
PH_PLAY = Phase.PLAY
PH_SEVENTH_REDOUBLE = Phase.SEVENTH_REDOUBLE
PH_SINGLE_HAND = Phase.SINGLE_HAND
PH_SINGLE_HAND_DOUBLING = Phase.SINGLE_HAND_DOUBLING
PH_TRUMP = Phase.TRUMP
TM_HAND_CARD = TrumpMode.HAND_CARD
TM_NONE = TrumpMode.NONE
TM_SEVENTH = TrumpMode.SEVENTH
TM_SUIT = TrumpMode.SUIT


_CALL_ACTS = (ACT_PASS, ACT_DOUBLE, ACT_REDOUBLE, ACT_SETDOUBLE)


# -- dealing ---------------------------------------------------------------------------------
def deal_first(st: RoundState, ev: list[Event]) -> bool:
    """Deal the first four cards each; False if the round is already invalid."""
    hands = [0, 0, 0, 0]
    for k in range(4):
        hands[(st.first_hand + k) & 3] = mask_of(st.deck[4 * k : 4 * k + 4])
    st.hands = (hands[0], hands[1], hands[2], hands[3])
    ev.append(Dealt(1))
    rules = st.rules
    if rules.first_hand_no_points_redeal and not st.hands[st.first_hand] & POINT_CARDS:
        end_invalid(st, "first_hand_no_points", ev)
        return False
    if rules.invalid_four_jacks and JACKS in st.hands:
        end_invalid(st, "four_jacks", ev)
        return False
    return True


def _deal_second(st: RoundState, ev: list[Event]) -> None:
    hands = list(st.hands)
    for k in range(4):
        hands[(st.first_hand + k) & 3] |= mask_of(st.deck[16 + 4 * k : 20 + 4 * k])
    if st.trump_mode is TM_SEVENTH:
        seventh = st.seventh_card(st.bidder)
        hands[st.bidder] &= ~(1 << seventh)
        st.indicator = seventh
        st.trump = seventh >> 3
    st.hands = (hands[0], hands[1], hands[2], hands[3])
    ev.append(Dealt(2))


def _invalid_after_deal(st: RoundState) -> str:
    """RULES.md §8 rules 2, 6 and 7 (and 3, 4 when Single Hand is off)."""
    rules = st.rules
    held = [st.seat_cards(s) for s in range(4)]
    if rules.invalid_no_points and any(not h & POINT_CARDS for h in held):
        return "no_points"
    if rules.invalid_four_jacks and any(h & JACKS == JACKS for h in held):
        return "four_jacks"
    if rules.invalid_all_one_suit and any(h in SUIT_MASKS for h in held):
        return "one_suit"
    if not rules.single_hand:
        return _invalid_regular(st)
    return ""


def _invalid_regular(st: RoundState) -> str:
    """RULES.md §8 rules 3 and 4, for a regular round."""
    rules = st.rules
    trump_cards = SUIT_MASKS[st.trump]
    held = [st.seat_cards(s) for s in range(4)]
    if rules.invalid_team_without_trump:
        for team in (0, 1):
            if not (held[team] | held[team + 2]) & trump_cards:
                return "team_without_trump"
    if st.trump_mode is TM_SEVENTH and rules.seventh_card_invalid != "none":
        bidder_trumps = held[st.bidder] & trump_cards
        if rules.seventh_card_invalid == "bidder_no_point_trump":
            if not bidder_trumps & POINT_CARDS:
                return "seventh_card_rule"
        elif bidder_trumps == 1 << st.indicator:
            return "seventh_card_rule"
    return ""


# -- trump ------------------------------------------------------------------------------------
def start_trump(st: RoundState) -> None:
    st.phase = PH_TRUMP


def legal_trump(st: RoundState, seat: int) -> list[Action]:
    if seat != st.bidder:
        return []
    rules = st.rules
    out: list[Action] = []
    if rules.trump_indicator == "outside_card":
        out.extend(TRUMP_SUITS[seat])
    else:
        out.extend(TRUMP_CARDS[seat][c] for c in cards_in(st.hands[seat]))
    if rules.seventh_card:
        out.append(SIMPLE_ACTIONS[seat][ACT_TRUMP_SEVENTH])
    return out


def apply_trump(st: RoundState, action: Action, ev: list[Event]) -> None:
    if action.act is ACT_TRUMP_SUIT:
        st.trump_mode = TM_SUIT
        st.trump = action.arg
    elif action.act is ACT_TRUMP_CARD:
        st.trump_mode = TM_HAND_CARD
        st.trump = action.arg >> 3
        st.indicator = action.arg
        hands = list(st.hands)
        hands[st.bidder] &= ~(1 << action.arg)
        st.hands = (hands[0], hands[1], hands[2], hands[3])
    else:
        st.trump_mode = TM_SEVENTH
    ev.append(TrumpChosen(st.bidder, TRUMP_MODE_NAMES[st.trump_mode]))
    if st.rules.max_double_level >= 1:
        _open_doubling(st, PH_DOUBLING, 1 - team_of(st.bidder))
    else:
        _after_doubling(st, ev)


# -- doubling (regular and Single Hand) -------------------------------------------------------
def _open_doubling(st: RoundState, phase: Phase, team: int) -> None:
    st.phase = phase
    st.doubling_team = team
    st.doubling_step = 1
    st.doubling_passed = 0


def _max_step(st: RoundState) -> int:
    top = st.rules.max_double_level
    return min(top, 2) if st.phase is PH_SINGLE_HAND_DOUBLING else top


def legal_doubling(st: RoundState, seat: int) -> list[Action]:
    if team_of(seat) != st.doubling_team or st.doubling_passed >> seat & 1:
        return []
    simple = SIMPLE_ACTIONS[seat]
    return [simple[_CALL_ACTS[st.doubling_step]], simple[ACT_PASS]]


def apply_doubling(st: RoundState, action: Action, ev: list[Event]) -> None:
    step = st.doubling_step
    single = st.phase is PH_SINGLE_HAND_DOUBLING
    if action.act is ACT_PASS:
        ev.append(Passed(action.seat, DOUBLING_CALLS[step]))
        st.doubling_passed |= 1 << action.seat
        if st.doubling_passed != (0b0101 << st.doubling_team):
            return
    else:
        if single:
            st.single_hand_level = step
            stake = SINGLE_HAND_STAKES[step]
        else:
            st.double_level = step
            stake = st.current_stake
        ev.append(StakeRaised(action.seat, DOUBLING_CALLS[step], stake))
        if step < _max_step(st):
            _open_doubling(st, st.phase, 1 - st.doubling_team)
            st.doubling_step = step + 1
            return
    st.doubling_team = -1
    st.doubling_step = 0
    st.doubling_passed = 0
    if single:
        _start_play(st, ev)
    else:
        _after_doubling(st, ev)


def _after_doubling(st: RoundState, ev: list[Event]) -> None:
    _deal_second(st, ev)
    reason = _invalid_after_deal(st)
    if reason:
        end_invalid(st, reason, ev)
        return
    if st.trump_mode is TM_SEVENTH and st.double_level == 1 and st.rules.max_double_level >= 2:
        st.phase = PH_SEVENTH_REDOUBLE
        return
    _after_seventh_redouble(st, ev)


# -- the seventh-card Redouble ------------------------------------------------------------------
def legal_seventh_redouble(st: RoundState, seat: int) -> list[Action]:
    if seat != st.bidder:
        return []
    simple = SIMPLE_ACTIONS[seat]
    return [simple[ACT_REDOUBLE], simple[ACT_PASS]]


def apply_seventh_redouble(st: RoundState, action: Action, ev: list[Event]) -> None:
    if action.act is ACT_REDOUBLE:
        st.double_level = 2
        ev.append(StakeRaised(action.seat, "redouble", st.current_stake))
    else:
        ev.append(Passed(action.seat, "redouble"))
    _after_seventh_redouble(st, ev)


def _after_seventh_redouble(st: RoundState, ev: list[Event]) -> None:
    if st.rules.single_hand:
        st.phase = PH_SINGLE_HAND
        st.single_hand_turn = 0
        return
    _start_regular_play(st, ev)


# -- Single Hand ------------------------------------------------------------------------------
def has_risk_card(held: int) -> bool:
    """RULES.md §6: could any card of this hand lose a trick with no trump, the caller on lead?"""
    for s in range(4):
        suit = SUIT_MASKS[s]
        mine = held & suit
        if not mine:
            continue
        outside = suit & ~mine
        n_outside = outside.bit_count()
        i = 0
        m = mine
        while m:
            i += 1
            top = m.bit_length() - 1
            m ^= 1 << top
            if outside >> (top + 1) and n_outside >= i:
                return True
    return False


def single_hand_speaker(st: RoundState) -> int:
    return (st.first_hand + st.single_hand_turn) & 3


def legal_single_hand(st: RoundState, seat: int) -> list[Action]:
    if seat != single_hand_speaker(st):
        return []
    simple = SIMPLE_ACTIONS[seat]
    if has_risk_card(st.seat_cards(seat)):
        return [simple[ACT_SINGLE_HAND], simple[ACT_PASS]]
    return [simple[ACT_PASS]]


def apply_single_hand(st: RoundState, action: Action, ev: list[Event]) -> None:
    if action.act is ACT_PASS:
        ev.append(Passed(action.seat, "single_hand"))
        st.single_hand_turn += 1
        if st.single_hand_turn == 4:
            _start_regular_play(st, ev)
        return
    st.caller = action.seat
    ev.append(SingleHandCalled(action.seat))
    if st.indicator >= 0:  # the face-down card goes back into the bidder's hand
        hands = list(st.hands)
        hands[st.bidder] |= 1 << st.indicator
        st.hands = (hands[0], hands[1], hands[2], hands[3])
        st.indicator = -1
    st.trump = -1
    st.trump_mode = TM_NONE
    st.target = 0
    if st.rules.max_double_level >= 1:
        _open_doubling(st, PH_SINGLE_HAND_DOUBLING, 1 - team_of(action.seat))
    else:
        _start_play(st, ev)


# -- to the first lead ------------------------------------------------------------------------
def _start_regular_play(st: RoundState, ev: list[Event]) -> None:
    reason = _invalid_regular(st) if st.rules.single_hand else ""
    if reason:
        end_invalid(st, reason, ev)
        return
    _start_play(st, ev)


def _start_play(st: RoundState, ev: list[Event]) -> None:
    st.phase = PH_PLAY
    st.leader = st.caller if st.caller >= 0 else st.first_hand
    st.turn = st.leader
    st.lead_suit = -1
    st.trick = ()


def sits_out(st: RoundState) -> int:
    """The seat that takes no part in the play (a Single Hand caller's partner), or -1."""
    return partner(st.caller) if st.caller >= 0 else -1
