"""A match's score from its table's finished deals: who won, by how much, and the card points.

Pure: the deals come from the table's stored history (``DealHistory``), so the same answer is
reached by any process, after any restart, however late it looks. Team 0 is the match's first
entry (seats 0 and 2), team 1 the second (seats 1 and 3)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ...engine.errors import EngineError
from ...engine.records import DealRecord, replay_deal


@dataclass(frozen=True)
class DealResult:
    outcome: str  # won | lost | invalid
    team: int | None  # the bidder's (or Single Hand caller's) team
    score_delta: tuple[int, int]
    game_over: bool  # the table's game ended with this deal (a set was won or lost)
    game_winner: int | None
    cards: tuple[int, int]  # card points each team captured


@dataclass(frozen=True)
class MatchScore:
    decided: bool
    winner: int | None  # team 0 or 1; None while undecided, or for a draw
    score: tuple[int, int]  # rounds won (a fixed-length match) or game points (a set)
    cards: tuple[int, int]
    deals: int  # deals that counted (invalid ones included)


def deal_cards(record: dict[str, Any]) -> tuple[int, int]:
    """Card points each team captured in a deal, as the engine's replay of its record has it."""
    try:
        points = replay_deal(DealRecord.from_json(record)).state.points
    except (EngineError, KeyError, TypeError, ValueError):
        return (0, 0)
    return (int(points[0]), int(points[1]))


def deal_result(row: Any, cards: bool = True) -> DealResult:
    """A stored ``DealHistory`` row as a ``DealResult`` (its card points (0, 0) unless
    ``cards``)."""
    delta = row.score_delta or [0, 0]
    return DealResult(
        outcome=row.outcome,
        team=row.bidder_team,
        score_delta=(int(delta[0]), int(delta[1])),
        game_over=bool(row.game_over),
        game_winner=row.game_winner,
        cards=deal_cards(row.record) if cards else (0, 0),
    )


def match_score(deals: Iterable[DealResult], match_deals: int, must_decide: bool) -> MatchScore:
    """The match after ``deals`` (in the order they were played).

    ``match_deals`` 0: a set, first to +6 or -6 (the table's game ends: its winner wins).
    ``match_deals`` N: N scored deals (invalid ones do not count), the team that won more of
    them wins; level after N is a draw, or, when ``must_decide`` (a knockout), play goes on one
    deal at a time until a team is ahead. Deals after the deciding one are not counted."""
    score = [0, 0]
    cards = [0, 0]
    counted = 0
    scored = 0
    for deal in deals:
        counted += 1
        cards[0] += deal.cards[0]
        cards[1] += deal.cards[1]
        if match_deals == 0:
            score[0] += deal.score_delta[0]
            score[1] += deal.score_delta[1]
            if deal.game_over:
                return MatchScore(True, deal.game_winner, _pair(score), _pair(cards), counted)
            continue
        if deal.outcome == "invalid" or deal.team is None:
            continue
        scored += 1
        score[deal.team if deal.outcome == "won" else 1 - deal.team] += 1
        if scored >= match_deals:
            if score[0] != score[1]:
                winner = 0 if score[0] > score[1] else 1
                return MatchScore(True, winner, _pair(score), _pair(cards), counted)
            if not must_decide:
                return MatchScore(True, None, _pair(score), _pair(cards), counted)
    return MatchScore(False, None, _pair(score), _pair(cards), counted)


def _pair(values: list[int]) -> tuple[int, int]:
    return (values[0], values[1])
