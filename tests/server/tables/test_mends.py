"""The table server's part of what trying every flow as a player found (issue 16, item 5):
"Play again" once a game is over (who may, and what it refuses), a reconnect's snapshot that
tells the deal so far, the last to join not left "away", and leaving mid-game leaving no
countdown (nor a view of the bot's hand) behind."""

from __future__ import annotations

import asyncio
from typing import Any

from ..conftest import Client, LiveServer
from .test_public import BOTS_AND_OPEN, open_table
from .wsclient import TableSocket, play_until, unexpected_errors

ONE_ROUND = {"preset": "standard", "options": {"game_end": "match_rounds", "match_rounds": 1}}


async def solo_match(
    live: LiveServer, email: str, rules: dict[str, Any] = ONE_ROUND
) -> tuple[Client, str]:
    """Mira at a public table of three random bots, one deal a game unless ``rules`` say."""
    me = await live.sign_in(email, "Mira")
    r = await me.post(
        "/api/tables",
        json={
            "kind": "public",
            "seats": ["me", "bot:random", "bot:random", "bot:random"],
            "rules": rules,
        },
    )
    assert r.status_code == 201, r.text
    return me, str(r.json()["id"])


def game_over(sock: TableSocket) -> bool:
    st = sock.state
    return bool(st and st["table"]["game"] and st["table"]["game"]["over"])


async def test_play_again_starts_a_new_game_with_the_same_seats_and_rules(
    live: LiveServer,
) -> None:
    me, table_id = await solo_match(live, "mira@example.com")
    sock = await TableSocket(live, me, table_id).connect()
    # not before the game is over; nor for a stranger, who may watch this public table
    r = await me.post(f"/api/tables/{table_id}/play-again")
    assert r.status_code == 409 and "not over" in r.json()["detail"], r.text
    stranger = await live.sign_in("stranger@example.com", "Sam")
    r = await stranger.post(f"/api/tables/{table_id}/play-again")
    assert r.status_code == 403, r.text
    assert (await live.client().post(f"/api/tables/{table_id}/play-again")).status_code == 401
    assert (await me.post("/api/tables/nosuchtable/play-again")).status_code == 404

    await play_until([sock], lambda: game_over(sock), timeout=90)
    before: dict[str, Any] = (await me.get(f"/api/tables/{table_id}")).json()
    assert before["game"]["over"] and before["game"]["game_no"] == 1
    r = await stranger.post(f"/api/tables/{table_id}/play-again")  # still not theirs
    assert r.status_code == 403, r.text

    r = await me.post(f"/api/tables/{table_id}/play-again")
    assert r.status_code == 200, r.text
    assert r.json()["game_no"] == 2
    await sock.wait_for(lambda st: st["table"]["game"]["game_no"] == 2)
    after: dict[str, Any] = (await me.get(f"/api/tables/{table_id}")).json()
    assert after["game"]["over"] is False and after["game"]["scores"] == [0, 0]
    assert after["rules"] == before["rules"] and after["seats"] == before["seats"]
    assert sock.seen_event("game_started")
    # twice in a row is refused: the new game is not over
    r = await me.post(f"/api/tables/{table_id}/play-again")
    assert r.status_code == 409, r.text
    # the old game's deals stay in history under game 1
    games = (await me.get("/api/history/games")).json()
    assert 1 in {g["game_no"] for g in games if g["table_id"] == table_id}, games
    assert unexpected_errors(sock) == []
    await sock.close()


async def test_snapshot_tells_the_deal_so_far(live: LiveServer) -> None:
    """A page that comes (back) with no log gets the deal's events with its snapshot."""
    me, table_id = await solo_match(live, "rita@example.com")
    sock = await TableSocket(live, me, table_id).connect()

    def some_bids() -> bool:
        v = sock.state and sock.state["view"]
        return bool(v and len(v["calls"]) >= 3)

    await play_until([sock], some_bids)
    seen = [e for m in sock.messages if m["type"] == "state" for e in m["events"]]
    await sock.close()
    again = await TableSocket(live, me, table_id).connect()
    first = again.messages[0]
    assert first["snapshot"] is True
    history = first["history"]
    calls = [e for e in history if e["type"] == "bid" or e.get("stage") == "auction"]
    assert [[e["seat"], e.get("bid", 0)] for e in calls] == first["view"]["calls"][: len(calls)]
    # the same events as those sent live for the deal (from its deal on)
    starts = [i for i, e in enumerate(seen) if e["type"] in ("new_deal", "game_started")]
    if starts:
        live_events = [e for e in seen[starts[-1] + 1 :] if e["type"] != "score"]
        assert history[: len(live_events)] == live_events
    await again.close()


async def test_last_to_join_is_not_away_and_leaving_leaves_no_countdown(
    live: LiveServer,
) -> None:
    host = await live.sign_in("host@example.com", "Hema")
    table = await open_table(host, BOTS_AND_OPEN)
    table_id = table["id"]
    host_sock = await TableSocket(live, host, table_id).connect()
    joiner = await live.sign_in("joiner@example.com", "Jay")
    other = await live.sign_in("other2@example.com", "Oli")
    for c in (other, joiner):  # Jay takes the last seat: the game starts as he joins
        r = await c.post(f"/api/tables/{table_id}/join", json={})
        assert r.status_code == 200, r.text
    await host_sock.wait_for(lambda st: st["table"]["status"] == "playing")
    seat = next(s["seat"] for s in host_sock.state["table"]["seats"] if s["name"] == "Jay")  # type: ignore[index]
    assert host_sock.state["table"]["seats"][seat]["connected"] is False  # type: ignore[index]
    jay = await TableSocket(live, joiner, table_id).connect()
    # the host hears that Jay is here without anybody moving
    await host_sock.wait_for(lambda st: st["table"]["seats"][seat]["connected"] is True, 2)

    # Jay leaves mid-game: a bot has the seat, and nobody is counting down to a takeover
    r = await joiner.post(f"/api/tables/{table_id}/leave")
    assert r.status_code == 200, r.text
    await host_sock.wait_for(lambda st: st["table"]["seats"][seat]["bot"] != "")
    left = [
        e for m in host_sock.messages if m["type"] == "state" for e in m["events"]
        if e["type"] == "seat_left"
    ]  # fmt: skip
    assert left == [{"type": "seat_left", "seat": seat, "name": "Jay", "bot": True}]
    # his socket watches on as a viewer's: the seat's hand is the bot's now
    await jay.wait_for(lambda st: st["table"]["you"]["spectator"] is True)
    assert jay.state is not None
    view = jay.state["view"]
    # (every hand is shown to all once a deal is over: a first deal may end invalid at once)
    assert view["hands"][seat] is None or view["phase"] == "over"
    await asyncio.sleep(0.5)
    state = host_sock.state
    assert state is not None
    assert state["table"]["seats"][seat]["takeover_at"] is None
    assert not host_sock.seen_event("seat_away")
    await jay.close()
    await host_sock.close()


async def test_a_new_name_reaches_the_tables_where_the_player_sits(live: LiveServer) -> None:
    """A seated player who renames themselves is shown by the new name at once to everyone at
    their open tables (and says it in the chat), not after they sit again; a viewer's chat
    lines carry their new name too."""
    me, table_id = await solo_match(live, "mira@example.com")
    other = await open_table(me, BOTS_AND_OPEN)  # a second table of hers, still waiting
    viewer = await live.sign_in("sam@example.com", "Sam")
    watching = await TableSocket(live, viewer, table_id).connect()
    mine = await TableSocket(live, me, table_id).connect()
    waiting = await TableSocket(live, viewer, str(other["id"])).connect()
    r = await me.post(
        "/api/tables",
        json={"kind": "public", "seats": BOTS_AND_OPEN, "name": "Mira's den"},
    )
    assert r.status_code == 201, r.text
    named = await TableSocket(live, viewer, str(r.json()["id"])).connect()
    seat = next(s["seat"] for s in watching.state["table"]["seats"] if s["name"] == "Mira")

    # a change of something else renames nothing
    assert (await me.patch("/api/me", json={"card_deck": "large"})).status_code == 200
    assert (await viewer.patch("/api/me", json={"first_name": "Samir"})).status_code == 200
    r = await me.patch("/api/me", json={"first_name": "Mirabai"})
    assert r.status_code == 200, r.text
    for sock in (watching, waiting, mine, named):
        await sock.wait_for(
            lambda st: any(s["name"] == "Mirabai" for s in st["table"]["seats"]), timeout=2
        )
        renamed = [
            e
            for m in sock.messages
            if m["type"] == "state"
            for e in m.get("events", ())
            if e["type"] == "seat_renamed"
        ]
        assert len(renamed) == 1, renamed  # only her rename, only once
        assert renamed[0]["old"] == "Mira"
    assert watching.state is not None and waiting.state is not None
    assert watching.state["table"]["seats"][seat]["name"] == "Mirabai"
    # a table named after her is named after her new name; one she named keeps its name
    assert waiting.state["table"]["name"] == "Mirabai's table"
    assert (await me.get(f"/api/tables/{table_id}")).json()["name"] == "Mirabai's table"
    assert named.state is not None and named.state["table"]["name"] == "Mira's den"
    # her chat lines carry the new name; a snapshot (a page opened now) has it too
    await mine.send({"type": "chat", "text": "hello"})
    await asyncio.wait_for(_chat_from(watching, "hello"), 2)
    assert watching.chat[-1]["name"] == "Mirabai"
    # a viewer who took a new name after his socket opened speaks under it too
    await watching.send({"type": "chat", "text": "hi, Mirabai"})
    await asyncio.wait_for(_chat_from(mine, "hi, Mirabai"), 2)
    assert mine.chat[-1]["name"] == "Samir" and mine.chat[-1]["spectator"] is True
    late = await TableSocket(live, viewer, table_id).connect()
    assert late.state is not None
    assert late.state["table"]["seats"][seat]["name"] == "Mirabai"
    for sock in (watching, mine, waiting, late, named):
        assert unexpected_errors(sock) == []
        await sock.close()


async def _chat_from(sock: TableSocket, text: str) -> None:
    while not any(line["text"] == text for line in sock.chat):
        sock.changed.clear()
        await sock.changed.wait()
