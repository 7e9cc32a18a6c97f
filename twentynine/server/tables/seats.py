"""The four seats: who sits where (a person, a bot, a stand-in for an absent person), and
the commands that take, leave and fill them."""

from __future__ import annotations

from dataclasses import dataclass

from ..ratings import hooks as ratings_hooks
from .base import TableParts
from .errors import TableError


def _standin_level() -> str:
    """The level of the bot that plays for an absent person: quick and sound."""
    from ...bots import LEVELS

    for level in ("intermediate", "beginner", "random"):
        if level in LEVELS:
            return level
    raise RuntimeError("no bot levels")


STANDIN_LEVEL = _standin_level()


@dataclass
class Seat:
    user_id: int | None = None
    name: str = ""
    bot: str = ""  # level or URL of a bot sitting here; "" for a person (or an empty seat)
    joined: bool = False
    standin: str = ""  # the level of a bot playing for the person (see standin_cause)
    connections: int = 0
    away_since: float | None = None  # monotonic time the person left
    takeover_at: float | None = None  # wall-clock time the stand-in bot takes over
    #: why a stand-in bot holds the seat: "away" (the person left and did not come back in
    #: time) or "clock" (two timeouts in a row; the person is back when they act or say so)
    standin_cause: str = ""
    timeouts: int = 0  # the person's clock ran out this many times in a row

    @property
    def bot_kept(self) -> bool:
        """Is a bot keeping this person's seat now (takeover on leaving, or the clock)?"""
        return bool(self.standin) and self.user_id is not None and not self.bot

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def empty(self) -> bool:
        return not self.bot and self.user_id is None

    @property
    def controller(self) -> str:
        """The bot that acts for this seat now, or "" when a person does."""
        return self.bot or self.standin


def seat_name(user_id: int | None, bot: str, names: dict[int, str]) -> str:
    if bot:
        return "Bot" if bot.startswith(("http://", "https://")) else bot.capitalize()
    return names.get(user_id or 0, "")


class SeatCommands(TableParts):
    async def join(self, user_id: int, name: str, wanted: int | None = None) -> int:
        """Take (or confirm) a seat; the game starts once every seat is taken and joined."""

        async def command() -> int:
            if self.status == "closed":
                raise TableError("closed", "the table is closed")
            seat_no = self.seat_of(user_id)
            if seat_no is None:
                if self.info.kind in ("hosted", "solo", "tournament"):
                    raise TableError("not_invited", "you have no seat at this table")
                seat_no = self._free_seat(wanted)
                seat = self.seats[seat_no]
                if seat.bot:
                    self.bots.pop(seat_no, None)
                seat.user_id, seat.name, seat.bot, seat.standin = user_id, name, "", ""
                seat.standin_cause, seat.timeouts = "", 0
            self.seats[seat_no].joined = True
            if self.status == "waiting" and all(
                (s.bot or (s.user_id is not None and s.joined)) for s in self.seats
            ):
                await self.start_game()
            else:
                await self._commit([{"type": "seat_taken", "seat": seat_no}], seats_changed=True)
            return seat_no

        result: int = await self.submit(command)
        return result

    async def hand_over(self, old_user: int, new_user: int, name: str) -> bool:
        """Someone else takes ``old_user``'s place (a tournament's organiser replaced a player):
        while the table waits for its players the seat is ``new_user``'s, to join when they
        come. False once the game has begun (the seat stays, a stand-in may play it)."""

        async def command() -> bool:
            seat_no = self.seat_of(old_user)
            if self.status != "waiting" or seat_no is None:
                return False
            seat = self.seats[seat_no]
            seat.user_id, seat.name, seat.joined = new_user, name, False
            for conn in self.conns:  # the one replaced watches on, as anyone may
                if conn.seat == seat_no:
                    conn.seat = None
            await self._commit([{"type": "seat_handed_over", "seat": seat_no}], seats_changed=True)
            return True

        result: bool = await self.submit(command)
        return result

    async def rename(self, user_id: int, name: str) -> bool:
        """``user_id`` took a new name: their seat shows it to everyone at the table, and the
        table takes its stored name again (a table named after its host is renamed with them,
        see ``renamed.py``). (Their chat lines carry it anyway: ``chat`` reads the name.) False
        when they have no seat or the table is closed."""

        async def command() -> bool:
            seat_no = self.seat_of(user_id)
            if self.status == "closed" or seat_no is None or self.seats[seat_no].name == name:
                return False
            loaded = await self.store.load(self.info.id)
            if loaded is not None:
                self.info.name = loaded[0].name
            old = self.seats[seat_no].name
            self.seats[seat_no].name = name
            await self._commit([{"type": "seat_renamed", "seat": seat_no, "old": old}])
            return True

        result: bool = await self.submit(command)
        return result

    def _free_seat(self, wanted: int | None) -> int:
        order = [wanted] if wanted is not None else []
        order += [i for i, s in enumerate(self.seats) if s.empty]
        order += [i for i, s in enumerate(self.seats) if s.is_bot]
        for i in order:
            if i is not None and (self.seats[i].empty or self.seats[i].is_bot):
                return i
        raise TableError("full", "no open seat at this table")

    async def leave(self, user_id: int) -> None:
        async def command() -> None:
            seat_no = self.seat_of(user_id)
            if seat_no is None:
                raise TableError("not_seated", "you have no seat at this table")
            if self.info.kind in ("hosted", "tournament"):
                raise TableError("hosted", "a hosted game keeps its players; the host can close it")
            await ratings_hooks.player_left(self, seat_no)
            left = {"type": "seat_left", "seat": seat_no, "name": self.seats[seat_no].name}
            if self.status == "waiting":
                self.seats[seat_no] = Seat()
            else:  # a bot takes the seat for good (someone may take it over later)
                self.seats[seat_no] = Seat(name="Bot", bot=STANDIN_LEVEL, joined=True)
            left["bot"] = bool(self.seats[seat_no].bot)
            self.bots.pop(seat_no, None)
            self._cancel_timer(f"takeover-{seat_no}")
            for conn in self.conns:  # their sockets watch on as a viewer's (the seat's hand
                if conn.seat == seat_no:  # is the bot's now)
                    conn.seat = None
            if not self.humans():
                self.status = "closed"
            await self._commit([left], seats_changed=True)

        await self.submit(command)

    async def fill_with_bots(self, user_id: int | None, level: str = STANDIN_LEVEL) -> None:
        async def command() -> None:
            if user_id is None or user_id != self.info.host_id:
                raise TableError("not_host", "only the table's host can seat bots")
            if self.info.kind in ("hosted", "tournament"):
                raise TableError("hosted", "a hosted game is played by the host's friends")
            if self.info.rated:
                raise TableError("rated", "a rated table is played by four people, no bots")
            for i, s in enumerate(self.seats):
                if s.empty:
                    self.seats[i] = Seat(name=level.capitalize(), bot=level, joined=True)
            if self.status == "waiting" and all(
                (s.bot or (s.user_id is not None and s.joined)) for s in self.seats
            ):
                await self.start_game()
            else:
                await self._commit([{"type": "bots_seated"}], seats_changed=True)

        await self.submit(command)

    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None and not s.bot]

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        for i, s in enumerate(self.seats):
            if s.user_id == user_id and not s.bot:
                return i
        return None
