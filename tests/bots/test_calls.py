"""The expert's calls by search (``bots/calls.py``): sampled deals respect the cards held, the
calls heard weigh them sensibly, and the searched bids, trumps and doubles are legal and
follow the strength of the hand."""

from __future__ import annotations

import math
import random

import pytest

from tests.engine.helpers import mask
from twentynine.bots.calls import DD_BIAS, CallSearch, bid_by_search, call_weight, deal_sample
from twentynine.bots.expert import ExpertBot
from twentynine.engine import STANDARD, Act, apply, legal_actions, preset, start_round
from twentynine.engine.round import to_act
from twentynine.engine.views import view


def test_a_sampled_deal_gives_the_seat_its_cards_and_deals_the_rest_once() -> None:
    rng = random.Random(1)
    mine = mask("JH 9H AH TD")
    for _ in range(50):
        d = deal_sample(mine, mine, 2, rng)
        assert d.hands[2] & mine == mine and d.first[2] == mine
        assert sum(h.bit_count() for h in d.hands) == 32
        assert d.hands[0] | d.hands[1] | d.hands[2] | d.hands[3] == (1 << 32) - 1
        assert all(d.first[s] & d.hands[s] == d.first[s] for s in range(4))
        assert all(f.bit_count() == 4 for f in d.first)
        assert d.seventh >= 0 and d.hands[2] >> d.seventh & 1 and not mine >> d.seventh & 1


def _first(strong: str, seat: int) -> tuple[int, int, int, int]:
    firsts = [mask("7S 8S 7D 8D"), mask("7C 8C QC KC"), mask("QS KS QD KD"), mask("QH KH 7H 8H")]
    firsts[seat] = mask(strong)
    return (firsts[0], firsts[1], firsts[2], firsts[3])


def test_a_bid_is_likelier_with_strong_cards_and_a_pass_with_weak() -> None:
    rules = STANDARD
    strong, weak = "JS 9S AS TS", "7C 8D QH KD"
    bid = ((1, 18),)
    assert call_weight(bid, _first(strong, 1), 0, rules) > 3 * call_weight(
        bid, _first(weak, 1), 0, rules
    )
    passed = ((1, 0),)
    assert call_weight(passed, _first(weak, 1), 0, rules) > 3 * call_weight(
        passed, _first(strong, 1), 0, rules
    )
    # our own calls tell us nothing new
    assert call_weight(((0, 18),), _first(weak, 0), 0, rules) == 1.0


def test_a_forced_opening_says_nothing() -> None:
    rules = preset("bhoos")  # the first hand may not pass
    opening = ((0, 16),)
    assert call_weight(opening, _first("7C 8D QH KD", 0), 2, rules) == 1.0
    assert call_weight(((0, 20),), _first("7C 8D QH KD", 0), 2, rules) < 0.5


def _auction_view(rules, deck, dealer):  # type: ignore[no-untyped-def]
    st, _ = start_round(rules, dealer, deck)
    return st, view(st, to_act(st)[0])


@pytest.mark.parametrize("name", ["standard", "bhoos"])
def test_searched_calls_are_legal_through_whole_auctions(name: str) -> None:
    rules = preset(name)
    rng = random.Random(name)
    for n in range(4):
        deck = list(range(32))
        rng.shuffle(deck)
        st, _ = start_round(rules, n % 4, deck)
        bots = [ExpertBot(10 * n + s, worlds=6) for s in range(4)]
        while st.phase.name in ("AUCTION", "TRUMP", "DOUBLING"):
            seat = to_act(st)[0]
            v = view(st, seat)
            action = bots[seat].choose(v)
            assert action in v.legal
            st, _ = apply(st, action)


def _opening_view(hand: str):  # type: ignore[no-untyped-def]
    """The first hand's opening call (dealer 3) holding ``hand`` as its first four cards."""
    own = mask(hand)
    rest = [c for c in range(32) if not own >> c & 1]
    deck = [c for c in range(32) if own >> c & 1] + rest
    st, _ = start_round(STANDARD, 3, deck)
    return view(st, 0)


def test_a_strong_hand_opens_and_a_weak_one_passes() -> None:
    search = CallSearch(random.Random(4), max_samples=24)
    strong = bid_by_search(_opening_view("JS 9S AS TS"), search, math.inf)
    assert strong is not None and strong.act is Act.BID
    search = CallSearch(random.Random(4), max_samples=24)
    weak = bid_by_search(_opening_view("7C 8D QH TH"), search, math.inf)
    assert weak is not None and weak.act is Act.PASS


def test_the_calibrated_bidder_passes_what_the_solvers_optimism_would_open() -> None:
    """Jack of clubs, Ace-eight of hearts, Ace of spades: the solved samples make 16 more
    often than not when every card is seen, but not with ``DD_BIAS`` points to spare, so the
    calibrated expert passes where the uncalibrated one opens; a strong hand still opens."""
    hand = "JC AH 8H AS"
    bold = bid_by_search(_opening_view(hand), CallSearch(random.Random(4), 24), math.inf)
    assert bold is not None and bold.act is Act.BID
    calibrated = CallSearch(random.Random(4), 24, bias=DD_BIAS)
    careful = bid_by_search(_opening_view(hand), calibrated, math.inf)
    assert careful is not None and careful.act is Act.PASS
    strong = bid_by_search(
        _opening_view("JS 9S AS TS"), CallSearch(random.Random(4), 24, bias=DD_BIAS), math.inf
    )
    assert strong is not None and strong.act is Act.BID


def test_too_little_time_leaves_the_call_to_the_rules_of_thumb() -> None:
    search = CallSearch(random.Random(4))
    assert bid_by_search(_opening_view("JS 9S AS TS"), search, 0.0) is None
    # and the expert still answers, legally
    v = _opening_view("JS 9S AS TS")
    bot = ExpertBot(3, budget_ms=0.001)
    assert bot.choose(v) in v.legal


def test_the_calls_ignore_cards_they_cannot_see() -> None:
    """Two deals differing only in cards of other seats give the same view, and the searched
    call is the same in both (the samples come from the view alone)."""
    rng = random.Random(8)
    for _ in range(4):
        deck = list(range(32))
        rng.shuffle(deck)
        twin = list(deck)
        twin[4], twin[8] = twin[8], twin[4]  # seats 1 and 2 swap a card of their first four
        st, _ = start_round(STANDARD, 3, deck)
        st2, _ = start_round(STANDARD, 3, twin)
        v1, v2 = view(st, 0), view(st2, 0)
        assert v1 == v2 and legal_actions(st) == legal_actions(st2)
        assert ExpertBot(5, worlds=8).choose(v1) == ExpertBot(5, worlds=8).choose(v2)


def test_single_hand_odds_follow_the_cards() -> None:
    """Eight top cards take every trick in every sample; a hand with a bare low card in a
    suit the others hold does not."""
    from twentynine.bots.calls import single_hand_odds

    rules = STANDARD
    rng = random.Random(2)
    sure = mask("JS 9S AS TS KS QS 8S 7S")  # every spade: nobody else can follow
    risky = mask("JS 9S AS TS KS QS 8S 7H")
    for hand, lo, hi in ((sure, 1.0, 1.0), (risky, 0.0, 0.7)):
        deals = [deal_sample(hand & 0xF0F0F0F0 or hand, hand, 0, rng) for _ in range(12)]
        odds = single_hand_odds(deals, 0, rules, math.inf)
        assert lo <= odds <= hi, (hand, odds)


def test_expert_calls_single_hand_and_redoubles_only_when_legal() -> None:
    """Whole deals under the standard rules: every call the expert makes in the seventh-card
    Redouble and Single Hand phases is legal."""
    rng = random.Random(12)
    seen = set()
    for n in range(30):
        deck = list(range(32))
        rng.shuffle(deck)
        st, _ = start_round(STANDARD, n % 4, deck)
        bots = [ExpertBot(7 * n + s, worlds=6) for s in range(4)]
        while st.phase.name != "PLAY" and not st.is_over:
            seat = to_act(st)[0]
            v = view(st, seat)
            action = bots[seat].choose(v)
            assert action in v.legal
            seen.add(st.phase.name)
            st, _ = apply(st, action)
    assert "SINGLE_HAND" in seen
