"""The game around the rounds: dealer rotation, redeals, netted scores, Red/Black sets with
after_set, match_rounds, resets, and restoring a stored game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from twentynine.engine import Action, IllegalAction, Rules, legal_actions, preset
from twentynine.engine.game import (
    GameOver,
    GameState,
    ScoreChanged,
    apply,
    new_game,
    next_round,
    reset_scores,
    restart_round,
    resume,
    totals_json,
)
from twentynine.engine.shuffle import uniform_deck
from twentynine.engine.state import partner
from twentynine.engine.views import view

STANDARD = preset("standard")
#: random players win few contracts; without doubling or Single Hand the deals are easier to find
PLAIN = STANDARD.with_options(doubling="none", single_hand=False)


def find_deal(rules: Rules, want: Any, seed: int = 0) -> tuple[int, list[int], list[Action]]:
    """A (dealer, deck, actions) from seeded random play whose finished round meets ``want``."""
    rng = random.Random(seed)
    for _ in range(5000):
        dealer, deck = rng.randrange(4), uniform_deck(rng)
        game, _ = new_game(rules, dealer, deck)
        actions = []
        while not game.round.is_over:
            action = rng.choice(legal_actions(game.round))
            game, _ = apply(game, action)
            actions.append(action)
        if want(game.round):
            return dealer, deck, actions
    raise AssertionError("no such deal found")


def won_by(team: int, stake: int | None = None) -> Any:
    def test(rnd: Any) -> bool:
        if rnd.outcome != "won":
            return False
        bidders = (rnd.caller if rnd.caller >= 0 else rnd.bidder) & 1
        return bidders == team and (stake is None or rnd.stake == stake)

    return test


def lost_by(team: int) -> Any:
    def test(rnd: Any) -> bool:
        bidders = (rnd.caller if rnd.caller >= 0 else rnd.bidder) & 1
        return rnd.outcome == "lost" and bidders == team

    return test


def totals(**changes: Any) -> dict[str, Any]:
    base = totals_json(new_game(STANDARD, 0, list(range(32)))[0])
    base.update(changes)
    return base


def test_dealer_rotates_after_a_round_and_stays_after_an_invalid_one() -> None:
    dealer, deck, actions = find_deal(STANDARD, lambda r: r.outcome in ("won", "lost"))
    with pytest.raises(IllegalAction):  # not before the round is over
        next_round(resume(STANDARD, dealer, deck, []), deck)
    game = resume(STANDARD, dealer, deck, actions)
    assert game.next_dealer == (dealer + 1) % 4
    nxt, _ = next_round(game, uniform_deck(random.Random(1)))
    assert nxt.dealer == (dealer + 1) % 4 and nxt.deals == 2
    dealer, deck, actions = find_deal(STANDARD, lambda r: r.outcome == "invalid")
    game = resume(STANDARD, dealer, deck, actions)
    assert game.next_dealer == dealer and game.scores == (0, 0) and game.rounds_played == 0


def test_only_the_bidders_score_moves_and_is_netted() -> None:
    dealer, deck, actions = find_deal(PLAIN, won_by(1, stake=1))
    game = resume(PLAIN, dealer, deck, actions, totals(scores=[3, -2]))
    assert game.scores == (3, -1)
    dealer, deck, actions = find_deal(STANDARD, lost_by(0))
    game = resume(STANDARD, dealer, deck, actions, totals(scores=[2, 0]))
    assert game.scores[1] == 0 and game.scores[0] == 2 - game.round.stake


@pytest.mark.parametrize("after_set", ["keep_remainder", "reset_both"])
def test_red_set_at_six(after_set: str) -> None:
    rules = PLAIN.with_options(after_set=after_set)
    dealer, deck, actions = find_deal(rules, won_by(0))
    stake = resume(rules, dealer, deck, actions).round.stake
    game = resume(rules, dealer, deck, actions, totals(scores=[5, -3]))
    # 5 + stake >= 6: one Red set, the rest left over (or both reset)
    assert game.red_sets == (1, 0)
    left = (5 + stake) % 6
    assert game.scores == ((left, -3) if after_set == "keep_remainder" else (0, 0))
    assert game.over and game.winner == 0


def test_black_set_and_first_set_ends_the_game() -> None:
    dealer, deck, actions = find_deal(STANDARD, lost_by(1))
    stake = resume(STANDARD, dealer, deck, actions).round.stake
    game = resume(STANDARD, dealer, deck, actions, totals(scores=[0, -5]))
    assert game.black_sets == (0, 1) and game.winner == 0 and game.over
    assert game.scores[1] == -((5 + stake) % 6)
    # the table may play on: the first result stands
    later = resume(STANDARD, dealer, deck, actions, {**totals_json(game), "scores": [-5, 0]})
    assert later.winner == 0


def test_match_rounds_counts_rounds_won() -> None:
    rules = preset("classic").with_options(match_rounds=2)
    dealer, deck, actions = find_deal(rules, won_by(0))
    game = resume(rules, dealer, deck, actions, totals(rounds_played=1, rounds_won=[0, 1]))
    assert game.over and game.winner is None  # 1-1: a draw
    game = resume(rules, dealer, deck, actions, totals(rounds_played=1, rounds_won=[1, 0]))
    assert game.over and game.winner == 0 and game.rounds_won == (2, 0)
    dealer, deck, actions = find_deal(rules, lost_by(0))
    game = resume(rules, dealer, deck, actions, totals(rounds_played=0, rounds_won=[0, 0]))
    assert not game.over and game.rounds_won == (0, 1)


def test_game_events_report_scores_and_the_end() -> None:
    dealer, deck, actions = find_deal(PLAIN, won_by(0, stake=1))
    game = resume(PLAIN, dealer, deck, actions[:-1], totals(scores=[5, 0]))
    game, events = apply(game, actions[-1])
    assert ScoreChanged((0, 0), (1, 0), (0, 0)) in events
    assert GameOver(0) in events


def test_resets() -> None:
    dealer, deck, actions = find_deal(PLAIN, won_by(0))
    game = resume(PLAIN, dealer, deck, actions, totals(scores=[2, 3]))
    cleared = reset_scores(game)
    assert cleared.scores == (0, 0) and cleared.red_sets == (0, 0) and not cleared.over
    mid = resume(PLAIN, dealer, deck, actions[:3], totals(scores=[2, 3]))
    again, _ = restart_round(mid, uniform_deck(random.Random(2)))
    assert again.dealer == dealer and again.scores == (2, 3) and again.round.calls == ()


def test_resume_matches_playing_through() -> None:
    rng = random.Random(9)
    game, _ = new_game(STANDARD, 2, uniform_deck(rng))
    start_totals = totals_json(game)
    actions = []
    for _ in range(15):
        if game.round.is_over:
            break
        action = rng.choice(legal_actions(game.round))
        game, _ = apply(game, action)
        actions.append(action)
    again = resume(STANDARD, 2, game.round.deck, actions, start_totals)
    assert again.round.__dict__.keys() == game.round.__dict__.keys()
    assert again.round.summary() == game.round.summary()
    assert isinstance(again, GameState) and totals_json(again) == totals_json(game)


def test_single_hand_caller_sees_partner_after_first_card() -> None:
    rules = STANDARD
    dealer, deck, actions = find_deal(rules, lambda r: r.caller >= 0 and len(r.tricks) >= 1)
    game = resume(rules, dealer, deck, [])
    for action in actions:
        rnd = game.round
        if rnd.caller >= 0 and rnd.phase.name == "PLAY":
            caller = rnd.caller
            played = bool(rnd.tricks) or any(s == caller for s, _ in rnd.trick)
            mate = view(rnd, caller).hands[partner(caller)]
            assert (mate is not None) == played
            assert view(rnd, partner(caller)).hands[caller] is None
        game, _ = apply(game, action)
