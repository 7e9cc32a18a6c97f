"""What the admin pages that list accounts hear: the live channel's ``accounts`` topic (admins
only). Each change to what the list shows of an account — made, renamed, disabled, enabled,
made an admin, given a tier, deleted, its friends counted again — is one ``account_listed``
message with the account's id and the ``change``; the page asks for its list again."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from .models import User

TOPIC = "accounts"
#: ``db.info`` key: the accounts made in this session's work, told once the sign-in is done
_MADE = "twentynine.accounts_made"


def listed(user_id: int, change: str) -> dict[str, Any]:
    return {"type": "account_listed", "user_id": user_id, "change": change}


async def tell(live: Any, user_ids: list[int], change: str) -> None:
    """To the admin pages that list accounts, on every process."""
    for user_id in user_ids:
        await live.to_watchers(TOPIC, listed(user_id, change))


def made(db: AsyncSession, user: User) -> None:
    """``user`` was just made (not yet told: the sign-in may still fail)."""
    db.info.setdefault(_MADE, []).append(user.id)


async def tell_made(live: Any, db: AsyncSession) -> None:
    """After a sign-in: the account it made, if any, reaches the admins' lists."""
    await tell(live, db.info.pop(_MADE, []), "created")
