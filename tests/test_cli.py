"""The command line: each command imports only what it needs, and every option says what it
does in ``--help``."""

from __future__ import annotations

import argparse
import subprocess
import sys

from twentynine.cli import build_parser


def _parsers(p: argparse.ArgumentParser, path: str = "twentynine"):  # type: ignore[no-untyped-def]
    yield path, p
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _parsers(child, f"{path} {name}")


def test_every_option_has_a_help_text() -> None:
    missing = [
        f"{path} {'/'.join(a.option_strings) or a.dest}"
        for path, p in _parsers(build_parser())
        for a in p._actions
        if not isinstance(a, argparse._HelpAction | argparse._SubParsersAction) and not a.help
    ]
    assert missing == []


def test_the_full_help_lists_every_command() -> None:
    commands = {path for path, _ in _parsers(build_parser())}
    for name in ("rules", "simulate", "arena", "play", "replay", "analyse", "serve", "db"):
        assert f"twentynine {name}" in commands
    assert {"twentynine bot serve", "twentynine db upgrade", "twentynine admin users"} <= commands


def _modules_loaded(*argv: str) -> set[str]:
    code = (
        "import sys; from twentynine.cli import main; main(sys.argv[1:]); "
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True
    )
    return set(done.stderr.split())


def test_light_commands_load_neither_the_server_nor_the_solver(tmp_path) -> None:  # type: ignore[no-untyped-def]
    heavy = {"numba", "fastapi", "sqlalchemy", "twentynine.bots", "twentynine.server"}
    record = tmp_path / "deals"
    for argv in (
        ("rules", "--list"),
        ("rules", "--preset", "pagat"),
        ("simulate", "--rounds", "3", "--json", "--records", str(record)),
        ("replay", str(record / "deal-000001.json"), "--json"),
    ):
        assert _modules_loaded(*argv) & heavy == set(), argv
