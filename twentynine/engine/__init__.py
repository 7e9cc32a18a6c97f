"""The pure rules engine of Twenty-Nine: no I/O, imports nothing else of the project."""

from .actions import Act, Action, action_from_json, action_json, action_text, parse_action
from .cards import Card, card_code, parse_card, parse_suit
from .errors import EngineError, IllegalAction, InvalidRules, NotationError
from .events import Event, event_json
from .round import apply, explain, is_legal, legal_actions, start_round, to_act
from .rules import PRESETS, STANDARD, Rules, from_options, house_rules, preset
from .state import Phase, RoundState, Trick, TrumpMode

__all__ = [
    "PRESETS",
    "STANDARD",
    "Act",
    "Action",
    "Card",
    "EngineError",
    "Event",
    "IllegalAction",
    "InvalidRules",
    "NotationError",
    "Phase",
    "RoundState",
    "Rules",
    "Trick",
    "TrumpMode",
    "action_from_json",
    "action_json",
    "action_text",
    "apply",
    "card_code",
    "event_json",
    "explain",
    "from_options",
    "house_rules",
    "is_legal",
    "legal_actions",
    "parse_action",
    "parse_card",
    "parse_suit",
    "preset",
    "start_round",
    "to_act",
]
