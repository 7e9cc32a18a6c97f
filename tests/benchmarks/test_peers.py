"""The peers benchmark (``benchmarks/peers.py``): its swings (how the duplicate deals of a match
split between the two sides, checked on hand-made rounds and against the games the arena itself
counts as won), and how it starts and stops the two servers."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from twentynine.arena import run_arena
from twentynine.engine import preset

from .modules import benchmark

peers = benchmark("peers")


def _round(seed: int, deal: int, table: int, winner: str | None) -> dict[str, Any]:
    sides = ["ours", "them"] if table == 0 else ["them", "ours"]
    return {
        "seed": seed,
        "deal": deal,
        "table": table,
        "sides": sides,
        "game_winner": None if winner is None else sides.index(winner),
    }


def test_swings_count_each_deck_once_by_who_won_its_two_games() -> None:
    rounds = [
        *(_round(1, 0, t, "ours") for t in (0, 1)),  # ours both: a swing to us
        *(_round(1, 1, t, "them") for t in (0, 1)),  # theirs both
        *(_round(2, 1, t, "them") for t in (0, 1)),  # the same deal number, another seed
        _round(1, 2, 0, "ours"),  # the cards decided it: each won once
        _round(1, 2, 1, "them"),
        _round(1, 3, 0, "ours"),  # a void game: neither
        _round(1, 3, 1, None),
        _round(1, 4, 0, "ours"),  # its second game never played: neither
    ]
    assert peers.swings(rounds, "ours") == {"ours": 1, "peer": 2, "split": 1, "void": 2}


def test_swings_agree_with_the_games_the_arena_counts() -> None:
    rounds: list[dict[str, Any]] = []

    def record(deal: dict[str, Any]) -> None:
        rounds.append({"seed": 5, **deal})

    result = run_arena("beginner", "random", 40, 5, preset("bhoos"), "bhoos", on_round=record)
    counted = peers.swings(rounds, "beginner")
    assert sum(counted.values()) == 40
    won = result.to_json()
    voids = {(r["seed"], r["deal"]) for r in rounds if r["game_winner"] is None}
    in_voids = [
        r["sides"][r["game_winner"]]
        for r in rounds
        if (r["seed"], r["deal"]) in voids and r["game_winner"] is not None
    ]
    assert counted["void"] == len(voids)
    assert won["a"]["games_won"] == 2 * counted["ours"] + counted["split"] + in_voids.count(
        "beginner"
    )
    assert won["b"]["games_won"] == 2 * counted["peer"] + counted["split"] + in_voids.count(
        "random"
    )
    assert counted["ours"] > counted["peer"]  # the beginner beats random play


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def _argv(peer_command: str, peer_port: int, our_port: int) -> list[str]:
    return [
        "peers.py",
        "--peer-command",
        peer_command,
        "--peer-url",
        f"http://127.0.0.1:{peer_port}",
        "--port",
        str(our_port),
        "--deals",
        "1",
        "--seeds",
        "1",
    ]


@pytest.mark.parametrize("taken", ["ours", "peer"])
def test_a_taken_address_is_refused_before_anything_starts(
    taken: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[Any] = []
    monkeypatch.setattr(peers, "start", lambda *a: started.append(a))
    with socket.socket() as listener:  # a server left over from an earlier run
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        assert peers.port_taken(f"http://127.0.0.1:{port}")
        ours, peer = (port, _free_port()) if taken == "ours" else (_free_port(), port)
        monkeypatch.setattr(sys, "argv", _argv("true", peer, ours))
        with pytest.raises(SystemExit, match=f"already answers at http://127.0.0.1:{port}"):
            peers.main()
    assert started == []
    assert not peers.port_taken(f"http://127.0.0.1:{port}")


def test_our_server_is_stopped_when_the_peer_cannot_start(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    started: list[subprocess.Popen[bytes]] = []
    real_start = peers.start

    def recording(command: list[str], cpu: int | None, log: Path) -> subprocess.Popen[bytes]:
        proc: subprocess.Popen[bytes] = real_start(command, cpu, log)
        started.append(proc)
        return proc

    monkeypatch.setattr(peers, "start", recording)
    missing = str(tmp_path / "no-such-peer")
    monkeypatch.setattr(sys, "argv", _argv(missing, _free_port(), _free_port()))
    with pytest.raises(FileNotFoundError):
        peers.main()
    assert len(started) == 1  # our server, whose process is gone with the run
    assert started[0].poll() is not None
