"""How much a player's latest card says about the deal: the same measure of it in the true deal
and in the deals a seat's view samples (``peers.py --deals-out`` files).

    uv run python benchmarks/partner_reading.py rounds.jsonl [more.jsonl ...] [--side expert]
        [--worlds 8] [--seed S] [--json]

At each card decision of SIDE's seats in the play (two legal cards or more), the latest card
played by the mover's partner, and by each opponent, is solved in the position it was played
from (``partnerread.position_before``), once in the true deal and once in each of ``--worlds``
deals sampled from the mover's view as the expert samples them: did that card throw away the
contract while another kept it (a **drop**), and by how many points did it fall short of the
best card (the **shortfall**, in buckets)? A card counts in each deal where its player had two
legal cards or more in that position (so the true and the sampled counts differ). A feature
the true deals show as often as the sampled ones says nothing the sampling does not already
know; the ratio of the two rates is the weight a sampled deal with that feature should get (the
likelihood ratio of the reading ``partnerread.py`` does with ``PENALTY``).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from play_report import played_rounds, replay

from twentynine.bots.knowledge import Knowledge
from twentynine.bots.need import points_needed
from twentynine.bots.partnerread import latest_plays, position_before
from twentynine.bots.solver import solve, warm_up
from twentynine.bots.worlds import sample_world
from twentynine.engine.actions import Act
from twentynine.engine.round import legal_actions
from twentynine.engine.state import Phase, RoundState, team_of
from twentynine.engine.views import view

BUCKETS = ((0, "0"), (2, "1-2"), (5, "3-5"), (99, "6+"))
#: the figures given for each kind of card: drops, then each shortfall bucket
ROWS = ["drops"] + [f"short {name}" for _, name in BUCKETS]


def features(world: RoundState, seat: int, play: tuple[int, int, int]) -> tuple[bool, str] | None:
    """(a drop?, the shortfall's bucket) of ``seat``'s card ``play`` in ``world``, or None when
    its position cannot be rebuilt or it had no choice."""
    t, i, card = play
    before = position_before(world, t, i)
    if before is None or len(legal_actions(before, seat)) < 2:
        return None
    values = solve(before)
    played = next((v for a, v in values.items() if a.act is Act.PLAY and a.arg == card), None)
    if played is None:
        return None
    best = max(values.values())
    need, left = points_needed(before, seat)
    dropped = 0 < need <= left and played < need <= best
    short = best - played
    return dropped, next(name for top, name in BUCKETS if short <= top)


def study(records: list[dict[str, Any]], side: str, worlds: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    tallies: dict[str, dict[str, Counter[str]]] = {
        who: {"true": Counter(), "sampled": Counter()} for who in ("partner", "opponent")
    }
    decisions = 0
    for r in played_rounds(records):
        for st, action in replay(r):
            seat = action.seat
            if (
                st.phase is not Phase.PLAY
                or r["sides"][team_of(seat)] != side
                or len(legal_actions(st, seat)) < 2
            ):
                continue
            decisions += 1
            seen = view(st, seat)
            knowledge = Knowledge.from_view(seen)
            sampled = [sample_world(seen, rng, knowledge) for _ in range(worlds)]
            for other in range(4):
                if other == seat:
                    continue
                latest = latest_plays(st.tricks, st.trick, other, 1)
                if not latest:
                    continue
                play = latest[0]
                who = "partner" if team_of(other) == team_of(seat) else "opponent"
                for kind, deals in (("true", [st]), ("sampled", sampled)):
                    for world in deals:
                        f = features(world, other, play)
                        if f is None:
                            continue
                        c = tallies[who][kind]
                        c["cards"] += 1
                        c["drops"] += f[0]
                        c[f"short {f[1]}"] += 1
    out: dict[str, Any] = {"side": side, "decisions": decisions, "worlds": worlds}
    for who, kinds in tallies.items():
        rows: dict[str, Any] = {}
        for key in ROWS:
            rates = {
                kind: (c[key] / c["cards"] if c["cards"] else None) for kind, c in kinds.items()
            }
            ratio = (
                rates["true"] / rates["sampled"]
                if rates["true"] is not None and rates["sampled"]
                else None
            )
            rows[key] = {
                "true": None if rates["true"] is None else round(rates["true"], 4),
                "sampled": None if rates["sampled"] is None else round(rates["sampled"], 4),
                "ratio": None if ratio is None else round(ratio, 3),
            }
        out[who] = {
            "cards_true": kinds["true"]["cards"],
            "cards_sampled": kinds["sampled"]["cards"],
            **rows,
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path, help="rounds files (peers.py --deals-out)")
    ap.add_argument("--side", default="expert", help="whose decisions are looked from")
    ap.add_argument("--worlds", type=int, default=8, help="sampled deals a decision")
    ap.add_argument("--seed", type=int, default=0, help="the sampling's seed")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    warm_up()
    records = [json.loads(line) for f in args.files for line in f.read_text().splitlines()]
    out = study(records, args.side, args.worlds, args.seed)
    if args.json:
        print(json.dumps(out))
        return
    print(f"{out['decisions']} decisions of {out['side']}, {out['worlds']} sampled deals each")
    for who in ("partner", "opponent"):
        o = out[who]
        print(f"  the {who}'s latest card: {o['cards_true']} true, {o['cards_sampled']} sampled")
        for key in ROWS:
            row = o[key]
            print(
                f"    {key:10} true {row['true']}  sampled {row['sampled']}  ratio {row['ratio']}"
            )


if __name__ == "__main__":
    main()
