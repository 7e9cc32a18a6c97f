"""Bidding over a forced opening only when the search agrees (``expert-takeover``,
``expert-overforced``: ``ExpertBot(takeover_by_search=...)``)."""

from __future__ import annotations

from tests.bots.test_contest import around
from tests.engine.helpers import play
from twentynine.bots import expert_bot
from twentynine.engine import Act, preset
from twentynine.engine.views import View, view

# the dealer is 3, so seat 0 is the first hand and must open at 16 under the bhoos preset
#: the first four: two Jacks of two suits and nothing long, which help whichever trump the
#: partner names: the rules take the forced 16 over at 17, the search leaves it to the partner
SPREAD = "JS TD 8D JH AC QS 7C AH"
#: the first four: four clubs with the Jack, a trump of its own: both take it over
CLUBS = "AC QC JC TC TS 8S AS 9D"


def _after(calls: str, hand: str, seat: int) -> View:
    st, _ = play(preset("bhoos"), 3, around(hand, seat), calls)
    v = view(st, seat)
    assert v.viewer == seat
    return v


def _partner_view(hand: str) -> View:
    """Seat 2, the first hand's partner, after its forced 16 and the next seat's pass."""
    return _after("0: bid 16; 1: pass", hand, 2)


def test_a_partners_forced_opening_is_taken_over_only_when_the_search_agrees() -> None:
    for hand, search_bids in ((SPREAD, False), (CLUBS, True)):
        v = _partner_view(hand)
        for seed in (1, 2, 3):
            assert expert_bot(seed, worlds=48).choose(v).act is Act.BID  # the rules bid 17
            call = expert_bot(seed, worlds=48, takeover_by_search=True).choose(v)
            assert call.act is (Act.BID if search_bids else Act.PASS), (hand, seed)
            if search_bids:
                assert call.arg == 17


def test_only_a_bid_the_rules_make_is_searched() -> None:
    """Where the rules pass, the variant passes too (the search only turns bids down), and
    the rest of the auction is the rules' alone."""
    weak = "7S 8H 7D 8C QS 8S 9D KD"
    v = _partner_view(weak)
    assert expert_bot(1, worlds=48).choose(v).act is Act.PASS
    assert expert_bot(1, worlds=48, takeover_by_search=True).choose(v).act is Act.PASS
    # not over a forced opening (seat 0 answering its challenger): the rules' call, unsearched
    v = _after("0: bid 16; 1: bid 17", SPREAD, 0)
    plain = expert_bot(1, worlds=48).choose(v)
    assert expert_bot(1, worlds=48, takeover_by_search="any").choose(v) == plain


#: a Jack, an Ace and two low cards of three suits: the rules challenge the other side's forced
#: 16 at 17, the search lets it stand
LOOSE = "JS QD AC 7D TD 9C 9S TH"


def test_an_opponents_forced_opening_is_searched_only_with_any() -> None:
    v = _after("0: bid 16", LOOSE, 1)
    plain = expert_bot(1, worlds=48).choose(v)
    assert plain.act is Act.BID  # the rules challenge at 17
    assert expert_bot(1, worlds=48, takeover_by_search=True).choose(v) == plain
    calls = {expert_bot(s, worlds=48, takeover_by_search="any").choose(v).act for s in (1, 2, 3)}
    assert calls == {Act.PASS}
