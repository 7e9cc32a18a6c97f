"""External Bhoos-protocol bots sit at a table only where the operator allows their address,
and then play through the same queue and views as everyone else."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bhoos.test_client import running
from twentynine.bhoos.server import create_app as bot_app
from twentynine.server.tables.service import url_bot_allowed

from ..conftest import live_settings, start_live
from .wsclient import TableSocket, play_until, unexpected_errors


def test_allow_list() -> None:
    assert url_bot_allowed("http://127.0.0.1:9000", ("127.0.0.1",))
    assert url_bot_allowed("http://127.0.0.5:9000", ("127.0.0.0/8",))
    assert url_bot_allowed("https://bots.example.org/x", ("bots.example.org",))
    assert not url_bot_allowed("http://10.1.2.3/", ("127.0.0.0/8",))
    assert not url_bot_allowed("http://127.0.0.1:9000", ())
    assert not url_bot_allowed("http:///nohost", ("127.0.0.1",))


async def test_an_allowed_external_bot_plays_a_deal(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with running(bot_app("random", seed=3)) as url:
        server, stop = await start_live(
            live_settings(
                tmp_path, f"sqlite+aiosqlite:///{tmp_path / 't.db'}", bot_url_allow=("127.0.0.1",)
            )
        )
        try:
            me = await server.sign_in("ext@example.com", "Ext")
            seats = ["me", f"bot:{url}", "bot:random", "bot:random"]
            r = await me.post("/api/tables", json={"kind": "solo", "seats": seats})
            assert r.status_code == 422  # the standard rules: external bots play bhoos
            bhoos = {"preset": "bhoos", "options": {}}
            r = await me.post(
                "/api/tables",
                json={
                    "kind": "solo",
                    "seats": ["me", "bot:http://10.9.9.9:1", "open", "open"],
                    "rules": bhoos,
                },
            )
            assert r.status_code == 403  # not an allowed address
            r = await me.post("/api/tables", json={"kind": "solo", "seats": seats, "rules": bhoos})
            assert r.status_code == 201, r.text
            table_id = r.json()["id"]
            assert r.json()["seats"][1]["bot"] == "external"  # the address is not shown
            sock = await TableSocket(server, me, table_id).connect()

            def deal_done() -> bool:
                st = sock.state
                return bool(st and st["table"]["game"] and st["table"]["game"]["deals"] >= 2)

            await play_until([sock], deal_done, timeout=120)
            assert unexpected_errors(sock) == []
            # the external bot answered every time (no stand-in had to play for it)
            assert not [r for r in caplog.records if "stand-in plays" in r.getMessage()]
            await sock.close()
        finally:
            await stop()
