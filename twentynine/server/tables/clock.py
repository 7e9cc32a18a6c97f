"""The turn clock: how long a person has for a move, and what happens when it runs out.

At a table with ``turn_seconds`` (0: no clock), each person whose move the game waits on has that
many seconds from the moment the move became theirs. The deadline is a wall-clock time kept in
the table's stored snapshot (so it survives a restart and every process reads the same one) and
sent in the table's state (so every client draws the same countdown). Only the process holding
the table's lease runs the timers.

When a clock runs out, the seat's stand-in bot makes that one move, through the table's queue
and with the seat's own view. After ``KEEP_AFTER`` timeouts in a row the stand-in keeps the seat
(``Seat.standin_cause == "clock"``) until the person acts again or says they are back. A seat a
bot plays (a bot's own, or a stand-in's) has no clock: bots never wait on it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from ...engine.game import GameState
from ...engine.round import to_act
from ...engine.state import Phase
from .base import TableParts
from .errors import TableError
from .seats import STANDIN_LEVEL

log = logging.getLogger("twentynine.tables")

#: timeouts in a row after which the stand-in keeps the seat
KEEP_AFTER = 2
#: the choices a table may have: no clock, or this many seconds a move
NO_CLOCK = 0
MIN_SECONDS, MAX_SECONDS = 5, 120
#: what a table gets when whoever opens it does not say
DEFAULT_SECONDS = {"public": 20}


def default_turn_seconds(kind: str) -> int:
    """Public tables of strangers have a clock; games among friends and solo games have none."""
    return DEFAULT_SECONDS.get(kind, NO_CLOCK)


def check_turn_seconds(seconds: int) -> int:
    if seconds != NO_CLOCK and not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise ValueError(
            f"turn_seconds is {NO_CLOCK} (no clock) or from {MIN_SECONDS} to {MAX_SECONDS}"
        )
    return seconds


class Cancellable(Protocol):
    def cancel(self) -> None: ...


def call_later(seconds: float, callback: Callable[[], None]) -> Cancellable:
    """The event loop's own timer: no task while it waits."""
    return asyncio.get_running_loop().call_later(seconds, callback)


#: a timer may go off this much before a deadline (the loop's clock and the wall clock differ
#: by rounding) and still count as at it
EARLY = 0.001


class TurnClock(TableParts):
    #: seat -> the wall-clock time its clock runs out
    deadlines: dict[int, float]
    #: one timer for the table, which goes off at ``clock_rings_at`` (no later than the first
    #: deadline; this process runs it while it holds the table's lease). Moves do not wind it
    #: again: a deadline that moved later is looked at when the timer goes off.
    clock_timer: Cancellable | None
    clock_rings_at: float
    #: where the clock reads the time and waits: a test gives a fake clock
    wall: Callable[[], float]
    clock_later: Callable[[float, Callable[[], None]], Cancellable]
    _clock_game: GameState | None
    _clock_moves: int

    def _init_clock(self) -> None:
        self.deadlines = {}
        self.clock_timer = None
        self.clock_rings_at = 0.0
        self.wall = time.time
        self.clock_later = call_later
        self._clock_game = None
        self._clock_moves = 0

    # -- whose clock runs -----------------------------------------------------------------------
    def waiting_on(self) -> tuple[int, ...]:
        """The seats whose move the game waits on and that a person plays now. (In play, only
        the seat whose turn it is: a pair may be declared in passing, but need not be.)"""
        game = self.game
        if game is None or self.status != "playing" or game.round.is_over:
            return ()
        rnd = game.round
        due = (rnd.turn,) if rnd.phase is Phase.PLAY else to_act(rnd)
        return tuple(s for s in due if not self.seats[s].controller)

    def wind_clock(self) -> None:
        """Set the deadlines for the state about to be stored: a seat keeps its running clock
        while others move; it gets a fresh one when the move becomes its own, after it moved
        (and must move again), in a new deal, and after a reset."""
        seconds = self.info.turn_seconds
        if not seconds:
            if self.deadlines:
                self.deadlines = {}
            return
        game = self.game
        moves = len(self.actions)
        mover = None
        fresh = False
        if game is not self._clock_game:
            if moves == self._clock_moves + 1:
                mover = self.actions[-1].get("seat")
            else:  # a new deal, or a reset: everyone starts afresh
                fresh = True
        now = self.wall()
        self.deadlines = {
            s: now + seconds
            if fresh or s == mover or s not in self.deadlines
            else self.deadlines[s]
            for s in self.waiting_on()
        }
        self._clock_game = game
        self._clock_moves = moves

    def clock_json(self) -> list[dict[str, Any]]:
        return [{"seat": s, "ends_at": at} for s, at in sorted(self.deadlines.items())]

    def _restore_clock(self, state: dict[str, Any]) -> None:
        self.deadlines = {int(s): float(at) for s, at in (state.get("clock") or {}).items()}
        for s, n in (state.get("timeouts") or {}).items():
            self.seats[int(s)].timeouts = int(n)
        self._clock_game = self.game
        self._clock_moves = len(self.actions)

    def _clock_snapshot(self) -> dict[str, Any]:
        return {
            "clock": {str(s): at for s, at in self.deadlines.items()},
            "timeouts": {str(i): s.timeouts for i, s in enumerate(self.seats) if s.timeouts},
        }

    # -- the timer -----------------------------------------------------------------------------
    def _arm_clock(self) -> None:
        """Have the timer go off by the first deadline (the lease holder only; none without a
        deadline). At most moves it is already set early enough, and nothing is done."""
        if not self.leader or not self.deadlines:
            self._stop_clock()
            return
        first = min(self.deadlines.values())
        if self.clock_timer is not None and self.clock_rings_at <= first:
            return
        self._stop_clock()
        self.clock_rings_at = first
        self.clock_timer = self.clock_later(max(0.0, first - self.wall()), self._clock_rings)

    def _clock_rings(self) -> None:
        self.clock_timer = None
        self.post(self._run_out)  # in the table's order; a failure is logged by the queue

    async def _run_out(self) -> None:
        """The timer went off: the first clock that ran out, if any, times out; then the timer
        is set again for what is left."""
        now = self.wall()
        due = sorted((at, s) for s, at in self.deadlines.items() if at <= now + EARLY)
        if due:
            at, seat_no = due[0]
            await self._timeout(seat_no, at)()
        self._arm_clock()

    def _stop_clock(self) -> None:
        if self.clock_timer is not None:
            self.clock_timer.cancel()
            self.clock_timer = None

    # -- running out, and coming back ---------------------------------------------------------
    def _timeout(self, seat_no: int, at: float) -> Callable[[], Awaitable[None]]:
        async def command() -> None:
            if not self.leader or self.deadlines.get(seat_no) != at:
                return  # the seat moved in time, or the table moved on
            if seat_no not in self.waiting_on():
                return
            seat = self.seats[seat_no]
            action = await self._choose(seat_no, STANDIN_LEVEL)
            seat.timeouts += 1
            events: list[dict[str, Any]] = [
                {"type": "timeout", "seat": seat_no, "timeouts": seat.timeouts}
            ]
            if seat.timeouts >= KEEP_AFTER:
                seat.standin, seat.standin_cause = STANDIN_LEVEL, "clock"
                # a takeover the person's leaving had set going is moot now: the bot is there
                seat.takeover_at = seat.away_since = None
                self._cancel_timer(f"takeover-{seat_no}")
                events.append({"type": "bot_keeps_seat", "seat": seat_no})
            await self._apply(action, events)

        return command

    def person_acts(self, seat_no: int) -> list[dict[str, Any]]:
        """The person at ``seat_no`` moved (or said they are back): no timeouts in a row any
        more, and a seat the clock's stand-in kept is theirs again. The events to tell."""
        seat = self.seats[seat_no]
        seat.timeouts = 0
        if seat.standin and seat.standin_cause == "clock":
            seat.standin, seat.standin_cause = "", ""
            self.bots.pop(seat_no, None)
            return [{"type": "seat_back", "seat": seat_no}]
        return []

    async def back(self, user_id: int | None, seat_no: int | None) -> None:
        """ "I'm back": the person takes their seat back from the clock's stand-in."""

        async def command() -> None:
            if seat_no is None:
                raise TableError("spectator", "spectators have no seat to come back to")
            seat = self.seats[seat_no]
            if seat.user_id != user_id or seat.bot:
                raise TableError("not_your_seat", "this is not your seat")
            if seat.standin_cause != "clock":
                raise TableError("not_kept", "no bot is keeping your seat")
            await self._commit(self.person_acts(seat_no))

        await self.submit(command)
