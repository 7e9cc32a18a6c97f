"""What each connection is sent: the table, its own view of the game (through the engine's
view functions only), and the events of each version."""

from __future__ import annotations

import logging
from typing import Any

import orjson

from ...engine import event_json
from ...engine.events import Event
from ...engine.game import GameOver, ScoreChanged, totals_json
from ...engine.views import View, seat_private_json, shared_json, spectator_view, view
from ..db import utc_iso
from .base import TableParts
from .connection import OUTBOX_LIMIT, Connection, Message, encoded, to_keep
from .history import deal_events

log = logging.getLogger("twentynine.tables")


class Broadcast(TableParts):
    def viewer_seats(self, conn: Connection) -> frozenset[int]:
        """The seats whose hands a spectator connection sees."""
        if self.info.spectators_see == "none":
            return frozenset()
        seen = set(conn.toggled)
        host_seat = self.seat_of(self.info.host_id)
        if host_seat is not None:
            seen.add(host_seat)
        return frozenset(seen)

    def view_for(self, conn: Connection) -> View | None:
        if self.game is None:
            return None
        rnd = self.game.round
        if conn.seat is not None:
            return view(rnd, conn.seat)
        return spectator_view(rnd, self.viewer_seats(conn))

    def table_json(self, conn: Connection | None = None) -> dict[str, Any]:
        game = self.game
        out: dict[str, Any] = {
            "id": self.info.id,
            "kind": self.info.kind,
            "name": self.info.name,
            "host_id": self.info.host_id,
            "status": self.status,
            "rules": self.info.rules_spec.to_json(),
            "direction": self.rules.direction,
            # (a tournament's: in each player's and the organiser's "you", see ``conference_for``)
            "conference_url": "" if self.info.kind == "tournament" else self.info.conference_url,
            "spectators_see": self.info.spectators_see,
            "takeover_seconds": self.info.takeover_seconds,
            "turn_seconds": self.info.turn_seconds,
            # whose clock runs and when it runs out (wall-clock seconds), with the server's
            # time now, so that a client whose own clock is off draws the same countdown
            "clock": self.clock_json(),
            "server_time": self.wall(),
            "rated": self.info.rated,
            "version": self.version,
            "seats": [
                {
                    "seat": i,
                    "name": s.name,
                    "user_id": s.user_id,
                    "bot": s.bot if not s.bot.startswith("http") else "external",
                    "standin": bool(s.standin),
                    "joined": s.joined or s.is_bot,
                    # here, or on another process (``elsewhere``)
                    "connected": s.connections > 0 or self.elsewhere.get(i, False) or s.is_bot,
                    "takeover_at": s.takeover_at,
                    "timeouts": s.timeouts,
                    "kept": s.standin_cause == "clock",  # by the clock's stand-in: "I'm back"
                }
                for i, s in enumerate(self.seats)
            ],
            "game": None if game is None else {**totals_json(game), "game_no": self.game_no},
        }
        if conn is not None:
            out["you"] = self._you(conn)
        return out

    def _you(self, conn: Connection) -> dict[str, Any]:
        you: dict[str, Any] = {
            "user_id": conn.user_id,
            "seat": conn.seat,
            "spectator": conn.spectator,
            "host": conn.user_id is not None and conn.user_id == self.info.host_id,
            "sees": sorted(self.viewer_seats(conn)) if conn.spectator else [conn.seat],
            "can_toggle": conn.spectator and self.info.spectators_see != "none",
        }
        if self.info.kind == "tournament":
            you["conference_url"] = self.conference_for(conn.user_id)
        return you

    def _you_text(self, conn: Connection) -> bytes:
        """``_you(conn)`` as JSON text. A player's is kept on the connection for as long as it
        plays the same seat: it then says only who they are, their seat and whether they host,
        none of which a table changes (a watcher's follows the hands they turn over, and a
        tournament's carries the video-call link, so theirs is made afresh each time)."""
        seat = conn.seat
        if seat is None or self.info.kind == "tournament":
            return encoded(self._you(conn))
        kept = conn.you
        if kept is None or kept[0] != seat:
            kept = conn.you = (seat, to_keep(encoded(self._you(conn))))
        return kept[1]

    def conference_for(self, user_id: int | None) -> str:
        """The video-call link ``user_id`` is given. A tournament's goes to the match's players
        and its organiser only (as on the tournament's page): anyone signed in may watch."""
        if self.info.kind != "tournament":
            return self.info.conference_url
        if user_id is not None and (
            user_id == self.info.host_id or self.seat_of(user_id) is not None
        ):
            return self.info.conference_url
        return ""

    def message_for(
        self,
        conn: Connection,
        events: list[dict[str, Any]],
        snapshot: bool = False,
        table: dict[str, Any] | None = None,
        view_json: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A state message for ``conn``; a broadcast passes the table (without "you") and the
        view it built once for all who see the same."""
        if view_json is None:
            v = self.view_for(conn)
            view_json = None if v is None else self._offered(v.to_json())
        return {
            "type": "state",
            "version": self.version,
            "snapshot": snapshot,
            "events": events,
            "table": self.table_json(conn) if table is None else {**table, "you": self._you(conn)},
            "view": view_json,
        }

    def _offered(self, view_json: dict[str, Any]) -> dict[str, Any]:
        """A view's JSON as sent: its legal moves only while the table plays (a closed, paused
        or waiting table takes none, so it offers none)."""
        if self.status == "playing" or not view_json.get("legal"):
            return view_json
        return {**view_json, "legal": [], "legal_json": []}

    def _broadcast(
        self,
        events: list[dict[str, Any]],
        snapshot: bool = False,
        events_json: bytes | None = None,
    ) -> None:
        """Each connection's own message, as the JSON text ``message_for`` would encode, built
        from parts encoded once: the message's head and the table for all, each distinct view
        once (the part every view shares once too), and only each connection's "you" alone.
        ``events_json``: the events already encoded, if the caller has them."""
        table = encoded(self.table_json())
        head = encoded({"type": "state", "version": self.version, "snapshot": snapshot})
        if events_json is None:
            events_json = encoded(events)
        before_you = b"".join(
            (head[:-1], b',"events":', events_json, b',"table":', table[:-1], b',"you":')
        )
        views: dict[int | frozenset[int], bytes] = {}
        public: bytes | None = None  # the part of every view that is the same, without its "}"
        rnd = None if self.game is None else self.game.round
        for conn in list(self.conns):
            key = conn.seat if conn.seat is not None else self.viewer_seats(conn)
            seen = views.get(key)
            if seen is None:
                if rnd is None:
                    seen = b"null"
                else:
                    if public is None:
                        public = encoded(shared_json(rnd))[:-1]
                    if isinstance(key, int):
                        private = seat_private_json(rnd, key)
                    else:
                        private = spectator_view(rnd, key).private_json()
                    seen = b"".join((public, b",", encoded(self._offered(private))[1:]))
                views[key] = seen
            self.push(
                conn,
                b"".join((before_you, self._you_text(conn), b'},"view":', seen, b"}")),
            )

    def push(self, conn: Connection, message: Message) -> None:
        """Queue a message for ``conn`` (a dict, or one already encoded as JSON text)."""
        if conn.closed or (conn.chat_ids and conn.shows(message)):
            return
        if len(conn.outbox) >= OUTBOX_LIMIT:  # a client that cannot keep up reconnects
            log.warning("table %s: dropping a slow connection", self.info.id)
            conn.closed = True
            self.conns.discard(conn)
            conn.outbox.append(None)
        else:
            conn.outbox.append(message)
        conn.kick()

    def catch_up(self, conn: Connection, last_version: int | None) -> dict[str, Any]:
        """What a (re)connecting client missed since ``last_version``: the events in between
        when we still have them, else a fresh snapshot; always with its current view."""
        if last_version is not None and last_version <= self.version:
            missed = [orjson.loads(evs) for ver, evs in self.recent if ver > last_version]
            have_all = last_version == self.version or (
                self.recent and self.recent[0][0] <= last_version + 1
            )
            if have_all:
                return self.message_for(conn, [e for evs in missed for e in evs])
        message = self.message_for(conn, [], snapshot=True)
        # replayed once a version (0.16 ms of CPU after 30 actions: benchmarks/table_history.py)
        if self.told is None or self.told[0] != self.version:
            self.told = (self.version, deal_events(self.info.rules_spec, self.game, self.actions))
        message["history"] = self.told[1]
        return message

    async def _close(self, conn: Connection) -> None:
        conn.closed = True
        conn.outbox.append(None)
        conn.kick()


def chat_json(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "user_id": row.user_id,
        "spectator": row.spectator,
        "text": row.text,
        "at": utc_iso(row.created_at),
    }


def game_event_json(e: Event | ScoreChanged | GameOver) -> dict[str, Any]:
    if isinstance(e, ScoreChanged):
        return {
            "type": "score",
            "scores": list(e.scores),
            "red_sets": list(e.red_sets),
            "black_sets": list(e.black_sets),
        }
    if isinstance(e, GameOver):
        return {"type": "game_over", "winner": e.winner}
    return event_json(e)
