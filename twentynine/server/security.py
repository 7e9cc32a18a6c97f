"""Sessions, CSRF and rate limits."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import defaultdict, deque

from fastapi import HTTPException, Request
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.responses import JSONResponse, Response

SESSION_COOKIE = "tn_session"
CSRF_COOKIE = "tn_csrf"
CSRF_HEADER = "x-csrf-token"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token(nbytes: int = 32) -> str:
    return secrets.token_urlsafe(nbytes)


def code_hash(secret_key: str, email: str, code: str) -> str:
    return hmac.new(secret_key.encode(), f"{email}:{code}".encode(), hashlib.sha256).hexdigest()


def new_code() -> str:
    return f"{secrets.randbelow(1_000_000):06d}"


class CSRFMiddleware(BaseHTTPMiddleware):
    """Double-submit cookie: a state-changing request that carries a session cookie must send the
    CSRF cookie's value in the ``X-CSRF-Token`` header. (SameSite=Lax cookies already stop most
    cross-site posts; this closes the rest.)"""

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        if request.method in UNSAFE and request.cookies.get(SESSION_COOKIE):
            cookie = request.cookies.get(CSRF_COOKIE, "")
            header = request.headers.get(CSRF_HEADER, "")
            if not cookie or not hmac.compare_digest(cookie, header):
                return JSONResponse(
                    {
                        "detail": "missing or wrong CSRF token (send the tn_csrf cookie's value "
                        "in the X-CSRF-Token header)"
                    },
                    status_code=403,
                )
        return await call_next(request)


class SlidingWindow:
    """An in-process rate limiter: at most ``limit`` events per ``seconds`` per key."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit = limit
        self.seconds = seconds
        self.events: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        q = self.events[key]
        while q and now - q[0] > self.seconds:
            q.popleft()
        if len(q) >= self.limit:
            return False
        q.append(now)
        return True


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def is_loopback(host: str) -> bool:
    return host in ("127.0.0.1", "::1", "localhost", "testclient") or host.startswith("127.")


def forbid(detail: str) -> HTTPException:
    return HTTPException(status_code=403, detail=detail)
