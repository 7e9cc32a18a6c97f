"""RULES.md §2 stages 8-9 and §6: Single Hand calls, risk cards, doubling, play and result."""

from __future__ import annotations

import pytest

from tests.engine.helpers import assert_illegal, hand_codes, legal, mask, play, run
from twentynine.engine import STANDARD, Phase, TrumpMode, house_rules, preset, to_act
from twentynine.engine.contract import has_risk_card
from twentynine.engine.events import (
    Dealt,
    Passed,
    RoundEnded,
    SingleHandCalled,
    StakeRaised,
    TrickWon,
    TrumpShown,
)

DEALER = 3
#: Seat 1 holds the six top spades, JH and 9D (its 7th card); its partner seat 3 holds JD, so
#: seat 1 wins every trick alone. Seat 3 (all top clubs and JD) has no risk card.
SH = {
    0: "8S 7S AH TH KH QH 8H 7H",
    1: "JS 9S AS TS KS QS 9D JH",
    2: "AD TD KD QD 8D 7D 7C 9H",
    3: "JC 9C AC TC KC QC 8C JD",
}
#: seat 0 wins the auction at 16, names hearts, nobody doubles: the Single Hand calls follow
REGULAR = "0: bid 16; 1: pass; 2: pass; 3: pass; 0: trump H; 1: pass; 3: pass"
#: seat 1 wins every trick leading from the top (seat 3 sits out)
SEAT_1_WINS_ALL = """
    1: play JS; 2: play 7C; 0: play 7S
    1: play 9S; 2: play 9H; 0: play 8S
    1: play AS; 2: play 7D; 0: play 7H
    1: play TS; 2: play 8D; 0: play 8H
    1: play KS; 2: play QD; 0: play QH
    1: play QS; 2: play KD; 0: play KH
    1: play JH; 2: play TD; 0: play TH
    1: play 9D; 2: play AD; 0: play AH
"""


# -- risk cards -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "risky"),
    [
        ("JS 9S AS TS KS JH 9H JD", False),  # every card is the top of its suit
        ("JC 9C AC TC KC QC 8C JD", False),  # only 7C is out, and it is lower
        ("JS AS TS KS QS 8S 7S JH", False),  # 9S is out but cannot guard against the Jack
        ("JS 9S TS KS QS 8S 7S JH", False),  # AS alone cannot beat the 10, 3rd highest
        ("9S AS TS KS QS 8S 7S JH", True),  # JS may be out alone over the 9
        ("JS 9S AS TS KS QS 9D JH", True),  # JD is out over 9D
        ("JS 9S AS TS KS QS 8S 7H", True),  # any heart beats 7H
        ("JS 9S KS QS 8S 7S JH JD", False),  # AS and TS fall under JS and 9S
        ("JS KS QS 8S 7S 9H JH JD", True),  # 9S guarded by AS or TS beats KS
    ],
)
def test_risk_card_decision(hand: str, risky: bool) -> None:
    assert has_risk_card(mask(hand)) is risky


def test_single_hand_needs_a_risk_card() -> None:
    st, _ = play(STANDARD, DEALER, SH, REGULAR + "; 0: pass; 1: pass; 2: pass")
    assert to_act(st) == (3,)
    assert legal(st) == {"pass"}
    assert_illegal(st, "3: single_hand", "not_allowed")


def test_the_face_down_seventh_card_counts_as_a_risk_card() -> None:
    """Seat 1's only risk card, 9D, is its 7th card, face down when seat 1 bids seventh."""
    script = "0: pass; 1: bid 16; 2: pass; 3: pass; 1: trump seventh; 0: pass; 2: pass; 0: pass"
    st, _ = play(STANDARD, DEALER, SH, script)
    assert st.indicator == mask("9D").bit_length() - 1
    assert not has_risk_card(st.hands[1])
    assert legal(st) == {"single_hand", "pass"}
    st, _ = run(st, "1: single_hand")
    assert (st.caller, st.indicator) == (1, -1)
    assert hand_codes(st, 1) == set(SH[1].split())  # the 7th card is back in the hand


# -- the calls --------------------------------------------------------------------------------
def test_calls_go_in_turn_from_the_first_hand_and_the_first_call_wins() -> None:
    st, ev = play(STANDARD, DEALER, SH, REGULAR)
    assert Dealt(2) in ev
    assert st.phase is Phase.SINGLE_HAND
    assert to_act(st) == (0,)
    assert legal(st) == {"single_hand", "pass"}
    st, ev = run(st, "0: pass")
    assert ev == [Passed(0, "single_hand")]
    assert to_act(st) == (1,)
    st, ev = run(st, "1: single_hand")
    assert ev == [SingleHandCalled(1)]
    assert st.phase is Phase.SINGLE_HAND_DOUBLING  # seats 2 and 3 are not asked
    assert to_act(st) == (0, 2)


def test_everyone_passing_keeps_the_regular_contract() -> None:
    st, _ = play(STANDARD, DEALER, SH, REGULAR + "; 0: pass; 1: pass; 2: pass; 3: pass")
    assert st.phase is Phase.PLAY
    assert (st.caller, st.bidder, st.trump, st.target) == (-1, 0, 2, 16)
    assert to_act(st) == (0,)  # the first hand leads a regular round


def test_single_hand_replaces_the_contract_and_the_trump() -> None:
    st, _ = play(STANDARD, DEALER, SH, REGULAR + "; 0: pass; 1: single_hand; 0: pass; 2: pass")
    assert st.phase is Phase.PLAY
    assert st.caller == 1
    assert (st.trump, st.trump_mode, st.target) == (-1, TrumpMode.NONE, 0)
    assert st.contract == "single_hand"
    assert to_act(st) == (1,)  # the caller leads


def test_single_hand_takes_back_the_face_down_seventh_card() -> None:
    script = "0: bid 16; 1: pass; 2: pass; 3: pass; 0: trump seventh; 1: pass; 3: pass"
    st, _ = play(STANDARD, DEALER, SH, script)
    assert st.indicator >= 0
    assert len(hand_codes(st, 0)) == 7
    st, _ = run(st, "0: pass; 1: single_hand")
    assert st.indicator == -1
    assert hand_codes(st, 0) == set(SH[0].split())


def test_single_hand_takes_back_the_hand_card() -> None:
    script = "0: bid 16; 1: pass; 2: pass; 3: pass; 0: trump AH; 1: pass; 3: pass"
    st, _ = play(preset("pagat"), DEALER, SH, script)
    assert "AH" not in hand_codes(st, 0)
    st, _ = run(st, "0: single_hand; 1: pass; 3: pass")
    assert st.phase is Phase.PLAY
    assert hand_codes(st, 0) == set(SH[0].split())


@pytest.mark.parametrize(
    "doubling",
    [
        "1: double; 0: pass; 2: pass",
        "1: double; 0: redouble; 1: pass; 3: pass",
        "1: double; 0: redouble; 3: setdouble",
    ],
)
def test_single_hand_allowed_after_regular_doubling(doubling: str) -> None:
    script = f"0: bid 16; 1: pass; 2: pass; 3: pass; 0: trump H; {doubling}"
    st, _ = play(STANDARD, DEALER, SH, script)
    assert st.phase is Phase.SINGLE_HAND
    st, _ = run(st, "0: pass; 1: single_hand")
    assert st.current_stake == 3  # the Single Hand stake replaces the regular one


# -- Single Hand doubling ---------------------------------------------------------------------
def test_single_hand_double_and_redouble() -> None:
    st, _ = play(STANDARD, DEALER, SH, REGULAR + "; 0: pass; 1: single_hand")
    assert legal(st, 0) == {"double", "pass"}
    st, ev = run(st, "0: double")
    assert ev == [StakeRaised(0, "double", 6)]
    assert to_act(st) == (1, 3)  # the partner who will sit out may redouble too
    st, ev = run(st, "3: redouble")
    assert ev == [StakeRaised(3, "redouble", 12)]
    assert st.phase is Phase.PLAY  # no SetDouble on a Single Hand
    assert st.current_stake == 12


def test_single_hand_doubling_limited_by_the_doubling_option() -> None:
    rules = house_rules("standard", {"doubling": "double"})
    st, _ = play(rules, DEALER, SH, REGULAR + "; 0: pass; 1: single_hand; 2: double")
    assert st.phase is Phase.PLAY
    assert st.current_stake == 6
    rules = house_rules("standard", {"doubling": "none"})
    script = "0: bid 16; 1: pass; 2: pass; 3: pass; 0: trump H; 0: pass; 1: single_hand"
    st, _ = play(rules, DEALER, SH, script)
    assert st.phase is Phase.PLAY
    assert st.current_stake == 3


# -- play and result --------------------------------------------------------------------------
def test_the_partner_sits_out_and_there_is_no_trump() -> None:
    st, _ = play(STANDARD, DEALER, SH, REGULAR + "; 0: pass; 1: single_hand; 0: pass; 2: pass")
    st, _ = run(st, "1: play JS")
    assert to_act(st) == (2,)
    assert "reveal" not in legal(st)  # seat 2 has no spade, but there is no trump to show
    assert len(legal(st)) == 8
    st, ev = run(st, "2: play 7C")
    assert to_act(st) == (0,)  # seat 3 is skipped
    st, ev = run(st, "0: play 7S")
    assert ev[-1] == TrickWon(1, 1, 3)
    st, ev = run(st, "1: play 9S; 2: play 9H; 0: play 8S")
    assert ev[-1] == TrickWon(2, 1, 4)  # the heart (trump in the regular contract) is no trump
    assert not st.trump_shown


def test_single_hand_won_by_taking_all_eight_tricks() -> None:
    st, ev = play(STANDARD, DEALER, SH, REGULAR + "; 0: pass; 1: single_hand; 0: pass; 2: pass")
    st, ev = run(st, SEAT_1_WINS_ALL)
    assert st.phase is Phase.OVER
    assert [len(t.plays) for t in st.tricks] == [3] * 8
    assert all(t.winner == 1 for t in st.tricks)
    assert hand_codes(st, 3) == set(SH[3].split())  # the partner never played
    assert (st.outcome, st.stake, st.score_delta, st.early) == ("won", 3, (0, 3), False)
    assert st.tricks_won == (0, 8)
    assert not any(isinstance(e, TrumpShown) for e in ev)


@pytest.mark.parametrize("name", ["standard", "pagat"])
def test_single_hand_lost_at_the_first_trick_not_won(name: str) -> None:
    """The round ends there even where early finish is off (pagat)."""
    trump = "H" if name == "standard" else "AH"
    script = f"0: bid 16; 1: pass; 2: pass; 3: pass; 0: trump {trump}; 1: pass; 3: pass"
    st, _ = play(preset(name), DEALER, SH, script + "; 0: single_hand; 1: pass; 3: pass")
    assert preset(name).early_finish is (name == "standard")
    st, ev = run(st, "0: play AH; 1: play JH")
    assert to_act(st) == (3,)  # seat 2 (the caller's partner) sits out
    st, ev = run(st, "3: play 8C")
    assert ev[-2:] == [TrickWon(1, 1, 4), RoundEnded("lost", True, (-3, 0))]
    assert (st.phase, st.outcome, st.stake, st.early) == (Phase.OVER, "lost", 3, True)
    assert len(st.tricks) == 1
