"""An external Bhoos-protocol bot seated in our engine.

``BhoosBot(url)`` satisfies our ``Bot`` protocol: ``choose(view)`` sends the seat's view as a
Bhoos request (``/bid``, ``/chooseTrump`` or ``/play``), reads the answer and returns the engine
action, checked against ``view.legal``. Anything wrong (no connection, an HTTP error, a body
that is not JSON, a malformed or illegal answer) raises ``BhoosBotError`` saying what.

The protocol's rules are the engine's ``bhoos`` preset; any other rules raise
``BhoosBotError`` at once. ``timeRemaining`` starts at 1500 ms each deal and loses the time each
answer took; a new deal is noticed from the view (or announced with ``new_deal()``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from types import TracebackType
from typing import Any

import httpx2

from ..engine.actions import PLAYS, Action
from ..engine.cards import Card
from ..engine.rules import preset
from ..engine.state import Phase
from ..engine.views import View
from .convert import AnswerError, parse_answer, view_request
from .payload import DEAL_TIME_MS, PLAYER_IDS, card_to_bhoos

logger = logging.getLogger("twentynine.bhoos.client")


class BhoosBotError(RuntimeError):
    """The external bot could not be reached, or its answer was malformed or illegal."""


_PHASE_ORDER = {Phase.AUCTION: 0, Phase.TRUMP: 1, Phase.PLAY: 2}


class BhoosBot:
    """A Bhoos-protocol bot at ``url`` playing one of our seats (``Bot`` protocol)."""

    def __init__(
        self,
        url: str,
        timeout: float = 5.0,
        *,
        name: str | None = None,
        player_ids: Sequence[str] = PLAYER_IDS,
        strict_time: bool = False,
        client: httpx2.Client | None = None,
    ) -> None:
        """``timeout``: seconds for one HTTP request. ``strict_time``: raise when the bot
        overruns the deal's 1500 ms (otherwise a warning is logged). ``client``: an httpx2
        client to use instead of a new one (its ``base_url`` is ignored; ``url`` is used)."""
        if len(player_ids) != 4 or len(set(player_ids)) != 4:
            raise ValueError(f"player_ids must be 4 distinct ids, not {list(player_ids)!r}")
        self.url = url.rstrip("/")
        self.name = name or f"bhoos:{self.url}"
        self.timeout = timeout
        self.player_ids = tuple(player_ids)
        self.strict_time = strict_time
        self._own_client = client is None
        self._client = client if client is not None else httpx2.Client(timeout=timeout)
        self._rules = preset("bhoos")
        self.time_remaining_ms: float = DEAL_TIME_MS
        self.calls_made = 0
        self._progress: tuple[int, tuple[tuple[int, int], ...], int, int] | None = None
        self._pending: tuple[tuple[int, int], Card] | None = None  # ((tricks, in trick), card)

    # -- lifecycle ------------------------------------------------------------------------------
    def close(self) -> None:
        if self._own_client:
            self._client.close()

    def __enter__(self) -> BhoosBot:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def new_deal(self) -> None:
        """Start a new deal: a fresh 1500 ms and nothing left over from the last one."""
        self.time_remaining_ms = DEAL_TIME_MS
        self._progress = None
        self._pending = None

    def hello(self) -> bool:
        """``GET /hi``: True when the bot answers ``{"value": "hello"}``."""
        data = self._request("GET", "hi", None)
        return isinstance(data, dict) and data.get("value") == "hello"

    # -- the Bot protocol -----------------------------------------------------------------------
    def choose(self, view: View) -> Action:
        if view.rules != self._rules:
            raise BhoosBotError(
                "the Bhoos protocol plays the 'bhoos' preset's rules only; this table's rules "
                f"differ in: {', '.join(sorted(view.rules.overrides(self._rules))) or '?'}"
            )
        if view.viewer is None or not view.legal:
            raise BhoosBotError("nothing to choose: it is not this seat's turn")
        self._track_deal(view)
        key = (len(view.tricks), len(view.trick))
        if self._pending is not None:
            where, card = self._pending
            self._pending = None
            if where == key:  # the card sent with revealTrump, now that trump is shown
                action = PLAYS[view.viewer][card]
                if action not in view.legal:
                    raise BhoosBotError(
                        f"{self.url}/play: the bot sent revealTrump with {card_to_bhoos(card)}, "
                        "which it may not play once trump is shown"
                    )
                return action
        endpoint, body = view_request(view, self.time_remaining_ms, self.player_ids)
        data = self._request("POST", endpoint, body)
        try:
            action, then = parse_answer(endpoint, data, view)
        except AnswerError as e:
            raise BhoosBotError(f"{self.url}/{endpoint}: bad answer: {e}") from None
        if then is not None:
            self._pending = (key, then)
        return action

    # -- helpers --------------------------------------------------------------------------------
    def _track_deal(self, view: View) -> None:
        """Notice a new deal: the auction started again, or the play went backwards."""
        progress = (_PHASE_ORDER.get(view.phase, 3), view.calls, len(view.tricks), len(view.trick))
        last = self._progress
        if last is not None:
            n = len(last[1])
            if (
                progress[0] < last[0]
                or view.calls[:n] != last[1]
                or (progress[0] == last[0] and progress[2:] < last[2:])
            ):
                self.new_deal()
        self._progress = progress

    def _request(self, method: str, endpoint: str, body: dict[str, Any] | None) -> Any:
        url = f"{self.url}/{endpoint}"
        t0 = time.perf_counter()
        try:
            if method == "GET":
                resp = self._client.get(url, timeout=self.timeout)
            else:
                resp = self._client.post(url, json=body, timeout=self.timeout)
        except httpx2.HTTPError as e:
            raise BhoosBotError(f"{url}: no answer: {type(e).__name__}: {e}") from None
        elapsed = (time.perf_counter() - t0) * 1000
        self.calls_made += 1
        if body is not None:
            self.time_remaining_ms -= elapsed
            logger.debug("%s: %.1f ms, %.0f ms left", url, elapsed, self.time_remaining_ms)
            if self.time_remaining_ms < 0:
                message = f"{url}: the bot overran the deal's {DEAL_TIME_MS} ms"
                if self.strict_time:
                    raise BhoosBotError(message)
                logger.warning(message)
        if resp.status_code != 200:
            raise BhoosBotError(f"{url}: HTTP {resp.status_code}: {resp.text[:300]}")
        try:
            return resp.json()
        except ValueError:
            raise BhoosBotError(f"{url}: the answer is not JSON: {resp.text[:300]!r}") from None
