"""Duplicate matches between two players (bot levels or Bhoos-protocol URLs).

Every deal is played twice from the same deck and dealer: once with side A in seats 0 and 2,
once with the sides swapped. Luck of the cards cancels out; what remains is play. Each of the two
tables keeps its own running game (scores, Red/Black sets), so games are counted too.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .bots import Bot, make_bot
from .engine.actions import Action
from .engine.cards import card_list, codes
from .engine.game import GameState, apply, new_game, next_round
from .engine.rules import Rules
from .engine.shuffle import uniform_deck
from .engine.views import view

PlayerFactory = Callable[[int], Bot]


def player_factory(spec: str) -> PlayerFactory:
    """A level name (``expert``) or the URL of a Bhoos-protocol bot (``http://…``)."""
    if spec.startswith(("http://", "https://")):
        from .bhoos.client import BhoosBot

        return lambda _seed: BhoosBot(spec)
    make_bot(spec, 0)  # fail early on an unknown level
    return lambda seed: make_bot(spec, seed)


@dataclass
class SideStats:
    name: str
    deals_won: int = 0
    games_won: int = 0
    points: int = 0  # card points taken, summed over deals played
    contracts: int = 0
    contracts_made: int = 0
    score: int = 0  # net score change over all deals
    times: list[float] = field(default_factory=list)  # decision times, seconds
    #: the CPU time of each decision (this process's thread): what the wall clock shows less
    #: what other work on a shared machine took from it
    cpu_times: list[float] = field(default_factory=list)

    def to_json(self, deals: int) -> dict[str, Any]:
        t = sorted(self.times)
        c = sorted(self.cpu_times)
        return {
            "name": self.name,
            "deals_won": self.deals_won,
            "games_won": self.games_won,
            "points_per_deal": round(self.points / max(deals, 1), 3),
            "contracts": self.contracts,
            "contracts_made": self.contracts_made,
            "net_score": self.score,
            "decisions": len(t),
            "decision_ms_p50": round(quantile(t, 0.5) * 1000, 3),
            "decision_ms_p95": round(quantile(t, 0.95) * 1000, 3),
            "decision_ms_max": round((t[-1] if t else 0.0) * 1000, 3),
            "decision_cpu_ms_p50": round(quantile(c, 0.5) * 1000, 3),
            "decision_cpu_ms_p95": round(quantile(c, 0.95) * 1000, 3),
        }


def quantile(sorted_values: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0..1) of an ascending list; 0.0 for an empty one."""
    if not sorted_values:
        return 0.0
    i = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[i]


def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% confidence interval of a win rate (Wilson score interval)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class ArenaResult:
    rules_name: str
    deals: int
    seed: int
    a: SideStats
    b: SideStats
    invalid_deals: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        played = 2 * self.deals
        games = self.a.games_won + self.b.games_won
        decided = self.a.deals_won + self.b.deals_won
        lo, hi = wilson_interval(self.a.games_won, games)
        dlo, dhi = wilson_interval(self.a.deals_won, decided)
        return {
            "preset": self.rules_name,
            "duplicate_deals": self.deals,
            "deals_played": played,
            "seed": self.seed,
            "invalid_deals": self.invalid_deals,
            "a": self.a.to_json(played // 2),
            "b": self.b.to_json(played // 2),
            "games_decided": games,
            "a_game_win_rate": round(self.a.games_won / games, 4) if games else None,
            "a_game_win_rate_ci95": [round(lo, 4), round(hi, 4)],
            "deals_decided": decided,
            "a_deal_win_rate": round(self.a.deals_won / decided, 4) if decided else None,
            "a_deal_win_rate_ci95": [round(dlo, 4), round(dhi, 4)],
            "seconds": round(self.seconds, 1),
        }


class Table:
    """One of the two duplicate tables: four players and a running game."""

    def __init__(self, rules: Rules, players: list[Bot], sides: tuple[SideStats, SideStats]):
        self.rules = rules
        self.players = players
        self.sides = sides  # sides[team]
        self.game: GameState | None = None
        #: every action of the round last played, in order (for ``deal_record``)
        self.round_actions: list[Action] = []

    def play(self, deck: list[int], dealer: int) -> GameState:
        if self.game is None or self.game.over:
            self.game, _ = new_game(self.rules, dealer, deck)
        else:
            self.game, _ = next_round(self.game, deck, dealer)
        game = self.game
        self.round_actions = []
        while not game.round.is_over:
            rnd = game.round
            seat = _next_seat(rnd)
            player = self.players[seat]
            v = view(rnd, seat)
            start, cpu = time.perf_counter(), time.thread_time()
            action = player.choose(v)
            side = self.sides[seat & 1]
            side.times.append(time.perf_counter() - start)
            side.cpu_times.append(time.thread_time() - cpu)
            game, _ = apply(game, action)
            self.round_actions.append(action)
        self.game = game
        return game


def _next_seat(rnd: Any) -> int:
    from .engine.round import to_act

    return to_act(rnd)[0]


def run_arena(
    a: str,
    b: str,
    deals: int,
    seed: int,
    rules: Rules,
    rules_name: str = "standard",
    on_deal: Callable[[int], None] | None = None,
    factories: tuple[PlayerFactory, PlayerFactory] | None = None,
    on_round: Callable[[dict[str, Any]], None] | None = None,
) -> ArenaResult:
    """Play ``deals`` duplicate deals between ``a`` and ``b`` (names; ``factories`` makes
    the players instead of ``player_factory`` of the names, e.g. clients that count errors).
    ``on_round`` is given each finished round's ``deal_record`` (to study where a side loses)."""
    make_a, make_b = factories or (player_factory(a), player_factory(b))
    side_a, side_b = SideStats(a), SideStats(b)
    rng = random.Random(seed)
    tables = duplicate_tables(rules, (make_a, make_b), (side_a, side_b), seed)
    result = ArenaResult(rules_name, deals, seed, side_a, side_b)
    start = time.perf_counter()
    for i in range(deals):
        deck = uniform_deck(rng)
        dealer = i % 4
        for t, table in enumerate(tables):
            game = table.play(list(deck), dealer)  # a finished game is followed by a new one
            account(table, game)
            result.invalid_deals += game.round.outcome == "invalid"
            if on_round is not None:
                on_round(deal_record(game, i, t, table.sides, table.round_actions))
        if on_deal:
            on_deal(i + 1)
    result.seconds = time.perf_counter() - start
    return result


def duplicate_tables(
    rules: Rules,
    makers: tuple[PlayerFactory, PlayerFactory],
    sides: tuple[SideStats, SideStats],
    seed: int,
) -> list[Table]:
    """The two tables of a duplicate match: A in seats 0 and 2 of the first, B there in the
    second (each player seeded from ``seed`` and its seat)."""
    (make_a, make_b), (side_a, side_b) = makers, sides
    return [
        Table(
            rules,
            [make_a(seed * 8 + s) if s % 2 == 0 else make_b(seed * 8 + s) for s in range(4)],
            (side_a, side_b),
        ),
        Table(
            rules,
            [
                make_b(seed * 8 + 4 + s) if s % 2 == 0 else make_a(seed * 8 + 4 + s)
                for s in range(4)
            ],
            (side_b, side_a),
        ),
    ]


def deal_record(
    game: GameState,
    deal: int,
    table: int,
    sides: tuple[SideStats, SideStats],
    actions: list[Action] | None = None,
) -> dict[str, Any]:
    """One finished round as data: the duplicate deal's number and table, the side of each
    team, every call, the deck and each seat's first and last four cards, the contract and
    what came of it (``RoundState.summary``); with ``actions``, every action of the round in
    order (``{"seat": …, "act": …}``, replayable from the deck and the dealer)."""
    rnd = game.round
    record: dict[str, Any] = {
        "deal": deal,
        "table": table,
        "sides": [sides[0].name, sides[1].name],
        "dealer": rnd.dealer,
        "first_hand": rnd.first_hand,
        "deck": codes(rnd.deck),
        "first_four": [codes(card_list(rnd.first_batch(s))) for s in range(4)],
        "last_four": [codes(card_list(rnd.second_batch(s))) for s in range(4)],
        "calls": [list(c) for c in rnd.calls],
    }
    record.update(rnd.summary())
    if actions is not None:
        record["actions"] = [a.to_json() for a in actions]
    record["game_winner"] = game.winner if game.over else None
    return record


def account(table: Table, game: GameState) -> None:
    """Add a finished round of ``table`` to its two sides' figures."""
    rnd = game.round
    for team in (0, 1):
        table.sides[team].points += rnd.points[team]
    if rnd.outcome == "invalid":
        return
    team = (rnd.caller if rnd.caller >= 0 else rnd.bidder) & 1
    bidders = table.sides[team]
    bidders.contracts += 1
    bidders.contracts_made += rnd.outcome == "won"
    delta = rnd.score_delta[team]
    bidders.score += delta
    winner = team if rnd.outcome == "won" else 1 - team
    table.sides[winner].deals_won += 1
    if game.over and game.winner is not None:  # this deal decided the game
        table.sides[game.winner].games_won += 1


def summary_lines(result: ArenaResult) -> list[str]:
    data = result.to_json()
    a, b = data["a"], data["b"]
    lines = [
        f"arena: {a['name']} (A) vs {b['name']} (B), preset {data['preset']}, "
        f"{data['duplicate_deals']} duplicate deals ({data['deals_played']} played), "
        f"seed {data['seed']}, {data['seconds']} s",
        f"  games won        A {a['games_won']:>6}   B {b['games_won']:>6}   "
        f"A win rate {data['a_game_win_rate']} (95% CI {data['a_game_win_rate_ci95']})",
        f"  deals won        A {a['deals_won']:>6}   B {b['deals_won']:>6}   "
        f"A win rate {data['a_deal_win_rate']} (95% CI {data['a_deal_win_rate_ci95']})",
        f"  points/deal      A {a['points_per_deal']:>6}   B {b['points_per_deal']:>6}",
        f"  contracts made   A {a['contracts_made']}/{a['contracts']}   "
        f"B {b['contracts_made']}/{b['contracts']}",
        f"  net score        A {a['net_score']:>6}   B {b['net_score']:>6}",
        f"  decision ms p50  A {a['decision_ms_p50']:>8}   B {b['decision_ms_p50']:>8}",
        f"  decision ms p95  A {a['decision_ms_p95']:>8}   B {b['decision_ms_p95']:>8}",
        f"  CPU ms p50/p95   A {a['decision_cpu_ms_p50']}/{a['decision_cpu_ms_p95']}   "
        f"B {b['decision_cpu_ms_p50']}/{b['decision_cpu_ms_p95']}",
        f"  invalid deals    {data['invalid_deals']}",
    ]
    return lines
