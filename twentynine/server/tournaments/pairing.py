"""Who plays whom: the knockout bracket, Swiss pairings and the round-robin schedule.

Pure functions of entry ids (in seed order) and past results. Swiss pairs by maximum-weight
matching (``networkx``): teams with equal scores meet, nobody meets the same team twice."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx  # type: ignore[import-untyped]

EntryId = int


@dataclass(frozen=True)
class Pairing:
    """A round's matches (``a`` plays seats 0 and 2) and the team that sits out, if any."""

    matches: tuple[tuple[EntryId, EntryId], ...]
    bye: EntryId | None = None


# -- knockout -----------------------------------------------------------------------------------
def bracket_size(teams: int) -> int:
    size = 1
    while size < teams:
        size *= 2
    return size


def knockout_rounds(teams: int) -> int:
    return max(1, bracket_size(teams).bit_length() - 1)


def bracket_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket order, so that seeds 1 and 2 can meet only in the final,
    1 to 4 only in the semi-finals, and so on: [1, 8, 4, 5, 2, 7, 3, 6] for eight."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def knockout_first_round(seeded: Sequence[EntryId]) -> list[tuple[EntryId, EntryId | None]]:
    """Round one, slot by slot: a match, or a bye (``None`` as the opponent) for the top seeds
    when the field is not a power of two."""
    size = bracket_size(len(seeded))
    order = bracket_order(size)
    slots: list[tuple[EntryId, EntryId | None]] = []
    for i in range(0, size, 2):
        high, low = order[i], order[i + 1]
        a = seeded[high - 1]
        b = seeded[low - 1] if low <= len(seeded) else None
        slots.append((a, b))
    return slots


def knockout_next(winners: Sequence[EntryId]) -> list[tuple[EntryId, EntryId]]:
    """The next round from the previous round's winners, slot by slot."""
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]


# -- Swiss -------------------------------------------------------------------------------------
def swiss_pairing(
    ranked: Sequence[EntryId],
    points: dict[EntryId, float],
    played: set[frozenset[EntryId]],
    had_bye: set[EntryId],
) -> Pairing:
    """Pair ``ranked`` (best first) for the next Swiss round.

    With an odd field the lowest-ranked team without a bye yet sits out. The rest are paired by
    a maximum-weight matching over the pairs that have not met: of all the ways to pair
    everyone, the one with the least difference of scores (squared), and among those, within
    each score group its top half against its bottom half.

    A pairing without a repeat always exists while no team has played half the field (every
    team then has not met more than half of the others, and such a graph has a perfect
    matching: Dirac's theorem), which is why a Swiss has at most half as many rounds as teams
    (``swiss_max_rounds``). Raises ``ValueError`` if there is none."""
    teams = list(ranked)
    bye = None
    if len(teams) % 2:
        for team in reversed(teams):
            if team not in had_bye:
                bye = team
                break
        if bye is None:
            bye = teams[-1]
        teams.remove(bye)
    rank = {team: i for i, team in enumerate(teams)}
    n = len(teams)
    # each weight is more than the spread of all the others, so a full pairing always wins
    # over a better-scored partial one
    base = 10_000 * (n + 1) ** 2

    group = {
        team: sum(1 for t in teams if points.get(t, 0) == points.get(team, 0)) for team in teams
    }

    def weight(a: EntryId, b: EntryId) -> int:
        diff = round(2 * (points.get(a, 0) - points.get(b, 0)))
        # within a score group the top half meets the bottom half (1-5, 2-6, … of eight)
        apart = abs(abs(rank[a] - rank[b]) - group[a] // 2) if diff == 0 else 0
        return base - 100 * (n + 1) * diff * diff - apart

    graph = nx.Graph()
    graph.add_nodes_from(teams)
    for a, b in itertools.combinations(teams, 2):
        if frozenset((a, b)) not in played:
            graph.add_edge(a, b, weight=weight(a, b))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != n:
        raise ValueError("every pairing would repeat a match")
    pairs = sorted(
        (tuple(sorted((a, b), key=rank.__getitem__)) for a, b in matching),
        key=lambda p: rank[p[0]],
    )
    return Pairing(tuple((p[0], p[1]) for p in pairs), bye)


def swiss_max_rounds(teams: int) -> int:
    """The most Swiss rounds a field can play with no repeat ever forced (see above)."""
    return teams // 2


# -- round robin -------------------------------------------------------------------------------
def round_robin_rounds(teams: int) -> int:
    return teams - 1 if teams % 2 == 0 else teams


def round_robin_pairing(seeded: Sequence[EntryId], round_no: int) -> Pairing:
    """Round ``round_no`` (1-based) of the circle method: the first team stays, the others
    turn one place a round, so that everyone meets everyone once."""
    teams: list[EntryId | None] = list(seeded)
    if len(teams) % 2:
        teams.append(None)
    n = len(teams)
    rest = teams[1:]
    turn = (round_no - 1) % (n - 1)
    rest = rest[-turn:] + rest[:-turn] if turn else rest
    circle = [teams[0], *rest]
    matches: list[tuple[EntryId, EntryId]] = []
    bye = None
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        if a is None or b is None:
            bye = b if a is None else a
            continue
        matches.append((a, b) if (round_no + i) % 2 else (b, a))
    return Pairing(tuple(matches), bye)
