"""RULES.md §8: the invalid rounds, each detected the moment it becomes true."""

from __future__ import annotations

import pytest

from tests.engine.deals import DEALER, PLAY, SEVENTH
from tests.engine.helpers import autoplay, play, run, start, to_play
from twentynine.engine import STANDARD, Phase, house_rules, preset
from twentynine.engine.events import Dealt, RoundEnded, RoundInvalid

WIN_16 = "0: bid 16; 1: pass; 2: pass; 3: pass"
NO_DOUBLE = "1: pass; 3: pass"
NO_SINGLE_HAND = "0: pass; 1: pass; 2: pass; 3: pass"

#: seat 0 (first hand) has no point card among its first four cards (TS comes later)
FIRST_HAND_BLANK = {**PLAY, 0: "KS QS 8S 7S TS 7C 7H 8C", 1: "JS 9S AS JH JD 9D QH QC"}
#: seat 1 has no point card at all
SEAT_1_BLANK = {
    0: "JS 9S AS JH TS 7C 7H 8C",
    1: "KS QS 8S 7S KD QD 8D 7D",
    2: "JC 9C AC TC AD TD TH AH",
    3: "KC JD 9D QC QH 9H KH 8H",
}
#: seat 1's only point card, TD, is its 7th card
SEAT_1_SEVENTH_POINT = {
    **SEAT_1_BLANK,
    1: "KS QS 8S 7S KD QD TD 7D",
    2: "JC 9C AC TC AD 8D TH AH",
}
#: seats 1 and 3 hold no spade; seat 1's 7th card is 8H
NO_SPADES_1_3 = {
    0: "JS 9S AS 7S KH QH 8S 7C",
    1: "JH 9H AH TH JC 9C 8H 7H",
    2: "JD 9D AD TD TS KS QS 8D",
    3: "AC TC KC QC KD QD 7D 8C",
}
#: as NO_SPADES_1_3 with 8S and 8H swapped: team 1's only spade is seat 1's 7th card
ONLY_SPADE_IS_SEVENTH = {
    **NO_SPADES_1_3,
    0: "JS 9S AS 7S KH QH 8H 7C",
    1: "JH 9H AH TH JC 9C 8S 7H",
}
#: SEVENTH with KS and KH swapped: seat 0 holds KH and its 7th card 7H, no point trump
TWO_HEARTS_NO_POINTS = {
    **SEVENTH,
    0: "JS 9S AS TS KH 7C 7H 8C",
    3: "KC KD QD 8D 7D 9H KS 8H",
}
FOUR_JACKS_FIRST = {
    0: "9C 9S AS AC TS 7C 7H 8C",
    1: "KS QS 8S 7S TC 9D QH QC",
    2: "JC JD JH JS AD TD TH AH",
    3: "KC KD QD 8D 7D 9H KH 8H",
}
FOUR_JACKS_SECOND = {**FOUR_JACKS_FIRST, 2: "JC JD JH AD JS TD TH AH"}
#: seat 3 holds all eight diamonds
ONE_SUIT = {
    0: "JS 9S AS JH TS 7C 7H 8C",
    1: "KS QS 8S 7S JC 9C QH QC",
    2: "AC TC KC 9H AH TH KH 8H",
    3: "JD 9D AD TD KD QD 8D 7D",
}


def assert_invalid(st, events, reason: str) -> None:
    assert st.phase is Phase.OVER
    assert (st.outcome, st.reason, st.stake, st.score_delta) == ("invalid", reason, 0, (0, 0))
    assert events[-2:] == [RoundInvalid(reason), RoundEnded("invalid", False, (0, 0))]


# -- 1. the first hand has no point card in its first four -----------------------------------
def test_first_hand_without_points_is_redealt_before_the_auction() -> None:
    st, ev = start(STANDARD, DEALER, FIRST_HAND_BLANK)
    assert ev[0] == Dealt(1)
    assert_invalid(st, ev, "first_hand_no_points")


def test_only_the_first_hand_is_checked_before_the_auction() -> None:
    st, _ = start(STANDARD, DEALER, PLAY)  # seat 3's first four (KC KD QD 8D) have no point
    assert st.phase is Phase.AUCTION


@pytest.mark.parametrize("name", ["classic", "arkadium", "denexa", "bhoos"])
def test_first_hand_without_points_plays_on_where_the_rule_is_off(name: str) -> None:
    st, _ = start(preset(name), DEALER, FIRST_HAND_BLANK)
    assert st.phase is Phase.AUCTION


# -- all four pass ----------------------------------------------------------------------------
def test_all_passed() -> None:
    st, ev = play(STANDARD, DEALER, PLAY, "0: pass; 1: pass; 2: pass; 3: pass")
    assert_invalid(st, ev, "all_passed")


# -- 2. a player without a point card ---------------------------------------------------------
def test_player_without_points_is_found_after_the_second_deal() -> None:
    st, _ = play(STANDARD, DEALER, SEAT_1_BLANK, f"{WIN_16}; 0: trump H")
    assert st.phase is Phase.DOUBLING  # not known from the first four cards
    st, ev = run(st, NO_DOUBLE)
    assert ev[-3] == Dealt(2)
    assert_invalid(st, ev, "no_points")


def test_face_down_seventh_card_counts_as_a_point_card() -> None:
    script = "0: pass; 1: bid 16; 2: pass; 3: pass; 1: trump seventh; 0: pass; 2: pass"
    st, _ = play(STANDARD, DEALER, SEAT_1_SEVENTH_POINT, script)
    assert st.indicator >= 0
    assert st.phase is Phase.SINGLE_HAND


def test_player_without_points_plays_on_where_the_rule_is_off() -> None:
    st, _ = to_play(preset("classic"), DEALER, SEAT_1_BLANK, 0, 15, "H")
    assert st.phase is Phase.PLAY


# -- 3. a team without trump ------------------------------------------------------------------
def test_team_without_trump_after_the_single_hand_calls() -> None:
    st, ev = play(STANDARD, DEALER, NO_SPADES_1_3, f"{WIN_16}; 0: trump S; {NO_DOUBLE}")
    assert st.phase is Phase.SINGLE_HAND  # a Single Hand would still make the round good
    st, ev = run(st, NO_SINGLE_HAND)
    assert_invalid(st, ev, "team_without_trump")


def test_team_without_trump_right_after_the_deal_without_single_hand() -> None:
    rules = house_rules("standard", {"single_hand": False})
    st, ev = play(rules, DEALER, NO_SPADES_1_3, f"{WIN_16}; 0: trump S; {NO_DOUBLE}")
    assert Dealt(2) in ev
    assert_invalid(st, ev, "team_without_trump")


def test_a_single_hand_call_saves_a_round_without_trump() -> None:
    script = f"{WIN_16}; 0: trump S; {NO_DOUBLE}; 0: single_hand; 1: pass; 3: pass"
    st, _ = play(STANDARD, DEALER, NO_SPADES_1_3, script)
    assert st.phase is Phase.PLAY


def test_face_down_seventh_card_counts_as_the_teams_trump() -> None:
    script = "0: pass; 1: bid 16; 2: pass; 3: pass; 1: trump seventh; 0: pass; 2: pass"
    st, _ = play(STANDARD, DEALER, ONLY_SPADE_IS_SEVENTH, f"{script}; {NO_SINGLE_HAND}")
    assert st.trump == 3
    assert st.phase is Phase.PLAY


@pytest.mark.parametrize("name", ["pagat", "classic"])
def test_team_without_trump_plays_on_where_the_rule_is_off(name: str) -> None:
    rules = preset(name)
    trump = "JS" if rules.trump_indicator == "hand_card" else "S"
    st, _ = to_play(rules, DEALER, NO_SPADES_1_3, 0, rules.min_bid, trump)
    assert st.phase is Phase.PLAY


# -- 4. the seventh-card rule -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("option", "hands", "invalid"),
    [
        ("bidder_single_trump", SEVENTH, True),
        ("bidder_single_trump", TWO_HEARTS_NO_POINTS, False),
        ("bidder_single_trump", PLAY, False),
        ("bidder_no_point_trump", SEVENTH, True),
        ("bidder_no_point_trump", TWO_HEARTS_NO_POINTS, True),
        ("bidder_no_point_trump", PLAY, False),
        ("none", SEVENTH, False),
    ],
)
def test_seventh_card_rule(option: str, hands, invalid: bool) -> None:
    rules = house_rules("standard", {"seventh_card_invalid": option})
    st, ev = play(rules, DEALER, hands, f"{WIN_16}; 0: trump seventh; {NO_DOUBLE}")
    assert st.phase is Phase.SINGLE_HAND  # checked after the Single Hand calls
    st, ev = run(st, NO_SINGLE_HAND)
    if invalid:
        assert_invalid(st, ev, "seventh_card_rule")
    else:
        assert st.phase is Phase.PLAY


@pytest.mark.parametrize("option", ["bidder_single_trump", "bidder_no_point_trump"])
def test_seventh_card_rule_ignores_a_suit_named_in_hand(option: str) -> None:
    rules = house_rules("standard", {"seventh_card_invalid": option})
    st, _ = to_play(rules, DEALER, SEVENTH, 0, 16, "H")
    assert st.phase is Phase.PLAY


# -- 5. trump never shown ---------------------------------------------------------------------
@pytest.mark.parametrize("name", ["standard", "bhoos"])
def test_trump_never_shown_after_eight_tricks(name: str) -> None:
    st, _ = to_play(preset(name), DEALER, PLAY, 0, 16, "H")
    st, ev = autoplay(st)
    assert len(st.tricks) == 8 and not st.trump_shown
    assert_invalid(st, ev, "trump_never_shown")


def test_trump_never_shown_is_scored_where_the_rule_is_off() -> None:
    rules = house_rules("standard", {"invalid_trump_never_shown": False})
    st, _ = to_play(rules, DEALER, PLAY, 0, 16, "H")
    st, _ = autoplay(st)
    assert not st.trump_shown
    assert st.outcome == ("won" if st.points[0] >= 16 else "lost")


# -- 6. four Jacks in one hand ----------------------------------------------------------------
def test_four_jacks_among_the_first_four_cards() -> None:
    st, ev = start(STANDARD, DEALER, FOUR_JACKS_FIRST)
    assert_invalid(st, ev, "four_jacks")


def test_four_jacks_after_the_second_deal() -> None:
    st, _ = start(STANDARD, DEALER, FOUR_JACKS_SECOND)
    assert st.phase is Phase.AUCTION
    st, ev = run(st, f"{WIN_16}; 0: trump H; {NO_DOUBLE}")
    assert ev[-3] == Dealt(2)
    assert_invalid(st, ev, "four_jacks")


def test_four_jacks_play_on_where_the_rule_is_off() -> None:
    st, _ = to_play(preset("classic"), DEALER, FOUR_JACKS_FIRST, 0, 15, "H")
    assert st.phase is Phase.PLAY


# -- 7. eight cards of one suit (pagat) -------------------------------------------------------
def test_one_suit_hand_is_invalid_in_pagat() -> None:
    st, ev = play(preset("pagat"), DEALER, ONE_SUIT, f"{WIN_16}; 0: trump JH; {NO_DOUBLE}")
    assert ev[-3] == Dealt(2)
    assert_invalid(st, ev, "one_suit")


def test_one_suit_hand_plays_on_in_standard() -> None:
    st, _ = play(STANDARD, DEALER, ONE_SUIT, f"{WIN_16}; 0: trump H; {NO_DOUBLE}")
    assert st.phase is Phase.SINGLE_HAND
