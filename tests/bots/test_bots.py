"""Every bot level plays every decision of every rule set legally, decides from its view only,
and the levels rank as they should."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from tests.bots.test_knowledge import random_play, random_rules
from twentynine.bots import LEVELS, Bot, make_bot
from twentynine.bots.beginner import BeginnerBot
from twentynine.bots.intermediate import IntermediateBot
from twentynine.engine import (
    PRESETS,
    STANDARD,
    Act,
    Action,
    Phase,
    RoundState,
    Rules,
    apply,
    legal_actions,
    start_round,
    to_act,
)
from twentynine.engine.cards import parse_card
from twentynine.engine.views import view

LEVEL_NAMES = ("random", "beginner", "intermediate")


def next_seat(st: RoundState) -> int:
    """Who is asked next: a seat that may declare a pair before the card is played."""
    seats = to_act(st)
    if st.phase is Phase.PLAY and st.pair_window >= 0:
        return st.pair_window
    return seats[0]


def play_deal(rules: Rules, dealer: int, deck: Sequence[int], bots: Sequence[Bot]) -> RoundState:
    st, _ = start_round(rules, dealer, deck)
    while not st.is_over:
        seat = next_seat(st)
        v = view(st, seat)
        action = bots[seat].choose(v)
        assert action in v.legal, (bots[seat].name, action, v.legal)
        st, _ = apply(st, action)
    return st


def test_levels_are_registered() -> None:
    for name in LEVEL_NAMES:
        assert name in LEVELS
        bot = make_bot(name, seed=1)
        assert bot.name == name
    with pytest.raises(ValueError):
        make_bot("grandmaster")


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_level_finishes_deals_under_every_preset(name: str) -> None:
    rules = PRESETS[name].rules
    rng = random.Random(f"deals-{name}")
    for level in LEVEL_NAMES:
        for n in range(20):
            deck = list(range(32))
            rng.shuffle(deck)
            # the level at every seat, or against random players (which reach odd corners)
            other = level if n % 2 else "random"
            bots = [make_bot(level if s % 2 == n % 4 // 2 else other, n * 4 + s) for s in range(4)]
            st = play_deal(rules, rng.randrange(4), deck, bots)
            assert st.is_over


def test_every_level_finishes_deals_under_house_rules() -> None:
    rng = random.Random("house-deals")
    for _ in range(12):
        rules = random_rules(rng)
        for level in LEVEL_NAMES:
            for n in range(3):
                deck = list(range(32))
                rng.shuffle(deck)
                bots = [make_bot(level if s % 2 else "random", n * 4 + s) for s in range(4)]
                play_deal(rules, rng.randrange(4), deck, bots)


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_level_answers_every_decision_legally(name: str) -> None:
    """Views from random play reach every phase (forced bids, the seventh-card Redouble,
    Single Hand doubling, pairs …): every level answers each with a legal action."""
    rng = random.Random(f"decisions-{name}")
    bots = [make_bot(level, 7) for level in LEVEL_NAMES]
    acts: set[Act] = set()
    for st in random_play(PRESETS[name].rules, 25, rng):
        for seat in to_act(st):
            v = view(st, seat)
            for bot in bots:
                action = bot.choose(v)
                assert action in v.legal, (bot.name, action, v.legal)
                acts.add(action.act)
    assert Act.PLAY in acts and Act.PASS in acts


def test_the_rare_decisions_are_legal() -> None:
    """House rules that make every kind of decision frequent."""
    rules = STANDARD.with_options(auction="open", all_pass="dealer_forced_min")
    rng = random.Random(3)
    seen: set[Phase] = set()
    bots = [make_bot(level, 3) for level in LEVEL_NAMES]
    for st in random_play(rules, 80, rng):
        for seat in to_act(st):
            v = view(st, seat)
            seen.add(v.phase)
            for bot in bots:
                assert bot.choose(v) in v.legal
    assert Phase.SEVENTH_REDOUBLE in seen and Phase.SINGLE_HAND_DOUBLING in seen


def test_a_bot_without_a_choice_refuses() -> None:
    st, _ = start_round(STANDARD, 0, list(range(31, -1, -1)))
    not_speaking = (st.speaker + 1) % 4
    v = view(st, not_speaking)
    assert v.legal == ()
    for level in LEVEL_NAMES:
        with pytest.raises(ValueError):
            make_bot(level, 1).choose(v)


# -- decisions depend on the view only -----------------------------------------------------


def swap_hidden(deck: list[int], a: int, b: int, dealer: int, keep: Sequence[int]) -> list[int]:
    """The deck with the second batches of seats ``a`` and ``b`` exchanged, and any of
    their cards listed in ``keep`` left where they are."""
    first = (dealer + 1) % 4
    out = list(deck)
    pos_a = [16 + 4 * ((a - first) % 4) + i for i in range(4)]
    pos_b = [16 + 4 * ((b - first) % 4) + i for i in range(4)]
    for i, j in zip(pos_a, pos_b, strict=True):
        if deck[i] in keep or deck[j] in keep:
            continue
        out[i], out[j] = deck[j], deck[i]
    return out


def replay_to(rules: Rules, dealer: int, deck: Sequence[int], actions: Sequence[Action]):
    st, _ = start_round(rules, dealer, deck)
    for a in actions:
        st, _ = apply(st, a)
    return st


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_a_decision_ignores_cards_the_bot_cannot_see(level: str) -> None:
    """Two real deals that differ only in cards hidden from the deciding seat (exchanged
    between two other seats before they were played) give equal views and equal decisions."""
    rules = STANDARD.with_options(single_hand=False, doubling="none")
    rng = random.Random(f"hidden-{level}")
    checked = 0
    for n in range(200):
        deck = list(range(32))
        rng.shuffle(deck)
        dealer = rng.randrange(4)
        st, _ = start_round(rules, dealer, deck)
        actions: list[Action] = []
        stop = rng.randrange(1, 30)
        while not st.is_over and len(actions) < stop:
            options = legal_actions(st)
            a = options[rng.randrange(len(options))]
            st, _ = apply(st, a)
            actions.append(a)
        if st.phase is not Phase.PLAY:
            continue
        seat = next_seat(st)
        others = [s for s in range(4) if s != seat and s != st.bidder]
        if len(others) < 2:
            continue
        played = {c for _, c in st.trick} | {c for t in st.tricks for _, c in t.plays}
        keep = played | ({st.indicator} if st.indicator >= 0 else set())
        twin_deck = swap_hidden(deck, others[0], others[1], dealer, sorted(keep))
        if twin_deck == deck:
            continue
        try:
            twin = replay_to(rules, dealer, twin_deck, actions)
        except Exception:  # the exchange made some earlier card illegal: not a twin
            continue
        if twin.is_over or twin.hands == st.hands:
            continue
        v1, v2 = view(st, seat), view(twin, seat)
        if v1 != v2:
            continue
        a1 = make_bot(level, n).choose(v1)
        a2 = make_bot(level, n).choose(v2)
        assert a1 == a2
        checked += 1
    assert checked >= 20


# -- strength ---------------------------------------------------------------------------------


def duplicate_match(strong: str, weak: str, deals: int, seed: int) -> tuple[int, int]:
    """Net score of ``strong`` over ``weak`` on duplicate deals (each deck twice, the teams
    exchanging seats), and the number of deals where ``strong`` came out ahead."""
    rng = random.Random(seed)
    net = 0
    ahead = 0
    for n in range(deals):
        deck = list(range(32))
        rng.shuffle(deck)
        dealer = rng.randrange(4)
        total = 0
        for team in (0, 1):
            bots = [make_bot(strong if s % 2 == team else weak, n * 8 + s) for s in range(4)]
            st = play_deal(STANDARD, dealer, deck, bots)
            total += st.score_delta[team] - st.score_delta[1 - team]
        net += total
        ahead += total > 0
    return net, ahead


def test_intermediate_beats_beginner_and_beginner_beats_random() -> None:
    net, _ = duplicate_match("beginner", "random", 40, 1)
    assert net > 20
    net, _ = duplicate_match("intermediate", "beginner", 80, 2)
    assert net > 0


def test_bots_are_repeatable_with_a_seed() -> None:
    rng = random.Random(8)
    for st in random_play(STANDARD, 5, rng):
        for seat in to_act(st):
            v = view(st, seat)
            for cls in (BeginnerBot, IntermediateBot):
                assert cls(4).choose(v) == cls(4).choose(v)


# -- named behaviours -------------------------------------------------------------------------

#: Seat 0 (first hand, dealer 3) holds JS 9S; seat 1 JH; seat 3 9H AH QH.
GIVE = {
    0: "JS 9S 7H KD AS TS 8S 7S",
    1: "JH JD KH 8H 7D JC 7C 8C",
    2: "9D AD TD QD 8D AC TC QS",
    3: "9H AH QH TH KS 9C KC QC",
}


def first_lead_view(rules: Rules, script: str, seat: int):
    from tests.engine.helpers import run, to_play

    st, _ = to_play(rules, 3, GIVE, 0, rules.min_bid, "S")
    st, _ = run(st, script)
    return st, view(st, seat)


def test_intermediate_gives_points_to_a_partner_sure_to_win() -> None:
    from twentynine.engine.cards import card_points

    # seat 1's JH wins for sure (seat 3 plays last): seat 3 gives a point card, the beginner
    # throws its cheapest
    _, v = first_lead_view(STANDARD, "0: play 7H; 1: play JH; 2: play 8D", 3)
    assert v.turn == 3
    given = IntermediateBot(1).choose(v)
    assert given.act is Act.PLAY and card_points(given.arg) > 0
    thrown = BeginnerBot(1).choose(v)
    assert thrown.act is Act.PLAY and card_points(thrown.arg) == 0


def test_beginner_bids_only_with_jack_and_nine_of_a_suit() -> None:
    from tests.engine.helpers import start

    st, _ = start(STANDARD, 3, GIVE)  # seat 0 speaks first with JS 9S 7H KD
    assert BeginnerBot(1).choose(view(st, 0)) == Action(0, Act.BID, 16)
    st, _ = apply(st, Action(0, Act.BID, 16))
    # seat 1 (JH JD KH 8H) has no Jack-and-Nine suit
    assert BeginnerBot(1).choose(view(st, 1)) == Action(1, Act.PASS)


def test_trump_choices_follow_the_options() -> None:
    from tests.engine.helpers import start

    for rules, expected in (
        (STANDARD, Action(0, Act.TRUMP_SUIT, 3)),
        (PRESETS["pagat"].rules, Action(0, Act.TRUMP_CARD, parse_card("9S"))),
    ):
        st, _ = start(rules, 3, GIVE)
        st, _ = apply(st, Action(0, Act.BID, rules.min_bid))
        while st.phase is Phase.AUCTION:
            st, _ = apply(st, Action(st.speaker, Act.PASS))
        assert st.phase is Phase.TRUMP and st.bidder == 0
        v = view(st, 0)
        # spades (JS 9S): named, or its lowest card laid face down
        assert BeginnerBot(1).choose(v) == expected
        assert IntermediateBot(1).choose(v) == expected


def test_every_level_but_random_declares_the_pair() -> None:
    rng = random.Random(12)
    rules = PRESETS["classic"].rules
    found = 0
    for st in random_play(rules, 300, rng):
        window = st.pair_window
        if window < 0:
            continue
        v = view(st, window)
        assert Action(window, Act.PAIR) in v.legal
        for cls in (BeginnerBot, IntermediateBot):
            assert cls(1).choose(v) == Action(window, Act.PAIR)
        found += 1
    assert found >= 3


def test_beginner_never_doubles_or_calls_single_hand() -> None:
    rng = random.Random(13)
    for st in random_play(STANDARD, 150, rng):
        if st.phase in (Phase.DOUBLING, Phase.SINGLE_HAND, Phase.SEVENTH_REDOUBLE):
            for seat in to_act(st):
                assert BeginnerBot(1).choose(view(st, seat)).act is Act.PASS


def test_hand_evaluation() -> None:
    from tests.engine.helpers import mask
    from twentynine.bots.evaluate import (
        best_trump,
        bid_limit,
        can_call_single_hand,
        expected_points,
        make_probability,
        should_double,
    )

    strong, weak = mask("JS 9S AS 8S"), mask("7C 8D 7H KS")
    assert best_trump(strong)[0] == 3
    assert expected_points(strong, 3) > expected_points(weak, 3) + 5
    assert bid_limit(strong, 16, 28) >= 18 and bid_limit(weak, 16, 28) < 16
    assert expected_points(mask("JS 9S AS TS JH 9H 7C 8D"), 3) > expected_points(strong, 3)
    assert make_probability(16, 16) > 0.5 > make_probability(16, 18)
    # a defender with three Jacks doubles a low bid; one with nothing does not
    assert should_double(mask("JC JD JH 9C"), 16, 16, 16)
    assert not should_double(weak, 16, 16, 16)
    # the top four cards of two suits lose no trick; a scattered hand is no Single Hand
    assert can_call_single_hand(mask("JS 9S AS TS JH 9H AH KH"))
    assert not can_call_single_hand(mask("JS 9S AS TS 7H 8D 7C KH"))


def test_bid_shift_makes_the_rules_bids_bolder_or_more_cautious() -> None:
    """A bid that needs a lower chance of making it is made with more hands, never fewer;
    the expert's ``bid_shift`` reaches the rules' auction."""
    from twentynine.bots.expert import ExpertBot

    rng = random.Random(19)
    bolder = more = 0
    for _ in range(300):
        deck = list(range(32))
        rng.shuffle(deck)
        st, _ = start_round(STANDARD, rng.randrange(4), deck)
        if st.phase is not Phase.AUCTION:
            continue  # dealt again (RULES.md §8)
        seat = next_seat(st)
        v = view(st, seat)
        base = IntermediateBot(1).choose(v)
        bold_bot = IntermediateBot(1)
        bold_bot.bid_shift = -0.15
        bold = bold_bot.choose(v)
        assert bold.arg >= base.arg  # a pass is 0 (or the lowest bid when a bid is a must)
        bolder += bold != base
        cautious = ExpertBot(1, calls="rules", inference=False, bid_shift=0.15).choose(v)
        assert cautious.arg <= base.arg
        more += cautious != base
    assert bolder and more


def test_a_forced_opening_is_read_as_saying_nothing() -> None:
    """Under the bhoos preset the first hand must open at 16, whatever its cards: with
    ``read_forced_opening`` its partner takes the contract over at 17 with a hand that would
    bid on its own (without it, the opening counts as strength shown and the partner waits
    for a hand worth three more), and still passes a weak hand. An opening raised by an
    opponent is no longer forced."""
    from tests.engine.helpers import play
    from twentynine.bots.bidding import forced_opening
    from twentynine.bots.expert import ExpertBot
    from twentynine.engine import preset

    bhoos = preset("bhoos")
    rest = {
        0: "7C 8C QC KC TC AC 9C JC",
        1: "7D QD KD TD AD 9D QH 8H",
        3: "KH TH AH 9H JH QS KS TS",
    }
    # first four JS 9S 7H 8D: spades trump make 17 with a chance of 0.52 (the partner unknown),
    # 19 with 0.47 if the opening counted as a partner's bid (evaluate.make_probability)
    fair = {**rest, 2: "JS 9S 7H 8D AS 8S 7S JD"}
    st, _ = play(bhoos, 3, fair, "0: bid 16; 1: pass")
    v = view(st, 2)
    assert forced_opening(v)
    reading = ExpertBot(1, calls="rules", inference=False, read_forced_opening=True)
    taken = reading.choose(v)
    assert (taken.act, taken.arg) == (Act.BID, 17)
    by_level = make_bot("expert", 1).choose(v)  # the expert level reads it so
    assert (by_level.act, by_level.arg) == (Act.BID, 17)
    assert ExpertBot(1, calls="rules", inference=False).choose(v).act is Act.PASS

    weak = {**rest, 2: "7S 8S 7H 8D AS 9S JS JD"}  # first four: 7S 8S 7H 8D
    st, _ = play(bhoos, 3, weak, "0: bid 16; 1: pass")
    assert reading.choose(view(st, 2)).act is Act.PASS

    st, _ = play(bhoos, 3, fair, "0: bid 16; 1: bid 17; 0: bid 17; 1: pass")
    assert not forced_opening(view(st, 2))


def test_the_classic_automatic_opening_is_a_forced_opening() -> None:
    """Under the classic preset the first hand opens at the minimum without being asked
    (``auction="first_forced"``): that opening says nothing either, as the auction's reading
    of the opponents' bids (``_forced_call``) already held, until someone raises it."""
    from tests.engine.helpers import play
    from twentynine.bots.bidding import forced_opening
    from twentynine.engine import preset

    classic = preset("classic")
    assert classic.auction == "first_forced" and not classic.first_bid_required
    hands = {
        0: "7C 8C QC KC TC AC 9C JC",
        1: "7D QD KD TD AD 9D QH 8H",
        2: "JS 9S 7H 8D AS 8S 7S JD",
        3: "KH TH AH 9H JH QS KS TS",
    }
    st, _ = play(classic, 3, hands, "")
    assert st.calls == ((0, classic.min_bid),)  # the first hand's opening, made for it
    assert forced_opening(view(st, 1))
    st, _ = play(classic, 3, hands, "1: pass")
    assert forced_opening(view(st, 2))
    st, _ = play(classic, 3, hands, "1: bid 16")
    assert not forced_opening(view(st, 2))
    # under the standard rules nobody must open: an opening at 16 is the first hand's choice
    swapped = {**hands, 0: hands[2], 2: hands[0]}
    st, _ = play(preset("standard"), 3, swapped, "0: bid 16; 1: pass")
    assert not forced_opening(view(st, 2))


def test_read_bids_counts_an_opponents_bid_and_not_the_forced_opening() -> None:
    """With ``read_bids`` an opponent's bid is strength our cards lack
    (``opponent_bid_cost``: 1 point at the minimum bid, a quarter more for each point above,
    at most 2), the first hand's forced opening at 16 says nothing wherever it stands, and a
    partner who made only that opening and then passed is read as having passed: a hand that
    the old reading (the opening as a partner's bid, no cost for the opponent's 18) sent to 19
    passes, and the same hand still takes a forced opening over at 17."""
    from tests.engine.helpers import play
    from twentynine.bots.bidding import OPP_BID_CAP, opponent_bid_cost
    from twentynine.bots.expert import ExpertBot
    from twentynine.engine import preset

    bhoos = preset("bhoos")
    hands = {
        0: "7C 8C QC KC TC AC 9C JC",
        1: "7D QD KD TD AD 9D QH 8H",
        2: "JS 9S 7H 8D AS 8S 7S JD",
        3: "KH TH AH 9H JH QS KS TS",
    }
    old = ExpertBot(1, calls="rules", inference=False, read_forced_opening=True)
    reads = ExpertBot(1, calls="rules", inference=False, read_forced_opening=True, read_bids=True)

    st, _ = play(bhoos, 3, hands, "0: bid 16; 1: bid 18; 0: pass")
    v = view(st, 2)
    assert opponent_bid_cost(v, 2) == 1.5  # seat 1's 18
    assert opponent_bid_cost(v, 1) == 0.0  # seat 0's only bid was forced
    assert (old.choose(v).act, old.choose(v).arg) == (Act.BID, 19)
    assert reads.choose(v).act is Act.PASS

    st, _ = play(bhoos, 3, hands, "0: bid 16; 1: pass")
    v = view(st, 2)
    assert opponent_bid_cost(v, 2) == 0.0
    taken = reads.choose(v)
    assert (taken.act, taken.arg) == (Act.BID, 17)

    st, _ = play(bhoos, 3, hands, "0: bid 16; 1: bid 17; 0: bid 17; 1: bid 22")
    assert opponent_bid_cost(view(st, 0), 0) == OPP_BID_CAP  # 1 + 0.25 x 6, capped
    assert opponent_bid_cost(view(st, 1), 1) == 1.25  # seat 0's match at 17 is a real bid


def test_seat_of_and_hand_of_read_only_the_seat_whose_view_it_is() -> None:
    """A bot's seat and cards come from its view; a spectator's view (no seat) is refused with
    a clear error, and a hand the view does not show reads as no cards."""
    from twentynine.bots.base import hand_of, seat_of
    from twentynine.engine.views import spectator_view

    st, _ = start_round(STANDARD, 0, list(range(31, -1, -1)))
    for seat in range(4):
        v = view(st, seat)
        assert seat_of(v) == seat
        assert hand_of(v, seat) == st.hands[seat] != 0
        assert all(hand_of(v, other) == 0 for other in range(4) if other != seat)
    with pytest.raises(ValueError, match="a bot needs a seat's view"):
        seat_of(spectator_view(st))
