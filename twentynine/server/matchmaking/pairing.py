"""Which waiting players make a table: four of close rating, the band of ratings allowed
widening the longer someone has waited. Pure: no database, no clock of its own."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

#: the widest gap between the four, in rating points, for someone who just joined …
BAND_START = 100.0
#: … and how much it widens a second they wait (so after a minute or so anyone plays anyone)
BAND_PER_SECOND = 10.0


def band(waited: float) -> float:
    return BAND_START + BAND_PER_SECOND * max(0.0, waited)


@dataclass(frozen=True)
class Waiting:
    user_id: int
    rating: float
    waited: float  # seconds


def tables(
    waiting: Sequence[Waiting], blocked: Collection[frozenset[int]] = ()
) -> list[list[Waiting]]:
    """Fours to seat, each by seat (0-3). A four is four neighbours in rating order whose
    spread fits the band of the longest waiter among them, with no block between any two;
    the four holding the longest waiter goes first (then the tightest)."""
    pool = sorted(waiting, key=lambda w: (w.rating, w.user_id))
    out: list[list[Waiting]] = []
    while len(pool) >= 4:
        best: tuple[tuple[float, float], int] | None = None
        for i in range(len(pool) - 3):
            four = pool[i : i + 4]
            spread = four[-1].rating - four[0].rating
            longest = max(w.waited for w in four)
            if spread > band(longest) or _any_blocked(four, blocked):
                continue
            key = (-longest, spread)
            if best is None or key < best[0]:
                best = (key, i)
        if best is None:
            break
        i = best[1]
        out.append(seating(pool[i : i + 4]))
        del pool[i : i + 4]
    return out


def seating(four: Sequence[Waiting]) -> list[Waiting]:
    """Balanced teams: the strongest with the weakest (seats 0 and 2) against the middle two
    (seats 1 and 3)."""
    a, b, c, d = sorted(four, key=lambda w: (-w.rating, w.user_id))
    return [a, b, d, c]


def _any_blocked(four: Sequence[Waiting], blocked: Collection[frozenset[int]]) -> bool:
    if not blocked:
        return False
    ids = [w.user_id for w in four]
    return any(frozenset((x, y)) in blocked for i, x in enumerate(ids) for y in ids[i + 1 :])
