"""Engine speed: random legal playouts on the standard rules with full validation.

Every action is chosen from ``legal_actions`` and applied with ``apply``, which checks it again.
Prints actions/s, rounds/s and the cost of copying a state; ``--json`` for one JSON object.

    uv run python benchmarks/engine.py [--rounds N] [--seed S] [--preset P] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
import timeit

from twentynine.engine import apply, legal_actions, preset, start_round


def playouts(rules_name: str, rounds: int, seed: int) -> tuple[int, int, float]:
    rules = preset(rules_name)
    rng = random.Random(seed)
    decks = []
    for _ in range(rounds):
        deck = list(range(32))
        rng.shuffle(deck)
        decks.append(deck)
    actions = 0
    start = time.perf_counter()
    for i, deck in enumerate(decks):
        state, _ = start_round(rules, i & 3, deck)
        while not state.is_over:
            legal = legal_actions(state)
            state, _ = apply(state, legal[int(rng.random() * len(legal))])
            actions += 1
    return rounds, actions, time.perf_counter() - start


def copy_cost(rules_name: str, seed: int) -> float:
    """Seconds to copy a state in mid-play."""
    rules = preset(rules_name)
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    state, _ = start_round(rules, 0, deck)
    for _ in range(12):
        if state.is_over:
            break
        legal = legal_actions(state)
        state, _ = apply(state, legal[rng.randrange(len(legal))])
    n = 200_000
    return timeit.timeit(state.copy, number=n) / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs = [playouts(args.preset, args.rounds, args.seed + r) for r in range(args.repeats)]
    rates = [a / s for _, a, s in runs]
    rounds_rates = [r / s for r, _, s in runs]
    best = max(range(len(runs)), key=lambda i: rates[i])
    result = {
        "preset": args.preset,
        "rounds": args.rounds,
        "repeats": args.repeats,
        "actions_per_round": round(runs[best][1] / runs[best][0], 2),
        "actions_per_s": round(rates[best]),
        "actions_per_s_median": round(statistics.median(rates)),
        "rounds_per_s": round(rounds_rates[best]),
        "copy_state_us": round(copy_cost(args.preset, args.seed) * 1e6, 3),
        "python": platform.python_version(),
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"engine benchmark: {args.preset}, {args.rounds} random playouts x {args.repeats}")
    median = result["actions_per_s_median"]
    print(f"  actions/s      {result['actions_per_s']:>10,}  (median {median:,})")
    print(f"  rounds/s       {result['rounds_per_s']:>10,}")
    print(f"  actions/round  {result['actions_per_round']:>10}")
    print(f"  copy a state   {result['copy_state_us']:>10} µs")


if __name__ == "__main__":
    main()
