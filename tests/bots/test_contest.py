"""Bidding on in a contest by the fitted gain (``expert-gain``, ``evaluate.contest_gain``)."""

from __future__ import annotations

from tests.engine.helpers import play
from twentynine.bots import make_bot
from twentynine.bots.bidding import contest_role, real_partner_bid
from twentynine.bots.evaluate import CONTEST_GAIN_1, CONTEST_GAIN_2, contest_gain
from twentynine.engine import Act, preset
from twentynine.engine.cards import card_code, parse_card
from twentynine.engine.views import view


def mask(cards: str) -> int:
    return sum(1 << parse_card(c) for c in cards.split())


def around(hand: str, seat: int = 1) -> dict[int, str]:
    """Every seat's eight cards: ``hand`` for ``seat``, the other cards in order for the rest
    (the calls here are scripted or seen from ``seat``, which sees only its own cards)."""
    rest = [code for code in (card_code(c) for c in range(32)) if code not in hand.split()]
    others = [s for s in range(4) if s != seat]
    return {seat: hand, **{s: " ".join(rest[8 * i : 8 * i + 8]) for i, s in enumerate(others)}}


# the dealer is 3, so seat 0 is the first hand and must open at 16 under the bhoos preset
#: the first four: two Jacks and a Nine, strength that beats the other side's contract about
#: as often as it makes ours (the expert bids 18 on them, expert-gain passes)
JACKS = "JH TD 9D JC 9C 7S AS 7D"
#: the first four: three low clubs (the expert passes, expert-gain bids 18)
CLUBS = "7H KC 7C 9C JD 9H JH 8H"


def _challenger_view(first_four_and_rest: str, seat: int = 1):  # type: ignore[no-untyped-def]
    """Seat 1 after the first hand's forced 16, its own 17 and the first hand's match of it:
    bid 18 or pass against a real bid."""
    st, _ = play(
        preset("bhoos"), 3, around(first_four_and_rest, seat), "0: bid 16; 1: bid 17; 0: bid 17"
    )
    return view(st, seat)


def test_a_contest_is_the_other_sides_real_bid_met_by_a_challenger_or_a_holder() -> None:
    bhoos = preset("bhoos")
    hands = around(JACKS)
    st, _ = play(bhoos, 3, hands, "0: bid 16")
    assert contest_role(view(st, 1), 1) is None  # the forced opening says nothing
    st, _ = play(bhoos, 3, hands, "0: bid 16; 1: bid 17")
    assert contest_role(view(st, 0), 0) == "holder"
    st, _ = play(bhoos, 3, hands, "0: bid 16; 1: bid 17; 0: bid 17")
    assert contest_role(view(st, 1), 1) == "challenger"
    # the partner holds the bid: not this seat's contest
    st, _ = play(bhoos, 3, hands, "0: bid 16; 1: bid 17; 0: bid 17; 1: bid 18; 0: pass; 2: pass")
    v = view(st, 3)
    assert v.holder == 1 and contest_role(v, 3) is None
    assert real_partner_bid(v, 3) == 18
    assert real_partner_bid(view(st, 2), 2) == 17  # seat 0's match counts, its forced 16 not
    st, _ = play(bhoos, 3, hands, "0: bid 16; 1: bid 17; 0: pass")
    assert real_partner_bid(view(st, 2), 2) == 0  # it passed; its 16 was forced


def test_the_gain_counts_defence_against_making_the_bid() -> None:
    """Jacks and Nines count less for bidding on than the points they add (they beat the
    other side's contract too); a higher bid gains less; a partner's bid or holding the bid
    already makes bidding on worth less."""
    for weights in (CONTEST_GAIN_1, CONTEST_GAIN_2):
        jacks, clubs = mask("JH TD 9D JC"), mask("7H KC 7C 9C")
        assert contest_gain(jacks, False, 18, -1, weights) < 0
        assert contest_gain(clubs, False, 18, -1, weights) > contest_gain(
            jacks, False, 18, -1, weights
        )
        for hand in (jacks, clubs, mask("JS 9S AS TS")):
            g18 = contest_gain(hand, False, 18, -1, weights)
            assert contest_gain(hand, False, 19, -1, weights) < g18
            assert contest_gain(hand, True, 18, -1, weights) < g18
            assert contest_gain(hand, False, 18, 17, weights) < g18


def test_expert_gain_bids_on_in_a_contest_by_the_gain() -> None:
    for hand, expert_bids in ((JACKS, True), (CLUBS, False)):
        v = _challenger_view(hand)
        old = make_bot("expert", 1).choose(v)
        new = make_bot("expert-gain", 1).choose(v)
        assert (old.act is Act.BID) == expert_bids
        assert (new.act is Act.BID) != expert_bids
        for bid in (old, new):
            assert bid.act is Act.PASS or bid.arg == 18


def test_outside_a_contest_expert_gain_calls_as_the_expert() -> None:
    """Over the forced opening (no contest yet) and naming trump, its calls are the expert's."""
    bhoos = preset("bhoos")
    for hand in (JACKS, CLUBS, "JS 9S AS TS 7H 8H QS KS"):
        hands = around(hand)
        st, _ = play(bhoos, 3, hands, "0: bid 16")
        v = view(st, 1)
        assert make_bot("expert-gain", 1).choose(v) == make_bot("expert", 1).choose(v)
    hands = around(JACKS)
    st, _ = play(bhoos, 3, hands, "0: bid 16; 1: pass; 2: pass; 3: pass")
    v = view(st, 0)
    assert make_bot("expert-gain", 1).choose(v) == make_bot("expert", 1).choose(v)
