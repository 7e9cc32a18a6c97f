"""RULES.md §5: the marriage (royal pair) — on reveal, after a trick won, clamping, once."""

from __future__ import annotations

import pytest

from tests.engine.deals import DEALER, PLAY
from tests.engine.helpers import legal, play, run, to_play
from twentynine.engine import STANDARD, preset, to_act
from twentynine.engine.events import PairDeclared, TrickWon, TrumpShown

HEARTS = 2
#: PLAY with 8H and QH swapped: seat 3 holds KH and QH together
PAIR = {**PLAY, 1: "KS QS 8S 7S JD 9D 8H QC", 3: "KC KD QD 8D 7D 9H KH QH"}
#: seat 2 asks for trump in trick 1
REVEAL = "0: play JS; 1: play 7S; 2: reveal"


# -- on reveal (standard) ---------------------------------------------------------------------
@pytest.mark.parametrize(("bid", "target"), [(16, 20), (24, 28), (26, 28), (28, 28)])
def test_opponents_pair_raises_the_target_on_reveal(bid: int, target: int) -> None:
    st, _ = to_play(STANDARD, DEALER, PAIR, 0, bid, "H")
    assert st.target == bid
    st, ev = run(st, REVEAL)
    assert ev[-2:] == [TrumpShown(2, HEARTS, 1, -1), PairDeclared(3, target)]
    assert (st.target, st.pair_by) == (target, 3)


@pytest.mark.parametrize(("bid", "target"), [(24, 20), (20, 16), (18, 16), (16, 16)])
def test_bidders_team_pair_lowers_the_target_on_reveal(bid: int, target: int) -> None:
    st, _ = to_play(STANDARD, DEALER, PAIR, 3, bid, "H")
    st, ev = run(st, REVEAL)
    assert ev[-1] == PairDeclared(3, target)
    assert st.target == target


def test_no_pair_when_king_and_queen_are_split() -> None:
    st, _ = to_play(STANDARD, DEALER, PLAY, 0, 16, "H")  # KH with seat 3, QH with seat 1
    st, ev = run(st, REVEAL)
    assert not any(isinstance(e, PairDeclared) for e in ev)
    assert (st.target, st.pair_by) == (16, -1)


def test_no_pair_once_one_of_the_cards_is_played() -> None:
    st, _ = to_play(STANDARD, DEALER, PAIR, 0, 16, "H")
    st, ev = run(st, "0: play JS; 1: play 7S; 2: play JC; 3: play KH; 0: play 9S; 1: play 8S")
    st, ev = run(st, "2: reveal")
    assert ev == [TrumpShown(2, HEARTS, 2, -1)]
    assert st.target == 16


def test_pair_on_reveal_needs_no_action() -> None:
    st, _ = to_play(STANDARD, DEALER, PAIR, 0, 16, "H")
    st, _ = run(st, REVEAL)
    assert to_act(st) == (2,)
    assert "pair" not in legal(st) | legal(st, 3)


# -- after a trick won (classic, arkadium, pagat, denexa) -------------------------------------
def classic_at(script: str):
    st, _ = to_play(preset("classic"), DEALER, PAIR, 0, 15, "H")
    st, ev = run(st, script)
    return st, ev


def test_pair_offered_after_the_holders_team_wins_a_trick() -> None:
    st, ev = classic_at(REVEAL + "; 2: play AH; 3: play 9H")
    assert not any(isinstance(e, PairDeclared) for e in ev)  # nothing on the reveal itself
    assert ev[-1] == TrickWon(1, 3, 3 + 1 + 2)
    assert to_act(st) == (3,)
    assert "pair" in legal(st, 3)
    st, ev = run(st, "3: pair")
    assert ev == [PairDeclared(3, 19)]
    assert (st.target, st.pair_by) == (19, 3)
    assert "pair" not in legal(st, 3)
    assert to_act(st) == (3,)  # the holder still leads


def test_pair_window_closes_with_the_next_card() -> None:
    st, _ = classic_at(REVEAL + "; 2: play AH; 3: play 9H")
    st, _ = run(st, "3: play 7D")
    assert st.pair_window == -1
    assert "pair" not in legal(st, 3)


def test_pair_window_opens_for_the_winners_partner() -> None:
    script = REVEAL + "; 2: play AH; 3: play 9H; 3: play 7D; 0: play 7C; 1: play JD; 2: play AD"
    st, ev = classic_at(script)
    assert ev[-1].winner == 1
    assert to_act(st) == (1, 3)
    assert legal(st, 3) == {"pair"}
    assert "pair" not in legal(st, 1)
    st, ev = run(st, "3: pair")
    assert ev == [PairDeclared(3, 19)]
    assert to_act(st) == (1,)


def test_no_pair_window_before_trump_is_shown() -> None:
    st, ev = classic_at("0: play 7H; 1: play 8H; 2: play TH; 3: play 9H")
    assert ev[-1].winner == 3 and not st.trump_shown
    assert st.pair_window == -1
    assert "pair" not in legal(st, 3)


def test_pair_declared_once_per_round() -> None:
    script = REVEAL + "; 2: play AH; 3: play 9H; 3: pair"
    script += "; 3: play 7D; 0: play 7C; 1: play JD; 2: play AD"
    st, ev = classic_at(script)
    assert ev[-1].winner == 1
    assert st.pair_window == -1
    assert to_act(st) == (1,)
    assert st.target == 19


def test_after_trick_won_pair_clamped_to_max_bid() -> None:
    script = "1: bid 26; 2: pass; 3: pass; 0: bid 27; 1: pass; 0: trump H"
    st, _ = play(preset("classic"), DEALER, PAIR, script)
    st, ev = run(st, REVEAL + "; 2: play AH; 3: play 9H; 3: pair")
    assert ev[-1] == PairDeclared(3, 29)


def test_after_trick_won_pair_clamped_to_min_bid() -> None:
    script = "1: pass; 2: pass; 3: bid 17; 0: pass; 3: trump H"
    st, _ = play(preset("classic"), DEALER, PAIR, script)
    assert (st.bidder, st.target) == (3, 17)
    st, ev = run(st, REVEAL + "; 2: play AH; 3: play 9H; 3: pair")
    assert ev[-1] == PairDeclared(3, 15)
    assert st.target == 15
