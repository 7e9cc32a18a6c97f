"""Invitations by mail: a friend request to an address with no account. The invitation waits
and becomes a real request (a pending ``Friendship``) when someone signs up with the address.

What it reveals: the request flow already answers "no account with that email" (limited to
``REQUESTS_PER_HOUR`` a person); an invitation counts against the same limit and answers the
same way for an address with no account and for a disabled account's (to which no mail goes),
so it tells nothing the request flow does not."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts.models import User
from ..accounts.service import normalise_email, rate_limited
from . import notices
from .models import FriendInvitation, Friendship
from .service import (
    GUESTS,
    PENDING,
    REQUESTS_PER_HOUR,
    FriendError,
    _between,
    friend_count,
    friend_limit,
    own_limit_message,
)

#: the session's note of the inviters whose invitations a sign-up just redeemed
REDEEMED = "invitations_redeemed"
#: invitation mails one account may send a day
INVITES_PER_DAY = 10
#: invitation mails one address may get a week, from everyone together
MAILS_PER_ADDRESS = 3


async def invitations(db: AsyncSession, user: User) -> list[FriendInvitation]:
    """The invitations ``user`` sent that wait for a sign-up, oldest first."""
    rows = await db.scalars(
        select(FriendInvitation)
        .where(FriendInvitation.inviter_id == user.id)
        .order_by(FriendInvitation.id)
    )
    return list(rows)


async def invite(db: AsyncSession, user: User, email: str) -> tuple[FriendInvitation, bool]:
    """Invite the person at ``email`` (who has no account) to be friends; the invitation and
    whether to mail it (not to a disabled account's address)."""
    if user.is_guest:
        raise FriendError(403, GUESTS, "guest_friends")
    email = normalise_email(email)
    hour, week = dt.timedelta(hours=1), dt.timedelta(days=7)
    if await rate_limited(db, f"friends:request:{user.id}", REQUESTS_PER_HOUR, hour):
        await db.commit()
        raise FriendError(429, "too many friend requests; try again later", "too_many_requests")
    if await rate_limited(db, f"friends:invite:{user.id}", INVITES_PER_DAY, dt.timedelta(days=1)):
        await db.commit()
        raise FriendError(
            429, "too many invitations today; try again tomorrow", "too_many_invitations"
        )
    await db.commit()
    if email == user.email:
        raise FriendError(400, "that is your own email; you cannot be your own friend", "own_email")
    target = await db.scalar(select(User).where(User.email == email))
    if target is not None and not target.disabled:
        raise FriendError(
            409, "there is an account with that email: ask them as a friend", "has_account"
        )
    if await friend_count(db, user.id) >= friend_limit(user):
        raise FriendError(409, own_limit_message(user), "friend_limit")
    waiting = await db.scalar(
        select(FriendInvitation).where(
            FriendInvitation.inviter_id == user.id, FriendInvitation.email == email
        )
    )
    if waiting is not None:
        raise FriendError(409, "you have invited that address already", "already_invited")
    if await rate_limited(db, f"friends:invite-to:{email}", MAILS_PER_ADDRESS, week):
        await db.commit()
        raise FriendError(
            429, "that address has had enough invitations this week", "invited_enough"
        )
    invitation = FriendInvitation(inviter_id=user.id, email=email)
    db.add(invitation)
    await db.commit()
    return invitation, target is None


async def withdraw(db: AsyncSession, user: User, invitation_id: int) -> FriendInvitation:
    invitation = await db.get(FriendInvitation, invitation_id)
    if invitation is None or invitation.inviter_id != user.id:
        raise FriendError(404, "no invitation of yours with that id", "no_invitation")
    await db.delete(invitation)
    await db.commit()
    return invitation


async def redeem(db: AsyncSession, user: User) -> list[int]:
    """``user`` just signed up: every invitation to their address becomes a friend request
    from its inviter (unless the two are linked already); the inviters' ids. Not committed."""
    if not user.email:
        return []
    rows = await db.scalars(select(FriendInvitation).where(FriendInvitation.email == user.email))
    inviters: list[int] = []
    for invitation in rows:
        inviter = await db.get(User, invitation.inviter_id)
        if inviter is None or inviter.disabled or inviter.deleted_at is not None:
            continue
        linked = await db.scalar(select(Friendship.id).where(_between(inviter.id, user.id)))
        if linked is None:
            db.add(Friendship(requester_id=inviter.id, addressee_id=user.id, status=PENDING))
            inviters.append(inviter.id)
    await db.execute(delete(FriendInvitation).where(FriendInvitation.email == user.email))
    # for tell_redeemed, once the sign-in is done
    db.info.setdefault(REDEEMED, []).extend(inviters)
    return inviters


async def tell_redeemed(live: Any, db: AsyncSession, user: User) -> None:
    """After a sign-up that turned invitations into requests: each request reaches both open
    pages as any friend request does."""
    for inviter_id in db.info.pop(REDEEMED, []):
        inviter = await db.get(User, inviter_id)
        if inviter is not None:
            await notices.tell(live, "requested", inviter, user)


def invitation_mail(inviter: User, email: str, public_url: str) -> tuple[str, str]:
    """The subject and body of the mail to ``email``."""
    subject = f"{inviter.first_name} invites you to play Twenty-Nine"
    body = (
        f"{inviter.first_name} ({inviter.email}) would like to play Twenty-Nine with you on "
        f"TwentyNine, and has sent you a friend request.\n\n"
        f"Sign up with this address ({email}) and the request will be waiting for you:\n"
        f"{public_url}/#/signin\n\n"
        "If you do not know them, ignore this mail; nothing is kept of you but this address, "
        "until they withdraw the invitation."
    )
    return subject, body
