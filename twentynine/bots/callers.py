"""Models of how other players call: how likely a seat's bids, passes and trump are with the
first four cards it was dealt.

``calls.call_weight`` is the points model: a bid says the caller's four cards are worth about
that much as bidder. Many players (and many bots) call by length instead: they bid on with a
long suit whatever its cards, and name their longest suit trump. ``length_likelihood`` is that
model: the longest suit of the four sets how far the seat goes (``REACH``), it bids the least
it may while that is within its reach and passes after, and it names its longest suit. (The
open C++ ISMCTS bot of ``benchmarks/peers.py`` calls exactly so, with these reaches.)

In the play the sampled deals give each seat eight cards, not which four came first: a model's
likelihood is averaged over every four of the eight (``seat_likelihood``), exactly, since a
deal does not say which of its fours were dealt first.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

from ..engine.cards import SUIT_MASKS
from ..engine.rules import Rules
from ..engine.state import partner

#: the chance a modelled caller does otherwise than its model says (keeps a deal whose calls
#: the model cannot explain from vanishing: the real deal may be one)
SLIP = 0.05


def longest(four: int) -> int:
    """The length of the longest suit of a hand."""
    return max((four & m).bit_count() for m in SUIT_MASKS)


def longest_suits(four: int) -> tuple[int, ...]:
    """The suits of a hand's greatest length."""
    counts = [(four & m).bit_count() for m in SUIT_MASKS]
    top = max(counts)
    return tuple(s for s in range(4) if counts[s] == top)


#: how high a length caller goes with its longest suit this long (0: it does not bid)
REACH = (0, 0, 16, 18, 22)


def calls_in_turn(
    calls: tuple[tuple[int, int], ...], rules: Rules
) -> Iterator[tuple[int, int, int, int]]:
    """Each call of an auction with what stood when it was made: (seat, bid or 0 for a pass,
    the least bid the seat could have made, the seat holding the bid before it; -1: none), by
    the auction's bookkeeping (in the duel the holder matches, a challenger goes one higher)."""
    duel = rules.auction == "duel"
    holder = challenger = -1
    current = 0
    for who, value in calls:
        least = max(rules.min_bid, current if duel and who == holder else current + 1)
        yield who, value, least, holder
        if value:
            if not duel or holder < 0:
                holder = who
            elif who != holder:
                challenger = who
            current = max(current, value)
        elif duel and who == holder:
            holder, challenger = challenger, -1


def seat_calls(
    calls: tuple[tuple[int, int], ...], seat: int, rules: Rules
) -> tuple[tuple[int, int], ...]:
    """(the least it could have bid, what it called) for each of ``seat``'s calls
    (``calls_in_turn``); the least is negative for an opening the rules forced."""
    return tuple(
        (-least if n == 0 and rules.first_bid_required else least, value)
        for n, (who, value, least, _) in enumerate(calls_in_turn(calls, rules))
        if who == seat
    )


def length_likelihood(four: int, mine: tuple[tuple[int, int], ...], named: int) -> float:
    """How likely a length caller holding ``four`` makes the calls ``mine`` (from
    ``seat_calls``; a negative least: an opening the rules forced) and names ``named`` trump
    (-1: it named none)."""
    reach = REACH[longest(four)]
    p = 1.0
    for least, value in mine:
        if least < 0:  # forced to open: it says nothing
            continue
        expected = least if least <= reach else 0
        p *= 1.0 - SLIP if value == expected else SLIP
    if named >= 0:
        suits = longest_suits(four)
        p *= (1.0 - SLIP) / len(suits) if named in suits else SLIP / 4
    return p


@lru_cache(maxsize=1 << 16)
def seat_likelihood(eight: int, mine: tuple[tuple[int, int], ...], named: int) -> float:
    """``length_likelihood`` averaged over every four of a seat's eight cards (the sampled
    deal does not say which came first). Fewer than five cards: they are the four."""
    cards = [c for c in range(32) if eight >> c & 1]
    if len(cards) <= 4:
        return length_likelihood(eight, mine, named)
    total = 0.0
    n = 0
    for pick in combinations(cards, 4):
        four = (1 << pick[0]) | (1 << pick[1]) | (1 << pick[2]) | (1 << pick[3])
        total += length_likelihood(four, mine, named)
        n += 1
    return total / n


def opponents_likelihood(
    calls: tuple[tuple[int, int], ...],
    eights: tuple[int, int, int, int],
    me: int,
    rules: Rules,
    bidder: int,
    trump: int,
) -> float:
    """How likely the two opponents of ``me`` called as they did, as length callers, with the
    eight cards a sampled deal gives them (the bidder's trump ``trump`` counts when it is
    theirs)."""
    p = 1.0
    for seat in range(4):
        if seat == me or seat == partner(me):
            continue
        mine = seat_calls(calls, seat, rules)
        named = trump if seat == bidder else -1
        if mine or named >= 0:
            p *= seat_likelihood(eights[seat], mine, named)
    return p
