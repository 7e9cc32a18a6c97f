"""Tournament test fixtures: an app whose bots act at once and whose tables deal the next deal
at once, with the tournament owner polling often; helpers to run a whole event."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest_asyncio
from asgi_lifespan import LifespanManager
from fastapi import FastAPI

from twentynine.server.app import create_app
from twentynine.server.settings import Settings

from ..conftest import Client, own_database, sign_in


@pytest_asyncio.fixture
async def event_url(database_url: str) -> AsyncIterator[str]:
    """A fresh database for the test (PostgreSQL: one of its own)."""
    async with own_database(database_url) as url:
        yield url


def fast_settings(url: str, data_dir: Path, **extra: Any) -> Settings:
    return Settings(
        data_dir=data_dir,
        database_url=url,
        secret_key="test-secret",
        dev_mode=True,
        bot_delay_ms=0,
        next_deal_seconds=0.0,
        extra={"tournament_poll_seconds": 0.2, "tournament_lease_seconds": 3.0, **extra},
    )


@asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[FastAPI]:
    application = create_app(settings)
    async with LifespanManager(application):
        yield application


@pytest_asyncio.fixture
async def event_app(event_url: str, tmp_path: Path) -> AsyncIterator[FastAPI]:
    async with running(fast_settings(event_url, tmp_path)) as application:
        yield application


async def people(app: FastAPI, *names: str) -> list[Client]:
    """Signed-in clients; the first account is the admin (a standard account: an organiser)."""
    return [await sign_in(app, f"{n.lower()}@example.com", n) for n in names]


async def create(organiser: Client, **fields: Any) -> dict[str, Any]:
    body = {"name": "Chematoodlon", "format": "knockout", "match_deals": 1, **fields}
    r = await organiser.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    doc: dict[str, Any] = r.json()
    return doc


async def register_pair(first: Client, partner: Client, tid: int, partner_email: str) -> int:
    r = await first.post(f"/api/tournaments/{tid}/entries", json={"partner_email": partner_email})
    assert r.status_code == 201, r.text
    entry_id: int = r.json()["you"]["entry_id"]
    r = await partner.post(f"/api/tournaments/{tid}/entries/{entry_id}/confirm")
    assert r.status_code == 200, r.text
    return entry_id


async def wait_for(
    client: Client, tid: int, done: Callable[[dict[str, Any]], bool], seconds: float = 120
) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        r = await client.get(f"/api/tournaments/{tid}")
        assert r.status_code == 200, r.text
        doc: dict[str, Any] = r.json()
        if done(doc):
            return doc
        assert loop.time() < deadline, (
            f"gave up waiting: status {doc['status']}, round {doc['current_round']}"
        )
        await asyncio.sleep(0.2)


def finished(doc: dict[str, Any]) -> bool:
    return doc["status"] == "finished"


def paired(doc: dict[str, Any]) -> bool:
    """Round one's matches are made."""
    return bool(doc["rounds"] and doc["rounds"][0]["matches"])


async def start_against_a_bot(org: Client, tid: int) -> dict[str, Any]:
    """One team of random bots joins the entrants, the tournament starts: its first match.
    The process that takes the start pairs round one before answering only if it holds the
    tournament's lease; else its owner (another process) pairs it a moment later."""
    r = await org.post(f"/api/tournaments/{tid}/bots", json={"teams": 1, "level": "random"})
    assert r.status_code == 201, r.text
    r = await org.post(f"/api/tournaments/{tid}/start")
    assert r.status_code == 200, r.text
    doc: dict[str, Any] = r.json()
    if not paired(doc):
        doc = await wait_for(org, tid, paired, 30)
    match: dict[str, Any] = doc["rounds"][0]["matches"][0]
    return match
