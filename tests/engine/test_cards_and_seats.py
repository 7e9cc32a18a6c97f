"""RULES.md §1: cards, ranks, points, seats, teams, dealer and first hand."""

from __future__ import annotations

import pytest

from tests.engine.deals import DEALER, LAST, PLAY
from tests.engine.helpers import (
    autoplay,
    cards,
    deck_from_hands,
    hand_codes,
    mask,
    run,
    snapshot,
    start,
    to_play,
)
from twentynine.engine import STANDARD, Phase, house_rules, preset, start_round
from twentynine.engine.cards import card_code, card_points, mask_points, parse_card
from twentynine.engine.events import CardPlayed, TrickWon
from twentynine.engine.state import partner, team_of
from twentynine.engine.tricks import trick_leader_now

RANKS_HIGH_TO_LOW = ["J", "9", "A", "T", "K", "Q", "8", "7"]


def test_thirty_two_cards_with_codes_that_round_trip() -> None:
    all_codes = {card_code(c) for c in range(32)}
    assert len(all_codes) == 32
    assert all_codes == {r + s for r in RANKS_HIGH_TO_LOW for s in "CDHS"}
    for c in range(32):
        assert parse_card(card_code(c)) == c


@pytest.mark.parametrize(
    ("rank", "points"), [("J", 3), ("9", 2), ("A", 1), ("T", 1), ("K", 0), ("Q", 0), ("8", 0)]
)
@pytest.mark.parametrize("suit", "CDHS")
def test_card_points(rank: str, points: int, suit: str) -> None:
    assert card_points(parse_card(rank + suit)) == points


def test_seven_points_a_suit_and_28_in_the_deck() -> None:
    for suit in "CDHS":
        assert mask_points(mask(" ".join(r + suit for r in RANKS_HIGH_TO_LOW))) == 7
    assert mask_points((1 << 32) - 1) == 28


@pytest.mark.parametrize("higher", range(7))
def test_rank_order_within_the_suit_led(higher: int) -> None:
    """J 9 A 10 K Q 8 7: each rank beats every rank after it, whoever plays it."""
    for lower in range(higher + 1, 8):
        hi = parse_card(RANKS_HIGH_TO_LOW[higher] + "H")
        lo = parse_card(RANKS_HIGH_TO_LOW[lower] + "H")
        off = parse_card("JS")
        assert trick_leader_now(((0, lo), (1, hi), (2, off)), 2, -1) == (1, hi)
        assert trick_leader_now(((0, hi), (1, lo), (2, off)), 2, -1) == (0, hi)


def test_a_card_off_the_suit_led_never_wins_without_trump() -> None:
    plays = ((1, parse_card("7D")), (2, parse_card("JS")), (3, parse_card("JC")), (0, 23))
    assert trick_leader_now(plays, 1, -1) == (1, parse_card("7D"))


def test_rank_order_in_a_played_trick() -> None:
    """The 9 beats the King and the 10 the Queen; discards of other suits (JC) never win."""
    st, _ = to_play(STANDARD, DEALER, PLAY, 0, 16, "H")
    st, ev = run(st, "0: play 9S; 1: play KS; 2: play JC; 3: play KC")
    assert ev[-1] == TrickWon(1, 0, 2 + 3)
    st, ev = run(st, "0: play TS; 1: play QS; 2: play 9C; 3: play KD")
    assert ev[-1] == TrickWon(2, 0, 1 + 2)


def test_teams_are_opposite_seats() -> None:
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [partner(s) for s in range(4)] == [2, 3, 0, 1]


def test_tricks_score_for_the_winners_team() -> None:
    st, _ = to_play(STANDARD, DEALER, PLAY, 0, 16, "seventh")
    st, _ = autoplay(st)
    assert st.phase is Phase.OVER
    by_team = [0, 0]
    count = [0, 0]
    for trick in st.tricks:
        by_team[team_of(trick.winner)] += trick.points
        count[team_of(trick.winner)] += 1
    assert tuple(by_team) == st.points
    assert tuple(count) == st.tricks_won
    assert sum(st.points) == 28  # no last-trick point in the standard preset
    assert any(t.winner == 2 for t in st.tricks)  # seat 2's tricks count for team 0


def test_last_trick_point_makes_29() -> None:
    st, _ = to_play(preset("pagat"), DEALER, LAST, 0, 16, "JS")
    st, _ = autoplay(st)
    assert st.phase is Phase.OVER and len(st.tricks) == 8
    assert sum(st.points) == 29
    last = st.tricks[-1]
    assert last.points == mask_points(sum(1 << c for _, c in last.plays)) + 1


@pytest.mark.parametrize("dealer", range(4))
def test_first_hand_gets_the_first_batch_bids_first_and_leads(dealer: int) -> None:
    first = (dealer + 1) % 4
    # cards 0-3 are 7C 8C QC KC, no point card: switch rule 1 off for this check
    rules = house_rules("standard", {"first_hand_no_points_redeal": False})
    st, _ = start_round(rules, dealer, list(range(32)))
    assert st.first_hand == first
    for k in range(4):
        seat = (first + k) % 4
        assert st.hands[seat] == sum(1 << c for c in range(4 * k, 4 * k + 4))
    assert st.speaker == first
    hands = {(s + dealer - DEALER) % 4: PLAY[s] for s in range(4)}  # PLAY turned to this dealer
    st, _ = to_play(STANDARD, dealer, hands, first, 16, "H")
    assert st.phase is Phase.PLAY
    assert st.turn == first


def test_second_batch_follows_the_first_in_the_same_order() -> None:
    st, _ = to_play(STANDARD, DEALER, PLAY, 0, 16, "H")
    for seat in range(4):
        assert hand_codes(st, seat) == set(PLAY[seat].split())
    deck = deck_from_hands(DEALER, PLAY)
    assert deck[16:20] == cards("TS 7C 7H 8C")  # seat 0's second batch leaves the pack first
    assert deck[16 + 2] == parse_card("7H")  # ...and its third card is seat 0's 7th card


def test_turn_order_runs_seat_to_seat_plus_one() -> None:
    rules = house_rules("standard", {"first_hand_no_points_redeal": False})
    for dealer in range(4):
        hands = {(s + dealer - DEALER) % 4: PLAY[s] for s in range(4)}
        st, _ = start(rules, dealer, hands)
        speakers = []
        while st.phase is Phase.AUCTION:
            speakers.append(st.speaker)
            st, _ = run(st, f"{st.speaker}: pass")
        assert speakers == [(dealer + 1 + k) % 4 for k in range(4)]
    st, _ = to_play(STANDARD, DEALER, PLAY, 0, 16, "H")
    st, ev = autoplay(st, until=lambda s: len(s.tricks) == 2)
    for k in range(2):
        plays = st.tricks[k].plays
        assert [seat for seat, _ in plays] == [(plays[0][0] + i) % 4 for i in range(4)]
    assert [e.seat for e in ev if isinstance(e, CardPlayed)][:4] == [0, 1, 2, 3]


def test_screen_direction_never_changes_the_engine() -> None:
    counter = house_rules("standard", {"direction": "counter_clockwise"})
    clockwise = house_rules("standard", {"direction": "clockwise"})
    results = []
    for rules in (counter, clockwise):
        st, ev = to_play(rules, DEALER, PLAY, 0, 16, "seventh")
        st, more = autoplay(st)
        state = snapshot(st)
        del state["rules"]
        results.append((state, ev + more))
    assert results[0] == results[1]
