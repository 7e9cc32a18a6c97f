"""Our bots behind the Bhoos 2023 bot protocol: an HTTP server the Bhoos game server can call.

``create_app(level, seed)`` is a FastAPI app serving ``GET /hi``, ``POST /bid``,
``POST /chooseTrump`` and ``POST /play`` with CORS headers for every origin; each request is
answered by a ``player.BhoosPlayer`` (our bot deciding from our seat's view of a state rebuilt
from the request, in the deal's planned time: ``timing.py``). Only a malformed body gets HTTP
400 with ``{"error": "bad_request", "reason": "..."}``; a well-formed one that our engine cannot
replay is answered from the request itself. Every answer's time is logged and sent back in the
``X-Answer-Time-Ms`` header. ``register`` adds ``bot serve --protocol bhoos`` to a command
line.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from ..engine.rules import Rules
from .payload import PayloadError
from .player import BhoosPlayer, logger
from .timing import SAFETY_MS

ANSWER_TIME_HEADER = "X-Answer-Time-Ms"
#: seconds an idle keep-alive connection stays open
KEEP_ALIVE_S = 120


def _error(status: int, error: str, reason: str) -> JSONResponse:
    return JSONResponse({"error": error, "reason": reason}, status_code=status)


def create_app(
    level: str = "random",
    seed: int | None = None,
    *,
    rules: Rules | None = None,
    safety_ms: float = SAFETY_MS,
) -> FastAPI:
    """A FastAPI app answering the Bhoos protocol with our bot of ``level``."""
    player = BhoosPlayer(level, seed, rules=rules, safety_ms=safety_ms)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(player.warm_up)
        yield
        player.close()

    app = FastAPI(
        title="twentynine Bhoos bot",
        description=f"Our {level} bot speaking the Bhoos 2023 29 bot protocol.",
        lifespan=lifespan,
    )
    app.add_middleware(
        CORSMiddleware,
        allow_origins=["*"],
        allow_methods=["*"],
        allow_headers=["*"],
        expose_headers=[ANSWER_TIME_HEADER],
    )
    app.state.player = player

    @app.get("/hi")
    async def hi() -> dict[str, str]:
        return {"value": "hello"}

    async def handle(endpoint: str, request: Request) -> Response:
        t0 = time.perf_counter()
        raw = await request.body()
        try:
            body = json.loads(raw)
        except ValueError as e:
            return _error(400, "bad_request", f"the body is not JSON: {e}")
        try:
            ans = await run_in_threadpool(player.answer, endpoint, body, t0)
        except PayloadError as e:
            logger.warning("bhoos /%s: 400 %s", endpoint, e)
            return _error(400, "bad_request", str(e))
        except Exception as e:
            logger.exception("bhoos /%s: internal error", endpoint)
            return _error(500, "internal_error", f"{type(e).__name__}: {e}")
        return JSONResponse(ans.body, headers={ANSWER_TIME_HEADER: f"{ans.elapsed_ms:.1f}"})

    @app.post("/bid")
    async def bid(request: Request) -> Response:
        return await handle("bid", request)

    @app.post("/chooseTrump")
    async def choose_trump(request: Request) -> Response:
        return await handle("chooseTrump", request)

    @app.post("/play")
    async def play(request: Request) -> Response:
        return await handle("play", request)

    return app


def serve(
    level: str = "random",
    host: str = "127.0.0.1",
    port: int = 8001,
    seed: int | None = None,
    log_level: str = "info",
) -> None:
    """Run the Bhoos protocol server with uvicorn until stopped."""
    import uvicorn

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(message)s")
    # a game server keeps its connection open between a deal's requests, which on a busy
    # machine can be more than uvicorn's default 5 s apart: a connection closed just as the
    # next request goes out is an HTTP error on the caller's side (seen once in 3,919 answers)
    uvicorn.run(
        create_app(level, seed),
        host=host,
        port=port,
        log_level=log_level,
        timeout_keep_alive=KEEP_ALIVE_S,
    )


# -- command line -------------------------------------------------------------------------------
def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``bot serve --protocol bhoos --level L --host H --port P`` to a CLI.

    ``subparsers`` is the object ``ArgumentParser.add_subparsers()`` returned. A ``bot``
    command already there is reused. Returns the ``serve`` parser."""
    choices = getattr(subparsers, "choices", {}) or {}
    bot = choices.get("bot")
    if bot is None:
        bot = subparsers.add_parser("bot", help="computer players: serve them over a protocol")
    sub = next((a for a in bot._actions if isinstance(a, argparse._SubParsersAction)), None)
    if sub is None:
        sub = bot.add_subparsers(title="bot commands")
    p = sub.add_parser("serve", help="serve one of our bots over HTTP (the Bhoos 2023 protocol)")
    p.add_argument(
        "--protocol", choices=["bhoos"], default="bhoos", help="the bot protocol (Bhoos 2023)"
    )
    p.add_argument("--level", default="random", help="bot level (see twentynine.bots.LEVELS)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (%(default)s)")
    p.add_argument("--port", type=int, default=8001, help="port (%(default)s)")
    p.add_argument("--seed", type=int, default=None, help="repeatable bot choices")
    p.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="log level; info logs every answer with its time (default %(default)s)",
    )
    p.set_defaults(func=cmd_bot_serve)
    parser: argparse.ArgumentParser = p
    return parser


def cmd_bot_serve(args: argparse.Namespace) -> int:
    from ..bots import LEVELS, VARIANTS

    if args.level not in LEVELS and args.level not in VARIANTS:
        print(f"error: unknown bot level {args.level!r}; choose one of: {', '.join(LEVELS)}")
        return 2
    serve(args.level, args.host, args.port, args.seed, args.log_level)
    return 0
