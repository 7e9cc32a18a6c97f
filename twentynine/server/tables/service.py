"""Creating tables, taking seats, and deciding who may see, join, play or host."""

from __future__ import annotations

import random
import secrets

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ...engine.errors import InvalidRules, NotationError
from ...engine.records import RulesSpec
from ..accounts.models import CAN_HOST, User
from ..friends.service import are_friends
from ..refusals import Refusal
from ..safety.service import blocks
from .clock import default_turn_seconds
from .models import GameTable, TableSeat
from .schemas import CreateHosted, CreateTable, RulesIn


class AccessError(Refusal):
    """A refused table (or tournament) request."""


def new_id(nbytes: int = 8) -> str:
    return secrets.token_urlsafe(nbytes)[:11]


def rules_spec(body: RulesIn) -> RulesSpec:
    try:
        spec = RulesSpec(body.preset, body.options)
        spec.rules  # noqa: B018 - validate now
    except (InvalidRules, NotationError, TypeError) as e:
        raise AccessError(422, f"rules: {e}", "bad_rules") from None
    return spec


async def seats_of(db: AsyncSession, table_id: str) -> list[TableSeat]:
    return list(
        await db.scalars(
            select(TableSeat).where(TableSeat.table_id == table_id).order_by(TableSeat.seat)
        )
    )


def default_name(kind: str, host: str) -> str:
    """What a table is called when its host gives it no name (the page says it in its own
    language: ``tables.js``)."""
    return f"{host}'s game" if kind == "hosted" else f"{host}'s table"


async def open_tables_of(db: AsyncSession, user_id: int) -> list[str]:
    """The tables, not closed, where ``user_id`` has a seat."""
    return list(
        await db.scalars(
            select(TableSeat.table_id)
            .join(GameTable, GameTable.id == TableSeat.table_id)
            .where(TableSeat.user_id == user_id, GameTable.status != "closed")
        )
    )


def url_bot_allowed(url: str, allow: tuple[str, ...]) -> bool:
    """May the server call a bot at ``url``? Only at hosts or networks the operator listed."""
    import ipaddress
    from urllib.parse import urlparse

    host = (urlparse(url).hostname or "").lower()
    if not host:
        return False
    for entry in allow:
        entry = entry.strip().lower()
        if host == entry:
            return True
        try:
            if ipaddress.ip_address(host) in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            continue
    return False


async def create_table(
    db: AsyncSession, user: User, body: CreateTable, bot_url_allow: tuple[str, ...] = ()
) -> GameTable:
    if user.is_guest and body.kind != "solo":
        raise AccessError(
            403, "guests may play solo against bots; sign in to open tables", "guests_solo"
        )
    if body.rated and (body.kind != "public" or sorted(body.seats) != ["me", *["open"] * 3]):
        raise AccessError(
            422, 'a rated table is public, with seats "me" and three "open"', "rated_seats"
        )
    spec = rules_spec(body.rules)
    for s in body.seats:
        if s.startswith("bot:http"):
            if not url_bot_allowed(s[4:], bot_url_allow):
                raise AccessError(
                    403, f"the server may not call a bot at {s[4:]}", "bot_not_allowed"
                )
            if spec.preset != "bhoos" or spec.options:
                raise AccessError(
                    422, "external bots play the bhoos preset (no house options)", "external_bhoos"
                )
    seats = body.seats
    if body.kind == "solo":
        seats = [
            "me" if s == "me" else (s if s.startswith("bot:") else "bot:intermediate")
            for s in seats
        ]
    table = GameTable(
        id=new_id(),
        kind=body.kind,
        host_id=user.id,
        invite_code=new_id(6) if body.kind == "private" else None,
        name=body.name.strip() or default_name(body.kind, user.first_name),
        rules=spec.to_json(),
        # anyone may watch a public table: watchers see no hand (only a host's friends may)
        spectators_see="none",
        takeover_seconds=body.takeover_seconds,
        turn_seconds=(
            default_turn_seconds(body.kind) if body.turn_seconds is None else body.turn_seconds
        ),
        status="waiting",
        rated=body.rated,
    )
    db.add(table)
    await db.flush()
    for i, s in enumerate(seats):
        if s == "me":
            db.add(TableSeat(table_id=table.id, seat=i, user_id=user.id, joined=True))
        elif s == "open":
            db.add(TableSeat(table_id=table.id, seat=i))
        else:
            db.add(TableSeat(table_id=table.id, seat=i, bot=s[4:], joined=True))
    await db.commit()
    return table


async def active_hosted(db: AsyncSession, host_id: int) -> GameTable | None:
    row: GameTable | None = await db.scalar(
        select(GameTable).where(
            GameTable.host_id == host_id, GameTable.kind == "hosted", GameTable.status != "closed"
        )
    )
    return row


async def create_hosted(db: AsyncSession, host: User, body: CreateHosted) -> GameTable:
    if not CAN_HOST.get(host.tier, False):
        raise AccessError(
            403, f"a {host.tier} account cannot host; hosting needs a standard one", "cannot_host"
        )
    if await active_hosted(db, host.id) is not None:
        raise AccessError(
            409, "you already host a game; close it before hosting another", "already_hosting"
        )
    if body.seats is not None:
        seats = list(body.seats)
        if len(seats) != 4 or len(set(seats)) != 4 or host.id not in seats:
            raise AccessError(
                422, "seats: four different players, the host among them", "bad_seats"
            )
    elif body.players is not None:
        if len(body.players) != 3 or len(set(body.players)) != 3 or host.id in body.players:
            raise AccessError(422, "players: three different friends", "three_friends")
        seats = [host.id, *body.players]
        random.SystemRandom().shuffle(seats)  # random teams (seed 001)
    else:
        raise AccessError(
            422, "give seats (a user id per seat) or players (three friends)", "three_friends"
        )
    for uid in seats:
        if uid == host.id:
            continue
        friend = await db.get(User, uid)
        if friend is None or friend.disabled or friend.is_guest:
            raise AccessError(404, f"no such player: {uid}", "no_such_player")
        if not await are_friends(db, host.id, uid):
            raise AccessError(403, f"{friend.first_name} is not your friend", "not_friend")
        if await blocks(db, uid, host.id):
            raise AccessError(
                403, f"{friend.first_name} does not take invitations from you", "no_invitations"
            )
    spec = rules_spec(body.rules)
    table = GameTable(
        id=new_id(),
        kind="hosted",
        host_id=host.id,
        name=body.name.strip() or default_name("hosted", host.first_name),
        rules=spec.to_json(),
        conference_url=body.conference_url,
        spectators_see=body.spectators_see,
        takeover_seconds=body.takeover_seconds,
        turn_seconds=body.turn_seconds,
        status="waiting",
    )
    db.add(table)
    await db.flush()
    for i, uid in enumerate(seats):
        db.add(TableSeat(table_id=table.id, seat=i, user_id=uid, joined=False))
    await db.commit()
    return table


async def can_view(db: AsyncSession, table: GameTable, user: User | None, code: str | None) -> bool:
    """May ``user`` watch (or, if seated, play at) this table?"""
    if table.status == "closed":
        return False
    if user is None:
        return False
    seats = await seats_of(db, table.id)
    if any(s.user_id == user.id for s in seats):
        return True
    if table.kind in ("public", "tournament"):  # a tournament's matches are open to watch
        return True
    if table.kind == "private":
        return code is not None and secrets.compare_digest(code, table.invite_code or "")
    if table.kind == "hosted":
        return table.host_id is not None and await are_friends(db, table.host_id, user.id)
    return False  # solo: its player only
