"""Table page load: bytes transferred and time until the table is interactive, in Chromium.

Starts the server (a temporary SQLite database, bots without delay), signs in a guest and opens
a solo table against bots over HTTP, then loads ``/#/table/{id}`` in a fresh browser context
(an empty cache) for each run and measures:

- bytes: every HTTP response (headers + body as sent, so gzipped where the server gzips) and
  the table socket's frames;
- time to interactive: from the start of navigation until the table has drawn the guest's hand
  with at least one legal action to choose (the client marks ``tn-interactive`` then).

Goal: at most 200 KB and 1 s on localhost.

    uv run python benchmarks/page.py [--runs N] [--chromium PATH] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests package
from tests.web.chromium import CHROMIUM, CHROMIUM_ARGS

GOAL_BYTES = 200 * 1024
GOAL_SECONDS = 1.0
INTERACTIVE = "section.table-page[data-my-turn=true] .hand .card"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(data_dir: Path) -> tuple[str, subprocess.Popen[bytes]]:
    """``twentynine serve`` in its own process, as in real use (a server thread in this process
    would share the interpreter with the browser driver and be measured slower than it is)."""
    port = free_port()
    env = {
        **os.environ,
        "TWENTYNINE_DATA_DIR": str(data_dir),
        "TWENTYNINE_DATABASE_URL": f"sqlite:///{data_dir / 'bench.db'}",
        "TWENTYNINE_BOT_DELAY_MS": "0",
        "TWENTYNINE_NEXT_DEAL_SECONDS": "0.05",
    }
    command = [
        sys.executable,
        "-m",
        "twentynine.cli",
        "serve",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    log = (data_dir / "server.log").open("wb")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx2.get(f"{url}/healthz", timeout=1).status_code == 200:
                return url, process
        except httpx2.TransportError:
            pass
        if process.poll() is not None:
            break
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start:\n" + (data_dir / "server.log").read_text())


def guest_table(url: str) -> tuple[str, dict[str, str]]:
    """A guest session and a solo table against the best bots; returns (table id, cookies)."""
    with httpx2.Client(base_url=url) as client:
        client.post("/api/auth/guest", json={"first_name": "Bench"}).raise_for_status()
        best = client.get("/api/web/bots").json()["best"]
        r = client.post(
            "/api/tables",
            json={"kind": "solo", "seats": ["me", *[f"bot:{best}"] * 3]},
            headers={"X-CSRF-Token": client.cookies["tn_csrf"]},
        )
        r.raise_for_status()
        return r.json()["id"], dict(client.cookies)


async def one_load(
    browser: Any, url: str, table_id: str, cookies: dict[str, str]
) -> dict[str, Any]:
    context = await browser.new_context()
    await context.add_cookies([{"name": k, "value": v, "url": url} for k, v in cookies.items()])
    page = await context.new_page()
    responses: list[Any] = []
    frames = {"bytes": 0, "count": 0}
    page.on("response", lambda r: responses.append(r))

    def on_socket(ws: Any) -> None:
        def count(payload: str | bytes) -> None:
            frames["bytes"] += len(payload.encode() if isinstance(payload, str) else payload)
            frames["count"] += 1

        ws.on("framereceived", count)
        ws.on("framesent", count)

    page.on("websocket", on_socket)
    started = time.perf_counter()
    await page.goto(f"{url}/#/table/{table_id}")
    await page.wait_for_selector(INTERACTIVE, timeout=30_000)
    wall = time.perf_counter() - started
    marks = await page.evaluate(
        "(() => { const m = performance.getEntriesByName('tn-interactive')[0];"
        " const n = performance.getEntriesByType('navigation')[0];"
        " return {interactive: m ? m.startTime : null,"
        " dom: n ? n.domContentLoadedEventEnd : null}; })()"
    )
    http_bytes = 0
    for response in responses:
        sizes = await response.request.sizes()
        http_bytes += sizes["responseBodySize"] + sizes["responseHeadersSize"]
    await context.close()
    return {
        "requests": len(responses),
        "http_bytes": http_bytes,
        "socket_bytes": frames["bytes"],
        "bytes": http_bytes + frames["bytes"],
        "interactive_ms": round(marks["interactive"], 1) if marks["interactive"] else None,
        "dom_content_loaded_ms": round(marks["dom"], 1) if marks["dom"] else None,
        "wall_ms": round(wall * 1000, 1),
    }


async def measure(runs: int, chromium: str) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    with tempfile.TemporaryDirectory() as tmp:
        url, process = start_server(Path(tmp))
        try:
            async with async_playwright() as p:
                browser = await p.chromium.launch(
                    executable_path=chromium, headless=True, args=CHROMIUM_ARGS
                )
                loads = []
                for _ in range(runs):
                    table_id, cookies = guest_table(url)
                    loads.append(await one_load(browser, url, table_id, cookies))
                await browser.close()
        finally:
            process.terminate()
            process.wait(10)
    interactive = [x["interactive_ms"] for x in loads if x["interactive_ms"] is not None]
    median_ms = statistics.median(interactive) if interactive else None
    most_bytes = max(x["bytes"] for x in loads)
    return {
        "benchmark": "page",
        "runs": runs,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "bytes": most_bytes,
        "http_bytes": max(x["http_bytes"] for x in loads),
        "socket_bytes": max(x["socket_bytes"] for x in loads),
        "requests": max(x["requests"] for x in loads),
        "interactive_ms_median": median_ms,
        "interactive_ms_max": max(interactive) if interactive else None,
        "wall_ms_median": statistics.median(x["wall_ms"] for x in loads),
        "goal_bytes": GOAL_BYTES,
        "goal_ms": GOAL_SECONDS * 1000,
        "within_goal": bool(
            most_bytes <= GOAL_BYTES and median_ms is not None and median_ms <= GOAL_SECONDS * 1000
        ),
        "loads": loads,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--chromium", default=str(CHROMIUM))
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if not Path(args.chromium).exists():
        print(f"no Chromium at {args.chromium}", file=sys.stderr)
        return 2
    result = asyncio.run(measure(max(1, args.runs), args.chromium))
    if args.json:
        print(json.dumps(result))
        return 0
    kb = result["bytes"] / 1024
    print(f"table page, signed-in guest, {result['runs']} cold loads on localhost")
    print(
        f"  bytes transferred: {kb:.1f} KB (HTTP {result['http_bytes'] / 1024:.1f} KB in "
        f"{result['requests']} responses, socket {result['socket_bytes'] / 1024:.1f} KB); "
        f"goal {GOAL_BYTES // 1024} KB"
    )
    print(
        f"  time to interactive: median {result['interactive_ms_median']} ms, "
        f"max {result['interactive_ms_max']} ms (wall median {result['wall_ms_median']} ms); "
        f"goal {GOAL_SECONDS * 1000:.0f} ms"
    )
    print(f"  within goal: {'yes' if result['within_goal'] else 'NO'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
