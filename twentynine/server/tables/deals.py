"""The game itself: a person's action, the deals one after another, and resets."""

from __future__ import annotations

from typing import Any

from ...engine.actions import action_from_json
from ...engine.game import apply, new_game, next_round, reset_scores, restart_round, totals_json
from ...engine.records import DealRecord
from ...engine.shuffle import next_deck, uniform_deck
from ..ratings import hooks as ratings_hooks
from .base import TableParts
from .broadcast import game_event_json
from .connection import Connection
from .errors import TableError

RESETS = ("score", "round", "deck", "all")


class DealFlow(TableParts):
    async def act(self, conn: Connection, message: dict[str, Any]) -> None:
        """A person's action from a connection: only for the seat that connection plays."""

        async def command() -> None:
            if conn.seat is None:
                raise TableError("spectator", "spectators cannot play")
            seat = self.seats[conn.seat]
            if seat.user_id != conn.user_id or seat.bot:
                raise TableError("not_your_seat", "this is not your seat")
            claimed = message.get("seat", conn.seat)
            if claimed != conn.seat:
                raise TableError("forged_seat", f"you play seat {conn.seat}, not {claimed!r}")
            body = {k: v for k, v in message.items() if k not in ("type", "seat", "version")}
            expected = message.get("version")
            if expected is not None and expected != self.version:
                raise TableError("stale", f"the table is at version {self.version}")
            action = action_from_json(body, conn.seat)
            back: list[dict[str, Any]] = []
            if seat.timeouts or seat.standin:  # the person acts again: the clock forgets
                if self.game is not None and self.status == "playing":
                    apply(self.game, action)  # an illegal move changes nothing (raises here)
                back = self.person_acts(conn.seat)
            await self._apply(action, back)

        await self.submit(command, here=True)  # a socket's reader: at once when it can

    async def _apply(self, action: Any, before: list[dict[str, Any]] | None = None) -> None:
        """Apply ``action`` and store it; ``before``: the table's own events to tell first
        (a timeout, a person back in their seat)."""
        if self.status != "playing" or self.game is None:
            raise TableError("not_playing", f"the table is {self.status}, not playing")
        self.game, events = apply(self.game, action)
        self.actions.append(action.to_json())
        out = [game_event_json(e) for e in events]
        await self._commit([*before, *out] if before else out)
        if self.game.round.is_over:
            await self._deal_finished()

    async def _deal_finished(self) -> None:
        game = self.game
        assert game is not None
        rnd = game.round
        record = DealRecord(self.info.rules_spec, rnd.dealer, rnd.deck, ()).to_json()
        record["actions"] = self.actions
        newly_over = game.over and not bool(self.totals and self.totals.get("over"))
        team = None
        if rnd.outcome != "invalid":
            team = (rnd.caller if rnd.caller >= 0 else rnd.bidder) & 1
        players = [None if s.bot else s.user_id for s in self.seats]
        deal_id = await self.store.add_deal(
            self.info.id,
            self.game_no,
            game.deals,
            record,
            rnd.outcome,
            team,
            rnd.contract if rnd.bidder >= 0 else "",
            list(rnd.score_delta),
            players,
            newly_over,
            game.winner,
            self._sets_won(),
        )
        if self.notices is not None:  # its players' open history (tables/notices.py)
            self.notices.deal_recorded(self, deal_id, [u for u in players if u is not None])
        if newly_over:
            await ratings_hooks.game_over(self)
        if self.leader:
            self._start_timer("next-deal", self.settings.next_deal_seconds, self._next_deal)

    def _sets_won(self) -> list[int]:
        """Sets each team won in the deal just finished (its Red sets, the other's Black)."""
        game = self.game
        assert game is not None
        before = self.totals or {"red_sets": [0, 0], "black_sets": [0, 0]}
        red = [game.red_sets[t] - before["red_sets"][t] for t in (0, 1)]
        black = [game.black_sets[t] - before["black_sets"][t] for t in (0, 1)]
        return [red[0] + black[1], red[1] + black[0]]

    async def _next_deal(self) -> None:
        game = self.game
        if game is None or not game.round.is_over or self.status != "playing":
            return  # a paused table deals again when it resumes
        if await self.nobody_here():  # bots would deal and play for nobody, for ever
            self.status, self.paused_away = "paused", True
            await self._commit([{"type": "paused", "reason": "nobody_here"}])
            return
        if self.deck_reset:
            deck = uniform_deck(self.rng)
            self.deck_reset = False
        else:
            deck = next_deck(game.round, self.rules.shuffle, self.rng)
        self.game, events = next_round(game, deck)
        self.totals = totals_json(self.game)
        self.actions = []
        out = [game_event_json(e) for e in events]
        await self._commit([{"type": "new_deal", "dealer": self.game.dealer}, *out])
        if self.game.round.is_over:  # an invalid deal (no points with the first hand …)
            await self._deal_finished()

    async def start_game(self) -> None:
        """Deal the first deal (all four seats are taken)."""
        dealer = self.rng.randrange(4)
        self.game, events = new_game(self.rules, dealer, uniform_deck(self.rng))
        self.totals = totals_json(self.game)
        self.actions = []
        self.status = "playing"
        await self._commit(
            [{"type": "game_started", "dealer": dealer}] + [game_event_json(e) for e in events],
            seats_changed=True,
        )
        if self.game.round.is_over:
            await self._deal_finished()

    async def reset(self, conn_user: int | None, what: str) -> None:
        async def command() -> None:
            if conn_user is None or conn_user != self.info.host_id:
                raise TableError("not_host", "only the host can reset")
            if self.info.rated:
                raise TableError("rated", "a rated game cannot be reset")
            if self.info.kind == "tournament":  # its result is read from the stored deals
                raise TableError(
                    "tournament",
                    "a tournament's match cannot be reset; its organiser sets the result "
                    "on the tournament's page",
                )
            if what not in RESETS:
                raise TableError("bad_reset", f"reset one of: {', '.join(RESETS)}")
            if self.game is None:
                raise TableError("not_playing", "the game has not started")
            self._cancel_timer("next-deal")
            events: list[dict[str, Any]] = [{"type": "reset", "what": what}]
            if what in ("score", "all"):
                self.game = reset_scores(self.game)
                self.totals = totals_json(self.game)
            if what in ("deck", "all"):
                self.deck_reset = True
            if what in ("round", "all"):
                if self.deck_reset:
                    deck = uniform_deck(self.rng)
                    self.deck_reset = False
                else:
                    deck = next_deck(self.game.round, self.rules.shuffle, self.rng)
                self.game, evs = restart_round(self.game, deck)
                self.totals = totals_json(self.game)
                self.actions = []
                events += [game_event_json(e) for e in evs]
            await self._commit(events)
            if self.game.round.is_over:
                if what in ("round", "all"):  # the new deal ended at once (invalid): store it
                    await self._deal_finished()
                elif self.leader:  # a reset between deals: deal on
                    self._start_timer("next-deal", self.settings.next_deal_seconds, self._next_deal)

        await self.submit(command)
