"""A bot served over the Bhoos protocol, timed from its own log, under a real arena match.

Starts ``twentynine bot serve --protocol bhoos`` in a subprocess, plays ``--deals`` duplicate
deals (each twice) of the ``bhoos`` preset against ``--against`` through HTTP, stops the server
and reads every answer's line from its log: how long it took, how much of the deal's 1500 ms
the request still had (``timeRemaining``), and whether the answer was the bot's own or an
in-time fallback. The deal budget is overrun when an answer took longer than the time the deal
had left; the server's own share of that time for one answer (its budget) is counted apart, as a
fallback cut at that share lands just past it.

    uv run python benchmarks/bhoos.py [--level expert] [--against intermediate]
        [--deals 40] [--seed 3] [--port 8801] [--server-cpu N] [--arena-cpu N] [--json]

``--server-cpu`` / ``--arena-cpu`` pin the server / this process to one core each (Linux).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from twentynine.arena import run_arena
from twentynine.engine import preset

LINE = re.compile(
    r"bhoos /(?P<endpoint>\w+) \S+ -> .* in (?P<ms>[\d.]+) ms "
    r"\((?P<how>[\w:]+); budget (?P<budget>[\d.]+) ms of timeRemaining (?P<left>[\d.]+)\)"
)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def read_log(text: str) -> dict[str, Any]:
    """The figures of every answer line in a server log."""
    answers = [m for m in map(LINE.search, text.splitlines()) if m]
    if not answers:
        raise SystemExit("benchmarks/bhoos.py: no answer lines in the server's log")
    ms = [float(m["ms"]) for m in answers]
    decided = [float(m["ms"]) for m in answers if m["how"] != "forced"]
    hows: dict[str, int] = {}
    for m in answers:
        hows[m["how"]] = hows.get(m["how"], 0) + 1
    over_budget = sum(
        1 for m in answers if m["how"] != "forced" and float(m["ms"]) > float(m["budget"])
    )
    overruns = sum(1 for m in answers if float(m["ms"]) > float(m["left"]))
    return {
        "answers": len(answers),
        "answers_by_kind": hows,
        "fallbacks": sum(n for how, n in hows.items() if how.startswith("fallback")),
        "deal_budget_overruns": overruns,
        "over_answer_budget": over_budget,
        "least_time_remaining_ms": min(float(m["left"]) for m in answers),
        "answer_ms_p50": quantile(ms, 0.5),
        "answer_ms_p95": quantile(ms, 0.95),
        "answer_ms_max": max(ms),
        "decided_ms_p50": quantile(decided, 0.5) if decided else None,
        "decided_ms_p95": quantile(decided, 0.95) if decided else None,
    }


def wait_for(url: str, server: subprocess.Popen[bytes], timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"benchmarks/bhoos.py: the server exited ({server.returncode})")
        try:
            with urllib.request.urlopen(url + "/hi", timeout=2) as response:
                if json.load(response) == {"value": "hello"}:
                    return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"benchmarks/bhoos.py: no answer from {url}/hi in {timeout:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--against", default="intermediate")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--port", type=int, default=8801)
    parser.add_argument("--server-cpu", type=int, default=None)
    parser.add_argument("--arena-cpu", type=int, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    cpu = args.server_cpu

    def pin() -> None:
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})

    if args.arena_cpu is not None:
        os.sched_setaffinity(0, {args.arena_cpu})
    url = f"http://127.0.0.1:{args.port}"
    command = [sys.executable, "-m", "twentynine.cli", "bot", "serve", "--protocol", "bhoos"]
    command += ["--level", args.level, "--host", "127.0.0.1", "--port", str(args.port)]
    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "server.log"
        with log_path.open("wb") as log:
            server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, preexec_fn=pin)
            try:
                wait_for(url, server)
                result = run_arena(
                    url, args.against, args.deals, args.seed, preset("bhoos"), "bhoos"
                )
            finally:
                server.terminate()
                server.wait(timeout=30)
        figures = read_log(log_path.read_text())
    arena = result.to_json()
    out = {
        "level": args.level,
        "against": args.against,
        "duplicate_deals": args.deals,
        "seed": args.seed,
        "served": figures,
        "deals_decided": arena["deals_decided"],
        "served_deals_won": arena["a"]["deals_won"],
        "seconds": round(result.seconds, 1),
    }
    if args.json:
        print(json.dumps(out))
        return
    print(
        f"{args.level} served over the Bhoos protocol against {args.against}: "
        f"{2 * args.deals} deals (seed {args.seed}), {out['seconds']} s"
    )
    print(f"  answers                {figures['answers']}  {figures['answers_by_kind']}")
    print(f"  answer time p50/p95    {figures['answer_ms_p50']} / {figures['answer_ms_p95']} ms")
    print(f"  answer time max        {figures['answer_ms_max']} ms")
    print(f"  least timeRemaining    {figures['least_time_remaining_ms']:.0f} of 1500 ms")
    print(f"  fallbacks              {figures['fallbacks']}")
    print(f"  deal budget overruns   {figures['deal_budget_overruns']}")
    print(f"  over the answer budget {figures['over_answer_budget']}")
    print(f"  deals won              {out['served_deals_won']} of {out['deals_decided']} decided")


if __name__ == "__main__":
    main()
