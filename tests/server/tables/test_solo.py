"""A solo game against bots over the real socket: the deal is played to its result and stored."""

from __future__ import annotations

from ..conftest import LiveServer
from .wsclient import TableSocket, play_until


async def test_solo_game_plays_a_deal_to_the_result(live: LiveServer) -> None:
    me = await live.sign_in("solo@example.com", "Solo")
    r = await me.post(
        "/api/tables",
        json={"kind": "solo", "seats": ["me", "bot:random", "bot:random", "bot:random"]},
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    sock = await TableSocket(live, me, table_id).connect()
    assert sock.state is not None and sock.state["table"]["status"] == "playing"
    assert sock.state["table"]["you"]["seat"] == 0
    # only my own hand is ever in my view
    hands = sock.view["hands"]
    assert hands[0] is not None and all(h is None for h in hands[1:])

    def first_deal_done() -> bool:
        st = sock.state
        return bool(st and st["table"]["game"] and st["table"]["game"]["deals"] >= 2)

    await play_until([sock], first_deal_done)
    assert sock.errors == []
    kinds = [e["type"] for m in sock.messages if m["type"] == "state" for e in m["events"]]
    assert "round_ended" in kinds and "new_deal" in kinds
    await sock.close()


async def test_guest_plays_solo_but_cannot_open_public(live: LiveServer) -> None:
    guest = live.client()
    r = await guest.post("/api/auth/guest", json={"first_name": "Visitor"})
    assert r.status_code == 200
    r = await guest.post("/api/tables", json={"kind": "public"})
    assert r.status_code == 403
    r = await guest.post("/api/tables", json={"kind": "solo"})
    assert r.status_code == 201
    sock = await TableSocket(live, guest, r.json()["id"]).connect()
    assert sock.view["legal"] or sock.view["to_act"]
    await sock.close()
