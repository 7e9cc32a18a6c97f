"""Who may do what: every HTTP route of the app and every table-socket action, for each role.

Roles: ``anonymous`` (no session), ``stranger`` (signed in, not the host's friend, not seated),
``friend`` (the host's friend who watches), ``player`` (seated at the host's game), ``host``,
``admin`` (the first account on the server; not the host and not the host's friend).

The world is built once per test: the admin signs up first, then the host (given the standard
tier by the admin service), three friends the host seats with them, a fourth friend who watches,
and a stranger. Every cell of the matrices below is asserted; a route the matrix does not list
fails ``test_every_route_is_in_the_matrix``, so a new route must be added here."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import websockets
from fastapi import FastAPI
from fastapi.routing import iter_route_contexts
from starlette.routing import WebSocketRoute

from twentynine.bots import RandomBot
from twentynine.engine import Action, apply, start_round, to_act
from twentynine.engine.records import DealRecord, RulesSpec
from twentynine.engine.shuffle import uniform_deck
from twentynine.engine.views import view
from twentynine.server.admin import service as admin_service
from twentynine.server.app import create_app
from twentynine.server.db import make_engine, make_sessionmaker
from twentynine.server.settings import Settings

from .conftest import Client, LiveServer, client_for, sign_in
from .tables.wsclient import TableSocket, play_until

ROLES = ("anonymous", "stranger", "friend", "player", "host", "admin")
Cell = int | tuple[int, str]  # a status, or a status and words of the refusal's detail


@dataclass(frozen=True)
class Row:
    method: str
    path: str  # {placeholders} name things of the world: {table}, {host}, {deal}, …
    body: dict[str, Any] | None
    cells: tuple[Cell, ...]  # one per role, in the order of ROLES


def row(route: str, body: dict[str, Any] | None, *cells: Cell) -> Row:
    method, path = route.split(" ", 1)
    assert len(cells) == len(ROLES), route
    return Row(method, path, body, cells)


# refusals, named by the words of their reasons
CANNOT_HOST = (403, "cannot host")
HOSTS_ALREADY = (409, "already host")
NOT_HIS_FRIEND = (403, "is not your friend")
NO_SEAT = (403, "no seat")
NOT_SEATED = (409, "no seat")
KEEPS_PLAYERS = (409, "keeps its players")
NOT_HOST = (403, "host can")
FRIENDS_ONLY = (409, "played by the host's friends")
NOT_ALONE = (403, "only the one person")
NOT_PLAYER = (403, "the table's players")
NOT_OVER = (409, "not over")
OWN_EMAIL = (400, "your own email")
ALREADY_FRIENDS = (409, "already friends")
# request bodies
N = None
EMAIL = {"email": "newcomer@example.com", "first_name": "Nia"}
CODE = {"email": "nobody@example.com", "code": "123456"}
GUEST = {"first_name": "Visitor"}
AVATAR = {"avatar": "fox"}
PRIVATE = {"kind": "private"}
FRIENDS = {"players": "{players}"}  # the host's three players, asked for by someone else
SCORE = {"what": "score"}
ASK = {"email": "{stranger_email}"}
NOTE = {"note": "I run our Friday game"}
TIER = {"tier": "basic"}
CONFIRM_WRONG = {"confirm": False}  # deleting an account: refused, nothing deleted
HAS_ACCOUNT = (409, "account with that email")
CAN_HOST_ALREADY = (409, "host games already")
NEEDS_STANDARD = (403, "needs a standard account")
CUP = {"name": "Cup", "format": "knockout"}
SWAP = {"user_id": 1, "email": "someone@example.com"}
BOTS = {"teams": 1}

# The rows run top to bottom on one world; some change it, so their order matters: the host's
# game is closed at the end of the tables' rows; in the friends' rows everyone asks the
# stranger, who accepts the host and declines the admin, the friend and the player withdraw
# theirs, and the host ends it again; signing out comes last.
# fmt: off
HTTP_MATRIX: list[Row] = [
    #   route                                        body      anon strg frnd plyr host admn
    # -- open to all -------------------------------------------------------------------------
    row("GET /healthz",                              N,        200, 200, 200, 200, 200, 200),
    row("GET /openapi.json",                         N,        200, 200, 200, 200, 200, 200),
    row("GET /docs",                                 N,        200, 200, 200, 200, 200, 200),
    row("GET /docs/oauth2-redirect",                 N,        200, 200, 200, 200, 200, 200),
    row("GET /redoc",                                N,        200, 200, 200, 200, 200, 200),
    row("GET /",                                     N,        200, 200, 200, 200, 200, 200),
    row("GET /favicon.ico",                          N,        200, 200, 200, 200, 200, 200),
    row("GET /static/{css}",                         N,        200, 200, 200, 200, 200, 200),
    row("GET /api/web/session",                      N,        200, 200, 200, 200, 200, 200),
    row("GET /api/web/bots",                         N,        200, 200, 200, 200, 200, 200),
    row("GET /api/web/rules",                        N,        200, 200, 200, 200, 200, 200),
    row("GET /api/web/rules-text",                   N,        200, 200, 200, 200, 200, 200),
    row("GET /api/auth/providers",                   N,        200, 200, 200, 200, 200, 200),
    row("GET /auth/oidc/{nowhere}/login",            N,        404, 404, 404, 404, 404, 404),
    row("GET /auth/oidc/{nowhere}/callback",         N,        404, 404, 404, 404, 404, 404),
    row("GET /dev/outbox",                           N,        200, 200, 200, 200, 200, 200),
    row("POST /api/auth/email",                      EMAIL,    202, 202, 202, 202, 202, 202),
    row("POST /api/auth/code",                       CODE,     400, 400, 400, 400, 400, 400),
    row("GET /auth/link/{bogus}",                    N,        400, 400, 400, 400, 400, 400),
    row("POST /api/auth/guest",                      GUEST,    200, 200, 200, 200, 200, 200),
    # -- the account -------------------------------------------------------------------------
    row("GET /api/me",                               N,        401, 200, 200, 200, 200, 200),
    row("PATCH /api/me",                             AVATAR,   401, 200, 200, 200, 200, 200),
    row("GET /api/me/data",                          N,        401, 200, 200, 200, 200, 200),
    row("POST /api/me/delete",                       CONFIRM_WRONG,
        401, 422, 422, 422, 422, 422),
    row("GET /api/tier-requests/mine",               N,        401, 200, 200, 200, 200, 200),
    row("POST /api/tier-requests",                   NOTE,
        401, 201, 201, 201, CAN_HOST_ALREADY, CAN_HOST_ALREADY),
    # -- the admin page: admins only (each action on an account or thing that is not there) --
    row("GET /api/admin/users",                      N,        401, 403, 403, 403, 403, 200),
    row("POST /api/admin/users/{nobody}/tier",       TIER,     401, 403, 403, 403, 403, 404),
    row("POST /api/admin/users/{nobody}/disable",    N,        401, 403, 403, 403, 403, 404),
    row("POST /api/admin/users/{nobody}/enable",     N,        401, 403, 403, 403, 403, 404),
    row("POST /api/admin/users/{nobody}/admin",      N,        401, 403, 403, 403, 403, 404),
    row("GET /api/admin/tier-requests",              N,        401, 403, 403, 403, 403, 200),
    row("POST /api/admin/tier-requests/{nobody}/grant", N,     401, 403, 403, 403, 403, 404),
    row("POST /api/admin/tier-requests/{nobody}/decline", N,   401, 403, 403, 403, 403, 404),
    row("GET /api/admin/tables",                     N,        401, 403, 403, 403, 403, 200),
    row("POST /api/admin/tables/{nowhere}/close",    N,        401, 403, 403, 403, 403, 404),
    # -- tables ------------------------------------------------------------------------------
    row("GET /api/tables",                           N,        401, 200, 200, 200, 200, 200),
    row("GET /api/tables/mine",                      N,        401, 200, 200, 200, 200, 200),
    row("POST /api/tables",                          PRIVATE,  401, 201, 201, 201, 201, 201),
    row("POST /api/tables/hosted",                   FRIENDS,
        401, CANNOT_HOST, CANNOT_HOST, CANNOT_HOST, HOSTS_ALREADY, NOT_HIS_FRIEND),
    row("POST /api/tables/quick-join",               N,        401, 200, 200, 200, 200, 200),
    row("GET /api/tables/{table}",                   N,        401, 404, 200, 200, 200, 404),
    row("GET /api/tables/{table}/chat",              N,        401, 404, 200, 200, 200, 404),
    row("POST /api/tables/{table}/join",             {},       401, 404, NO_SEAT, 200, 200, 404),
    row("POST /api/tables/{table}/leave",            N,
        401, 404, NOT_SEATED, KEEPS_PLAYERS, KEEPS_PLAYERS, 404),
    row("POST /api/tables/{table}/fill-bots",        N,
        401, 404, NOT_HOST, NOT_HOST, FRIENDS_ONLY, 404),
    row("POST /api/tables/{table}/reset",            SCORE,
        401, 404, NOT_HOST, NOT_HOST, 200, 404),
    row("POST /api/tables/{table}/play-again",       N,
        401, 404, NOT_PLAYER, NOT_OVER, NOT_OVER, 404),
    row("POST /api/tables/{table}/pause",            N,
        401, 404, NOT_ALONE, NOT_ALONE, NOT_ALONE, 404),
    row("POST /api/tables/{table}/resume",           N,
        401, 404, NOT_ALONE, NOT_ALONE, NOT_ALONE, 404),
    row("POST /api/tables/{table}/close",            N,
        401, 404, NOT_HOST, NOT_HOST, 200, 404),
    # once closed, the game is gone for everyone
    row("GET /api/tables/{table}",                   N,        401, 404, 404, 404, 404, 404),
    # -- history and stats: a deal of the host's game (the host and the player played it) ----
    row("GET /api/history/deals",                    N,        401, 200, 200, 200, 200, 200),
    row("GET /api/history/deals/{deal}",             N,        401, 404, 404, 200, 200, 404),
    row("GET /api/web/replay/{deal}",                N,        401, 404, 404, 200, 200, 404),
    row("GET /api/web/replay/{deal}/analysis",       N,        401, 404, 404, 200, 200, 404),
    row("GET /api/history/games",                    N,        401, 200, 200, 200, 200, 200),
    row("GET /api/stats/me",                         N,        401, 200, 200, 200, 200, 200),
    row("GET /api/stats/{host}",                     N,        401, 404, 200, 200, 200, 404),
    # -- friends -----------------------------------------------------------------------------
    row("GET /api/friends",                          N,        401, 200, 200, 200, 200, 200),
    row("POST /api/friends/requests",                ASK,      401, OWN_EMAIL, 201, 201, 201, 201),
    row("POST /api/friends/requests/{host}/accept",  N,
        401, 200, ALREADY_FRIENDS, ALREADY_FRIENDS, 404, 404),
    row("POST /api/friends/requests/{admin}/decline", N,       401, 200, 404, 404, 404, 404),
    row("DELETE /api/friends/requests/{stranger}",   N,        401, 404, 200, 200, 404, 404),
    row("DELETE /api/friends/{stranger}",            N,        401, 404, 404, 404, 200, 404),
    # -- the live channel's notice preferences -------------------------------------------------
    row("GET /api/live/counts",                      N,        200, 200, 200, 200, 200, 200),
    row("GET /api/live/prefs",                       N,        401, 200, 200, 200, 200, 200),
    row("PUT /api/live/prefs",                       {"sound": True},
        401, 200, 200, 200, 200, 200),
    row("GET /api/friends/invitations",              N,        401, 200, 200, 200, 200, 200),
    row("POST /api/friends/invitations",             ASK,
        401, OWN_EMAIL, HAS_ACCOUNT, HAS_ACCOUNT, HAS_ACCOUNT, HAS_ACCOUNT),
    row("DELETE /api/friends/invitations/{nobody}",  N,        401, 404, 404, 404, 404, 404),
    # -- ratings, the rated queue, chat safety ----------------------------------------------------
    row("GET /api/leaderboard",                      N,        401, 200, 200, 200, 200, 200),
    row("GET /api/ratings/{host}",                   N,        401, 200, 200, 200, 200, 200),
    row("GET /api/ratings/{nobody}",                 N,        401, 404, 404, 404, 404, 404),
    row("GET /api/ratings?user_ids={host},{admin}",  N,        401, 200, 200, 200, 200, 200),
    row("GET /api/matchmaking",                      N,        401, 200, 200, 200, 200, 200),
    row("DELETE /api/matchmaking/queue",             N,        401, 200, 200, 200, 200, 200),
    # (the first four to queue are seated at a rated table; the admin waits)
    row("POST /api/matchmaking/queue",               N,        401, 200, 200, 200, 200, 200),
    row("GET /api/safety",                           N,        401, 200, 200, 200, 200, 200),
    row("PUT /api/safety/mutes/{host}",              N,        401, 200, 200, 200, 422, 200),
    row("DELETE /api/safety/mutes/{host}",           N,        401, 200, 200, 200, 422, 200),
    row("PUT /api/safety/blocks/{nobody}",           N,        401, 404, 404, 404, 404, 404),
    row("DELETE /api/safety/blocks/{nobody}",        N,        401, 404, 404, 404, 404, 404),
    # the host's line at the host's game, now closed: its players may report it (not the host)
    row("POST /api/safety/reports",                  {"message_id": "{line}"},
        401, 404, 404, 201, 422, 404),
    row("GET /api/admin/reports",                    N,        401, 403, 403, 403, 403, 200),
    row("POST /api/admin/reports/{nobody}/close",    N,        401, 403, 403, 403, 403, 404),
    # -- tournaments: open to read; creating needs a standard account (the host's, the admin's);
    # an organiser's own actions are refused to others in tests/server/tournaments/test_api.py
    row("GET /api/tournaments",                      N,        200, 200, 200, 200, 200, 200),
    row("POST /api/tournaments",                     CUP,
        401, NEEDS_STANDARD, NEEDS_STANDARD, NEEDS_STANDARD, 201, 201),
    row("GET /api/tournaments/{nobody}",             N,        404, 404, 404, 404, 404, 404),
    row("GET /api/tournaments/{nobody}/export.json", N,        404, 404, 404, 404, 404, 404),
    row("GET /api/tournaments/{nobody}/export.csv",  N,        404, 404, 404, 404, 404, 404),
    row("POST /api/tournaments/{nobody}/entries",    {},       401, 404, 404, 404, 404, 404),
    row("POST /api/tournaments/{nobody}/entries/{nobody}/confirm", N,
        401, 404, 404, 404, 404, 404),
    row("POST /api/tournaments/{nobody}/entries/{nobody}/withdraw", N,
        401, 404, 404, 404, 404, 404),
    row("POST /api/tournaments/{nobody}/entries/{nobody}/approve", N,
        401, 404, 404, 404, 404, 404),
    row("POST /api/tournaments/{nobody}/entries/{nobody}/replace", SWAP,
        401, 404, 404, 404, 404, 404),
    row("POST /api/tournaments/{nobody}/bots",       BOTS,     401, 404, 404, 404, 404, 404),
    row("POST /api/tournaments/{nobody}/call",       {"minutes": 5}, 401, 404, 404, 404, 404, 404),
    row("POST /api/tournaments/{nobody}/start",      N,        401, 404, 404, 404, 404, 404),
    row("POST /api/tournaments/{nobody}/end",        N,        401, 404, 404, 404, 404, 404),
    row("POST /api/tournaments/{nobody}/matches/{nobody}/result", {"winner": 1},
        401, 404, 404, 404, 404, 404),
    row("POST /api/tournaments/{nobody}/matches/{nobody}/conference", {"conference_url": ""},
        401, 404, 404, 404, 404, 404),
    row("POST /api/tournaments/{nobody}/rounds/{nobody}/pairing", {"matches": [[1, 2]]},
        401, 404, 404, 404, 404, 404),
    # -- signing out ends the session on the server: the old cookie no longer works ----------
    row("POST /api/auth/logout",                     N,        200, 200, 200, 200, 200, 200),
    row("GET /api/me",                               N,        401, 401, 401, 401, 401, 401),
]
# fmt: on

# State-changing requests of a session without the CSRF token: refused, nothing changes.
# how: "no header" (the cookies only), "wrong header", "no csrf cookie" (only the session cookie)
# fmt: off
CSRF_CELLS: list[tuple[str, str, dict[str, Any] | None, str]] = [
    # role       route                              body                        how
    ("host",     "POST /api/tables/{table}/reset", SCORE,                      "no header"),
    ("host",     "POST /api/tables/{table}/close", N,                          "wrong header"),
    ("player",   "PATCH /api/me",                  {"first_name": "Mallory"},  "no header"),
    ("friend",   "DELETE /api/friends/{host}",     N,                          "no header"),
    ("stranger", "POST /api/tables",               {"kind": "public"},         "no csrf cookie"),
]
# fmt: on

SOCKET_PATH = "/ws/tables/{table_id}"
LIVE_SOCKET_PATH = "/ws/me"  # its own matrix: tests/server/live/test_socket.py
OK = "ok"
Outcome = int | str  # a close code the socket is refused with, OK, or the reason of an error

# Socket actions at the host's game, which is playing. "act" is the role's own legal move when
# its turn comes (the other seats play until then); "act as seat+1" claims the next seat. The
# last row runs after the host has closed the game.
# fmt: off
SOCKET_MATRIX: list[tuple[str, tuple[Outcome, ...]]] = [
    #  action            anon  strg     friend       player          host            admin
    ("connect",         (4401, 4404,    OK,          OK,             OK,             4404)),
    ("chat",            (4401, 4404,    OK,          OK,             OK,             4404)),
    ("toggle",          (4401, 4404,    OK,          "not_spectator", "not_spectator", 4404)),
    ("reset",           (4401, 4404,    "not_host",  "not_host",     OK,             4404)),
    ("pause",           (4401, 4404,    "not_alone", "not_alone",    "not_alone",    4404)),
    ("resume",          (4401, 4404,    "not_alone", "not_alone",    "not_alone",    4404)),
    ("back",            (4401, 4404,    "spectator", "not_kept",     "not_kept",     4404)),
    ("act as seat+1",   (4401, 4404,    "spectator", "forged_seat",  "forged_seat",  4404)),
    ("act",             (4401, 4404,    "spectator", OK,             OK,             4404)),
    ("connect, closed", (4401, 4404,    4404,        4404,           4404,           4404)),
]
# fmt: on

FOREIGN = "http://evil.example"
# A browser's socket must come from this server's own origin (the role's cookies are sent).
ORIGIN_CELLS: list[tuple[str, str, Outcome]] = [
    ("host", FOREIGN, 4403),
    ("friend", FOREIGN, 4403),
    ("anonymous", FOREIGN, 4403),
    ("host", "{own}", OK),
]


# -- the world ------------------------------------------------------------------------------------
@dataclass
class World:
    app: FastAPI
    clients: dict[str, Client]
    ids: dict[str, int]
    emails: dict[str, str]
    seated: list[Client]  # by seat: the host, the player, and two more of the host's friends
    table: str
    values: dict[str, Any] = field(default_factory=dict)


async def _me(c: Client) -> dict[str, Any]:
    r = await c.get("/api/me")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


async def _befriend(host: Client, host_id: int, other: Client, email: str) -> None:
    r = await host.post("/api/friends/requests", json={"email": email})
    assert r.status_code == 201, r.text
    r = await other.post(f"/api/friends/requests/{host_id}/accept")
    assert r.status_code == 200, r.text


async def set_tier(app: FastAPI, email: str, tier: str) -> None:
    """The operator's tier change, on an engine of this event loop (a live server's own engine
    belongs to the server's thread)."""
    engine = make_engine(app.state.settings.resolved_database_url)
    try:
        async with make_sessionmaker(engine)() as db:
            await admin_service.set_tier(db, email, tier)
    finally:
        await engine.dispose()


async def build_world(
    app: FastAPI, sign: Callable[[str, str], Awaitable[Client]], anonymous: Client
) -> World:
    names = {
        "admin": "Ada",  # signs up first: the admin
        "host": "Hal",
        "player": "Pia",
        "second": "Sam",
        "third": "Tao",
        "friend": "Fay",
        "stranger": "Stu",
    }
    emails = {role: f"{role}@example.com" for role in names}
    clients = {role: await sign(emails[role], name) for role, name in names.items()}
    await set_tier(app, emails["host"], "standard")
    me = {role: await _me(c) for role, c in clients.items()}
    assert me["admin"]["is_admin"] and not me["host"]["is_admin"]
    assert [me[r]["tier"] for r in ("admin", "host", "stranger")] == ["standard"] * 2 + ["basic"]
    ids = {role: int(m["id"]) for role, m in me.items()}
    for role in ("player", "second", "third", "friend"):
        await _befriend(clients["host"], ids["host"], clients[role], emails[role])
    seats = ["host", "player", "second", "third"]
    r = await clients["host"].post("/api/tables/hosted", json={"seats": [ids[s] for s in seats]})
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    for role in seats:
        r = await clients[role].post(f"/api/tables/{table}/join", json={})
        assert r.status_code == 200, r.text
    assert r.json()["status"] == "playing"
    world = World(
        app=app,
        clients={"anonymous": anonymous, **{r: clients[r] for r in ROLES[1:]}},
        ids=ids,
        emails=emails,
        seated=[clients[s] for s in seats],
        table=table,
    )
    world.values = {
        "table": table,
        "host": ids["host"],
        "admin": ids["admin"],
        "stranger": ids["stranger"],
        "stranger_email": emails["stranger"],
        "players": [ids["player"], ids["second"], ids["third"]],
        "nowhere": "nowhere",
        "nobody": 999_999,  # no account, request or invitation has this id
        "bogus": "not-a-sign-in-link",
        "css": "app.css",
    }
    return world


def fill(value: Any, values: dict[str, Any]) -> Any:
    """``value`` with the world's things in its {placeholders}."""
    if isinstance(value, dict):
        return {k: fill(v, values) for k, v in value.items()}
    if isinstance(value, str):
        whole = re.fullmatch(r"\{(\w+)\}", value)
        if whole and not isinstance(values[whole.group(1)], str):
            return values[whole.group(1)]
        return value.format(**values)
    return value


def expected(cell: Cell) -> tuple[int, str]:
    return (cell, "") if isinstance(cell, int) else cell


async def request(c: httpx2.AsyncClient, method: str, path: str, body: Any) -> httpx2.Response:
    """One request; the client's cookies are put back after (a guest sign-in must not replace
    the role's session, and the anonymous client must stay without one)."""
    saved = httpx2.Cookies(c.cookies)
    try:
        return await c.request(method, path, json=body)
    finally:
        c.cookies = saved


# -- the route list -------------------------------------------------------------------------------
def _shape(path: str) -> str:
    """The path without its query, every {parameter} alike."""
    return re.sub(r"\{[^}]*\}", "{}", path.split("?", 1)[0])


def app_routes(app: FastAPI) -> set[tuple[str, str]]:
    """(method, path shape) of every route; "WS" for sockets, "MOUNT"/"ROUTE" for the rest."""
    out: set[tuple[str, str]] = set()
    for context in iter_route_contexts(app.routes):
        route, path = context.original_route, context.path or ""
        methods = context.methods
        if isinstance(route, WebSocketRoute):  # FastAPI's socket routes too
            out.add(("WS", _shape(path)))
        elif methods:
            kept = set(methods) - {"HEAD"} if "GET" in methods else set(methods)
            out |= {(m, _shape(path)) for m in kept}
        else:
            out.add((type(route).__name__.upper(), _shape(path)))
    for path in getattr(app, "own_sockets", ()):  # served before the router (app.py)
        out.add(("WS", _shape(path)))
    return out


def test_every_route_is_in_the_matrix(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path, secret_key="routes"))
    routes = app_routes(app)
    mounts = {path for kind, path in routes if kind == "MOUNT"}
    rows = {(r.method, _shape(r.path)) for r in HTTP_MATRIX} | {
        ("WS", _shape(SOCKET_PATH)),
        ("WS", LIVE_SOCKET_PATH),
    }
    # a mount (static files) is covered by a row for a file under it
    in_mounts = {key for key in rows if any(key[1].startswith(m + "/") for m in mounts)}
    covered = rows | {("MOUNT", m) for m in mounts if any(k[1].startswith(m + "/") for k in rows)}
    missing = sorted(routes - covered)
    assert not missing, f"routes without a row in the authorization matrix: {missing}"
    stale = sorted(rows - in_mounts - routes)
    assert not stale, f"rows for routes the app does not have: {stale}"
    assert ("WS", _shape(SOCKET_PATH)) in routes  # the route the socket matrix connects to


# -- HTTP -----------------------------------------------------------------------------------------
def _bare(app: FastAPI, address: str = "127.0.0.1") -> httpx2.AsyncClient:
    """A client that adds nothing by itself (no cookie jar use, no CSRF header)."""
    transport = httpx2.ASGITransport(app=app, client=(address, 50000))
    return httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000")


def _random_deal(seed: int) -> tuple[dict[str, Any], str, list[int], int]:
    """A whole deal played by random bots: its record, outcome, score change and cards played."""
    rng = random.Random(seed)
    spec = RulesSpec("standard", {})
    deck = uniform_deck(rng)
    st, _ = start_round(spec.rules, 0, deck)
    actions: list[Action] = []
    while not st.is_over:
        seat = to_act(st)[0]
        action = RandomBot(rng.randrange(2**31)).choose(view(st, seat))
        st, _ = apply(st, action)
        actions.append(action)
    record = DealRecord(spec, 0, tuple(deck), tuple(actions)).to_json()
    cards = sum(1 for a in record["actions"] if a.get("act") == "play")
    return record, st.outcome, list(st.score_delta), cards


def played_deal() -> tuple[dict[str, Any], str, list[int]]:
    """Of a few whole deals, the one with the least card play (the solver's analysis of it is
    then quick)."""
    record, outcome, delta, _ = min((_random_deal(seed) for seed in range(40)), key=lambda d: d[3])
    return record, outcome, delta


async def _add_deal(world: World) -> int:
    """A finished deal of the host's game in the history, stored as the table stores its deals:
    the host, the player and the two others played it."""
    record, outcome, delta = played_deal()
    world.values["record"] = record
    seats = [world.ids[r] for r in ("host", "player", "second", "third")]
    store = world.app.state.tables.store
    deal_id: int = await store.add_deal(
        world.table, 1, 1, record, outcome, 0, "16", delta, seats, False, None
    )
    return deal_id


async def _csrf_cells(world: World) -> list[str]:
    wrong: list[str] = []
    for role, route, body, how in CSRF_CELLS:
        method, path = route.split(" ", 1)
        c = world.clients[role]
        url = fill(path, world.values)
        if how == "wrong header":
            r = await c.request(method, url, json=body, headers={"x-csrf-token": "forged"})
        else:
            cookie = f"tn_session={c.cookies['tn_session']}"
            if how == "no header":
                cookie += f"; tn_csrf={c.cookies['tn_csrf']}"
            async with _bare(world.app) as bare:
                r = await bare.request(method, url, json=body, headers={"Cookie": cookie})
        if r.status_code != 403 or "CSRF" not in r.text:
            wrong.append(f"{role} {method} {path} ({how}): {r.status_code} {r.text[:120]}")
    return wrong


async def test_http_matrix(app: FastAPI) -> None:
    async with client_for(app) as anonymous:
        world = await build_world(app, lambda e, n: sign_in(app, e, n), anonymous)
        world.values["deal"] = await _add_deal(world)
        line = await app.state.tables.store.add_chat(
            world.table, world.ids["host"], "Hana", False, "hi"
        )
        world.values["line"] = line.id

        # CSRF first, while every role has its session: each refused, and nothing changed
        assert await _csrf_cells(world) == []
        assert (await _me(world.clients["player"]))["first_name"] == "Pia"
        tables = await world.clients["stranger"].get("/api/tables")
        assert tables.json() == []

        # the dev outbox is for loopback clients only, even in development mode
        async with _bare(app, "203.0.113.7") as remote:
            assert (await remote.get("/dev/outbox")).status_code == 404

        wrong: list[str] = []
        seen: dict[tuple[str, str], list[httpx2.Response]] = {}
        for r in HTTP_MATRIX:
            for role, cell in zip(ROLES, r.cells, strict=True):
                path = fill(r.path, world.values)
                response = await request(
                    world.clients[role], r.method, path, fill(r.body, world.values)
                )
                status, words = expected(cell)
                seen.setdefault((f"{r.method} {r.path}", role), []).append(response)
                if response.status_code != status or words not in response.text:
                    wrong.append(
                        f"{role:9} {r.method} {r.path}: expected {status} {words!r}, "
                        f"got {response.status_code} {response.text[:160]}"
                    )
        assert wrong == [], "\n" + "\n".join(wrong)

    # and what the successful cells returned is theirs to see
    def body(key: str, role: str) -> Any:
        return seen[(key, role)][0].json()

    table = world.table
    mine = {role: body("GET /api/tables/mine", role) for role in ROLES[1:]}
    assert [t["id"] for t in mine["host"]["host"]] == [table]
    assert [t["id"] for t in mine["player"]["join"]] == [table]
    assert [t["id"] for t in mine["friend"]["view"]] == [table]
    for role in ("stranger", "admin"):
        assert table not in {t["id"] for bucket in mine[role].values() for t in bucket}
    assert body("GET /api/me", "admin")["is_admin"] is True
    assert body("GET /api/me", "host")["is_admin"] is False
    assert body("GET /api/history/deals/{deal}", "player") == world.values["record"]
    replay = body("GET /api/web/replay/{deal}", "host")
    assert replay["seat"] == 0 and replay["record"] == world.values["record"]
    assert body("GET /api/web/session", "anonymous") == {"user": None}
    assert body("GET /api/web/session", "friend")["user"]["id"] == world.ids["friend"]
    # (a quick-joined table may have stored a deal of its own: an instantly invalid one)
    assert world.values["deal"] in {d["id"] for d in body("GET /api/history/deals", "player")}
    assert world.values["deal"] not in {d["id"] for d in body("GET /api/history/deals", "friend")}
    quick = [body("POST /api/tables/quick-join", role)["created"] for role in ROLES[1:]]
    assert quick == [True, False, False, False, True]  # the 2nd table once the 1st is full


# -- the socket -----------------------------------------------------------------------------------
async def connect_outcome(
    live: LiveServer, c: httpx2.AsyncClient | None, table: str, origin: str | None = None
) -> Outcome:
    """Open a socket: OK if it is accepted (it is closed again), else its close code."""
    headers: dict[str, str] = {}
    if c is not None and c.cookies:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in c.cookies.items())
    if origin is not None:
        headers["Origin"] = origin
    url = f"{live.ws_url}/ws/tables/{table}"
    async with websockets.connect(url, additional_headers=headers) as ws:
        try:
            first = await asyncio.wait_for(ws.recv(), 5)
        except websockets.ConnectionClosed as e:
            assert e.rcvd is not None
            return e.rcvd.code
    assert '"type": "state"' in str(first) or '"type":"state"' in str(first), first
    return OK


async def outcome(
    sock: TableSocket, message: dict[str, Any], done: Callable[[list[dict[str, Any]]], bool]
) -> Outcome:
    """Send ``message``: the reason of the error it brings back, or OK once ``done`` holds for
    the messages that came after it."""
    errors, seen = len(sock.errors), len(sock.messages)
    await sock.send(message)

    async def waiter() -> Outcome:
        while True:
            if len(sock.errors) > errors:
                reason: str = sock.errors[errors]["reason"]
                return reason
            if done(sock.messages[seen:]):
                return OK
            sock.changed.clear()
            await sock.changed.wait()

    return await asyncio.wait_for(waiter(), 10)


def _event(kind: str) -> Callable[[list[dict[str, Any]]], bool]:
    def done(messages: list[dict[str, Any]]) -> bool:
        return any(e["type"] == kind for m in messages if m["type"] == "state" for e in m["events"])

    return done


def _has_move(sock: TableSocket) -> bool:
    return bool(sock.state and sock.state["view"] and sock.state["view"]["legal_json"])


async def test_socket_matrix(live: LiveServer) -> None:
    anonymous = live.client()
    world = await build_world(live.app, live.sign_in, anonymous)
    table = world.table
    socks = [await TableSocket(live, c, table).connect() for c in world.seated]
    watcher = await TableSocket(live, world.clients["friend"], table).connect()
    try:
        await _socket_matrix(live, world, socks, watcher)
    finally:
        for s in [*socks, watcher]:
            await s.close()
        await anonymous.aclose()


async def _socket_matrix(
    live: LiveServer, world: World, socks: list[TableSocket], watcher: TableSocket
) -> None:
    table = world.table
    role_sock = {"host": socks[0], "player": socks[1], "friend": watcher}
    you = {r: s.state["table"]["you"] for r, s in role_sock.items() if s.state is not None}
    assert you["friend"]["spectator"] and you["friend"]["can_toggle"]
    assert (you["player"]["seat"], you["host"]["seat"], you["host"]["host"]) == (1, 0, True)

    async def my_turn(sock: TableSocket) -> dict[str, Any]:
        """The other seats play until ``sock`` may act on the table's latest state."""
        while True:
            await play_until([s for s in socks if s is not sock], lambda: _has_move(sock))
            latest = max(s.version for s in socks)
            st = await sock.wait_for(lambda st, v=latest: st["version"] >= v)
            if _has_move(sock):
                return st

    async def act(role: str) -> Outcome:
        sock = role_sock[role]
        if role == "friend":
            return await outcome(sock, {"type": "act", "act": "pass"}, _event("never"))
        st = await my_turn(sock)
        move = {"type": "act", "version": st["version"], **st["view"]["legal_json"][0]}

        def moved(messages: list[dict[str, Any]]) -> bool:
            return any(m["type"] == "state" and m["version"] > st["version"] for m in messages)

        return await outcome(sock, move, moved)

    async def act_as_next_seat(role: str) -> Outcome:
        seat = you[role]["seat"]
        claim = 0 if seat is None else (seat + 1) % 4
        message = {"type": "act", "act": "pass", "seat": claim}
        return await outcome(role_sock[role], message, _event("never"))

    async def chat(role: str) -> Outcome:
        text = f"hello from the {role}"

        def said(messages: list[dict[str, Any]]) -> bool:
            return any(m["type"] == "chat" and m["line"]["text"] == text for m in messages)

        return await outcome(role_sock[role], {"type": "chat", "text": text}, said)

    def mid_deal(st: dict[str, Any]) -> bool:
        return bool(st["view"] and st["view"]["phase"] != "over")

    async def reset(role: str) -> Outcome:
        await socks[0].wait_for(mid_deal)  # a reset of the score between deals is not this test
        return await outcome(role_sock[role], {"type": "reset", "what": "score"}, _event("reset"))

    def simple(message: dict[str, Any], event: str) -> Callable[[str], Awaitable[Outcome]]:
        return lambda role: outcome(role_sock[role], message, _event(event))

    actions: dict[str, Callable[[str], Awaitable[Outcome]]] = {
        "connect": lambda role: connect_outcome(live, world.clients[role], table),
        "chat": chat,
        "toggle": simple({"type": "toggle", "seat": 2}, "toggled"),
        "reset": reset,
        "pause": simple({"type": "pause"}, "paused"),
        "resume": simple({"type": "resume"}, "resumed"),
        "back": simple({"type": "back"}, "seat_back"),
        "act as seat+1": act_as_next_seat,
        "act": act,
    }
    wrong: list[str] = []
    for action, cells in SOCKET_MATRIX:
        if action == "connect, closed":
            r = await world.clients["host"].post(f"/api/tables/{table}/close")
            assert r.status_code == 200, r.text
        for role, cell in zip(ROLES, cells, strict=True):
            if role in role_sock and action in actions:
                got = await actions[action](role)
            else:  # refused before any message: what the socket is closed with
                got = await connect_outcome(live, world.clients[role], table)
            if got != cell:
                wrong.append(f"{role:9} {action}: expected {cell!r}, got {got!r}")
        if action == "connect":  # and from another origin
            for role, origin, want in ORIGIN_CELLS:
                url = origin.format(own=live.url)
                got = await connect_outcome(live, world.clients[role], table, url)
                if got != want:
                    wrong.append(f"{role:9} connect from {origin}: expected {want!r}, got {got!r}")
    assert wrong == [], "\n" + "\n".join(wrong)

    # chat lines carry who said them; the watcher's are marked as a spectator's
    lines = {line["text"]: line for line in socks[2].chat}
    for role in ("friend", "player", "host"):
        line = lines[f"hello from the {role}"]
        assert (line["user_id"], line["spectator"]) == (world.ids[role], role == "friend")
    # the friend's toggle showed it the seat it asked for (besides the host's hand)
    views = [m["view"] for m in watcher.messages if m["type"] == "state" and m["view"]]
    assert any(v["hands"][2] is not None for v in views)
