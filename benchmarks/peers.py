"""Our served bot against another Bhoos-protocol bot (a peer), in duplicate deals on loopback.

Starts ``twentynine bot serve --protocol bhoos --level LEVEL`` and the peer's own command, each
pinned to its own core, and plays ``--deals`` duplicate deals of the ``bhoos`` preset (each deal
twice, the sides swapping seats; one deal is one game) for every ``--seed`` through the arena,
both sides over HTTP. Nothing of the peer is known here but its command and its URL.

A side's answer that is not legal, and a request that fails (no connection, an HTTP error, a
body that is not JSON), are counted, not fatal: the arena plays the quickest legal choice in
its place and goes on. Time is the protocol's: each seat has 1500 ms for a deal, and the time
each answer took (measured by the arena, network included) comes off it. A deal in which a
side's seat ran below zero is counted as over budget for that side; a win over budget is not
a win, so the figures say how often it happened.

    uv run python benchmarks/peers.py --peer-command "/path/to/peer" \\
        --peer-url http://127.0.0.1:8001 [--level expert] [--deals 100] [--seeds 1 2] \\
        [--our-cpu 1] [--peer-cpu 0] [--arena-cpu N] [--port 8802] [--json] \\
        [--deals-out rounds.jsonl]

Prints games won by each side with the 95% interval, the duplicate deals each side won both
games of (swings; a deal each side won once says nothing of who is stronger), contracts made
and attempted per side, illegal answers and HTTP errors per side, the least time any seat had
left and the deals over budget per side, answer times, and our server's fallbacks (answers not
by the bot itself).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from twentynine.arena import PlayerFactory, run_arena, wilson_interval
from twentynine.bhoos.client import BhoosBot, BhoosBotError
from twentynine.bhoos.convert import quick_choice
from twentynine.bhoos.payload import DEAL_TIME_MS
from twentynine.engine import preset
from twentynine.engine.actions import Action
from twentynine.engine.views import View


@dataclass
class SideCounts:
    """What one side's clients saw, over every seat and table."""

    answers: int = 0
    illegal: int = 0
    http_errors: int = 0
    deals: int = 0
    deals_over_budget: int = 0
    least_time_left_ms: float = DEAL_TIME_MS
    answer_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        t = sorted(self.answer_ms)

        def q(p: float) -> float | None:
            return round(t[min(len(t) - 1, int(p * len(t)))], 1) if t else None

        return {
            "answers": self.answers,
            "illegal_answers": self.illegal,
            "http_errors": self.http_errors,
            "deals": self.deals,
            "deals_over_budget": self.deals_over_budget,
            "least_time_left_ms": round(self.least_time_left_ms, 1),
            "answer_ms_p50": q(0.5),
            "answer_ms_p95": q(0.95),
            "answer_ms_max": round(t[-1], 1) if t else None,
            "first_errors": self.errors[:5],
        }


class CountingBhoosBot(BhoosBot):
    """A Bhoos-protocol client that counts a side's failures and its time, and stands in
    with a quick legal choice where the bot failed (so the match goes on)."""

    def __init__(self, url: str, counts: SideCounts) -> None:
        super().__init__(url, timeout=10.0)
        self.counts = counts
        self._deal_open = False

    def new_deal(self) -> None:
        self._close_deal()
        super().new_deal()

    def _close_deal(self) -> None:
        if self._deal_open:
            self.counts.deals += 1
            self.counts.deals_over_budget += self.time_remaining_ms < 0
            self._deal_open = False

    def finish(self) -> None:
        """Count the deal in progress (call once the match is over)."""
        self._close_deal()

    def choose(self, view: View) -> Action:
        before = self.calls_made
        t0 = time.perf_counter()
        try:
            action = super().choose(view)
        except BhoosBotError as e:
            text = str(e)
            http = "no answer" in text or "HTTP " in text or "not JSON" in text
            if http:
                self.counts.http_errors += 1
            else:
                self.counts.illegal += 1
            self.counts.errors.append(text[:200])
            action = quick_choice(view)
        self._deal_open = True
        if self.calls_made > before:  # a request was sent (not a card sent with a reveal)
            self.counts.answers += 1
            self.counts.answer_ms.append((time.perf_counter() - t0) * 1000)
        self.counts.least_time_left_ms = min(self.counts.least_time_left_ms, self.time_remaining_ms)
        return action


def swings(rounds: list[dict[str, Any]], ours: str) -> dict[str, int]:
    """How the duplicate deals split, from their rounds (``arena.deal_record``, with their
    seed): a deck whose two games one side won both is a swing to it; a deck each side won
    once was decided by the cards, not by who held them. A deck with a void game counts as
    neither. ``ours``: our side's name in the records' ``sides``."""
    winners: dict[tuple[int, int], list[str | None]] = {}
    for r in rounds:
        won = r.get("game_winner")
        side = None if won is None else r["sides"][won]
        winners.setdefault((r["seed"], r["deal"]), []).append(side)
    out = {"ours": 0, "peer": 0, "split": 0, "void": 0}
    for pair in winners.values():
        if len(pair) != 2 or None in pair:
            out["void"] += 1
        elif pair[0] != pair[1]:
            out["split"] += 1
        else:
            out["ours" if pair[0] == ours else "peer"] += 1
    return out


def wait_for(url: str, proc: subprocess.Popen[bytes], what: str, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"benchmarks/peers.py: {what} exited ({proc.returncode})")
        try:
            with urllib.request.urlopen(url + "/hi", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"benchmarks/peers.py: no answer from {what} at {url}/hi in {timeout:.0f} s")


def port_taken(url: str) -> bool:
    """Does something already accept connections at ``url``'s host and port?"""
    parts = urllib.parse.urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80), 1):
            return True
    except OSError:
        return False


def refuse_taken(addresses: list[tuple[str, str]]) -> None:
    """Exit before starting anything when one of ``addresses`` (url, whose) is taken: a server
    left over from an earlier run would answer this run's requests, and what its log says
    would not be this run's."""
    for url, whose in addresses:
        if port_taken(url):
            raise SystemExit(
                f"benchmarks/peers.py: something already answers at {url}, {whose} address: "
                "stop it first (or choose another port)"
            )


def start(command: list[str], cpu: int | None, log: Path) -> subprocess.Popen[bytes]:
    def pin() -> None:
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})

    with log.open("wb") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, preexec_fn=pin)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def server_log_figures(text: str) -> dict[str, Any]:
    """Our server's answers that were not the bot's own, and its warnings, from its log."""
    lines = text.splitlines()
    kinds: dict[str, int] = {}
    for line in lines:
        if " -> " in line and "(fallback:" in line:
            how = line.split("(fallback:", 1)[1].split(";", 1)[0]
            kinds[how] = kinds.get(how, 0) + 1
    warnings = [line for line in lines if " WARNING " in line]
    return {"fallbacks": kinds, "warnings": len(warnings), "first_warnings": warnings[:5]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--peer-command", required=True, help="the shell command starting the peer")
    parser.add_argument(
        "--peer-url", required=True, help="where the peer answers, e.g. http://127.0.0.1:8001"
    )
    parser.add_argument("--peer-name", default="peer", help="the peer's name in the output")
    parser.add_argument("--level", default="expert", help="our bot's level (or variant) to serve")
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals per seed")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2], help="arena seeds")
    parser.add_argument("--port", type=int, default=8802, help="our server's port on loopback")
    parser.add_argument("--our-cpu", type=int, default=None, help="pin our server to this core")
    parser.add_argument("--peer-cpu", type=int, default=None, help="pin the peer to this core")
    parser.add_argument("--arena-cpu", type=int, default=None, help="pin this process to a core")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--deals-out",
        type=Path,
        default=None,
        help="write every round played (arena.deal_record, with its seed) to this file, "
        "one JSON object a line, to study where each side wins and loses",
    )
    args = parser.parse_args()

    if args.arena_cpu is not None:
        os.sched_setaffinity(0, {args.arena_cpu})
    ours_url = f"http://127.0.0.1:{args.port}"
    ours_cmd = [sys.executable, "-m", "twentynine.cli", "bot", "serve", "--protocol", "bhoos"]
    ours_cmd += ["--level", args.level, "--host", "127.0.0.1", "--port", str(args.port)]
    rules = preset("bhoos")
    counts = {"ours": SideCounts(), "peer": SideCounts()}
    clients: list[CountingBhoosBot] = []

    def factory(url: str, side: str) -> PlayerFactory:
        def make(_seed: int) -> CountingBhoosBot:
            bot = CountingBhoosBot(url, counts[side])
            clients.append(bot)
            return bot

        return make

    totals: dict[str, Any] = {
        "games": [0, 0],
        "contracts": [0, 0],
        "made": [0, 0],
        "invalid": 0,
        "seconds": 0.0,
    }
    per_seed = []
    rounds: list[dict[str, Any]] = []
    deals_out = args.deals_out.open("w") if args.deals_out else None
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        ours_log, peer_log = Path(tmp) / "ours.log", Path(tmp) / "peer.log"
        refuse_taken([(ours_url, "our server's"), (args.peer_url, "the peer's")])
        ours = start(ours_cmd, args.our_cpu, ours_log)
        peer: subprocess.Popen[bytes] | None = None
        try:  # our server is stopped however the rest fails (the peer's command too)
            peer = start(shlex.split(args.peer_command), args.peer_cpu, peer_log)
            wait_for(ours_url, ours, "our server")
            wait_for(args.peer_url.rstrip("/"), peer, "the peer")
            for seed in args.seeds:

                def record(deal: dict[str, Any], seed: int = seed) -> None:
                    rounds.append(played := {"seed": seed, **deal})
                    if deals_out is not None:
                        deals_out.write(json.dumps(played) + "\n")
                        deals_out.flush()

                result = run_arena(
                    args.level,
                    args.peer_name,
                    args.deals,
                    seed,
                    rules,
                    "bhoos",
                    factories=(factory(ours_url, "ours"), factory(args.peer_url, "peer")),
                    on_round=record,
                )
                data = result.to_json()
                per_seed.append(
                    {
                        "seed": seed,
                        "games": [data["a"]["games_won"], data["b"]["games_won"]],
                        "seconds": data["seconds"],
                    }
                )
                for i, side in enumerate(("a", "b")):
                    totals["games"][i] += data[side]["games_won"]
                    totals["contracts"][i] += data[side]["contracts"]
                    totals["made"][i] += data[side]["contracts_made"]
                totals["invalid"] += data["invalid_deals"]
                totals["seconds"] += data["seconds"]
                for bot in clients:
                    bot.finish()
                    bot.close()
                clients.clear()
        finally:
            stop(ours)
            if peer is not None:
                stop(peer)
            if deals_out is not None:
                deals_out.close()
        served = server_log_figures(ours_log.read_text(errors="replace"))
    load_after = os.getloadavg()

    games = totals["games"][0] + totals["games"][1]
    lo, hi = wilson_interval(totals["games"][0], games)
    out = {
        "level": args.level,
        "peer": args.peer_name,
        "peer_command": args.peer_command,
        "duplicate_deals_per_seed": args.deals,
        "seeds": args.seeds,
        "games_played": 2 * args.deals * len(args.seeds),
        "games_decided": games,
        "games_won": {"ours": totals["games"][0], "peer": totals["games"][1]},
        "our_win_rate": round(totals["games"][0] / games, 4) if games else None,
        "our_win_rate_ci95": [round(lo, 4), round(hi, 4)],
        "contracts": {
            "ours": {"made": totals["made"][0], "attempted": totals["contracts"][0]},
            "peer": {"made": totals["made"][1], "attempted": totals["contracts"][1]},
        },
        "invalid_deals": totals["invalid"],
        "swings": swings(rounds, args.level),
        "sides": {side: c.to_json() for side, c in counts.items()},
        "our_server": served,
        "per_seed": per_seed,
        "seconds": round(totals["seconds"], 1),
        "load_average": {"before": load_before, "after": load_after},
    }
    if args.json:
        print(json.dumps(out))
        return
    s_ours, s_peer = out["sides"]["ours"], out["sides"]["peer"]
    print(
        f"{args.level} (ours) vs {args.peer_name}: {out['games_played']} games "
        f"({args.deals} duplicate deals x seeds {args.seeds}), {out['seconds']} s"
    )
    print(
        f"  games won        ours {totals['games'][0]}  peer {totals['games'][1]}  "
        f"(of {games} decided; {totals['invalid']} void)  our rate {out['our_win_rate']} "
        f"(95% CI {out['our_win_rate_ci95']})"
    )
    print(
        f"  contracts made   ours {totals['made'][0]}/{totals['contracts'][0]}  "
        f"peer {totals['made'][1]}/{totals['contracts'][1]}"
    )
    sw = out["swings"]
    print(
        f"  duplicate deals  won both games: ours {sw['ours']}, peer {sw['peer']}; "
        f"one each {sw['split']}; with a void game {sw['void']}"
    )
    for name, s in (("ours", s_ours), ("peer", s_peer)):
        print(
            f"  {name:<5} answers {s['answers']}, illegal {s['illegal_answers']}, "
            f"HTTP errors {s['http_errors']}, deals over budget {s['deals_over_budget']} "
            f"of {s['deals']}, least time left {s['least_time_left_ms']} ms, "
            f"answer ms p50/p95/max {s['answer_ms_p50']}/{s['answer_ms_p95']}/{s['answer_ms_max']}"
        )
    print(f"  our server       fallbacks {served['fallbacks']}, warnings {served['warnings']}")
    print(f"  load average     before {load_before}, after {load_after}")


if __name__ == "__main__":
    main()
