"""Who plays whom: four neighbours in rating whose spread fits the band of the longest waiter
among them; the band widens with waiting; balanced teams; never two who blocked each other."""

from __future__ import annotations

from twentynine.server.matchmaking.pairing import BAND_PER_SECOND, BAND_START, Waiting, band, tables


def four(ratings: list[float], waited: float = 0.0) -> list[Waiting]:
    return [Waiting(i + 1, r, waited) for i, r in enumerate(ratings)]


def test_the_band_widens_with_waiting() -> None:
    assert band(0) == BAND_START
    assert band(30) == BAND_START + 30 * BAND_PER_SECOND
    spread = [1000.0, 1100.0, 1200.0, 1300.0]  # 300 apart: too far for newcomers
    assert tables(four(spread, waited=0)) == []
    needed = (300 - BAND_START) / BAND_PER_SECOND
    assert tables(four(spread, waited=needed - 1)) == []
    (table,) = tables(four(spread, waited=needed))
    assert sorted(w.user_id for w in table) == [1, 2, 3, 4]


def test_teams_are_balanced_strongest_with_weakest() -> None:
    (table,) = tables(four([1000, 1030, 1060, 1090]))
    assert [w.rating for w in table] == [1090, 1060, 1000, 1030]  # seats 0-3: teams 0+2, 1+3
    assert table[0].rating + table[2].rating == table[1].rating + table[3].rating


def test_close_ratings_sit_together_and_the_longest_waiter_goes_first() -> None:
    waiting = [
        Waiting(1, 1000, 5),
        Waiting(2, 1010, 5),
        Waiting(3, 1020, 5),
        Waiting(4, 1030, 5),
        Waiting(5, 1500, 1),
        Waiting(6, 1510, 1),
        Waiting(7, 1520, 1),
        Waiting(8, 1530, 50),  # waited longest
        Waiting(9, 2400, 0),
    ]
    got = [sorted(w.user_id for w in t) for t in tables(waiting)]
    assert got == [[5, 6, 7, 8], [1, 2, 3, 4]]  # nine waiting: one still waits


def test_two_who_blocked_each_other_never_share_a_table() -> None:
    waiting = [*four([1000, 1010, 1020, 1030]), Waiting(5, 1040, 0)]
    got = tables(waiting, {frozenset((1, 2))})
    assert [sorted(w.user_id for w in t) for t in got] == [[2, 3, 4, 5]]
    assert tables(four([1000, 1010, 1020, 1030]), {frozenset((3, 4))}) == []
