"""The ceiling study against a peer (``benchmarks/oracle_peer.py``): its oracle reads the true
deal only while the study runs, plays the solver's best card of the true deal, and lets a
contract stand when its own side wins the deal as it stands."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from twentynine import arena
from twentynine.arena import run_arena
from twentynine.bots.solver import solve
from twentynine.engine import preset
from twentynine.engine.actions import Act, Action
from twentynine.engine.state import Phase, team_of

from .modules import benchmark

sys.modules.setdefault("peers", benchmark("peers"))  # the study imports its sibling ``peers``
oracle = benchmark("oracle_peer")


def _oracle_against(make: Any, other: str, deals: int, seed: int) -> None:
    """``deals`` duplicate deals of the bhoos preset, the oracle ``make(seed)`` against the
    level ``other``, inside the study (the true deal readable)."""
    with oracle.seeing_everything():
        run_arena(
            "oracle",
            other,
            deals,
            seed,
            preset("bhoos"),
            "bhoos",
            factories=(make, arena.player_factory(other)),
        )


def test_the_true_deal_is_read_only_inside_the_study() -> None:
    plain = arena.view
    oracle.TRUE.clear()
    with oracle.seeing_everything():
        assert arena.view is not plain
        run_arena("random", "random", 1, 3, preset("bhoos"), "bhoos")
        assert oracle.TRUE["state"].is_over is False  # the last state a seat was asked in
    assert arena.view is plain


def test_the_oracle_plays_a_best_card_of_the_true_deal() -> None:
    checked: list[Any] = []

    class Checked(oracle.Oracle):  # type: ignore[misc,name-defined]
        def choose(self, view: Any) -> Action:
            action = super().choose(view)
            st = oracle.TRUE["state"]
            if st.phase is Phase.PLAY and any(a.act is Act.PLAY for a in view.legal):
                values = solve(st)
                assert values[action] == max(values.values())
                checked.append(action)
            return action

    _oracle_against(lambda s: Checked(s, "play"), "random", 2, 7)
    assert len(checked) >= 16  # two deals at two tables: many cards of ours


def test_a_contract_stands_when_it_wins_the_deal_for_us() -> None:
    seen: list[tuple[bool, Action]] = []

    class Calls(oracle.Oracle):  # type: ignore[misc,name-defined]
        def choose(self, view: Any) -> Action:
            action = super().choose(view)
            st = oracle.TRUE["state"]
            seat = view.viewer
            bids = [a for a in view.legal if a.act is Act.BID]
            passing = any(a.act is Act.PASS for a in view.legal)
            if st.phase is Phase.AUCTION and bids and passing and st.holder >= 0:
                makes = oracle.best_trump_points(st, st.holder) >= st.bid
                ours_wins = (team_of(st.holder) == team_of(seat)) == makes
                seen.append((ours_wins, action))
            return action

    _oracle_against(lambda s: Calls(s, "all"), "beginner", 6, 11)
    assert seen, "no contested call was met"
    for ours_wins, action in seen:
        if ours_wins:
            assert action.act is Act.PASS


SHOWN_WHEN = {
    "partner": lambda leads, later: True,
    "partner-leads": lambda leads, later: leads,
    "partner-later-leads": lambda leads, later: later,
    "partner-follows": lambda leads, later: not leads,
}


@pytest.mark.parametrize("mode", sorted(SHOWN_WHEN))
def test_the_partner_studies_show_the_partners_hand_where_they_say_and_nothing_else(
    mode: str,
) -> None:
    from twentynine.engine.views import view

    shown = {True: 0, False: 0}

    class Partnered(oracle.Oracle):  # type: ignore[misc,name-defined]
        def __init__(self, seed: int, mode: str) -> None:
            super().__init__(seed, mode)
            inner = self.inner

            class Spy:
                def choose(self, seen: Any) -> Action:
                    st, seat = oracle.TRUE["state"], seen.viewer
                    partner = (seat + 2) % 4
                    leads = not st.trick
                    expected = st.phase is Phase.PLAY and SHOWN_WHEN[mode](
                        leads, leads and bool(st.tricks)
                    )
                    if expected:
                        assert seen.hands[partner] == view(st, partner).hands[partner]
                    else:
                        assert seen.hands[partner] is None
                    for other in ((seat + 1) % 4, (seat + 3) % 4):
                        assert seen.hands[other] is None
                    assert seen.indicator == view(st, seat).indicator
                    shown[expected] += 1
                    return inner.choose(seen)

            self.inner = Spy()

    _oracle_against(lambda s: Partnered(s, mode), "random", 1, 5)
    assert shown[True] >= 2 and (mode == "partner" or shown[False] >= 2)
