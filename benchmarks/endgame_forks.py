"""Does another way of choosing the card beat the expert's, over the same sampled deals?

Plays the expert against itself (``--preset``, uniform decks from ``random.Random(seed)``).
At every card decision of a seat holding ``--cards`` cards or fewer (more than one card
legal), the mover samples its deals once and picks a card two ways over them: the expert's
(most sampled deals made, then points) and ``--method``'s:

* ``alphamu``: the αμ search (``alphamu.py``, ``--depth`` of its own moves, the first
  ``--worlds`` sampled deals, ``--alphamu-ms`` of time; the plain count where it finds none
  made); with ``--same-worlds`` the expert's side is the plain count over those same few
  deals, so that only strategy fusion tells the two apart;
* ``margin``: each deal counted by a logistic of the card's margin over the need
  (``expert.margin_credit``, ``--scale``, ``--shift`` points taken off the bidder's side);
  ``margin-ties``: the margins only break ties in the deals made;
* ``infer``: each deal weighed by how likely the auction is with its first four cards
  (``ExpertBot._weight``, as ``inference=True``).

Where the two cards differ, the real deal is forked: each card is played and the deal played
out ``--rollouts`` times by the expert at all four seats (the same seeds for both branches),
and each branch counts the rollouts in which the mover's side held its side of the contract
(a void deal, trump never shown, counts half). The game goes on with the expert's card.

    uv run python benchmarks/endgame_forks.py --method alphamu --deals 80 --seed 2 [--json]
    uv run python benchmarks/endgame_forks.py --method margin --cards 8 --deals 40 --seed 2

The figures: forks, the rollouts each branch won, the forks where the method's card did
better or worse over its rollouts, and how often the αμ search ran out of time (then no
fork: the expert-am variant would play the expert's card).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from typing import Any

from twentynine.arena import wilson_interval
from twentynine.bots import expert_bot
from twentynine.bots.alphamu import alphamu_values
from twentynine.bots.expert import (
    ExpertBot,
    Sampled,
    counted_choice,
    margin_choice,
    plain_choice,
)
from twentynine.bots.solver import warm_up
from twentynine.engine.actions import Act, Action
from twentynine.engine.round import apply, start_round, to_act
from twentynine.engine.rules import preset
from twentynine.engine.shuffle import uniform_deck
from twentynine.engine.state import Phase, RoundState
from twentynine.engine.views import View, view


def both_choices(bot: ExpertBot, v: View, args: argparse.Namespace) -> tuple[Action, Action | None]:
    """(the expert's card, the other method's card or None when it ran out of time), over
    the same sampled deals."""
    kept: list[Sampled] = []
    alphamu = args.method == "alphamu"
    tally = bot._weighed(v, kept, share=0.4 if alphamu else 0.8)
    assert tally is not None
    wins, points, _ = tally
    legal = set(v.legal)
    scored = [a for a in wins if a in legal]
    plain = plain_choice(scored, (wins, points))
    if args.method == "infer":  # the same deals, each weighed by the auction heard
        weighed = [
            (world, w * ExpertBot._weight(world, v), values, need)
            for world, w, values, need in kept
        ]
        return plain, plain_choice(scored, sums(weighed))
    if not alphamu:
        ties_only = args.method == "margin-ties"
        return plain, margin_choice(
            v, kept, scored, (wins, points), args.scale, args.shift, ties_only
        )
    if max(wins[a] for a in scored) <= 0:
        return plain, plain
    few = kept[: args.worlds]
    deadline = time.perf_counter() + (args.alphamu_ms or args.budget_ms * 0.4) / 1000
    found = alphamu_values(
        v.viewer or 0, [k[0] for k in few], [k[1] for k in few], args.depth, deadline
    )
    if found is None:
        return plain, None
    if args.same_worlds:  # the plain count over the same few deals: fusion alone differs
        counts = alphamu_values(
            v.viewer or 0, [k[0] for k in few], [k[1] for k in few], 1, math.inf
        )
        assert counts is not None
        plain = counted_choice(counts, scored, (wins, points))
    return plain, counted_choice(found, scored, (wins, points))


def sums(kept: list[Sampled]) -> tuple[dict[Action, float], dict[Action, float]]:
    """The plain search's two sums over ``kept``: the weight of the deals each action makes,
    and its weighed points."""
    wins: dict[Action, float] = {}
    points: dict[Action, float] = {}
    for _, w, values, need in kept:
        for action, value in values.items():
            wins[action] = wins.get(action, 0.0) + (w if value >= need else 0.0)
            points[action] = points.get(action, 0.0) + w * value
    return wins, points


def play_out(st: RoundState, seed: int, budget_ms: float) -> RoundState:
    bots = [expert_bot(seed * 4 + s, budget_ms=budget_ms) for s in range(4)]
    while not st.is_over:
        seat = to_act(st)[0]
        st, _ = apply(st, bots[seat].choose(view(st, seat)))
    return st


def side_result(st: RoundState, seat: int) -> float:
    """1 if ``seat``'s side held its side of the contract, 0 if not, 0.5 for a void deal."""
    if st.outcome == "invalid":
        return 0.5
    bidder_won = st.outcome == "won"
    return float(bidder_won if seat & 1 == st.bidder & 1 else not bidder_won)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--preset", default="bhoos")
    ap.add_argument(
        "--method", choices=("alphamu", "margin", "margin-ties", "infer"), default="alphamu"
    )
    ap.add_argument("--scale", type=float, default=1.0, help="the margin's scale, in points")
    ap.add_argument("--shift", type=float, default=0.0, help="the bidder side's margin lost")
    ap.add_argument("--cards", type=int, default=4)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--rollouts", type=int, default=4)
    ap.add_argument("--budget-ms", type=float, default=220.0)
    ap.add_argument(
        "--alphamu-ms", type=float, default=0.0, help="the αμ search's own time (a study)"
    )
    ap.add_argument(
        "--same-worlds",
        action="store_true",
        help="compare with the plain count over the αμ search's own sampled deals",
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    warm_up()
    rules = preset(args.preset)
    rng = random.Random(args.seed)
    checked = timeouts = forks = better = worse = 0
    won = {"method": 0.0, "expert": 0.0}
    start = time.perf_counter()
    for i in range(args.deals):
        st, _ = start_round(rules, i % 4, uniform_deck(rng))
        bots = [
            expert_bot(args.seed * 1000 + i * 4 + s, budget_ms=args.budget_ms) for s in range(4)
        ]
        while not st.is_over:
            seat = to_act(st)[0]
            v = view(st, seat)
            hand = v.hands[seat] or ()
            cards = [a for a in v.legal if a.act is not Act.PAIR]
            if (
                st.phase is Phase.PLAY
                and st.caller < 0
                and len(cards) > 1
                and len(hand) <= args.cards
            ):
                checked += 1
                plain, other = both_choices(bots[seat], v, args)
                if other is None:
                    timeouts += 1
                elif other != plain:
                    forks += 1
                    score = {}
                    for name, action in (("method", other), ("expert", plain)):
                        branch, _ = apply(st, action)
                        score[name] = sum(
                            side_result(
                                play_out(branch, args.seed * 7919 + forks * 31 + r, args.budget_ms),
                                seat,
                            )
                            for r in range(args.rollouts)
                        )
                        won[name] += score[name]
                    better += score["method"] > score["expert"]
                    worse += score["method"] < score["expert"]
                st, _ = apply(st, plain)
                continue
            st, _ = apply(st, bots[seat].choose(v))
    lo, hi = wilson_interval(better, better + worse)
    out: dict[str, Any] = {
        "preset": args.preset,
        "deals": args.deals,
        "seed": args.seed,
        "method": args.method,
        "scale": args.scale,
        "shift": args.shift,
        "cards": args.cards,
        "depth": args.depth,
        "worlds": args.worlds,
        "rollouts": args.rollouts,
        "alphamu_ms": args.alphamu_ms,
        "same_worlds": args.same_worlds,
        "decisions_checked": checked,
        "alphamu_out_of_time": timeouts,
        "forks": forks,
        "rollouts_won_method": won["method"],
        "rollouts_won_expert": won["expert"],
        "forks_better": better,
        "forks_worse": worse,
        "better_share_ci95": [round(lo, 3), round(hi, 3)],
        "seconds": round(time.perf_counter() - start, 1),
    }
    if args.json:
        print(json.dumps(out))
    else:
        for k, val in out.items():
            print(f"{k}: {val}")


if __name__ == "__main__":
    main()
