"""Standings (Swiss and round robin) and the final ranking (every format).

Score: 1 for a win (a bye counts as one), 0.5 for a draw. Ties are broken by Buchholz (the sum
of the scores of the teams one played), then card points for minus card points against, then
the seed (the order of entry)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

EntryId = int


@dataclass(frozen=True)
class Result:
    """A finished match (``b`` None for a bye: ``a`` scores a win, no card points)."""

    a: EntryId
    b: EntryId | None
    points_a: float
    points_b: float
    cards_a: int = 0
    cards_b: int = 0


@dataclass
class Line:
    entry: EntryId
    seed: int
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    points: float = 0.0
    buchholz: float = 0.0
    cards_for: int = 0
    cards_against: int = 0
    rank: int = 0
    opponents: list[EntryId] = field(default_factory=list)

    @property
    def card_difference(self) -> int:
        return self.cards_for - self.cards_against

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        del out["opponents"]
        out["card_difference"] = self.card_difference
        return out


def standings(seeds: dict[EntryId, int], results: Sequence[Result]) -> list[Line]:
    """Every entry's line, best first, ranked (equal lines share a rank: only the seed told
    them apart)."""
    lines = {entry: Line(entry, seed) for entry, seed in seeds.items()}
    for r in results:
        a = lines.get(r.a)
        if a is None:
            continue
        if r.b is None:
            a.byes += 1
            a.points += r.points_a
            continue
        b = lines.get(r.b)
        if b is None:
            continue
        for me, pts, other_pts, cf, ca, opp in (
            (a, r.points_a, r.points_b, r.cards_a, r.cards_b, r.b),
            (b, r.points_b, r.points_a, r.cards_b, r.cards_a, r.a),
        ):
            me.played += 1
            me.points += pts
            me.cards_for += cf
            me.cards_against += ca
            me.opponents.append(opp)
            if pts > other_pts:
                me.won += 1
            elif pts < other_pts:
                me.lost += 1
            else:
                me.drawn += 1
    for line in lines.values():
        line.buchholz = sum(lines[o].points for o in line.opponents)

    def key(line: Line) -> tuple[float, float, int]:
        return (-line.points, -line.buchholz, -line.card_difference)

    ordered = sorted(lines.values(), key=lambda line: (key(line), line.seed))
    for i, line in enumerate(ordered):
        same = i > 0 and key(ordered[i - 1]) == key(line)
        line.rank = ordered[i - 1].rank if same else i + 1
    return ordered


@dataclass(frozen=True)
class KnockoutMatch:
    round_no: int
    winner: EntryId | None
    loser: EntryId | None
    third_place: bool = False


def knockout_ranking(
    rounds: int, matches: Sequence[KnockoutMatch], entries: Sequence[EntryId]
) -> list[tuple[int, EntryId]]:
    """Places in a knockout: the champion 1, the finalist 2, the third-place match's teams 3
    and 4 (without one, both losing semi-finalists share 3), a team out in round ``r`` of
    ``rounds`` shares place 2**(rounds - r) + 1. Best first."""
    place: dict[EntryId, int] = {}
    for m in matches:
        if m.third_place:
            if m.winner is not None:
                place[m.winner] = 3
            if m.loser is not None:
                place[m.loser] = 4
            continue
        if m.loser is not None and m.loser not in place:
            place[m.loser] = 2 ** (rounds - m.round_no) + 1
        if m.round_no == rounds and m.winner is not None:
            place[m.winner] = 1
    ranked = [(place.get(e, len(entries)), e) for e in entries]
    order = {e: i for i, e in enumerate(entries)}
    return sorted(ranked, key=lambda p: (p[0], order[p[1]]))
