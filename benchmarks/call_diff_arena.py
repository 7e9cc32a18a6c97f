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

``--fork`` measures two bots whose play may differ (and whose choices may depend on time or
chance) by paired forks instead: each deck is played once with ``B`` at every seat while ``A``,
in the seats of one team (team 0 on even decks, team 1 on odd), is shown the same views; at the
first decision where ``A`` would act otherwise the game forks, one branch going on with ``A``
in that team's seats, the other with ``B`` (the other seats' bots copied, so both branches
start alike). Each branch's result for that team counts +1 won, -1 lost, 0 void; the figures
are the forks, each branch's games won, lost and void, and in how many forks ``A``'s branch
did better or worse. A deck without a fork would score alike for both, up to chance.

    uv run python benchmarks/call_diff_arena.py expert-void expert --fork --preset bhoos \\
        --deals 300 --seed 11 [--json]
"""

from __future__ import annotations

import argparse
import copy
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
from twentynine.engine.state import Phase, RoundState
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


def team_result(st: RoundState, team: int) -> int:
    """+1 when ``team`` won the finished round, -1 when it lost, 0 when the deal was void."""
    if st.outcome not in ("won", "lost"):
        return 0
    bidders = (st.caller if st.caller >= 0 else st.bidder) & 1
    return 1 if (bidders == team) == (st.outcome == "won") else -1


def play_out(st: RoundState, bots: list[Bot]) -> RoundState:
    while not st.is_over:
        seat = to_act(st)[0]
        st, _ = apply_round(st, bots[seat].choose(view(st, seat)))
    return st


def fork_deal(
    rules: Rules, deck: list[int], dealer: int, team: int, plain: list[Bot], cand: list[Bot]
) -> tuple[int, int] | None:
    """Play the deck with ``plain`` at every seat, ``cand`` shown the views of ``team``'s
    seats; at ``cand``'s first other choice, fork: (its branch's result for ``team``, the
    plain branch's). None when no choice differed."""
    st, _ = start_round(rules, dealer, deck)
    while not st.is_over:
        seat = to_act(st)[0]
        v = view(st, seat)
        if seat & 1 == team:
            mine = cand[seat].choose(v)
            theirs = plain[seat].choose(v)
            if mine != theirs:  # the other team's bots copied: each branch starts alike
                branch = [cand[s] if s & 1 == team else copy.deepcopy(plain[s]) for s in range(4)]
                ours = play_out(apply_round(st, mine)[0], branch)
                base = play_out(apply_round(st, theirs)[0], plain)
                return team_result(ours, team), team_result(base, team)
            st, _ = apply_round(st, theirs)
        else:
            st, _ = apply_round(st, plain[seat].choose(v))
    return None


def fork_main(args: argparse.Namespace) -> dict[str, Any]:
    rules = preset(args.preset)
    make_a, make_b = player_factory(args.a), player_factory(args.b)
    rng = random.Random(args.seed)
    start = time.perf_counter()
    counts = {"a": [0, 0, 0], "b": [0, 0, 0]}  # won, lost, void
    better = worse = forks = 0
    for i in range(args.deals):
        deck = uniform_deck(rng)
        plain = [make_b(args.seed * 8 + i * 4 + s) for s in range(4)]
        cand = [make_a(args.seed * 8 + i * 4 + s) for s in range(4)]
        result = fork_deal(rules, list(deck), i % 4, i % 2, plain, cand)
        if result is None:
            continue
        forks += 1
        for side, r in zip(("a", "b"), result, strict=True):
            counts[side][{1: 0, -1: 1, 0: 2}[r]] += 1
        better += result[0] > result[1]
        worse += result[0] < result[1]
    return {
        "a": args.a,
        "b": args.b,
        "preset": args.preset,
        "seed": args.seed,
        "decks_looked_at": args.deals,
        "forks": forks,
        "won_lost_void": counts,
        "a_better": better,
        "a_worse": worse,
        "a_net": (counts["a"][0] - counts["a"][1]) - (counts["b"][0] - counts["b"][1]),
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", help="the candidate level (or variant)")
    parser.add_argument("b", help="the level it is measured against")
    parser.add_argument("--preset", default="bhoos", help="the rules preset")
    parser.add_argument("--deals", type=int, default=1000, help="duplicate decks to look at")
    parser.add_argument("--seed", type=int, default=1, help="the decks' seed")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--fork",
        action="store_true",
        help="fork each deck at A's first other choice and play both branches (see above)",
    )
    args = parser.parse_args()
    if args.fork:
        forked = fork_main(args)
        if args.json:
            print(json.dumps(forked))
        else:
            for k, v in forked.items():
                print(f"{k:>24}: {v}")
        return

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
