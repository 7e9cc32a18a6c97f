"""RULES.md §7: stakes, the all-tricks bonus, the half-bid penalty, the last-trick point and
early finish."""

from __future__ import annotations

import pytest

from tests.engine.deals import DEALER, PLAY
from tests.engine.helpers import autoplay, play, run, to_play
from twentynine.engine import STANDARD, Phase, house_rules, preset
from twentynine.engine.cards import mask_points
from twentynine.engine.events import RoundEnded, TrickWon
from twentynine.engine.state import Trick

#: Team 0 (seats 0 and 2) wins all eight tricks when played out lowest card first.
ALL_WON = {
    0: "AH JC JD KH AS QC TH 8H",
    1: "8S 9C 8C JS KC 7H AD KD",
    2: "TC TS KS QH JH TD 9H AC",
    3: "QS QD 7C 7D 7S 9S 9D 8D",
}
#: Team 1 (seats 1 and 3) wins all eight tricks when played out lowest card first.
ALL_LOST = {
    0: "JH TH KS AS QC JS 7H QS",
    1: "QD 9H TD 8C AC JD KC 8H",
    2: "7C 7S TS KH 7D 9S 9D 8S",
    3: "9C QH AH KD JC AD 8D TC",
}
#: Pagat, seat 0 bidding seventh card: team 0 takes 8 points (no last trick).
HALF = {
    0: "8S QS AH 8H 9H QD QC 7S",
    1: "TH TC QH KC JD 9S JS KS",
    2: "7H TS KD 7C JC AD 8C 8D",
    3: "7D AS AC KH 9C TD 9D JH",
}
#: Pagat, seat 0 bidding seventh card: team 0 takes 23 card points and the last trick.
LAST_TRICK = {
    0: "KC JC AS TH TC 8S 9C QH",
    1: "KH AC 7C QD KD 9S 8D TD",
    2: "9D QS 8H AH JD 7H 7D 8C",
    3: "KS JH QC 9H AD TS JS 7S",
}

DOUBLING = {
    0: "1: pass; 3: pass",
    1: "1: double; 0: pass; 2: pass; 0: pass",  # the last pass: no seventh-card Redouble
    2: "1: double; 0: redouble; 1: pass; 3: pass",
    3: "1: double; 0: redouble; 1: setdouble",
}
NO_SINGLE_HAND = "0: pass; 1: pass; 2: pass; 3: pass"


def standard_seventh(hands, bid: int, level: int):
    script = f"0: bid {bid}; 1: pass; 2: pass; 3: pass; 0: trump seventh; {DOUBLING[level]}"
    st, _ = play(STANDARD, DEALER, hands, f"{script}; {NO_SINGLE_HAND}")
    assert st.phase is Phase.PLAY and st.double_level == level
    return autoplay(st)


# -- stakes -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("level", "stake"), [(0, 1), (1, 2), (2, 4), (3, 6)])
def test_regular_stakes_won(level: int, stake: int) -> None:
    st, ev = standard_seventh(PLAY, 16, level)
    assert (st.outcome, st.stake, st.score_delta) == ("won", stake, (stake, 0))
    assert st.points[0] >= 16 and 0 < st.tricks_won[0] < 8
    assert ev[-1] == RoundEnded("won", st.early, (stake, 0))


@pytest.mark.parametrize(("level", "stake"), [(0, 1), (1, 2), (2, 4), (3, 6)])
def test_regular_stakes_lost(level: int, stake: int) -> None:
    st, _ = standard_seventh(PLAY, 28, level)
    assert (st.outcome, st.stake, st.score_delta) == ("lost", stake, (-stake, 0))
    assert st.points[0] < 28


def test_seventh_card_redouble_stake() -> None:
    script = "0: bid 16; 1: pass; 2: pass; 3: pass; 0: trump seventh; 1: double; 0: pass; 2: pass"
    st, _ = play(STANDARD, DEALER, PLAY, f"{script}; 0: redouble; {NO_SINGLE_HAND}")
    st, _ = autoplay(st)
    assert (st.outcome, st.stake, st.score_delta) == ("won", 4, (4, 0))


def test_only_the_bidders_team_scores() -> None:
    """PLAY turned one seat on: seat 1 is first hand and wins as seat 0 did."""
    hands = {(s + 1) % 4: PLAY[s] for s in range(4)}
    st, _ = to_play(STANDARD, 0, hands, 1, 16, "seventh")
    st, _ = autoplay(st)
    assert (st.outcome, st.score_delta) == ("won", (0, 1))
    st, _ = to_play(STANDARD, 0, hands, 1, 28, "seventh")
    st, _ = autoplay(st)
    assert (st.outcome, st.score_delta) == ("lost", (0, -1))


# -- the all-tricks bonus (standard) ----------------------------------------------------------
def test_all_tricks_won_scores_two() -> None:
    st, _ = standard_seventh(ALL_WON, 16, 0)
    assert st.tricks_won == (8, 0)
    assert (st.outcome, st.stake, st.score_delta, st.early) == ("won", 2, (2, 0), False)


def test_all_tricks_lost_costs_two() -> None:
    st, _ = standard_seventh(ALL_LOST, 16, 0)
    assert st.tricks_won == (0, 8)
    assert (st.outcome, st.stake, st.score_delta, st.early) == ("lost", 2, (-2, 0), False)


@pytest.mark.parametrize("hands", [ALL_WON, ALL_LOST], ids=["won", "lost"])
@pytest.mark.parametrize(("level", "stake"), [(1, 2), (2, 4), (3, 6)])
def test_no_all_tricks_bonus_on_a_doubled_round(hands, level: int, stake: int) -> None:
    """(Early finish off, or a doubled round would end before the eighth trick.)"""
    rules = house_rules("standard", {"early_finish": False})
    script = f"0: bid 16; 1: pass; 2: pass; 3: pass; 0: trump seventh; {DOUBLING[level]}"
    st, _ = play(rules, DEALER, hands, f"{script}; {NO_SINGLE_HAND}")
    st, _ = autoplay(st)
    assert 8 in st.tricks_won
    won = hands is ALL_WON
    assert (st.stake, st.score_delta) == (stake, (stake if won else -stake, 0))


def test_no_all_tricks_bonus_where_the_option_is_off() -> None:
    st, _ = to_play(preset("pagat"), DEALER, ALL_WON, 0, 16, "seventh")
    st, _ = autoplay(st)
    assert st.tricks_won == (8, 0)
    assert (st.outcome, st.stake, st.score_delta) == ("won", 1, (1, 0))


# -- the half-bid penalty (pagat) -------------------------------------------------------------
@pytest.mark.parametrize(("bid", "stake"), [(16, 1), (17, 2)])
def test_half_bid_penalty(bid: int, stake: int) -> None:
    st, _ = to_play(preset("pagat"), DEALER, HALF, 0, bid, "seventh")
    st, _ = autoplay(st)
    assert st.points[0] == 8  # exactly half of 16, under half of 17
    assert (st.outcome, st.stake, st.score_delta) == ("lost", stake, (-stake, 0))


def test_half_bid_penalty_off_in_standard() -> None:
    st, _ = standard_seventh(ALL_LOST, 16, 0)
    assert st.points[0] == 0
    assert st.stake == 2  # the all-tricks bonus only, not doubled again
    st, _ = to_play(
        house_rules("standard", {"all_tricks_bonus": False}), DEALER, ALL_LOST, 0, 16, "seventh"
    )
    st, _ = autoplay(st)
    assert (st.outcome, st.stake) == ("lost", 1)


# -- the last-trick point ---------------------------------------------------------------------
@pytest.mark.parametrize(("bid", "outcome"), [(24, "won"), (25, "lost")])
def test_last_trick_point_counts_toward_the_target(bid: int, outcome: str) -> None:
    st, _ = to_play(preset("pagat"), DEALER, LAST_TRICK, 0, bid, "seventh")
    st, _ = autoplay(st)
    last = st.tricks[-1]
    assert last.winner in (0, 2)
    assert last.points == mask_points(sum(1 << c for _, c in last.plays)) + 1
    assert st.points == (24, 5)
    assert st.outcome == outcome


# -- early finish (standard) ------------------------------------------------------------------
def hearts_named(hands, bidder: int, bid: int, rules=STANDARD):
    st, _ = to_play(rules, DEALER, hands, bidder, bid, "H")
    assert st.phase is Phase.PLAY
    return st


#: seat 3 wins trick 1 (6 points) after seat 2 asks for trump; seat 0 trumps trick 2 (7 points)
OPPONENTS_SCORE_FIRST = """
    0: play JS; 1: play 7S; 2: reveal; 2: play AH; 3: play 9H
    3: play 7D; 0: play JH; 1: play JD; 2: play AD
"""
#: team 0 takes 16 points in five tricks; team 1 wins trick 3
BIDDERS_REACH_16 = """
    0: play JS; 1: play 7S; 2: reveal; 2: play AH; 3: play 8D
    2: play JC; 3: play KC; 0: play 7C; 1: play QC
    2: play 9C; 3: play 9H; 0: play 8C; 1: play JD
    3: play KD; 0: play JH; 1: play 9D; 2: play AD
    0: play 9S; 1: play KS; 2: play TH; 3: play QD
"""


def test_early_finish_when_the_target_is_reached() -> None:
    st, ev = run(hearts_named(PLAY, 0, 16), BIDDERS_REACH_16)
    assert ev[-2:] == [TrickWon(5, 2, 3), RoundEnded("won", True, (1, 0))]
    assert (st.phase, st.outcome, st.early) == (Phase.OVER, "won", True)
    assert (st.points, st.tricks_won, len(st.tricks)) == ((16, 7), (4, 1), 5)


def test_early_finish_when_the_target_is_out_of_reach() -> None:
    st, ev = run(hearts_named(PLAY, 0, 28), OPPONENTS_SCORE_FIRST)
    assert ev[-1] == RoundEnded("lost", True, (-1, 0))
    assert (st.points, st.tricks_won, len(st.tricks)) == ((7, 6), (1, 1), 2)


def test_no_early_finish_while_the_all_tricks_bonus_is_possible() -> None:
    st, _ = run(hearts_named(PLAY, 0, 28), "0: play JS; 1: play 7S; 2: reveal; 2: play AH")
    st, _ = run(st, "3: play 9H")
    assert st.points == (0, 6) and st.tricks_won == (0, 1)  # 28 is out of reach already...
    assert st.phase is Phase.PLAY  # ...but team 1 might still win every trick


def test_doubled_round_finishes_early_even_before_both_teams_win_a_trick() -> None:
    script = "0: bid 28; 1: pass; 2: pass; 3: pass; 0: trump H; 1: double; 0: pass; 2: pass"
    st, _ = play(STANDARD, DEALER, PLAY, f"{script}; {NO_SINGLE_HAND}")
    st, ev = run(st, "0: play JS; 1: play 7S; 2: reveal; 2: play AH; 3: play 9H")
    assert ev[-1] == RoundEnded("lost", True, (-2, 0))
    assert st.tricks_won == (0, 1)


def test_no_early_finish_before_trump_is_shown_then_mid_trick_on_the_reveal() -> None:
    st = hearts_named(PLAY, 0, 28)
    st, _ = run(st, "0: play 7C; 1: play QC; 2: play JC; 3: play KC")
    st, _ = run(st, "2: play TD; 3: play KD; 0: play 8C; 1: play JD")
    assert st.points == (3, 4) and st.tricks_won == (1, 1)  # 28 is out of reach already...
    assert st.phase is Phase.PLAY and not st.trump_shown  # ...but trump is still hidden
    st, ev = run(st, "1: play 7S; 2: reveal")
    assert ev[-1] == RoundEnded("lost", True, (-1, 0))
    assert len(st.tricks) == 2  # the unfinished third trick counts for nobody
    assert st.points == (3, 4)


def test_no_early_finish_while_a_pair_could_change_the_target() -> None:
    rules = house_rules("standard", {"pair_timing": "after_trick_won"})
    st, _ = run(hearts_named(PLAY, 0, 16, rules), BIDDERS_REACH_16)
    assert (st.phase, st.outcome, len(st.tricks)) == (Phase.OVER, "won", 5)
    pair = {**PLAY, 1: "KS QS 8S 7S JD 9D 8H QC", 3: "KC KD QD 8D 7D 9H KH QH"}
    st, _ = run(hearts_named(pair, 0, 16, rules), BIDDERS_REACH_16)
    assert st.points[0] == 16
    assert st.phase is Phase.PLAY  # seat 3's KH and QH could still raise the target to 20
    st, ev = run(st, "2: play AC; 3: play KH")
    assert ev[-1] == RoundEnded("won", True, (1, 0))  # ends mid-trick: the pair is broken


def test_a_pair_that_cannot_change_the_target_does_not_delay_the_finish() -> None:
    """At the maximum bid an opponents' pair cannot raise the target any more."""
    rules = house_rules("standard", {"pair_timing": "after_trick_won"})
    pair = {**PLAY, 1: "KS QS 8S 7S JD 9D 8H QC", 3: "KC KD QD 8D 7D 9H KH QH"}
    script = "0: play JS; 1: play 7S; 2: reveal; 2: play AH; 3: play 8D"
    script += "; 2: play JC; 3: play KC; 0: play 7C; 1: play QC"
    script += "; 2: play 9C; 3: play 9H; 0: play 8C; 1: play JD"
    st, ev = run(hearts_named(pair, 0, 28, rules), script)
    assert st.points == (7, 7) and st.tricks_won == (2, 1)
    assert ev[-1] == RoundEnded("lost", True, (-1, 0))


def test_no_early_finish_where_the_option_is_off() -> None:
    rules = house_rules("standard", {"early_finish": False})
    st, _ = run(hearts_named(PLAY, 0, 28, rules), OPPONENTS_SCORE_FIRST)
    assert st.phase is Phase.PLAY
    st, _ = autoplay(st)
    assert (st.outcome, st.early, len(st.tricks)) == ("lost", False, 8)
    assert all(isinstance(t, Trick) for t in st.tricks)
