"""The game around the rounds: dealer rotation, redeals, scores netted per team, Red and Black
sets, a fixed number of rounds, and the host's resets (RULES.md §7, §11)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .cards import Card
from .errors import IllegalAction
from .events import Event
from .round import apply as apply_round
from .round import start_round
from .rules import Rules
from .state import RoundState

SET_SCORE = 6


@dataclass(frozen=True)
class GameState:
    rules: Rules
    round: RoundState
    dealer: int  # the current round's dealer
    scores: tuple[int, int] = (0, 0)
    red_sets: tuple[int, int] = (0, 0)  # sets won by each team
    black_sets: tuple[int, int] = (0, 0)  # sets lost by each team
    deals: int = 1  # deals dealt, invalid ones included
    rounds_played: int = 0  # rounds scored (not invalid)
    rounds_won: tuple[int, int] = (0, 0)
    over: bool = False  # the game has a result (the table may still play on)
    winner: int | None = None  # winning team, None while undecided or for a draw
    scored: bool = False  # the current round's result has been added to the scores

    @property
    def round_over(self) -> bool:
        return self.round.is_over

    @property
    def next_dealer(self) -> int:
        """Same dealer after an invalid round, else the next seat."""
        if self.round.outcome == "invalid":
            return self.dealer
        return (self.dealer + 1) & 3


@dataclass(frozen=True)
class ScoreChanged:
    scores: tuple[int, int]
    red_sets: tuple[int, int]
    black_sets: tuple[int, int]


@dataclass(frozen=True)
class GameOver:
    winner: int | None  # team, or None for a draw


GameEvent = Event | ScoreChanged | GameOver


def new_game(
    rules: Rules, dealer: int, deck: Sequence[Card], scores: tuple[int, int] = (0, 0)
) -> tuple[GameState, list[GameEvent]]:
    rnd, ev = start_round(rules, dealer, deck)
    game = GameState(rules=rules, round=rnd, dealer=dealer, scores=scores)
    out: list[GameEvent] = list(ev)
    return _score_if_over(game, out), out


def apply(game: GameState, action: Action) -> tuple[GameState, list[GameEvent]]:
    rnd, ev = apply_round(game.round, action)
    out: list[GameEvent] = list(ev)
    return _score_if_over(dataclasses.replace(game, round=rnd), out), out


def next_round(
    game: GameState, deck: Sequence[Card], dealer: int | None = None
) -> tuple[GameState, list[GameEvent]]:
    """Deal the next round: same dealer after an invalid one, else the next seat, unless
    ``dealer`` is given (duplicate matches deal each deck from a fixed seat)."""
    if not game.round.is_over:
        raise IllegalAction("round_in_progress", "the current round is not over yet")
    if dealer is None:
        dealer = game.next_dealer
    rnd, ev = start_round(game.rules, dealer, deck)
    out: list[GameEvent] = list(ev)
    nxt = dataclasses.replace(game, round=rnd, dealer=dealer, deals=game.deals + 1, scored=False)
    return _score_if_over(nxt, out), out


def reset_scores(game: GameState) -> GameState:
    """Score reset: both scores to 0 (sets and the game's result are cleared too)."""
    return dataclasses.replace(
        game,
        scores=(0, 0),
        red_sets=(0, 0),
        black_sets=(0, 0),
        rounds_played=0,
        rounds_won=(0, 0),
        over=False,
        winner=None,
    )


def restart_round(game: GameState, deck: Sequence[Card]) -> tuple[GameState, list[GameEvent]]:
    """Round reset: the current round starts again from the deal with the same dealer. A
    round that already ended keeps its score; one in progress is dropped unscored."""
    rnd, ev = start_round(game.rules, game.dealer, deck)
    out: list[GameEvent] = list(ev)
    return _score_if_over(dataclasses.replace(game, round=rnd, scored=False), out), out


def _score_if_over(game: GameState, ev: list[GameEvent]) -> GameState:
    rnd = game.round
    if not rnd.is_over or game.scored:
        return game
    if rnd.outcome == "invalid":
        return dataclasses.replace(game, scored=True)
    rules = game.rules
    scores = [game.scores[0] + rnd.score_delta[0], game.scores[1] + rnd.score_delta[1]]
    red, black = list(game.red_sets), list(game.black_sets)
    over, winner = game.over, game.winner
    newly_over = False
    if rules.game_end == "sets":
        gained = False
        for team in (0, 1):
            if scores[team] >= SET_SCORE:
                red[team] += scores[team] // SET_SCORE
                scores[team] %= SET_SCORE
                gained = True
                if not over:
                    over, winner, newly_over = True, team, True
            elif scores[team] <= -SET_SCORE:
                black[team] += -scores[team] // SET_SCORE
                scores[team] = -(-scores[team] % SET_SCORE)
                gained = True
                if not over:
                    over, winner, newly_over = True, 1 - team, True
        if gained and rules.after_set == "reset_both":
            scores = [0, 0]
    team = rnd.bidder & 1 if rnd.caller < 0 else rnd.caller & 1
    round_winner = team if rnd.outcome == "won" else 1 - team
    won = list(game.rounds_won)
    won[round_winner] += 1
    played = game.rounds_played + 1
    if rules.game_end == "match_rounds" and played == rules.match_rounds and not over:
        over, newly_over = True, True
        winner = 0 if won[0] > won[1] else 1 if won[1] > won[0] else None
    new = dataclasses.replace(
        game,
        scores=(scores[0], scores[1]),
        red_sets=(red[0], red[1]),
        black_sets=(black[0], black[1]),
        rounds_played=played,
        rounds_won=(won[0], won[1]),
        over=over,
        winner=winner,
        scored=True,
    )
    ev.append(ScoreChanged(new.scores, new.red_sets, new.black_sets))
    if newly_over:
        ev.append(GameOver(winner))
    return new


def totals_json(game: GameState) -> dict[str, Any]:
    """The game's running totals (everything but the round in play) as plain data."""
    return {
        "scores": list(game.scores),
        "red_sets": list(game.red_sets),
        "black_sets": list(game.black_sets),
        "deals": game.deals,
        "rounds_played": game.rounds_played,
        "rounds_won": list(game.rounds_won),
        "over": game.over,
        "winner": game.winner,
    }


def resume(
    rules: Rules,
    dealer: int,
    deck: Sequence[Card],
    actions: Sequence[Action],
    totals: Mapping[str, Any] | None = None,
) -> GameState:
    """The game after ``actions`` of the deal (``dealer``, ``deck``), the deal having started
    with ``totals`` (from ``totals_json``); for restoring a stored table. Raises
    ``IllegalAction`` if an action is not legal."""
    rnd, _ = start_round(rules, dealer, deck)
    game = GameState(rules=rules, round=rnd, dealer=dealer)
    if totals:

        def pair(key: str) -> tuple[int, int]:
            a, b = totals[key]
            return (int(a), int(b))

        winner = totals.get("winner")
        game = dataclasses.replace(
            game,
            scores=pair("scores"),
            red_sets=pair("red_sets"),
            black_sets=pair("black_sets"),
            deals=int(totals["deals"]),
            rounds_played=int(totals["rounds_played"]),
            rounds_won=pair("rounds_won"),
            over=bool(totals["over"]),
            winner=int(winner) if winner is not None else None,
        )
    game = _score_if_over(game, [])
    for action in actions:
        game, _ = apply(game, action)
    return game
