"""Play again: once a game is over, a new game at the same table, same seats and same rules."""

from __future__ import annotations

from .base import TableParts
from .errors import TableError


class PlayAgain(TableParts):
    async def play_again(self, user_id: int | None) -> None:
        """A new game (the next ``game_no``: history keeps the games apart), dealt at once. For
        the table's host or a person seated at it, and only once the game is over."""

        async def command() -> None:
            seated = user_id is not None and self.seat_of(user_id) is not None
            if user_id is None or not (seated or user_id == self.info.host_id):
                raise TableError("not_player", "only the host or the table's players can")
            if self.info.kind == "tournament":  # the organiser's pairings decide who plays next
                raise TableError("tournament", "a tournament's matches are not played again")
            game = self.game
            if self.status != "playing" or game is None:
                raise TableError("not_playing", f"the table is {self.status}, not playing")
            if not game.over:
                raise TableError("not_over", "the game is not over yet")
            self._cancel_timer("next-deal")
            self.game_no += 1
            self.deck_reset = False
            await self.start_game()

        await self.submit(command)
