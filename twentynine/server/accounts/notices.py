"""What a person's own open pages hear when their account changes: ``account_changed``, with
what the pages show of it (the name, the tier, whether an admin). They may be on another
device, or the change an admin's."""

from __future__ import annotations

from typing import Any

from .models import User


def changed_message(user: User) -> dict[str, Any]:
    return {
        "type": "account_changed",
        "user_id": user.id,
        "name": user.first_name,
        "tier": user.tier,
        "is_admin": user.is_admin,
    }


async def tell_changed(live: Any, user: User) -> None:
    """To ``user``'s open pages, on every process (stored for catch-up)."""
    await live.send([user.id], changed_message(user))
