"""Mutes, blocks and chat reports, and the questions other domains ask of them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from sqlalchemy import delete, or_, select, union
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts.models import User
from ..accounts.service import rate_limited
from ..db import utc_iso, utcnow
from ..friends import service as friends
from ..tables.models import ChatMessage, GameTable, TableSeat
from .models import ChatMute, ChatReport, UserBlock

#: reports a person may make in an hour
REPORTS_PER_HOUR = 20
#: chat lines kept around a reported one, before and after it
CONTEXT_LINES = 5


class SafetyError(Exception):
    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


# -- questions other domains ask ------------------------------------------------------------
async def blocks(db: AsyncSession, owner_id: int | None, target_id: int | None) -> bool:
    """Has ``owner`` blocked ``target``?"""
    if owner_id is None or target_id is None or owner_id == target_id:
        return False
    found = await db.scalar(
        select(UserBlock.owner_id).where(
            UserBlock.owner_id == owner_id, UserBlock.target_id == target_id
        )
    )
    return found is not None


async def blockers_of(db: AsyncSession, target_id: int, owner_ids: Iterable[int]) -> set[int]:
    """Those of ``owner_ids`` who blocked ``target_id``."""
    owners = list(set(owner_ids))
    if not owners:
        return set()
    rows = await db.scalars(
        select(UserBlock.owner_id).where(
            UserBlock.target_id == target_id, UserBlock.owner_id.in_(owners)
        )
    )
    return set(rows)


async def blocked_between(db: AsyncSession, user_ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs among ``user_ids`` where one blocked the other."""
    ids = list(set(user_ids))
    if len(ids) < 2:
        return set()
    rows = await db.execute(
        select(UserBlock.owner_id, UserBlock.target_id).where(
            UserBlock.owner_id.in_(ids), UserBlock.target_id.in_(ids)
        )
    )
    return {frozenset(pair) for pair in rows.all()}


async def hiders(
    db: AsyncSession, author_id: int | None, viewer_ids: Iterable[int | None]
) -> set[int]:
    """Those of ``viewer_ids`` who do not see ``author_id``'s chat (muted or blocked them)."""
    viewers = [v for v in set(viewer_ids) if v is not None and v != author_id]
    if author_id is None or not viewers:
        return set()
    query = union(
        select(ChatMute.owner_id).where(
            ChatMute.target_id == author_id, ChatMute.owner_id.in_(viewers)
        ),
        select(UserBlock.owner_id).where(
            UserBlock.target_id == author_id, UserBlock.owner_id.in_(viewers)
        ),
    )
    return set((await db.execute(query)).scalars())


async def hidden_from(db: AsyncSession, viewer_id: int | None) -> set[int]:
    """The people whose chat ``viewer_id`` does not see."""
    if viewer_id is None:
        return set()
    query = union(
        select(ChatMute.target_id).where(ChatMute.owner_id == viewer_id),
        select(UserBlock.target_id).where(UserBlock.owner_id == viewer_id),
    )
    return set((await db.execute(query)).scalars())


# -- the person's own lists ---------------------------------------------------------------------
async def _target(db: AsyncSession, me: User, target_id: int) -> User:
    if target_id == me.id:
        raise SafetyError(422, "you cannot mute or block yourself")
    target = await db.get(User, target_id)
    if target is None:
        raise SafetyError(404, "no such player")
    return target


async def lists(db: AsyncSession, me: User) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for key, model in (("muted", ChatMute), ("blocked", UserBlock)):
        rows = await db.execute(
            select(User.id, User.first_name)
            .join(model, model.target_id == User.id)
            .where(model.owner_id == me.id)
            .order_by(model.created_at)
        )
        out[key] = [{"id": uid, "name": name} for uid, name in rows.all()]
    return out


async def mute(db: AsyncSession, me: User, target_id: int, on: bool) -> None:
    await _target(db, me, target_id)
    await _set(db, ChatMute, me.id, target_id, on)


async def block(db: AsyncSession, me: User, target_id: int, on: bool) -> tuple[User, str | None]:
    """Block (or unblock) ``target_id``. Blocking ends a friendship and any friend request
    between the two; what it ended is returned with the target, as the friends domain names
    it when ``me`` does it by hand (``removed``, ``declined``: a request to ``me``,
    ``cancelled``: one from ``me``; None: nothing), for the two to be told."""
    target = await _target(db, me, target_id)
    ended = await friends.end_link(db, me.id, target_id) if on else None
    await _set(db, UserBlock, me.id, target_id, on)
    return target, ended


async def _set(
    db: AsyncSession, model: type[ChatMute] | type[UserBlock], owner: int, target: int, on: bool
) -> None:
    if not on:
        await db.execute(delete(model).where(model.owner_id == owner, model.target_id == target))
        await db.commit()
        return
    exists = await db.scalar(
        select(model.owner_id).where(model.owner_id == owner, model.target_id == target)
    )
    if exists is None:
        db.add(model(owner_id=owner, target_id=target))
    try:
        await db.commit()
    except IntegrityError:  # the same request twice at once: it is there either way
        await db.rollback()


# -- reports ----------------------------------------------------------------------------------
def line_json(row: ChatMessage) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "user_id": row.user_id,
        "text": row.text,
        "at": utc_iso(row.created_at),
    }


async def _may_see(db: AsyncSession, table: GameTable, me: User, code: str | None) -> bool:
    """May ``me`` see this table's chat: as anyone who may watch it now, or as one of its
    players (after it closed, too)?"""
    from ..tables.service import can_view

    if await can_view(db, table, me, code):
        return True
    seated = await db.scalar(
        select(TableSeat.seat).where(TableSeat.table_id == table.id, TableSeat.user_id == me.id)
    )
    return seated is not None


async def report(
    db: AsyncSession, me: User, message_id: int, reason: str, code: str | None = None
) -> ChatReport:
    """Report chat line ``message_id`` of a table ``me`` may see (``code``: a private
    table's invite code)."""
    line = await db.get(ChatMessage, message_id)
    table = await db.get(GameTable, line.table_id) if line is not None else None
    if line is None or table is None or not await _may_see(db, table, me, code):
        raise SafetyError(404, "no such chat line")
    if line.user_id == me.id:
        raise SafetyError(422, "that is your own line")
    already = await db.scalar(
        select(ChatReport.id).where(
            ChatReport.reporter_id == me.id, ChatReport.message_id == message_id
        )
    )
    if already is not None:
        raise SafetyError(409, "you have reported this line already")
    if await rate_limited(db, f"safety:report:{me.id}", REPORTS_PER_HOUR, dt.timedelta(hours=1)):
        await db.commit()
        raise SafetyError(429, "too many reports; try again later")
    before = list(
        await db.scalars(
            select(ChatMessage)
            .where(ChatMessage.table_id == line.table_id, ChatMessage.id < line.id)
            .order_by(ChatMessage.id.desc())
            .limit(CONTEXT_LINES)
        )
    )
    after = list(
        await db.scalars(
            select(ChatMessage)
            .where(ChatMessage.table_id == line.table_id, ChatMessage.id > line.id)
            .order_by(ChatMessage.id)
            .limit(CONTEXT_LINES)
        )
    )
    row = ChatReport(
        reporter_id=me.id,
        message_id=line.id,
        table_id=line.table_id,
        author_id=line.user_id,
        author_name=line.name,
        text=line.text,
        reason=reason.strip(),
        context=[line_json(r) for r in [*reversed(before), line, *after]],
    )
    db.add(row)
    await db.commit()
    return row


def report_json(row: ChatReport, reporter: str) -> dict[str, Any]:
    return {
        "id": row.id,
        "message_id": row.message_id,
        "table_id": row.table_id,
        "author_id": row.author_id,
        "author_name": row.author_name,
        "text": row.text,
        "reason": row.reason,
        "context": row.context,
        "reporter_id": row.reporter_id,
        "reporter_name": reporter,
        "status": row.status,
        "created_at": utc_iso(row.created_at),
        "closed_at": utc_iso(row.closed_at),
    }


async def reports(db: AsyncSession, status: str, limit: int = 200) -> list[dict[str, Any]]:
    rows = await db.execute(
        select(ChatReport, User.first_name)
        .join(User, User.id == ChatReport.reporter_id)
        .where(ChatReport.status == status)
        .order_by(ChatReport.id.desc())
        .limit(limit)
    )
    return [report_json(r, name) for r, name in rows.all()]


async def admin_ids(db: AsyncSession) -> list[int]:
    rows = await db.scalars(
        select(User.id).where(User.is_admin.is_(True), User.disabled.is_(False))
    )
    return list(rows)


async def close_report(db: AsyncSession, admin: User, report_id: int) -> tuple[ChatReport, bool]:
    """Close the report; the flag says whether this call closed it (not already closed)."""
    row = await db.get(ChatReport, report_id)
    if row is None:
        raise SafetyError(404, "no such report")
    if row.status == "closed":
        return row, False
    row.status, row.closed_by, row.closed_at = "closed", admin.id, utcnow()
    await db.commit()
    return row, True


# -- an account's own data (the profile's download) and its deletion ------------------------------
async def your_data(db: AsyncSession, user_id: int) -> dict[str, Any]:
    """What chat safety keeps of ``user_id``: whom they muted and blocked, what they reported."""

    async def people(model: type[ChatMute] | type[UserBlock]) -> list[dict[str, Any]]:
        rows = await db.execute(
            select(User.id, User.first_name, model.created_at)
            .join(model, model.target_id == User.id)
            .where(model.owner_id == user_id)
        )
        return [{"user_id": i, "first_name": n, "since": utc_iso(at)} for i, n, at in rows.all()]

    reported = await db.scalars(select(ChatReport).where(ChatReport.reporter_id == user_id))
    return {
        "muted": await people(ChatMute),
        "blocked": await people(UserBlock),
        "chat_reports_made": [
            {
                "table_id": r.table_id,
                "text": r.text,
                "reason": r.reason,
                "status": r.status,
                "at": utc_iso(r.created_at),
            }
            for r in reported
        ],
    }


async def forget(db: AsyncSession, user_id: int) -> None:
    """A deleted account: its mutes and blocks go, both ways (not committed)."""
    for model in (ChatMute, UserBlock):
        await db.execute(
            delete(model).where(or_(model.owner_id == user_id, model.target_id == user_id))
        )
