"""Two bots that differ only in their calls, measured on the deals where their calls differ.

Two levels whose play is the same and whose calls (bids, trump) are decided without chance
(the rules' calls of the expert variants) can only score differently on a deal where some
seat's call differs. So this deals ``--deals`` decks as the arena would (``uniform_deck`` of
``random.Random(seed)``, the dealer turning), runs each duplicate table's calls with every
seat's bot of the candidate's seats swapped in, keeps the decks where any call differs from
the all-``B`` table, and plays only those as duplicate deals (``arena.duplicate_tables``):
each side's games won there, with the 95% interval. The other deals would add only noise (and time).

    uv run python benchmarks/call_diff_arena.py expert-forced expert --preset bhoos \\
        --deals 1000 --seed 1 [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from twentynine.arena import (
    SideStats,
    account,
    duplicate_tables,
    player_factory,
    wilson_interval,
)
from twentynine.bots import Bot
from twentynine.engine.round import apply as apply_round
from twentynine.engine.round import start_round, to_act
from twentynine.engine.rules import Rules, preset
from twentynine.engine.shuffle import uniform_deck
from twentynine.engine.state import Phase
from twentynine.engine.views import view


def calls_of(rules: Rules, deck: list[int], dealer: int, bots: list[Bot]) -> tuple[Any, ...]:
    """The calls made before the first card (bids, trump), and how the auction ended."""
    st, _ = start_round(rules, dealer, deck)
    made: list[tuple[int, int, int]] = []
    while not st.is_over and st.phase is not Phase.PLAY:
        seat = to_act(st)[0]
        action = bots[seat].choose(view(st, seat))
        made.append((seat, int(action.act), action.arg))
        st, _ = apply_round(st, action)
    return tuple(made)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", help="the candidate level (or variant)")
    parser.add_argument("b", help="the level it is measured against")
    parser.add_argument("--preset", default="bhoos", help="the rules preset")
    parser.add_argument("--deals", type=int, default=1000, help="duplicate decks to look at")
    parser.add_argument("--seed", type=int, default=1, help="the decks' seed")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()

    rules = preset(args.preset)
    make_a, make_b = player_factory(args.a), player_factory(args.b)
    side_a, side_b = SideStats(args.a), SideStats(args.b)
    seed = args.seed
    tables = duplicate_tables(rules, (make_a, make_b), (side_a, side_b), seed)
    plain = [make_b(seed * 8 + 100 + s) for s in range(4)]
    rng = random.Random(seed)
    start = time.perf_counter()
    affected = invalid = 0
    for i in range(args.deals):
        deck = uniform_deck(rng)
        dealer = i % 4
        base = calls_of(rules, list(deck), dealer, plain)
        if all(calls_of(rules, list(deck), dealer, t.players) == base for t in tables):
            continue
        affected += 1
        for table in tables:
            game = table.play(list(deck), dealer)
            account(table, game)
            invalid += game.round.outcome == "invalid"
    games = side_a.games_won + side_b.games_won
    lo, hi = wilson_interval(side_a.games_won, games)
    out = {
        "a": args.a,
        "b": args.b,
        "preset": args.preset,
        "seed": seed,
        "decks_looked_at": args.deals,
        "decks_where_calls_differ": affected,
        "games_decided": games,
        "games_won": {"a": side_a.games_won, "b": side_b.games_won},
        "a_game_win_rate": round(side_a.games_won / games, 4) if games else None,
        "a_game_win_rate_ci95": [round(lo, 4), round(hi, 4)],
        "contracts": {
            "a": [side_a.contracts_made, side_a.contracts],
            "b": [side_b.contracts_made, side_b.contracts],
        },
        "invalid_deals": invalid,
        "seconds": round(time.perf_counter() - start, 1),
    }
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>24}: {v}")


if __name__ == "__main__":
    main()
