"""The turn clock on a real server and sockets: a public table with ``turn_seconds=5`` where one
person never acts (their moves are made within 7 s each, and the deal finishes); "I'm back"
over the socket; the setting's validation, defaults and place in the lobby; and two processes
on one PostgreSQL and Redis, where the lease holder runs the clock."""

from __future__ import annotations

import time
from typing import Any

from fastapi import FastAPI
from sqlalchemy import select

from twentynine.server.tables.models import GameTable

from ..conftest import Client, LiveServer, sign_in
from .test_hosted import befriend
from .wsclient import TableSocket, play_until, unexpected_errors


class TimedSocket(TableSocket):
    """Notes when each message came (monotonic seconds)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.times: list[float] = []

    def _take(self, msg: dict[str, Any]) -> None:
        self.times.append(time.monotonic())
        super()._take(msg)


def turns_of(sock: TimedSocket, seat: int) -> list[float]:
    """How long each of ``seat``'s turns lasted: from the first state in which the seat was to
    act to the first in which it no longer was (a turn still under way is left out)."""
    lasted: list[float] = []
    began: float | None = None
    for at, m in zip(sock.times, sock.messages, strict=True):
        if m["type"] != "state" or m["view"] is None:
            continue
        due = seat in m["view"]["to_act"] and m["view"]["phase"] != "over"
        if due and began is None:
            began = at
        elif not due and began is not None:
            lasted.append(at - began)
            began = None
    return lasted


def events(sock: TableSocket) -> list[dict[str, Any]]:
    return [e for m in sock.messages if m["type"] == "state" for e in m["events"]]


async def test_a_seat_that_never_acts_is_played_within_the_clock_and_the_deal_finishes(
    live: LiveServer,
) -> None:
    idle = await live.sign_in("idle@example.com", "Idle")
    busy = await live.sign_in("busy@example.com", "Busy")
    r = await idle.post(
        "/api/tables",
        json={"kind": "public", "turn_seconds": 5, "seats": ["me", "open", "bot:random", "open"]},
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    assert r.json()["turn_seconds"] == 5
    other = await live.sign_in("other@example.com", "Other")
    r = await busy.post(f"/api/tables/{table_id}/join", json={"seat": 1})
    assert r.status_code == 200, r.text
    r = await other.post(f"/api/tables/{table_id}/join", json={"seat": 3})
    assert r.status_code == 200, r.text

    never = await TimedSocket(live, idle, table_id).connect()
    players = [
        await TableSocket(live, busy, table_id).connect(),
        await TableSocket(live, other, table_id).connect(),
    ]

    def finished() -> bool:  # the idle seat's clock ran out twice, then a deal ended, and the
        # stand-in that keeps the seat has had a turn of its own (a deal can end before the
        # seat's next turn, when every call after the stand-in's pass is a pass too: after the
        # first timeout, and after the second as well)
        seen = events(never)
        second = next(
            (i for i, e in enumerate(seen) if e["type"] == "timeout" and e["timeouts"] == 2), None
        )
        return (
            second is not None
            and any(e["type"] == "round_ended" for e in seen[second:])
            and len(turns_of(never, 0)) >= 3
        )

    await play_until(players, finished, timeout=150)

    seen = events(never)
    timeouts = [e for e in seen if e["type"] == "timeout"]
    assert timeouts == [{"type": "timeout", "seat": 0, "timeouts": n} for n in (1, 2)]
    assert {"type": "bot_keeps_seat", "seat": 0} in seen  # after the second, for good
    lasted = turns_of(never, 0)
    assert len(lasted) >= 3, lasted  # two timeouts, then the stand-in's own quick moves
    assert max(lasted) < 7.0, lasted
    assert any(t > 4.5 for t in lasted), lasted  # a clock ran its whole 5 s
    # the countdown everyone draws: the clock of the seat to act, and its wall-clock end
    clocks = [
        m["table"]["clock"] for m in never.messages if m["type"] == "state" and m["table"]["clock"]
    ]
    assert clocks and all(c["ends_at"] > 1e9 for cs in clocks for c in cs)
    for s in [never, *players]:
        assert unexpected_errors(s) == []

    # the bot keeps the seat until the person says they are back; only they can
    assert never.state is not None and never.state["table"]["seats"][0]["kept"] is True
    await players[0].send({"type": "back"})
    error = await players[0].wait_error(1)
    assert error["reason"] == "not_kept"
    await never.send({"type": "back", "seat": 2})
    assert (await never.wait_error(1))["reason"] == "malformed"
    await never.send({"type": "back"})
    await never.wait_for(lambda st: st["table"]["seats"][0]["kept"] is False)
    assert {"type": "seat_back", "seat": 0} in events(never)
    for s in [never, *players]:
        await s.close()


async def test_turn_seconds_is_checked_defaulted_and_shown_in_the_lobby(app: FastAPI) -> None:
    host = await sign_in(app, "host@example.com", "Host")
    seats = ["me", "open", "open", "open"]
    for bad in (-1, 1, 4, 121, 600, "soon", 2.5):
        r = await host.post(
            "/api/tables", json={"kind": "public", "seats": seats, "turn_seconds": bad}
        )
        assert r.status_code == 422, (bad, r.text)
    r = await host.post("/api/tables", json={"kind": "public", "seats": seats, "turn_seconds": 4})
    assert "turn_seconds is 0 (no clock) or from 5 to 120" in r.text
    assert (await host.get("/api/tables")).json() == []  # nothing was opened

    made: dict[str, int] = {}
    for kind, given in (("public", None), ("public", 0), ("public", 120), ("private", None),
                        ("solo", None), ("solo", 5)):  # fmt: skip
        body: dict[str, Any] = {"kind": kind, "seats": ["me", *["bot:random"] * 3]}
        if given is not None:
            body["turn_seconds"] = given
        r = await host.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        made[r.json()["id"]] = r.json()["turn_seconds"]
        assert r.json()["turn_seconds"] == (
            given if given is not None else (20 if kind == "public" else 0)
        )
    lobby = {t["id"]: t["turn_seconds"] for t in (await host.get("/api/tables")).json()}
    assert sorted(lobby.values()) == [0, 20, 120]
    assert all(made[i] == s for i, s in lobby.items())

    # a table made elsewhere without saying (the rated queue's, say) follows the same defaults
    async with app.state.tables.store.maker() as db:
        for kind in ("public", "private"):
            db.add(GameTable(id=f"t-{kind}", kind=kind, rules={"preset": "standard"}))
        await db.commit()
        got = dict(
            (
                await db.execute(
                    select(GameTable.kind, GameTable.turn_seconds).where(
                        GameTable.id.in_(["t-public", "t-private"])
                    )
                )
            ).all()
        )
    assert got["public"] == 20 and got["private"] == 0


async def test_hosted_games_have_no_clock_unless_the_host_chooses_one(live: LiveServer) -> None:
    names = ["Host", "Ana", "Bo", "Cy"]
    clients: list[Client] = [await live.sign_in(f"{n.lower()}@example.com", n) for n in names]
    ids = [(await c.get("/api/me")).json()["id"] for c in clients]
    for c, n in zip(clients[1:], names[1:], strict=True):
        await befriend(clients[0], c, f"{n.lower()}@example.com")
    r = await clients[0].post("/api/tables/hosted", json={"seats": ids, "turn_seconds": 3})
    assert r.status_code == 422
    r = await clients[0].post("/api/tables/hosted", json={"seats": ids})
    assert r.status_code == 201 and r.json()["turn_seconds"] == 0
    await clients[0].post(f"/api/tables/{r.json()['id']}/close")
    r = await clients[0].post("/api/tables/hosted", json={"seats": ids, "turn_seconds": 30})
    assert r.status_code == 201 and r.json()["turn_seconds"] == 30


async def test_two_processes_the_lease_holder_runs_the_clock(
    live_pair: tuple[LiveServer, LiveServer],
) -> None:
    a, b = live_pair
    idle = await a.sign_in("idle@example.com", "Idle")
    busy = await a.sign_in("busy@example.com", "Busy")
    r = await idle.post(
        "/api/tables",
        json={"kind": "public", "turn_seconds": 5, "seats": ["me", "open", *["bot:random"] * 2]},
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    r = await busy.post(f"/api/tables/{table_id}/join", json={"seat": 1})
    assert r.status_code == 200, r.text
    # both people's sockets go to the other process: the person who plays makes their moves
    # there, and the process holding the lease must run the idle seat's clock from what the
    # other one stored
    sockets = []
    for c in (idle, busy):
        sockets.append(await TimedSocket(b, b.same_person(c), table_id).connect())
    never, player = sockets

    def kept(st: dict[str, Any]) -> bool:
        return bool(st["table"]["seats"][0]["kept"])

    await play_until([player], lambda: bool(never.state and kept(never.state)), timeout=90)
    assert [e["timeouts"] for e in events(never) if e["type"] == "timeout"] == [1, 2]
    lasted = turns_of(never, 0)
    assert lasted and max(lasted) < 7.0, lasted
    # the clock ran in the process holding the lease (the first, which opened the table),
    # not in the one the people are connected to
    tables = [s.app.state.tables.tables.get(table_id) for s in (a, b)]
    assert [t is not None and t.leader for t in tables] == [True, False]
    assert tables[1] is not None and tables[1].clock_timer is None
    for sock in sockets:
        assert unexpected_errors(sock) == []
        await sock.close()
