"""The application: ``create_app(settings)`` builds the FastAPI app with every domain's router."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from sqlalchemy import text
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from . import migrate
from .accounts.oidc import router as oidc_router
from .accounts.router import router as accounts_router
from .accounts.signout import close_table_sockets
from .admin.router import router as admin_router
from .db import make_engine, make_sessionmaker
from .friends.router import router as friends_router
from .heap import PacedCollector, settle_the_heap
from .history.router import router as history_router
from .live.hub import LiveHub
from .live.relay import make_relay, namespace_of
from .live.router import router as live_router
from .live.socket import PATH as LIVE_PATH
from .live.socket import is_live_socket, live_socket
from .mail import Mailer
from .matchmaking import runner as matchmaking
from .matchmaking.router import router as matchmaking_router
from .ratings.router import router as ratings_router
from .safety.router import router as safety_router
from .security import CSRFMiddleware, SlidingWindow
from .settings import Settings, ensure_secret, load_settings
from .tables.fanout import make_fanout
from .tables.manager import TableManager
from .tables.notices import TableNotices
from .tables.router import router as tables_router
from .tables.store import TableStore
from .tables.ws import PATH_PREFIX, table_id_of, table_socket
from .tournaments.owner import install as install_tournaments
from .tournaments.router import router as tournaments_router
from .validation import validation_error

log = logging.getLogger("twentynine.server")


class HttpSessions:
    """Starlette's signed-cookie sessions (the OpenID Connect sign-in keeps its state there)
    for HTTP requests only: a table socket needs none, and wrapping every socket frame in the
    session middleware costs time and memory per connection."""

    def __init__(self, app: ASGIApp, /, **options: Any) -> None:
        self.app = app
        self.sessions = SessionMiddleware(app, **options)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self.sessions(scope, receive, send)
        else:
            await self.app(scope, receive, send)


class TwentyNineApp(FastAPI):
    """The FastAPI app, with doors of its own: a table socket (``/ws/tables/{id}``) and the live
    channel (``/ws/me``) go straight to their handlers, past the middleware and the router (see
    ``tables/ws.py``, ``live/socket.py``)."""

    #: the sockets served that way (they are not in ``routes``)
    own_sockets = (PATH_PREFIX + "{table_id}", LIVE_PATH)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        table_id = table_id_of(scope)
        if table_id is not None:
            await table_socket(self, table_id, scope, receive, send)
        elif is_live_socket(scope):
            await live_socket(self, scope, receive, send)
        else:
            await super().__call__(scope, receive, send)


def create_app(settings: Settings | None = None, run_migrations: bool = True) -> FastAPI:
    settings = ensure_secret(settings or load_settings())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        url = settings.resolved_database_url
        if run_migrations:
            await asyncio.to_thread(migrate.upgrade, url)
        engine = make_engine(url)
        app.state.engine = engine
        app.state.sessionmaker = make_sessionmaker(engine)
        app.state.tables = TableManager(
            TableStore(app.state.sessionmaker), settings, make_fanout(settings.redis_url)
        )
        app.state.tables.notices = TableNotices(app.state.live)
        await app.state.tables.start()
        relay = make_relay(settings.redis_url, namespace_of(url))
        await app.state.live.start(app.state.sessionmaker, relay)
        for hook in app.state.startup_hooks:
            await hook(app)
        settle_the_heap(settings.gc_thresholds)
        collector = PacedCollector(lambda: app.state.tables.store.handed_in)
        collector.start()
        log.info("serving on %s (database %s)", settings.public_url, engine.url.get_backend_name())
        try:
            yield
        finally:
            await collector.stop()
            for hook in reversed(app.state.shutdown_hooks):
                await hook(app)
            await app.state.live.stop()
            await app.state.tables.stop()
            await engine.dispose()

    app = TwentyNineApp(title="TwentyNine", version="0.1.0", lifespan=lifespan)
    app.state.settings = settings
    app.state.mailer = Mailer(settings)
    app.state.live = LiveHub()
    # a person whose sessions end (account disabled or deleted) loses their table sockets on
    # every process at once, with their live pages
    app.state.live.on_close.append(functools.partial(close_table_sockets, app))
    app.state.guest_limiter = SlidingWindow(20, 3600)
    app.state.startup_hooks = []
    app.state.shutdown_hooks = []
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_middleware(CSRFMiddleware)
    app.add_middleware(
        HttpSessions,
        secret_key=settings.secret_key,
        session_cookie="tn_oidc",
        max_age=3600,
        same_site="lax",
        https_only=settings.secure_cookies,
    )
    app.include_router(accounts_router)
    app.include_router(oidc_router)
    app.include_router(tables_router)
    app.include_router(history_router)
    app.include_router(friends_router)
    app.include_router(tournaments_router)
    install_tournaments(app)
    app.include_router(live_router)
    app.include_router(admin_router)
    app.include_router(ratings_router)
    app.include_router(matchmaking_router)
    app.include_router(safety_router)
    app.state.startup_hooks.append(matchmaking.start)
    app.state.shutdown_hooks.append(matchmaking.stop)

    from ..web import mount as mount_web_client

    mount_web_client(app)

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        async with app.state.sessionmaker() as db:
            await db.execute(text("SELECT 1"))
        return {"status": "ok"}

    return app
