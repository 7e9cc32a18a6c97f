"""Random legal play: whole games dealt and played by random players, for tests and figures."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .engine import legal_actions
from .engine.actions import Action
from .engine.game import GameState, apply, new_game, next_round
from .engine.records import DealRecord, RulesSpec
from .engine.rules import Rules
from .engine.shuffle import next_deck


@dataclass
class SimStats:
    preset: str
    seed: int
    rounds: int = 0
    actions: int = 0
    seconds: float = 0.0
    outcomes: Counter[str] = field(default_factory=Counter)
    invalid_reasons: Counter[str] = field(default_factory=Counter)
    contracts: Counter[str] = field(default_factory=Counter)
    bids: Counter[int] = field(default_factory=Counter)
    stakes: Counter[int] = field(default_factory=Counter)
    early_finishes: int = 0
    games_finished: int = 0

    def add(self, game: GameState, actions: int) -> None:
        rnd = game.round
        self.rounds += 1
        self.actions += actions
        self.outcomes[rnd.outcome] += 1
        if rnd.outcome == "invalid":
            self.invalid_reasons[rnd.reason] += 1
            return
        self.contracts[rnd.contract] += 1
        self.bids[rnd.bid] += 1
        self.stakes[rnd.stake] += 1
        self.early_finishes += rnd.early

    def to_json(self) -> dict[str, Any]:
        secs = max(self.seconds, 1e-9)
        return {
            "preset": self.preset,
            "seed": self.seed,
            "rounds": self.rounds,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "rounds_per_s": round(self.rounds / secs, 1),
            "actions_per_s": round(self.actions / secs, 1),
            "outcomes": dict(sorted(self.outcomes.items())),
            "invalid_reasons": dict(sorted(self.invalid_reasons.items())),
            "contracts": dict(sorted(self.contracts.items())),
            "bids": {str(k): v for k, v in sorted(self.bids.items())},
            "stakes": {str(k): v for k, v in sorted(self.stakes.items())},
            "early_finishes": self.early_finishes,
            "games_finished": self.games_finished,
        }


Chooser = Callable[[GameState, list[Action]], Action]


def random_chooser(rng: random.Random) -> Chooser:
    def choose(_game: GameState, legal: list[Action]) -> Action:
        return legal[rng.randrange(len(legal))]

    return choose


def play_deals(
    rules: Rules,
    rounds: int,
    rng: random.Random,
    choose: Chooser | None = None,
    preset_name: str = "standard",
) -> Iterator[tuple[GameState, DealRecord]]:
    """Deal and play ``rounds`` deals as one continuing game (a new game after each result);
    yields each finished deal's game state and its record."""
    chooser = choose or random_chooser(rng)
    spec = RulesSpec.of(rules, preset_name)
    dealer = rng.randrange(4)
    game, _ = new_game(rules, dealer, next_deck(None, rules.shuffle, rng))
    for n in range(rounds):
        actions: list[Action] = []
        while not game.round.is_over:
            action = chooser(game, legal_actions(game.round))
            game, _ = apply(game, action)
            actions.append(action)
        rnd = game.round
        yield game, DealRecord(spec, rnd.dealer, rnd.deck, tuple(actions))
        if n + 1 == rounds:
            break
        deck = next_deck(rnd, rules.shuffle, rng)
        if game.over:  # start a new game, the deck as it comes
            game, _ = new_game(rules, game.next_dealer, deck)
        else:
            game, _ = next_round(game, deck)


def simulate(
    rules: Rules,
    rounds: int,
    seed: int,
    preset_name: str = "standard",
    on_deal: Callable[[GameState, DealRecord], None] | None = None,
) -> SimStats:
    rng = random.Random(seed)
    stats = SimStats(preset_name, seed)
    start = time.perf_counter()
    for game, record in play_deals(rules, rounds, rng, preset_name=preset_name):
        stats.add(game, len(record.actions))
        stats.games_finished += game.over  # a finished game is followed by a new one
        if on_deal is not None:
            on_deal(game, record)
    stats.seconds = time.perf_counter() - start
    return stats
