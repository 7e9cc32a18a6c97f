"""Analysis of a played deal with the open-hand solver: what each card cost its team.

For every ``play`` and ``reveal`` of the play phase, the deal is replayed to the position before
it and solved with all hands known (:mod:`twentynine.bots.solver`): the value of an action is
the number of card points (with the last-trick point where the rules have it) that the
player's team takes from that position to the end of the deal, both teams playing perfectly
afterwards, the deal played to the last trick. ``cost`` = best value - value of the action
played: the points that choice gave away (0 for a best choice). The target, the pair and the
stakes play no part.

``twentynine analyse FILE [--json]`` (see :func:`register`) prints the table for a deal record,
or for each deal of a game record.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from .bots.solver import Method, Solver
from .engine.actions import Act
from .engine.cards import card_code
from .engine.errors import EngineError, IllegalAction
from .engine.records import DealRecord, GameRecord, load_record
from .engine.round import apply, start_round
from .engine.state import Phase, team_of


def analyse_deal(record: DealRecord, method: Method = "auto") -> list[dict[str, Any]]:
    """One row for every ``play`` and ``reveal`` of the deal's play phase, in order:

    ``index`` (of the action in the record), ``trick`` (1-8), ``seat``, ``team``, ``action``
    (its text), ``card`` (the card's code, None for a reveal), ``value`` (points the team takes
    from there with that action and perfect play afterwards), ``best_value``, ``best`` (the
    texts of every action reaching it) and ``cost`` (``best_value - value``, never negative).

    Raises ``IllegalAction`` if the record holds an illegal action (as ``replay_deal`` would
    report it)."""
    st, _ = start_round(record.rules.rules, record.dealer, record.deck)
    solver = Solver(method)
    rows: list[dict[str, Any]] = []
    for index, action in enumerate(record.actions):
        if (
            st.phase is Phase.PLAY
            and action.seat == st.turn
            and action.act in (Act.PLAY, Act.REVEAL)
        ):
            values = solver.solve(st)
            choices = {a: v for a, v in values.items() if a.act is not Act.PAIR}
            if action in choices:
                best = max(choices.values())
                played = choices[action]
                rows.append(
                    {
                        "index": index,
                        "trick": len(st.tricks) + 1,
                        "seat": action.seat,
                        "team": team_of(action.seat),
                        "action": action.text,
                        "card": card_code(action.arg) if action.act is Act.PLAY else None,
                        "value": played,
                        "best_value": best,
                        "best": [a.text for a, v in choices.items() if v == best],
                        "cost": best - played,
                    }
                )
        try:
            st, _ = apply(st, action)
        except IllegalAction as e:
            raise IllegalAction(e.reason, f"action {index} ({action}): {e}") from None
    return rows


def team_costs(rows: list[dict[str, Any]]) -> tuple[int, int]:
    """Total cost of each team's choices."""
    totals = [0, 0]
    for row in rows:
        totals[row["team"]] += row["cost"]
    return totals[0], totals[1]


# -- command line --------------------------------------------------------------------------------
def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``analyse FILE [--json]`` to a ``twentynine`` command line's subparsers."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "analyse",
        help="what each card of a recorded deal cost its team (open-hand solver)",
        description=(__doc__ or "").split("\n\n")[1],
    )
    p.add_argument("file", type=Path, help="a deal record or a game record (JSON)")
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    p.add_argument(
        "--method",
        default="auto",
        choices=("auto", "numba", "python", "engine"),
        help="solver implementation (default: numba, or plain Python with TWENTYNINE_NO_NUMBA=1)",
    )
    p.set_defaults(func=cmd_analyse)
    return p


def cmd_analyse(args: argparse.Namespace) -> int:
    from rich.console import Console

    err = Console(stderr=True)
    try:
        text = args.file.read_text()
    except OSError as e:
        err.print(f"[red]error:[/red] cannot read {args.file}: {e.strerror}")
        return 2
    try:
        record = load_record(text)
        deals = list(record.deals) if isinstance(record, GameRecord) else [record]
        results = [analyse_deal(deal, args.method) for deal in deals]
    except EngineError as e:
        err.print(f"[red]error:[/red] {e}")
        return 2
    if args.json:
        if isinstance(record, GameRecord):
            print(json.dumps([{"deal": i, "rows": rows} for i, rows in enumerate(results)]))
        else:
            print(json.dumps(results[0]))
        return 0
    out = Console()
    for i, rows in enumerate(results):
        title = f"deal {i}" if isinstance(record, GameRecord) else "deal"
        out.print(_table(rows, title))
    return 0


def _table(rows: list[dict[str, Any]], title: str) -> Any:
    from rich.table import Table

    costs = team_costs(rows)
    table = Table(
        title=f"{title}: points each choice cost its team",
        caption=(
            "value: card points the team takes from there to the end of the deal, all playing "
            f"perfectly afterwards. Points given away: team 0 (seats 0, 2) {costs[0]}, "
            f"team 1 (seats 1, 3) {costs[1]}."
        ),
    )
    for col in ("#", "trick", "seat", "played", "value", "best", "best value", "cost"):
        table.add_column(col, justify="left" if col in ("played", "best") else "right")
    for row in rows:
        cost = row["cost"]
        table.add_row(
            str(row["index"]),
            str(row["trick"]),
            str(row["seat"]),
            row["action"],
            str(row["value"]),
            ", ".join(row["best"]),
            str(row["best_value"]),
            f"[red]{cost}[/red]" if cost else "0",
        )
    return table
