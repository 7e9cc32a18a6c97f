"""Ending a person's presence at once (their account disabled or deleted): what is open of
theirs in this process closes, and their live channel is told."""

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
    """After the sessions were revoked: close the open sockets, tell the open pages."""
    close_table_sockets(app, user_id)
    await app.state.live.send(
        [user_id], {"type": "signed_out", "user_id": user_id, "reason": reason}
    )
