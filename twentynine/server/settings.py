"""Server settings: environment variables (``TWENTYNINE_…`` or the common names given below),
overridable by ``twentynine serve`` flags. Every setting is listed in the README."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class OIDCProvider:
    name: str
    client_id: str
    client_secret: str
    server_metadata_url: str
    title: str = ""


@dataclass(frozen=True)
class Settings:
    data_dir: Path = Path("data")
    database_url: str = ""  # default: SQLite file in data_dir
    redis_url: str = ""  # empty: one process, no Redis
    host: str = "127.0.0.1"
    port: int = 8000
    base_url: str = ""  # public URL for links in mail; default http://host:port
    secret_key: str = ""  # signs cookies; default: generated once into data_dir
    dev_mode: bool = False  # development: outbox page on loopback, verbose errors
    smtp_host: str = ""
    smtp_port: int = 587
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_starttls: bool = True
    mail_from: str = "TwentyNine <noreply@localhost>"
    new_account_tier: str = "basic"
    login_code_minutes: int = 10
    login_attempts: int = 5  # wrong codes before a code is void
    login_requests_per_hour: int = 10  # per email address and per client address
    session_days: int = 30
    oidc_providers: tuple[OIDCProvider, ...] = ()
    bot_url_allow: tuple[str, ...] = ()  # hosts/networks external bots may be called at
    takeover_seconds: int = 60  # default wait before a bot takes a disconnected seat
    socket_messages_per_10s: int = 60
    bot_delay_ms: int = 600  # pause before a bot acts, so people can follow
    next_deal_seconds: float = 4.0  # the result stays on the table this long
    #: a public table still waiting for players that no page has shown for this long closes
    #: (its lobby entry would otherwise stay for good: tables/manager.py)
    abandoned_table_minutes: float = 10.0
    chat_max_length: int = 300
    #: the cyclic garbage collector's thresholds (``gc.set_threshold``), see heap.py
    gc_thresholds: tuple[int, int, int] = (700, 300, 100)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return normalise_database_url(self.database_url)
        return f"sqlite+aiosqlite:///{(self.data_dir / 'twentynine.db').resolve()}"

    @property
    def public_url(self) -> str:
        return (self.base_url or f"http://{self.host}:{self.port}").rstrip("/")

    @property
    def secure_cookies(self) -> bool:
        return self.public_url.startswith("https://")

    @property
    def mail_configured(self) -> bool:
        return bool(self.smtp_host)


def normalise_database_url(url: str) -> str:
    """Accept the usual ``postgresql://`` and ``sqlite:///`` forms and pick the async drivers."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        return "postgresql+asyncpg://" + url[len("postgresql://") :]
    if url.startswith("sqlite:///"):
        return "sqlite+aiosqlite:///" + url[len("sqlite:///") :]
    return url


def _env(name: str, default: str = "") -> str:
    return os.environ.get(f"TWENTYNINE_{name}", os.environ.get(name, default))


def _bool(value: str) -> bool:
    return value.strip().lower() in ("1", "true", "yes", "on")


def load_settings(**overrides: Any) -> Settings:
    """Settings from the environment, then ``overrides`` (from flags) on top."""
    values: dict[str, Any] = {}
    env_map: dict[str, tuple[str, Callable[[str], Any]]] = {
        "data_dir": ("DATA_DIR", Path),
        "database_url": ("DATABASE_URL", str),
        "redis_url": ("REDIS_URL", str),
        "host": ("HOST", str),
        "port": ("PORT", int),
        "base_url": ("BASE_URL", str),
        "secret_key": ("SECRET_KEY", str),
        "dev_mode": ("DEV", _bool),
        "smtp_host": ("SMTP_HOST", str),
        "smtp_port": ("SMTP_PORT", int),
        "smtp_user": ("SMTP_USER", str),
        "smtp_password": ("SMTP_PASSWORD", str),
        "smtp_starttls": ("SMTP_STARTTLS", _bool),
        "mail_from": ("MAIL_FROM", str),
        "new_account_tier": ("NEW_ACCOUNT_TIER", str),
        "takeover_seconds": ("TAKEOVER_SECONDS", int),
        "bot_delay_ms": ("BOT_DELAY_MS", int),
        "next_deal_seconds": ("NEXT_DEAL_SECONDS", float),
        "abandoned_table_minutes": ("ABANDONED_TABLE_MINUTES", float),
    }
    raw_gc = _env("GC_THRESHOLDS")
    if raw_gc:
        parts = tuple(int(x) for x in raw_gc.split(","))
        if len(parts) != 3 or min(parts) < 1:
            raise ValueError("GC_THRESHOLDS is three positive numbers, e.g. 2000,100,100")
        values["gc_thresholds"] = parts
    for key, (name, conv) in env_map.items():
        raw = _env(name)
        if raw != "":
            values[key] = conv(raw)
    raw_oidc = _env("OIDC_PROVIDERS")
    if raw_oidc:
        values["oidc_providers"] = tuple(OIDCProvider(**p) for p in json.loads(raw_oidc))
    raw_allow = _env("BOT_URL_ALLOW")
    if raw_allow:
        values["bot_url_allow"] = tuple(x.strip() for x in raw_allow.split(",") if x.strip())
    values.update({k: v for k, v in overrides.items() if v is not None})
    settings = Settings(**values)
    if settings.new_account_tier not in ("basic", "standard", "standard_guest"):
        raise ValueError("NEW_ACCOUNT_TIER must be basic, standard or standard_guest")
    return settings


def ensure_secret(settings: Settings) -> Settings:
    """A secret key: the configured one, or one generated once and kept in the data folder."""
    if settings.secret_key:
        return settings
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    path = settings.data_dir / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(48))
        path.chmod(0o600)
    from dataclasses import replace

    return replace(settings, secret_key=path.read_text().strip())
