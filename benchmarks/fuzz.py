"""A longer fuzz run of the HTTP API, the table socket and the Bhoos bot server (the fuzzers of
``tests/server/test_fuzz_http.py``, ``tests/server/test_fuzz_socket.py`` and
``tests/bhoos/test_fuzz.py``, with more inputs).

Prints how many inputs were sent, the answers they got, and every failure (a 5xx, a state change
from a refused input, a broken invariant) with its input; known bugs are counted apart. The exit
status is 1 when something failed. ``--json`` for one JSON object.

    uv run python benchmarks/fuzz.py [--http N] [--socket N] [--bhoos N] [--batch B]
                                     [--seed S] [--database-url URL] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import sys
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests package

from asgi_lifespan import LifespanManager
from fastapi.testclient import TestClient
from hypothesis.errors import HypothesisDeprecationWarning

from tests.bhoos import test_fuzz as fuzz_bhoos
from tests.server import test_fuzz_http as fuzz_http
from tests.server import test_fuzz_socket as fuzz_socket
from tests.server.conftest import (
    live_settings,
    own_database,
    start_live,
)
from twentynine.bhoos.server import create_app as create_bhoos_app
from twentynine.server.app import create_app
from twentynine.server.settings import Settings


@contextlib.asynccontextmanager
async def database(given: str, folder: Path, name: str) -> AsyncIterator[str]:
    """A fresh SQLite file, or a fresh database on the PostgreSQL server of ``given`` (made
    and dropped here, as the tests do)."""
    if not given:
        yield f"sqlite+aiosqlite:///{folder / name}"
        return
    async with own_database(given) as url:
        yield url


async def http_run(
    folder: Path, url: str, examples: int, batch: int, seed: int | None
) -> dict[str, Any]:
    settings = Settings(
        data_dir=folder, database_url=url, secret_key="fuzz", dev_mode=True, bot_delay_ms=0
    )
    app = create_app(settings)
    start = time.perf_counter()
    async with LifespanManager(app):
        fuzzer = await fuzz_http.run_http_fuzz(app, examples, batch, seed)
    classes = Counter(f"{s // 100}xx" for s in fuzzer.statuses.elements())
    return {
        "requests": fuzzer.requests,
        "statuses": dict(sorted(classes.items())),
        "status_codes": {str(k): v for k, v in sorted(fuzzer.statuses.items())},
        "operations": len(fuzzer.per_operation),
        "failures": [
            {"kind": key, "request": f.request, "detail": f.detail}
            for key, f in fuzzer.failures.items()
        ],
        "failed_requests": fuzzer.failure_count,
        "known_bugs": dict(fuzzer.known),
        "seconds": round(time.perf_counter() - start, 1),
    }


async def socket_run(
    folder: Path, url: str, examples: int, batch: int, seed: int | None
) -> dict[str, Any]:
    live, stop = await start_live(live_settings(folder, url, socket_messages_per_10s=10**9))
    start = time.perf_counter()
    try:
        fuzzer = await fuzz_socket.run_socket_fuzz(
            live, url, examples, batch, fuzz_socket.CONNECT_ATTEMPTS * 2, seed
        )
    finally:
        await stop()
    game = fuzzer.runtime.game
    return {
        "messages": fuzzer.messages,
        "connection_attempts": fuzzer.connects,
        "answers": dict(fuzzer.reasons.most_common()),
        "accepted": dict(fuzzer.accepted),
        "concurrent_rounds": fuzzer.concurrent_rounds,
        "deals": game.deals if game else 0,
        "failures": [
            {"kind": key, "message": f.message, "detail": f.detail}
            for key, f in fuzzer.failures.items()
        ],
        "failed_messages": fuzzer.failure_count,
        "known_bugs": dict(fuzzer.known),
        "seconds": round(time.perf_counter() - start, 1),
    }


def bhoos_run(examples: int, seed: int | None) -> dict[str, Any]:
    """Bent Bhoos requests to the served random bot (every request goes through the same
    rebuilding and fallback as the expert's; the bot only picks among the legal answers)."""
    start = time.perf_counter()
    with TestClient(create_bhoos_app("random", seed=29)) as client:
        fuzz = fuzz_bhoos.run_bhoos_fuzz(client, examples, seed)
    return {
        "requests": sum(fuzz.requests.values()),
        "endpoints": dict(fuzz.requests.most_common()),
        "bends": dict(fuzz.bends.most_common()),
        "failures": [
            {"kind": f["detail"][:80], "request": f["request"], "detail": f["detail"]}
            for f in fuzz.failures
        ],
        "seconds": round(time.perf_counter() - start, 1),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.http:
            async with database(args.database_url, folder, "http.db") as url:
                out["http"] = await http_run(folder / "http", url, args.http, args.batch, args.seed)
        if args.socket:
            async with database(args.database_url, folder, "socket.db") as url:
                out["socket"] = await socket_run(
                    folder / "socket", url, args.socket, args.batch, args.seed
                )
    if args.bhoos:
        out["bhoos"] = await asyncio.to_thread(bhoos_run, args.bhoos, args.seed)
    out["inputs"] = (
        out.get("http", {}).get("requests", 0)
        + out.get("socket", {}).get("messages", 0)
        + out.get("bhoos", {}).get("requests", 0)
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--http", type=int, default=1000, help="batches of HTTP requests")
    parser.add_argument("--socket", type=int, default=600, help="batches of socket messages")
    parser.add_argument(
        "--bhoos", type=int, default=3000, help="bent requests to the Bhoos bot server"
    )
    parser.add_argument("--batch", type=int, default=20, help="inputs in a batch")
    parser.add_argument("--seed", type=int, default=None, help="Hypothesis seed")
    parser.add_argument(
        "--database-url",
        default="",
        help="a PostgreSQL server to make a fresh database on (default: a fresh SQLite file)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.CRITICAL)  # the refused inputs are the point
    # the keepalive pings of websockets and uvicorn use the global random in other threads
    warnings.filterwarnings(
        "ignore", "Do not use the `random` module", HypothesisDeprecationWarning
    )
    result = asyncio.run(run(args))
    failed = any(result.get(k, {}).get("failures") for k in ("http", "socket", "bhoos"))
    if args.json:
        print(json.dumps(result))
        sys.exit(1 if failed else 0)
    print(f"fuzz: {result['inputs']} inputs")
    if "http" in result:
        h = result["http"]
        print(
            f"  HTTP    {h['requests']:>7} requests on {h['operations']} operations "
            f"in {h['seconds']} s: {h['statuses']}"
        )
    if "socket" in result:
        s = result["socket"]
        print(
            f"  socket  {s['messages']:>7} messages, {s['connection_attempts']} connection "
            f"attempts, {s['deals']} deals, in {s['seconds']} s"
        )
        print(f"          answers {s['answers']}")
    if "bhoos" in result:
        b = result["bhoos"]
        print(f"  Bhoos   {b['requests']:>7} bent requests in {b['seconds']} s: {b['endpoints']}")
    for part in ("http", "socket", "bhoos"):
        r = result.get(part, {})
        for name, n in r.get("known_bugs", {}).items():
            print(f"  known bug ({part}, {n}×): {name}")
        for f in r.get("failures", []):
            print(f"  FAILED ({part}) {f['kind']}\n    {f.get('request') or f.get('message')}")
            print(f"    {f['detail'][:500]}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
