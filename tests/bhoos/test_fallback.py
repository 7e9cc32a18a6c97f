"""Answers from the request alone (``bhoos/fallback.py``) are legal: over whole random deals of
the bhoos preset, every request our client would send gets a fallback answer that the engine
accepts for that seat."""

from __future__ import annotations

import random

import pytest

from twentynine.bhoos.convert import answer_json, parse_answer, view_request
from twentynine.bhoos.fallback import fallback_action
from twentynine.bhoos.payload import parse_request
from twentynine.engine import apply, legal_actions, preset, start_round, to_act
from twentynine.engine.views import view


@pytest.mark.parametrize("seed", range(6))
def test_fallback_answers_are_legal_over_whole_deals(seed: int) -> None:
    rules = preset("bhoos")
    rng = random.Random(seed)
    answered = 0
    for deal in range(25):
        deck = list(range(32))
        rng.shuffle(deck)
        st, _ = start_round(rules, deal % 4, deck)
        while not st.is_over:
            seat = to_act(st)[0]
            v = view(st, seat)
            endpoint, body = view_request(v, 1500)
            req = parse_request(endpoint, body)
            action, _ = parse_answer(endpoint, answer_json(fallback_action(req, rules)), v)
            assert action in v.legal
            answered += 1
            # the deal goes on by random legal play, so every kind of position comes up
            legal = legal_actions(st, seat)
            st, _ = apply(st, legal[rng.randrange(len(legal))])
    assert answered > 25 * 9
