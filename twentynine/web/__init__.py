"""The browser client: plain ES modules, CSS and our own SVG cards, served by the app.

``mount(app)`` adds the client's few presentation endpoints (``web/api.py``), the static files
under ``/static`` and the single page at ``/``. Routing happens in the browser (``#/…``), so ``/``
is the only page. Files are kept in memory, gzipped once, and revalidated by ETag on each load
(no build step means no hashed file names, so a cache must not outlive a deploy).
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import Response

from .api import router

STATIC = Path(__file__).parent / "static"

#: the page's own content security policy: only our files, our socket, inline SVG styling
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'"
)
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
}
COMPRESSIBLE_FROM = 512  # bytes; smaller files go as they are


@dataclass(frozen=True)
class ClientFile:
    stamp: tuple[int, int]  # (mtime_ns, size) when read
    body: bytes
    gzipped: bytes | None
    etag: str
    media_type: str


class ClientFiles:
    """The static files, read on first use and again whenever a file changes on disk."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.cache: dict[str, ClientFile] = {}

    def path_of(self, name: str) -> Path | None:
        """The file for a request path, or None (outside the folder, hidden, or not a file)."""
        try:
            path = (self.root / name).resolve()
            if self.root not in path.parents or any(p.startswith(".") for p in Path(name).parts):
                return None
            return path if path.is_file() else None
        except (OSError, ValueError):  # a NUL byte, a name too long for the file system …
            return None

    def get(self, name: str) -> ClientFile | None:
        path = self.path_of(name)
        if path is None:
            return None
        try:
            st = path.stat()
        except OSError:
            return None
        stamp = (st.st_mtime_ns, st.st_size)
        cached = self.cache.get(name)
        if cached is not None and cached.stamp == stamp:
            return cached
        body = path.read_bytes()
        media_type = TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "text/plain"
        squeeze = len(body) >= COMPRESSIBLE_FROM
        entry = ClientFile(
            stamp=stamp,
            body=body,
            gzipped=gzip.compress(body, compresslevel=9, mtime=0) if squeeze else None,
            etag='"' + hashlib.sha256(body).hexdigest()[:20] + '"',
            media_type=media_type,
        )
        self.cache[name] = entry
        return entry

    def response(
        self, request: Request, name: str, headers: dict[str, str] | None = None
    ) -> Response:
        entry = self.get(name)
        if entry is None:
            raise HTTPException(status_code=404, detail="not found")
        out = {
            "ETag": entry.etag,
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
            "Vary": "Accept-Encoding",
            **(headers or {}),
        }
        if entry.etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=out)
        body = entry.body
        if entry.gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
            body = entry.gzipped
            out["Content-Encoding"] = "gzip"
        return Response(body, media_type=entry.media_type, headers=out)


PAGE_HEADERS = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "same-origin",
}


def mount(app: FastAPI) -> None:
    """Serve the browser client from ``app`` (call after the routers)."""
    files = ClientFiles(STATIC)
    app.include_router(router)

    @app.get("/", include_in_schema=False)
    async def index(request: Request) -> Response:
        return files.response(request, "index.html", PAGE_HEADERS)

    @app.get("/static/{name:path}", include_in_schema=False)
    async def static(name: str, request: Request) -> Response:
        return files.response(request, name)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon(request: Request) -> Response:
        return files.response(request, "icon.svg")


__all__ = ["STATIC", "ClientFiles", "mount"]
