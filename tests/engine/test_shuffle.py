"""The shuffles and the secure generator real games deal with."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from twentynine.engine.cards import ALL_CARDS
from twentynine.engine.shuffle import SecureRandom, realistic_deck, secure_rng, uniform_deck


def test_secure_decks_are_whole_packs_and_differ() -> None:
    rng = secure_rng()
    decks = [tuple(realistic_deck(ALL_CARDS, rng)) for _ in range(50)]
    decks += [tuple(uniform_deck(rng)) for _ in range(50)]
    assert all(sorted(d) == sorted(ALL_CARDS) for d in decks)
    assert len(set(decks)) == len(decks)  # 100 equal 32-card orders would be no shuffle


def test_secure_numbers_are_in_range_and_spread() -> None:
    rng = SecureRandom()
    floats = [rng.random() for _ in range(4 * SecureRandom.WORDS + 7)]  # several blocks
    assert all(0.0 <= x < 1.0 for x in floats)
    assert len(set(floats)) == len(floats)
    tenths = Counter(int(x * 10) for x in floats)
    assert len(tenths) == 10 and min(tenths.values()) > 40  # 1031 draws: ~103 a tenth
    assert {rng.randrange(4) for _ in range(200)} == {0, 1, 2, 3}
    assert all(rng.getrandbits(k) < 2**k for k in (1, 7, 8, 9, 64, 70) for _ in range(20))
    assert rng.getrandbits(0) == 0
    with pytest.raises(ValueError):
        rng.getrandbits(-1)


def test_secure_generator_cannot_be_seeded_or_replayed() -> None:
    a, b = SecureRandom(), SecureRandom()
    a.seed(1)
    b.seed(1)
    assert [a.random() for _ in range(8)] != [b.random() for _ in range(8)]
    with pytest.raises(NotImplementedError):
        a.getstate()
    with pytest.raises(NotImplementedError):
        a.setstate(random.Random(1).getstate())


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_does_not_deal_from_its_parents_numbers() -> None:
    rng = SecureRandom()
    rng.random()  # a block read, most of it unused
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its next numbers, to the parent
        os.close(read)
        os.write(write, repr([rng.random() for _ in range(16)]).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        child = pipe.read()
    os.waitpid(pid, 0)
    parent = repr([rng.random() for _ in range(16)])
    assert child and child != parent
