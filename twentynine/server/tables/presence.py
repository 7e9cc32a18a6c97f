"""People coming and going: a seat's connections, and the stand-in bot that takes over the
seat of a person who stays away."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..ratings import hooks as ratings_hooks
from .base import TableParts
from .connection import Connection
from .fanout import TABLE_OPEN
from .seats import STANDIN_LEVEL


class Presence(TableParts):
    async def connect(self, conn: Connection, last_version: int | None) -> dict[str, Any]:
        async def command() -> dict[str, Any]:
            self.conns.add(conn)
            if len(self.conns) == 1:  # the table is open here: on every process, not nobody's
                await self.fanout.presence(self.info.id, TABLE_OPEN, 1)
            if self.paused_away:  # someone is here again: the table deals on
                await self._resume_for(conn)
            if conn.seat is not None:
                seat = self.seats[conn.seat]
                seat.connections += 1
                await self.fanout.presence(self.info.id, conn.seat, seat.connections)
                if seat.connections == 1:  # the other processes' pages draw it as here
                    await self._tell_presence(conn.seat)
                # a stand-in the clock put there keeps the seat until the person says so
                away_standin = bool(seat.standin) and seat.standin_cause != "clock"
                if seat.away_since is not None or away_standin or seat.takeover_at:
                    seat.away_since = seat.takeover_at = None
                    self._cancel_timer(f"takeover-{conn.seat}")
                    if away_standin:  # the player takes the seat back from the bot
                        seat.standin = seat.standin_cause = ""
                        self.bots.pop(conn.seat, None)
                    await self._commit([{"type": "seat_back", "seat": conn.seat}])
                elif seat.connections == 1:
                    # nothing to store, but the others' pages drew the seat as away: say it is here
                    # (the last to join connects after the deal that the join started)
                    self._broadcast([{"type": "seat_here", "seat": conn.seat}])
            return self.catch_up(conn, last_version)

        result: dict[str, Any] = await self.submit(command)
        return result

    async def disconnect(self, conn: Connection) -> None:
        async def command() -> None:
            if conn not in self.conns:
                return
            self.conns.discard(conn)
            if not self.conns:
                await self.fanout.presence(self.info.id, TABLE_OPEN, 0)
            if conn.seat is None:
                return
            seat = self.seats[conn.seat]
            if seat.user_id != conn.user_id or seat.bot:
                return  # they left the seat (a bot or someone else has it): nobody is away
            seat.connections = max(0, seat.connections - 1)
            await self.fanout.presence(self.info.id, conn.seat, seat.connections)
            if seat.connections > 0:
                return
            await self._tell_presence(conn.seat)
            if await self._seat_connected(conn.seat):
                return  # a page of theirs is open on another process
            # a bot already keeping the seat (the clock's stand-in) leaves nobody away
            if self.status == "playing" and not seat.standin:
                await self._went_away(conn.seat)
            else:  # nothing to store: the other pages here draw the seat as gone
                self._broadcast([{"type": "seat_gone", "seat": conn.seat}])

        await self.submit(command)
        await self._close(conn)

    async def _went_away(self, seat_no: int) -> None:
        """The seat's person has no connection anywhere, in a game under way: the countdown to
        a bot's takeover starts (stored, so that whichever process leads the table runs it)."""
        seat = self.seats[seat_no]
        seat.away_since = time.monotonic()
        wait = self.info.takeover_seconds
        seat.takeover_at = time.time() + wait
        if self.leader:
            self._start_timer(f"takeover-{seat_no}", wait, self._takeover(seat_no))
        await self._commit([{"type": "seat_away", "seat": seat_no, "seconds": wait}])

    def _takeover(self, seat_no: int) -> Callable[[], Awaitable[None]]:
        async def command() -> None:
            seat = self.seats[seat_no]
            if (
                self.status == "playing"
                and not seat.bot
                and not seat.standin
                and not await self._seat_connected(seat_no)
            ):
                seat.standin, seat.standin_cause = STANDIN_LEVEL, "away"
                seat.takeover_at = None
                await self._commit([{"type": "bot_takeover", "seat": seat_no}])

        return command

    async def nobody_here(self) -> bool:
        """Between deals: no person plays their own seat (every seat is a bot's, or a stand-in
        plays it) and nobody has the table open, in a seat or watching (seats: on any process;
        watchers: on this one). A table in that state is paused rather than dealt again, so
        bots do not play on for ever at a table everyone left. Tournament tables play on (the
        tournament waits for the match's result), and so does a rated game under way (its end
        rates it)."""
        if self.info.kind == "tournament" or ratings_hooks.in_play(self) or self.conns:
            return False
        if await self.fanout.connected(self.info.id, TABLE_OPEN):  # open on another process
            return False
        for seat_no, seat in enumerate(self.seats):
            if seat.user_id is None or seat.bot:
                continue
            if not seat.standin or await self._seat_connected(seat_no):
                return False
        return True

    async def _resume_for(self, conn: Connection) -> None:
        """A table paused for want of anyone deals again once someone opens it."""
        self.paused_away = False
        if self.status != "paused":
            return
        self.status = "playing"
        await self._commit([{"type": "resumed", "reason": "someone_here"}])
        game = self.game
        if game is not None and game.round.is_over and self.leader:
            self._start_timer("next-deal", self.settings.next_deal_seconds, self._next_deal)

    # -- a seat's connections on other processes ---------------------------------------------------
    async def _tell_presence(self, seat_no: int) -> None:
        """This process's first connection of the seat opened, or its last closed: the other
        processes look again whether the seat is connected anywhere (``look_elsewhere``)."""
        await self.fanout.publish(self.info.id, {"type": "seat_presence", "seat": seat_no})

    def look_elsewhere(self, seat_no: int) -> Callable[[], Awaitable[None]]:
        """A command: is the seat connected on another process? The pages here are told when
        that changes whether it is connected at all (``seat_here``, ``seat_gone``: not
        stored, the version stays)."""

        async def command() -> None:
            seat = self.seats[seat_no]
            before = seat.connections > 0 or self.elsewhere.get(seat_no, False)
            there = await self.fanout.connected_elsewhere(self.info.id, seat_no)
            self.elsewhere[seat_no] = there
            after = seat.connections > 0 or there
            if before != after:
                self._broadcast([{"type": "seat_here" if after else "seat_gone", "seat": seat_no}])
            # gone with no word from where it was (a process that died tells no one): away, as
            # when a socket here closes (a process whose socket closed stores that itself, and
            # one of the two stores it: the other finds the seat away or no longer connected)
            person = seat.user_id is not None and not seat.bot and not seat.standin
            away = seat.takeover_at is not None
            if before and not after and person and not away and self.status == "playing":
                await self._went_away(seat_no)

        return command

    def recheck_elsewhere(self) -> None:
        """Look again, in the table's queue, at each seat drawn as connected only because of
        another process (one that died told nobody its connections went)."""
        for seat_no, there in list(self.elsewhere.items()):
            if there and self.seats[seat_no].connections == 0:
                self.post(self.look_elsewhere(seat_no))

    async def _seat_connected(self, seat_no: int) -> bool:
        anywhere = await self.fanout.connected(self.info.id, seat_no)
        return self.seats[seat_no].connections > 0 if anywhere is None else anywhere
