"""``twentynine serve`` and ``twentynine db upgrade``."""

from __future__ import annotations

import argparse
import logging
from typing import Any

from .settings import load_settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    s = sub.add_parser("serve", help="run the web server (SQLite in ./data unless configured)")
    s.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=None, help="port (default 8000)")
    s.add_argument("--database-url", default=None, help="e.g. postgresql://user@host/db")
    s.add_argument("--redis-url", default=None, help="e.g. redis://127.0.0.1:6379/0")
    s.add_argument("--data-dir", default=None, help="folder for the SQLite file and the key")
    s.add_argument("--base-url", default=None, help="public address used in sign-in mail")
    s.add_argument("--dev", action="store_true", default=None, help="development mode")
    s.add_argument("--workers", type=int, default=1, help="server processes (needs Redis)")
    s.add_argument("--log-level", default="info", help="uvicorn's log level (default info)")
    s.set_defaults(func=cmd_serve)

    db = sub.add_parser("db", help="database maintenance")
    dbsub = db.add_subparsers(title="db commands")
    up = dbsub.add_parser("upgrade", help="run the migrations up to the newest")
    up.add_argument("--database-url", default=None, help="e.g. postgresql://user@host/db")
    up.set_defaults(func=cmd_db_upgrade)


def _settings(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from pathlib import Path

    overrides = {
        "host": getattr(args, "host", None),
        "port": getattr(args, "port", None),
        "database_url": getattr(args, "database_url", None),
        "redis_url": getattr(args, "redis_url", None),
        "base_url": getattr(args, "base_url", None),
        "dev_mode": getattr(args, "dev", None),
    }
    data_dir = getattr(args, "data_dir", None)
    if data_dir:
        overrides["data_dir"] = Path(data_dir)
    return load_settings(**overrides)


def uvicorn_options() -> dict[str, Any]:
    """How every server process runs uvicorn: small socket messages, no per-message deflate
    (its compressor state costs ~100 KiB a connection; the table's states are small), and the
    lighter WebSocket protocol of ``server/sockets.py``."""
    return {
        "ws": "twentynine.server.sockets:LeanWebSocketProtocol",
        "ws_max_size": 65536,
        "ws_per_message_deflate": False,
    }


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from .app import create_app

    settings = _settings(args)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    if args.workers > 1:
        if not settings.redis_url:
            print("--workers above 1 needs REDIS_URL (and a shared DATABASE_URL)")
            return 2
        import os

        os.environ["TWENTYNINE_REDIS_URL"] = settings.redis_url
        if settings.database_url:
            os.environ["TWENTYNINE_DATABASE_URL"] = settings.database_url
        uvicorn.run(
            "twentynine.server.app:create_app",
            factory=True,
            host=settings.host,
            port=settings.port,
            workers=args.workers,
            log_level=args.log_level,
            **uvicorn_options(),
        )
        return 0
    app = create_app(settings)
    print(f"TwentyNine is serving on {settings.public_url}")
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level=args.log_level,
        **uvicorn_options(),
    )
    return 0


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from . import migrate

    settings = _settings(args)
    migrate.upgrade(settings.resolved_database_url)
    print(f"database at the newest schema: {settings.resolved_database_url.split('@')[-1]}")
    return 0
