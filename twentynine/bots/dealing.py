"""Dealing hidden cards exactly uniformly under constraints: each card may go only to some of
the slots (a seat it is not known to be void of, the face-down indicator), each slot takes a
fixed number of cards. Cards with the same allowed slots form a class; a split of each class
among its slots is drawn in proportion to the number of whole deals that complete it (counted
once and memoised), so every consistent deal is equally likely and sampling never has to retry
for the counts."""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Sequence

from ..engine.cards import Card, cards_in


class SlotDeal:
    """Exact uniform dealing of cards into slots of fixed sizes, each card restricted to some
    slots: cards with the same allowed slots form a class; a split of each class among its slots
    is drawn in proportion to the number of deals that complete it (counted once, memoised)."""

    def __init__(self, caps: Sequence[int], allowed: Sequence[int], cards: int) -> None:
        self.n = len(caps)
        groups: dict[int, list[Card]] = {}
        for c in cards_in(cards):
            slots = 0
            for j in range(self.n):
                if allowed[j] >> c & 1:
                    slots |= 1 << j
            groups.setdefault(slots, []).append(c)
        # the most restricted classes first: they decide the most
        self.classes = sorted(groups.items(), key=lambda kv: (kv[0].bit_count(), len(kv[1])))
        self.slots = [[j for j in range(self.n) if s >> j & 1] for s, _ in self.classes]
        k = len(self.classes)
        # reach[i][j]: cards of classes i.. that may go to slot j (to prune dead ends)
        self.reach = [[0] * self.n for _ in range(k + 1)]
        for i in range(k - 1, -1, -1):
            for j in range(self.n):
                self.reach[i][j] = self.reach[i + 1][j]
            for j in self.slots[i]:
                self.reach[i][j] += len(self.classes[i][1])
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.picks: dict[
            tuple[int, tuple[int, ...]],
            tuple[list[tuple[tuple[int, ...], tuple[int, ...]]], list[int]],
        ] = {}
        self.start = tuple(caps)
        self.total = self._count(0, self.start) if sum(caps) == cards.bit_count() else 0

    def _splits(self, i: int, caps: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """Every split of class i among its slots within ``caps``, with its multinomial."""
        slots = self.slots[i]
        n = len(self.classes[i][1])
        out: list[tuple[tuple[int, ...], int]] = []
        if i == len(self.classes) - 1:  # the last class must fill exactly what is left
            if sum(caps) != n or any(caps[j] for j in range(self.n) if j not in slots):
                return out
            take_all = tuple(caps[j] for j in slots)
            ways = math.factorial(n)
            for x in take_all:
                ways //= math.factorial(x)
            out.append((take_all, ways))
            return out
        take = [0] * len(slots)

        def rec(pos: int, left: int, ways: int) -> None:
            if pos == len(slots) - 1:
                if left <= caps[slots[pos]]:
                    take[pos] = left
                    out.append((tuple(take), ways))
                return
            top = min(left, caps[slots[pos]])
            for x in range(top + 1):
                take[pos] = x
                rec(pos + 1, left - x, ways * math.comb(left, x))

        if slots:
            rec(0, n, 1)
        return out

    def _after(self, i: int, caps: tuple[int, ...], take: tuple[int, ...]) -> tuple[int, ...]:
        new = list(caps)
        for j, x in zip(self.slots[i], take, strict=True):
            new[j] -= x
        return tuple(new)

    def _count(self, i: int, caps: tuple[int, ...]) -> int:
        if i == len(self.classes):
            return 1 if not any(caps) else 0
        reach = self.reach[i]
        for j in range(self.n):
            if caps[j] > reach[j]:
                return 0
        key = (i, caps)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        total = 0
        for take, ways in self._splits(i, caps):
            total += ways * self._count(i + 1, self._after(i, caps, take))
        self.memo[key] = total
        return total

    def _options(
        self, i: int, caps: tuple[int, ...]
    ) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...]]], list[int]]:
        """The splits of class i that can be completed, with cumulative deal counts."""
        key = (i, caps)
        hit = self.picks.get(key)
        if hit is not None:
            return hit
        options: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        cumulative: list[int] = []
        total = 0
        for take, ways in self._splits(i, caps):
            rest = self._after(i, caps, take)
            w = ways * self._count(i + 1, rest)
            if w:
                total += w
                options.append((take, rest))
                cumulative.append(total)
        self.picks[key] = (options, cumulative)
        return options, cumulative

    def sample(self, rng: random.Random) -> list[int]:
        """One deal: the card mask of each slot."""
        if not self.total:
            raise ValueError("no deal satisfies the constraints")
        out = [0] * self.n
        caps = self.start
        for i, (_, cards) in enumerate(self.classes):
            options, cumulative = self._options(i, caps)
            k = bisect_right(cumulative, rng.randrange(cumulative[-1]))
            take, caps = options[k]
            shuffled = list(cards)
            rng.shuffle(shuffled)
            pos = 0
            for j, x in zip(self.slots[i], take, strict=True):
                for c in shuffled[pos : pos + x]:
                    out[j] |= 1 << c
                pos += x
        return out
