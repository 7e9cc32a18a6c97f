"""What a forced opening is worth to each side, solved open-handed: the data behind a
challenge rule for the Bhoos preset's first hand's opening of 16.

Deals random decks (``calls.deal_sample``, no seat known) and solves each three times with the
exact open-hand solver (trump shown from the first trick, as the searched calls do): the first
hand (seat 0, on lead) as bidder with the trump its first four cards name (its forced 16), the
next seat (1, the first to challenge it) as bidder, and the first hand's partner (2) as bidder,
each with its own first four cards' trump. It writes one JSON line a deal: the four first
fours (masks) and the three solved points of the bidder's team. With ``--trumps`` it solves
instead the first hand's forced 16 with each of the four trumps (``points``: by suit).

    uv run python benchmarks/forced_challenge.py --deals 3000 --seed 1 --out F.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import time

from twentynine.bots.calls import deal_sample
from twentynine.engine.rules import preset


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--preset", default="bhoos")
    ap.add_argument("--out", required=True)
    ap.add_argument("--trumps", action="store_true", help="the first hand with every trump")
    args = ap.parse_args()
    rules = preset(args.preset)
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    with open(args.out, "w") as out:
        for _ in range(args.deals):
            d = deal_sample(0, 0, -1, rng)
            if args.trumps:
                solved = [d.solved(rules, 0, 0, trump) for trump in range(4)]
            else:
                solved = [d.solved(rules, 0, bidder, -1) for bidder in (0, 1, 2)]
            out.write(json.dumps({"first": list(d.first), "points": solved}) + "\n")
    took = time.perf_counter() - t0
    print(json.dumps({"deals": args.deals, "seconds": round(took, 1)}))


if __name__ == "__main__":
    main()
