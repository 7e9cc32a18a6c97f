"""Fuzzing the HTTP API from its own OpenAPI description (``app.openapi()``).

Every operation the description lists is called, in process, with generated path and query
parameters and bodies: values of the right shape (from the schema, and from the world the test
builds: real table, user and deal ids, emails, sign-in codes and invite codes) and wrong ones
(wrong types, out of range, too long, missing or unknown fields, unicode with NULs and lone
surrogates, huge strings and numbers, bodies that are not JSON at all), by anonymous, signed-in,
guest, disabled and forged sessions, with the CSRF header right, missing or wrong. Properties:

1. no response is a 5xx (the transport turns an unhandled error into a 500);
2. a refused request (4xx) changes nothing: no database row (every table is compared before and
   after) and no live table (version, status, seats, game). The only exceptions are the counters
   whose job is to count refusals: ``rate_events`` for sign-in requests and
   ``login_tokens.attempts`` for wrong codes;
3. a GET changes no row (except redeeming a sign-in link, which signs in);
4. an unsafe request that carries a session cookie without the matching CSRF header gets 403;
5. a caller without a session never gets a 2xx from a route that needs a signed-in user;
6. afterwards every live table still satisfies the engine's invariants and matches its stored
   snapshot (``test_fuzz_socket.check_table``).

``run_http_fuzz`` is also what ``benchmarks/fuzz.py`` runs for longer.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
import random
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import Any
from unittest import mock
from urllib.parse import quote, urlencode

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from sqlalchemy import select, text, update

from twentynine.engine.rules import PRESETS, Rules, option_choices, option_names
from twentynine.engine.views import view
from twentynine.server.accounts import service as accounts_service
from twentynine.server.accounts.models import User
from twentynine.server.db import Base
from twentynine.server.deps import current_user
from twentynine.server.security import CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, UNSAFE
from twentynine.server.tables.clock import TurnClock
from twentynine.server.tables.runtime import Connection, TableRuntime

from .conftest import Client, sign_in
from .test_fuzz_socket import HYPOTHESIS_OWN_THREAD_RANDOM, check_table, quiet

Strategy = st.SearchStrategy[Any]

#: requests in the default run (the socket fuzz adds its own; together at least 10,000)
# Hypothesis's choice of operation is lumpy: with some 120 operations, 6,000 requests left one
# with fewer than 20; 12,000 leave the least about 30
DEFAULT_EXAMPLES = 600
DEFAULT_BATCH = 20
MIN_REQUESTS = 12000

#: refusals that change rows on purpose: they count refusals (rate limits, wrong codes)
COUNTERS: dict[str, set[tuple[str, str | None]]] = {
    "POST /api/auth/email": {("rate_events", None)},
    "POST /api/auth/code": {("login_tokens", "attempts")},
    "POST /api/friends/requests": {("rate_events", None)},
    "POST /api/friends/invitations": {("rate_events", None)},
}
#: GETs that may change rows when they succeed: they sign someone in
SIGN_IN_GETS = ("/auth/link/{token}", "/auth/oidc/{name}/callback")

BIG_INTS = [
    2**31 - 1,
    2**31,
    -(2**31) - 1,
    2**53 + 1,
    2**63 - 1,
    2**63,
    2**64,
    10**30,
    -(10**30),
]
SPECIAL_STRINGS = [
    "",
    " ",
    "   \t\n",
    "\x00",
    "a\x00b",
    "\ud800",
    "x\udfffy",
    "\U0001f0a1\U0001f600",
    "ñandú",
    "বাংলা",
    "\u202eevil",
    "\ufeff",
    "null",
    "NaN",
    "-1",
    "0",
    "1e309",
    "true",
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "%00",
    "%2F",
    "\r\nSet-Cookie: x=1",
    "{{7*7}}",
    "me",
    "open",
    "bot:intermediate",
    "bot:../x",
]
RAW_BODIES = [
    b"",
    b"{",
    b'{"a":',
    b"null",
    b"[]",
    b'"text"',
    b"\xff\xfe\x00",
    b'{"email": "\xc3\x28"}',
    b"[" * 5000,
    b'{"a":' * 3000,
    b"NaN",
    b"1" * 5000,
    b"\x00" * 64,
]
CONTENT_TYPES = [
    "application/json",
    "application/json",
    "application/json",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json; charset=latin-1",
]


# -- generic values ----------------------------------------------------------------------------
def _repeat(piece: str, n: int) -> str:
    return (piece * (n // max(1, len(piece)) + 1))[:n]


surrogates = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
huge_text = st.builds(_repeat, st.text(min_size=1, max_size=3), st.integers(61, 70_000))
texts = st.one_of(
    st.text(max_size=24),
    st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=24),
    st.sampled_from(SPECIAL_STRINGS),
    st.text(st.one_of(surrogates, st.sampled_from("\x00\t\n a\u0301\U0001f600")), max_size=6),
    huge_text,
)
small_texts = st.one_of(st.text(max_size=8), st.sampled_from(SPECIAL_STRINGS[:20]))
ints = st.one_of(
    st.integers(-3, 40),
    st.integers(-(2**31), 2**31),
    st.sampled_from(BIG_INTS),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    ints,
    st.floats(allow_nan=True, allow_infinity=True),
    texts,
)
any_json = st.recursive(
    scalars,
    lambda kids: st.one_of(
        st.lists(kids, max_size=4), st.dictionaries(small_texts, kids, max_size=4)
    ),
    max_leaves=10,
)


def encode_json(value: Any, rnd: random.Random) -> bytes:
    """JSON text as a client might send it: escaped or raw UTF-8 (lone surrogates become bytes
    no UTF-8 decoder accepts), NaN and Infinity as Python writes them."""
    if rnd.random() < 0.7:
        return json.dumps(value).encode()
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


# -- the world the requests refer to ----------------------------------------------------------
@dataclasses.dataclass
class Identity:
    name: str
    token: str | None  # the session cookie
    csrf: str | None
    user_id: int | None = None


@dataclasses.dataclass
class World:
    app: FastAPI
    identities: dict[str, Identity] = dataclasses.field(default_factory=dict)
    table_ids: list[str] = dataclasses.field(default_factory=list)
    user_ids: list[int] = dataclasses.field(default_factory=list)
    deal_ids: list[int] = dataclasses.field(default_factory=list)
    emails: list[str] = dataclasses.field(default_factory=list)
    invite_codes: list[str] = dataclasses.field(default_factory=list)

    def pick(self, kind: str, i: int) -> Any:
        """The ``i``-th known value of a kind (modulo), read when the request is generated:
        the world grows as the fuzzing goes."""
        values: list[Any]
        if kind in ("codes", "links"):
            found = []
            for mail in list(self.app.state.mailer.outbox)[-40:]:
                body = mail.body
                if kind == "codes" and "code is " in body:
                    found.append(body.split("code is ", 1)[1][:6])
                elif kind == "links" and "/auth/link/" in body:
                    found.append(body.split("/auth/link/", 1)[1].split()[0])
            values = found
        else:
            values = getattr(self, kind)
        return values[i % len(values)] if values else None

    def harvest(self, path: str, data: Any) -> None:
        """Remember ids that responses mention, so later requests can use them."""
        for key, value in _walk(data):
            if key in ("id", "table", "table_id") and isinstance(value, str) and len(value) <= 16:
                _remember(self.table_ids, value)
            elif key == "invite_code" and isinstance(value, str):
                _remember(self.invite_codes, value)
            elif key in ("user_id", "host_id") and isinstance(value, int):
                _remember(self.user_ids, value)
            elif key == "id" and isinstance(value, int):
                if path.startswith("/api/history") or path.startswith("/api/web/replay"):
                    _remember(self.deal_ids, value)
                else:
                    _remember(self.user_ids, value)
            elif key == "email" and isinstance(value, str):
                _remember(self.emails, value)


def _remember(values: list[Any], value: Any) -> None:
    if value not in values and len(values) < 500:
        values.append(value)


def _walk(data: Any) -> Iterable[tuple[str, Any]]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield k, v
            yield from _walk(v)
    elif isinstance(data, list):
        for v in data:
            yield from _walk(v)


def world_value(world: World, kind: str) -> Strategy:
    return (
        st.integers(0, 1 << 16).map(lambda i: world.pick(kind, i)).filter(lambda v: v is not None)
    )


# -- schema to strategy --------------------------------------------------------------------------
def option_value(name: str) -> Strategy:
    choices = option_choices(name)
    default = getattr(Rules(), name)
    if choices:
        good: Strategy = st.sampled_from(list(choices))
    elif isinstance(default, bool):
        good = st.booleans()
    else:
        good = st.integers(-2, 40)
    return st.one_of(good, good, good, scalars)


rule_options = st.lists(
    st.sampled_from(option_names()).flatmap(lambda n: st.tuples(st.just(n), option_value(n))),
    max_size=4,
).map(dict)
presets = st.sampled_from(list(PRESETS))
rules_bodies = st.one_of(
    st.just({}),
    st.fixed_dictionaries({"preset": presets}),
    st.fixed_dictionaries({"preset": presets, "options": rule_options}),
    st.fixed_dictionaries(
        {},
        optional={
            "preset": st.one_of(presets, small_texts),
            "options": st.one_of(rule_options, any_json),
        },
    ),
    any_json,
)
#: no "bot:expert": its solver's first use in a process loads compiled code for seconds (more on
#: a cold cache), which would make this test's time depend on what ran before it
seat_specs = st.sampled_from(
    ["me", "open", "bot:random", "bot:beginner", "bot:intermediate", "bot:", "bot:x", "Me"]
)


class SchemaStrategies:
    """Strategies for the values of an OpenAPI schema: ``valid`` ones of the right shape (with
    the world's ids where a property names one) and ``invalid`` ones."""

    def __init__(self, spec: dict[str, Any], world: World) -> None:
        self.components: dict[str, Any] = spec.get("components", {}).get("schemas", {})
        self.world = world

    def resolve(self, schema: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
        name = None
        while "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            schema = self.components[name]
        return name, schema

    def hint(self, owner: str | None, prop: str) -> Strategy | None:
        w = self.world
        if prop == "email":
            return st.one_of(world_value(w, "emails"), st.emails())
        if owner == "CodeRequest" and prop == "code":
            return world_value(w, "codes")
        if prop == "code":
            return world_value(w, "invite_codes")
        if owner == "CreateHosted" and prop in ("seats", "players"):
            n = 4 if prop == "seats" else 3
            return st.lists(world_value(w, "user_ids"), min_size=n, max_size=n)
        if owner == "CreateTable" and prop == "seats":
            four = st.lists(seat_specs.filter(lambda x: x != "me"), min_size=3, max_size=3)
            good = st.tuples(four, st.integers(0, 3)).map(
                lambda t: [*t[0][: t[1]], "me", *t[0][t[1] :]]
            )
            return st.one_of(good, good, st.lists(seat_specs, min_size=3, max_size=5))
        if prop == "rules":
            return rules_bodies
        if prop == "conference_url":
            return st.sampled_from(
                [
                    "https://meet.example.com/abc",
                    "http://x.example",
                    "javascript:alert(1)",
                    "https://",
                ]
            )
        return None

    def valid(self, schema: dict[str, Any], owner: str | None = None) -> Strategy:
        name, schema = self.resolve(schema)
        owner = name or owner
        if "anyOf" in schema or "oneOf" in schema:
            choices = schema.get("anyOf") or schema.get("oneOf") or []
            return st.one_of([self.valid(s, owner) for s in choices])
        if "enum" in schema:
            return st.sampled_from(schema["enum"])
        if "const" in schema:
            return st.just(schema["const"])
        kind = schema.get("type")
        if kind == "null":
            return st.none()
        if kind == "boolean":
            return st.booleans()
        if kind == "integer":
            lo, hi = schema.get("minimum"), schema.get("maximum")
            return st.integers(
                int(lo) if lo is not None else -5, int(hi) if hi is not None else 10**6
            )
        if kind == "number":
            return st.floats(schema.get("minimum"), schema.get("maximum"), allow_nan=False)
        if kind == "string":
            return self._string(schema)
        if kind == "array":
            items = self.valid(schema.get("items", {}), owner)
            return st.lists(items, min_size=schema.get("minItems", 0), max_size=6)
        if kind == "object" or "properties" in schema:
            return self._object(schema, owner)
        return any_json

    def _string(self, schema: dict[str, Any]) -> Strategy:
        lo, hi = schema.get("minLength", 0), schema.get("maxLength", 40)
        if schema.get("format") == "email":
            return st.emails()
        if "pattern" in schema:
            pattern = st.from_regex(schema["pattern"], fullmatch=True)
            return pattern.filter(lambda s: lo <= len(s) <= hi)
        return st.text(min_size=lo, max_size=min(hi, 40))

    def _object(self, schema: dict[str, Any], owner: str | None) -> Strategy:
        props: dict[str, Any] = schema.get("properties", {})
        required = set(schema.get("required", []))

        def prop(key: str) -> Strategy:
            value = self.valid(props[key], owner)
            hinted = self.hint(owner, key)
            return value if hinted is None else st.one_of(hinted, hinted, value)

        if not props:
            return st.dictionaries(small_texts, any_json, max_size=3)
        return st.fixed_dictionaries(
            {k: prop(k) for k in props if k in required},
            optional={k: prop(k) for k in props if k not in required},
        )

    def invalid(self, schema: dict[str, Any]) -> Strategy:
        _, schema = self.resolve(schema)
        options: list[Strategy] = [any_json]
        if "anyOf" in schema:
            options += [self.invalid(s) for s in schema["anyOf"] if s.get("type") != "null"]
        kind = schema.get("type")
        if "enum" in schema:
            options.append(texts.filter(lambda s: s not in schema["enum"]))
        if kind == "string":
            hi = schema.get("maxLength")
            if hi is not None:
                options.append(st.builds(_repeat, st.text(min_size=1, max_size=2), st.just(hi + 1)))
            options += [ints, texts, st.lists(texts, max_size=2), st.none()]
        elif kind == "integer":
            lo, hi = schema.get("minimum"), schema.get("maximum")
            edges = [int(v) + d for v, d in ((lo, -1), (hi, 1)) if v is not None]
            options += [
                st.sampled_from(edges + BIG_INTS),
                st.floats(),
                ints.map(str),
                st.booleans(),
                texts,
            ]
        elif kind == "array":
            items = schema.get("items", {})
            options += [
                st.lists(self.invalid(items), min_size=1, max_size=3),
                st.lists(self.valid(items), min_size=20, max_size=60),
                texts,
                st.dictionaries(small_texts, ints, max_size=2),
            ]
        elif kind == "object" or "properties" in schema:
            options += [st.lists(any_json, max_size=3), texts, ints]
        return st.one_of(options)

    def body(self, schema: dict[str, Any]) -> Strategy:
        """A request body: (bytes or None, content type or None)."""
        _, resolved = self.resolve(schema)
        props: dict[str, Any] = resolved.get("properties", {})
        required = list(resolved.get("required", []))
        valid = self.valid(schema)

        @st.composite
        def mutated(draw: st.DrawFn) -> Any:
            value = draw(valid)
            if not isinstance(value, dict) or not props:
                return value
            how = draw(st.sampled_from(["bad", "bad", "missing", "extra"]))
            keys = list(props)
            if how == "bad":
                key = draw(st.sampled_from(keys))
                value[key] = draw(self.invalid(props[key]))
            elif how == "missing":
                pool = [k for k in required if k in value] or [k for k in keys if k in value]
                if pool:
                    del value[draw(st.sampled_from(pool))]
            else:
                value[draw(small_texts.filter(lambda k: k not in props))] = draw(any_json)
            return value

        @st.composite
        def body(draw: st.DrawFn) -> tuple[bytes | None, str | None]:
            how = draw(st.sampled_from(["valid"] * 4 + ["mutated"] * 4 + ["other", "raw", "none"]))
            if how == "none":
                return None, draw(st.sampled_from([None, "application/json"]))
            if how == "raw":
                raw = draw(st.one_of(st.sampled_from(RAW_BODIES), st.binary(max_size=64)))
                return raw, draw(st.sampled_from(CONTENT_TYPES))
            value = draw(valid if how == "valid" else mutated() if how == "mutated" else any_json)
            rnd = random.Random(draw(st.integers(0, 1 << 30)))
            content_type = "application/json" if rnd.random() < 0.9 else rnd.choice(CONTENT_TYPES)
            return encode_json(value, rnd), content_type

        return body()


# -- the operations -----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Param:
    name: str
    where: str  # path or query
    required: bool
    schema: dict[str, Any]


@dataclasses.dataclass(frozen=True)
class Operation:
    method: str
    path: str
    params: tuple[Param, ...]
    body: dict[str, Any] | None
    needs_user: bool

    @property
    def key(self) -> str:
        return f"{self.method} {self.path}"


def _needs_user(app: FastAPI) -> set[tuple[str, str]]:
    """(method, path) of every route whose dependencies include a signed-in user."""

    def calls(dependant: Any) -> Iterable[Any]:
        for d in dependant.dependencies:
            yield d.call
            yield from calls(d)

    out: set[tuple[str, str]] = set()
    for route in app.routes:
        if isinstance(route, APIRoute) and current_user in set(calls(route.dependant)):
            out |= {(m, route.path) for m in route.methods or ()}
    return out


def operations(app: FastAPI) -> list[Operation]:
    spec = app.openapi()
    guarded = _needs_user(app)
    ops = []
    for path, items in spec["paths"].items():
        for method, op in items.items():
            params = tuple(
                Param(p["name"], p["in"], bool(p.get("required")), p.get("schema", {}))
                for p in op.get("parameters", [])
                if p["in"] in ("path", "query")
            )
            body = None
            if "requestBody" in op:
                body = op["requestBody"]["content"]["application/json"]["schema"]
            ops.append(
                Operation(method.upper(), path, params, body, (method.upper(), path) in guarded)
            )
    return ops


@dataclasses.dataclass
class Request:
    op: Operation
    identity: str
    csrf: str  # ok, missing, wrong, no_cookie
    client: int
    path: str
    query: list[tuple[str, str]]
    content: bytes | None
    content_type: str | None

    @property
    def url(self) -> str:
        """The path and the query, UTF-8 and percent-encoded (lone surrogates as the bytes
        no UTF-8 decoder accepts)."""
        query = urlencode(self.query, encoding="utf-8", errors="surrogatepass")
        return self.path + ("?" + query if query else "")

    def describe(self) -> str:
        url = self.url
        body = self.content[:300] if self.content is not None else None
        url = url if len(url) < 300 else url[:300] + f"... ({len(url)} characters)"
        return (
            f"{self.op.method} {url} as {self.identity} (csrf {self.csrf}), "
            f"content-type {self.content_type!r}, body {body!r}"
        )


PATH_HINTS = {
    "table_id": "table_ids",
    "user_id": "user_ids",
    "deal_id": "deal_ids",
    "token": "links",
}
IDENTITIES = [
    "anonymous",
    "host",
    "player",
    "watcher",
    "stranger",
    "guest",
    "disabled",
    "forged",
]


def request_strategy(ops: list[Operation], gen: SchemaStrategies) -> Strategy:
    def param_value(p: Param) -> Strategy:
        valid = gen.valid(p.schema)
        hint = PATH_HINTS.get(p.name) or ("invite_codes" if p.name == "code" else None)
        if hint is not None:
            valid = st.one_of(world_value(gen.world, hint), world_value(gen.world, hint), valid)
        return st.one_of(valid, valid, valid, gen.invalid(p.schema))

    def as_text(value: Any) -> str:
        if isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        return json.dumps(value) if not isinstance(value, int | float) else str(value)

    bodies = {op.key: gen.body(op.body) for op in ops if op.body is not None}
    values = {(op.key, p.name): param_value(p) for op in ops for p in op.params}

    @st.composite
    def request(draw: st.DrawFn) -> Request:
        op = draw(st.sampled_from(ops))
        path = op.path
        query: list[tuple[str, str]] = []
        for p in op.params:
            if p.where == "path":
                text = as_text(draw(values[op.key, p.name]))[:1000]  # URLs have limits
                path = path.replace(
                    "{" + p.name + "}", quote(text, safe="", errors="surrogatepass") or "%20"
                )
            elif p.required or draw(st.booleans()):
                for _ in range(draw(st.sampled_from([1, 1, 1, 2]))):
                    query.append((p.name, as_text(draw(values[op.key, p.name]))[:1000]))
        if draw(st.integers(0, 9)) == 0:
            query.append((draw(small_texts), draw(small_texts)))
        content: bytes | None = None
        content_type: str | None = None
        if op.key in bodies:
            content, content_type = draw(bodies[op.key])
        elif draw(st.integers(0, 9)) == 0:
            content, content_type = draw(st.sampled_from(RAW_BODIES)), "application/json"
        return Request(
            op,
            draw(st.sampled_from(IDENTITIES)),
            draw(st.sampled_from(["ok"] * 5 + ["missing", "wrong", "no_cookie"])),
            draw(st.integers(0, 2)),
            path,
            query,
            content,
            content_type,
        )

    return request()


# -- known bugs --------------------------------------------------------------------------------
def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _numbers(value: Any) -> Iterable[float]:
    if isinstance(value, float):
        yield value
    elif isinstance(value, dict | list):
        for v in value.values() if isinstance(value, dict) else value:
            yield from _numbers(v)


def unwritable(req: Request) -> bool:
    """The body holds what a JSON response cannot carry: bytes that are not UTF-8, lone
    surrogates (escaped, or as the bytes ``json.loads`` decodes with ``surrogatepass``), or
    NaN and Infinity (which Python's ``json.loads`` reads)."""
    if req.content is None:
        return False
    try:
        req.content.decode("utf-8")
        value = json.loads(req.content)
    except UnicodeDecodeError:
        return True
    except (ValueError, RecursionError):
        return False
    return any(0xD800 <= ord(c) <= 0xDFFF for s in _strings(value) for c in s) or any(
        not math.isfinite(x) for x in _numbers(value)
    )


def has_nul(req: Request) -> bool:
    try:
        value = json.loads(req.content or b"null")
    except (ValueError, RecursionError):
        return False
    return any("\x00" in s for s in _strings(value))


@dataclasses.dataclass(frozen=True)
class KnownBug:
    """A 500 whose cause is outside this test's files, with its reproducer below: counted and
    reported, not failing the fuzz run. Remove it once its reproducer passes (strict xfail)."""

    name: str
    applies: Callable[[Request, bool], bool]  # (the request, the database is PostgreSQL)


KNOWN_BUGS: list[KnownBug] = []


# -- running and checking -----------------------------------------------------------------------
Rows = dict[str, list[tuple[Any, ...]]]


class DatabaseWatch:
    """Every row of every table, and a cheap probe that changes whenever anything was
    committed (SQLite's ``PRAGMA data_version`` on a connection of our own; on PostgreSQL the
    write-ahead log's insert position, which every change to a logged table moves before it
    commits): the rows are read again only after the probe moved. The log also moves for work
    that changes no row (a rolled-back insert, a sequence, a checkpoint): then the rows are
    read and compared for nothing, never skipped."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        url = app.state.engine.url
        self.sqlite: sqlite3.Connection | None = None
        if url.get_backend_name() == "sqlite":
            self.sqlite = sqlite3.connect(url.database, isolation_level=None)
        self.tables = [t for t in Base.metadata.sorted_tables]
        self.cached: tuple[Any, Rows] | None = None

    async def probe(self) -> Any:
        if self.sqlite is not None:
            return self.sqlite.execute("PRAGMA data_version").fetchone()[0]
        async with self.app.state.engine.connect() as conn:
            return (await conn.execute(text("SELECT pg_current_wal_insert_lsn()"))).scalar_one()

    async def _read(self) -> Rows:
        out: Rows = {}
        if self.sqlite is not None:
            for table in self.tables:
                keys = ", ".join(c.name for c in table.primary_key.columns) or "rowid"
                query = f"SELECT * FROM {table.name} ORDER BY {keys}"
                out[table.name] = [tuple(r) for r in self.sqlite.execute(query)]
            return out
        async with self.app.state.engine.connect() as conn:
            for table in self.tables:
                order = list(table.primary_key.columns) or list(table.columns)
                result = await conn.execute(select(table).order_by(*order))
                out[table.name] = [tuple(r) for r in result.all()]
        return out

    async def rows(self) -> tuple[Any, Rows]:
        """(probe, rows) as of now; the rows are read only if the probe moved."""
        version = await self.probe()
        if self.cached is None or self.cached[0] != version:
            self.cached = (version, await self._read())
        return self.cached

    def close(self) -> None:
        if self.sqlite is not None:
            self.sqlite.close()


def row_changes(before: Rows, after: Rows, allowed: set[tuple[str, str | None]]) -> str:
    """The tables whose rows differ (columns and tables in ``allowed`` aside), a line each."""
    changes = []
    for table in Base.metadata.sorted_tables:
        if (table.name, None) in allowed:
            continue
        skip = [i for i, c in enumerate(table.columns) if (table.name, c.name) in allowed]

        def clean(rows: list[tuple[Any, ...]], skip: list[int] = skip) -> list[tuple[Any, ...]]:
            return [tuple(v for i, v in enumerate(r) if i not in skip) for r in rows]

        a, b = clean(before[table.name]), clean(after[table.name])
        if a != b:
            gone = [r for r in a if r not in b][:3]
            new = [r for r in b if r not in a][:3]
            changes.append(f"{table.name}: {len(a)} -> {len(b)} rows, gone {gone}, new {new}")
    return "; ".join(changes)


async def _noop() -> None:
    return None


@dataclasses.dataclass
class Failure:
    kind: str
    request: str
    detail: str


@dataclasses.dataclass
class HttpFuzzer:
    app: FastAPI
    world: World
    clients: list[httpx2.AsyncClient]
    watch: DatabaseWatch
    requests: int = 0
    statuses: Counter[int] = dataclasses.field(default_factory=Counter)
    per_operation: Counter[str] = dataclasses.field(default_factory=Counter)
    failures: dict[str, Failure] = dataclasses.field(default_factory=dict)
    failure_count: int = 0
    known: Counter[str] = dataclasses.field(default_factory=Counter)

    def fail(self, kind: str, req: Request, detail: str) -> None:
        if kind.startswith("5"):
            pg = self.app.state.engine.url.get_backend_name() != "sqlite"
            bug = next((b for b in KNOWN_BUGS if b.applies(req, pg)), None)
            if bug is not None:
                self.known[bug.name] += 1
                return
        self.failure_count += 1
        key = f"{kind}: {req.op.key}"
        self.failures.setdefault(key, Failure(kind, req.describe(), detail[:1500]))

    async def settle(self) -> None:
        """Wait until no table has work under way (bots, timers, queued commands) and the live
        hub has stored what they posted, so that whatever changes between two snapshots is the
        request's doing."""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            runtimes: list[TableRuntime] = list(self.app.state.tables.tables.values())
            # ... and the notices they spawned sent and stored (the hub writes in batches)
            notices = self.app.state.tables.notices
            told = notices is None or not notices.tasks
            if all(quiet(r) for r in runtimes) and told and self.app.state.live.idle():
                return
            await asyncio.sleep(0.001)
        raise AssertionError("the tables never settled")

    def live_tables(self) -> dict[str, tuple[Any, ...]]:
        return {
            r.info.id: (
                r.version,
                r.status,
                id(r.game),
                tuple((s.user_id, s.bot, s.joined, s.standin) for s in r.seats),
            )
            for r in self.app.state.tables.tables.values()
        }

    def headers(self, req: Request) -> dict[str, str]:
        ident = self.world.identities.get(req.identity)
        headers: dict[str, str] = {}
        cookies = []
        if ident is not None and ident.token is not None:
            cookies.append(f"{SESSION_COOKIE}={ident.token}")
        csrf = ident.csrf if ident is not None and ident.csrf else "c" * 22
        if req.csrf != "no_cookie":
            cookies.append(f"{CSRF_COOKIE}={csrf}")
        if req.csrf in ("ok", "no_cookie"):
            headers[CSRF_HEADER] = csrf
        elif req.csrf == "wrong":
            headers[CSRF_HEADER] = csrf[::-1] + "x"
        if cookies:
            headers["cookie"] = "; ".join(cookies)
        if req.content_type is not None:
            headers["content-type"] = req.content_type
        return headers

    async def run(self, req: Request) -> None:
        await self.settle()
        version, rows_before = await self.watch.rows()
        tables_before = self.live_tables()
        client = self.clients[req.client]
        headers = self.headers(req)
        try:
            response = await client.request(
                req.op.method,
                req.url,
                content=req.content,
                headers=headers,
                follow_redirects=False,
            )
        except Exception as e:  # the transport itself broke: as bad as a 500
            self.fail("transport error", req, repr(e))
            return
        finally:
            client.cookies.clear()
        self.requests += 1
        status = response.status_code
        self.statuses[status] += 1
        self.per_operation[req.op.key] += 1
        if status >= 500:
            self.fail(f"{status}", req, response.text)
            return
        ident = self.world.identities.get(req.identity)
        has_session = ident is not None and ident.token is not None
        if req.op.method in UNSAFE and has_session and req.csrf != "ok" and status != 403:
            self.fail("CSRF not enforced", req, f"{status} {response.text}")
        if not has_session and req.op.needs_user and status < 400:
            self.fail("anonymous got through", req, f"{status} {response.text}")
        refused = 400 <= status < 500
        is_get = req.op.method == "GET" and req.op.path not in SIGN_IN_GETS
        if refused or is_get:
            await self.settle()
            after, rows_after = await self.watch.rows()
            allowed = COUNTERS.get(req.op.key, set())
            diff = row_changes(rows_before, rows_after, allowed) if after != version else ""
            if diff:
                self.fail("state changed by a refused request or a GET", req, f"{status}: {diff}")
            if refused and self.live_tables() != tables_before:
                self.fail("live table changed by a refused request", req, f"{status}")
        if 200 <= status < 300:
            try:
                data = response.json()
            except ValueError:
                data = None
            self.world.harvest(req.op.path, data)
            if req.op.path == "/api/auth/logout" and ident is not None and ident.user_id:
                await self.renew(ident)

    async def renew(self, ident: Identity) -> None:
        """A fuzzed sign-out ended one of the world's sessions: open another for it."""
        async with self.app.state.sessionmaker() as db:
            user = await db.get(User, ident.user_id)
            assert user is not None
            ident.token = await accounts_service.open_session(db, self.app.state.settings, user)


# -- the world ---------------------------------------------------------------------------------
def identity_of(name: str, client: Client, user_id: int | None) -> Identity:
    return Identity(
        name, client.cookies.get(SESSION_COOKIE), client.cookies.get(CSRF_COOKIE), user_id
    )


async def build_world(app: FastAPI) -> World:
    """A host (the first account: admin, standard tier) with three friends seated at a hosted
    game and a fourth who watches, a stranger who asked the host to be friends, a guest, a
    disabled account, a forged session; a private and a public table, solo games, and a
    finished deal in the history."""
    world = World(app)
    names = ["host", "player", "ana", "bo", "watcher", "stranger", "disabled"]
    clients = {n: await sign_in(app, f"{n}@example.com", n.capitalize()) for n in names}
    ids = {n: (await c.get("/api/me")).json()["id"] for n, c in clients.items()}
    host = clients["host"]
    for n in ("player", "ana", "bo", "watcher"):
        r = await host.post("/api/friends/requests", json={"email": f"{n}@example.com"})
        assert r.status_code == 201, r.text
        r = await clients[n].post(f"/api/friends/requests/{ids['host']}/accept")
        assert r.status_code == 200, r.text
    r = await clients["stranger"].post("/api/friends/requests", json={"email": "host@example.com"})
    assert r.status_code == 201, r.text
    seats = [ids[n] for n in ("host", "player", "ana", "bo")]
    r = await host.post("/api/tables/hosted", json={"seats": seats, "name": "Fuzz"})
    assert r.status_code == 201, r.text
    world.table_ids.append(r.json()["id"])
    r = await clients["player"].post(f"/api/tables/{r.json()['id']}/join", json={})
    assert r.status_code == 200, r.text
    r = await host.post("/api/tables", json={"kind": "private"})
    assert r.status_code == 201, r.text
    world.table_ids.append(r.json()["id"])
    world.invite_codes.append(r.json()["invite_code"])
    r = await clients["stranger"].post("/api/tables", json={"kind": "public"})
    assert r.status_code == 201, r.text
    world.table_ids.append(r.json()["id"])
    solo = ["me", "bot:random", "bot:random", "bot:random"]
    r = await clients["player"].post("/api/tables", json={"kind": "solo", "seats": solo})
    assert r.status_code == 201, r.text
    world.table_ids.append(r.json()["id"])
    await play_a_deal(app, r.json()["id"], ids["player"])
    guest = Client(transport=host._transport, base_url="http://127.0.0.1:8000")
    r = await guest.post("/api/auth/guest", json={"first_name": "Visitor"})
    assert r.status_code == 200, r.text
    r = await guest.post("/api/tables", json={"kind": "solo"})
    assert r.status_code == 201, r.text
    world.table_ids.append(r.json()["id"])
    async with app.state.sessionmaker() as db:
        await db.execute(update(User).where(User.id == ids["disabled"]).values(disabled=True))
        await db.commit()
    for n in ("host", "player", "watcher", "stranger", "disabled"):
        world.identities[n] = identity_of(n, clients[n], ids[n])
    world.identities["guest"] = identity_of("guest", guest, None)
    world.identities["forged"] = Identity("forged", "x" * 43, "y" * 22)
    world.user_ids += [*ids.values(), 0, -1]
    world.emails += [f"{n}@example.com" for n in names] + ["HOST@Example.com "]
    r = await clients["player"].get("/api/history/deals")
    world.deal_ids += [d["id"] for d in r.json()]
    assert world.deal_ids, "the solo deal did not reach the history"
    for c in [*clients.values(), guest]:
        await c.aclose()
    return world


async def play_a_deal(app: FastAPI, table_id: str, user_id: int) -> None:
    """Play the person's seat of a solo table (bots play the rest) until a deal is stored."""
    runtime: TableRuntime = await app.state.tables.get(table_id)
    seat = runtime.seat_of(user_id)
    assert seat is not None

    async def ignore(_: dict[str, Any]) -> None:
        return None

    conn = Connection(user_id, "Player", seat, ignore)
    deadline = time.monotonic() + 60
    while runtime.game is not None and runtime.game.deals == 1:
        assert time.monotonic() < deadline, "the solo deal did not finish"
        game = runtime.game
        if quiet(runtime) and not game.round.is_over:
            legal = view(game.round, seat).legal
            if legal:
                await runtime.act(conn, legal[0].to_json())
                continue
        await asyncio.sleep(0.005)


# -- the fuzzing run ---------------------------------------------------------------------------
def turn_clock_stopped() -> AbstractContextManager[Any]:
    """The turn clock stands still: a move it makes between two snapshots is not the request's
    doing (and seats it hands to bots would keep public tables busy for ever). ``run_http_fuzz``
    runs under it, for the test and for ``benchmarks/fuzz.py`` alike: the benchmark, which runs
    for minutes, once went without it and took the moves of public tables' 20-s clocks for
    changes made by refused requests."""
    return mock.patch.object(TurnClock, "_arm_clock", _clock_stands_still)


def _clock_stands_still(self: TurnClock) -> None:
    return None


async def run_http_fuzz(
    app: FastAPI,
    examples: int = DEFAULT_EXAMPLES,
    batch: int = DEFAULT_BATCH,
    fuzz_seed: int | None = None,
) -> HttpFuzzer:
    """Build the world, then send ``examples`` batches of ``batch`` generated requests, the turn
    clock stopped throughout (``turn_clock_stopped``). The generation (Hypothesis) runs in a
    worker thread; the requests run on this event loop."""
    with turn_clock_stopped():
        return await _fuzz_http(app, examples, batch, fuzz_seed)


async def _fuzz_http(app: FastAPI, examples: int, batch: int, fuzz_seed: int | None) -> HttpFuzzer:
    # a deal that ends at once (5% do) waits for its next deal: not for 4 s in a fuzz run
    tables = app.state.tables
    tables.settings = dataclasses.replace(tables.settings, next_deal_seconds=0.0)
    world = await build_world(app)
    addresses = [("127.0.0.1", 50001), ("10.1.2.3", 50002), ("192.0.2.7", 50003)]
    clients = [
        httpx2.AsyncClient(
            transport=httpx2.ASGITransport(app=app, raise_app_exceptions=False, client=addr),
            base_url="http://127.0.0.1:8000",
        )
        for addr in addresses
    ]
    fuzzer = HttpFuzzer(app, world, clients, DatabaseWatch(app))
    strategy = st.lists(
        request_strategy(operations(app), SchemaStrategies(app.openapi(), world)),
        min_size=batch,
        max_size=batch,
    )
    loop = asyncio.get_running_loop()

    async def run_batch(requests: list[Request]) -> None:
        for req in requests:
            await fuzzer.run(req)

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def generate(requests: list[Request]) -> None:
        asyncio.run_coroutine_threadsafe(run_batch(requests), loop).result()

    run: Callable[[], None] = generate if fuzz_seed is None else seed(fuzz_seed)(generate)
    try:
        await asyncio.to_thread(run)
        await fuzzer.settle()
        for runtime in list(tables.tables.values()):
            await check_table(app.state.sessionmaker, runtime)
    finally:
        fuzzer.watch.close()
        for c in clients:
            await c.aclose()
    return fuzzer


def report(fuzzer: HttpFuzzer) -> str:
    lines = [f"{len(fuzzer.failures)} kinds of failure ({fuzzer.failure_count} requests):"]
    for key, f in fuzzer.failures.items():
        lines.append(f"- {key}\n  request: {f.request}\n  detail: {f.detail}")
    lines += [f"known bug, {n} requests: {name}" for name, n in fuzzer.known.items()]
    return "\n".join(lines)


@pytest.mark.filterwarnings(HYPOTHESIS_OWN_THREAD_RANDOM)
async def test_fuzz_http_api(app: FastAPI) -> None:
    fuzzer = await run_http_fuzz(app)
    print(f"\nHTTP fuzz: {fuzzer.requests} requests, {dict(sorted(fuzzer.statuses.items()))}")
    print(report(fuzzer))
    assert not fuzzer.failures, report(fuzzer)
    assert fuzzer.requests >= MIN_REQUESTS, fuzzer.requests
    # the fuzzing reached the handlers, not only the validation in front of them
    classes = Counter(s // 100 for s in fuzzer.statuses.elements())
    assert classes[2] >= fuzzer.requests // 20 and classes[4] >= fuzzer.requests // 4, classes
    missing = [op.key for op in operations(app) if fuzzer.per_operation[op.key] < 20]
    assert not missing, missing


async def test_the_fuzzing_stops_the_turn_clock_and_starts_it_again(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``run_http_fuzz`` (which ``benchmarks/fuzz.py`` runs too) builds its world and sends its
    requests with the turn clock stopped, and leaves it as it found it, even when it fails."""
    arm = TurnClock._arm_clock
    seen: list[Any] = []

    async def world_then_stop(app: FastAPI) -> None:
        seen.append(TurnClock._arm_clock)
        raise RuntimeError("stop here")

    monkeypatch.setattr(f"{__name__}.build_world", world_then_stop)
    with pytest.raises(RuntimeError, match="stop here"):
        await run_http_fuzz(app)
    assert seen == [_clock_stands_still]
    assert TurnClock._arm_clock is arm


async def test_the_watch_moves_with_every_commit(app: FastAPI) -> None:
    """The fuzzing's "nothing changed" rests on the probe: a committed change must move it, and
    the rows read after it must show the change."""
    await sign_in(app, "ann@example.com", "Ann")
    watch = DatabaseWatch(app)
    try:
        version, before = await watch.rows()
        async with app.state.sessionmaker() as db:
            await db.execute(update(User).values(first_name="Bea"))
            await db.commit()
        after, rows = await watch.rows()
        assert after != version
        assert row_changes(before, rows, set()).startswith("users:")
    finally:
        watch.close()


# -- reproducers of the known bugs (strict: each fails the suite once its bug is fixed, so that
# -- its KNOWN_BUGS entry is removed and the fuzzing holds the fix) ----------------------------
def raw_client(app: FastAPI, signed_in: Client) -> Client:
    """A client of ``signed_in``'s session that gets a 500 instead of the app's exception."""
    transport = httpx2.ASGITransport(app=app, raise_app_exceptions=False)
    return Client(transport=transport, base_url="http://127.0.0.1:8000", cookies=signed_in.cookies)


async def test_a_422_never_echoes_input_json_cannot_carry(app: FastAPI) -> None:
    client = raw_client(app, await sign_in(app, "ann@example.com", "Ann"))
    json_body = {"content-type": "application/json"}
    r = await client.patch("/api/me", content=b'{"first_name": "\\ud800"}', headers=json_body)
    assert r.status_code == 422, r.text
    r = await client.patch("/api/me", content=b'{"first_name": NaN}', headers=json_body)
    assert r.status_code == 422, r.text
    r = await client.post("/api/auth/code", content=b"\xa9", headers={"content-type": "text/plain"})
    assert r.status_code == 422, r.text


async def test_a_nul_in_a_stored_text_is_refused(app: FastAPI) -> None:
    """PostgreSQL cannot store a NUL: every database refuses it up front, and nothing changes."""
    client = raw_client(app, await sign_in(app, "ann@example.com", "Ann"))
    r = await client.patch("/api/me", json={"first_name": "a\x00b"})
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["body", "first_name"]
    assert (await client.get("/api/me")).json()["first_name"] == "Ann"
    r = await client.post("/api/tables", json={"name": "x\x00"})
    assert r.status_code == 422, r.text
