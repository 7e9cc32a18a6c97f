"""RULES.md §2 stages 3-7: choosing trump, doubling, the second deal, the seventh-card Redouble."""

from __future__ import annotations

import pytest

from tests.engine.deals import DEALER, PLAY
from tests.engine.helpers import assert_illegal, hand_codes, legal, mask, play, run
from twentynine.engine import STANDARD, Phase, TrumpMode, house_rules, parse_card, preset, to_act
from twentynine.engine.events import Dealt, Passed, StakeRaised, TrumpChosen
from twentynine.engine.state import partner

WIN_16 = "0: bid 16; 1: pass; 2: pass; 3: pass"
WIN_15_OPEN = "0: bid 15; 1: pass; 2: pass; 3: pass"
HEARTS = 2


def first_four(seat: int) -> set[str]:
    return set(PLAY[seat].split()[:4])


# -- trump ------------------------------------------------------------------------------------
def test_standard_bidder_names_a_suit_or_chooses_seventh_card() -> None:
    st, _ = play(STANDARD, DEALER, PLAY, WIN_16)
    assert to_act(st) == (0,)
    assert legal(st) == {"trump C", "trump D", "trump H", "trump S", "trump seventh"}


def test_hand_card_bidder_lays_one_of_the_first_four_cards() -> None:
    st, _ = play(preset("pagat"), DEALER, PLAY, WIN_16)
    assert legal(st) == {f"trump {c}" for c in first_four(0)} | {"trump seventh"}
    assert_illegal(st, "0: trump TS", "not_allowed")  # TS is in the second batch
    assert_illegal(st, "0: trump H", "not_allowed")


def test_without_seventh_card_only_a_suit_can_be_named() -> None:
    st, _ = play(preset("denexa"), DEALER, PLAY, WIN_15_OPEN)
    assert legal(st) == {"trump C", "trump D", "trump H", "trump S"}
    assert_illegal(st, "0: trump seventh", "not_allowed")


def test_trump_in_hand_stays_secret() -> None:
    st, ev = play(STANDARD, DEALER, PLAY, WIN_16 + "; 0: trump H")
    assert ev[-1] == TrumpChosen(0, "suit")  # the event does not carry the suit
    assert (st.trump_mode, st.trump, st.trump_shown, st.indicator) == (
        TrumpMode.SUIT,
        HEARTS,
        False,
        -1,
    )
    assert hand_codes(st, 0) == first_four(0)  # the bidder keeps every card


def test_seventh_card_is_the_third_card_of_the_second_batch() -> None:
    st, ev = play(STANDARD, DEALER, PLAY, WIN_16 + "; 0: trump seventh")
    assert ev[-1] == TrumpChosen(0, "seventh")
    assert st.trump == -1  # not known before the second deal
    assert st.phase is Phase.DOUBLING
    st, ev = run(st, "1: pass; 3: pass")
    assert Dealt(2) in ev
    assert st.indicator == parse_card("7H") == st.seventh_card(0)
    assert st.trump == HEARTS
    assert hand_codes(st, 0) == set(PLAY[0].split()) - {"7H"}  # set aside face down
    assert st.seat_cards(0) == mask(PLAY[0])


def test_hand_card_leaves_the_hand_at_once() -> None:
    st, ev = play(preset("pagat"), DEALER, PLAY, WIN_16 + "; 0: trump JH")
    assert ev[-1] == TrumpChosen(0, "hand_card")
    assert (st.trump_mode, st.trump, st.indicator) == (TrumpMode.HAND_CARD, HEARTS, 23)
    assert hand_codes(st, 0) == first_four(0) - {"JH"}
    st, _ = run(st, "1: pass; 3: pass")  # no Double
    assert hand_codes(st, 0) == set(PLAY[0].split()) - {"JH"}
    assert st.seat_cards(0) == mask(PLAY[0])


# -- doubling ---------------------------------------------------------------------------------
def test_doubling_comes_before_the_second_deal() -> None:
    st, _ = play(STANDARD, DEALER, PLAY, WIN_16 + "; 0: trump H")
    assert st.phase is Phase.DOUBLING
    assert all(hand_codes(st, s) == first_four(s) for s in range(4))
    assert to_act(st) == (1, 3)  # both opponents at once
    assert legal(st, 1) == {"double", "pass"}
    assert legal(st, 0) == set()


@pytest.mark.parametrize("doubler", [1, 3])
@pytest.mark.parametrize("redoubler", [0, 2])
@pytest.mark.parametrize("setdoubler", [1, 3])
def test_double_redouble_setdouble(doubler: int, redoubler: int, setdoubler: int) -> None:
    st, _ = play(STANDARD, DEALER, PLAY, WIN_16 + "; 0: trump H")
    st, ev = run(st, f"{doubler}: double")
    assert ev == [StakeRaised(doubler, "double", 2)]
    assert to_act(st) == (0, 2)
    assert legal(st, redoubler) == {"redouble", "pass"}
    st, ev = run(st, f"{redoubler}: redouble")
    assert ev == [StakeRaised(redoubler, "redouble", 4)]
    assert to_act(st) == (1, 3)
    assert legal(st, setdoubler) == {"setdouble", "pass"}
    st, ev = run(st, f"{setdoubler}: setdouble")
    assert ev[0] == StakeRaised(setdoubler, "setdouble", 6)
    assert Dealt(2) in ev
    assert (st.double_level, st.current_stake) == (3, 6)
    assert st.phase is Phase.SINGLE_HAND


def test_one_partner_passing_leaves_the_call_to_the_other() -> None:
    st, _ = play(STANDARD, DEALER, PLAY, WIN_16 + "; 0: trump H")
    st, ev = run(st, "1: pass")
    assert ev == [Passed(1, "double")]
    assert to_act(st) == (3,)
    assert_illegal(st, "1: double", "not_your_turn")
    st, ev = run(st, "3: double")
    assert st.double_level == 1
    assert to_act(st) == (0, 2)


def test_both_passing_ends_the_doubling() -> None:
    st, ev = play(STANDARD, DEALER, PLAY, WIN_16 + "; 0: trump H; 1: pass; 3: pass")
    assert Dealt(2) in ev
    assert (st.double_level, st.current_stake) == (0, 1)
    assert st.phase is Phase.SINGLE_HAND


def test_redouble_passed_with_trump_in_hand_is_final() -> None:
    st, ev = play(STANDARD, DEALER, PLAY, WIN_16 + "; 0: trump H; 1: double; 0: pass; 2: pass")
    assert Dealt(2) in ev
    assert st.double_level == 1
    assert st.phase is Phase.SINGLE_HAND  # no seventh-card Redouble with a named suit


@pytest.mark.parametrize("name", ["arkadium", "pagat"])
def test_doubling_up_to_redouble_stops_there(name: str) -> None:
    rules = preset(name)
    win = WIN_16 if rules.min_bid == 16 else WIN_15_OPEN
    trump = "trump JH" if rules.trump_indicator == "hand_card" else "trump H"
    st, ev = play(rules, DEALER, PLAY, f"{win}; 0: {trump}; 3: double; 2: redouble")
    assert StakeRaised(2, "redouble", 4) in ev
    assert Dealt(2) in ev  # no SetDouble step
    assert st.double_level == 2
    assert st.phase is (Phase.SINGLE_HAND if rules.single_hand else Phase.PLAY)


def test_doubling_double_only_stops_after_double() -> None:
    rules = house_rules("standard", {"doubling": "double"})
    st, ev = play(rules, DEALER, PLAY, WIN_16 + "; 0: trump seventh; 1: double")
    assert Dealt(2) in ev
    assert st.double_level == 1
    assert st.phase is Phase.SINGLE_HAND  # and no seventh-card Redouble either


@pytest.mark.parametrize("name", ["classic", "denexa", "bhoos"])
def test_no_doubling_goes_straight_to_the_deal_and_play(name: str) -> None:
    rules = preset(name)
    st, _ = play(rules, DEALER, PLAY)
    if st.phase is Phase.AUCTION and st.bid == 0:  # not first-forced
        st, _ = run(st, f"0: bid {rules.min_bid}")
    while st.phase is Phase.AUCTION:
        st, _ = run(st, f"{st.speaker}: pass")
    st, ev = run(st, "0: trump H")
    assert Dealt(2) in ev
    assert st.phase is Phase.PLAY
    assert to_act(st) == (0,)


# -- second deal ------------------------------------------------------------------------------
def test_second_deal_completes_every_hand() -> None:
    st, ev = play(STANDARD, DEALER, PLAY, WIN_16 + "; 0: trump H; 1: pass; 3: pass")
    assert ev.count(Dealt(2)) == 1
    for seat in range(4):
        assert hand_codes(st, seat) == set(PLAY[seat].split())


# -- seventh-card Redouble --------------------------------------------------------------------
SEVENTH_DOUBLED = WIN_16 + "; 0: trump seventh; 1: double; 0: pass; 2: pass"


def test_seventh_card_redouble_after_the_deal() -> None:
    st, ev = play(STANDARD, DEALER, PLAY, SEVENTH_DOUBLED)
    assert Dealt(2) in ev
    assert st.phase is Phase.SEVENTH_REDOUBLE
    assert to_act(st) == (0,)  # the bidder only, not the partner
    assert legal(st) == {"redouble", "pass"}
    assert_illegal(st, f"{partner(0)}: redouble", "not_your_turn")
    st, ev = run(st, "0: redouble")
    assert ev == [StakeRaised(0, "redouble", 4)]
    assert st.double_level == 2
    assert st.phase is Phase.SINGLE_HAND  # no SetDouble after it


def test_seventh_card_redouble_may_be_passed() -> None:
    st, ev = play(STANDARD, DEALER, PLAY, SEVENTH_DOUBLED + "; 0: pass")
    assert ev[-1] == Passed(0, "redouble")
    assert (st.double_level, st.current_stake) == (1, 2)
    assert st.phase is Phase.SINGLE_HAND


def test_no_seventh_card_redouble_without_a_double() -> None:
    st, _ = play(STANDARD, DEALER, PLAY, WIN_16 + "; 0: trump seventh; 1: pass; 3: pass")
    assert st.phase is Phase.SINGLE_HAND
    assert st.double_level == 0


def test_no_seventh_card_redouble_after_a_regular_redouble() -> None:
    script = WIN_16 + "; 0: trump seventh; 1: double; 2: redouble; 1: pass; 3: pass"
    st, _ = play(STANDARD, DEALER, PLAY, script)
    assert st.phase is Phase.SINGLE_HAND
    assert st.double_level == 2
