"""Reusable hypothesis strategies and play helpers for engine tests (a small test kit)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from twentynine.engine import (
    PRESETS,
    Action,
    InvalidRules,
    RoundState,
    Rules,
    apply,
    legal_actions,
    start_round,
)
from twentynine.engine.rules import option_choices, option_names

PRESET_NAMES = tuple(PRESETS)

decks = st.permutations(list(range(32)))
dealers = st.integers(min_value=0, max_value=3)


def _option_values(name: str, current: Any) -> st.SearchStrategy[Any]:
    choices = option_choices(name)
    if choices:
        return st.sampled_from(choices)
    if isinstance(current, bool):
        return st.booleans()
    if name == "min_bid":
        return st.integers(min_value=10, max_value=20)
    if name == "max_bid":
        return st.integers(min_value=20, max_value=29)
    if name == "match_rounds":
        return st.integers(min_value=1, max_value=12)
    raise AssertionError(f"no strategy for option {name}")


@st.composite
def house_rules(draw: st.DrawFn) -> Rules:
    """A preset with any number of random, valid overrides."""
    base = PRESETS[draw(st.sampled_from(PRESET_NAMES))].rules
    names = draw(st.lists(st.sampled_from(option_names()), unique=True, max_size=10))
    options = {n: draw(_option_values(n, getattr(base, n))) for n in names}
    try:
        return base.with_options(**options)
    except InvalidRules:
        return base


rules_any = st.one_of(st.sampled_from([p.rules for p in PRESETS.values()]), house_rules())


def play_out(
    rules: Rules, dealer: int, deck: list[int], rng: random.Random
) -> tuple[RoundState, list[Action]]:
    """Random legal play of one deal to its end."""
    state, _ = start_round(rules, dealer, deck)
    actions: list[Action] = []
    while not state.is_over:
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        state, _ = apply(state, action)
        actions.append(action)
    return state, actions
