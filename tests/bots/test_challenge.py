"""Bidding over an opponent's forced opening by what it wins (``expert-challenge``)."""

from __future__ import annotations

from tests.engine.helpers import play
from twentynine.bots import make_bot
from twentynine.bots.bidding import contested, forced_opening
from twentynine.bots.evaluate import forced_challenge_gain
from twentynine.engine import Act, preset
from twentynine.engine.cards import parse_card
from twentynine.engine.views import view


def mask(cards: str) -> int:
    return sum(1 << parse_card(c) for c in cards.split())


# the first hand (seat 0, the dealer 3) must open at 16 under the bhoos preset; seat 1 is the
# first asked whether to bid over it
OTHERS = {
    0: "7C QC KC TC AC 9C JC 8D",
    2: "QD KD TD AD 9D JD 8H QH",
    3: "KH TH AH 9H KS TS AS 9S",
}
#: two Jacks and no length: 0.46 to make 17 by the rules (the expert bids), but the Jacks
#: beat the 16 about as often as they make the 17
JACKS = "JS JH 7D 8C 7S 8S QS 7H"
#: three low spades: 0.40 to make 17 by the rules (the expert passes), but nothing in them
#: defends the 16 and a long trump suit makes the 17
LENGTH = "7S 8S QS 7H JS JH 7D 8C"


def test_the_gain_weighs_defending_the_sixteen_against_making_seventeen() -> None:
    """Jacks count for defending the 16 about as much as for making 17; trump length counts
    only for the 17; a strong hand gains by bidding, a weak one by passing."""
    assert forced_challenge_gain(mask("JS JH 7D 8C")) < 0
    assert forced_challenge_gain(mask("7S 8S QS 7H")) > 0
    assert forced_challenge_gain(mask("7S 8S QS KS")) > forced_challenge_gain(mask("7S 8S QS 7H"))
    assert forced_challenge_gain(mask("JS 9S AS JH")) > 0
    assert forced_challenge_gain(mask("7S 8H QD KC")) < 0


def test_expert_challenge_bids_over_a_forced_opening_by_the_gain() -> None:
    """Over the first hand's forced 16 ``expert-challenge`` bids 17 with the long weak suit the
    expert passes, and passes the short Jacks the expert bids with."""
    bhoos = preset("bhoos")
    for hand, expert_bids in ((JACKS, True), (LENGTH, False)):
        st, _ = play(bhoos, 3, {**OTHERS, 1: hand}, "0: bid 16")
        v = view(st, 1)
        assert forced_opening(v)
        old = make_bot("expert", 1).choose(v)
        new = make_bot("expert-challenge", 1).choose(v)
        assert (old.act is Act.BID) == expert_bids
        assert (new.act is Act.BID) != expert_bids
        for bid in (old, new):
            assert bid.act is Act.PASS or bid.arg == 17


def test_the_last_seat_weighs_a_forced_opening_left_standing_alike() -> None:
    """Seat 3, asked after the first hand's partner passed, decides the same way."""
    bhoos = preset("bhoos")
    hands = {0: OTHERS[0], 1: OTHERS[2], 2: OTHERS[3], 3: LENGTH}
    st, _ = play(bhoos, 3, hands, "0: bid 16; 1: pass; 2: pass")
    v = view(st, 3)
    assert forced_opening(v)
    assert make_bot("expert", 1).choose(v).act is Act.PASS
    new = make_bot("expert-challenge", 1).choose(v)
    assert (new.act, new.arg) == (Act.BID, 17)


def test_an_opening_that_was_not_forced_is_left_to_the_rules() -> None:
    """Once an opponent bid of its own accord (the first hand matched a challenge), the rules'
    chance of making the bid decides, as for the expert."""
    bhoos = preset("bhoos")
    hands = {0: OTHERS[0], 1: OTHERS[2], 2: OTHERS[3], 3: JACKS}
    st, _ = play(bhoos, 3, hands, "0: bid 16; 1: bid 17; 0: bid 17; 1: pass; 2: pass")
    v = view(st, 3)
    assert not forced_opening(v)
    assert make_bot("expert-challenge", 1).choose(v) == make_bot("expert", 1).choose(v)


def test_the_chance_asked_over_a_forced_opening_moves_the_line() -> None:
    """``challenge_odds`` is the chance of making 17 a bid over an opponent's forced opening
    needs (the expert's: 0.45): at 0.65 the short Jacks (0.46) pass, at 0.35 the three low
    spades (0.40) bid."""
    bhoos = preset("bhoos")
    for hand, level in ((JACKS, "expert-ch65"), (LENGTH, "expert-ch35")):
        st, _ = play(bhoos, 3, {**OTHERS, 1: hand}, "0: bid 16")
        v = view(st, 1)
        old = make_bot("expert", 1).choose(v)
        new = make_bot(level, 1).choose(v)
        assert old.act is not new.act
        assert (new.act is Act.BID) == (level == "expert-ch35")


def test_a_contest_with_a_real_bid_asks_the_contest_odds() -> None:
    """``expert-contest`` bids on against a bid of the other side that the rules did not force
    only with a chance 0.6 of making it: the first hand whose forced 16 was challenged keeps
    the short Jacks (0.46 to make 17) out of the contest the expert enters with them."""
    bhoos = preset("bhoos")
    hands = {0: JACKS, 1: OTHERS[0], 2: OTHERS[2], 3: OTHERS[3]}
    st, _ = play(bhoos, 3, hands, "0: bid 16; 1: bid 17")
    v = view(st, 0)
    assert contested(v, 0)
    assert not contested(v, 1)  # its own side's forced opening is no contest
    old = make_bot("expert", 1).choose(v)
    new = make_bot("expert-contest", 1).choose(v)
    assert (old.act, old.arg) == (Act.BID, 17)
    assert new.act is Act.PASS


def test_a_forced_opening_alone_is_no_contest() -> None:
    """Over the forced 16 alone (it says nothing) ``expert-contest`` bids as the expert."""
    bhoos = preset("bhoos")
    st, _ = play(bhoos, 3, {**OTHERS, 1: JACKS}, "0: bid 16")
    v = view(st, 1)
    assert not contested(v, 1)
    new = make_bot("expert-contest", 1).choose(v)
    assert new == make_bot("expert", 1).choose(v)
    assert (new.act, new.arg) == (Act.BID, 17)


def test_a_holder_challenged_by_its_partner_lets_it_play() -> None:
    """Under the bhoos preset the first hand's partner takes its forced 16 over at 17: the
    expert answers with a match (and each partner counts the other's bid as strength, so the
    two raise their own target); ``expert-yield`` passes unless its own hand supports 3 more
    than the bid."""
    bhoos = preset("bhoos")
    modest = {0: JACKS, 1: OTHERS[0], 2: OTHERS[2], 3: OTHERS[3]}
    strong = {
        0: "JS 9S AS JH 7S 8S QS 7H",
        1: OTHERS[0],
        2: OTHERS[2],
        3: "KH TH AH 9H KS TS 7D 8C",
    }
    for hands, yields in ((modest, True), (strong, False)):
        st, _ = play(bhoos, 3, hands, "0: bid 16; 1: pass; 2: bid 17")
        v = view(st, 0)
        old = make_bot("expert", 1).choose(v)
        new = make_bot("expert-yield", 1).choose(v)
        assert (old.act, old.arg) == (Act.BID, 17)
        assert new.act is Act.PASS if yields else new == old


def test_a_holder_challenged_by_an_opponent_answers_as_the_expert() -> None:
    """Only a partner's challenge is let stand: an opponent's is answered by the rules."""
    bhoos = preset("bhoos")
    hands = {0: JACKS, 1: OTHERS[0], 2: OTHERS[2], 3: OTHERS[3]}
    st, _ = play(bhoos, 3, hands, "0: bid 16; 1: bid 17")
    v = view(st, 0)
    assert make_bot("expert-yield", 1).choose(v) == make_bot("expert", 1).choose(v)
