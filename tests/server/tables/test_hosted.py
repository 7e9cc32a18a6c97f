"""A hosted game among friends (seed 000): four players sign in, befriend, the host hosts, all
join, and they play a whole round to its scoring over real sockets; a fifth person watches."""

from __future__ import annotations

import asyncio
from typing import Any

from ..conftest import Client, LiveServer
from .wsclient import TableSocket, deal_in_play, play_until, unexpected_errors

NAMES = ["Host", "Ana", "Bo", "Cy", "Dee"]


async def befriend(a: Client, b: Client, b_email: str) -> None:
    r = await a.post("/api/friends/requests", json={"email": b_email})
    assert r.status_code in (200, 201), r.text
    me_a = (await a.get("/api/me")).json()
    r = await b.post(f"/api/friends/requests/{me_a['id']}/accept")
    assert r.status_code == 200, r.text


async def hosted_table(live: LiveServer, **options: Any) -> tuple[list[Client], list[int], str]:
    """Five people (the first one the admin with a standard account, who hosts), all friends of
    the host; the first four seated."""
    emails = [f"{n.lower()}@example.com" for n in NAMES]
    clients = [await live.sign_in(e, n) for e, n in zip(emails, NAMES, strict=True)]
    ids = [(await c.get("/api/me")).json()["id"] for c in clients]
    for c, e in zip(clients[1:], emails[1:], strict=True):
        await befriend(clients[0], c, e)
    r = await clients[0].post(
        "/api/tables/hosted",
        json={"seats": ids[:4], "conference_url": "https://meet.example.com/abc", **options},
    )
    assert r.status_code == 201, r.text
    return clients, ids, r.json()["id"]


async def test_four_friends_play_a_round_and_a_friend_watches(live: LiveServer) -> None:
    clients, _, table_id = await hosted_table(live, takeover_seconds=30)
    host, spectator = clients[0], clients[4]
    # dashboards: the host sees it under Host, players under Join, the other friend under View
    assert [t["id"] for t in (await host.get("/api/tables/mine")).json()["host"]] == [table_id]
    assert [t["id"] for t in (await clients[1].get("/api/tables/mine")).json()["join"]] == [
        table_id
    ]
    assert [t["id"] for t in (await spectator.get("/api/tables/mine")).json()["view"]] == [table_id]
    # it starts when all four have joined
    for i, c in enumerate(clients[:4]):
        r = await c.post(f"/api/tables/{table_id}/join", json={})
        assert r.status_code == 200, r.text
        assert r.json()["seat"] == i
        assert r.json()["status"] == ("playing" if i == 3 else "waiting")
    socks = [await TableSocket(live, c, table_id).connect() for c in clients[:4]]
    watcher = await TableSocket(live, spectator, table_id).connect()
    await deal_in_play([*socks, watcher])  # a first deal can end at once, all hands shown
    for i, s in enumerate(socks):
        hands = s.view["hands"]
        assert hands[i] is not None and sum(h is not None for h in hands) == 1
        assert s.state is not None and s.state["table"]["conference_url"].startswith("https://")
    # by default a spectator sees the host's hand (seat 0) and may toggle the others
    assert watcher.view["hands"][0] is not None
    assert all(h is None for h in watcher.view["hands"][1:])
    assert watcher.view["legal"] == []
    await watcher.send({"type": "toggle", "seat": 2})
    await watcher.wait_for(lambda st: st["view"]["hands"][2] is not None)
    await watcher.send({"type": "toggle", "seat": 2})
    await watcher.wait_for(lambda st: st["view"]["hands"][2] is None)
    # spectators may not play
    await watcher.send({"type": "act", "act": "pass"})
    err = await watcher.wait_error(1)
    assert err["reason"] == "spectator"

    def scored() -> bool:
        # a deal this socket saw end (a first deal can end invalid before the sockets connect)
        st = socks[0].state
        seen_end = any(
            e["type"] == "round_ended"
            for m in socks[0].messages
            if m["type"] == "state"
            for e in m["events"]
        )
        return bool(st and st["table"]["game"]["deals"] >= 2 and seen_end)

    await play_until(socks, scored, timeout=90)
    for s in socks:
        assert unexpected_errors(s) == []
    ended = [
        e
        for m in socks[0].messages
        if m["type"] == "state"
        for e in m["events"]
        if e["type"] == "round_ended"
    ]
    assert ended, "no round ended"
    # everyone saw every hand at the end of the round
    over = [
        m
        for m in socks[1].messages
        if m["type"] == "state" and m["view"] and m["view"]["phase"] == "over"
    ]
    assert over and all(h is not None for h in over[-1]["view"]["hands"])
    # chat: players and spectators, marked, stored for late joiners
    await socks[1].send({"type": "chat", "text": "good game"})
    # two sockets have no order between them: the second line goes once the first is in
    await socks[2].wait_for(lambda _s: len(socks[2].chat) >= 1)
    await watcher.send({"type": "chat", "text": "well played"})
    await socks[2].wait_for(lambda _s: len(socks[2].chat) >= 2)
    assert [(line["text"], line["spectator"]) for line in socks[2].chat] == [
        ("good game", False),
        ("well played", True),
    ]
    late = await TableSocket(live, clients[3], table_id).connect()
    assert [line["text"] for line in late.chat] == ["good game", "well played"]
    await watcher.send({"type": "chat", "text": "x" * 301})
    assert (await watcher.wait_error(2))["reason"] == "too_long"
    for s in [*socks, watcher, late]:
        await s.close()


async def test_bad_socket_input_changes_nothing(live: LiveServer) -> None:
    clients, _, table_id = await hosted_table(live)
    for c in clients[:4]:
        await c.post(f"/api/tables/{table_id}/join", json={})
    socks = [await TableSocket(live, c, table_id).connect() for c in clients[:4]]
    speaker = await deal_in_play(socks)
    other = (speaker + 1) % 4
    version = socks[0].version
    bad = [
        (socks[other], {"type": "act", "act": "pass"}, "not_your_turn"),
        (socks[speaker], {"type": "act", "act": "pass", "seat": other}, "forged_seat"),
        (socks[speaker], {"type": "act", "act": "bid", "value": 99}, "bad_bid"),
        (socks[speaker], {"type": "act", "act": "fly"}, "malformed"),
        (socks[speaker], {"type": "nonsense"}, "malformed"),
        (socks[speaker], {"type": "act", "act": "play", "card": "JS"}, "not_allowed"),
        (socks[3 if speaker != 3 else 2], {"type": "reset", "what": "score"}, "not_host"),
    ]
    for sock, msg, reason in bad:
        before = len(sock.errors)
        await sock.send(msg)
        err = await sock.wait_error(before + 1)
        assert err["reason"] == reason, (msg, err)
    await socks[speaker].ws.send("{not json")
    assert (await socks[speaker].wait_error(len(socks[speaker].errors) + 1))["reason"] == (
        "malformed"
    )
    await socks[speaker].ws.send("x" * 5000)
    assert (await socks[speaker].wait_error(len(socks[speaker].errors) + 1))["reason"] == (
        "too_large"
    )
    await asyncio.sleep(0.1)
    assert all(s.version == version for s in socks)  # nothing changed
    for s in socks:
        await s.close()


async def test_reconnect_catches_up_and_takeover_returns_the_seat(live: LiveServer) -> None:
    clients, _, table_id = await hosted_table(live, takeover_seconds=1)
    for c in clients[:4]:
        await c.post(f"/api/tables/{table_id}/join", json={})
    socks = [await TableSocket(live, c, table_id).connect() for c in clients[:4]]
    # seat 1 drops out; after the takeover time a bot plays for it
    await socks[1].close()
    await socks[0].wait_for(lambda st: socks[0].seen_event("bot_takeover"), timeout=10)
    assert socks[0].state is not None and socks[0].state["table"]["seats"][1]["standin"]
    # the others play on; the bot answers for seat 1
    start = socks[0].version

    def moved() -> bool:
        return socks[0].version >= start + 6

    await play_until([socks[0], socks[2], socks[3]], moved, timeout=60)
    last_seen = socks[1].version
    back = await TableSocket(live, clients[1], table_id).connect(last_version=last_seen)
    assert back.state is not None
    assert back.state["version"] == socks[0].version
    assert not back.state["snapshot"]  # it got the events it missed
    assert back.state["events"]
    assert back.view["hands"][1] is not None
    await socks[0].wait_for(lambda st: not st["table"]["seats"][1]["standin"])
    for s in [socks[0], socks[2], socks[3], back]:
        await s.close()


async def test_resets_are_for_the_host(live: LiveServer) -> None:
    clients, _, table_id = await hosted_table(live)
    for c in clients[:4]:
        await c.post(f"/api/tables/{table_id}/join", json={})
    r = await clients[1].post(f"/api/tables/{table_id}/reset", json={"what": "score"})
    assert r.status_code == 403
    r = await clients[0].post(f"/api/tables/{table_id}/reset", json={"what": "all"})
    assert r.status_code == 200, r.text
    sock = await TableSocket(live, clients[2], table_id).connect()
    assert sock.state is not None
    game = sock.state["table"]["game"]
    assert game["scores"] == [0, 0] and sock.view["calls"] == []
    r = await clients[0].post(f"/api/tables/{table_id}/reset", json={"what": "sideways"})
    assert r.status_code == 422
    await sock.close()
