"""Bots at the table: the bots that sit in seats and the stand-ins for absent people, each
moving through the table's queue with its seat's own view."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ...bots import Bot, make_bot
from ...engine.actions import Action
from ...engine.round import to_act
from ...engine.views import view
from .base import TableParts
from .seats import STANDIN_LEVEL

log = logging.getLogger("twentynine.tables")


class BotMoves(TableParts):
    def bot_for(self, seat_no: int, level: str = "") -> Bot:
        """The bot that moves for ``seat_no``: its controller's, or one of ``level`` for a seat
        a person plays (the stand-in that moves when the person's clock runs out)."""
        bot = self.bots.get(seat_no)
        if bot is None:
            level = self.seats[seat_no].controller or level
            if level.startswith(("http://", "https://")):
                from ...bhoos.client import BhoosBot

                bot = BhoosBot(level)
            else:
                bot = make_bot(level, self.rng.randrange(2**31))
            self.bots[seat_no] = bot
        return bot

    def _schedule_bots(self) -> None:
        game = self.game
        if not self.leader or game is None or self.status != "playing" or game.round.is_over:
            return
        for seat_no in to_act(game.round):
            if self.seats[seat_no].controller and f"bot-{seat_no}" not in self.timers:
                self._start_timer(
                    f"bot-{seat_no}",
                    self.settings.bot_delay_ms / 1000,
                    self._bot_move(seat_no, self.version),
                )

    def _bot_move(self, seat_no: int, version: int) -> Callable[[], Awaitable[None]]:
        async def command() -> None:
            game = self.game
            if (
                game is None
                or self.status != "playing"
                or game.round.is_over
                or not self.seats[seat_no].controller
                or seat_no not in to_act(game.round)
            ):
                return
            if version != self.version:  # the table moved on; think again from here
                self._schedule_bots()
                return
            await self._apply(await self._choose(seat_no))

        return command

    async def _choose(self, seat_no: int, level: str = "") -> Action:
        """The bot's move for ``seat_no``, from the seat's own view."""
        game = self.game
        assert game is not None
        v = view(game.round, seat_no)
        bot = self.bot_for(seat_no, level)
        try:
            action = await asyncio.to_thread(bot.choose, v)
            if action not in v.legal:
                raise ValueError(f"bot chose an illegal action {action}")
        except Exception:  # a failing bot (say, an external one) must not stall the table
            log.exception(
                "table %s: bot in seat %d failed; a stand-in plays", self.info.id, seat_no
            )
            self.bots[seat_no] = make_bot(STANDIN_LEVEL, self.rng.randrange(2**31))
            action = self.bots[seat_no].choose(v)
        return action
