"""Bidding on in a contest, solved open-handed: the data behind a rule for when to bid over
the other side's real bid (one the rules did not force).

Deals random decks (``shuffle.uniform_deck``, the dealer turning) and runs each auction with the
``expert`` level at every seat (its calls are the rules', no search). At every decision where a
seat may bid or pass and ``bidding.contest_role`` names it (an opponent holds the bid, or
the seat holds it against an opponent's challenge), the deal is played two ways:
the expert's own call, and the other one (a pass for a bid; the lowest legal bid for a pass).
Each way the auction runs on with the expert at every seat, the bidder names trump, and the
contract is solved with the exact open-hand solver (trump shown from the first trick, as the
searched calls do). One JSON line a decision: the seat's four cards, its role, the bid it would
make, the expert's call, and for each way the bidder's team, target and solved points.

    uv run python benchmarks/contest_study.py --deals 20000 --seed 1 --out F.jsonl

(20,000 decks gave about 32,500 decisions in 100 s on one core; ``evaluate.CONTEST_GAIN_1``
and ``CONTEST_GAIN_2`` were fitted on seeds 1-3 with ``--bias 1`` and ``--bias 2``.)

``--fit F.jsonl [F2.jsonl ...]`` fits the gain of bidding on (won +1, lost -1 for the seat's
team, bid minus pass) by least squares in the features of ``evaluate.contest_features`` and
prints the weights; ``--bias B`` counts a solved contract made only with ``B`` points to spare
(``calls.DD_BIAS``: the open-hand solver's optimism for the bidder).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from twentynine.bots import make_bot
from twentynine.bots.base import Bot
from twentynine.bots.bidding import contest_role, real_partner_bid
from twentynine.bots.evaluate import contest_features
from twentynine.bots.solver import best_value, open_state
from twentynine.engine.actions import Act, Action
from twentynine.engine.round import apply, start_round, to_act
from twentynine.engine.rules import Rules, preset
from twentynine.engine.shuffle import uniform_deck
from twentynine.engine.state import Phase, RoundState, team_of
from twentynine.engine.views import View, view


def finish_calls(st: RoundState, bots: list[Bot]) -> RoundState:
    """Runs the calls on to the first card (or the round's end, all passing)."""
    while not st.is_over and st.phase is not Phase.PLAY:
        seat = to_act(st)[0]
        st, _ = apply(st, bots[seat].choose(view(st, seat)))
    return st


def solved_contract(st: RoundState, rules: Rules) -> dict[str, int] | None:
    """The contract the calls reached, with the bidder's team's points solved open-handed."""
    if st.is_over or st.bidder < 0 or st.trump < 0:
        return None
    hands = st.hands
    full = [
        hands[s] | (1 << st.indicator if s == st.bidder and st.indicator >= 0 else 0)
        for s in range(4)
    ]
    if any(h.bit_count() != 8 for h in full):
        return None
    open_st = open_state(full, st.trump, st.first_hand, rules, st.bidder)
    value = best_value(open_st)
    total = 28 + rules.last_trick_point
    points = value if team_of(st.first_hand) == team_of(st.bidder) else total - value
    return {"bidder": st.bidder, "target": st.target, "points": points}


def other_call(v: View, chosen: Action) -> Action:
    if chosen.act is Act.BID:
        return next(a for a in v.legal if a.act is Act.PASS)
    return min((a for a in v.legal if a.act is Act.BID), key=lambda a: a.arg)


def study_deck(rules: Rules, deck: list[int], dealer: int, bots: list[Bot]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    st, _ = start_round(rules, dealer, deck)
    while not st.is_over and st.phase is Phase.AUCTION:
        seat = to_act(st)[0]
        v = view(st, seat)
        chosen = bots[seat].choose(v)
        role = contest_role(v, seat)
        if role is not None:
            other = other_call(v, chosen)
            bid = chosen if chosen.act is Act.BID else other
            ways: dict[str, Any] = {}
            for name, action in (("bid", bid), ("pass", chosen if bid is other else other)):
                end = finish_calls(apply(st, action)[0], bots)
                ways[name] = solved_contract(end, rules)
            hand = sum(1 << c for c in v.hands[seat] or ())
            partner_bid = real_partner_bid(v, seat)
            out.append(
                {
                    "first": hand,
                    "role": role,
                    "level": bid.arg,
                    "holder_bid": v.bid,
                    "partner_bid": partner_bid,
                    "calls": list(v.calls),
                    "team": team_of(seat),
                    "expert_bids": chosen.act is Act.BID,
                    "ways": ways,
                }
            )
        st, _ = apply(st, chosen)
    return out


def team_wins(way: dict[str, int] | None, team: int, bias: float) -> int:
    """+1 when ``team`` wins the solved contract, -1 when it loses, 0 when nobody bid."""
    if way is None:
        return 0
    made = way["points"] >= way["target"] + bias
    return 1 if made == (team_of(way["bidder"]) == team) else -1


def gain(row: dict[str, Any], bias: float) -> int:
    ways, team = row["ways"], row["team"]
    return team_wins(ways["bid"], team, bias) - team_wins(ways["pass"], team, bias)


def fit(paths: list[str], bias: float, holdout: float) -> None:
    import numpy as np

    rows: list[dict[str, Any]] = []
    for p in paths:
        with open(p) as f:
            rows.extend(json.loads(line) for line in f)
    names = list(contest_features(rows[0]["first"], rows[0]["role"] == "holder", 17, -1))
    x = np.array(
        [
            list(
                contest_features(
                    r["first"], r["role"] == "holder", r["level"], r["partner_bid"]
                ).values()
            )
            for r in rows
        ]
    )
    y = np.array([gain(r, bias) for r in rows], dtype=float)
    expert = np.array([r["expert_bids"] for r in rows])
    n_fit = int(len(rows) * (1 - holdout))
    w, *_ = np.linalg.lstsq(x[:n_fit], y[:n_fit], rcond=None)
    test = slice(n_fit, None)
    pred = x[test] @ w
    rule = pred > 0

    # the seat's team's wins over the held-out decisions: a decision's gain counts when bidding
    def score(bids: Any) -> float:
        return float((y[test] * bids).sum())

    print(
        json.dumps(
            {
                "rows": len(rows),
                "bias": bias,
                "mean_gain": round(float(y.mean()), 4),
                "expert_bids": round(float(expert.mean()), 3),
                "held_out": len(y[test]),
                "rule_bids": round(float(rule.mean()), 3),
                "calls_differ": round(float((rule != expert[test]).mean()), 3),
                # wins (of the team) over always passing, per held-out decision
                "expert_vs_pass": round(score(expert[test]) / len(y[test]), 4),
                "rule_vs_pass": round(score(rule) / len(y[test]), 4),
                "weights": {k: round(float(v), 4) for k, v in zip(names, w, strict=True)},
            },
            indent=1,
        )
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--preset", default="bhoos")
    ap.add_argument("--out")
    ap.add_argument("--fit", nargs="+", help="fit the gain of bidding on from these files")
    ap.add_argument("--bias", type=float, default=0.0)
    ap.add_argument("--holdout", type=float, default=0.2)
    args = ap.parse_args()
    if args.fit:
        fit(args.fit, args.bias, args.holdout)
        return
    if not args.out:
        ap.error("--out is needed to write the study")
    rules = preset(args.preset)
    rng = random.Random(args.seed)
    bots = [make_bot("expert", args.seed * 4 + s) for s in range(4)]
    t0 = time.perf_counter()
    rows = 0
    with open(args.out, "w") as out:
        for n in range(args.deals):
            deck = uniform_deck(rng)
            for row in study_deck(rules, deck, n % 4, bots):
                out.write(json.dumps(row) + "\n")
                rows += 1
    took = time.perf_counter() - t0
    print(json.dumps({"deals": args.deals, "decisions": rows, "seconds": round(took, 1)}))


if __name__ == "__main__":
    main()
