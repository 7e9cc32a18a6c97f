"""Standings and tie-breaks checked against cases worked out by hand; match results from deals."""

from __future__ import annotations

from twentynine.server.tournaments.results import DealResult, match_score
from twentynine.server.tournaments.standings import (
    KnockoutMatch,
    Result,
    knockout_ranking,
    standings,
)

A, B, C, D = 1, 2, 3, 4
SEEDS = {A: 1, B: 2, C: 3, D: 4}


def test_equal_points_and_buchholz_go_to_card_points_for_minus_against() -> None:
    results = [
        Result(A, B, 1, 0, 100, 60),  # round 1
        Result(C, D, 0.5, 0.5, 80, 80),
        Result(A, C, 1, 0, 90, 70),  # round 2
        Result(B, D, 1, 0, 70, 50),
        Result(D, A, 1, 0, 75, 65),  # round 3
        Result(B, C, 1, 0, 85, 40),
    ]
    lines = standings(SEEDS, results)
    # by hand: A 2 points, B 2, D 1.5, C 0.5. Buchholz A = B 2 + C 0.5 + D 1.5 = 4, and
    # B = A 2 + D 1.5 + C 0.5 = 4: equal. Cards A 255 - 205 = +50, B 215 - 190 = +25.
    assert [line.entry for line in lines] == [A, B, D, C]
    a, b, d, c = lines
    assert (a.points, a.buchholz, a.card_difference) == (2, 4, 50)
    assert (b.points, b.buchholz, b.card_difference) == (2, 4, 25)
    assert (d.points, d.buchholz) == (1.5, 4.5)  # C 0.5 + B 2 + A 2
    assert (c.points, c.buchholz) == (0.5, 5.5)  # D 1.5 + A 2 + B 2
    assert (a.won, a.lost, d.drawn, c.played) == (2, 1, 1, 3)
    assert [line.rank for line in lines] == [1, 2, 3, 4]


def test_buchholz_comes_before_card_points() -> None:
    results = [
        Result(A, B, 1, 0, 70, 60),
        Result(C, D, 1, 0, 61, 60),
        Result(A, C, 1, 0, 62, 60),
        Result(D, B, 1, 0, 120, 10),
    ]
    lines = standings(SEEDS, results)
    # C and D have a point each; C met A (2) and D (1): Buchholz 3; D met C (1) and B (0): 1.
    # D's cards (+109) are far better than C's (-1), but Buchholz decides first.
    assert [line.entry for line in lines] == [A, C, D, B]
    assert (lines[1].buchholz, lines[2].buchholz) == (3, 1)
    assert lines[2].card_difference > lines[1].card_difference


def test_a_bye_scores_a_win_without_an_opponent() -> None:
    lines = standings({A: 1, B: 2, C: 3}, [Result(A, B, 1, 0, 10, 5), Result(C, None, 1, 0)])
    by = {line.entry: line for line in lines}
    assert by[C].points == 1 and by[C].byes == 1 and by[C].played == 0 and by[C].buchholz == 0
    assert by[A].buchholz == 0 and by[B].buchholz == 1
    # A and C: 1 point, Buchholz 0 (A met B with 0) and 0; A's cards +5 put A first
    assert [line.entry for line in lines] == [A, C, B]


def test_lines_equal_in_everything_share_a_rank() -> None:
    lines = standings({A: 1, B: 2}, [Result(A, B, 0.5, 0.5, 50, 50)])
    assert [(line.entry, line.rank) for line in lines] == [(A, 1), (B, 1)]


def test_knockout_places() -> None:
    matches = [
        KnockoutMatch(1, A, D), KnockoutMatch(1, B, C),
        KnockoutMatch(2, A, B),
    ]  # fmt: skip
    assert knockout_ranking(2, matches, [A, B, C, D]) == [(1, A), (2, B), (3, C), (3, D)]
    matches.append(KnockoutMatch(2, D, C, third_place=True))
    assert knockout_ranking(2, matches, [A, B, C, D]) == [(1, A), (2, B), (3, D), (4, C)]


def deal(
    outcome: str, team: int | None, cards: tuple[int, int] = (20, 9), **kw: object
) -> DealResult:
    delta = (0, 0)
    if team is not None and outcome != "invalid":
        sign = 1 if outcome == "won" else -1
        delta = (sign, 0) if team == 0 else (0, sign)
    return DealResult(outcome, team, delta, bool(kw.get("over")), kw.get("winner"), cards)  # type: ignore[arg-type]


def test_a_fixed_length_match_counts_scored_deals() -> None:
    deals = [deal("won", 0), deal("invalid", None, (0, 0)), deal("won", 1, (9, 20))]
    level = match_score(deals, 2, must_decide=False)
    assert (level.decided, level.winner, level.score, level.deals) == (True, None, (1, 1), 3)
    assert level.cards == (29, 29)
    # a knockout plays on, one deal at a time, until a team is ahead
    assert not match_score(deals, 2, must_decide=True).decided
    more = [*deals, deal("lost", 0, (10, 19)), deal("won", 0)]
    on = match_score(more, 2, must_decide=True)
    assert (on.decided, on.winner, on.score, on.deals) == (
        True,
        1,
        (1, 2),
        4,
    )  # the 5th not counted


def test_a_set_ends_with_the_tables_game() -> None:
    deals = [deal("won", 0), deal("won", 1), deal("won", 1, over=True, winner=1), deal("won", 0)]
    score = match_score(deals, 0, must_decide=True)
    assert (score.decided, score.winner, score.deals, score.score) == (True, 1, 3, (1, 2))
    assert not match_score(deals[:2], 0, must_decide=True).decided
