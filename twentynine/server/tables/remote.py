"""Other processes: versions they stored reach this process's connections in order, and the
process holding a table's lease runs its duties (bots, next deals, takeovers)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import orjson

from ..safety.hooks import chat_audience
from .base import TableParts
from .seats import seat_name

log = logging.getLogger("twentynine.tables")


class Remote(TableParts):
    async def reload(self) -> None:
        """Take the stored table as the truth (after another process changed it)."""
        loaded = await self.store.load(self.info.id)
        if loaded is None:
            return
        row, seat_rows = loaded
        names = await self.store.names([s.user_id for s in seat_rows if s.user_id])
        for s in seat_rows:
            seat = self.seats[s.seat]
            if (seat.user_id, seat.bot) != (s.user_id, s.bot):
                self.bots.pop(s.seat, None)
            seat.user_id, seat.bot, seat.joined = s.user_id, s.bot, s.joined
            seat.standin = seat.standin_cause = ""
            seat.takeover_at = None
            seat.timeouts = 0
            seat.name = seat_name(s.user_id, s.bot, names)
        self.version = row.version
        self.status = row.status
        self.info.conference_url = row.conference_url  # (``relink``)
        self.info.name = row.name  # (named after its host, who took a new name: ``rename``)
        self.game = None
        self.deadlines = {}
        if row.state:
            self._restore(row.state)
        self._arm_clock()

    async def _catch_up(self) -> None:
        """Take the stored table as the truth and tell this process's connections the versions
        it brings. (A reload alone would leave them untold: the next change made here moves
        ``sent`` past them.)"""
        await self.reload()
        await self._tell_missed(self.version)

    async def on_remote(self, message: dict[str, Any]) -> None:
        """A change another process stored, a chat line it received, or a seat's connections
        there that began or ended. Queued, not waited for: the fanout's reader goes straight
        on to the next message (a command may be waiting for exactly that message, see
        ``_tell_missed``)."""
        if message.get("type") == "seat_presence":
            seat_no = message.get("seat")
            if isinstance(seat_no, int) and 0 <= seat_no < len(self.seats):
                self.post(self.look_elsewhere(seat_no))
            return

        if message.get("type") != "chat":
            version = int(message.get("version", 0))
            if version > self.sent:  # kept until sent (a version may arrive before the one
                self.arrived[version] = list(message.get("events", []))  # before it)
                self.arrival.set()

        async def command() -> None:
            if message.get("type") == "chat":
                author = message["payload"].get("line", {}).get("user_id")
                for c in await chat_audience(self.store.maker, author, self.conns):
                    self.push(c, message["payload"])
                return
            version = int(message.get("version", 0))
            if version <= self.sent:
                return  # this process told its connections of that version already
            if version > self.version:
                await self.reload()  # (the stored row may be past ``version`` already)
            # up to the version of the state the connections are sent: a message's version is
            # the newest whose events it carries
            await self._tell_missed(max(version, self.version))
            self._schedule_bots()
            game = self.game
            if (  # another process ended the deal: the table's leader deals the next one
                self.leader
                and game is not None
                and game.round.is_over
                and self.status == "playing"
                and "next-deal" not in self.timers
            ):
                self._start_timer("next-deal", self.settings.next_deal_seconds, self._next_deal)
            if self.leader and self.status == "playing":  # someone left on another process
                for i, seat in enumerate(self.seats):
                    key = f"takeover-{i}"
                    if seat.takeover_at and not seat.standin and key not in self.timers:
                        wait = max(0.0, seat.takeover_at - time.time())
                        self._start_timer(key, wait, self._takeover(i))

        self.post(command)

    #: how long to wait for another process's versions to arrive before sending a snapshot
    MISSED_WAIT = 2.0

    async def _tell_missed(self, upto: int) -> None:
        """Send this process's connections the versions after ``sent`` up to ``upto`` that
        other processes made, in order and in one message: their events as they arrive over
        the fanout (a version can be stored here before its message comes, or after a later
        one's). A version that has not come within ``MISSED_WAIT`` seconds is replaced by a
        fresh snapshot, so that nobody is left with a gap."""
        if upto <= self.sent:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.MISSED_WAIT
        while not all(v in self.arrived for v in range(self.sent + 1, upto + 1)):
            left = deadline - loop.time()
            if left <= 0:
                break
            self.arrival.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrival.wait(), left)
        events: list[dict[str, Any]] = []
        complete = True
        for v in range(self.sent + 1, upto + 1):
            got = self.arrived.get(v)
            if got is None:
                complete = False
                continue
            events += got
            self._remember(v, orjson.dumps(got))
        for v in [v for v in self.arrived if v <= upto]:
            del self.arrived[v]
        if not complete:
            log.warning(
                "table %s: versions %d-%d did not all come over the fanout within %.1f s; "
                "sending a snapshot instead of their events",
                self.info.id, self.sent + 1, upto, self.MISSED_WAIT,
            )  # fmt: skip
        self.sent = upto
        self._broadcast(events, snapshot=not complete)

    async def refresh_lead(self) -> None:
        """Keep (or take) the lease; a process that just took it picks up the table's duties."""
        was = self.leader
        self.leader = await self.fanout.lead(self.info.id)
        if self.leader and not was:
            await self.submit(self.resume_duties)

    async def resume_duties(self) -> None:
        """Start what a leader runs: bots, the next deal, takeovers of absent players."""
        await self._catch_up()
        game = self.game
        if game is not None and game.round.is_over and self.status == "playing":
            self._start_timer("next-deal", self.settings.next_deal_seconds, self._next_deal)
        if self.status == "playing":
            for i, seat in enumerate(self.seats):
                absent = seat.user_id is not None and not seat.bot and not seat.standin
                if absent and not await self._seat_connected(i):
                    if seat.takeover_at is None:
                        seat.takeover_at = time.time() + self.info.takeover_seconds
                    wait = max(0.0, seat.takeover_at - time.time())
                    self._start_timer(f"takeover-{i}", wait, self._takeover(i))
        self._schedule_bots()
