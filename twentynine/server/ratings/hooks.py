"""What a rated table calls, from its own queue: when its game ends, and when a player leaves
before the end. A table that is not rated, or a game not played by four accounts from its
start, is not rated."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from .calc import standing
from .service import rate_game

if TYPE_CHECKING:
    from ..tables.base import TableParts as TableRuntime

log = logging.getLogger("twentynine.ratings")


def _players(runtime: TableRuntime) -> list[int] | None:
    users = [s.user_id for s in runtime.seats]
    if any(u is None for u in users) or any(s.bot for s in runtime.seats):
        return None
    return [u for u in users if u is not None]


def kept_by_bot(runtime: TableRuntime) -> set[int]:
    """Seats a bot keeps for their person now: a stand-in that took over when they went away,
    or the turn clock's after two timeouts in a row (a single timeout's one move is not)."""
    return {i for i, s in enumerate(runtime.seats) if s.bot_kept}


def in_play(runtime: TableRuntime) -> bool:
    """A rated game under way and not yet rated (its host may not close the table on it)."""
    game = runtime.game
    return (
        getattr(runtime.info, "rated", False)
        and runtime.status == "playing"
        and game is not None
        and not game.over
        and _players(runtime) is not None
    )


async def game_over(runtime: TableRuntime) -> None:
    """The game ended: everyone gets its result, except a seat a bot kept to the end (lost)."""
    game = runtime.game
    players = _players(runtime)
    if not getattr(runtime.info, "rated", False) or game is None or players is None:
        return
    losers = {seat: "bot_kept" for seat in kept_by_bot(runtime)}
    await _rate(runtime, players, game.winner, losers, "finished")


async def player_left(runtime: TableRuntime, seat_no: int) -> None:
    """``seat_no`` leaves before the end: they lose; the others' result is the game's as it
    stands now (the game is rated once, so what follows at the table no longer counts)."""
    game = runtime.game
    players = _players(runtime)
    if (
        not getattr(runtime.info, "rated", False)
        or runtime.status != "playing"
        or game is None
        or game.over
        or players is None
    ):
        return
    losers = {seat: "bot_kept" for seat in kept_by_bot(runtime)}
    losers[seat_no] = "left"
    await _rate(runtime, players, standing(game), losers, "left")


async def _rate(
    runtime: TableRuntime,
    players: list[int],
    winner: int | None,
    losers: dict[int, str],
    reason: str,
) -> None:
    try:
        async with runtime.store.maker() as db:
            rated = await rate_game(
                db, runtime.info.id, runtime.game_no, players, winner, losers, reason
            )
    except Exception:  # the table plays on; the game stays unrated (and is logged)
        log.exception("table %s: rating game %d failed", runtime.info.id, runtime.game_no)
        return
    if rated:  # the table's sockets hear of it (their pages show the new ratings)
        await runtime._commit([{"type": "rated", "game_no": runtime.game_no, "reason": reason}])
