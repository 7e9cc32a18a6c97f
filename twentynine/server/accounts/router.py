"""Sign-in, sign-out, guests, the profile, and the development outbox."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from sqlalchemy.ext.asyncio import AsyncSession

from ..admin.tables import close_table
from ..deps import CurrentUser, SessionDep, SettingsDep, user_from_token
from ..friends import service as friends
from ..friends.invitations import tell_redeemed
from ..friends.notices import tell_links_ended, tell_renamed
from ..matchmaking import service as matchmaking
from ..ratings import board
from ..refusals import refused
from ..security import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    client_address,
    is_loopback,
    new_token,
    token_hash,
)
from ..settings import Settings
from ..tables.renamed import rename_at_tables
from ..tournaments import account_data as tournaments
from ..tournaments.service import changed_message
from . import data, listing, service
from .models import User
from .notices import tell_changed
from .schemas import (
    CodeRequest,
    DeleteAccountIn,
    EmailRequest,
    GuestRequest,
    ProfileUpdate,
    UserOut,
)
from .signout import end_presence

router = APIRouter()


def user_out(user: User) -> UserOut:
    return UserOut(
        id=user.id,
        email=user.email,
        first_name=user.first_name,
        tier=user.tier,
        is_admin=user.is_admin,
        is_guest=user.is_guest,
        avatar=user.avatar,
        card_deck=user.card_deck,
        table_theme=user.table_theme,
        language=user.language,
    )


def set_session_cookies(response: Response, settings: Settings, token: str) -> None:
    max_age = settings.session_days * 86400
    secure = settings.secure_cookies
    response.set_cookie(
        SESSION_COOKIE, token, max_age=max_age, httponly=True, samesite="lax", secure=secure
    )
    response.set_cookie(
        CSRF_COOKIE, new_token(16), max_age=max_age, httponly=False, samesite="lax", secure=secure
    )


def _fail(e: service.SignInError) -> HTTPException:
    return e.http()


@router.post("/api/auth/email", status_code=202)
async def request_sign_in(
    body: EmailRequest, request: Request, db: SessionDep, settings: SettingsDep
) -> dict[str, object]:
    """Mail a 6-digit code and a one-time link to the address."""
    try:
        code, link = await service.start_sign_in(
            db, settings, body.email, body.first_name, client_address(request), body.language
        )
    except service.SignInError as e:
        raise _fail(e) from None
    url = f"{settings.public_url}/auth/link/{link}"
    minutes = settings.login_code_minutes
    await request.app.state.mailer.send(
        service.normalise_email(body.email),
        f"TwentyNine sign-in code {code}",
        f"Your TwentyNine sign-in code is {code}\n\nOr open this link to sign in:\n{url}\n\n"
        f"Both work once and for {minutes} minutes. If you did not ask for this, ignore it.",
    )
    return {"sent": True, "minutes": minutes}


@router.post("/api/auth/code")
async def sign_in_with_code(
    body: CodeRequest, request: Request, response: Response, db: SessionDep, settings: SettingsDep
) -> UserOut:
    try:
        user = await service.redeem_code(db, settings, body.email, body.code)
    except service.SignInError as e:
        raise _fail(e) from None
    set_session_cookies(response, settings, await service.open_session(db, settings, user))
    await tell_redeemed(request.app.state.live, db, user)
    await listing.tell_made(request.app.state.live, db)
    return user_out(user)


@router.get("/auth/link/{token}", response_model=None)
async def sign_in_with_link(
    token: str, request: Request, db: SessionDep, settings: SettingsDep
) -> RedirectResponse | HTMLResponse:
    try:
        user = await service.redeem_link(db, settings, token)
    except service.SignInError as e:
        return HTMLResponse(f"<p>{e.detail}</p><p><a href='/'>Back</a></p>", status_code=e.status)
    response = RedirectResponse("/#/dashboard", status_code=303)
    set_session_cookies(response, settings, await service.open_session(db, settings, user))
    await tell_redeemed(request.app.state.live, db, user)
    await listing.tell_made(request.app.state.live, db)
    return response


@router.post("/api/auth/guest")
async def sign_in_as_guest(
    body: GuestRequest, request: Request, response: Response, db: SessionDep, settings: SettingsDep
) -> UserOut:
    """A guest may play against bots without an account."""
    if not request.app.state.guest_limiter.allow(client_address(request)):
        raise refused(429, "too many guest sessions; try again later", "too_many_guests")
    user = await service.create_guest(db, body.first_name)
    set_session_cookies(response, settings, await service.open_session(db, settings, user))
    return user_out(user)


@router.post("/api/auth/logout")
async def sign_out(request: Request, response: Response, db: SessionDep) -> dict[str, bool]:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        user = await user_from_token(db, token)
        await service.close_session(db, token)
        if user is not None:  # this browser's other tabs stop hearing of the account
            await request.app.state.live.close_session_pages(user.id, token_hash(token))
        # nobody is seated later at a rated table they no longer see (a bot would keep the
        # seat, and they would lose)
        if user is not None and await matchmaking.leave(db, user):
            await request.app.state.matchmaker.tell_count()
    response.delete_cookie(SESSION_COOKIE)
    response.delete_cookie(CSRF_COOKIE)
    return {"signed_out": True}


@router.get("/api/me")
async def me(user: CurrentUser) -> UserOut:
    return user_out(user)


@router.patch("/api/me")
async def update_me(
    body: ProfileUpdate, request: Request, user: CurrentUser, db: SessionDep
) -> UserOut:
    fresh = await db.get(User, user.id)
    assert fresh is not None
    old_name = fresh.first_name
    for key, value in body.model_dump(exclude_none=True).items():
        setattr(fresh, key, value.strip() if isinstance(value, str) else value)
    await db.commit()
    if fresh.first_name != old_name:
        await _renamed(request, db, fresh, old_name)
        await db.refresh(fresh)  # (a retried team name may have rolled the session back)
    # the person's other open pages (another device) take the new name and choices
    await tell_changed(request.app.state.live, fresh)
    return user_out(fresh)


async def _renamed(request: Request, db: AsyncSession, user: User, old_name: str) -> None:
    """Everything that shows the name follows the new one (it is stored already)."""
    live, user_id, name = request.app.state.live, user.id, user.first_name
    await tell_renamed(live, db, user)  # the friends lists
    await listing.tell(live, [user_id], "renamed")  # the admins' list of accounts
    await board.tell_if_rated(live, db, user_id, "renamed")  # the leaderboard
    # the team names made of it, in events not finished (and their match tables' names)
    for event_id, version in await tournaments.rename_entrant(db, user_id, old_name):
        await live.broadcast(changed_message(event_id, version))
    # the tables where they sit (tables/renamed.py)
    await rename_at_tables(request.app.state.tables, db, user_id, old_name, name)


@router.get("/api/me/data")
async def my_data(user: CurrentUser, db: SessionDep) -> JSONResponse:
    """Everything stored about your account, as a JSON file to keep."""
    return JSONResponse(
        await data.export(db, user),
        headers={"Content-Disposition": 'attachment; filename="twentynine-my-data.json"'},
    )


@router.post("/api/me/delete")
async def delete_me(
    body: DeleteAccountIn, request: Request, response: Response, user: CurrentUser, db: SessionDep
) -> dict[str, bool]:
    """Delete your account: your seats in past deals stay, as "a former player"; everything
    else of yours goes, and every session of yours ends at once."""
    fresh = await db.get(User, user.id)
    assert fresh is not None
    links = await friends.links_ended_by(db, user.id)
    rated = await board.has_rating(db, user.id)  # (the rating goes with the account)
    try:
        erased = await data.erase(db, fresh)
    except data.DeleteRefused as e:
        await db.rollback()
        raise e.http() from None
    # their friends' lists drop them at once (and every process forgets them as a friend)
    await tell_links_ended(request.app.state.live, user.id, fresh.first_name, links)
    for table_id in erased.hosted:  # a game nobody can host any more ends
        await close_table(request.app, table_id)
    for event_id, version in erased.events:  # its entries left them: their open pages follow
        await request.app.state.live.broadcast(changed_message(event_id, version))
    await end_presence(request.app, user.id, "deleted")
    await listing.tell(request.app.state.live, [user.id], "deleted")
    if rated:
        await board.tell(request.app.state.live, user.id, "deleted")
    response.delete_cookie(SESSION_COOKIE)
    response.delete_cookie(CSRF_COOKIE)
    return {"deleted": True}


@router.get("/dev/outbox")
async def outbox(request: Request, settings: SettingsDep) -> list[dict[str, str]]:
    """Development mode only, loopback clients only: the mail the server would have sent."""
    if not settings.dev_mode or not is_loopback(client_address(request)):
        raise HTTPException(status_code=404, detail="not found")
    return [
        {"to": m.to, "subject": m.subject, "body": m.body, "at": m.at.isoformat()}
        for m in request.app.state.mailer.outbox
    ]
