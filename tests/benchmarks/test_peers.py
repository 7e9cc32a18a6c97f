"""The peers benchmark's swings (``benchmarks/peers.py: swings``): how the duplicate deals of a
match split between the two sides, checked on hand-made rounds and against the games the arena
itself counts as won."""

from __future__ import annotations

from typing import Any

from twentynine.arena import run_arena
from twentynine.engine import preset

from .modules import benchmark

peers = benchmark("peers")


def _round(seed: int, deal: int, table: int, winner: str | None) -> dict[str, Any]:
    sides = ["ours", "them"] if table == 0 else ["them", "ours"]
    return {
        "seed": seed,
        "deal": deal,
        "table": table,
        "sides": sides,
        "game_winner": None if winner is None else sides.index(winner),
    }


def test_swings_count_each_deck_once_by_who_won_its_two_games() -> None:
    rounds = [
        *(_round(1, 0, t, "ours") for t in (0, 1)),  # ours both: a swing to us
        *(_round(1, 1, t, "them") for t in (0, 1)),  # theirs both
        *(_round(2, 1, t, "them") for t in (0, 1)),  # the same deal number, another seed
        _round(1, 2, 0, "ours"),  # the cards decided it: each won once
        _round(1, 2, 1, "them"),
        _round(1, 3, 0, "ours"),  # a void game: neither
        _round(1, 3, 1, None),
        _round(1, 4, 0, "ours"),  # its second game never played: neither
    ]
    assert peers.swings(rounds, "ours") == {"ours": 1, "peer": 2, "split": 1, "void": 2}


def test_swings_agree_with_the_games_the_arena_counts() -> None:
    rounds: list[dict[str, Any]] = []

    def record(deal: dict[str, Any]) -> None:
        rounds.append({"seed": 5, **deal})

    result = run_arena("beginner", "random", 40, 5, preset("bhoos"), "bhoos", on_round=record)
    counted = peers.swings(rounds, "beginner")
    assert sum(counted.values()) == 40
    won = result.to_json()
    voids = {(r["seed"], r["deal"]) for r in rounds if r["game_winner"] is None}
    in_voids = [
        r["sides"][r["game_winner"]]
        for r in rounds
        if (r["seed"], r["deal"]) in voids and r["game_winner"] is not None
    ]
    assert counted["void"] == len(voids)
    assert won["a"]["games_won"] == 2 * counted["ours"] + counted["split"] + in_voids.count(
        "beginner"
    )
    assert won["b"]["games_won"] == 2 * counted["peer"] + counted["split"] + in_voids.count(
        "random"
    )
    assert counted["ours"] > counted["peer"]  # the beginner beats random play
