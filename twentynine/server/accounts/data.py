"""Your own data: everything the server keeps of an account, as one JSON document (the
profile's download), and deleting the account (``erase``).

Deleting keeps the account's row, emptied: the seats it held in past deals point at it, and the
other players' history must still replay. Its name becomes ``FORMER_PLAYER``; its address,
choices, sessions, sign-in identities, friendships, invitations and tier requests go."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Table, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..admin.models import TierRequest
from ..db import utcnow
from ..friends.models import FriendInvitation, Friendship
from ..history.models import DealHistory, DealPlayer
from ..matchmaking import service as matchmaking
from ..ratings import service as ratings
from ..refusals import Refusal
from ..safety import service as safety
from ..tables.models import ChatMessage, GameTable, TableSeat
from ..tournaments import account_data as tournaments
from .models import LoginToken, OIDCIdentity, RateEvent, User, UserSession

#: the name a deleted account's seats and chat lines show
FORMER_PLAYER = "a former player"


def owned_by_account() -> list[tuple[Table, Column[Any]]]:
    """Every table's column that says its rows go with the account (a foreign key to
    ``users.id`` with ``ON DELETE CASCADE``: sessions, friendships, invitations, requests,
    mutes and blocks, ratings, live messages, …, whichever domain adds them): deleting an
    account deletes those rows, as deleting its row would. The account's row itself stays."""
    from ..models import Base  # every domain's models

    found: list[tuple[Table, Column[Any]]] = []
    for table in Base.metadata.sorted_tables:
        for fk in table.foreign_keys:
            if fk.column.table.name == "users" and (fk.ondelete or "").upper() == "CASCADE":
                found.append((table, fk.parent))
    return found


class DeleteRefused(Refusal):
    """An account that cannot be deleted yet (409), and why."""

    def __init__(self, detail: str, reason: str) -> None:
        super().__init__(409, detail, reason)


def _when(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


async def export(db: AsyncSession, user: User) -> dict[str, Any]:
    """Everything stored of ``user`` (and nothing of anyone else's beyond the names and ids of
    the people linked to them)."""
    uid = user.id
    friends = []
    for link in await db.scalars(
        select(Friendship).where(
            or_(Friendship.requester_id == uid, Friendship.addressee_id == uid)
        )
    ):
        other_id = link.addressee_id if link.requester_id == uid else link.requester_id
        other = await db.get(User, other_id)
        friends.append(
            {
                "user_id": other_id,
                "first_name": other.first_name if other else FORMER_PLAYER,
                "status": link.status,
                "asked_by": "you" if link.requester_id == uid else "them",
                "since": _when(link.created_at),
            }
        )
    deals = await db.execute(
        select(DealPlayer.seat, DealHistory)
        .join(DealHistory, DealHistory.id == DealPlayer.deal_id)
        .where(DealPlayer.user_id == uid)
        .order_by(DealHistory.id)
    )
    return {
        "about": "Everything TwentyNine stores about your account, as of exported_at.",
        "exported_at": _when(utcnow()),
        "account": {
            "id": uid,
            "email": user.email,
            "first_name": user.first_name,
            "tier": user.tier,
            "is_admin": user.is_admin,
            "created_at": _when(user.created_at),
            "avatar": user.avatar,
            "card_deck": user.card_deck,
            "table_theme": user.table_theme,
            "language": user.language,
        },
        "sign_in_identities": [
            {"provider": o.provider, "subject": o.subject}
            for o in await db.scalars(select(OIDCIdentity).where(OIDCIdentity.user_id == uid))
        ],
        "sessions": [
            {
                "created_at": _when(s.created_at),
                "expires_at": _when(s.expires_at),
                "revoked": s.revoked,
            }
            for s in await db.scalars(select(UserSession).where(UserSession.user_id == uid))
        ],
        "friends_and_requests": friends,
        "invitations_sent": [
            {"email": i.email, "created_at": _when(i.created_at)}
            for i in await db.scalars(
                select(FriendInvitation).where(FriendInvitation.inviter_id == uid)
            )
        ],
        "tier_requests": [
            {
                "tier": r.tier,
                "note": r.note,
                "status": r.status,
                "created_at": _when(r.created_at),
                "decided_at": _when(r.decided_at),
            }
            for r in await db.scalars(select(TierRequest).where(TierRequest.user_id == uid))
        ],
        "tables_hosted": [
            {
                "id": t.id,
                "kind": t.kind,
                "name": t.name,
                "status": t.status,
                "created_at": _when(t.created_at),
            }
            for t in await db.scalars(select(GameTable).where(GameTable.host_id == uid))
        ],
        "seats": [
            {"table_id": s.table_id, "seat": s.seat, "joined": s.joined}
            for s in await db.scalars(select(TableSeat).where(TableSeat.user_id == uid))
        ],
        "deals_played": [
            {
                "deal_id": d.id,
                "table_id": d.table_id,
                "seat": seat,
                "game_no": d.game_no,
                "deal_no": d.deal_no,
                "contract": d.contract,
                "outcome": d.outcome,
                "score_delta": d.score_delta,
                "finished_at": _when(d.finished_at),
            }
            for seat, d in deals
        ],
        "more": await _owned_rows(db, uid),
        "chat_lines": [
            {"table_id": c.table_id, "text": c.text, "at": _when(c.created_at)}
            for c in await db.scalars(
                select(ChatMessage).where(ChatMessage.user_id == uid).order_by(ChatMessage.id)
            )
        ],
        **await ratings.your_data(db, uid),
        **await safety.your_data(db, uid),
        **await tournaments.your_data(db, uid),
    }


#: tables the export shows in its own words above (or that hold nothing to show)
SHOWN = {"sessions", "oidc_identities", "friendships", "friend_invitations", "tier_requests"}


async def _owned_rows(db: AsyncSession, uid: int) -> dict[str, list[dict[str, Any]]]:
    """Every other row that goes with the account (ratings, mutes, live messages, …), by
    table, as stored."""
    out: dict[str, list[dict[str, Any]]] = {}
    for table, column in owned_by_account():
        if table.name in SHOWN:
            continue
        rows = (await db.execute(select(table).where(column == uid))).mappings()
        found = [{k: _plain(v) for k, v in row.items()} for row in rows]
        if found:
            out.setdefault(table.name, []).extend(found)
    return out


def _plain(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else value


async def _scrub_reports(db: AsyncSession, uid: int) -> None:
    """Reported chat keeps its words for the admins, under the name of a former player."""
    from ..safety.models import ChatReport

    await db.execute(
        update(ChatReport)
        .where(ChatReport.author_id == uid)
        .values(author_name=FORMER_PLAYER)
        .execution_options(synchronize_session=False)
    )
    chatted = select(ChatMessage.table_id).where(ChatMessage.user_id == uid).distinct()
    for report in await db.scalars(select(ChatReport).where(ChatReport.table_id.in_(chatted))):
        context = [
            {**line, "name": FORMER_PLAYER} if line.get("user_id") == uid else line
            for line in report.context
        ]
        if context != report.context:
            report.context = context


@dataclass(frozen=True)
class Erased:
    """What a deletion leaves the caller to do once it is stored: close the tables the account
    hosted that were still open, and tell the events it left (id, new version) that they
    changed."""

    hosted: list[str]
    events: list[tuple[int, int]]


async def erase(db: AsyncSession, user: User) -> Erased:
    """Delete ``user``'s account (see the module's note). Its sessions end with it."""
    uid = user.id
    if user.is_admin:
        others = await db.scalar(
            select(func.count())
            .select_from(User)
            .where(User.is_admin.is_(True), User.disabled.is_(False), User.id != uid)
        )
        if not others:
            raise DeleteRefused(
                "you are the only admin: make someone else an admin first", "only_admin"
            )
    organised = await tournaments.not_over(db, uid)
    if organised:  # closing their match tables would leave the matches waiting for ever
        raise DeleteRefused(
            f"you organise a tournament that is not over ({', '.join(organised)}): end it on "
            "its page first",
            "organises_tournament",
        )
    hosted = list(
        await db.scalars(
            select(GameTable.id).where(GameTable.host_id == uid, GameTable.status != "closed")
        )
    )
    left = await tournaments.forget_entrant(db, uid, FORMER_PLAYER)  # (while its name is there)
    for table, column in owned_by_account():
        await db.execute(delete(table).where(column == uid))
    await safety.forget(db, uid)
    await matchmaking.forget(db, uid)
    if user.email:
        await db.execute(delete(LoginToken).where(LoginToken.email == user.email))
        await db.execute(delete(RateEvent).where(RateEvent.key == f"signin:email:{user.email}"))
    await db.execute(
        update(ChatMessage)
        .where(ChatMessage.user_id == uid)
        .values(name=FORMER_PLAYER)
        .execution_options(synchronize_session=False)
    )
    await _scrub_reports(db, uid)
    user.email = None
    user.first_name = FORMER_PLAYER
    user.avatar = ""
    user.card_deck = "classic"
    user.table_theme = "green"
    user.language = "en"
    user.is_admin = False
    user.disabled = True
    user.tier = "basic" if not user.is_guest else "guest"
    user.deleted_at = utcnow()
    await db.commit()
    return Erased(hosted, left)
