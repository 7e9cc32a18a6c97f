"""What the tables tell people's open pages away from the table (the live channel, ``/ws/me``):

- ``table_invite`` — a host seated you at a game (``table_id``, its ``name``, the host);
- ``table_changed`` — a game you may join or watch was hosted, started, ended or closed, or its
  seats changed; a public table opened, filled or closed (``table_id``, ``kind``, ``status``,
  ``change``: hosted, opened, seats, filled, started, ended, closed);
- ``your_turn`` — it is your turn at a table whose page you do not have open;
- ``ratings_changed`` — a rated game was rated (``table_id``, ``user_ids``: its four players),
  to the pages that show the leaderboard, and to its players' pages that show their history;
- ``deal_recorded`` — a deal you played was recorded (``table_id``, ``deal_id``), to your pages
  that show your history.

``committed`` runs after every stored change of a table (one call in ``TableRuntime._commit``),
on the process that made it; it reads the change's events (a seat taken, the game started or
over, the table closed …) and whose turn it is, so a deal's hundred changes cost little each.
What it sends goes out from tasks of its own: the table's queue never waits for it.

Who hears of a table: its seated people; for a hosted game also the host's friends (they may
watch it); for a public table also the pages that show the lobby (they say so on the socket);
of every table, the admin pages that list them (``tables``, admins only)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ...engine.round import to_act

log = logging.getLogger("twentynine.tables")

Message = dict[str, Any]


class TableNotices:
    def __init__(self, live: Any) -> None:
        self.live = live
        #: per table: the seats whose turn was last told
        self.turns: dict[str, tuple[int, ...]] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    # -- from the router: a table made ---------------------------------------------------------
    def opened(self, runtime: Any) -> None:
        """A table was made (a hosted game: its players are invited)."""
        info = runtime.info
        if info.kind == "hosted":
            invite = {
                "type": "table_invite",
                "table_id": info.id,
                **_naming(runtime),
                "rules": info.rules_spec.to_json(),
                "host_id": info.host_id,
            }
            invited = [s.user_id for s in runtime.seats if s.user_id not in (None, info.host_id)]
            self.live.post(invited, invite)
            self._changed(runtime, "hosted")
        elif info.kind == "public":
            self._changed(runtime, "opened")
        else:  # a solo table, a tournament's match: only the admin page lists it
            self._spawn(self.live.to_watchers("tables", self._message(runtime, "opened")))

    # -- from the table: after every stored change -----------------------------------------------
    def committed(self, runtime: Any, events: list[Message]) -> None:
        change = _change(runtime, events)
        if change:
            self._changed(runtime, change)
        if any(e.get("type") == "rated" for e in events):  # the open leaderboards ask again
            rated = {
                "type": "ratings_changed",
                "table_id": runtime.info.id,
                "user_ids": [s.user_id for s in runtime.seats if s.user_id is not None],
            }
            self._spawn(self.live.to_watchers("leaderboard", rated))
            # and the players' own pages showing their figures (the profile's rating)
            players = [u for u in rated["user_ids"] if u is not None]
            self._spawn(self.live.to_watchers("history", rated, players))
        if runtime.status == "closed":
            self.turns.pop(runtime.info.id, None)
        else:
            self._turn(runtime)

    def deal_recorded(self, runtime: Any, deal_id: int, user_ids: list[int]) -> None:
        """A finished deal was stored: the pages of its players that show their history (the
        History tab, the profile's figures) ask again. Once a deal, not a move: not stored."""
        if user_ids:
            recorded = {"type": "deal_recorded", "table_id": runtime.info.id, "deal_id": deal_id}
            self._spawn(self.live.to_watchers("history", recorded, user_ids))

    def unseated(self, runtime: Any, user_id: int) -> None:
        """``user_id`` left their seat (the table's change is told to those seated now): their
        own pages drop the table from their games too."""
        change = "closed" if runtime.status == "closed" else "seats"
        self._spawn(self.live.send([user_id], self._message(runtime, change)))

    def left(self, runtime: Any, seat_no: int | None) -> None:
        """A table socket closed: if its seat's turn is now and no page of the player shows the
        table any more, they are told (they left in the middle of their turn)."""
        game = runtime.game
        if seat_no is None or game is None or runtime.status != "playing" or game.round.is_over:
            return
        seat = runtime.seats[seat_no]
        if (
            seat_no in _whose_turn(game.round)
            and seat.connections == 0
            and seat.user_id is not None
            and not seat.controller
        ):
            self._spawn(self._tell_turn(runtime, seat_no, seat.user_id))

    def _turn(self, runtime: Any) -> None:
        game = runtime.game
        if game is None or runtime.status != "playing" or game.round.is_over:
            self.turns.pop(runtime.info.id, None)
            return
        seats = _whose_turn(game.round)
        if self.turns.get(runtime.info.id) == seats:
            return
        self.turns[runtime.info.id] = seats
        for seat_no in seats:
            seat = runtime.seats[seat_no]
            if seat.user_id is not None and not seat.controller and seat.connections == 0:
                self._spawn(self._tell_turn(runtime, seat_no, seat.user_id))

    async def _tell_turn(self, runtime: Any, seat_no: int, user_id: int) -> None:
        if await runtime.fanout.connected(runtime.info.id, seat_no):
            return  # the table's page is open on another process
        info = runtime.info
        message = {"type": "your_turn", "table_id": info.id, **_naming(runtime), "seat": seat_no}
        await self.live.send([user_id], message)

    # -- table_changed -------------------------------------------------------------------------
    def _changed(self, runtime: Any, change: str) -> None:
        seated = [s.user_id for s in runtime.seats if s.user_id is not None]
        self._spawn(self._tell_changed(runtime.info, seated, self._message(runtime, change)))

    @staticmethod
    def _message(runtime: Any, change: str) -> Message:
        info = runtime.info
        return {
            "type": "table_changed",
            "table_id": info.id,
            "kind": info.kind,
            "name": info.name,
            "host_id": info.host_id,
            "status": runtime.status,
            "change": change,
            "open_seats": sum(1 for s in runtime.seats if s.empty),
        }

    async def _tell_changed(self, info: Any, seated: list[int], message: Message) -> None:
        await self.live.to_watchers("tables", message)  # the admin page's list of tables
        people = set(seated)  # their Join and History tabs list the game
        if info.kind == "public":  # the open lobbies (not every page: there may be thousands)
            await self.live.to_watchers("lobby", message)
        elif info.kind == "hosted" and info.host_id is not None:
            people |= await self.live.presence.friends_of(info.host_id)
            people.add(info.host_id)
        await self.live.send(people, message)

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("table notice failed: %s", task.exception())


def _naming(runtime: Any) -> Message:
    """What a page needs to name the table in its own language: its ``name`` (stored in English,
    "<host>'s table", when its host gave none), ``kind``, whether ``rated``, and the host's name."""
    info = runtime.info
    host = next((s for s in runtime.seats if s.user_id == info.host_id), None)
    return {
        "name": info.name,
        "kind": info.kind,
        "rated": bool(info.rated),
        "host_name": host.name if host is not None else "",
    }


def _whose_turn(rnd: Any) -> tuple[int, ...]:
    seats = to_act(rnd)
    if len(seats) > 1:  # a pair may be announced out of turn: the turn is the player's
        return (rnd.turn,)
    return seats


#: the table events that change what a page away from the table shows, and the change they make
CHANGES = {
    "closed": "closed",
    "game_over": "ended",
    "game_started": "started",
    "paused": "paused",
    "resumed": "resumed",
    "seat_taken": "seats",
    "seat_left": "seats",
    "seat_handed_over": "seats",
    "seat_renamed": "seats",
    "bots_seated": "seats",
}


def _change(runtime: Any, events: list[Message]) -> str:
    """The change these events make (the weightiest, in the order of ``CHANGES``), or ""."""
    kinds = {e.get("type") for e in events}
    for kind, change in CHANGES.items():
        if kind in kinds:
            if change == "seats" and runtime.info.kind == "public":
                return "filled" if not any(s.empty for s in runtime.seats) else "seats"
            return change
    return ""
