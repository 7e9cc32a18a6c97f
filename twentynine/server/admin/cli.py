"""``twentynine admin …``: operator commands on the server's database.

    twentynine admin users [--guests] [--json]
    twentynine admin tables [--json]
    twentynine admin tier EMAIL basic|standard|standard_guest
    twentynine admin disable EMAIL        (also revokes the account's sessions)
    twentynine admin enable EMAIL
    twentynine admin make-admin EMAIL

Every command takes ``--database-url`` (default: the server's configured database) and brings
the database's schema up to date first."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncSession

from .. import migrate
from ..accounts.models import CAN_HOST, FRIEND_LIMITS, TIERS
from ..db import make_engine, make_sessionmaker
from ..friends.service import TIER_NAMES
from ..settings import load_settings, normalise_database_url
from . import service

Command = Callable[[AsyncSession, argparse.Namespace], Awaitable[int]]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``admin`` and its subcommands to the ``twentynine`` command line."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--database-url",
        default=None,
        help="the database (default: the server's, from TWENTYNINE_DATABASE_URL or the data dir)",
    )
    admin = subparsers.add_parser("admin", help="operator commands: users, tables, tiers, bans")
    admin.set_defaults(func=lambda _args: _usage(admin))
    sub = admin.add_subparsers(title="admin commands")

    p = sub.add_parser("users", parents=[common], help="list accounts")
    p.add_argument("--guests", action="store_true", help="include guest sessions")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_runner(cmd_users))

    p = sub.add_parser("tables", parents=[common], help="list game tables")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_runner(cmd_tables))

    p = sub.add_parser("tier", parents=[common], help="set an account's tier")
    p.add_argument("email", help="the account's email address")
    p.add_argument("tier", choices=TIERS, help="the new tier")
    p.set_defaults(func=_runner(cmd_tier))

    p = sub.add_parser(
        "disable", parents=[common], help="disable an account and sign it out everywhere"
    )
    p.add_argument("email", help="the account's email address")
    p.set_defaults(func=_runner(cmd_disable))

    p = sub.add_parser("enable", parents=[common], help="let a disabled account sign in again")
    p.add_argument("email", help="the account's email address")
    p.set_defaults(func=_runner(cmd_enable))

    p = sub.add_parser("make-admin", parents=[common], help="make an account an admin")
    p.add_argument("email", help="the account's email address")
    p.set_defaults(func=_runner(cmd_make_admin))


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``twentynine admin …`` on its own (``argv`` starts with ``admin``)."""
    parser = argparse.ArgumentParser(prog="twentynine")
    register(parser.add_subparsers(title="commands"))
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    result: int = args.func(args)
    return result


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _runner(command: Command) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        url = normalise_database_url(args.database_url or load_settings().resolved_database_url)
        _sqlite_folder(url)
        migrate.upgrade(url)  # blocking, and runs its own event loop: before ours
        return asyncio.run(_with_session(url, command, args))

    return run


def _sqlite_folder(url: str) -> None:
    """A SQLite file's folder must exist before the migrations open the file."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)


async def _with_session(url: str, command: Command, args: argparse.Namespace) -> int:
    engine = make_engine(url)
    try:
        async with make_sessionmaker(engine)() as db:
            try:
                return await command(db, args)
            except service.AdminError as e:
                print(f"error: {e}", file=sys.stderr)
                return 1
    finally:
        await engine.dispose()


def _columns(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=False)]
    for line in (header, *rows):
        print("  ".join(str(x).ljust(w) for x, w in zip(line, widths, strict=True)).rstrip())


def _yes(flag: bool) -> str:
    return "yes" if flag else ""


# -- commands --------------------------------------------------------------------------------------
async def cmd_users(db: AsyncSession, args: argparse.Namespace) -> int:
    users = await service.list_users(db, include_guests=args.guests)
    if args.json:
        print(json.dumps([u.to_json() for u in users], indent=2))
        return 0
    if not users:
        print("no accounts yet")
        return 0
    _columns(
        ("id", "email", "name", "tier", "friends", "admin", "disabled", "created"),
        [
            (
                str(u.id),
                u.email or "-",
                u.first_name,
                u.tier,
                f"{u.friends}/{FRIEND_LIMITS.get(u.tier, 0)}",
                _yes(u.is_admin),
                _yes(u.disabled),
                u.created_at.strftime("%Y-%m-%d %H:%M"),
            )
            for u in users
        ],
    )
    return 0


async def cmd_tables(db: AsyncSession, args: argparse.Namespace) -> int:
    tables = await service.list_tables(db)
    if args.json:
        print(json.dumps([t.to_json() for t in tables], indent=2))
        return 0
    if not tables:
        print("no tables yet")
        return 0
    _columns(
        ("id", "kind", "host", "status", "created"),
        [
            (t.id, t.kind, t.host or "-", t.status, t.created_at.strftime("%Y-%m-%d %H:%M"))
            for t in tables
        ],
    )
    return 0


async def cmd_tier(db: AsyncSession, args: argparse.Namespace) -> int:
    change = await service.set_tier(db, args.email, args.tier)
    user = change.user
    limit = FRIEND_LIMITS[user.tier]
    hosting = "can host games" if CAN_HOST[user.tier] else "cannot host games"
    print(
        f"{user.email}: {TIER_NAMES.get(change.old_tier, change.old_tier)}"
        f" -> {TIER_NAMES[user.tier]} (up to {limit} friends, {hosting})"
    )
    if change.over_limit:
        print(
            f"note: {user.first_name} has {change.friends} friends, more than {limit}; they are "
            "kept, but no new ones until the count is under the limit"
        )
    return 0


async def cmd_disable(db: AsyncSession, args: argparse.Namespace) -> int:
    user, revoked = await service.disable_user(db, args.email)
    print(f"{user.email}: disabled; {revoked} session{'s' if revoked != 1 else ''} revoked")
    return 0


async def cmd_enable(db: AsyncSession, args: argparse.Namespace) -> int:
    user = await service.enable_user(db, args.email)
    print(f"{user.email}: enabled; they can sign in again")
    return 0


async def cmd_make_admin(db: AsyncSession, args: argparse.Namespace) -> int:
    user, changed = await service.make_admin(db, args.email)
    print(f"{user.email}: {'now an admin' if changed else 'already an admin'}")
    return 0
