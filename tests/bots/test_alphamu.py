"""The αμ search of the last tricks, and the expert's margin-weighed count of deals made."""

from __future__ import annotations

import math
import random

import pytest

from twentynine.bots import expert as expert_module
from twentynine.bots import make_bot
from twentynine.bots.alphamu import AlphaMu, side_makes
from twentynine.bots.expert import ExpertBot, margin_credit
from twentynine.bots.knowledge import Knowledge
from twentynine.bots.solver import solve
from twentynine.bots.worlds import sample_world
from twentynine.engine.actions import Act, Action
from twentynine.engine.cards import parse_card
from twentynine.engine.round import apply, start_round, to_act
from twentynine.engine.rules import preset
from twentynine.engine.state import Phase, RoundState
from twentynine.engine.views import view

from .test_bots import play_deal

BHOOS = preset("bhoos")


def late_position(seed: int, cards: int = 3) -> RoundState | None:
    """The intermediate player's deal ``seed`` under bhoos, at the first card decision of a
    seat holding ``cards`` cards."""
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    st, _ = start_round(BHOOS, seed % 4, deck)
    bots = [make_bot("intermediate", s) for s in range(4)]
    while not st.is_over and not (
        st.phase is Phase.PLAY and st.hands[st.turn].bit_count() == cards
    ):
        seat = to_act(st)[0]
        st, _ = apply(st, bots[seat].choose(view(st, seat)))
    return None if st.is_over else st


def sampled(st: RoundState, n: int, seed: int) -> list[RoundState]:
    v = view(st, st.turn)
    rng = random.Random(seed)
    knowledge = Knowledge.from_view(v)
    return [sample_world(v, rng, knowledge) for _ in range(n)]


def solved_counts(worlds: list[RoundState], seat: int) -> dict[Action, int]:
    """For each action, the deals where it makes (or beats) the contract, each deal solved on
    its own (the expert's plain count)."""
    counts: dict[Action, int] = {}
    for w in worlds:
        for a, value in solve(w).items():
            counts[a] = counts.get(a, 0) + side_makes(w, seat, value)
    return counts


def test_side_makes_gives_the_rest_to_the_other_side() -> None:
    st = late_position(8)
    assert st is not None
    left = 28 - st.points[0] - st.points[1]
    bidders = st.bidder & 1
    need = st.target - st.points[bidders]
    for value in range(left + 1):
        bidder_gets = value if st.turn & 1 == bidders else left - value
        assert side_makes(st, st.bidder, value) == (bidder_gets >= need)
        assert side_makes(st, st.bidder ^ 1, value) == (bidder_gets < need)


def test_one_move_deep_it_counts_what_the_solver_counts() -> None:
    """With only its current card searched, the search is the plain one: the deals each
    card makes, as each deal solved alone says; two moves deep never more (its second card
    must be one card for all the deals it cannot tell apart)."""
    checked = 0
    for seed in range(12):
        st = late_position(seed)
        if st is None:
            continue
        worlds = sampled(st, 10, seed)
        counts = solved_counts(worlds, st.turn)
        one = AlphaMu(st.turn, worlds, [1.0] * 10, math.inf).root(1)
        two = AlphaMu(st.turn, worlds, [1.0] * 10, math.inf).root(2)
        assert set(one) == {a for a in counts if a.act is not Act.PAIR}
        for a, made in one.items():
            assert made == counts[a]
            assert two[a] <= made
        checked += 1
    assert checked >= 8


def test_two_moves_deep_it_sees_a_guess_the_plain_count_wins_twice() -> None:
    """Deal 4 (found by trying seeds): over these 12 sampled deals the plain count credits
    the nine of diamonds with 9 deals made, but 2 of them need different later cards from
    the seat that it cannot tell apart: with one later card for all, it makes 8."""
    st = late_position(4)
    assert st is not None
    worlds = sampled(st, 12, 4)
    counts = solved_counts(worlds, st.turn)
    two = AlphaMu(st.turn, worlds, [1.0] * 12, math.inf).root(2)
    nine = next(a for a in two if a.act is Act.PLAY and a.arg == parse_card("9D"))
    assert counts[nine] == 9
    assert two[nine] == 8


def test_expert_with_alphamu_plays_legal_deals_and_uses_it() -> None:
    rng = random.Random(3)
    used = 0
    for n in range(3):
        deck = list(range(32))
        rng.shuffle(deck)
        bots = [
            ExpertBot(n * 4 + s, worlds=8, calls="rules", inference=False, alphamu_from=3)
            for s in range(4)
        ]
        assert play_deal(BHOOS, n % 4, deck, bots).is_over
        used += sum(b.alphamu_used for b in bots)
    assert used > 0


def test_margin_credit_prefers_deals_made_with_points_to_spare() -> None:
    st = late_position(4)
    assert st is not None
    a, b = Action(st.turn, Act.PLAY, 0), Action(st.turn, Act.PLAY, 1)
    # a makes with 3 to spare, b with none: both made, a worth more; a failed deal by one
    # point counts less than half
    kept = [(st, 1.0, {a: 13, b: 10}, 10), (st, 1.0, {a: 9, b: 10}, 10)]
    credit = margin_credit(kept, [a, b], 1.0)
    made_once_spare = 1 / (1 + math.exp(-3.5)) + 1 / (1 + math.exp(0.5))
    assert math.isclose(credit[a], made_once_spare)
    assert math.isclose(credit[b], 2 / (1 + math.exp(-0.5)))
    # the plain count prefers b (2 deals made to 1); at scale 1 a safe make and a failure by
    # a point outweigh two makes with nothing to spare; at scale 0.3 (nearly the plain count)
    # they do not
    assert credit[a] > credit[b]
    sharp = margin_credit(kept, [a, b], 0.3)
    assert sharp[b] > sharp[a]
    kept[1] = (st, 1.0, {a: 10, b: 10}, 10)
    credit = margin_credit(kept, [a, b], 1.0)
    assert credit[a] > credit[b]  # equal makes: the margin decides
    # the bidder's side taken to lose 1.5 points in real play: b's thin makes count under half
    shifted = margin_credit(kept, [a, b], 1.0, shift=1.5)
    assert shifted[b] < 1.0 < shifted[a]


def test_expert_margin_counts_deals_by_their_margins(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``margin_scale`` the card is the one ``margin_credit`` rates highest, whatever
    the plain count says; without it the margins play no part."""
    st = late_position(4)
    assert st is not None
    v = view(st, st.turn)
    plain = ExpertBot(1, worlds=6, calls="rules", inference=False).choose(v)
    other = next(a for a in v.legal if a != plain and a.act is Act.PLAY)

    def rigged(kept: object, actions: list[Action], *_: object) -> dict[Action, float]:
        return {a: 1.0 if a == other else 0.0 for a in actions}

    monkeypatch.setattr(expert_module, "margin_credit", rigged)
    assert ExpertBot(1, worlds=6, calls="rules", inference=False).choose(v) == plain
    margin = ExpertBot(1, worlds=6, calls="rules", inference=False, margin_scale=1.0)
    assert margin.choose(v) == other


def test_expert_infer_weighs_the_play_by_the_auction(monkeypatch: pytest.MonkeyPatch) -> None:
    st = late_position(4, cards=6)
    assert st is not None
    v = view(st, st.turn)
    weighed: list[int] = []
    real = ExpertBot._weight

    def counting(world: RoundState, view_: object) -> float:
        weighed.append(1)
        return real(world, view_)  # type: ignore[arg-type]

    monkeypatch.setattr(ExpertBot, "_weight", staticmethod(counting))
    make_bot("expert", 1).choose(v)
    assert not weighed
    make_bot("expert-infer", 1).choose(v)
    assert weighed
