"""The HTTP-free core of our Bhoos bot server: a request read, our seat's view of an engine state
rebuilt from it (``rebuild.reconstruct``), and our bot's decision from that view only, so the
cards guessed for the other seats never reach it. A well-formed request that no engine state
fits (other servers allow what ours does not) is answered legally from the request itself
(``fallback.py``) and logged as a warning. A bot with a settable ``budget_ms`` is told its share
of the deal's time (``timing.answer_budget_ms``; a searching bot may solve as many sampled
deals as that allows), and a bot that has not answered by then is overruled by a quick legal
choice."""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, replace
from typing import Any

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
from .timing import SAFETY_MS, Overhead, answer_budget_ms

logger = logging.getLogger("twentynine.bhoos")

#: below this many milliseconds the bot is not asked at all
MIN_THINK_MS = 5.0
#: the part of an answer's share the bot itself is told it may use
BOT_SHARE = 0.85
#: the most sampled deals a searching bot solves for one card when served (at our own tables
#: it keeps its own smaller cap: decisions there are timed for people)
SERVED_MAX_WORLDS = 2000
#: the longest the start-up decision may take (a bot may compile code on first use)
WARM_UP_MS = 30_000.0


@dataclass(frozen=True)
class Answer:
    body: dict[str, Any]
    action: Action
    elapsed_ms: float
    budget_ms: float
    how: str  # "bot", "forced" (one legal action) or "fallback:<why>"


class BhoosPlayer:
    """Answers protocol requests with one of our bots."""

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
