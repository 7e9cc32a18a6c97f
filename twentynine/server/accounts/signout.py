"""Ending a person's presence at once (their account disabled or deleted): what is open of
theirs in this process closes, and their live channel is told on every process."""

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


def close_live_pages(app: Any, user_id: int) -> int:
    """Close this process's ``/ws/me`` sockets of ``user_id`` once what they were sent is out
    (code 4401: signed out)."""
    from ..live.socket import Page

    closed = 0
    for page in list(app.state.live.subscribers.get(user_id, ())):
        if isinstance(page, Page) and not page.closed:
            page.end(4401)  # after what is queued: signed out (the page does not reconnect)
            closed += 1
    return closed


async def end_presence(app: Any, user_id: int, reason: str) -> None:
    """After the sessions were revoked: tell the open pages (on every process), then close this
    process's sockets. A table socket on another process ends when it next reconnects."""
    close_table_sockets(app, user_id)
    message = {"type": "signed_out", "user_id": user_id, "reason": reason}
    await app.state.live.send([user_id], message)
    close_live_pages(app, user_id)
    await app.state.live.close_pages(user_id)  # and on the other processes
