"""Shuffling (RULES.md §10): gather the played cards, riffle a few times and cut, as people do;
or a uniform shuffle. Randomness comes from the ``random.Random`` passed in: the operating
system's secure generator (``secure_rng``) for real games, a seeded one for tests, simulations
and replays.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import ALL_CARDS, Card, cards_in
from .state import RoundState

RIFFLES = 3


def secure_rng() -> random.Random:
    """A generator backed by the operating system's secure source."""
    return random.SystemRandom()


def seeded_rng(seed: int | str) -> random.Random:
    return random.Random(seed)


def uniform_deck(rng: random.Random) -> list[Card]:
    """A freshly, uniformly shuffled pack (also the *deck reset*)."""
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    return deck


def gather(st: RoundState) -> list[Card]:
    """The cards of a finished round picked up as players do: the tricks in the order they were
    taken, then an unfinished trick, then what is left in each hand from the first hand on, then
    any cards never dealt (a round that ended after the first deal) on top."""
    pile: list[Card] = []
    for trick in st.tricks:
        pile.extend(card for _, card in trick.plays)
    pile.extend(card for _, card in st.trick)
    for k in range(4):
        pile.extend(sorted(cards_in(st.seat_cards((st.first_hand + k) & 3))))
    seen = set(pile)
    pile.extend(card for card in st.deck if card not in seen)
    return pile


def riffle(cards: Sequence[Card], rng: random.Random) -> list[Card]:
    """One riffle shuffle (the Gilbert-Shannon-Reeds model): cut near the middle by a binomial
    draw, then drop cards from each half in proportion to what is left in it."""
    n = len(cards)
    split = sum(rng.random() < 0.5 for _ in range(n))
    left, right = list(cards[:split]), list(cards[split:])
    out: list[Card] = []
    i = j = 0
    while i < len(left) or j < len(right):
        rest_left, rest_right = len(left) - i, len(right) - j
        if rng.random() * (rest_left + rest_right) < rest_left:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out


def cut(cards: Sequence[Card], rng: random.Random) -> list[Card]:
    """A single cut, leaving at least four cards in each part."""
    at = rng.randint(4, len(cards) - 4)
    return [*cards[at:], *cards[:at]]


def realistic_deck(cards: Sequence[Card], rng: random.Random, riffles: int = RIFFLES) -> list[Card]:
    deck = list(cards)
    for _ in range(riffles):
        deck = riffle(deck, rng)
    return cut(deck, rng)


def next_deck(previous: RoundState | None, shuffle: str, rng: random.Random) -> list[Card]:
    """The pack for the next deal: gathered from ``previous`` and shuffled like people do
    (``realistic``), or uniform. With no previous round the pack starts uniformly shuffled."""
    if shuffle == "uniform" or previous is None:
        return uniform_deck(rng)
    return realistic_deck(gather(previous), rng)
