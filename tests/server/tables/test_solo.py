"""A solo game against bots over the real socket: the deal is played to its result and stored."""

from __future__ import annotations

from twentynine.engine.records import DealRecord, deal_summary, replay_deal

from ..conftest import LiveServer
from .wsclient import TableSocket, play_until, unexpected_errors


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
    # only my own hand is in my view while a deal is on (a first deal that is invalid at once
    # shows every hand, so wait for one in play)
    await sock.wait_for(lambda st: st["view"] is not None and st["view"]["phase"] != "over")
    hands = sock.view["hands"]
    assert hands[0] is not None and all(h is None for h in hands[1:])

    started = sock.state["table"]["game"]["deals"]

    def first_deal_done() -> bool:  # the deal in play ended, and the next one is dealt
        st = sock.state
        return bool(st and st["table"]["game"] and st["table"]["game"]["deals"] > started)

    await play_until([sock], first_deal_done)
    assert unexpected_errors(sock) == []
    kinds = [e["type"] for m in sock.messages if m["type"] == "state" for e in m["events"]]
    assert "round_ended" in kinds and "new_deal" in kinds
    await sock.close()

    # the finished deal is in my history as a record that replays to the same result
    deals = (await me.get("/api/history/deals")).json()
    assert len(deals) >= 1 and deals[-1]["seat"] == 0
    first = deals[-1]
    record = (await me.get(f"/api/history/deals/{first['id']}")).json()
    replayed = deal_summary(replay_deal(DealRecord.from_json(record)))
    assert replayed["complete"] and replayed["outcome"] == first["outcome"]
    assert replayed["score_delta"] == first["score_delta"]
    assert replayed["bid"] == first["bid"]
    if first["bid"] is not None:
        assert replayed["contract"] == first["contract"]
    stats = (await me.get("/api/stats/me")).json()
    assert stats["games"] == 1
    assert stats["rounds"] == sum(1 for d in deals if d["outcome"] != "invalid")
    # nobody else may download it
    other = await live.sign_in("other@example.com", "Other")
    assert (await other.get(f"/api/history/deals/{first['id']}")).status_code == 404


async def test_guest_plays_solo_but_cannot_open_public(live: LiveServer) -> None:
    guest = live.client()
    r = await guest.post("/api/auth/guest", json={"first_name": "Visitor"})
    assert r.status_code == 200
    r = await guest.post("/api/tables", json={"kind": "public"})
    assert r.status_code == 403
    r = await guest.post("/api/tables", json={"kind": "solo"})
    assert r.status_code == 201
    sock = await TableSocket(live, guest, r.json()["id"]).connect()
    # the deal in play (a first deal can end invalid at once; the next comes a moment later)
    state = await sock.wait_for(lambda st: st["view"] is not None and st["view"]["phase"] != "over")
    assert state["view"]["legal"] or state["view"]["to_act"]
    await sock.close()
