"""Friends: requests by email, accept, decline, cancel, remove; each tier's friend limit counts
accepted friends and is checked for the requester on a request and for both sides on acceptance.

Changes that can make two people friends first lock both accounts' rows (``SELECT … FOR UPDATE``
on PostgreSQL, the database's write lock on SQLite), so two acceptances racing each other cannot
take either side past its limit, and two crossing requests become one friendship."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Literal, cast

from sqlalchemy import ColumnElement, CursorResult, and_, delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts.models import FRIEND_LIMITS, User
from ..accounts.service import normalise_email, rate_limited
from ..refusals import Refusal
from .models import Friendship


async def blocks(db: AsyncSession, owner_id: int, target_id: int) -> bool:
    from ..safety.service import blocks as blocked  # safety imports friends' models

    return await blocked(db, owner_id, target_id)


PENDING = "pending"
ACCEPTED = "accepted"
#: friend requests (counting ones to unknown addresses) an account may make per hour; keeps
#: "no account with that email" from being a quick way to test which addresses have accounts
REQUESTS_PER_HOUR = 30

TIER_NAMES = {"basic": "basic", "standard": "standard", "standard_guest": "standard guest"}
NO_ACCOUNT = "no account with that email"
GUESTS = "guests cannot have friends; sign in with your email"


class FriendError(Refusal):
    """A refused friends action."""


@dataclass(frozen=True)
class Overview:
    friends: list[User]
    incoming: list[User]  # asked me, waiting for my answer
    outgoing: list[User]  # I asked, waiting for theirs
    limit: int
    count: int


def friend_limit(user: User) -> int:
    return FRIEND_LIMITS.get(user.tier, 0)


def own_limit_message(user: User) -> str:
    tier = TIER_NAMES.get(user.tier, user.tier)
    return f"you have reached the {friend_limit(user)} friends of a {tier} account"


def other_limit_message(user: User) -> str:
    return f"{user.first_name} has reached their friend limit"


def _between(a_id: int, b_id: int) -> ColumnElement[bool]:
    return or_(
        and_(Friendship.requester_id == a_id, Friendship.addressee_id == b_id),
        and_(Friendship.requester_id == b_id, Friendship.addressee_id == a_id),
    )


def _involving(user_id: int) -> ColumnElement[bool]:
    return or_(Friendship.requester_id == user_id, Friendship.addressee_id == user_id)


# -- queries other domains use -------------------------------------------------------------------
async def links_ended_by(
    db: AsyncSession, user_id: int, other_id: int | None = None
) -> list[tuple[int, str]]:
    """Everyone whose friends lists show ``user_id`` (or only ``other_id``), each with what
    ``user_id`` ending the link would be called on the friends page: ``removed`` (friends),
    ``cancelled`` (their own request), ``declined`` (a request to them). For a block or an
    account's deletion, which end links without that page, to tell as it would."""
    where = _involving(user_id) if other_id is None else _between(user_id, other_id)
    ended: dict[int, str] = {}
    for link in await db.scalars(select(Friendship).where(where)):
        mine = link.requester_id == user_id
        other = link.addressee_id if mine else link.requester_id
        if link.status == ACCEPTED:
            ended[other] = "removed"
        else:
            ended.setdefault(other, "cancelled" if mine else "declined")
    return sorted(ended.items())


async def end_link(db: AsyncSession, user_id: int, other_id: int) -> str | None:
    """Delete the friendship or requests between the two (not committed): what ending it is
    called for ``user_id`` (see ``links_ended_by``), None if there was nothing."""
    ended = await links_ended_by(db, user_id, other_id)
    if not ended:
        return None
    await db.execute(delete(Friendship).where(_between(user_id, other_id)))
    return ended[0][1]


async def are_friends(db: AsyncSession, a_id: int, b_id: int) -> bool:
    """True if ``a`` and ``b`` are friends (an accepted request either way)."""
    if a_id == b_id:
        return False
    found = await db.scalar(
        select(Friendship.id).where(_between(a_id, b_id), Friendship.status == ACCEPTED).limit(1)
    )
    return found is not None


async def friend_ids(db: AsyncSession, user_id: int) -> set[int]:
    """The ids of everyone ``user_id`` is friends with."""
    return await linked_ids(db, user_id, accepted_only=True)


async def linked_ids(db: AsyncSession, user_id: int, accepted_only: bool = False) -> set[int]:
    """The ids of everyone whose friends lists show ``user_id``: friends, and (unless
    ``accepted_only``) both sides of a request not yet answered."""
    where = _involving(user_id)
    if accepted_only:
        where = and_(where, Friendship.status == ACCEPTED)
    rows = await db.execute(select(Friendship.requester_id, Friendship.addressee_id).where(where))
    return {b if a == user_id else a for a, b in rows}


async def friend_count(db: AsyncSession, user_id: int) -> int:
    return len(await friend_ids(db, user_id))


# -- the list --------------------------------------------------------------------------------------
async def overview(db: AsyncSession, user: User) -> Overview:
    links: dict[int, Friendship] = {}
    for link in await db.scalars(select(Friendship).where(_involving(user.id))):
        other_id = link.addressee_id if link.requester_id == user.id else link.requester_id
        if other_id not in links or link.status == ACCEPTED:
            links[other_id] = link
    users: dict[int, User] = {}
    if links:
        users = {u.id: u for u in await db.scalars(select(User).where(User.id.in_(list(links))))}
    friends: list[User] = []
    incoming: list[User] = []
    outgoing: list[User] = []
    for other_id, link in links.items():
        other = users.get(other_id)
        if other is None:
            continue
        if link.status == ACCEPTED:
            friends.append(other)
        elif link.requester_id == user.id:
            outgoing.append(other)
        else:
            incoming.append(other)

    def by_name(u: User) -> tuple[str, int]:
        return (u.first_name.casefold(), u.id)

    return Overview(
        friends=sorted(friends, key=by_name),
        incoming=sorted(incoming, key=by_name),
        outgoing=sorted(outgoing, key=by_name),
        limit=friend_limit(user),
        count=len(friends),
    )


# -- changes ---------------------------------------------------------------------------------------
async def _lock_pair(db: AsyncSession, me_id: int, other_id: int) -> tuple[User, User]:
    """Lock both accounts (in id order) until the transaction ends; their fresh rows."""
    ids = sorted({me_id, other_id})
    if db.get_bind().dialect.name != "postgresql":
        # SQLite has no row locks: a no-op write takes the database's write lock instead
        await db.execute(
            update(User)
            .where(User.id.in_(ids))
            .values(tier=User.tier)
            .execution_options(synchronize_session=False)
        )
    stmt = (
        select(User)
        .where(User.id.in_(ids))
        .order_by(User.id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    users = {u.id: u for u in await db.scalars(stmt)}
    me, other = users.get(me_id), users.get(other_id)
    if me is None or other is None:
        raise FriendError(404, "no such account", "no_account")
    return me, other


async def _links(db: AsyncSession, a_id: int, b_id: int) -> list[Friendship]:
    rows = await db.scalars(select(Friendship).where(_between(a_id, b_id)))
    # an accepted link first (should two rows ever exist), then the oldest request
    return sorted(rows, key=lambda f: (f.status != ACCEPTED, f.id))


async def _accept(db: AsyncSession, link: Friendship, acceptor: User, requester: User) -> None:
    if await friend_count(db, acceptor.id) >= friend_limit(acceptor):
        raise FriendError(409, own_limit_message(acceptor), "friend_limit")
    if await friend_count(db, requester.id) >= friend_limit(requester):
        raise FriendError(409, other_limit_message(requester), "their_limit")
    link.status = ACCEPTED
    await db.commit()


async def request(
    db: AsyncSession, user: User, email: str
) -> tuple[Literal["requested", "accepted"], User]:
    """Ask the account with ``email`` to be friends; if they already asked me, that's a yes."""
    if user.is_guest:
        raise FriendError(403, GUESTS, "guest_friends")
    key = f"friends:request:{user.id}"
    if await rate_limited(db, key, REQUESTS_PER_HOUR, dt.timedelta(hours=1)):
        await db.commit()
        raise FriendError(429, "too many friend requests; try again later", "too_many_requests")
    await db.commit()
    target = await db.scalar(select(User).where(User.email == normalise_email(email)))
    if target is None or target.disabled or target.is_guest:
        raise FriendError(404, NO_ACCOUNT, "no_account")
    if target.id == user.id:
        raise FriendError(400, "that is your own email; you cannot be your own friend", "own_email")
    if await blocks(db, target.id, user.id):
        raise FriendError(
            403, f"{target.first_name} does not take friend requests from you", "not_taking"
        )
    me, other = await _lock_pair(db, user.id, target.id)
    links = await _links(db, me.id, other.id)
    if links:
        link = links[0]
        if link.status == ACCEPTED:
            raise FriendError(
                409, f"you are already friends with {other.first_name}", "already_friends"
            )
        if link.requester_id == me.id:
            raise FriendError(
                409, f"you have already asked {other.first_name} to be friends", "already_asked"
            )
        await _accept(db, link, acceptor=me, requester=other)
        return "accepted", other
    if await friend_count(db, me.id) >= friend_limit(me):
        raise FriendError(409, own_limit_message(me), "friend_limit")
    db.add(Friendship(requester_id=me.id, addressee_id=other.id, status=PENDING))
    await db.commit()
    return "requested", other


async def accept(db: AsyncSession, user: User, other_id: int) -> User:
    """Accept ``other_id``'s request to ``user``."""
    if other_id == user.id or await db.get(User, other_id) is None:
        raise FriendError(404, "no friend request from that account", "no_request")
    me, other = await _lock_pair(db, user.id, other_id)
    links = await _links(db, me.id, other.id)
    if links and links[0].status == ACCEPTED:
        raise FriendError(
            409, f"you are already friends with {other.first_name}", "already_friends"
        )
    link = next((f for f in links if f.requester_id == other.id), None)
    if link is None:
        raise FriendError(404, "no friend request from that account", "no_request")
    await _accept(db, link, acceptor=me, requester=other)
    return other


async def _drop(
    db: AsyncSession, other_id: int, where: ColumnElement[bool], missing: str, reason: str
) -> User:
    other = await db.get(User, other_id)
    result = cast(CursorResult[Any], await db.execute(delete(Friendship).where(where)))
    if other is None or not result.rowcount:
        await db.rollback()
        raise FriendError(404, missing, reason)
    await db.commit()
    return other


async def decline(db: AsyncSession, user: User, other_id: int) -> User:
    """Turn down ``other_id``'s request to ``user`` (they may ask again later)."""
    where = and_(
        Friendship.requester_id == other_id,
        Friendship.addressee_id == user.id,
        Friendship.status == PENDING,
    )
    return await _drop(db, other_id, where, "no friend request from that account", "no_request")


async def cancel(db: AsyncSession, user: User, other_id: int) -> User:
    """Withdraw ``user``'s request to ``other_id``."""
    where = and_(
        Friendship.requester_id == user.id,
        Friendship.addressee_id == other_id,
        Friendship.status == PENDING,
    )
    return await _drop(db, other_id, where, "no friend request to that account", "no_request_sent")


async def remove(db: AsyncSession, user: User, other_id: int) -> User:
    """End the friendship of ``user`` and ``other_id`` (either may)."""
    if not await are_friends(db, user.id, other_id):
        raise FriendError(404, "you are not friends with that account", "not_friends")
    # every link between the two goes, so a stray second request cannot linger
    return await _drop(db, other_id, _between(user.id, other_id), "not friends", "not_friends")
