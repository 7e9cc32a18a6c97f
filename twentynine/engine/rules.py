"""Rule options as data: one frozen, validated value; presets are named instances.

Every rule check in the engine reads one of these options; nothing looks at a preset's name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal, get_args, get_type_hints

from .errors import InvalidRules

Auction = Literal["duel", "open", "first_forced"]
AllPass = Literal["redeal", "dealer_forced_min"]
TrumpIndicator = Literal["outside_card", "hand_card"]
TrumpReveal = Literal["on_request", "forced_on_void", "automatic"]
PairTiming = Literal["on_reveal", "after_trick_won", "none"]
Doubling = Literal["none", "double", "redouble", "setdouble"]
SeventhCardInvalid = Literal["none", "bidder_no_point_trump", "bidder_single_trump"]
GameEnd = Literal["sets", "match_rounds"]
AfterSet = Literal["keep_remainder", "reset_both"]
Direction = Literal["counter_clockwise", "clockwise"]
Shuffle = Literal["realistic", "uniform"]

DOUBLING_LEVELS: dict[str, int] = {"none": 0, "double": 1, "redouble": 2, "setdouble": 3}


@dataclass(frozen=True)
class Rules:
    """Every option of the rule book (RULES.md §9). The defaults are the ``standard`` preset."""

    min_bid: int = 16
    max_bid: int = 28
    last_trick_point: bool = False
    auction: Auction = "duel"
    #: the first hand may not pass in the opening of the auction (the Bhoos competition)
    first_bid_required: bool = False
    #: in the duel, the holder may answer a challenge with more than the challenger bid,
    #: not only match it (bots of the Bhoos competition do, and its referees accept it)
    defender_may_raise: bool = False
    all_pass: AllPass = "redeal"
    first_hand_no_points_redeal: bool = True
    trump_indicator: TrumpIndicator = "outside_card"
    seventh_card: bool = True
    trump_reveal: TrumpReveal = "on_request"
    must_trump_after_reveal: bool = True
    #: the player who asked must beat an opponent's winning trump when they can (Bhoos)
    overtrump_after_reveal: bool = False
    bidder_leads_trump_before_reveal: bool = True
    no_undertrump: bool = False
    pair_timing: PairTiming = "on_reveal"
    doubling: Doubling = "setdouble"
    single_hand: bool = True
    all_tricks_bonus: bool = True
    half_bid_penalty: bool = False
    #: invalid-round rules of RULES.md §8 (rule 1 is ``first_hand_no_points_redeal``)
    invalid_no_points: bool = True
    invalid_team_without_trump: bool = True
    seventh_card_invalid: SeventhCardInvalid = "none"
    invalid_trump_never_shown: bool = True
    invalid_four_jacks: bool = True
    invalid_all_one_suit: bool = False
    early_finish: bool = True
    game_end: GameEnd = "sets"
    after_set: AfterSet = "keep_remainder"
    match_rounds: int = 8
    direction: Direction = "counter_clockwise"
    shuffle: Shuffle = "realistic"

    def __post_init__(self) -> None:
        hints = _hints()
        for f in fields(self):
            _check_type(f.name, getattr(self, f.name), hints[f.name])
        top = 29 if self.last_trick_point else 28
        if not 1 <= self.min_bid <= self.max_bid:
            raise InvalidRules(
                f"min_bid {self.min_bid} must be at least 1 and at most max_bid {self.max_bid}"
            )
        if self.max_bid > top:
            raise InvalidRules(
                f"max_bid {self.max_bid} is more than the {top} points in play"
                + ("" if self.last_trick_point else " (last_trick_point is off)")
            )
        if self.seventh_card_invalid != "none" and not self.seventh_card:
            raise InvalidRules("seventh_card_invalid needs seventh_card on")
        if self.overtrump_after_reveal and not self.must_trump_after_reveal:
            raise InvalidRules("overtrump_after_reveal needs must_trump_after_reveal on")
        if not 1 <= self.match_rounds <= 1000:
            raise InvalidRules(f"match_rounds {self.match_rounds} must be from 1 to 1000")

    @property
    def max_double_level(self) -> int:
        return DOUBLING_LEVELS[self.doubling]

    def with_options(self, **options: Any) -> Rules:
        return from_options(options, base=self)

    def overrides(self, base: Rules | None = None) -> dict[str, Any]:
        """The options that differ from ``base`` (default: the standard preset)."""
        base = base if base is not None else Rules()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
        }

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


_HINTS: dict[str, Any] = {}


def _hints() -> dict[str, Any]:
    if not _HINTS:
        _HINTS.update(get_type_hints(Rules))
    return _HINTS


def option_choices(name: str) -> tuple[Any, ...] | None:
    """The allowed values of a choice option, or None for a number or a yes/no option."""
    hint = _hints()[name]
    args = get_args(hint)
    return tuple(args) if args else None


def _check_type(name: str, value: Any, hint: Any) -> None:
    choices = get_args(hint)
    if choices:
        if value not in choices:
            allowed = ", ".join(str(c) for c in choices)
            raise InvalidRules(f"option {name} cannot be {value!r}; choose one of: {allowed}")
    elif hint is bool:
        if not isinstance(value, bool):
            raise InvalidRules(f"option {name} is yes/no (true or false), not {value!r}")
    elif hint is int and (not isinstance(value, int) or isinstance(value, bool)):
        raise InvalidRules(f"option {name} is a whole number, not {value!r}")


def option_names() -> tuple[str, ...]:
    return tuple(f.name for f in fields(Rules))


def from_options(options: Mapping[str, Any], base: Rules | None = None) -> Rules:
    """``base`` (default standard) with ``options`` overridden; unknown names are an error."""
    base = base if base is not None else Rules()
    known = set(option_names())
    unknown = sorted(set(options) - known)
    if unknown:
        raise InvalidRules(f"unknown rule option(s): {', '.join(unknown)}")
    return dataclasses.replace(base, **dict(options))


@dataclass(frozen=True)
class Preset:
    name: str
    source: str
    description: str
    rules: Rules


PRESETS: dict[str, Preset] = {}


def _preset(name: str, source: str, description: str, **options: Any) -> None:
    PRESETS[name] = Preset(name, source, description, from_options(options))


_preset(
    "standard",
    "seed 000: the TwentyNine web site (FAQ and full rules)",
    "Duel auction 16-28, seventh card, Double/Redouble/SetDouble, Single Hand, "
    "all-tricks bonus, early finish, Red/Black sets.",
)
_preset(
    "classic",
    "seed 001: a networked 29 game",
    "Bids 15-29 with the first hand forced to open, last-trick point, trump must be asked for "
    "when void, royal pair after a trick, a fixed number of rounds.",
    min_bid=15,
    max_bid=29,
    last_trick_point=True,
    auction="first_forced",
    first_hand_no_points_redeal=False,
    seventh_card=False,
    trump_reveal="forced_on_void",
    pair_timing="after_trick_won",
    doubling="none",
    single_hand=False,
    all_tricks_bonus=False,
    invalid_no_points=False,
    invalid_team_without_trump=False,
    invalid_trump_never_shown=False,
    invalid_four_jacks=False,
    early_finish=False,
    game_end="match_rounds",
)
_preset(
    "arkadium",
    "seed 002: Arkadium's Twenty Nine",
    "Open auction 15-28 (dealer forced to 15 when all pass), trump shown automatically on the "
    "first void, seventh card, Double/Redouble, royal pair after a trick, first to +6.",
    min_bid=15,
    last_trick_point=True,
    auction="open",
    all_pass="dealer_forced_min",
    first_hand_no_points_redeal=False,
    trump_reveal="automatic",
    must_trump_after_reveal=False,
    pair_timing="after_trick_won",
    doubling="redouble",
    single_hand=False,
    all_tricks_bonus=False,
    invalid_no_points=False,
    invalid_team_without_trump=False,
    invalid_trump_never_shown=False,
    invalid_four_jacks=False,
    early_finish=False,
    direction="clockwise",
)
_preset(
    "pagat",
    "seed 003: a university tournament's pagat-style rules",
    "Duel auction 16-28, trump marked by a card from the hand, the bidder may not lead "
    "hidden trump, no under-trumping, last-trick point, half-bid penalty, Single Hand.",
    last_trick_point=True,
    trump_indicator="hand_card",
    bidder_leads_trump_before_reveal=False,
    no_undertrump=True,
    pair_timing="after_trick_won",
    doubling="redouble",
    all_tricks_bonus=False,
    half_bid_penalty=True,
    invalid_team_without_trump=False,
    invalid_trump_never_shown=False,
    invalid_all_one_suit=True,
    early_finish=False,
)
_preset(
    "denexa",
    "seed 004: a card maker's 29 rules",
    "Open auction 15-28 (dealer forced to 15 when all pass), trump shown automatically on the "
    "first void, royal pair after a trick, no doubling, first to +6.",
    min_bid=15,
    auction="open",
    all_pass="dealer_forced_min",
    first_hand_no_points_redeal=False,
    seventh_card=False,
    trump_reveal="automatic",
    must_trump_after_reveal=False,
    pair_timing="after_trick_won",
    doubling="none",
    single_hand=False,
    all_tricks_bonus=False,
    invalid_no_points=False,
    invalid_team_without_trump=False,
    invalid_trump_never_shown=False,
    invalid_four_jacks=False,
    early_finish=False,
    direction="clockwise",
)
_preset(
    "bhoos",
    "the Bhoos Smart Bots 2023 competition (BHOOS-PROTOCOL.md)",
    "Duel auction 16-28 where the first hand must bid (and the holder may answer a challenge "
    "higher than it), trump named in hand and shown on "
    "request, whoever asks must trump and beat an opponent's trump, no pair, no doubling, "
    "a deal without trump shown is void, one deal is one game.",
    first_bid_required=True,
    defender_may_raise=True,
    first_hand_no_points_redeal=False,
    seventh_card=False,
    overtrump_after_reveal=True,
    pair_timing="none",
    doubling="none",
    single_hand=False,
    all_tricks_bonus=False,
    invalid_no_points=False,
    invalid_team_without_trump=False,
    invalid_four_jacks=False,
    early_finish=False,
    game_end="match_rounds",
    match_rounds=1,
)

STANDARD = PRESETS["standard"].rules


def preset(name: str) -> Rules:
    try:
        return PRESETS[name].rules
    except KeyError:
        raise InvalidRules(
            f"unknown preset {name!r}; choose one of: {', '.join(PRESETS)}"
        ) from None


def house_rules(preset_name: str = "standard", options: Mapping[str, Any] | None = None) -> Rules:
    """A preset with house-rule overrides."""
    return from_options(options or {}, base=preset(preset_name))
