"""The auction played forward (``bots/foresight.py``): the deals it keeps fit every call heard,
each seat's model calls as it says, and the expert calling so stays legal."""

from __future__ import annotations

import random

import pytest

from tests.engine.helpers import mask
from twentynine.bots import make_bot
from twentynine.bots.calls import Deal
from twentynine.bots.expert import ExpertBot
from twentynine.bots.foresight import CALIBRATED, Foresight, deck_of, length_call, length_trump
from twentynine.engine import Act, preset, start_round
from twentynine.engine.round import apply, legal_actions, to_act
from twentynine.engine.state import team_of
from twentynine.engine.views import view

BHOOS = preset("bhoos")


def _deal(fours: list[str], rest: list[str]) -> Deal:
    first = tuple(mask(f) for f in fours)
    hands = tuple(mask(f) | mask(r) for f, r in zip(fours, rest, strict=True))
    return Deal(first, hands)  # type: ignore[arg-type]


# seat 1 is the first hand when seat 0 deals (bhoos deals counter-clockwise: the engine says
# which seat is first; the deck follows it)
FOURS = ["7C 8C 7D 8D", "JH 9H AH TD", "QC KC QD KD", "7S 8S QS KS"]
REST = ["9C AC 9D AD", "TH KH QH 8H", "JC TC JD 7H", "JS 9S AS TS"]


def test_the_pack_deals_each_seat_its_first_four_and_its_eight() -> None:
    deal = _deal(FOURS, REST)
    for dealer in range(4):
        fh = _first_two(dealer)[0]
        st, _ = start_round(BHOOS, dealer, deck_of(deal, fh))
        for s in range(4):
            assert st.first_batch(s) == deal.first[s]
            assert st.hands[s] == deal.first[s]
            assert st.first_batch(s) | st.second_batch(s) == deal.hands[s]


def test_the_length_caller_bids_the_least_within_its_reach() -> None:
    deal = _deal(FOURS, REST)
    fh = _first_two(0)[0]
    st, _ = start_round(BHOOS, 0, deck_of(deal, fh))
    # the first hand must bid: the least bid, whatever its cards
    first = length_call(view(st, fh))
    assert first.act is Act.BID and first.arg == 16
    st, _ = apply(st, first)
    seat = to_act(st)[0]
    call = length_call(view(st, seat))
    reach = {0: 16, 1: 18, 2: 16, 3: 22}[seat]  # the longest suits of FOURS: 2, 3, 2, 4
    assert (call.act is Act.BID and call.arg == 17) == (reach >= 17)


def test_the_length_caller_names_its_longest_suit_the_first_of_equals() -> None:
    assert length_trump(mask("JH 9H AH TD")) == 2
    assert length_trump(mask("7C 8C QH KH")) == 0
    assert length_trump(mask("7S 8S QS KS")) == 3


def _first_two(dealer: int) -> tuple[int, int]:
    """The first hand and the seat that speaks after its opening."""
    st, _ = start_round(BHOOS, dealer, tuple(range(32)))
    fh = st.first_hand
    st, _ = apply(st, next(a for a in legal_actions(st, fh) if a.act is Act.BID))
    return fh, to_act(st)[0]


def _deal_by_seat(fours: dict[int, str], rest: dict[int, str]) -> Deal:
    return _deal([fours[s] for s in range(4)], [rest[s] for s in range(4)])


def _view_after(deal: Deal, dealer: int, bids: list[int]) -> object:
    st, _ = start_round(BHOOS, dealer, deck_of(deal, _first_two(dealer)[0]))
    for bid in bids:
        s = to_act(st)[0]
        a = next(
            a
            for a in legal_actions(st, s)
            if (a.act is Act.PASS and not bid) or (a.act is Act.BID and a.arg == bid)
        )
        st, _ = apply(st, a)
    return view(st, to_act(st)[0])


# the first hand's forced 16, then the next seat's 17: the first hand (``me``) answers
FH, SECOND = _first_two(0)
FOURS_BY = {FH: "QC KC QD KD", SECOND: "JH 9H AH TD", (SECOND + 2) & 3: "7S 8S QS KS"}
REST_BY = {FH: "JC TC JD 7H", SECOND: "TH KH QH 8H", (SECOND + 2) & 3: "JS 9S AS TS"}
FOURS_BY[(FH + 2) & 3] = "7C 8C 7D 8D"
REST_BY[(FH + 2) & 3] = "9C AC 9D AD"


def test_a_deal_that_does_not_fit_a_call_heard_is_left_out() -> None:
    seer = Foresight(ExpertBot(1, calls="rules"), random.Random(1))
    long = _deal_by_seat(FOURS_BY, REST_BY)
    v = _view_after(long, 0, [16, 17])
    assert v.viewer == FH  # type: ignore[attr-defined]
    assert seer._fits(v, long, FH)  # type: ignore[arg-type]
    assert seer._replayed(v, long, FH) is not None  # type: ignore[arg-type]
    # the challenger with no three of a suit: a length caller would have passed
    fours = dict(FOURS_BY)
    fours[SECOND], fours[(SECOND + 2) & 3] = "JH KS AH TD", "7S 8S QS 9H"
    flat = _deal_by_seat(fours, REST_BY)
    assert not seer._fits(v, flat, FH)  # type: ignore[arg-type]
    assert seer._replayed(v, flat, FH) is None  # type: ignore[arg-type]
    # a model of the opponents by the rules reads the challenge otherwise
    by_rules = Foresight(ExpertBot(1, calls="rules"), random.Random(1), opponents="rules")
    assert by_rules._fits(v, flat, FH)  # type: ignore[arg-type]


def test_the_auction_is_played_on_to_its_contract() -> None:
    seer = Foresight(ExpertBot(1, calls="rules"), random.Random(1))
    deal = _deal_by_seat(FOURS_BY, REST_BY)
    v = _view_after(deal, 0, [16, 17])
    st = seer._replayed(v, deal, FH)  # type: ignore[arg-type]
    assert st is not None
    passing = next(a for a in v.legal if a.act is Act.PASS)  # type: ignore[attr-defined]
    contract = seer._played_on(st, passing, FH)
    assert contract is not None
    bidder, bid, trump = contract
    # the holder lets it go: the challenger's side plays 17 or more (its partner, spades four
    # long, goes on over it); a length caller names its longest suit
    assert team_of(bidder) == team_of(SECOND) and bid >= 17
    assert trump == (2 if bidder == SECOND else 3)
    # its value: the solver's points for the bidder's team against the bid
    made = deal.solved(BHOOS, FH, bidder, trump) + seer.theirs_shift >= bid
    assert seer._value(deal, BHOOS, FH, FH, contract) == (-1.0 if made else 1.0)
    # matching instead keeps the contract ours (the challenger's reach is 18: it goes on)
    match = next(a for a in v.legal if a.act is Act.BID)  # type: ignore[attr-defined]
    again = seer._played_on(st, match, FH)
    assert again is not None and again[1] >= 17


def test_the_expert_calling_by_foresight_stays_legal_and_searches() -> None:
    rng = random.Random(4)
    bot = make_bot("expert-foresight", 2)
    assert isinstance(bot, ExpertBot) and bot.foresight is not None
    bot.budget_ms = 250
    for g in range(6):
        deck = list(range(32))
        rng.shuffle(deck)
        st, _ = start_round(BHOOS, g % 4, tuple(deck))
        while st.phase.name == "AUCTION":
            seat = to_act(st)[0]
            a = bot.choose(view(st, seat))
            assert a in legal_actions(st, seat)
            st, _ = apply(st, a)
    assert bot.foresight.searched > 0


def test_an_unknown_opponents_model_is_refused() -> None:
    with pytest.raises(ValueError, match="opponents"):
        Foresight(ExpertBot(1), random.Random(1), opponents="shape")


def test_the_trump_is_the_suit_the_contract_is_made_with_most() -> None:
    seer = Foresight(ExpertBot(1, calls="rules"), random.Random(3), margin=0.0)
    fours = dict(FOURS_BY)
    rest = dict(REST_BY)
    # the first hand holds the four best hearts: the auction ends with its forced 16
    fours[FH], fours[SECOND] = "JH 9H AH TH", "QC KC QD KD"
    rest[FH], rest[SECOND] = "JC TC JD 7H", "TD KH QH 8H"
    deal = _deal_by_seat(fours, rest)
    st, _ = start_round(BHOOS, 0, deck_of(deal, FH))
    while st.phase.name == "AUCTION":
        s = to_act(st)[0]
        st, _ = apply(st, min(legal_actions(st, s), key=lambda a: (a.act is Act.BID, a.arg)))
    assert st.phase.name == "TRUMP" and st.bidder == FH
    v = view(st, FH)
    pick = seer.trump(v, float("inf"))
    assert pick is not None and pick in v.legal
    assert pick.act is Act.TRUMP_SUIT and pick.arg == 2
    assert seer.searched == 1 and seer.last_deals >= 8


def test_a_contract_counts_as_made_by_its_side_s_shift() -> None:
    hard = Foresight(ExpertBot(1), random.Random(1), ours_shift=2.0, theirs_shift=-1.0)
    assert hard.made(15, 17, ours=True) == 1.0  # ours: two points short still made
    assert hard.made(14, 17, ours=True) == 0.0
    assert hard.made(17, 17, ours=False) == 0.0  # theirs: a point to spare needed
    assert hard.made(18, 17, ours=False) == 1.0
    soft = Foresight(ExpertBot(1), random.Random(1), "length", *CALIBRATED)
    assert soft.made(15, 17, ours=True) == pytest.approx(0.5)
    assert soft.made(17, 17, ours=True) > 0.8 > soft.made(17, 17, ours=False) > 0.3
    assert (
        soft.made(13, 17, ours=True) < soft.made(15, 17, ours=True) < soft.made(19, 17, ours=True)
    )
