"""Who is here: online (a page open), at a table (its page open, watching or in a seat of a game
not under way) or playing (in the seat of a game under way); their friends are told of each
change, and every open page of the number of people online and playing.

Each process knows its own sockets; its people's states go to the relay (a Redis hash per
process with several), and a person's state is the highest any process has for them. A table's
status (waiting → playing → closed) is looked at every ``TICK_S`` (one comparison a table), so
no hook in the tables package has to tell of it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..accounts.service import first_names
from ..friends.service import friend_ids

if TYPE_CHECKING:
    from .hub import LiveHub

log = logging.getLogger("twentynine.live")

OFFLINE, ONLINE, AT_TABLE, PLAYING = 0, 1, 2, 3
STATES = ("offline", "online", "at_table", "playing")
#: how often states (tables' statuses) and, with several processes, the counts are looked at
TICK_S = 0.5
#: the counts go to the pages that show them at most this often (thousands of pages opening at
#: once would otherwise each be told of every other)
COUNTS_EVERY_S = 1.0
#: how long a person's friend list is trusted (it is also dropped on every friends message)
FRIENDS_TTL_S = 300.0
#: a state that fell because a socket closed is told only once it has stayed down this long:
#: a reload, or a page moving to another process, closes a socket and opens another at once,
#: and friends should not see the person go offline and come back
GRACE_S = 1.0


@dataclass(eq=False, slots=True)
class AtTable:
    """One table socket of a person: the table (anything with a ``status``) and whether they
    hold a seat there."""

    user_id: int
    table: Any
    seated: bool

    @property
    def rank(self) -> int:
        return PLAYING if self.seated and self.table.status in ("playing", "paused") else AT_TABLE


class Presence:
    def __init__(self, hub: LiveHub) -> None:
        self.hub = hub
        self.pages: dict[int, int] = {}  # user id → open /ws/me sockets here
        self.tables: dict[int, list[AtTable]] = {}  # user id → table sockets here
        #: table (runtime) → its status when last looked at, and its sockets here
        self.statuses: dict[Any, tuple[str, list[AtTable]]] = {}
        self.names: dict[int, str] = {}
        self.local: dict[int, int] = {}  # user id → rank here, as last told to the relay
        self.dirty: set[int] = set()
        self.counts: dict[str, int] = {"online": 0, "playing": 0}
        self.friends: dict[int, tuple[float, frozenset[int]]] = {}
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._last_poll = 0.0
        self._counts_due = False
        #: user id → when a drop a closed socket made may be told (see ``GRACE_S``)
        self.leaving: dict[int, float] = {}
        #: the people of processes that went away, claimed here: the rank their friends last
        #: saw, and when their state now may be told (see ``_tell_of_the_vanished``)
        self.vanished: dict[int, tuple[int, float]] = {}

    # -- what the sockets tell -------------------------------------------------------------------
    def page_opened(self, user_id: int, name: str) -> None:
        self.pages[user_id] = self.pages.get(user_id, 0) + 1
        self.names[user_id] = name
        self._mark(user_id)

    def page_closed(self, user_id: int) -> None:
        left = self.pages.get(user_id, 0) - 1
        if left > 0:
            self.pages[user_id] = left
        else:
            self.pages.pop(user_id, None)
        self._closed(user_id)

    def sat(self, user_id: int, name: str, table: Any, seated: bool) -> AtTable:
        """A table socket opened (``table``: its runtime); give the answer to :meth:`rose`."""
        entry = AtTable(user_id, table, seated)
        self.tables.setdefault(user_id, []).append(entry)
        if table in self.statuses:
            self.statuses[table][1].append(entry)
        else:
            self.statuses[table] = (table.status, [entry])
        self.names.setdefault(user_id, name)
        self._mark(user_id)
        return entry

    def rose(self, entry: AtTable) -> None:
        entries = self.tables.get(entry.user_id)
        if entries is not None:
            with contextlib.suppress(ValueError):
                entries.remove(entry)
            if not entries:
                del self.tables[entry.user_id]
        at_table = self.statuses.get(entry.table)
        if at_table is not None:
            with contextlib.suppress(ValueError):
                at_table[1].remove(entry)
            if not at_table[1]:
                del self.statuses[entry.table]
        self._closed(entry.user_id)

    def renamed(self, user_id: int, name: str) -> None:
        """``user_id`` took a new name: their friends are told it with their next state."""
        if user_id in self.names:
            self.names[user_id] = name

    def forget_friends(self, user_id: int) -> None:
        self.friends.pop(user_id, None)

    def _mark(self, user_id: int) -> None:
        self.dirty.add(user_id)
        if self._wake is not None:
            self._wake.set()

    def _closed(self, user_id: int) -> None:
        self.leaving[user_id] = time.monotonic() + GRACE_S
        self._mark(user_id)

    # -- working it out ----------------------------------------------------------------------
    def rank_here(self, user_id: int) -> int:
        rank = ONLINE if user_id in self.pages else OFFLINE
        for entry in self.tables.get(user_id, ()):
            rank = max(rank, entry.rank)
        return rank

    async def start(self) -> None:
        self._wake = asyncio.Event()
        self._task = asyncio.create_task(self._run(), name="live-presence")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            wait = TICK_S
            if self.leaving:  # wake when the first held drop may be told
                wait = min(wait, max(0.0, min(self.leaving.values()) - time.monotonic()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)
            self._wake.clear()
            await asyncio.sleep(0.02)  # gather what comes together (a page's sockets)
            try:
                await self.tick()
            except Exception:
                log.exception("live presence: a tick failed")

    async def tick(self) -> None:
        """Tell the relay of changed states, friends of changed people, pages of the counts."""
        # a table's status may change on any process: whose state it makes are looked at again
        for table, (status, entries) in list(self.statuses.items()):
            if table.status != status:
                self.statuses[table] = (table.status, entries)
                self.dirty.update(entry.user_id for entry in entries)
        candidates, self.dirty = self.dirty, set()
        candidates.update(self.leaving)
        now = time.monotonic()
        before: dict[int, int] = {}
        changes: dict[int, int] = {}
        for user_id in candidates:
            rank = self.rank_here(user_id)
            old = self.local.get(user_id, OFFLINE)
            if rank < old and self.leaving.get(user_id, 0.0) > now:
                continue  # held: a socket closed, another may open at once (GRACE_S)
            self.leaving.pop(user_id, None)
            if rank != old:
                before[user_id] = old
                changes[user_id] = rank
                if rank:
                    self.local[user_id] = rank
                else:
                    self.local.pop(user_id, None)
        relay = self.hub.relay
        if changes:
            await relay.set_states(changes)
            elsewhere = await relay.states(list(changes))
            for user_id, rank in changes.items():
                other = elsewhere.get(user_id, OFFLINE)
                was, now = max(before[user_id], other), max(rank, other)
                if was != now:
                    await self._tell_friends(user_id, now)
                if not now:
                    self.names.pop(user_id, None)
        if changes:
            self._counts_due = True
        clock = time.monotonic()
        if relay.process_id != "local" and clock - self._last_poll >= COUNTS_EVERY_S:
            self._counts_due = True  # other processes' people come and go too
        if self._counts_due and clock - self._last_poll >= COUNTS_EVERY_S:
            self._last_poll = clock
            self._counts_due = False
            await self._count()

    async def _tell_friends(self, user_id: int, rank: int, name: str | None = None) -> None:
        friends = await self.friends_of(user_id)
        if friends:
            message = {
                "type": "presence",
                "user_id": user_id,
                "name": self.names.get(user_id, "") if name is None else name,
                "state": STATES[rank],
            }
            await self.hub.tell(friends, message)

    async def _count(self) -> None:
        relay = self.hub.relay
        by_process = await relay.people_by_process()
        gone = await relay.claim_vanished()
        everyone: dict[int, int] = {}
        for people in by_process.values():
            for user_id, rank in people.items():
                everyone[user_id] = max(everyone.get(user_id, 0), rank)
        await self._tell_of_the_vanished(gone, everyone)
        for user_id, rank in self.local.items():
            everyone[user_id] = max(everyone.get(user_id, 0), rank)
        counts = {
            "online": sum(1 for r in everyone.values() if r),
            "playing": sum(1 for r in everyone.values() if r == PLAYING),
        }
        if counts != self.counts:
            self.counts = counts
            # only to the pages that show them (each process counts for its own pages)
            self.hub.deliver_watchers("counts", {"type": "counts", **counts})

    async def _tell_of_the_vanished(
        self, gone: list[dict[int, int]], elsewhere: dict[int, int]
    ) -> None:
        """A process that stopped (or crashed: ``relay.STALE_S``) tells no one that its people
        left. The process that claimed it (``relay.claim_vanished``: its people as it last
        stored them, a page opened just before it stopped too) tells for it: each of its people
        whose state is lower now than it was there, once ``GRACE_S`` has passed (a page of
        theirs comes back on another process at once, most often)."""
        now = time.monotonic()
        for people in gone:
            for user_id, rank in people.items():
                seen = max(rank, self.vanished.get(user_id, (0, 0.0))[0])
                self.vanished[user_id] = (seen, now + GRACE_S)
        due = [u for u, (_, at) in self.vanished.items() if at <= now]
        if not due:
            return
        told: dict[int, int] = {}
        for user_id in due:
            seen, _ = self.vanished.pop(user_id)
            rank = max(elsewhere.get(user_id, OFFLINE), self.local.get(user_id, OFFLINE))
            if rank < seen:
                told[user_id] = rank
        if not told or self.hub.maker is None:
            return
        async with self.hub.maker() as db:
            names = await first_names(db, told)
        for user_id, rank in told.items():
            await self._tell_friends(user_id, rank, names.get(user_id, ""))

    async def friends_of(self, user_id: int) -> frozenset[int]:
        now = time.monotonic()
        hit = self.friends.get(user_id)
        if hit is not None and now - hit[0] < FRIENDS_TTL_S:
            return hit[1]
        maker = self.hub.maker
        if maker is None:
            return frozenset()
        async with maker() as db:
            ids = frozenset(await friend_ids(db, user_id))
        if len(self.friends) > 20000:  # a cache, not a record
            self.friends.clear()
        self.friends[user_id] = (now, ids)
        return ids

    async def befriended(self, a: tuple[int, str], b: tuple[int, str]) -> None:
        """Two people just became friends: each is told whether the other is here."""
        self.forget_friends(a[0])
        self.forget_friends(b[0])
        ranks = await self.hub.relay.states([a[0], b[0]])
        for (user_id, name), (other_id, _) in ((a, b), (b, a)):
            rank = max(ranks.get(user_id, 0), self.rank_here(user_id))
            if rank:
                message = {
                    "type": "presence",
                    "user_id": user_id,
                    "name": name,
                    "state": STATES[rank],
                }
                await self.hub.tell([other_id], message)

    async def friend_states(self, user_id: int) -> dict[str, str]:
        """The friends of ``user_id`` who are here (any process), by id: their states."""
        friends = sorted(await self.friends_of(user_id))
        ranks = await self.hub.relay.states(friends)
        for friend in friends:
            ranks[friend] = max(ranks.get(friend, 0), self.rank_here(friend))
        return {str(u): STATES[r] for u, r in ranks.items() if r}
