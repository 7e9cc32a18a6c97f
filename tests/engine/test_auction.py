"""RULES.md §3: the duel, open and first-forced auctions, and all-pass."""

from __future__ import annotations

import pytest

from tests.engine.deals import DEALER, PLAY
from tests.engine.helpers import assert_illegal, legal, play, run, start
from twentynine.engine import STANDARD, Phase, house_rules, preset, to_act
from twentynine.engine.events import AuctionWon, BidMade, Passed, RoundEnded, RoundInvalid


def bids(low: int, high: int) -> set[str]:
    return {f"bid {v}" for v in range(low, high + 1)}


def speakers_of(script: str) -> list[int]:
    return [int(line.split(":")[0]) for line in script.split(";")]


# -- duel (standard, pagat, bhoos) ------------------------------------------------------------
def test_duel_first_speaker_may_bid_min_to_max_or_pass() -> None:
    st, _ = start(STANDARD, DEALER, PLAY)
    assert st.phase is Phase.AUCTION
    assert to_act(st) == (0,)
    assert legal(st) == bids(16, 28) | {"pass"}


def test_duel_holder_matches_and_challenger_must_go_higher() -> None:
    st, _ = play(STANDARD, DEALER, PLAY, "0: bid 16; 1: bid 17")
    assert (st.holder, st.speaker, st.bid) == (0, 0, 17)
    assert legal(st, 0) == {"bid 17", "pass"}  # the holder may only match or pass
    st, _ = run(st, "0: bid 17")
    assert (st.holder, st.speaker, st.bid) == (0, 1, 17)
    assert legal(st, 1) == bids(18, 28) | {"pass"}


def test_duel_full_auction() -> None:
    script = "0: bid 16; 1: bid 17; 0: bid 17; 1: bid 18; 0: pass; 2: bid 19; 1: bid 19; 2: pass"
    st, _ = play(STANDARD, DEALER, PLAY, script)
    assert (st.holder, st.speaker, st.bid) == (1, 3, 19)  # seat 3 challenges last
    assert legal(st) == bids(20, 28) | {"pass"}
    st, more = run(st, "3: pass")
    assert st.phase is Phase.TRUMP
    assert (st.bidder, st.bid, st.target) == (1, 19, 19)
    assert more[-1] == AuctionWon(1, 19, False)
    assert to_act(st) == (1,)
    assert st.calls == (
        (0, 16),
        (1, 17),
        (0, 17),
        (1, 18),
        (0, 0),
        (2, 19),
        (1, 19),
        (2, 0),
        (3, 0),
    )


def test_duel_holder_passing_hands_the_bid_to_the_challenger() -> None:
    st, ev = play(STANDARD, DEALER, PLAY, "0: bid 16; 1: bid 18; 0: pass")
    assert (st.holder, st.bid, st.speaker) == (1, 18, 2)
    assert Passed(0, "auction") in ev
    st, _ = run(st, "2: pass; 3: pass")
    assert (st.bidder, st.bid) == (1, 18)


def test_duel_a_passed_player_is_out_for_good() -> None:
    script = "0: pass; 1: bid 16; 2: bid 17; 1: bid 17; 2: pass; 3: bid 18; 1: pass"
    st, ev = play(STANDARD, DEALER, PLAY, script)
    spoke = [e.seat for e in ev if isinstance(e, BidMade | Passed)]
    assert spoke == speakers_of(script)
    assert spoke.count(0) == 1
    assert st.phase is Phase.TRUMP
    assert (st.bidder, st.bid) == (3, 18)


def test_duel_at_max_bid_the_challenger_can_only_pass() -> None:
    st, _ = play(STANDARD, DEALER, PLAY, "0: bid 16; 1: bid 28")
    assert legal(st, 0) == {"bid 28", "pass"}
    st, _ = run(st, "0: bid 28")
    assert legal(st, 1) == {"pass"}
    st, _ = run(st, "1: pass")
    assert legal(st, 2) == {"pass"}
    st, _ = run(st, "2: pass; 3: pass")
    assert (st.bidder, st.bid) == (0, 28)


def test_duel_bids_outside_the_range_are_refused() -> None:
    st, _ = start(STANDARD, DEALER, PLAY)
    assert_illegal(st, "0: bid 15", "bad_bid")
    assert_illegal(st, "0: bid 29", "bad_bid")
    st, _ = run(st, "0: bid 20")
    assert_illegal(st, "1: bid 20", "bad_bid")
    assert_illegal(st, "1: bid 19", "bad_bid")


@pytest.mark.parametrize("name", ["standard", "pagat"])
def test_all_four_pass_is_a_redeal(name: str) -> None:
    st, ev = play(preset(name), DEALER, PLAY, "0: pass; 1: pass; 2: pass; 3: pass")
    assert st.phase is Phase.OVER
    assert (st.outcome, st.reason, st.score_delta) == ("invalid", "all_passed", (0, 0))
    assert ev[-2:] == [RoundInvalid("all_passed"), RoundEnded("invalid", False, (0, 0))]


# -- open (arkadium, denexa) ------------------------------------------------------------------
@pytest.mark.parametrize("name", ["arkadium", "denexa"])
def test_open_auction_ends_when_three_have_passed(name: str) -> None:
    rules = preset(name)
    st, _ = start(rules, DEALER, PLAY)
    assert legal(st) == bids(15, 28) | {"pass"}
    script = "0: bid 15; 1: bid 16; 2: pass; 3: pass; 0: bid 17"
    st, ev = run(st, script)
    assert legal(st) == bids(18, 28) | {"pass"}  # seat 1 speaks next: 2 and 3 are out
    st, more = run(st, "1: pass")
    assert st.phase is Phase.TRUMP
    assert (st.bidder, st.bid) == (0, 17)
    assert more[-1] == AuctionWon(0, 17, False)
    spoke = [e.seat for e in ev + more if isinstance(e, BidMade | Passed)]
    assert spoke == [0, 1, 2, 3, 0, 1]


def test_open_auction_must_bid_higher() -> None:
    st, _ = play(preset("arkadium"), DEALER, PLAY, "0: bid 17")
    assert_illegal(st, "1: bid 17", "bad_bid")
    assert_illegal(st, "1: bid 16", "bad_bid")


def test_open_auction_ends_at_max_bid() -> None:
    st, ev = play(preset("arkadium"), DEALER, PLAY, "0: bid 15; 1: bid 28")
    assert st.phase is Phase.TRUMP
    assert (st.bidder, st.bid) == (1, 28)
    assert not any(isinstance(e, BidMade | Passed) and e.seat in (2, 3) for e in ev)


@pytest.mark.parametrize("name", ["arkadium", "denexa"])
def test_open_all_pass_forces_the_dealer_to_the_minimum(name: str) -> None:
    """The seeds: when the first three pass, the dealer is made to bid the minimum (and the
    engine does not ask the dealer: the bid is at the minimum)."""
    st, ev = play(preset(name), DEALER, PLAY, "0: pass; 1: pass; 2: pass")
    assert st.phase is Phase.TRUMP
    assert (st.bidder, st.bid, st.target) == (DEALER, 15, 15)
    assert ev[-2:] == [BidMade(DEALER, 15), AuctionWon(DEALER, 15, True)]


def test_open_all_pass_with_redeal_option() -> None:
    rules = house_rules("arkadium", {"all_pass": "redeal"})
    st, _ = play(rules, DEALER, PLAY, "0: pass; 1: pass; 2: pass")
    assert st.phase is Phase.AUCTION and to_act(st) == (3,)
    st, _ = run(st, "3: pass")
    assert (st.outcome, st.reason) == ("invalid", "all_passed")


# -- first forced (classic) -------------------------------------------------------------------
def test_first_forced_opens_at_the_minimum_for_the_first_hand() -> None:
    st, ev = start(preset("classic"), DEALER, PLAY)
    assert BidMade(0, 15) in ev
    assert (st.bid, st.holder) == (15, 0)
    assert to_act(st) == (1,)
    assert legal(st) == bids(16, 29) | {"pass"}  # higher than the forced opening, up to 29
    assert_illegal(st, "1: bid 15", "bad_bid")


def test_first_forced_ends_when_the_other_three_pass() -> None:
    st, ev = play(preset("classic"), DEALER, PLAY, "1: pass; 2: pass; 3: pass")
    assert st.phase is Phase.TRUMP
    assert (st.bidder, st.bid) == (0, 15)
    assert ev[-1] == AuctionWon(0, 15, False)


def test_first_forced_open_bidding_after_the_opening() -> None:
    st, _ = play(preset("classic"), DEALER, PLAY, "1: bid 16; 2: pass; 3: pass")
    assert to_act(st) == (0,)
    assert legal(st) == bids(17, 29) | {"pass"}
    st, _ = run(st, "0: bid 29")
    assert st.phase is Phase.TRUMP
    assert (st.bidder, st.bid) == (0, 29)


# -- the first hand must bid (bhoos) ----------------------------------------------------------
def test_first_bid_required_takes_pass_away_from_the_first_hand() -> None:
    st, _ = start(preset("bhoos"), DEALER, PLAY)
    assert legal(st) == bids(16, 28)
    assert_illegal(st, "0: pass", "not_allowed")
    st, _ = run(st, "0: bid 16")
    assert legal(st) == bids(17, 28) | {"pass"}
    st, _ = run(st, "1: pass; 2: pass; 3: pass")
    assert (st.bidder, st.bid) == (0, 16)


def test_standard_first_hand_may_pass() -> None:
    st, _ = start(STANDARD, DEALER, PLAY)
    st, ev = run(st, "0: pass")
    assert ev == [Passed(0, "auction")]
    assert to_act(st) == (1,)


# -- a challenged holder may raise (bhoos) ---------------------------------------------------
def test_bhoos_holder_may_answer_a_challenge_with_a_higher_bid() -> None:
    st, _ = play(preset("bhoos"), DEALER, PLAY, "0: bid 16; 1: bid 17")
    assert legal(st, 0) == bids(17, 28) | {"pass"}  # match, or more than the challenger
    st, ev = run(st, "0: bid 18")
    assert ev == [BidMade(0, 18)]
    assert (st.holder, st.speaker, st.bid) == (0, 1, 18)
    assert legal(st, 1) == bids(19, 28) | {"pass"}  # the challenger must beat the raise
    st, _ = run(st, "1: pass; 2: pass; 3: bid 28; 0: bid 28; 3: pass")
    assert (st.phase, st.bidder, st.bid) == (Phase.TRUMP, 0, 28)


def test_standard_holder_may_not_raise() -> None:
    st, _ = play(STANDARD, DEALER, PLAY, "0: bid 16; 1: bid 17")
    assert_illegal(st, "0: bid 18")
    rules = STANDARD.with_options(defender_may_raise=True)
    st, _ = play(rules, DEALER, PLAY, "0: bid 16; 1: bid 17; 0: bid 20")
    assert (st.holder, st.bid, st.speaker) == (0, 20, 1)
