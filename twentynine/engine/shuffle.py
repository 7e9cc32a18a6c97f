"""Shuffling (RULES.md §10): gather the played cards, riffle a few times and cut, as people do;
or a uniform shuffle. Randomness comes from the ``random.Random`` passed in: the operating
system's secure generator (``secure_rng``) for real games, a seeded one for tests, simulations
and replays.
"""

from __future__ import annotations

import os
import random
import struct
import weakref
from collections.abc import Sequence
from typing import Any, NoReturn

from .cards import ALL_CARDS, Card, cards_in
from .state import RoundState

RIFFLES = 3


class SecureRandom(random.Random):
    """The operating system's secure source (as ``random.SystemRandom``), read a block at a
    time: ``SystemRandom`` asks the kernel once for every number, and a realistic shuffle draws
    about two hundred (160 us of CPU a deal, against about 30 here). Each ``random()`` is 53 bits
    of a 64-bit word from the block; nothing is seeded, and nothing can be replayed. A process
    forked after a block was read throws the rest away (``os.register_at_fork``), so parent and
    child never deal from the same bytes."""

    WORDS = 256  # 64-bit words read at once (2 KiB)

    def __init__(self) -> None:
        self._floats: list[float] = []
        super().__init__()
        _LIVE.add(self)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        """Nothing to seed: every number comes from the operating system."""

    def random(self) -> float:
        floats = self._floats
        if not floats:
            words = struct.unpack(f"<{self.WORDS}Q", os.urandom(8 * self.WORDS))
            floats.extend((w >> 11) * _TWO_TO_MINUS_53 for w in words)
        return floats.pop()

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        size = (k + 7) // 8
        return int.from_bytes(os.urandom(size)) >> (size * 8 - k)

    def randbytes(self, n: int) -> bytes:
        return os.urandom(n)

    def forget(self) -> None:
        """Throw away the numbers read but not used (a forked child's copy of them)."""
        self._floats.clear()

    def getstate(self) -> NoReturn:
        raise NotImplementedError("a secure generator has no state to save")

    def setstate(self, state: object) -> NoReturn:
        raise NotImplementedError("a secure generator has no state to restore")


_TWO_TO_MINUS_53 = 2.0**-53
_LIVE: weakref.WeakSet[SecureRandom] = weakref.WeakSet()


def _after_fork() -> None:
    for rng in list(_LIVE):
        rng.forget()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


def secure_rng() -> random.Random:
    """A generator backed by the operating system's secure source."""
    return SecureRandom()


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
