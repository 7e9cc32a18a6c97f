"""A table socket that reconnects while the table moves on: it catches up from the version it
saw and then follows each new version once, in order, whichever process it opens on (the one
that runs the table, or another that hears of its versions through the fan-out)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from ..conftest import Client, LiveServer
from .test_public import ALL_BOTS
from .wsclient import TableSocket, my_turn, unexpected_errors


async def watch_while_playing(
    servers: list[LiveServer], watchers: list[Client], player: TableSocket, seed: int
) -> None:
    """The player plays on (its three bots with it) while a watcher's socket is opened, read a
    moment and closed again and again, each time from the last version it saw, on a server
    drawn at random: each socket's messages carry the events of every version after the one it
    asked for, each once and in order, as the player's socket (on the process that runs the
    table) is told them one version at a time."""
    rng = random.Random(seed)
    table_id = player.table_id
    target = player.version + 120  # some 40 moves of the player's (a socket may send 60 in 10 s)

    async def play() -> None:  # at a person's pace: a move a few hundredths of a second after
        # the turn comes (the three bots move at once)
        while True:
            st = await player.wait_for(lambda x: x["version"] >= target or my_turn(x), 30)
            if st["version"] >= target:
                return
            await asyncio.sleep(rng.uniform(0.02, 0.06))
            before, errors = st["version"], len(player.errors)
            await player.send({"type": "act", "version": before, **st["view"]["legal_json"][0]})
            await player.wait_for(
                lambda x, b=before, n=errors: x["version"] > b or len(player.errors) > n
            )

    playing = asyncio.create_task(play())
    last: int | None = None
    seen: list[tuple[int | None, list[dict[str, Any]]]] = []
    while True:
        done = playing.done()
        i = rng.randrange(len(servers))
        sock = await TableSocket(servers[i], watchers[i], table_id).connect(last_version=last)
        await asyncio.sleep(0.3 if done else rng.uniform(0, 0.03))
        await sock.close()
        assert unexpected_errors(sock) == []
        messages = [m for m in sock.messages if m["type"] == "state"]
        seen.append((last, messages))
        last = messages[-1]["version"]
        if done:
            break
    await playing
    assert unexpected_errors(player) == []
    assert len(seen) >= 5, "too few sockets opened to test anything"
    # the player's socket, on the process that runs the table, is told each version alone
    told = [m for m in player.messages if m["type"] == "state"][1:]
    first_told, last_told = told[0]["version"], told[-1]["version"]
    assert [m["version"] for m in told] == list(range(first_told, last_told + 1))
    events = {m["version"]: m["events"] for m in told}

    def told_since(after: int, upto: int) -> list[dict[str, Any]]:
        return [e for v in range(after + 1, upto + 1) for e in events[v]]

    for asked, messages in seen:
        got = [m["version"] for m in messages]
        assert got == sorted(set(got)), f"from {asked}: versions {got}"
        assert asked is None or got[0] >= asked, f"asked from {asked}, began at {got[0]}"
        # each message carries the events of the versions since the one before it, in order;
        # the first may be a snapshot instead (a process that did not have the table's latest
        # events at hand, or a socket that asked for none)
        first, *rest = messages
        if not first["snapshot"]:
            assert asked is not None and first["events"] == told_since(asked, first["version"])
        after = first["version"]
        for m in rest:
            assert not m["snapshot"], f"a snapshot at {m['version']} (from {asked})"
            assert m["events"] == told_since(after, m["version"]), f"{m['version']} after {after}"
            after = m["version"]
    assert seen[-1][1][-1]["version"] >= target


async def alice_at_a_table_of_bots(servers: list[LiveServer]) -> tuple[TableSocket, list[Client]]:
    """Alice's socket at a public table of hers and three bots (through the first server), and
    Bob signed in, as a client of each server."""
    first = servers[0]
    alice = await first.sign_in("alice@example.com", "Alice")
    bob = await first.sign_in("bob@example.com", "Bob")
    r = await alice.post("/api/tables", json={"kind": "public", "seats": ALL_BOTS})
    assert r.status_code == 201, r.text
    player = await TableSocket(first, alice, r.json()["id"]).connect()
    return player, [bob, *(server.same_person(bob) for server in servers[1:])]


async def test_a_watcher_reconnecting_while_the_table_plays_follows_every_version_once(
    live: LiveServer,
) -> None:
    player, bob = await alice_at_a_table_of_bots([live])
    await watch_while_playing([live], bob, player, seed=1)
    await player.close()


async def test_across_processes_a_reconnecting_watcher_follows_every_version_once(
    live_pair: tuple[LiveServer, LiveServer],
) -> None:
    servers = list(live_pair)
    player, bob = await alice_at_a_table_of_bots(servers)
    await watch_while_playing(servers, bob, player, seed=2)
    await player.close()


async def chat_while_watching(
    servers: list[LiveServer], watchers: list[Client], talker: TableSocket, seed: int
) -> None:
    """The talker says 50 lines while a watcher's socket is opened and closed again and again
    (on a server drawn at random): each socket shows each line once (the recent lines it is
    sent first, and the lines said after), and the last shows every line."""
    rng = random.Random(seed)
    said = 50

    async def talk() -> None:
        for n in range(said):
            await talker.send({"type": "chat", "text": f"line {n}"})
            await asyncio.sleep(rng.uniform(0.01, 0.04))

    talking = asyncio.create_task(talk())
    shown: list[list[int]] = []
    while True:
        done = talking.done()
        i = rng.randrange(len(servers))
        sock = await TableSocket(servers[i], watchers[i], talker.table_id).connect()
        await asyncio.sleep(0.3 if done else rng.uniform(0, 0.03))
        await sock.close()
        assert unexpected_errors(sock) == []
        shown.append([int(line["id"]) for line in sock.chat])
        if done:
            break
    await talking
    assert len(shown) >= 5, "too few sockets opened to test anything"
    for ids in shown:
        assert len(ids) == len(set(ids)), f"a line shown twice: {ids}"
        assert ids == sorted(ids), f"lines out of order: {ids}"
    assert len(shown[-1]) == said


async def test_a_watcher_reconnecting_while_someone_talks_shows_each_line_once(
    live: LiveServer,
) -> None:
    talker, bob = await alice_at_a_table_of_bots([live])
    await chat_while_watching([live], bob, talker, seed=3)
    await talker.close()


async def test_across_processes_a_reconnecting_watcher_shows_each_line_once(
    live_pair: tuple[LiveServer, LiveServer],
) -> None:
    servers = list(live_pair)
    talker, bob = await alice_at_a_table_of_bots(servers)
    await chat_while_watching(servers, bob, talker, seed=4)
    await talker.close()
