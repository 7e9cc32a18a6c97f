"""Ending a person's presence at once (their account disabled or deleted): their table sockets
in this process close, and their live pages on every process are told, then closed."""

from __future__ import annotations

from typing import Any


def close_table_sockets(app: Any, user_id: int) -> int:
    """Close this process's table sockets of ``user_id``; how many. Each closes as a table does
    a connection it drops (code 4000: reconnect), and the reconnect, with no valid session,
    is refused."""
    closed = 0
    for runtime in list(app.state.tables.tables.values()):
        for conn in list(runtime.conns):
            if conn.user_id == user_id and not conn.closed:
                conn.closed = True
                conn.outbox.append(None)
                conn.kick()
                closed += 1
    return closed


async def end_presence(app: Any, user_id: int, reason: str) -> None:
    """After the sessions were revoked: tell the open pages on every process, then close them
    and the person's table sockets, on every process (the live hub's ``close_pages``: pages
    with code 4401; table sockets as :func:`close_table_sockets` does, through the hub's
    ``on_close``)."""
    live = app.state.live
    await live.send([user_id], {"type": "signed_out", "user_id": user_id, "reason": reason})
    await live.close_pages(user_id)
