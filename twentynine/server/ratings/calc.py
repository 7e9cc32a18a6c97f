"""The rating arithmetic, all of it openskill's: the Weng-Lin Plackett-Luce model rates a game
of two teams of two. What is ours is only which result each player is rated with:

- those who stayed to the end (or to the moment the game stopped counting) get the game's
  result: the team ahead won, level teams drew;
- a player who left, or whose seat a bot kept to the end, lost: their rating is the model's
  answer for their team losing, from the same ratings before the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

from ...engine.game import GameState

MODEL = PlackettLuce()
#: games a rating stays provisional
PROVISIONAL_GAMES = 10
#: the figure people see: 1000 + 40 (mu - 3 sigma), openskill's ordinal scaled; a new
#: player (mu 25, sigma 25/3) shows 1000, and it only rises as sigma shrinks
SCALE = 40.0
BASE = 1000.0


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def rating(self) -> float:
        return display(self.mu, self.sigma)


NEW = Skill(MODEL.mu, MODEL.sigma)


def display(mu: float, sigma: float) -> float:
    """The conservative rating people see (openskill's ordinal, scaled)."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal(alpha=SCALE, target=BASE)


def ranks(winner: int | None) -> list[float]:
    """openskill's ranks of team 0 (seats 0 and 2) and team 1 (seats 1 and 3): lower wins."""
    if winner is None:
        return [1, 1]
    return [1, 2] if winner == 0 else [2, 1]


def rate(
    before: Mapping[int, Skill], winner: int | None, losers: frozenset[int] = frozenset()
) -> dict[int, Skill]:
    """New skills of the four seats (``before`` by seat 0-3) after a game that ``winner``
    (a team, or None for a draw) won; the seats in ``losers`` lost it whatever the result."""
    teams = [
        [MODEL.rating(mu=before[s].mu, sigma=before[s].sigma) for s in (t, t + 2)] for t in (0, 1)
    ]

    def outcome(win: int | None) -> dict[int, Skill]:
        new = MODEL.rate([list(team) for team in teams], ranks=ranks(win))
        return {t + 2 * i: Skill(r.mu, r.sigma) for t in (0, 1) for i, r in enumerate(new[t])}

    after = outcome(winner)
    for seat in losers:
        after[seat] = outcome(1 - (seat & 1))[seat]
    return after


def result_of(seat: int, winner: int | None, losers: frozenset[int]) -> str:
    if seat in losers:
        return "loss"
    if winner is None:
        return "draw"
    return "win" if winner == seat & 1 else "loss"


def standing(game: GameState) -> int | None:
    """The team ahead if the game ended now (None when level): its result when it is over;
    else, in a game of sets, more sets won, then the higher score; in a game of a fixed
    number of rounds, more rounds won."""
    if game.over:
        return game.winner
    a: tuple[int, ...]
    b: tuple[int, ...]
    if game.rules.game_end == "match_rounds":
        a, b = (game.rounds_won[0],), (game.rounds_won[1],)
    else:
        sets = [game.red_sets[t] + game.black_sets[1 - t] for t in (0, 1)]
        a, b = (sets[0], game.scores[0]), (sets[1], game.scores[1])
    return 0 if a > b else 1 if b > a else None
