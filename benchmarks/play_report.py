"""Which side's play gave deals away, judged against the true cards (``peers.py --deals-out``).

    uv run python benchmarks/play_report.py rounds.jsonl [more.jsonl ...] [--json]
    uv run python benchmarks/play_report.py rounds.jsonl ... --rechoose LEVEL [--side expert]
        [--worlds N | --budget-ms MS] [--via-bhoos] [--leads-only] [--seed S] [--json]

Each round of the files (a contract played out, its actions recorded) is replayed from its deck.
At every decision of the play with more than one legal action, the exact open-hand solver values
each action on the true deal: can the mover's side still hold its side of the contract (the
bidder's team reach the bid, the other team keep it from the bid) with best play by both from
there? A decision **drops** the deal when the best action held it and the one chosen does not;
it **saves** nothing (best play from a held position holds it), so a side's drops are the deals
its own play let slip, each a gift to the other side's result. Counted per side: decisions,
drops (by the mover's role, the trick, a lead or not), and for each round how the contract stood
with best play when the first card was led against how it came out.

The solver sees every card, so a drop is a choice that turned out wrong on the real deal, not
always a mistake by what the mover could know; the void rule (a deal whose trump is never
shown is void) is not part of its values. Rounds without actions (files from before the arena
kept them) are skipped.

``--rechoose LEVEL`` asks instead whether another bot (or the same with more time, another
seed) would have chosen better: it takes SIDE's *critical* decisions (the best action held the
deal and some other drops it), chooses each again from the seat's view of the true position,
and counts how often the recorded choice and the new one drop the deal, on the same positions.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from twentynine.bhoos.convert import answer_json, parse_answer, view_request
from twentynine.bhoos.payload import DEAL_TIME_MS, parse_request
from twentynine.bhoos.player import SERVED_MAX_WORLDS, BhoosPlayer
from twentynine.bots import make_bot
from twentynine.bots.expert import ExpertBot
from twentynine.bots.need import points_needed
from twentynine.bots.solver import solve, warm_up
from twentynine.engine import preset
from twentynine.engine.actions import Act, Action, action_from_json
from twentynine.engine.cards import parse_card
from twentynine.engine.round import apply, legal_actions, start_round, to_act
from twentynine.engine.state import Phase, RoundState, team_of
from twentynine.engine.views import view


def played_rounds(records: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The rounds a contract was played out in, with their actions recorded."""
    for r in records:
        if "actions" in r and r["outcome"] in ("won", "lost") and r["caller"] is None:
            yield r


def replay(r: dict[str, Any]) -> Iterator[tuple[RoundState, Action]]:
    """Each action of round ``r`` with the true position it was taken in."""
    st, _ = start_round(preset("bhoos"), r["dealer"], [parse_card(c) for c in r["deck"]])
    for a in r["actions"]:
        action = action_from_json(a, a["seat"])
        yield st, action
        st, _ = apply(st, action)


def need(st: RoundState, seat: int) -> int:
    """The points ``seat``'s team must still take to hold its side of the contract."""
    return points_needed(st, seat)[0]


def bidders_hold(st: RoundState) -> bool:
    """Can the bidder's team still reach the bid with best play by both teams from ``st``?
    (The solver values the actions of the seat to move, for its own team.)"""
    mover = to_act(st)[0]
    n = need(st, mover)
    mover_holds = n <= 0 or max(solve(st, need=n).values()) >= n
    return mover_holds == (team_of(mover) == team_of(st.bidder))


def role(st: RoundState, seat: int) -> str:
    if seat == st.bidder:
        return "bidder"
    if team_of(seat) == team_of(st.bidder):
        return "bidder's partner"
    return "defender"


def critical(st: RoundState, seat: int) -> dict[Action, bool] | None:
    """At a decision whose best action holds the mover's side of the contract and some other
    action does not: {action: does it hold?}; None elsewhere (nothing to drop)."""
    n = need(st, seat)
    if n <= 0:
        return None
    values = solve(st, need=n)
    holding = {a: v >= n for a, v in values.items()}
    return holding if any(holding.values()) and not all(holding.values()) else None


def is_lead(st: RoundState, action: Action) -> bool:
    return not st.trick and action.act is Act.PLAY


def positions(
    records: list[dict[str, Any]], side: str, leads_only: bool = False
) -> Iterator[tuple[RoundState, int, Action, dict[Action, bool]]]:
    """``side``'s critical decisions (``critical``) in the rounds: the true position, the seat,
    the action recorded and which actions hold."""
    for r in played_rounds(records):
        for st, action in replay(r):
            seat = action.seat
            if (
                st.phase is Phase.PLAY
                and r["sides"][team_of(seat)] == side
                and (is_lead(st, action) or not leads_only)
            ):
                holding = critical(st, seat)
                if holding is not None:
                    yield st, seat, action, holding


def rechoose(
    records: list[dict[str, Any]],
    side: str,
    level: str,
    worlds: int = 0,
    leads_only: bool = False,
    budget_ms: float = 0.0,
    via_bhoos: bool = False,
    seed: int = 0,
) -> dict[str, Any]:
    """``side``'s critical decisions chosen again by the bot ``level`` (an expert with
    ``worlds`` sampled deals a decision when given, or with ``budget_ms`` a decision and as
    many sampled deals as that allows, as the Bhoos server runs it), from the seat's view of
    the true position: how often each choice, the recorded one and the new one, drops the
    deal. ``via_bhoos``: the bot sees the position as our Bhoos server does, rebuilt from the
    protocol's request for it (``convert.view_request``, ``BhoosPlayer.view_for``)."""
    player = BhoosPlayer("random", 0) if via_bhoos else None
    out = {"positions": 0, "differ": 0, "recorded_drops": 0, "rechosen_drops": 0}
    for st, seat, action, holding in positions(records, side, leads_only):
        bot = make_bot(level, seed + out["positions"])
        if worlds and isinstance(bot, ExpertBot):
            bot.fixed_worlds = bot.max_worlds = worlds
        elif budget_ms and isinstance(bot, ExpertBot):
            bot.budget_ms, bot.max_worlds = budget_ms, SERVED_MAX_WORLDS
        seen = view(st, seat)
        if player is None:
            again = bot.choose(seen)
        else:
            endpoint, body = view_request(seen, DEAL_TIME_MS)
            rebuilt = player.view_for(parse_request(endpoint, body))
            again, _ = parse_answer(endpoint, answer_json(bot.choose(rebuilt)), seen)
        out["positions"] += 1
        out["differ"] += again != action
        out["recorded_drops"] += not holding[action]
        out["rechosen_drops"] += not holding[again]
    return out


def study(records: list[dict[str, Any]]) -> dict[str, Any]:
    sides: dict[str, dict[str, Any]] = defaultdict(
        lambda: {
            "rounds": 0,
            "decisions": 0,
            "drops": 0,
            "drops_by_role": Counter(),
            "decisions_by_role": Counter(),
            "drops_by_trick": Counter(),
            "drops_on_lead": 0,
            "leads": 0,
            "contracts": Counter(),
        }
    )
    for r in played_rounds(records):
        names = r["sides"]
        first_card = True
        for st, action in replay(r):
            if st.phase is not Phase.PLAY:
                continue
            if first_card:
                first_card = False
                key = f"{'makeable' if bidders_hold(st) else 'not makeable'}, {r['outcome']}"
                sides[names[r["bidder"] & 1]]["contracts"][key] += 1
            seat = action.seat
            if len(legal_actions(st, seat)) < 2:
                continue
            s = sides[names[team_of(seat)]]
            who, lead = role(st, seat), is_lead(st, action)
            s["decisions"] += 1
            s["decisions_by_role"][who] += 1
            s["leads"] += lead
            holding = critical(st, seat)
            if holding is not None and not holding[action]:
                s["drops"] += 1
                s["drops_by_role"][who] += 1
                s["drops_by_trick"][len(st.tricks) + 1] += 1
                s["drops_on_lead"] += lead
        for name in set(names):
            sides[name]["rounds"] += 1
    out: dict[str, Any] = {}
    for name, s in sides.items():
        out[name] = {
            **{k: v for k, v in s.items() if not isinstance(v, Counter)},
            "drops_per_100_rounds": round(100 * s["drops"] / s["rounds"], 1) if s["rounds"] else 0,
            "drops_by_role": dict(s["drops_by_role"]),
            "decisions_by_role": dict(s["decisions_by_role"]),
            "drops_by_trick": dict(sorted(s["drops_by_trick"].items())),
            "contracts_at_first_card": dict(s["contracts"]),
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path, help="rounds files (peers.py --deals-out)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument(
        "--rechoose",
        metavar="LEVEL",
        help="choose SIDE's critical decisions again with this bot level and count its drops",
    )
    ap.add_argument("--side", default="expert", help="whose decisions --rechoose takes")
    ap.add_argument(
        "--worlds", type=int, default=0, help="with --rechoose: an expert's sampled deals a choice"
    )
    ap.add_argument(
        "--budget-ms",
        type=float,
        default=0.0,
        help="with --rechoose: an expert's time a choice (sampled deals as time allows)",
    )
    ap.add_argument(
        "--via-bhoos",
        action="store_true",
        help="with --rechoose: the bot sees each position rebuilt from its Bhoos request",
    )
    ap.add_argument("--seed", type=int, default=0, help="with --rechoose: the bots' first seed")
    ap.add_argument("--leads-only", action="store_true", help="with --rechoose: only leads")
    args = ap.parse_args()
    records = [json.loads(line) for f in args.files for line in f.read_text().splitlines() if line]
    warm_up()
    if args.rechoose:
        found = rechoose(
            records,
            args.side,
            args.rechoose,
            args.worlds,
            args.leads_only,
            args.budget_ms,
            args.via_bhoos,
            args.seed,
        )
        print(json.dumps(found) if args.json else found)
        return
    result = study(records)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for name, s in result.items():
        print(f"{name}: {s['rounds']} rounds, {s['decisions']} decisions with a choice")
        print(
            f"  drops (the best action held the deal, the one chosen did not): {s['drops']}"
            f" ({s['drops_per_100_rounds']} a 100 rounds), on a lead {s['drops_on_lead']}"
            f" of {s['leads']} leads"
        )
        for who, n in sorted(s["decisions_by_role"].items()):
            print(f"  as {who}: {s['drops_by_role'].get(who, 0)} drops in {n} decisions")
        print(f"  drops by trick: {s['drops_by_trick']}")
        print(f"  its contracts, at the first card with best play: {s['contracts_at_first_card']}")


if __name__ == "__main__":
    main()
