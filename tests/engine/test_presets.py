"""RULES.md §9: each preset's options match its column of the table, and each preset shows
its distinctive behaviour on a fixed deal."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.deals import DEALER, LAST, PLAY
from tests.engine.helpers import autoplay, legal, play, playable, run, to_play
from twentynine.engine import PRESETS, Phase, parse_card, preset, to_act
from twentynine.engine.events import AuctionWon, BidMade, Dealt, PairDeclared, TrumpShown

# The §9 table, column by column ("–" entries are left out). The invalid-rules row names rules
# 1-7 of §8: 1 first_hand_no_points_redeal, 2 invalid_no_points, 3 invalid_team_without_trump,
# 5 invalid_trump_never_shown, 6 invalid_four_jacks, 7 invalid_all_one_suit (rule 4 is the
# seventh_card_invalid row).
TABLE: dict[str, dict[str, Any]] = {
    "standard": {  # 000
        "min_bid": 16,
        "max_bid": 28,
        "last_trick_point": False,
        "auction": "duel",
        "all_pass": "redeal",
        "first_hand_no_points_redeal": True,
        "trump_indicator": "outside_card",
        "seventh_card": True,
        "trump_reveal": "on_request",
        "must_trump_after_reveal": True,
        "bidder_leads_trump_before_reveal": True,
        "no_undertrump": False,
        "pair_timing": "on_reveal",
        "doubling": "setdouble",
        "single_hand": True,
        "all_tricks_bonus": True,
        "half_bid_penalty": False,
        "invalid_rules": {1, 2, 3, 5, 6},
        "seventh_card_invalid": "none",
        "early_finish": True,
        "game_end": "sets",
        "after_set": "keep_remainder",
        "direction": "counter_clockwise",
    },
    "classic": {  # 001
        "min_bid": 15,
        "max_bid": 29,
        "last_trick_point": True,
        "auction": "first_forced",
        "first_hand_no_points_redeal": False,
        "trump_indicator": "outside_card",
        "seventh_card": False,
        "trump_reveal": "forced_on_void",
        "must_trump_after_reveal": True,
        "bidder_leads_trump_before_reveal": True,
        "no_undertrump": False,
        "pair_timing": "after_trick_won",
        "doubling": "none",
        "single_hand": False,
        "all_tricks_bonus": False,
        "half_bid_penalty": False,
        "invalid_rules": set(),
        "early_finish": False,
        "game_end": "match_rounds",
        "direction": "counter_clockwise",
    },
    "arkadium": {  # 002
        "min_bid": 15,
        "max_bid": 28,
        "last_trick_point": True,
        "auction": "open",
        "all_pass": "dealer_forced_min",
        "first_hand_no_points_redeal": False,
        "trump_indicator": "outside_card",
        "seventh_card": True,
        "trump_reveal": "automatic",
        "must_trump_after_reveal": False,
        "bidder_leads_trump_before_reveal": True,
        "no_undertrump": False,
        "pair_timing": "after_trick_won",
        "doubling": "redouble",
        "single_hand": False,
        "all_tricks_bonus": False,
        "half_bid_penalty": False,
        "invalid_rules": set(),
        "seventh_card_invalid": "none",
        "early_finish": False,
        "game_end": "sets",
        "direction": "clockwise",
    },
    "pagat": {  # 003
        "min_bid": 16,
        "max_bid": 28,
        "last_trick_point": True,
        "auction": "duel",
        "all_pass": "redeal",
        "first_hand_no_points_redeal": True,
        "trump_indicator": "hand_card",
        "seventh_card": True,
        "trump_reveal": "on_request",
        "must_trump_after_reveal": True,
        "bidder_leads_trump_before_reveal": False,
        "no_undertrump": True,
        "pair_timing": "after_trick_won",
        "doubling": "redouble",
        "single_hand": True,
        "all_tricks_bonus": False,
        "half_bid_penalty": True,
        "invalid_rules": {1, 2, 6, 7},
        "seventh_card_invalid": "none",
        "early_finish": False,
        "game_end": "sets",
        "direction": "counter_clockwise",
    },
    "denexa": {  # 004
        "min_bid": 15,
        "max_bid": 28,
        "last_trick_point": False,
        "auction": "open",
        "all_pass": "dealer_forced_min",
        "first_hand_no_points_redeal": False,
        "trump_indicator": "outside_card",
        "seventh_card": False,
        "trump_reveal": "automatic",
        "must_trump_after_reveal": False,
        "bidder_leads_trump_before_reveal": True,
        "no_undertrump": False,
        "pair_timing": "after_trick_won",
        "doubling": "none",
        "single_hand": False,
        "all_tricks_bonus": False,
        "half_bid_penalty": False,
        "invalid_rules": set(),
        "early_finish": False,
        "game_end": "sets",
        "direction": "clockwise",
    },
}
#: not a column of the table: the game BHOOS-PROTOCOL.md describes
BHOOS: dict[str, Any] = {
    "min_bid": 16,
    "max_bid": 28,
    "last_trick_point": False,
    "auction": "duel",
    "first_bid_required": True,
    "seventh_card": False,
    "trump_reveal": "on_request",
    "must_trump_after_reveal": True,
    "overtrump_after_reveal": True,
    "pair_timing": "none",
    "doubling": "none",
    "single_hand": False,
    "invalid_trump_never_shown": True,
    "game_end": "match_rounds",
    "match_rounds": 1,
}
INVALID_RULE_OPTIONS = {
    1: "first_hand_no_points_redeal",
    2: "invalid_no_points",
    3: "invalid_team_without_trump",
    5: "invalid_trump_never_shown",
    6: "invalid_four_jacks",
    7: "invalid_all_one_suit",
}


def test_every_preset_is_tested() -> None:
    assert set(PRESETS) == {*TABLE, "bhoos"}


@pytest.mark.parametrize("name", list(TABLE))
def test_preset_matches_its_table_column(name: str) -> None:
    rules = preset(name)
    column = dict(TABLE[name])
    invalid = column.pop("invalid_rules")
    for option, value in column.items():
        assert getattr(rules, option) == value, option
    for number, option in INVALID_RULE_OPTIONS.items():
        assert getattr(rules, option) is (number in invalid), option
    # the host may pick a seventh-card rule only where there is a seventh card
    assert rules.seventh_card or rules.seventh_card_invalid == "none"
    assert rules.first_bid_required is False and rules.overtrump_after_reveal is False


def test_bhoos_preset_matches_the_protocol() -> None:
    rules = preset("bhoos")
    for option, value in BHOOS.items():
        assert getattr(rules, option) == value, option


# -- distinctive behaviour, one preset at a time ----------------------------------------------
def test_standard_setdouble_single_hand_and_early_finish() -> None:
    rules = preset("standard")
    script = "0: bid 28; 1: pass; 2: pass; 3: pass; 0: trump H"
    st, _ = play(rules, DEALER, PLAY, f"{script}; 1: double; 2: redouble; 3: setdouble")
    assert (st.double_level, st.current_stake) == (3, 6)
    assert st.phase is Phase.SINGLE_HAND and legal(st) == {"single_hand", "pass"}
    st, _ = run(st, "0: pass; 1: pass; 2: pass; 3: pass")
    st, _ = run(st, "0: play JS; 1: play 7S; 2: reveal; 2: play AH; 3: play 9H")
    assert (st.outcome, st.early, st.score_delta, len(st.tricks)) == ("lost", True, (-6, 0), 1)


def test_classic_forced_opening_forced_reveal_and_last_trick_point() -> None:
    rules = preset("classic")
    st, ev = play(rules, DEALER, PLAY, "1: pass; 2: pass; 3: pass")
    assert ev[:2] == [Dealt(1), BidMade(0, 15)]
    assert ev[-1] == AuctionWon(0, 15, False)
    assert legal(st) == {"trump C", "trump D", "trump H", "trump S"}
    st, ev = run(st, "0: trump H")
    assert Dealt(2) in ev and st.phase is Phase.PLAY  # no doubling, no Single Hand
    st, _ = run(st, "0: play JS; 1: play 7S")
    assert legal(st) == {"reveal"}
    st, _ = run(st, "2: reveal; 2: play TH; 3: play 8D")
    st, _ = autoplay(st)
    assert (len(st.tricks), sum(st.points), st.early) == (8, 29, False)


def test_arkadium_dealer_forced_seventh_card_automatic_reveal() -> None:
    rules = preset("arkadium")
    st, ev = play(rules, DEALER, PLAY, "0: pass; 1: pass; 2: pass")
    assert ev[-1] == AuctionWon(3, 15, True)
    assert "trump seventh" in legal(st)
    st, _ = run(st, "3: trump seventh; 0: double; 3: redouble")
    assert st.double_level == 2 and st.phase is Phase.PLAY  # Redouble is the last step
    assert st.indicator == st.seventh_card(3)
    st, ev = run(st, "0: play JS; 1: play 7S")
    kh = parse_card("KH")  # seat 3's 7th card
    assert ev[-1] == TrumpShown(2, 2, 1, kh)  # seat 2 cannot follow: shown at once
    assert playable(st, 2) == set(PLAY[2].split())  # and seat 2 need not trump


def test_pagat_hand_card_no_undertrump_and_half_bid_penalty() -> None:
    rules = preset("pagat")
    st, _ = play(rules, DEALER, PLAY, "0: bid 28; 1: pass; 2: pass; 3: pass")
    assert legal(st) == {"trump JS", "trump 9S", "trump AS", "trump JH", "trump seventh"}
    st, _ = run(st, "0: trump JH; 1: pass; 3: pass")
    assert st.phase is Phase.SINGLE_HAND
    st, _ = run(st, "0: pass; 1: pass; 2: pass; 3: pass")
    assert "JH" not in playable(st, 0)
    st, _ = run(st, "0: play JS; 1: play 7S; 2: reveal; 2: play TH")
    assert playable(st, 3) == {"KC", "KD", "QD", "8D", "7D", "9H"}  # no KH or 8H under TH
    st, _ = autoplay(st)
    assert st.outcome == "lost" and 2 * st.points[0] >= 28
    assert st.stake == 1
    st, _ = to_play(rules, DEALER, LAST, 1, 28, "seventh")
    st, _ = autoplay(st)
    assert 2 * st.points[1] < 28
    assert (st.outcome, st.stake, st.score_delta) == ("lost", 2, (0, -2))


def test_denexa_open_auction_no_doubling_automatic_reveal() -> None:
    rules = preset("denexa")
    st, ev = play(rules, DEALER, PLAY, "0: bid 15; 1: pass; 2: bid 20; 3: pass; 0: pass")
    assert ev[-1] == AuctionWon(2, 20, False)
    assert legal(st) == {"trump C", "trump D", "trump H", "trump S"}
    st, ev = run(st, "2: trump H")
    assert Dealt(2) in ev and st.phase is Phase.PLAY
    st, ev = run(st, "0: play JS; 1: play 7S")
    assert ev[-1] == TrumpShown(2, 2, 1, -1)
    assert playable(st, 2) == set(PLAY[2].split())


def test_bhoos_first_bid_required_no_pair_and_trump_never_shown_is_void() -> None:
    rules = preset("bhoos")
    pair = {**PLAY, 1: "KS QS 8S 7S JD 9D 8H QC", 3: "KC KD QD 8D 7D 9H KH QH"}
    st, _ = play(rules, DEALER, pair)
    assert "pass" not in legal(st)
    st, _ = to_play(rules, DEALER, pair, 0, 16, "H")
    st, ev = run(st, "0: play JS; 1: play 7S; 2: reveal; 2: play AH; 3: play 9H")
    assert ev[-1].winner == 3  # seat 3 holds KH and QH and its team won a trick after the reveal
    assert not any(isinstance(e, PairDeclared) for e in ev)
    assert "pair" not in legal(st, 3) and to_act(st) == (3,)
    st, _ = to_play(rules, DEALER, PLAY, 0, 16, "H")
    st, _ = autoplay(st)
    assert (st.outcome, st.reason) == ("invalid", "trump_never_shown")
