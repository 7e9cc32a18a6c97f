"""The expert that plays for the void deal (``void_chance``): where a deal whose trump is never
shown is void, a side sure to lose keeps trump hidden and a side sure to win shows it."""

from __future__ import annotations

import dataclasses
import random

from twentynine.bots import make_bot
from twentynine.bots.expert import ExpertBot, reveal_or_not
from twentynine.engine import PRESETS, apply, legal_actions, start_round
from twentynine.engine.actions import Act, Action
from twentynine.engine.round import to_act
from twentynine.engine.state import RoundState
from twentynine.engine.views import View, view

REVEAL = Action(0, Act.REVEAL)
LOW, HIGH = Action(0, Act.PLAY, 0), Action(0, Act.PLAY, 7)


def test_a_lost_side_keeps_trump_hidden_even_for_points() -> None:
    wins = {REVEAL: 0.0, LOW: 0.0, HIGH: 0.0}
    points = {REVEAL: 40.0, LOW: 5.0, HIGH: 10.0}
    assert reveal_or_not([REVEAL, LOW, HIGH], wins, points, 10.0, 0.3) == HIGH


def test_a_won_side_shows_trump_even_for_fewer_points() -> None:
    wins = {REVEAL: 10.0, LOW: 10.0, HIGH: 10.0}
    points = {REVEAL: 5.0, LOW: 30.0, HIGH: 40.0}
    assert reveal_or_not([REVEAL, LOW, HIGH], wins, points, 10.0, 0.3) == REVEAL


def test_in_between_the_chances_decide() -> None:
    points = {REVEAL: 0.0, LOW: 0.0}
    # showing wins 3 in 10 (-0.4), a card 1 in 10 ((1 - 0.3) * -0.8 = -0.56): show
    assert reveal_or_not([REVEAL, LOW], {REVEAL: 3.0, LOW: 1.0}, points, 10.0, 0.3) == REVEAL
    # ... but if a card leaves the deal void 6 times in 10 ((1 - 0.6) * -0.8 = -0.32): the card
    assert reveal_or_not([REVEAL, LOW], {REVEAL: 3.0, LOW: 1.0}, points, 10.0, 0.6) == LOW
    # even chances of a win below one half: hide; above: show
    assert reveal_or_not([REVEAL, LOW], {REVEAL: 4.0, LOW: 4.0}, points, 10.0, 0.3) == LOW
    assert reveal_or_not([REVEAL, LOW], {REVEAL: 6.0, LOW: 6.0}, points, 10.0, 0.3) == REVEAL


def test_a_side_likelier_to_win_gives_up_no_chance_to_show_trump() -> None:
    points = {REVEAL: 0.0, LOW: 0.0}
    # a card makes it 10 times in 10, asking 9: the card (it will show trump later itself)
    assert reveal_or_not([REVEAL, LOW], {REVEAL: 9.0, LOW: 10.0}, points, 10.0, 0.3) == LOW
    assert reveal_or_not([REVEAL, LOW], {REVEAL: 10.0, LOW: 9.0}, points, 10.0, 0.3) == REVEAL


def test_an_even_chance_goes_to_the_points() -> None:
    wins = {REVEAL: 5.0, LOW: 5.0}
    assert reveal_or_not([REVEAL, LOW], wins, {REVEAL: 9.0, LOW: 1.0}, 10.0, 0.3) == REVEAL
    assert reveal_or_not([REVEAL, LOW], wins, {REVEAL: 1.0, LOW: 9.0}, 10.0, 0.3) == LOW


def test_nothing_to_choose_without_both_kinds_of_action() -> None:
    wins = {LOW: 0.0, HIGH: 10.0, REVEAL: 10.0}
    points = {LOW: 0.0, HIGH: 0.0, REVEAL: 0.0}
    assert reveal_or_not([LOW, HIGH], wins, points, 10.0, 0.3) is None
    assert reveal_or_not([REVEAL], wins, points, 10.0, 0.3) is None


def _decided_reveal_views(count: int) -> list[tuple[View, bool]]:
    """Views (bhoos rules, random play) of a seat that may ask for trump or play a card when
    the points already taken decide the contract, whatever the hidden cards; and whether the
    seat's side has won it."""
    rules = PRESETS["bhoos"].rules
    rng = random.Random(19)
    out: list[tuple[View, bool]] = []
    for _ in range(3000):
        deck = list(range(32))
        rng.shuffle(deck)
        st, _ = start_round(rules, rng.randrange(4), deck)
        while not st.is_over:
            legal = legal_actions(st)
            if st.phase.name == "PLAY" and any(a.act is Act.REVEAL for a in legal):
                won = _decided_for_mover(st)
                if won is not None:
                    out.append((view(st, to_act(st)[0]), won))
                    break
            st, _ = apply(st, rng.choice(legal))
        if len(out) >= count:
            break
    return out


def _decided_for_mover(st: RoundState) -> bool | None:
    bidders = st.bidder & 1
    left = 28 - st.points[0] - st.points[1]
    if st.points[bidders] >= st.target:
        made = True
    elif st.points[bidders] + left < st.target:
        made = False
    else:
        return None
    return made == (to_act(st)[0] & 1 == bidders)


def test_the_void_aware_expert_hides_trump_in_a_lost_deal_and_shows_it_in_a_won_one() -> None:
    views = _decided_reveal_views(12)
    assert sum(won for _, won in views) >= 3 and sum(not won for _, won in views) >= 3
    differ = 0
    for v, won in views:
        aware = ExpertBot(3, worlds=6, calls="rules", inference=False, void_chance=0.3)
        choice = aware.choose(v)
        assert choice in v.legal
        assert (choice.act is Act.REVEAL) == won
        plain = ExpertBot(3, worlds=6, calls="rules", inference=False).choose(v)
        differ += plain != choice
    assert differ > 0  # the plain expert, on points alone, chooses otherwise somewhere


def test_without_a_void_chance_the_expert_is_unchanged() -> None:
    for v, _ in _decided_reveal_views(4):
        plain = ExpertBot(5, worlds=4, calls="rules", inference=False)
        zero = ExpertBot(5, worlds=4, calls="rules", inference=False, void_chance=0.0)
        assert plain.choose(v) == zero.choose(v)


def test_the_void_rule_off_leaves_the_choice_to_points() -> None:
    rules = PRESETS["bhoos"].rules.with_options(invalid_trump_never_shown=False)
    for v, _ in _decided_reveal_views(4):
        off = dataclasses.replace(v, rules=rules)
        plain = ExpertBot(5, worlds=4, calls="rules", inference=False).choose(off)
        aware = ExpertBot(5, worlds=4, calls="rules", inference=False, void_chance=0.3)
        assert aware.choose(off) == plain


def test_expert_void_variant() -> None:
    bot = make_bot("expert-void", 1)
    assert isinstance(bot, ExpertBot) and bot.void_chance == 0.1
    assert make_bot("expert", 1).void_chance == 0.0  # type: ignore[attr-defined]
