"""A deal you played reaches your pages that show your history (the dashboard's History tab,
the profile's figures) as it is recorded, not only when the game ends: ``deal_recorded``, to
those pages only, and only your own deals."""

from __future__ import annotations

from ..conftest import LiveServer
from ..live.meclient import MeSocket
from .test_mends import game_over, solo_match
from .wsclient import TableSocket, play_until, unexpected_errors


async def test_each_deal_recorded_reaches_its_players_history_pages(live: LiveServer) -> None:
    me, table_id = await solo_match(live, "mira@example.com")
    history = await MeSocket(live, me).connect()
    await history.send({"type": "watch", "history": True})
    elsewhere = await MeSocket(live, me).connect()  # her page showing something else
    sam = await live.sign_in("sam@example.com", "Sam")
    others = await MeSocket(live, sam).connect()  # someone else's History tab
    await others.send({"type": "watch", "history": True})
    for page in (history, others):
        await page.send({"type": "ping"})
        await page.next("pong")  # the watch is in

    sock = await TableSocket(live, me, table_id).connect()
    await play_until([sock], lambda: game_over(sock), timeout=90)
    deals = (await me.get("/api/history/deals")).json()
    assert deals
    for deal in deals:
        got = await history.next("deal_recorded", lambda m, d=deal: m["deal_id"] == d["id"], 2)
        assert got["table_id"] == table_id and "seq" not in got  # not stored
    assert len(history.of("deal_recorded")) == len(deals)
    assert elsewhere.of("deal_recorded") == [] and others.of("deal_recorded") == []

    # once the tab closes (the page stops watching), the next game's deals are not told
    await history.send({"type": "watch", "history": False})
    await history.send({"type": "ping"})
    await history.next("pong")
    assert (await me.post(f"/api/tables/{table_id}/play-again")).status_code == 200
    await sock.wait_for(lambda st: st["table"]["game"]["game_no"] == 2)
    await play_until([sock], lambda: game_over(sock), timeout=90)
    assert len((await me.get("/api/history/deals")).json()) > len(deals)
    await others.send({"type": "ping"})
    await others.next("pong")
    assert len(history.of("deal_recorded")) == len(deals)
    assert unexpected_errors(sock) == []
    for page in (history, elsewhere, others):
        await page.close()
    await sock.close()


async def test_watching_history_is_checked_like_any_watch(live: LiveServer) -> None:
    me = await live.sign_in("mira@example.com", "Mira")
    page = await MeSocket(live, me).connect()
    await page.send({"type": "watch", "history": "yes"})
    got = await page.next("error", timeout=2)
    assert got["reason"] == "malformed"
    await page.close()
