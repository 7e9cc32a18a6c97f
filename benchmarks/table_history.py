"""The deal so far, told to a page that connects (``tables/history.py``): the engine's replay of
the deal's stored actions, once a version per table. Its cost grows with the deal: measured
after 0, 10, 20 … actions of seeded random deals played to the end (trump shown when it may be,
so the deals run their eight tricks), in this thread's CPU time, the least of ``--repeats`` runs.

    uv run python benchmarks/table_history.py [--deals N] [--repeats R] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from typing import Any

from twentynine.engine import legal_actions, to_act
from twentynine.engine.game import GameState, apply, new_game
from twentynine.engine.records import RulesSpec
from twentynine.server.tables.history import deal_events


def played_deal(spec: RulesSpec, seed: int) -> list[tuple[GameState, list[dict[str, Any]]]]:
    """Every state of one random deal with the actions that led there."""
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    game, _ = new_game(spec.rules, seed % 4, deck)
    actions: list[dict[str, Any]] = []
    states = [(game, [])]
    while not game.round.is_over:
        legal = legal_actions(game.round, to_act(game.round)[0])
        action = next((a for a in legal if a.text == "reveal"), rng.choice(legal))
        game, _ = apply(game, action)
        actions.append(action.to_json())
        states.append((game, list(actions)))
    return states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    spec = RulesSpec("standard", {})
    by_length: dict[int, list[tuple[GameState, list[dict[str, Any]]]]] = {}
    for seed in range(args.deals):
        for game, actions in played_deal(spec, seed):
            if len(actions) % 10 == 0:
                by_length.setdefault(len(actions), []).append((game, actions))
    figures: dict[str, float] = {}
    for length, cases in sorted(by_length.items()):
        best = float("inf")
        for _ in range(args.repeats):
            start = time.thread_time()
            for game, actions in cases:
                deal_events(spec, game, actions)
            best = min(best, (time.thread_time() - start) / len(cases))
        figures[str(length)] = round(best * 1e3, 3)
    out = {
        "ms_per_history_by_actions": figures,
        "deals": args.deals,
        "python": platform.python_version(),
    }
    if args.json:
        print(json.dumps(out))
    else:
        for length, ms in figures.items():
            print(f"after {length:>2} actions: {ms:.3f} ms to tell the deal so far")


if __name__ == "__main__":
    main()
