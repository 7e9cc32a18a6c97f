"""Over HTTP: the notice preferences (``/api/live/prefs``: a sound, a browser notification) and
the counts of people online and playing (``/api/live/counts``)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from ..deps import CurrentUser, SessionDep
from .models import LivePrefs
from .schemas import PrefsIn, PrefsOut

router = APIRouter(prefix="/api/live", tags=["live"])


@router.get("/counts")
async def counts(request: Request) -> dict[str, int]:
    """How many people are online and playing now (open to all, for the Play page)."""
    return dict(request.app.state.live.presence.counts)


@router.get("/prefs")
async def get_prefs(user: CurrentUser, db: SessionDep) -> PrefsOut:
    row = await db.get(LivePrefs, user.id)
    return PrefsOut(sound=bool(row and row.sound), notify=bool(row and row.notify))


@router.put("/prefs")
async def put_prefs(body: PrefsIn, request: Request, user: CurrentUser, db: SessionDep) -> PrefsOut:
    """Set the notice preferences; the person's other open pages (another device, whose
    sound and notifications follow them) are told (``prefs_changed``)."""
    row = await db.get(LivePrefs, user.id)
    if row is None:
        row = LivePrefs(user_id=user.id, sound=False, notify=False)
        db.add(row)
    if body.sound is not None:
        row.sound = body.sound
    if body.notify is not None:
        row.notify = body.notify
    await db.commit()
    prefs = PrefsOut(sound=row.sound, notify=row.notify)
    await request.app.state.live.send(
        [user.id], {"type": "prefs_changed", "user_id": user.id, **prefs.model_dump()}
    )
    return prefs
