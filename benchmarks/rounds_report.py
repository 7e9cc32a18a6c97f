"""Where each side wins and loses, from the rounds a match wrote (``peers.py --deals-out``).

    uv run python benchmarks/rounds_report.py rounds.jsonl [--side expert]

For each side: its contracts by bid (attempted, made), by the chance of making that bid our
bidding model gave the bidder's first four cards (``evaluate.make_probability``: is the model
calibrated against this opponent?), by whether the other side bid in the auction (pushed), and
the first hand's forced bids; and the other side's contracts by bid.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from twentynine.bots.evaluate import best_trump, make_probability
from twentynine.engine.cards import mask_of, parse_card


def first_four(record: dict[str, Any], seat: int) -> int:
    return mask_of(parse_card(c) for c in record["first_four"][seat])


def rows(records: list[dict[str, Any]], side: str) -> dict[str, dict[Any, list[int]]]:
    """Tables of [attempted, made] for ``side``'s contracts, keyed by one feature each."""
    tables: dict[str, dict[Any, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for r in records:
        if r["outcome"] not in ("won", "lost") or r["bidder"] is None:
            continue
        bidder = r["bidder"]
        if r["sides"][bidder & 1] != side:
            continue
        made = r["outcome"] == "won"
        bid = r["bid"]
        hand = first_four(r, bidder)
        _, value = best_trump(hand)
        p = make_probability(value, bid)
        pushed = any(s & 1 != bidder & 1 and b > 0 for s, b in r["calls"])
        partner_bid = any(s == (bidder + 2) & 3 and b > 0 for s, b in r["calls"])
        forced = (
            bidder == r["first_hand"]
            and bid == 16
            and len([1 for s, b in r["calls"] if s == bidder and b > 0]) == 1
        )
        keys = {
            "bid": bid,
            "model P(make) at the bid": f"{min(int(p * 10), 9) / 10:.1f}",
            "other side bid too": pushed,
            "partner bid too": partner_bid,
            "first hand, one bid of 16": forced,
            "points short (lost only)": None,
        }
        for name, key in keys.items():
            if key is None:
                continue
            cell = tables[name][key]
            cell[0] += 1
            cell[1] += made
        if not made:
            short = bid - r["points"][bidder & 1]
            tables["points short (lost only)"][min(short, 8)][0] += 1
    return tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rounds", type=Path, nargs="+", help="files written by --deals-out")
    args = parser.parse_args()
    records = [json.loads(line) for f in args.rounds for line in f.read_text().splitlines()]
    sides = sorted({s for r in records for s in r["sides"]})
    for side in sides:
        print(f"== {side}'s contracts")
        for name, table in rows(records, side).items():
            print(f"  {name}:")
            for key in sorted(table, key=str):
                n, made = table[key]
                rate = f"{made / n:.0%}" if n and name != "points short (lost only)" else ""
                print(f"    {key!s:>6}: {made:>4}/{n:<4} {rate}")
    # who won each duplicate deal's two tables
    by_deal: dict[tuple[int, int], dict[int, str]] = defaultdict(dict)
    for r in records:
        if r["game_winner"] is not None:
            by_deal[(r.get("seed", 0), r["deal"])][r["table"]] = r["sides"][r["game_winner"]]
    swing: dict[str, int] = defaultdict(int)
    for tables in by_deal.values():
        if len(tables) == 2:
            a, b = tables[0], tables[1]
            swing["same side won both" if a == b else "split"] += 1
            if a == b:
                swing[f"both to {a}"] += 1
    print("== duplicate deals:", dict(swing))


if __name__ == "__main__":
    main()
