"""How far the expert's card in the first tricks is from the best one its own sampling could find.

Positions: deals of the ``bhoos`` preset played by the intermediate bot at every seat, each
stopped at a seat to play with 8, 7 or 6 cards in hand (more than one legal card). For each, a
reference: ``--reference`` sampled deals, each solved exactly (``ExpertBot(worlds=N)._tally``),
give each card the share of deals in which it makes (or beats) the contract. Each candidate
(the expert's exact values, and ``tests_from=6``) then chooses within ``--budget-ms`` as it does
over the Bhoos protocol (no cap on sampled deals), and its regret is the best card's share less
its card's share. A small regret says more sampled deals would not change its cards.

    uv run python benchmarks/pimc_regret.py [--positions 40] [--reference 300] [--budget-ms 250]
        [--seed 2026] [--json]
"""

from __future__ import annotations

import argparse
import json
import random

from twentynine.bots import make_bot
from twentynine.bots.expert import ExpertBot
from twentynine.bots.solver import warm_up
from twentynine.engine import Act, apply, preset, start_round
from twentynine.engine.round import to_act
from twentynine.engine.state import Phase
from twentynine.engine.views import View, view


def positions(count: int, seed: int) -> list[View]:
    rules = preset("bhoos")
    rng = random.Random(seed)
    bots = [make_bot("intermediate", s) for s in range(4)]
    out: list[View] = []
    while len(out) < count:
        deck = list(range(32))
        rng.shuffle(deck)
        st, _ = start_round(rules, rng.randrange(4), deck)
        cards = rng.choice([8, 7, 6])
        while not st.is_over:
            seat = to_act(st)[0]
            v = view(st, seat)
            if (
                st.phase is Phase.PLAY
                and len(v.legal) > 1
                and len(v.hands[seat] or ()) == cards
                and not any(a.act is Act.PAIR for a in v.legal)
            ):
                out.append(v)
                break
            st, _ = apply(st, bots[seat].choose(v))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=40, help="positions to look at")
    parser.add_argument("--reference", type=int, default=300, help="solved deals a reference")
    parser.add_argument("--budget-ms", type=float, default=250.0, help="a candidate's time")
    parser.add_argument("--seed", type=int, default=2026, help="the deals' seed")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    warm_up()
    regret: dict[str, list[float]] = {"exact": [], "tests": []}
    for i, v in enumerate(positions(args.positions, args.seed)):
        ref = ExpertBot(1000 + i, worlds=args.reference, calls="rules", inference=False)
        tally = ref._tally(v)
        assert tally is not None
        wins = tally[0]
        best = max(wins[a] for a in v.legal if a in wins)
        for name, tests_from in (("exact", 0), ("tests", 6)):
            bot = ExpertBot(
                i,
                budget_ms=args.budget_ms,
                calls="rules",
                inference=False,
                max_worlds=2000,
                tests_from=tests_from,
            )
            card = bot._search(v)
            assert card is not None
            regret[name].append((best - wins[card]) / args.reference)
    out = {
        name: {
            "positions": len(r),
            "mean_regret": round(sum(r) / len(r), 5),
            "not_best": sum(1 for x in r if x > 0),
        }
        for name, r in regret.items()
    }
    if args.json:
        print(json.dumps(out))
        return
    for name, figures in out.items():
        print(
            f"{name}: over {figures['positions']} positions its card made the contract in "
            f"{figures['mean_regret'] * 100:.2f} points of percent fewer reference deals than "
            f"the best card; not the best card in {figures['not_best']}"
        )


if __name__ == "__main__":
    main()
