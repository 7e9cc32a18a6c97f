"""What the friends domain tells people's open pages (the live channel, ``/ws/me``): a request
to its addressee, an answer to the one who asked, an ended friendship to the other side. The
person who acted is told too (with the other person's id and name), so their other open pages
follow."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts import listing
from ..accounts.models import User
from . import service

#: what ``actor`` did to ``other`` → (the type the other side gets, the type the actor gets)
TYPES = {
    "requested": ("friend_request", "friend_requested"),
    "accepted": ("friend_accepted", "friend_accepted"),
    "declined": ("friend_declined", "friend_declined"),
    "cancelled": ("friend_cancelled", "friend_cancelled"),
    "removed": ("friend_removed", "friend_removed"),
}


def _who(user: User) -> dict[str, Any]:
    return {"user_id": user.id, "name": user.first_name}


async def tell(live: Any, change: str, actor: User, other: User) -> None:
    """``change``: one of ``TYPES``, done by ``actor`` to ``other``."""
    to_other, to_actor = TYPES[change]
    await asyncio.gather(
        live.send([other.id], {"type": to_other, **_who(actor)}),
        live.send([actor.id], {"type": to_actor, **_who(other)}),
    )
    if change in ("accepted", "removed"):  # the admins' lists count each one's friends
        await listing.tell(live, [actor.id, other.id], "friends")
    if change == "accepted":  # new friends see at once whether the other is online
        await live.presence.befriended((actor.id, actor.first_name), (other.id, other.first_name))


async def tell_renamed(live: Any, db: AsyncSession, user: User) -> None:
    """``user`` changed their name: everyone their friends lists show them to (friends, and
    both sides of a request not yet answered) is told (``friend_renamed``)."""
    others = await service.linked_ids(db, user.id)
    await live.send(others, {"type": "friend_renamed", **_who(user)})


async def tell_links_ended(
    live: Any, user_id: int, name: str, links: list[tuple[int, str]]
) -> None:
    """``user_id`` (now called ``name``) ended these links without the friends page (its account
    was deleted): each other side is told as that page's action would tell them."""
    await asyncio.gather(
        *(
            live.send([other], {"type": TYPES[change][0], "user_id": user_id, "name": name})
            for other, change in links
        )
    )
    friends = [other for other, change in links if change == "removed"]
    if friends:  # the admins' lists count each one's friends
        await listing.tell(live, friends, "friends")
