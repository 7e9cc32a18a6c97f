"""Pairing: the knockout bracket, Swiss by maximum-weight matching (equal scores meet, nobody
twice), the round-robin circle."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from twentynine.server.tournaments.pairing import (
    bracket_order,
    knockout_first_round,
    knockout_next,
    knockout_rounds,
    round_robin_pairing,
    round_robin_rounds,
    swiss_max_rounds,
    swiss_pairing,
)


def test_bracket_order_keeps_the_top_seeds_apart() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert sorted(bracket_order(16)) == list(range(1, 17))


def test_twelve_teams_four_byes_to_the_top_seeds() -> None:
    seeded = [100 + s for s in range(1, 13)]  # entry 101 is seed 1, …
    slots = knockout_first_round(seeded)
    # sixteen places in bracket order: 1 16 8 9 4 13 5 12 2 15 7 10 3 14 6 11; 13-16 are byes
    assert slots == [
        (101, None), (108, 109), (104, None), (105, 112),
        (102, None), (107, 110), (103, None), (106, 111),
    ]  # fmt: skip
    assert knockout_rounds(12) == 4 and knockout_rounds(16) == 4 and knockout_rounds(2) == 1
    assert knockout_next([1, 2, 3, 4]) == [(1, 2), (3, 4)]


def test_round_robin_everyone_meets_everyone_once() -> None:
    for n in range(2, 9):
        teams = list(range(1, n + 1))
        met: list[frozenset[int]] = []
        byes = []
        for r in range(1, round_robin_rounds(n) + 1):
            pairing = round_robin_pairing(teams, r)
            playing = [e for m in pairing.matches for e in m]
            assert len(set(playing)) == len(playing)
            met += [frozenset(m) for m in pairing.matches]
            if pairing.bye is not None:
                byes.append(pairing.bye)
        assert sorted(map(sorted, met)) == sorted(
            map(sorted, map(frozenset, itertools.combinations(teams, 2)))
        )
        assert sorted(byes) == (teams if n % 2 else [])


def play_swiss(teams: int, rounds: int, rng: random.Random) -> list[list[tuple[int, int]]]:
    entries = list(range(1, teams + 1))
    points = dict.fromkeys(entries, 0.0)
    played: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    history = []
    for _ in range(rounds):
        ranked = sorted(entries, key=lambda e: (-points[e], e))
        before = dict(points)
        pairing = swiss_pairing(ranked, before, played, had_bye)
        for a, b in pairing.matches:
            played.add(frozenset((a, b)))
            outcome = rng.choice((1.0, 0.5, 0.0))
            points[a] += outcome
            points[b] += 1 - outcome
        if pairing.bye is not None:
            assert pairing.bye not in had_bye
            had_bye.add(pairing.bye)
            points[pairing.bye] += 1
        history.append(list(pairing.matches))
    return history


def test_swiss_never_repeats_a_pairing() -> None:
    rng = random.Random(18)
    for teams, rounds in ((16, 4), (16, 8), (11, 5), (9, 4), (8, 4), (6, 3), (4, 2)):
        assert rounds == swiss_max_rounds(teams) or teams == 16
        for _ in range(20):
            history = play_swiss(teams, rounds, rng)
            pairs = [frozenset(m) for rnd in history for m in rnd]
            assert len(pairs) == len(set(pairs)), (teams, rounds)
            assert all(len(rnd) == teams // 2 for rnd in history)


def test_swiss_round_two_pairs_winners_with_winners() -> None:
    ranked = list(range(1, 9))
    points = {e: (1.0 if e <= 4 else 0.0) for e in ranked}
    played = {frozenset((1, 5)), frozenset((2, 6)), frozenset((3, 7)), frozenset((4, 8))}
    pairing = swiss_pairing(ranked, points, played, set())
    assert sorted(pairing.matches) == [(1, 3), (2, 4), (5, 7), (6, 8)]
    assert pairing.bye is None


def test_swiss_bye_goes_to_the_lowest_ranked_team_without_one() -> None:
    ranked = [1, 2, 3, 4, 5]
    pairing = swiss_pairing(ranked, dict.fromkeys(ranked, 0.0), set(), {5})
    assert pairing.bye == 4
    assert sorted(e for m in pairing.matches for e in m) == [1, 2, 3, 5]


def test_swiss_round_one_pairs_the_top_half_with_the_bottom_half() -> None:
    ranked = list(range(1, 9))
    pairing = swiss_pairing(ranked, dict.fromkeys(ranked, 0.0), set(), set())
    assert pairing.matches == ((1, 5), (2, 6), (3, 7), (4, 8))


def test_every_knockout_field_from_2_to_130_is_seeded_fairly() -> None:
    """For every field size: each team is in round one once, the byes are exactly the top
    seeds' (as many as the bracket's empty places), and when the better seed wins every match
    the last four are seeds 1-4, the final is seed 1 against seed 2, after
    ``knockout_rounds`` rounds."""
    for n in range(2, 131):
        seeded = list(range(1, n + 1))  # entry s is seed s
        slots = knockout_first_round(seeded)
        size = len(slots) * 2
        assert size >= n > size // 2 or n == size == 2
        placed = [e for a, b in slots for e in (a, b) if e is not None]
        assert sorted(placed) == seeded
        byes = sorted(a for a, b in slots if b is None)
        assert byes == list(range(1, size - n + 1)), n
        matches: list[tuple[int, int | None]] = list(slots)
        rounds = 0
        while True:
            rounds += 1
            winners = [a if b is None else min(a, b) for a, b in matches]
            if len(winners) == 1:
                break
            if len(winners) == 4:
                assert sorted(winners) == [1, 2, 3, 4], n
            matches = list(knockout_next(winners))
        assert sorted(e for e in matches[0] if e is not None) == [1, 2], n
        assert knockout_rounds(n) == rounds, n


def test_every_round_robin_from_2_to_24_meets_each_pair_once_one_match_a_round() -> None:
    for n in range(2, 25):
        teams = list(range(1, n + 1))
        met: set[frozenset[int]] = set()
        byes = []
        for r in range(1, round_robin_rounds(n) + 1):
            pairing = round_robin_pairing(teams, r)
            playing = [e for m in pairing.matches for e in m]
            assert len(playing) == len(set(playing)) == n - (n % 2)
            for m in pairing.matches:
                assert frozenset(m) not in met, (n, r, m)
                met.add(frozenset(m))
            if pairing.bye is not None:
                byes.append(pairing.bye)
        assert len(met) == n * (n - 1) // 2
        assert sorted(byes) == (teams if n % 2 else [])


@given(
    teams=st.integers(2, 40),
    results=st.lists(st.sampled_from((1.0, 0.5, 0.0)), min_size=400, max_size=400),
    withdrawn=st.sets(st.integers(1, 40), max_size=3),
)
@settings(max_examples=120, deadline=None, derandomize=True)
def test_a_swiss_of_any_field_and_results_pairs_every_round_without_a_repeat(
    teams: int, results: list[float], withdrawn: set[int]
) -> None:
    """Any field of 2-40 teams, any results, up to ``swiss_max_rounds`` rounds; a few teams
    withdraw after round one (the field that is left pairs on): every team still in plays
    once a round, no pairing repeats, a bye goes to a team without one and to the lowest
    ranked such team."""
    entries = list(range(1, teams + 1))
    points = dict.fromkeys(entries, 0.0)
    played: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    outcome = iter(results)
    for round_no in range(1, swiss_max_rounds(teams) + 1):
        if round_no == 2:
            left = [e for e in entries if e not in withdrawn]
            if len(left) >= 2 and swiss_max_rounds(len(left)) >= swiss_max_rounds(teams):
                entries = left
        ranked = sorted(entries, key=lambda e: (-points[e], e))
        pairing = swiss_pairing(ranked, dict(points), played, had_bye)
        playing = [e for m in pairing.matches for e in m]
        assert sorted(playing + ([pairing.bye] if pairing.bye is not None else [])) == sorted(
            entries
        )
        if len(entries) % 2:
            assert pairing.bye is not None and pairing.bye not in had_bye
            without = [e for e in ranked if e not in had_bye]
            assert pairing.bye == without[-1]
            had_bye.add(pairing.bye)
            points[pairing.bye] += 1
        else:
            assert pairing.bye is None
        for a, b in pairing.matches:
            assert frozenset((a, b)) not in played, (round_no, a, b)
            played.add(frozenset((a, b)))
            won = next(outcome, 0.5)
            points[a] += won
            points[b] += 1 - won
