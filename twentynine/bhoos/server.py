"""Our bots behind the Bhoos 2023 bot protocol: an HTTP server the Bhoos game server can call.

``create_app(level, seed)`` is a FastAPI app serving ``GET /hi``, ``POST /bid``,
``POST /chooseTrump`` and ``POST /play`` with CORS headers for every origin. Each request is
rebuilt into an engine state (``rebuild.reconstruct``); our bot then decides from our seat's
``view`` of that state only, so the cards guessed for the other seats never reach it. A
well-formed request that no engine state fits (other servers allow what ours does not) is
answered legally from the request itself (``fallback.py``) and logged as a warning; only a
malformed body gets HTTP 400 with ``{"error": "bad_request", "reason": "..."}``.

Time: ``timeRemaining`` is what is left of the deal's 1500 ms, and the competition ran each
bot on one CPU, so the deal's time is planned (``answer_budget_ms``): after a reserve for the
network and the answers still to come, what is left is shared among this decision and the ones
to come by weight, the auction and the first tricks weighing most (the positions where thought
changes most; the last tricks nearly play themselves). A bot with a settable ``budget_ms`` is
told its share (and a searching bot may solve as many sampled deals as that time allows), and
a bot that has not answered by then is overruled by a quick legal choice. Every answer's time
is logged and sent back in the ``X-Answer-Time-Ms`` header.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Any

from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from ..bots import make_bot
from ..bots.solver import warm_up as solver_warm_up
from ..engine.actions import Act, Action
from ..engine.cards import ALL_CARDS
from ..engine.round import start_round
from ..engine.rules import Rules, preset
from ..engine.state import Phase
from ..engine.views import View, view
from .convert import answer_json, quick_choice, view_request
from .fallback import fallback_action
from .payload import DEAL_TIME_MS, DEALER, PayloadError, parse_request
from .payload import Request as BhoosRequest
from .rebuild import reconstruct

logger = logging.getLogger("twentynine.bhoos")

#: kept back from ``timeRemaining`` for the network and the game server's own work
SAFETY_MS = 120.0
#: kept back for each answer still to come (its request, rebuilding the state, the answer)
PER_ANSWER_MS = 8.0
#: below this many milliseconds the bot is not asked at all
MIN_THINK_MS = 5.0
#: the part of an answer's share the bot itself is told it may use
BOT_SHARE = 0.85
#: the weight of a decision in the deal's time plan: a bid, naming trump, and a card played
#: with n cards in hand (with one card left there is nothing to decide)
BID_WEIGHT = 1.5
TRUMP_WEIGHT = 1.5
PLAY_WEIGHTS = {8: 1.6, 7: 1.5, 6: 1.3, 5: 1.1, 4: 0.8, 3: 0.5, 2: 0.25, 1: 0.0}
#: the bids a seat may still make after this one, on average, and the chance it names trump
BIDS_TO_COME = 1.0
TRUMP_CHANCE = 0.5
#: the most sampled deals a searching bot solves for one card when served (at our own tables
#: it keeps its own smaller cap: decisions there are timed for people)
SERVED_MAX_WORLDS = 2000
ANSWER_TIME_HEADER = "X-Answer-Time-Ms"
#: seconds an idle keep-alive connection stays open
KEEP_ALIVE_S = 120
#: the longest the start-up decision may take (a bot may compile code on first use)
WARM_UP_MS = 30_000.0


def _plays_weight(cards: int) -> float:
    return sum(PLAY_WEIGHTS.get(n, 0.0) for n in range(1, cards + 1))


def answer_budget_ms(
    req: BhoosRequest, safety_ms: float = SAFETY_MS, per_answer_ms: float = PER_ANSWER_MS
) -> float:
    """The milliseconds this answer may take: the deal's remaining time, less a reserve for
    the network and the answers to come (``per_answer_ms`` each), times this decision's
    weight over the weights of this and every decision still to come (``PLAY_WEIGHTS``,
    ``BID_WEIGHT``, ...)."""
    if req.endpoint == "bid":
        now = BID_WEIGHT
        future = BIDS_TO_COME * BID_WEIGHT + TRUMP_CHANCE * TRUMP_WEIGHT + _plays_weight(8)
        answers = BIDS_TO_COME + TRUMP_CHANCE + 8
    elif req.endpoint == "chooseTrump":
        now, future, answers = TRUMP_WEIGHT, _plays_weight(8), 8
    else:
        n = max(1, len(req.cards))
        now = PLAY_WEIGHTS.get(n, 1.0)
        future = _plays_weight(n - 1)
        answers = n - 1
    usable = req.time_remaining - safety_ms - per_answer_ms * answers
    if now <= 0:  # one card left: whatever is left is this answer's
        return max(0.0, req.time_remaining - safety_ms)
    return max(0.0, usable * now / (now + future))


@dataclass(frozen=True)
class Answer:
    body: dict[str, Any]
    action: Action
    elapsed_ms: float
    budget_ms: float
    how: str  # "bot", "forced" (one legal action) or "fallback:<why>"


def deal_key(req: BhoosRequest) -> tuple[str, frozenset[int]]:
    """Names one seat's deal across its requests: the player and every card it has held
    (its hand and the cards it played), the same from one request to the next of a phase."""
    own = set(req.cards)  # (it is our turn: none of our cards is in the trick in progress)
    for t in req.hands_history:
        own.add(t.cards[(req.seat - t.leader) & 3])
    return req.pid(req.seat), frozenset(own)


class Overhead:
    """What the game server's clock charges beyond our own answer time (the network, the
    queues of a busy machine), learnt from one seat's successive requests: the drop in
    ``timeRemaining`` less our own time for the answer between. The reserve kept for each
    answer still to come follows the largest seen, forgetting slowly."""

    def __init__(self, floor_ms: float = PER_ANSWER_MS, keep: int = 512) -> None:
        self.floor_ms = floor_ms
        self.estimate_ms = floor_ms
        self._last: dict[tuple[str, frozenset[int]], tuple[float, float]] = {}
        self._keep = keep
        self._lock = threading.Lock()

    def seen(self, req: BhoosRequest) -> None:
        """Learn from ``req`` if the same seat's previous request of this deal is known."""
        with self._lock:
            last = self._last.get(deal_key(req))
            if last is None:
                return
            remaining, ours = last
            extra = remaining - req.time_remaining - ours
            if 0 <= extra < remaining:
                self.estimate_ms = max(self.floor_ms, 0.95 * self.estimate_ms, extra)

    def answered(self, req: BhoosRequest, elapsed_ms: float) -> None:
        with self._lock:
            if len(self._last) >= self._keep:
                self._last.clear()
            self._last[deal_key(req)] = (req.time_remaining, elapsed_ms)

    @property
    def reserve_ms(self) -> float:
        return self.estimate_ms


class BhoosPlayer:
    """Answers protocol requests with one of our bots; the HTTP-free core of the server."""

    def __init__(
        self,
        level: str = "random",
        seed: int | None = None,
        *,
        rules: Rules | None = None,
        safety_ms: float = SAFETY_MS,
        workers: int = 4,
    ) -> None:
        self.level = level
        self.bot = make_bot(level, seed)
        if hasattr(self.bot, "max_worlds"):  # served: as many sampled deals as time allows
            self.bot.max_worlds = SERVED_MAX_WORLDS
        self.rules = rules if rules is not None else preset("bhoos")
        self.safety_ms = safety_ms
        self._rng = random.Random(seed)
        self._rng_lock = threading.Lock()
        self._bot_lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bhoos-bot")
        self.overhead = Overhead()

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def warm_up(self) -> None:
        """Decide one made-up request (the first bid of a fixed deal), allowing up to
        ``WARM_UP_MS``, so that the first real request finds the bot thread started, every
        module loaded and anything the bot compiles on first use compiled."""
        t0 = time.perf_counter()
        if getattr(self.bot, "uses_solver", False):  # its first card would compile the solver
            solver_warm_up()
        st, _ = start_round(self.rules, DEALER, ALL_CARDS)
        endpoint, body = view_request(view(st, st.speaker), DEAL_TIME_MS)
        _, v = self.state_for(endpoint, body)
        try:
            self._pool.submit(self._run_bot, v, WARM_UP_MS).result(timeout=WARM_UP_MS / 1000)
        except FutureTimeout:
            logger.warning("bhoos: the %s bot is still warming up", self.level)
            return
        logger.info("bhoos: %s bot ready in %.0f ms", self.level, (time.perf_counter() - t0) * 1000)

    def state_for(self, endpoint: str, body: object) -> tuple[BhoosRequest, View]:
        """The request read and our seat's view of a state rebuilt from it (``PayloadError``
        when the body is malformed or no engine state fits it)."""
        req = parse_request(endpoint, body)
        return req, self.view_for(req)

    def view_for(self, req: BhoosRequest) -> View:
        """Our seat's view of an engine state rebuilt from ``req``. When the calls do not
        replay (an auction other bots' servers allow and ours does not know), the play is
        rebuilt from what ``teams`` and ``trumpSuit`` say of the contract instead."""
        with self._rng_lock:
            seed = self._rng.getrandbits(64)
        try:
            st = reconstruct(req, self.rules, random.Random(seed))
        except PayloadError as e:
            if req.endpoint != "play" or req.bid_history is None:
                raise
            logger.warning(
                "bhoos /play %s: no engine state fits the request (%s); trying again with "
                "the contract read from teams and trumpSuit instead of bidHistory",
                req.pid(req.seat),
                e,
            )
            st = reconstruct(replace(req, bid_history=None), self.rules, random.Random(seed))
        return _keep_to_matching(view(st, req.seat))

    def answer(self, endpoint: str, body: object, started: float | None = None) -> Answer:
        """Our answer to ``body`` sent to ``endpoint``. Raises ``PayloadError`` on a malformed
        body only: a well-formed request that our engine cannot replay is answered from the
        request itself (``fallback.py``), with a warning in the log saying why.

        ``started`` is the ``time.perf_counter()`` at which the request arrived."""
        t0 = time.perf_counter() if started is None else started
        req = parse_request(endpoint, body)
        self.overhead.seen(req)
        budget = answer_budget_ms(req, self.safety_ms, self.overhead.reserve_ms)
        try:
            v = self.view_for(req)
        except PayloadError as e:
            logger.warning(
                "bhoos /%s %s: no engine state fits the request (%s); answering from the "
                "request itself",
                endpoint,
                req.pid(req.seat),
                e,
            )
            action, how = fallback_action(req, self.rules), "fallback:request"
        else:
            action, how = self._decide(v, t0, budget)
        out = answer_json(action)
        elapsed = (time.perf_counter() - t0) * 1000
        self.overhead.answered(req, elapsed)
        level = logging.WARNING if elapsed > budget and how != "forced" else logging.INFO
        logger.log(
            level,
            "bhoos /%s %s -> %s in %.1f ms (%s; budget %.0f ms of timeRemaining %.0f)",
            endpoint,
            req.pid(req.seat),
            json.dumps(out),
            elapsed,
            how,
            budget,
            req.time_remaining,
        )
        return Answer(out, action, elapsed, budget, how)

    def _decide(self, v: View, t0: float, budget_ms: float) -> tuple[Action, str]:
        legal = v.legal
        if len(legal) == 1:
            return legal[0], "forced"
        left = budget_ms - (time.perf_counter() - t0) * 1000
        if left < MIN_THINK_MS:
            return quick_choice(v), "fallback:no_time"
        future = self._pool.submit(self._run_bot, v, left)
        try:
            action = future.result(timeout=left / 1000)
        except FutureTimeout:
            logger.warning("bhoos: the %s bot took more than %.0f ms", self.level, left)
            return quick_choice(v), "fallback:timeout"
        except Exception:
            logger.exception("bhoos: the %s bot failed", self.level)
            return quick_choice(v), "fallback:error"
        if action not in legal:
            logger.error("bhoos: the %s bot chose an illegal action %s", self.level, action)
            return quick_choice(v), "fallback:illegal"
        return action, "bot"

    def _run_bot(self, v: View, left_ms: float) -> Action:
        # one decision at a time: a bot may keep state between calls
        if not self._bot_lock.acquire(timeout=left_ms / 1000):
            raise FutureTimeout
        try:
            if hasattr(self.bot, "budget_ms"):
                self.bot.budget_ms = max(1.0, left_ms * BOT_SHARE)
            return self.bot.choose(v)
        finally:
            self._bot_lock.release()


def _keep_to_matching(v: View) -> View:
    """Our bots answer a challenge by matching it or passing, never higher: the Bhoos rules
    let a defender raise (we accept it from others), but a referee that follows the
    organisers' example may not, and a raise only raises our own target."""
    if v.phase is not Phase.AUCTION or v.holder is None or v.holder != v.viewer:
        return v
    keep = tuple(a for a in v.legal if a.act is not Act.BID or a.arg == v.bid)
    return v if keep == v.legal else replace(v, legal=keep)


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
