"""The length model of other players' calls (``bots/callers.py``): what a bid or a pass says of
a caller's longest suit, its trump, and the same read off eight cards in the play."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from tests.engine.helpers import mask
from twentynine.bots.callers import (
    SLIP,
    length_likelihood,
    longest,
    longest_suits,
    opponents_likelihood,
    seat_calls,
    seat_likelihood,
)
from twentynine.bots.expert import ExpertBot
from twentynine.engine import preset, start_round
from twentynine.engine.round import apply, legal_actions, to_act
from twentynine.engine.views import view

BHOOS = preset("bhoos")


def test_longest_suit_and_its_suits() -> None:
    assert longest(mask("JH 9H AH TD")) == 3
    assert longest_suits(mask("JH 9H AH TD")) == (2,)
    assert longest(mask("7C 8D QH KS")) == 1
    assert longest_suits(mask("7C 8C QH KH")) == (0, 2)


def test_each_call_is_read_with_the_least_bid_it_could_have_made() -> None:
    # the first hand (seat 1) must open; seat 2 challenges, the holder matches, then passes
    calls = ((1, 16), (2, 17), (1, 17), (2, 18), (1, 0), (3, 0), (0, 0))
    assert seat_calls(calls, 1, BHOOS) == ((-16, 16), (17, 17), (18, 0))
    assert seat_calls(calls, 2, BHOOS) == ((17, 17), (18, 18))
    # once the holder passed, seat 2 holds at 18: the others must go to 19
    assert seat_calls(calls, 3, BHOOS) == ((19, 0),)
    assert seat_calls(calls, 0, BHOOS) == ((19, 0),)


def test_a_bid_says_a_long_suit_and_a_pass_a_short_one() -> None:
    three = mask("JH 9H AH TD")  # hearts three long: reaches 18
    two = mask("JH 9H AC TD")  # two long: 16 at most
    challenge = ((17, 17),)
    assert length_likelihood(three, challenge, -1) == pytest.approx(1 - SLIP)
    assert length_likelihood(two, challenge, -1) == pytest.approx(SLIP)
    passed = ((17, 0),)
    assert length_likelihood(two, passed, -1) == pytest.approx(1 - SLIP)
    assert length_likelihood(three, passed, -1) == pytest.approx(SLIP)
    # past its reach a three-card suit passes
    assert length_likelihood(three, ((19, 0),), -1) == pytest.approx(1 - SLIP)
    # a forced opening says nothing
    assert length_likelihood(mask("7C 8D QH KS"), ((-16, 16),), -1) == 1.0


def test_the_trump_named_is_the_longest_suit() -> None:
    three = mask("JH 9H AH TD")
    assert length_likelihood(three, (), 2) > 10 * length_likelihood(three, (), 1)
    tied = mask("7C 8C QH KH")
    assert length_likelihood(tied, (), 0) == pytest.approx(length_likelihood(tied, (), 2))


def test_eight_cards_weigh_every_four_alike() -> None:
    eight = mask("JH 9H AH KH TD 7C 8S QS")
    challenge = ((17, 17),)
    fours = []
    cards = [c for c in range(32) if eight >> c & 1]
    for pick in combinations(cards, 4):
        four = sum(1 << c for c in pick)
        fours.append(length_likelihood(four, challenge, 2))
    assert seat_likelihood(eight, challenge, 2) == pytest.approx(sum(fours) / len(fours))
    # four hearts among eight make a challenge far likelier than a hand of twos
    flat = mask("JH 9H AC KC TD 7D 8S QS")
    assert seat_likelihood(eight, challenge, 2) > 3 * seat_likelihood(flat, challenge, 2)


def test_only_the_opponents_calls_count() -> None:
    calls = ((1, 16), (2, 17), (1, 0), (3, 0), (0, 0))
    long_hearts = mask("JH 9H AH KH TD 7C 8S QS")
    flat = mask("JC 9H AC KH TD 7D 8S QD")
    eights = (0, flat, long_hearts, flat)
    # seat 0's opponents are 1 and 3; seat 2 (its partner, the challenger) is not read
    base = opponents_likelihood(calls, eights, 0, BHOOS, 2, 2)
    other = opponents_likelihood(calls, (0, flat, flat, flat), 0, BHOOS, 2, 2)
    assert base == pytest.approx(other)
    # seat 1 reads seat 2's challenge: a long suit explains it
    assert opponents_likelihood(calls, eights, 1, BHOOS, 2, 2) > 3 * opponents_likelihood(
        calls, (0, flat, flat, flat), 1, BHOOS, 2, 2
    )


def test_the_expert_reading_callers_by_length_plays_legally() -> None:
    rng = random.Random(3)
    bots = [ExpertBot(s, worlds=4, calls="rules", caller_model="length") for s in range(4)]
    for _ in range(3):
        deck = list(range(32))
        rng.shuffle(deck)
        st, _ = start_round(BHOOS, 0, tuple(deck))
        while not st.is_over:
            seat = to_act(st)[0]
            a = bots[seat].choose(view(st, seat))
            assert a in legal_actions(st, seat)
            st, _ = apply(st, a)


def test_an_unknown_caller_model_is_refused() -> None:
    with pytest.raises(ValueError, match="caller_model"):
        ExpertBot(1, caller_model="shape")
