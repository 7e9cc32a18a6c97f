"""RULES.md §4 and §5: tricks, following suit, showing trump, who must trump, under- and
over-trumping, leading hidden trump, the seventh card and the hand-card indicator."""

from __future__ import annotations

import pytest

from tests.engine.deals import DEALER, LAST, LAST_HAND_CARD, PLAY, SEVENTH
from tests.engine.helpers import (
    assert_illegal,
    autoplay,
    hand_codes,
    legal,
    play,
    playable,
    run,
    to_play,
)
from twentynine.engine import STANDARD, Phase, house_rules, parse_card, preset, to_act
from twentynine.engine.events import CardPlayed, TrickWon, TrumpShown

HEARTS = 2
ALL_PLAYS = {seat: {f"play {c}" for c in PLAY[seat].split()} for seat in range(4)}

#: Seat 3 holds only hearts and diamonds; seat 1 has no spade, seat 2 no club.
BH = {
    0: "JC 9C JS 9S AC AS 7D 7H",
    1: "TC KC QC 8C 7C 9H JD 9D",
    2: "TS KS QS 8S 7S AH AD TD",
    3: "JH 8H TH KH QH KD QD 8D",
}
#: Seat 3 holds seven hearts and 8C; JH is seat 2's, and seat 2 has no diamond.
NU = {
    0: "JS 9S AS TS JC 9C AC JD",
    1: "9D AD TD KD QD 7D 8D 7C",
    2: "JH KS QS 8S 7S TC KC QC",
    3: "9H AH TH KH QH 8H 7H 8C",
}
#: Seat 0 holds JH (to lay face down), 9H and 8H; seat 2 can win a club trick and lead 7H.
LEAD = {
    0: "JH 9S AS JS 9H 8H 7C 8C",
    1: "KS QS 8S 7S JD 9D QH QC",
    2: "JC 9C AC TC AD TD 7H AH",
    3: "KC KD QD 8D 7D TH KH TS",
}
#: SEVENTH with its only heart, 7H, moved into seat 0's first batch (to lay as a hand card)
SEVENTH_HAND_CARD = {**SEVENTH, 0: "JS 9S AS 7H KS 7C TS 8C"}


def standard_hearts():
    st, _ = to_play(STANDARD, DEALER, PLAY, 0, 16, "H")
    assert st.phase is Phase.PLAY
    return st


def codes(text: str) -> set[str]:
    return set(text.split())


# -- a trick ----------------------------------------------------------------------------------
def test_first_hand_leads_any_card() -> None:
    st = standard_hearts()
    assert to_act(st) == (0,)
    assert legal(st) == ALL_PLAYS[0]


def test_must_follow_suit() -> None:
    st, _ = run(standard_hearts(), "0: play JS")
    assert to_act(st) == (1,)
    assert legal(st) == {"play KS", "play QS", "play 8S", "play 7S"}
    assert_illegal(st, "1: play JD", "must_follow_suit")


def test_highest_card_of_the_suit_led_wins_and_leads_next() -> None:
    st, ev = run(standard_hearts(), "0: play TS; 1: play KS; 2: play AH; 3: play 9H")
    assert ev[-1] == TrickWon(1, 0, 1 + 1 + 2)  # hidden-trump hearts are ordinary discards
    assert to_act(st) == (0,)
    assert st.points == (4, 0)


def test_a_void_player_may_ask_for_trump_or_play_any_card() -> None:
    st, _ = run(standard_hearts(), "0: play JS; 1: play 7S")
    assert legal(st) == ALL_PLAYS[2] | {"reveal"}
    st2, ev = run(st, "2: play JC")  # playing without asking is fine
    assert ev == [CardPlayed(2, parse_card("JC"))]
    assert not st2.trump_shown


# -- showing trump on request (standard) ------------------------------------------------------
def test_reveal_on_request_then_the_asker_must_trump() -> None:
    st, _ = run(standard_hearts(), "0: play JS; 1: play 7S")
    st, ev = run(st, "2: reveal")
    assert ev == [TrumpShown(2, HEARTS, 1, -1)]
    assert (st.trump_shown, st.must_trump) == (True, 2)
    assert playable(st, 2) == {"TH", "AH"}
    assert_illegal(st, "2: play JC", "not_allowed")
    st, _ = run(st, "2: play TH")
    assert st.must_trump == -1
    assert legal(st) == ALL_PLAYS[3]  # only the asker must trump
    st, ev = run(st, "3: play 8D")
    assert ev[-1] == TrickWon(1, 2, 3 + 0 + 1 + 0)
    assert to_act(st) == (2,)


def test_trump_played_before_the_reveal_counts_in_that_trick() -> None:
    st, _ = run(standard_hearts(), "0: play JS; 1: play 7S; 2: play AH; 3: reveal")
    assert playable(st, 3) == {"9H", "KH", "8H"}
    _, ev = run(st, "3: play KH")
    assert ev[-1] == TrickWon(1, 2, 3 + 0 + 1 + 0)  # AH, played while hidden, wins
    _, ev = run(st, "3: play 9H")
    assert ev[-1] == TrickWon(1, 3, 3 + 0 + 1 + 2)


def test_a_trump_led_after_the_reveal_is_followed_like_any_suit() -> None:
    st, _ = run(standard_hearts(), "0: play JS; 1: play 7S; 2: reveal; 2: play TH; 3: play 8D")
    st, _ = run(st, "2: play AH")
    assert playable(st, 3) == {"9H", "KH", "8H"}
    st, _ = run(st, "3: play 9H")
    assert playable(st, 0) == {"JH", "7H"}
    st, ev = run(st, "0: play JH; 1: play QH")
    assert ev[-1] == TrickWon(2, 0, 1 + 2 + 3)


def test_after_the_reveal_a_void_player_need_not_trump() -> None:
    script = "0: play JS; 1: play 7S; 2: reveal; 2: play TH; 3: play 8D"
    script += "; 2: play JC; 3: play KC; 0: play 7C; 1: play QC; 2: play AD; 3: play 7D"
    st, _ = run(standard_hearts(), script)
    assert to_act(st) == (0,)
    assert legal(st) == {f"play {c}" for c in hand_codes(st, 0)}  # no diamond, no duty
    assert "reveal" not in legal(st)


def test_an_asker_without_trump_plays_any_card() -> None:
    st, _ = to_play(STANDARD, DEALER, PLAY, 0, 16, "D")  # seat 0 has no diamond
    st, _ = run(st, "0: play 7C; 1: play QC; 2: play JC; 3: play KC; 2: play AD; 3: play 7D")
    st, ev = run(st, "0: reveal")
    assert ev[0] == TrumpShown(0, 1, 2, -1)  # (seat 3's KD QD then make a pair)
    assert playable(st, 0) == hand_codes(st, 0)


# -- forced on void (classic) and automatic (arkadium, denexa) --------------------------------
def test_forced_on_void_a_void_player_must_ask() -> None:
    st, _ = to_play(preset("classic"), DEALER, PLAY, 0, 15, "H")
    st, _ = run(st, "0: play JS; 1: play 7S")
    assert legal(st) == {"reveal"}
    assert_illegal(st, "2: play JC", "not_allowed")
    st, ev = run(st, "2: reveal")
    assert ev == [TrumpShown(2, HEARTS, 1, -1)]
    assert playable(st, 2) == {"TH", "AH"}


@pytest.mark.parametrize("name", ["arkadium", "denexa"])
def test_automatic_reveal_on_the_first_void(name: str) -> None:
    st, _ = to_play(preset(name), DEALER, PLAY, 0, 15, "H")
    st, ev = run(st, "0: play JS")
    assert not st.trump_shown
    st, ev = run(st, "1: play 7S")
    assert ev == [CardPlayed(1, parse_card("7S")), TrumpShown(2, HEARTS, 1, -1)]
    assert st.trump_shown
    assert legal(st) == ALL_PLAYS[2]  # no duty to trump, no reveal action
    st, ev = run(st, "2: play JC; 3: play 8D")
    assert ev[-1] == TrickWon(1, 0, 3 + 3)


def test_automatic_reveal_waits_for_a_hidden_seventh_card_of_the_suit_led() -> None:
    st, _ = to_play(preset("arkadium"), DEALER, SEVENTH, 0, 15, "seventh")
    st, _ = run(st, "0: play 7C; 1: play QC; 2: play JC; 3: play KC; 2: play AH")
    st, ev = run(st, "3: play 8H")
    assert not any(isinstance(e, TrumpShown) for e in ev)
    assert legal(st) == {"play 7H"}
    st, ev = run(st, "0: play 7H")
    assert ev == [TrumpShown(0, HEARTS, 2, parse_card("7H")), CardPlayed(0, parse_card("7H"))]


# -- under- and over-trumping -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "allowed"),
    [("pagat", "KC KD QD 8D 7D 9H"), ("standard", "KC KD QD 8D 7D 9H KH 8H")],
)
def test_no_undertrump_after_a_trick_is_trumped(name: str, allowed: str) -> None:
    trump = "JH" if name == "pagat" else "H"
    st, _ = to_play(preset(name), DEALER, PLAY, 0, 16, trump)
    st, _ = run(st, "0: play JS; 1: play 7S; 2: reveal; 2: play TH")
    assert playable(st, 3) == codes(allowed)  # pagat: 9H over-trumps, KH and 8H are refused


def test_no_undertrump_allows_a_lower_trump_when_nothing_else_is_held() -> None:
    rules = house_rules("standard", {"no_undertrump": True})
    st, _ = to_play(rules, DEALER, NU, 0, 16, "H")
    st, _ = run(st, "0: play JD; 1: play 7D; 2: reveal; 2: play JH")
    assert playable(st, 3) == {"8C"}
    st, _ = to_play(rules, DEALER, NU, 0, 16, "H")
    st, _ = run(st, "0: play JC; 1: play 7C; 2: play TC; 3: play 8C")
    st, _ = run(st, "0: play JD; 1: play 7D; 2: reveal; 2: play JH")
    assert playable(st, 3) == codes("9H AH TH KH QH 8H 7H")


@pytest.mark.parametrize(("name", "allowed"), [("pagat", "9H"), ("standard", "9H KH 8H")])
def test_asker_must_over_trump_with_no_undertrump(name: str, allowed: str) -> None:
    trump = "JH" if name == "pagat" else "H"
    st, _ = to_play(preset(name), DEALER, PLAY, 0, 16, trump)
    st, _ = run(st, "0: play JS; 1: play 7S; 2: play TH; 3: reveal")
    assert playable(st, 3) == codes(allowed)


@pytest.mark.parametrize(
    ("rules", "opponent_trumped", "partner_trumped"),
    [
        (preset("bhoos"), "JH", "JH 8H TH KH QH"),
        (STANDARD, "JH 8H TH KH QH", "JH 8H TH KH QH"),
        (house_rules("standard", {"no_undertrump": True}), "JH", "JH"),
    ],
    ids=["bhoos", "standard", "no_undertrump"],
)
def test_overtrump_after_reveal_only_against_an_opponent(
    rules, opponent_trumped: str, partner_trumped: str
) -> None:
    """Seat 3 asks after seat 2 (opponent) trumped with AH, or after seat 1 (partner) trumped
    with 9H. Bhoos: beat the opponent's trump if possible, any trump over the partner's."""
    st, _ = to_play(rules, DEALER, BH, 0, 16, "H")
    opp, _ = run(st, "0: play JC; 1: play 7C; 2: play AH; 3: reveal")
    assert playable(opp, 3) == codes(opponent_trumped)
    mate, _ = run(st, "0: play JS; 1: play 9H; 2: play 7S; 3: reveal")
    assert playable(mate, 3) == codes(partner_trumped)


# -- leading hidden trump (pagat) -------------------------------------------------------------
def test_bidder_may_not_lead_hidden_trump_until_it_is_led() -> None:
    st, _ = to_play(preset("pagat"), DEALER, LEAD, 0, 16, "JH")
    assert playable(st, 0) == codes("9S AS JS 7C 8C")
    assert_illegal(st, "0: play 9H", "not_allowed")
    st, _ = run(st, "0: play 7C; 1: play QC; 2: play JC; 3: play KC")
    st, ev = run(st, "2: play 7H; 3: play TH; 0: play 9H; 1: play QH")
    assert ev[-1].winner == 0 and not st.trump_shown
    assert "8H" in playable(st, 0)  # seat 2 has led the trump suit


def test_standard_bidder_may_lead_hidden_trump() -> None:
    st, _ = to_play(STANDARD, DEALER, LEAD, 0, 16, "H")
    assert playable(st, 0) == codes(LEAD[0])


def test_bidder_holding_only_trump_may_lead_it() -> None:
    rules = house_rules(
        "standard", {"bidder_leads_trump_before_reveal": False, "invalid_team_without_trump": False}
    )
    hands = {
        0: "JH 9H AH TH KH QH 8H 7H",
        1: "JS 9S AS TS KS QS 8S 7S",
        2: "JD 9D AD TD KD QD 8D 7D",
        3: "JC 9C AC TC KC QC 8C 7C",
    }
    st, _ = to_play(rules, DEALER, hands, 0, 16, "H")
    assert playable(st, 0) == codes(hands[0])
    st, _ = to_play(rules, DEALER, hands, 0, 16, "S")  # not the trump suit: no restriction
    assert playable(st, 0) == codes(hands[0])
    st, _ = to_play(rules, DEALER, {**hands, 0: hands[1], 1: hands[0]}, 0, 16, "S")
    assert playable(st, 0) == codes(hands[1])


# -- the seventh card -------------------------------------------------------------------------
def test_hidden_seventh_card_cannot_be_led() -> None:
    st, _ = to_play(STANDARD, DEALER, PLAY, 0, 16, "seventh")
    assert st.indicator == parse_card("7H")
    assert playable(st, 0) == codes(PLAY[0]) - {"7H"}
    assert_illegal(st, "0: play 7H", "indicator_hidden")


def test_bidder_with_another_card_of_the_suit_follows_with_it() -> None:
    st, _ = to_play(STANDARD, DEALER, PLAY, 0, 16, "seventh")
    st, _ = run(st, "0: play 7C; 1: play QC; 2: play JC; 3: play KC; 2: play AH; 3: play 8H")
    assert legal(st) == {"play JH"}


def test_seventh_card_forced_when_its_suit_is_led_and_no_other_card_of_it() -> None:
    st, _ = to_play(STANDARD, DEALER, SEVENTH, 0, 16, "seventh")
    st, _ = run(st, "0: play 7C; 1: play QC; 2: play JC; 3: play KC; 2: play AH; 3: play 8H")
    assert legal(st) == {"play 7H"}  # no reveal, no other card
    st, ev = run(st, "0: play 7H")
    assert ev == [TrumpShown(0, HEARTS, 2, parse_card("7H")), CardPlayed(0, parse_card("7H"))]
    assert st.trump_shown and st.indicator == -1
    assert playable(st, 1) == {"JH", "QH"}


def test_void_bidder_keeps_a_hidden_seventh_card_of_another_suit() -> None:
    st, _ = to_play(STANDARD, DEALER, SEVENTH, 0, 16, "seventh")
    st, _ = run(st, "0: play 7C; 1: play QC; 2: play JC; 3: play KC; 2: play AD; 3: play 7D")
    assert legal(st) == {f"play {c}" for c in hand_codes(st, 0)} | {"reveal"}
    assert "7H" not in hand_codes(st, 0)
    assert_illegal(st, "0: play 7H", "indicator_hidden")
    st, ev = run(st, "0: reveal")
    assert ev == [TrumpShown(0, HEARTS, 2, parse_card("7H"))]
    assert playable(st, 0) == {"7H"}  # it joined the hand, and the asker must trump


def test_seventh_card_forced_as_the_last_card() -> None:
    st, _ = to_play(STANDARD, DEALER, LAST, 0, 16, "seventh")
    st, _ = autoplay(st, until=lambda s: len(s.tricks) == 7)
    assert st.tricks_won == (7, 0) and not st.trump_shown
    assert (to_act(st), st.hands[0]) == ((0,), 0)
    assert legal(st) == {"play 7H"}
    st, ev = run(st, "0: play 7H")
    assert ev == [TrumpShown(0, HEARTS, 8, parse_card("7H")), CardPlayed(0, parse_card("7H"))]


# -- the hand-card indicator (pagat) ----------------------------------------------------------
def test_hand_card_joins_the_hand_when_trump_is_shown() -> None:
    st, _ = to_play(preset("pagat"), DEALER, PLAY, 0, 16, "JH")
    assert "JH" not in hand_codes(st, 0)
    assert_illegal(st, "0: play JH", "indicator_hidden")
    st, ev = run(st, "0: play JS; 1: play 7S; 2: reveal")
    assert ev[-1] == TrumpShown(2, HEARTS, 1, parse_card("JH"))
    assert "JH" in hand_codes(st, 0)
    assert st.indicator == -1


def test_hand_card_is_not_forced_by_a_lead_of_its_suit() -> None:
    st, _ = to_play(preset("pagat"), DEALER, SEVENTH_HAND_CARD, 0, 16, "7H")
    st, _ = run(st, "0: play 7C; 1: play QC; 2: play JC; 3: play KC; 2: play AH; 3: play 8H")
    assert legal(st) == {f"play {c}" for c in hand_codes(st, 0)} | {"reveal"}
    assert_illegal(st, "0: play 7H", "indicator_hidden")


def test_hand_card_forced_as_the_last_card() -> None:
    st, _ = to_play(preset("pagat"), DEALER, LAST_HAND_CARD, 0, 16, "7H")
    st, _ = autoplay(st, until=lambda s: len(s.tricks) == 7)
    assert st.hands[0] == 0 and not st.trump_shown
    assert legal(st) == {"play 7H"}
    st, ev = run(st, "0: play 7H")
    assert ev == [TrumpShown(0, HEARTS, 8, parse_card("7H")), CardPlayed(0, parse_card("7H"))]


def test_automatic_reveal_when_the_only_card_of_the_suit_is_the_face_down_hand_card() -> None:
    rules = preset("pagat").with_options(
        trump_reveal="automatic", single_hand=False, doubling="none"
    )
    hands = {
        0: "JS 9S 7H AS TS KS QS 8S",
        1: "JD 9D AD TD KD QD 8D 7S",
        2: "JC 9C AC TC KC QC 8C 7D",
        3: "JH 9H AH TH KH QH 8H 7C",
    }
    st, _ = play(rules, 2, hands, "3: pass; 0: bid 16; 1: pass; 2: pass; 0: trump 7H")
    assert st.indicator == parse_card("7H")
    st, _ = run(st, "3: play JH")
    # seat 0 cannot follow hearts (its one heart lies face down): trump is shown at its turn
    assert st.trump_shown and st.shown_by == 0
    assert legal(st, 0) == {"play 7H"}  # and, having been asked to, it must trump
