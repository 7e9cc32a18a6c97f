"""Server test fixtures: an app on a fresh database (SQLite file per test by default; PostgreSQL
when TEST_DATABASE_URL is set, one fresh schema per test), and HTTP clients that sign in through
the real email flow."""

from __future__ import annotations

import asyncio
import os
import re
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
import pytest_asyncio
from asgi_lifespan import LifespanManager
from fastapi import FastAPI

from twentynine.server.app import create_app
from twentynine.server.settings import Settings

PG_URL = os.environ.get("TEST_DATABASE_URL", "")


def _backends() -> list[str]:
    return ["sqlite", "postgresql"] if PG_URL else ["sqlite"]


@pytest.fixture(params=_backends())
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"
    return PG_URL


@asynccontextmanager
async def own_database(database_url: str) -> AsyncIterator[str]:
    """The URL a test's app uses: the SQLite file as it is (a new one per test), or on
    PostgreSQL a database of the test's own, made here and dropped after."""
    if not database_url.startswith("postgres"):
        yield database_url
        return
    fresh = await _fresh_database(database_url)
    try:
        yield _database_url(database_url, fresh)
    finally:
        await _drop_database(database_url, fresh)


@asynccontextmanager
async def running_app(database_url: str, tmp_path: Path, **more: Any) -> AsyncIterator[FastAPI]:
    """An app on its own database (``own_database``), started; ``more``: other settings."""
    async with own_database(database_url) as url:
        settings = Settings(
            data_dir=tmp_path,
            database_url=url,
            secret_key="test-secret",
            dev_mode=True,
            bot_delay_ms=0,
            **more,
        )
        application = create_app(settings)
        async with LifespanManager(application):
            yield application


@pytest_asyncio.fixture
async def app(database_url: str, tmp_path: Path) -> AsyncIterator[FastAPI]:
    async with running_app(database_url, tmp_path) as application:
        yield application


def _database_url(url: str, name: str) -> str:
    return url.rsplit("/", 1)[0] + "/" + name


def _plain(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://")


async def _fresh_database(url: str) -> str:
    """Each PostgreSQL test gets a database of its own, made here and dropped after."""
    import asyncpg  # type: ignore[import-untyped]

    name = f"t_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(_plain(url))
    await conn.execute(f'CREATE DATABASE "{name}"')
    await conn.close()
    return name


async def _drop_database(url: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(_plain(url))
    await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await conn.close()


class Client(httpx2.AsyncClient):
    """An HTTP client that sends the CSRF header like the browser client does."""

    async def request(self, method: str, url: httpx2.URL | str, **kwargs):  # type: ignore[override]
        csrf = self.cookies.get("tn_csrf")
        if csrf and method.upper() in ("POST", "PUT", "PATCH", "DELETE"):
            headers = dict(kwargs.pop("headers", None) or {})
            headers.setdefault("x-csrf-token", csrf)
            kwargs["headers"] = headers
        return await super().request(method, url, **kwargs)


def client_for(app: FastAPI) -> Client:
    transport = httpx2.ASGITransport(app=app, client=("127.0.0.1", 50000))
    return Client(transport=transport, base_url="http://127.0.0.1:8000")


@pytest_asyncio.fixture
async def anon(app: FastAPI) -> AsyncIterator[Client]:
    async with client_for(app) as c:
        yield c


def last_code(app: FastAPI, email: str) -> tuple[str, str]:
    """The code and link token from the newest mail to ``email`` in the outbox."""
    for mail in app.state.mailer.outbox:
        if mail.to == email:
            code = re.search(r"code is (\d{6})", mail.body)
            link = re.search(r"/auth/link/([A-Za-z0-9_-]+)", mail.body)
            assert code and link
            return code.group(1), link.group(1)
    raise AssertionError(f"no mail to {email}")


async def sign_in(app: FastAPI, email: str, first_name: str = "Player") -> Client:
    c = client_for(app)
    r = await c.post("/api/auth/email", json={"email": email, "first_name": first_name})
    assert r.status_code == 202, r.text
    code, _ = last_code(app, email)
    r = await c.post("/api/auth/code", json={"email": email, "code": code})
    assert r.status_code == 200, r.text
    return c


# -- a real server on a loopback port, for WebSocket tests ---------------------------------------
class LiveServer:
    def __init__(self, app: FastAPI, url: str) -> None:
        self.app = app
        self.url = url
        self.ws_url = url.replace("http://", "ws://")

    def client(self) -> Client:
        return Client(base_url=self.url, timeout=20)

    def same_person(self, other: Client) -> Client:
        """A client of this server in the session ``other`` holds (on another process)."""
        c = self.client()
        c.cookies.update(other.cookies)
        return c

    async def sign_in(self, email: str, first_name: str = "Player") -> Client:
        c = self.client()
        r = await c.post("/api/auth/email", json={"email": email, "first_name": first_name})
        assert r.status_code == 202, r.text
        code, _ = last_code(self.app, email)
        r = await c.post("/api/auth/code", json={"email": email, "code": code})
        assert r.status_code == 200, r.text
        return c


REDIS_URL = os.environ.get("TEST_REDIS_URL", "")


def need_services(*names: str) -> None:
    """Skip when PostgreSQL/Redis are not configured here; in CI they must be, so fail."""
    missing = [
        n
        for n, present in (("postgresql", bool(PG_URL)), ("redis", bool(REDIS_URL)))
        if n in names and not present
    ]
    if missing:
        reason = f"needs {' and '.join(missing)} (set TEST_DATABASE_URL / TEST_REDIS_URL)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must run this test: {reason}")
        pytest.skip(reason)


async def start_live(settings: Settings) -> tuple[LiveServer, Any]:
    """A real uvicorn server for ``settings`` on a free loopback port; returns it and a stopper."""
    import asyncio
    import socket
    import threading

    import uvicorn

    from twentynine.server.cli import uvicorn_options

    application = create_app(settings)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(
        application,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        **uvicorn_options(),  # as `twentynine serve` runs it
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(400):
        if server.started:
            break
        await asyncio.sleep(0.05)
    assert server.started, "the server did not start"

    async def stop() -> None:
        server.should_exit = True
        await asyncio.to_thread(thread.join, 10)

    return LiveServer(application, f"http://127.0.0.1:{port}"), stop


def live_settings(tmp_path: Path, url: str, **more: Any) -> Settings:
    return Settings(
        data_dir=tmp_path,
        database_url=url,
        secret_key="test-secret",
        dev_mode=True,
        bot_delay_ms=0,
        next_deal_seconds=0.05,
        **more,
    )


@pytest_asyncio.fixture
async def live(database_url: str, tmp_path: Path) -> AsyncIterator[LiveServer]:
    async with own_database(database_url) as url:
        server, stop = await start_live(live_settings(tmp_path, url))
        yield server
        await stop()


@pytest_asyncio.fixture
async def live_pair(tmp_path: Path) -> AsyncIterator[tuple[LiveServer, LiveServer]]:
    """Two server processes' worth of app (each its own manager and Redis fan-out) on one
    PostgreSQL database and one Redis."""
    need_services("postgresql", "redis")
    fresh = await _fresh_database(PG_URL)
    url = _database_url(PG_URL, fresh)
    a, stop_a = await start_live(live_settings(tmp_path / "a", url, redis_url=REDIS_URL))
    b, stop_b = await start_live(live_settings(tmp_path / "b", url, redis_url=REDIS_URL))
    # both apps must share one secret so a session made on one works on the other
    yield a, b
    await stop_a()
    await stop_b()
    await _drop_database(PG_URL, fresh)


def unnumbered(message: dict[str, Any]) -> dict[str, Any]:
    """A live message without the number (``seq``) its person's stream gave it."""
    return {k: v for k, v in message.items() if k != "seq"}


def drain(queue: asyncio.Queue[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a subscribed page was sent so far (``LiveHub.subscribe``), emptying its queue."""
    out = []
    while not queue.empty():
        out.append(queue.get_nowait())
    return out


@asynccontextmanager
async def two_server_processes(tmp_path: Path) -> AsyncIterator[tuple[Any, Any]]:
    """Two real ``twentynine serve`` processes on one fresh PostgreSQL database and Redis
    (``procs.ServerProcess``); stopped, and the database dropped, after."""
    from .procs import ServerProcess, free_port

    need_services("postgresql", "redis")
    fresh = await _fresh_database(PG_URL)
    url = _database_url(PG_URL, fresh)
    one = ServerProcess(tmp_path, free_port(), url, REDIS_URL).start()
    two = ServerProcess(tmp_path, free_port(), url, REDIS_URL).start()
    try:
        yield one, two
    finally:
        one.stop()
        two.stop()
        await _drop_database(PG_URL, fresh)
