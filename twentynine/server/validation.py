"""What a request may carry, and how a rejected one is answered.

* :data:`Text` and :data:`Line`: text a user types that the server stores. PostgreSQL's text
  cannot hold a NUL character, and no name, link or chat line needs a control character, so
  they are refused up front with a 422 instead of failing in the database.
* :func:`validation_error`: the 422 for a body or parameters that do not validate. FastAPI's
  own handler echoes the offending input, which a JSON response cannot always carry (bytes
  that are not UTF-8, lone surrogates, NaN); this one names where and what is wrong and
  never repeats the input.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Annotated, Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import AfterValidator
from starlette.responses import Response

_ALLOWED_IN_TEXT = {"\n", "\t"}


def _no_controls(value: str, allowed: set[str]) -> str:
    for ch in value:
        if ch not in allowed and unicodedata.category(ch) == "Cc":
            raise ValueError(f"control character U+{ord(ch):04X} is not allowed")
        if 0xD800 <= ord(ch) <= 0xDFFF:
            raise ValueError("a lone surrogate is not text")
    return value


def _line(value: str) -> str:
    return _no_controls(value, set())


def _text(value: str) -> str:
    return _no_controls(value, _ALLOWED_IN_TEXT)


#: one line of text (a name, a link, a code): no control characters at all
Line = Annotated[str, AfterValidator(_line)]
#: longer text (a chat message): line breaks and tabs allowed, no other control character
Text = Annotated[str, AfterValidator(_text)]


def _plain(value: Any) -> str | int:
    return value if isinstance(value, int) else str(value)


def error_list(errors: Any) -> list[dict[str, Any]]:
    """Pydantic's errors without the input or the context (which may repeat it)."""
    return [
        {
            "loc": [_plain(part) for part in e.get("loc", ())],
            "msg": str(e.get("msg", "")),
            "type": str(e.get("type", "")),
        }
        for e in errors
    ]


def encode(body: Any) -> bytes:
    """JSON that any client can read: ASCII only (a lone surrogate becomes its escape)."""
    return json.dumps(body, ensure_ascii=True, allow_nan=False).encode("ascii")


async def validation_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    return Response(
        encode({"detail": error_list(exc.errors())}),
        status_code=422,
        media_type="application/json",
    )
