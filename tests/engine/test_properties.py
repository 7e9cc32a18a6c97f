"""Random legal play over every preset and random house rules: nothing raises and the
invariants of the game hold at every step."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twentynine.engine import (
    Act,
    Action,
    IllegalAction,
    RoundState,
    Rules,
    apply,
    legal_actions,
    start_round,
    to_act,
)
from twentynine.engine.cards import mask_of, mask_points
from twentynine.engine.game import apply as game_apply
from twentynine.engine.game import new_game, next_round
from twentynine.engine.shuffle import next_deck

from .kit import dealers, decks, rules_any

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def all_cards_accounted(state: RoundState) -> None:
    held = [state.seat_cards(s) for s in range(4)]
    played = [c for t in state.tricks for _, c in t.plays] + [c for _, c in state.trick]
    dealt = (
        16 if state.phase.name in ("AUCTION", "TRUMP") or (state.phase.name == "DOUBLING") else 32
    )
    if state.is_over and sum(h.bit_count() for h in held) + len(played) == 16:
        dealt = 16
    cards = [c for h in held for c in range(32) if h >> c & 1] + played
    assert len(cards) == len(set(cards)) == dealt, (state.phase, len(cards), dealt)
    assert set(cards) <= set(state.deck[:dealt])


def points_consistent(state: RoundState) -> None:
    total = sum(t.points for t in state.tricks)
    assert sum(state.points) == total
    assert sum(state.tricks_won) == len(state.tricks)
    if len(state.tricks) == 8:
        # a Single Hand caller's partner keeps their cards out of the play
        unplayed = mask_points(state.hands[(state.caller + 2) % 4]) if state.caller >= 0 else 0
        assert total + unplayed == 28 + state.rules.last_trick_point


def some_illegal_action(state: RoundState, rng: random.Random) -> Action:
    legal = set(legal_actions(state))
    candidates = [
        Action(seat, act, arg)
        for seat in range(4)
        for act, arg in (
            (Act.PLAY, rng.randrange(32)),
            (Act.BID, rng.randrange(10, 30)),
            (Act.PASS, -1),
            (Act.REVEAL, -1),
            (Act.DOUBLE, -1),
            (Act.PAIR, -1),
            (Act.TRUMP_SUIT, rng.randrange(4)),
            (Act.SINGLE_HAND, -1),
        )
    ]
    illegal = [a for a in candidates if a not in legal]
    return illegal[rng.randrange(len(illegal))]


@SETTINGS
@given(rules=rules_any, dealer=dealers, deck=decks, seed=st.integers(0, 2**32))
def test_random_play_keeps_invariants(
    rules: Rules, dealer: int, deck: list[int], seed: int
) -> None:
    rng = random.Random(seed)
    state, _ = start_round(rules, dealer, deck)
    steps = 0
    while not state.is_over:
        all_cards_accounted(state)
        points_consistent(state)
        legal = legal_actions(state)
        assert legal, f"nobody can act in {state.phase!r}"
        assert {a.seat for a in legal} == set(to_act(state))
        bad = some_illegal_action(state, rng)
        before = dict(state.__dict__)
        with pytest.raises(IllegalAction):
            apply(state, bad)
        assert state.__dict__ == before
        state, _ = apply(state, legal[rng.randrange(len(legal))])
        steps += 1
        assert steps < 200
    all_cards_accounted(state)
    points_consistent(state)
    assert state.outcome in ("won", "lost", "invalid")
    assert legal_actions(state) == [] and to_act(state) == ()
    if state.outcome == "invalid":
        assert state.score_delta == (0, 0) and state.reason
    else:
        assert sum(abs(d) for d in state.score_delta) == state.stake
        assert state.stake in (1, 2, 3, 4, 6, 8, 12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_any, seed=st.integers(0, 2**32))
def test_games_keep_scores_in_range(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    game, _ = new_game(rules, rng.randrange(4), next_deck(None, rules.shuffle, rng))
    for _ in range(30):
        while not game.round.is_over:
            legal = legal_actions(game.round)
            game, _ = game_apply(game, legal[rng.randrange(len(legal))])
        if rules.game_end == "sets":
            assert all(-5 <= s <= 5 for s in game.scores)
        if game.over:
            if rules.game_end == "sets":
                assert sum(game.red_sets) + sum(game.black_sets) >= 1
            else:
                assert game.rounds_played == rules.match_rounds
            break
        game, _ = next_round(game, next_deck(game.round, rules.shuffle, rng))
    assert mask_of(game.round.deck) == (1 << 32) - 1
