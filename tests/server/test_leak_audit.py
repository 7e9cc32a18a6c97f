"""The leak audit: every message sent to every connection, over hundreds of deals at tables of
every kind (hosted games watched by spectators who turn hands up and down, one whose host lets
spectators see no hands, public and private tables with random bots, a solo game), is checked
against the true game state at the moment it is made: it may hold no card and name no trump suit
its receiver may not know then (``tests/server/audit.py`` says what that is, from the rules).
Every message the clients receive must be one the audit checked. The audit itself is tested:
deliberately leaky views must be caught.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from twentynine.engine.cards import card_code, cards_in, sorted_for_display
from twentynine.engine.state import RoundState, partner
from twentynine.engine.views import View, spectator_view, view
from twentynine.server.tables import bot_moves, broadcast
from twentynine.server.tables.runtime import TableRuntime

from .audit import AuditClient, Auditor, Harness
from .conftest import (
    Client,
    LiveServer,
    live_settings,
    own_database,
    start_live,
)

TARGET_DEALS = 200
MIN_DEALS_PER_TABLE = 5
TIME_LIMIT = 110.0  # seconds of play at most


@dataclasses.dataclass
class Table:
    id: str
    kind: str
    query: str = ""
    players: list[tuple[Client, int, int]] = dataclasses.field(default_factory=list)
    spectators: list[tuple[Client, int]] = dataclasses.field(default_factory=list)


class Site:
    def __init__(self, live: LiveServer, harness: Harness) -> None:
        self.live = live
        self.harness = harness
        self.ids: dict[str, int] = {}
        self.clients: dict[str, Client] = {}

    async def people(self, names: list[str]) -> None:
        for name in names:
            c = await self.live.sign_in(f"{name.lower()}@example.com", name)
            self.clients[name] = c
            self.ids[name] = int((await c.get("/api/me")).json()["id"])

    async def befriend(self, host: str, others: list[str]) -> None:
        for other in others:
            r = await self.clients[host].post(
                "/api/friends/requests", json={"email": f"{other.lower()}@example.com"}
            )
            assert r.status_code in (200, 201), r.text
            r = await self.clients[other].post(f"/api/friends/requests/{self.ids[host]}/accept")
            assert r.status_code == 200, r.text

    async def hosted(
        self, host: str, seated: list[str], watchers: list[str], preset: str, **options: Any
    ) -> Table:
        body = {
            "seats": [self.ids[n] for n in seated],
            "rules": {"preset": preset, "options": options.pop("house", {})},
            "takeover_seconds": 1,
            **options,
        }
        r = await self.clients[host].post("/api/tables/hosted", json=body)
        assert r.status_code == 201, r.text
        table = Table(r.json()["id"], "hosted")
        self.harness.hosts[table.id] = self.ids[host]
        for seat, name in enumerate(seated):
            r = await self.clients[name].post(f"/api/tables/{table.id}/join", json={})
            assert r.status_code == 200 and r.json()["seat"] == seat, r.text
            self._seat(table, name, seat)
        for name in watchers:
            self._watch(table, name)
        return table

    async def opened(
        self,
        kind: str,
        owner: str,
        seats: list[str],
        joiners: list[str],
        watchers: list[str],
        preset: str,
    ) -> Table:
        r = await self.clients[owner].post(
            "/api/tables", json={"kind": kind, "seats": seats, "rules": {"preset": preset}}
        )
        assert r.status_code == 201, r.text
        data = r.json()
        code = data.get("invite_code")
        table = Table(data["id"], kind, f"code={code}" if code else "")
        self.harness.hosts[table.id] = self.ids[owner]
        self._seat(table, owner, seats.index("me"))
        for name in joiners:
            r = await self.clients[name].post(
                f"/api/tables/{table.id}/join", json={"code": code} if code else {}
            )
            assert r.status_code == 200, r.text
            self._seat(table, name, int(r.json()["seat"]))
        for name in watchers:
            self._watch(table, name)
        return table

    def _seat(self, table: Table, name: str, seat: int) -> None:
        self.harness.seats[(table.id, self.ids[name])] = seat
        table.players.append((self.clients[name], self.ids[name], seat))

    def _watch(self, table: Table, name: str) -> None:
        self.harness.seats[(table.id, self.ids[name])] = None
        table.spectators.append((self.clients[name], self.ids[name]))

    def sockets(self, table: Table, rng: random.Random) -> list[AuditClient]:
        out = []
        for c, uid, seat in table.players:
            out.append(self.client(table, c, uid, seat, rng, reconnects=True))
        for c, uid in table.spectators:
            out.append(self.client(table, c, uid, None, rng, reconnects=False))
        return out

    def client(
        self,
        table: Table,
        c: Client,
        uid: int,
        seat: int | None,
        rng: random.Random,
        reconnects: bool,
    ) -> AuditClient:
        cookie = "; ".join(f"{k}={v}" for k, v in c.cookies.items())
        return AuditClient(
            self.live.ws_url,
            cookie,
            table.id,
            uid,
            seat,
            self.harness,
            random.Random(rng.random()),
            table.query,
            reconnects,
        )


@pytest_asyncio.fixture
async def audited(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[LiveServer, Auditor, Harness, Callable[[], Any]]]:
    """A live server (every person may host; no pause after a deal; no rate limit on sockets)
    whose table runtimes report every message to an auditor."""
    async with own_database(database_url) as url:
        harness = Harness()
        auditor = Auditor(harness)
        auditor.install(monkeypatch)
        settings = dataclasses.replace(
            live_settings(tmp_path, url),
            new_account_tier="standard",
            next_deal_seconds=0.0,
            socket_messages_per_10s=1_000_000,
        )
        server, stop = await start_live(settings)
        yield server, auditor, harness, stop
        await stop()


async def play(
    auditor: Auditor,
    clients: list[AuditClient],
    tables: list[Table],
    target: int,
    least: int,
    limit: float,
    enough: Callable[[], bool] = lambda: False,
) -> float:
    """Connect everyone, play until ``target`` deals (``least`` at every table) are over, close;
    returns the seconds it took."""
    started = time.monotonic()

    def done() -> bool:
        if enough() or time.monotonic() - started > limit:
            return True
        deals = [auditor.deals[t.id] for t in tables]
        return sum(deals) >= target and min(deals) >= least

    for c in clients:
        await c.connect()
    results = await asyncio.gather(*(c.play(done) for c in clients), return_exceptions=True)
    for c in clients:
        await c.close()
    failures = [r for r in results if isinstance(r, BaseException)]
    assert not failures, failures[:3]
    return time.monotonic() - started


NAMES = ["Hana", "Hugo", "Hira", "Hale", "Ama", "Ben", "Cai", "Dia", "Eno", "Fay", "Gus", "Ivo"]


async def test_no_message_reveals_what_its_receiver_may_not_see(
    audited: tuple[LiveServer, Auditor, Harness, Callable[[], Any]],
) -> None:
    live, auditor, harness, stop = audited
    site = Site(live, harness)
    await site.people(NAMES)
    hosts, pool = NAMES[:4], NAMES[4:]
    for h in hosts:
        await site.befriend(h, pool)
    rng = random.Random(29)
    tables = [
        # hosted games: spectators see the host's hand and turn others up and down
        await site.hosted("Hana", ["Ama", "Hana", "Ben", "Cai"], ["Dia", "Eno"], "standard"),
        await site.hosted("Hugo", ["Hugo", "Dia", "Eno", "Fay"], ["Ama", "Gus"], "pagat"),
        await site.hosted(
            "Hira",
            ["Gus", "Ivo", "Hira", "Ama"],
            ["Ben"],
            "standard",
            house={"pair_timing": "after_trick_won", "trump_reveal": "automatic"},
        ),
        # a host who lets spectators see no hands (their toggles are refused)
        await site.hosted(
            "Hale",
            ["Ben", "Cai", "Dia", "Hale"],
            ["Eno", "Fay"],
            "arkadium",
            spectators_see="none",
        ),
        # public and private tables (spectators see no hands) with random bots
        await site.opened(
            "public",
            "Hana",
            ["me", "bot:random", "open", "bot:random"],
            ["Fay"],
            ["Gus"],
            "denexa",
        ),
        await site.opened(
            "public",
            "Ivo",
            ["bot:random", "me", "open", "open"],
            ["Ama", "Hugo"],
            ["Cai"],
            "bhoos",
        ),
        await site.opened(
            "private",
            "Eno",
            ["me", "open", "bot:random", "bot:random"],
            ["Hira"],
            ["Ben"],
            "classic",
        ),
        await site.opened(
            "solo", "Gus", ["bot:random", "bot:random", "me", "bot:random"], [], [], "standard"
        ),
    ]
    clients = [c for t in tables for c in site.sockets(t, rng)]
    seconds = await play(auditor, clients, tables, TARGET_DEALS, MIN_DEALS_PER_TABLE, TIME_LIMIT)
    await stop()

    deals = {t.id: auditor.deals[t.id] for t in tables}
    stats = auditor.stats
    print(
        f"\nleak audit: {sum(deals.values())} deals at {len(tables)} tables in {seconds:.0f} s; "
        f"{stats['messages']} messages to {len(auditor.conns)} connections checked, "
        f"{stats['events checked']} broadcast events, {stats['catch-up messages']} catch-ups; "
        f"{sum(c.actions for c in clients)} actions by test clients; {dict(stats)}; "
        f"{len(auditor.skews)} views of uncommitted states {auditor.skews[:3]}"
    )
    assert auditor.problem_count == 0, "\n".join(auditor.problems)
    received: dict[tuple[str, int], list[list[int]]] = {}
    for c in clients:
        received.setdefault((c.table_id, c.user_id), []).extend(c.sessions)
    undelivered = auditor.deliveries(received)
    assert not undelivered, "\n".join(undelivered[:20])
    assert sum(deals.values()) >= TARGET_DEALS, deals
    assert min(deals.values()) >= MIN_DEALS_PER_TABLE, deals
    unexpected = {
        (c.table_id, r): n
        for c in clients
        for r, n in c.errors.items()
        if r not in ("stale", "not_your_turn", "no_hands")
    }
    assert not unexpected, unexpected
    # the audit saw the cases that matter
    assert stats["toggles"] > 50
    assert stats["views with trump hidden"] > 1000
    assert stats["views with the trump card hidden"] > 100
    assert stats["spectator views with 0 hands"] > 100
    assert stats["spectator views with 2 hands"] > 100
    assert stats["caught-up events"] > 0
    assert stats["Single Hand caller views with the partner's hand"] > 0


# -- the audit catches leaks ------------------------------------------------------------------
def _hand(st: RoundState, seat: int) -> tuple[int, ...]:
    return tuple(sorted_for_display(st.hands[seat]))


def leak_every_hand_to_spectators(st: RoundState, seats: Any = ()) -> View:
    return spectator_view(st, {0, 1, 2, 3})


def leak_partner_hand(st: RoundState, seat: int) -> View:
    v = view(st, seat)
    hands = list(v.hands)
    hands[partner(seat)] = _hand(st, partner(seat))
    return dataclasses.replace(v, hands=tuple(hands))


def leak_trump(st: RoundState, seat: int) -> View:
    return dataclasses.replace(view(st, seat), trump=st.trump if st.trump >= 0 else None)


def leak_trump_card(st: RoundState, seats: Any = ()) -> View:
    v = spectator_view(st, seats)
    return dataclasses.replace(v, indicator=st.indicator if st.indicator >= 0 else None)


def _leak_in_table(original: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    def table_json(self: TableRuntime, conn: Any = None) -> dict[str, Any]:
        out = original(self, conn)
        if self.game is not None:
            out["debug"] = {"next": [card_code(c) for c in cards_in(self.game.round.hands[3])]}
        return out

    return table_json


def _private(leaky_view: Callable[[RoundState, int], View]) -> Callable[..., dict[str, Any]]:
    """The same leak in the private part a broadcast builds for a seat (``seat_private_json``)."""

    def seat_private_json(st: RoundState, seat: int) -> dict[str, Any]:
        return leaky_view(st, seat).private_json()

    return seat_private_json


#: each leak planted in every function of the runtime it could come through
LEAKS: dict[str, list[tuple[str, Callable[..., Any]]]] = {
    "spectators see every hand": [("spectator_view", leak_every_hand_to_spectators)],
    "players see their partner's hand": [
        ("view", leak_partner_hand),
        ("seat_private_json", _private(leak_partner_hand)),
    ],
    "players are told the trump suit": [
        ("view", leak_trump),
        ("seat_private_json", _private(leak_trump)),
    ],
    "spectators see the face-down trump card": [("spectator_view", leak_trump_card)],
    "a debug field in the table carries a hand": [("table_json", _leak_in_table)],
}


@pytest.fixture(params=list(LEAKS))
def leak(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    for name, patch in LEAKS[request.param]:
        if name == "table_json":
            monkeypatch.setattr(TableRuntime, "table_json", patch(TableRuntime.table_json))
        else:  # wherever the runtime's parts call it: the broadcast, and the bots' views
            for module in (broadcast, bot_moves):
                if hasattr(module, name):
                    monkeypatch.setattr(module, name, patch)
    yield request.param


async def test_the_audit_catches_a_leaky_view(
    leak: str, audited: tuple[LiveServer, Auditor, Harness, Callable[[], Any]]
) -> None:
    live, auditor, harness, stop = audited
    site = Site(live, harness)
    await site.people(["Hana", "Ama", "Ben", "Cai", "Dia"])
    await site.befriend("Hana", ["Ama", "Ben", "Cai", "Dia"])
    # pagat: the trump card is one of the bidder's cards laid face down, in every deal
    table = await site.hosted("Hana", ["Hana", "Ama", "Ben", "Cai"], ["Dia"], "pagat")
    clients = site.sockets(table, random.Random(7))
    # stops at the first problem found; the cap only matters if the planted leak is missed
    await play(auditor, clients, [table], 12, 12, 90.0, lambda: auditor.problem_count > 0)
    await stop()
    assert auditor.problem_count > 0, f"the audit missed the leak: {leak}"
    print(f"\n{leak}: {auditor.problems[0]}")


async def test_a_catch_up_shows_only_stored_states(
    audited: tuple[LiveServer, Auditor, Harness, Callable[[], Any]],
) -> None:
    live, auditor, harness, stop = audited
    site = Site(live, harness)
    await site.people(["Hana", "Ama", "Ben", "Cai", "Dia"])
    await site.befriend("Hana", ["Ama", "Ben", "Cai", "Dia"])
    table = await site.hosted("Hana", ["Hana", "Ama", "Ben", "Cai"], [], "standard")
    players = site.sockets(table, random.Random(3))
    watcher = site.client(
        table, site.clients["Dia"], site.ids["Dia"], None, random.Random(4), False
    )
    harness.seats[(table.id, site.ids["Dia"])] = None
    await watcher.connect()
    stopped = asyncio.Event()

    async def hello() -> None:
        while not stopped.is_set():
            if watcher.state is not None:
                await watcher.send({"type": "hello", "last_version": watcher.state["version"]})
            await asyncio.sleep(0.005)

    task = asyncio.create_task(hello())
    try:
        await play(auditor, players, [table], 2, 2, 30.0, lambda: bool(auditor.skews))
    finally:
        stopped.set()
        await task
        await watcher.close()
    await stop()
    assert auditor.problem_count == 0, "\n".join(auditor.problems)
    assert not auditor.skews, auditor.skews[:3]
