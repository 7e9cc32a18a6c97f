"""The deal so far, told again: the events of the deal in play, for a client that comes (back)
to the table with an empty log (a reload, a second tab). Every event is public by construction
(see ``engine.events``), so everyone may have them all."""

from __future__ import annotations

from typing import Any

from ...engine import event_json
from ...engine.actions import action_from_json
from ...engine.game import GameState
from ...engine.records import DealRecord, RulesSpec, replay_deal


def deal_events(
    spec: RulesSpec, game: GameState | None, actions: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The events of the deal in play from its deal on, as the engine's replay of its record
    reports them (the stored actions are the record's; nothing else is kept per deal)."""
    if game is None:
        return []
    rnd = game.round
    record = DealRecord(spec, rnd.dealer, rnd.deck, tuple(action_from_json(a) for a in actions))
    return [event_json(e) for e in replay_deal(record).events]
