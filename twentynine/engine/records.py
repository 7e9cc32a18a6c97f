"""Deal records (``twentynine-deal/1``) and game records (``twentynine-game/1``): the portable,
exact account of a deal or a game, and their replay.

A deal record holds the rules (a preset and its overrides), the dealer, the deck in the order the
cards leave the pack, and every action with its seat. Replaying it gives the same result."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, action_from_json, action_text
from .cards import Card, card_code, parse_card
from .errors import EngineError, IllegalAction, InvalidRules, NotationError
from .events import Event
from .game import GameState, new_game, next_round
from .game import apply as apply_game
from .round import apply, legal_actions, start_round, to_act
from .rules import Rules, house_rules, preset
from .state import RoundState

DEAL_FORMAT = "twentynine-deal/1"
GAME_FORMAT = "twentynine-game/1"


@dataclass(frozen=True)
class RulesSpec:
    """A preset and the house-rule overrides on it."""

    preset: str = "standard"
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        return house_rules(self.preset, self.options)

    @classmethod
    def of(cls, rules: Rules, preset_name: str = "standard") -> RulesSpec:
        return cls(preset_name, rules.overrides(preset(preset_name)))

    def to_json(self) -> dict[str, Any]:
        return {"preset": self.preset, "options": dict(self.options)}

    @classmethod
    def from_json(cls, obj: Any) -> RulesSpec:
        if obj is None:
            return cls()
        if not isinstance(obj, dict):
            raise NotationError("'rules' must be an object {preset, options}")
        name = obj.get("preset", "standard")
        options = obj.get("options", {})
        if not isinstance(name, str) or not isinstance(options, dict):
            raise NotationError("'rules' needs a preset name and an options object")
        spec = cls(name, options)
        spec.rules  # noqa: B018 - validates the preset and every option now
        return spec


@dataclass(frozen=True)
class DealRecord:
    rules: RulesSpec
    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[Action, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "format": DEAL_FORMAT,
            "rules": self.rules.to_json(),
            "dealer": self.dealer,
            "deck": [card_code(c) for c in self.deck],
            "actions": [a.to_json() for a in self.actions],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, obj: Any, rules: RulesSpec | None = None) -> DealRecord:
        if not isinstance(obj, dict):
            raise NotationError("a deal record is a JSON object")
        fmt = obj.get("format", DEAL_FORMAT)
        if fmt != DEAL_FORMAT:
            raise NotationError(f"not a deal record: format {fmt!r} (expected {DEAL_FORMAT})")
        spec = RulesSpec.from_json(obj["rules"]) if "rules" in obj else rules or RulesSpec()
        dealer = obj.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
            raise NotationError(f"'dealer' must be a seat 0-3, not {dealer!r}")
        deck_codes = obj.get("deck")
        if not isinstance(deck_codes, list) or not all(isinstance(c, str) for c in deck_codes):
            raise NotationError("'deck' must be a list of 32 card codes")
        deck = tuple(parse_card(c) for c in deck_codes)
        if sorted(deck) != list(range(32)):
            raise NotationError("'deck' must hold each of the 32 cards exactly once")
        raw = obj.get("actions", [])
        if not isinstance(raw, list):
            raise NotationError("'actions' must be a list")
        actions = []
        for i, a in enumerate(raw):
            try:
                actions.append(action_from_json(a))
            except NotationError as e:
                raise NotationError(f"action {i}: {e}") from None
        return cls(spec, dealer, deck, tuple(actions))

    @classmethod
    def loads(cls, text: str) -> DealRecord:
        return cls.from_json(_load(text))


@dataclass(frozen=True)
class GameRecord:
    rules: RulesSpec
    scores: tuple[int, int]
    deals: tuple[DealRecord, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": GAME_FORMAT,
            "rules": self.rules.to_json(),
            "scores": list(self.scores),
            "deals": [d.to_json() for d in self.deals],
        }

    @classmethod
    def from_json(cls, obj: Any) -> GameRecord:
        if not isinstance(obj, dict) or obj.get("format") != GAME_FORMAT:
            raise NotationError(f"not a game record (expected format {GAME_FORMAT})")
        spec = RulesSpec.from_json(obj.get("rules"))
        scores = obj.get("scores", [0, 0])
        if (
            not isinstance(scores, list)
            or len(scores) != 2
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)
        ):
            raise NotationError("'scores' must be two whole numbers")
        deals = obj.get("deals")
        if not isinstance(deals, list):
            raise NotationError("'deals' must be a list of deal records")
        out = []
        for i, d in enumerate(deals):
            try:
                out.append(DealRecord.from_json(d, spec))
            except (NotationError, InvalidRules) as e:
                raise NotationError(f"deal {i}: {e}") from None
        return cls(spec, (scores[0], scores[1]), tuple(out))


def _load(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise NotationError(f"not JSON: {e}") from None


def load_record(text: str) -> DealRecord | GameRecord:
    obj = _load(text)
    if isinstance(obj, dict) and obj.get("format") == GAME_FORMAT:
        return GameRecord.from_json(obj)
    return DealRecord.from_json(obj)


# -- replay ----------------------------------------------------------------------------------
@dataclass
class DealReplay:
    state: RoundState
    applied: int  # actions applied
    error_index: int | None = None
    error: EngineError | None = None
    events: list[Event] = field(default_factory=list)


def replay_deal(record: DealRecord) -> DealReplay:
    """Replay a deal record; stops at the first illegal action and says which."""
    st, events = start_round(record.rules.rules, record.dealer, record.deck)
    for i, action in enumerate(record.actions):
        try:
            st, ev = apply(st, action)
        except IllegalAction as e:
            return DealReplay(st, i, i, e, events)
        events.extend(ev)
    return DealReplay(st, len(record.actions), None, None, events)


def deal_summary(result: DealReplay) -> dict[str, Any]:
    """The replay's result as plain JSON data."""
    st = result.state
    out = st.summary()
    if not st.is_over:
        out["to_act"] = list(to_act(st))
        legal: dict[str, list[str]] = {}
        for a in legal_actions(st):
            legal.setdefault(str(a.seat), []).append(action_text(a))
        out["legal"] = legal
    if result.error is not None:
        out["error"] = {
            "index": result.error_index,
            "reason": getattr(result.error, "reason", "illegal"),
            "message": str(result.error),
        }
    return out


@dataclass
class GameReplay:
    game: GameState | None
    deals: list[dict[str, Any]]
    error: str | None = None


def replay_game(record: GameRecord) -> GameReplay:
    """Replay every deal of a game, checking the dealer order, with scores after each."""
    game: GameState | None = None
    rows: list[dict[str, Any]] = []
    for i, deal in enumerate(record.deals):
        j = 0
        try:
            if game is None:
                game, _ = new_game(deal.rules.rules, deal.dealer, deal.deck, record.scores)
            else:
                if not game.round_over:
                    return GameReplay(game, rows, f"deal {i - 1} did not finish")
                if deal.dealer != game.next_dealer:
                    return GameReplay(
                        game, rows, f"deal {i}: dealer {deal.dealer}, expected {game.next_dealer}"
                    )
                game, _ = next_round(game, deal.deck)
            for action in deal.actions:
                game, _ = apply_game(game, action)
                j += 1
        except IllegalAction as e:
            rows.append(deal_summary(DealReplay(game.round, j, j, e)) if game else {})
            return GameReplay(game, rows, f"deal {i}, action {j}: {e}")
        row = deal_summary(DealReplay(game.round, len(deal.actions)))
        row.update(
            scores=list(game.scores),
            red_sets=list(game.red_sets),
            black_sets=list(game.black_sets),
            game_over=game.over,
            winner=game.winner,
        )
        rows.append(row)
    return GameReplay(game, rows)


def record_from_actions(
    rules: Rules,
    dealer: int,
    deck: Sequence[Card],
    actions: Sequence[Action],
    preset_name: str = "standard",
) -> DealRecord:
    return DealRecord(RulesSpec.of(rules, preset_name), dealer, tuple(deck), tuple(actions))
