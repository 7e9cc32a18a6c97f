"""What the tables call so that nobody sees the chat of someone they muted or blocked."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from .service import hidden_from, hiders

Row = TypeVar("Row")
Conn = TypeVar("Conn")


async def chat_audience(
    maker: Callable[[], AsyncSession], author_id: int | None, conns: Iterable[Conn]
) -> list[Conn]:
    """The connections (anything with a ``user_id``) that see a line by ``author_id``."""
    conns = list(conns)
    ids = {getattr(c, "user_id", None) for c in conns}
    if author_id is None or not (ids - {None, author_id}):
        return conns
    async with maker() as db:
        hide = await hiders(db, author_id, ids)
    return [c for c in conns if getattr(c, "user_id", None) not in hide]


async def visible_lines(
    maker: Callable[[], Any], viewer_id: int | None, rows: Sequence[Row]
) -> list[Row]:
    """The chat lines (rows with a ``user_id``) ``viewer_id`` sees."""
    if viewer_id is None or not rows:
        return list(rows)
    async with maker() as db:
        hidden = await hidden_from(db, viewer_id)
    return [r for r in rows if getattr(r, "user_id", None) not in hidden]
