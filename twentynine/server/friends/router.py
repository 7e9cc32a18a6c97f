"""Friends over HTTP: ``/api/friends`` — the lists, requests by email, accept, decline, cancel,
remove. Guests cannot have friends; anonymous callers get 401. CSRF is the middleware's."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Request, Response
from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts.models import User
from ..deps import CurrentUser, SessionDep
from ..refusals import refused
from . import invitations, notices, service
from .models import FriendInvitation
from .schemas import FriendActionOut, FriendOut, FriendRequestIn, FriendsOut, InvitationOut

router = APIRouter(prefix="/api/friends", tags=["friends"])


async def friend_user(user: CurrentUser) -> User:
    """A signed-in account; guests are refused with a friends-specific message."""
    if user.is_guest:
        raise refused(403, service.GUESTS, "guest_friends")
    return user


FriendUser = Annotated[User, Depends(friend_user)]
#: user ids are positive INTEGER columns (32 bits in PostgreSQL): a larger number is no id at
#: all (and would make the database driver fail, a 500, instead of a 422)
UserId = Annotated[int, Path(ge=1, le=2**31 - 1)]


def friend_out(user: User) -> FriendOut:
    return FriendOut(id=user.id, first_name=user.first_name, email=user.email)


async def _refused(db: AsyncSession, e: service.FriendError) -> HTTPException:
    await db.rollback()  # let go of any locks before answering
    return e.http()


@router.get("")
async def list_friends(user: FriendUser, db: SessionDep) -> FriendsOut:
    view = await service.overview(db, user)
    return FriendsOut(
        friends=[friend_out(u) for u in view.friends],
        incoming=[friend_out(u) for u in view.incoming],
        outgoing=[friend_out(u) for u in view.outgoing],
        limit=view.limit,
        count=view.count,
    )


@router.post("/requests", status_code=201)
async def request_friend(
    body: FriendRequestIn, user: FriendUser, db: SessionDep, response: Response, request: Request
) -> FriendActionOut:
    """Ask the account with this email to be friends: 201 ``requested``; or, when they had
    already asked you, 200 ``accepted``."""
    try:
        status, other = await service.request(db, user, str(body.email))
    except service.FriendError as e:
        raise await _refused(db, e) from None
    if status == "accepted":
        response.status_code = 200
    await notices.tell(request.app.state.live, status, user, other)
    return FriendActionOut(status=status, user=friend_out(other))


Answer = Callable[[AsyncSession, User, int], Awaitable[User]]
#: what answering a request, or ending a friendship, did (``FriendActionOut.status``)
Answered = Literal["accepted", "declined", "cancelled", "removed"]


async def _answered(
    answer: Answer, status: Answered, user: User, user_id: int, db: AsyncSession, request: Request
) -> FriendActionOut:
    """``answer`` (a service call about ``user_id``), then ``status`` told to both people."""
    try:
        other = await answer(db, user, user_id)
    except service.FriendError as e:
        raise await _refused(db, e) from None
    await notices.tell(request.app.state.live, status, user, other)
    return FriendActionOut(status=status, user=friend_out(other))


@router.post("/requests/{user_id}/accept")
async def accept_request(
    user_id: UserId, user: FriendUser, db: SessionDep, request: Request
) -> FriendActionOut:
    """Accept the request ``user_id`` sent you."""
    return await _answered(service.accept, "accepted", user, user_id, db, request)


@router.post("/requests/{user_id}/decline")
async def decline_request(
    user_id: UserId, user: FriendUser, db: SessionDep, request: Request
) -> FriendActionOut:
    """Turn down the request ``user_id`` sent you."""
    return await _answered(service.decline, "declined", user, user_id, db, request)


@router.delete("/requests/{user_id}")
async def cancel_request(
    user_id: UserId, user: FriendUser, db: SessionDep, request: Request
) -> FriendActionOut:
    """Withdraw the request you sent ``user_id``."""
    return await _answered(service.cancel, "cancelled", user, user_id, db, request)


@router.delete("/{user_id}")
async def remove_friend(
    user_id: UserId, user: FriendUser, db: SessionDep, request: Request
) -> FriendActionOut:
    """Stop being friends with ``user_id``."""
    return await _answered(service.remove, "removed", user, user_id, db, request)


# -- invitations by mail, to people with no account -------------------------------------------
def invitation_out(row: FriendInvitation) -> InvitationOut:
    return InvitationOut(id=row.id, email=row.email, created_at=row.created_at)


@router.get("/invitations")
async def list_invitations(user: FriendUser, db: SessionDep) -> list[InvitationOut]:
    """Your invitations that wait for their addressee to sign up."""
    return [invitation_out(row) for row in await invitations.invitations(db, user)]


@router.post("/invitations", status_code=201)
async def send_invitation(
    body: FriendRequestIn, request: Request, user: FriendUser, db: SessionDep
) -> InvitationOut:
    """Mail an invitation to an address with no account; your friend request waits for them
    and reaches them when they sign up with it."""
    try:
        row, mail = await invitations.invite(db, user, str(body.email))
    except service.FriendError as e:
        raise await _refused(db, e) from None
    if mail:
        subject, text = invitations.invitation_mail(
            user, row.email, request.app.state.settings.public_url
        )
        await request.app.state.mailer.send(row.email, subject, text)
    await _tell_invitations(request, user, row, "sent")
    return invitation_out(row)


async def _tell_invitations(
    request: Request, user: User, row: FriendInvitation, change: str
) -> None:
    """The inviter's other open pages list their invitations again (``friend_invitation``;
    not the address, which a withdrawn invitation forgets, and the stored message would not)."""
    message = {"type": "friend_invitation", "change": change, "invitation_id": row.id}
    await request.app.state.live.send([user.id], message)


@router.delete("/invitations/{invitation_id}")
async def withdraw_invitation(
    invitation_id: UserId, request: Request, user: FriendUser, db: SessionDep
) -> InvitationOut:
    """Withdraw an invitation (the address is then forgotten)."""
    try:
        row = await invitations.withdraw(db, user, invitation_id)
    except service.FriendError as e:
        raise await _refused(db, e) from None
    await _tell_invitations(request, user, row, "withdrawn")
    return invitation_out(row)
