"""The ``twentynine`` command line.

Each command imports what it needs when it runs: ``rules``, ``replay`` and ``simulate`` load the
engine only (not the server, the solver or numba), so they start at once. The commands other
modules define (``bot``, ``analyse``, ``admin``, ``serve``, ``db``) are registered only when
asked for, or for the full help.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from .engine.records import DealReplay, GameRecord

#: commands defined elsewhere: name -> (module, its ``register(subparsers)``)
ELSEWHERE: dict[str, str] = {
    "bot": "twentynine.bhoos.server",
    "analyse": "twentynine.analyse",
    "admin": "twentynine.server.admin.cli",
    "serve": "twentynine.server.cli",
    "db": "twentynine.server.cli",
}

_consoles: dict[bool, Console] = {}


def console(stderr: bool = False) -> Console:
    """The rich console for standard output (or error), made on first use."""
    if stderr not in _consoles:
        from rich.console import Console

        _consoles[stderr] = Console(stderr=stderr)
    return _consoles[stderr]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    from .engine.errors import EngineError

    try:
        result: int = args.func(args)
    except EngineError as e:
        console(stderr=True).print(f"[red]error:[/red] {e}")
        return 2
    return result


def _command(argv: Sequence[str]) -> str | None:
    """The command named in ``argv`` (its first word that is not an option)."""
    return next((a for a in argv if not a.startswith("-")), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; with ``argv``, only the command it names is taken from its module (every
    command when it names none, for the full help)."""
    p = argparse.ArgumentParser(prog="twentynine", description="Twenty-Nine (29) card game")
    sub = p.add_subparsers(title="commands")

    r = sub.add_parser("rules", help="list presets or show a preset's rule options")
    r.add_argument("--list", action="store_true", help="one preset a line: name, then source")
    r.add_argument("--preset", default="standard", help="the preset to show (default: %(default)s)")
    r.add_argument("--json", action="store_true", help="print the options as JSON")
    r.set_defaults(func=cmd_rules)

    s = sub.add_parser("simulate", help="random legal players deal and play many rounds")
    s.add_argument("--preset", default="standard", help="the rules to play (default: %(default)s)")
    s.add_argument("--rounds", type=int, default=1000, help="deals to play (default: %(default)s)")
    s.add_argument("--seed", type=int, default=0, help="seed of the deals and the random players")
    s.add_argument("--json", action="store_true", help="print the summary as JSON")
    s.add_argument("--records", type=Path, help="write every deal record to this folder")
    s.set_defaults(func=cmd_simulate)

    ar = sub.add_parser("arena", help="duplicate matches between two bots")
    ar.add_argument("a", help="side A: a bot level or the URL of a Bhoos-protocol bot")
    ar.add_argument("b", help="side B: a bot level or the URL of a Bhoos-protocol bot")
    ar.add_argument("--deals", type=int, default=100, help="duplicate deals (each played twice)")
    ar.add_argument("--seed", type=int, default=0, help="seed of the deals and the bots")
    ar.add_argument("--preset", default="standard", help="the rules to play (default: %(default)s)")
    ar.add_argument("--json", action="store_true", help="print the figures as JSON")
    ar.set_defaults(func=cmd_arena)

    pl = sub.add_parser("play", help="play a game in the terminal against three bots")
    pl.add_argument("--preset", default="standard", help="the rules to play (default: %(default)s)")
    pl.add_argument("--level", default="intermediate", help="the bots' level")
    pl.add_argument("--seed", type=int, default=None, help="repeatable deals and bots")
    pl.set_defaults(func=cmd_play)

    own = set(sub.choices) | {"replay"}
    named = _command(argv) if argv is not None else None
    if named in own:
        modules = []
    elif named in ELSEWHERE:
        modules = [ELSEWHERE[named]]
    else:  # the full help, or an unknown command (argparse lists them all)
        modules = list(ELSEWHERE.values())
    for module in dict.fromkeys(modules):  # in order, each module once
        importlib.import_module(module).register(sub)

    rp = sub.add_parser("replay", help="replay a deal record or a game record")
    rp.add_argument("file", type=Path, help="a deal or game record (JSON)")
    rp.add_argument("--json", action="store_true", help="print the result as JSON")
    rp.set_defaults(func=cmd_replay)
    return p


# -- rules -------------------------------------------------------------------------------------
def cmd_rules(args: argparse.Namespace) -> int:
    import json

    from .engine.rules import PRESETS, Rules, option_choices, option_names, preset

    if args.list:
        for name, p in PRESETS.items():
            print(f"{name}\t{p.source}")
        return 0
    rules = preset(args.preset)
    if args.json:
        print(json.dumps({"preset": args.preset, "options": rules.as_dict()}, indent=2))
        return 0
    from rich.table import Table

    info = PRESETS[args.preset]
    table = Table(title=f"{info.name}: {info.source}", caption=info.description)
    table.add_column("option")
    table.add_column("value")
    table.add_column("allowed")
    base = Rules()
    for name in option_names():
        value = getattr(rules, name)
        choices = option_choices(name)
        allowed = " | ".join(map(str, choices)) if choices else type(value).__name__
        mark = "" if value == getattr(base, name) else " *"
        table.add_row(name, f"{_fmt(value)}{mark}", allowed)
    console().print(table)
    console().print("* differs from standard")
    return 0


def _fmt(value: Any) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


# -- simulate ------------------------------------------------------------------------------------
def cmd_simulate(args: argparse.Namespace) -> int:
    import json

    from .engine.records import DealRecord
    from .engine.rules import preset
    from .simulate import simulate

    if args.rounds < 1:
        console(stderr=True).print("[red]error:[/red] --rounds must be at least 1")
        return 2
    rules = preset(args.preset)
    if args.records:
        args.records.mkdir(parents=True, exist_ok=True)
    progress = _progress("simulating", console(stderr=True))
    with progress:
        task = progress.add_task("deals", total=args.rounds)
        count = 0

        def on_deal(_game: object, record: DealRecord) -> None:
            nonlocal count
            count += 1
            if args.records:
                (args.records / f"deal-{count:06d}.json").write_text(record.dumps() + "\n")
            if count % 100 == 0 or count == args.rounds:
                progress.update(task, completed=count)

        stats = simulate(rules, args.rounds, args.seed, args.preset, on_deal)
    data = stats.to_json()
    if args.json:
        print(json.dumps(data))
        return 0
    from rich.table import Table

    table = Table(title=f"{args.rounds} deals, preset {args.preset}, seed {args.seed}")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key in ("rounds", "actions", "seconds", "rounds_per_s", "actions_per_s"):
        table.add_row(key, str(data[key]))
    for group in ("outcomes", "invalid_reasons", "contracts", "stakes", "bids"):
        for k, v in data[group].items():
            table.add_row(f"{group}: {k}", str(v))
    table.add_row("early finishes", str(data["early_finishes"]))
    table.add_row("games finished", str(data["games_finished"]))
    console().print(table)
    return 0


# -- arena -------------------------------------------------------------------------------------
def cmd_arena(args: argparse.Namespace) -> int:
    import json

    from .arena import player_factory, run_arena, summary_lines
    from .engine.rules import preset

    if args.deals < 1:
        console(stderr=True).print("[red]error:[/red] --deals must be at least 1")
        return 2
    try:
        player_factory(args.a), player_factory(args.b)
    except ValueError as e:
        console(stderr=True).print(f"[red]error:[/red] {e}")
        return 2
    rules = preset(args.preset)
    progress = _progress("playing", console(stderr=True))
    with progress:
        task = progress.add_task("deals", total=args.deals)
        result = run_arena(
            args.a,
            args.b,
            args.deals,
            args.seed,
            rules,
            args.preset,
            on_deal=lambda n: progress.update(task, completed=n),
        )
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        for line in summary_lines(result):
            print(line)
    return 0


def _progress(label: str, where: Console) -> Progress:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=where,
        transient=True,
        disable=not where.is_terminal,
    )


# -- play --------------------------------------------------------------------------------------
def cmd_play(args: argparse.Namespace) -> int:
    from .engine.rules import preset
    from .terminal import Quit, play_game

    try:
        play_game(preset(args.preset), args.level, console(), seed=args.seed)
    except (KeyboardInterrupt, EOFError, Quit):
        console().print("\nbye")
    return 0


# -- replay --------------------------------------------------------------------------------------
def cmd_replay(args: argparse.Namespace) -> int:
    import json

    from .engine.records import GameRecord, deal_summary, load_record, replay_deal

    try:
        text = args.file.read_text()
    except OSError as e:
        console(stderr=True).print(f"[red]error:[/red] cannot read {args.file}: {e.strerror}")
        return 2
    record = load_record(text)
    if isinstance(record, GameRecord):
        return _replay_game(record, args.json)
    result = replay_deal(record)
    summary = deal_summary(result)
    if args.json:
        print(json.dumps(summary))
    else:
        _print_deal(result, summary)
    return 1 if result.error is not None else 0


def _print_deal(result: DealReplay, summary: dict[str, Any]) -> None:
    if result.error is not None:
        console(stderr=True).print(
            f"[red]illegal action {result.error_index}:[/red] {result.error} "
            f"(reason: {summary['error']['reason']})"
        )
    for key, value in summary.items():
        if key != "error":
            console().print(f"{key}: {value}")


def _replay_game(record: GameRecord, as_json: bool) -> int:
    import json

    from .engine.records import replay_game

    result = replay_game(record)
    if as_json:
        game = result.game
        print(
            json.dumps(
                {
                    "deals": result.deals,
                    "scores": list(game.scores) if game else list(record.scores),
                    "red_sets": list(game.red_sets) if game else [0, 0],
                    "black_sets": list(game.black_sets) if game else [0, 0],
                    "game_over": game.over if game else False,
                    "winner": game.winner if game else None,
                    "error": result.error,
                }
            )
        )
    else:
        from rich.table import Table

        table = Table(title="game replay")
        for col in ("deal", "dealer", "outcome", "bidder", "bid", "stake", "scores", "sets"):
            table.add_column(col)
        for i, row in enumerate(result.deals):
            sets = f"red {row.get('red_sets')} black {row.get('black_sets')}"
            table.add_row(
                str(i),
                str(record.deals[i].dealer),
                str(row.get("outcome")),
                str(row.get("bidder")),
                str(row.get("bid")),
                str(row.get("stake")),
                str(row.get("scores")),
                sets,
            )
        console().print(table)
        if result.error:
            console(stderr=True).print(f"[red]error:[/red] {result.error}")
    return 1 if result.error else 0


if __name__ == "__main__":
    sys.exit(main())
