"""What a request may carry, and how a rejected one is answered.

* :data:`Text` and :data:`Line`: text a user types that the server stores. PostgreSQL's text
  cannot hold a NUL character, and no name, link or chat line needs a control character, so
  they are refused up front with a 422 instead of failing in the database.
* :func:`refusal`: what a validator raises for a mistake a person can make in a form (a
  tournament without a name, a link that is not https): its reason's code goes with the 422
  in ``X-Error-Reason``, as a refused request's does, so a page says it in its own language.
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
from pydantic_core import PydanticCustomError
from starlette.responses import Response

from .refusals import REASON_HEADER

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


#: the context key that marks a validation error as a :func:`refusal`
_REFUSAL = "refusal"


def refusal(reason: str, words: str) -> PydanticCustomError:
    """A validator's refusal with its reason's code (``reason``: the error's type, and the
    ``X-Error-Reason`` of the 422) and its English ``words`` (the error's message; no braces:
    pydantic reads them as fields of the context)."""
    return PydanticCustomError(reason, words, {_REFUSAL: True})


def https_link(url: str) -> str:
    """A video-call link as given (stripped): empty, or an https:// address."""
    url = url.strip()
    if not url:
        return url
    from urllib.parse import urlparse

    parts = urlparse(url)
    if parts.scheme != "https" or not parts.netloc or " " in url:
        raise refusal("https_link", "a video-call link must be an https:// address")
    return url


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
    errors = exc.errors()
    reason = next(
        (str(e["type"]) for e in errors if (e.get("ctx") or {}).get(_REFUSAL) is True), None
    )
    return Response(
        encode({"detail": error_list(errors)}),
        status_code=422,
        media_type="application/json",
        headers={REASON_HEADER: reason} if reason else None,
    )
