"""The play report (``benchmarks/play_report.py``): a decision drops a deal exactly when the best
action on the true cards held the mover's side of the contract and the one chosen does not."""

from __future__ import annotations

import random
from typing import Any

from twentynine.bots import make_bot
from twentynine.bots.solver import solve
from twentynine.engine import preset
from twentynine.engine.actions import Action
from twentynine.engine.cards import codes
from twentynine.engine.round import apply, legal_actions, start_round, to_act
from twentynine.engine.state import Phase, RoundState
from twentynine.engine.views import view

from .modules import benchmark

report = benchmark("play_report")


def _best(st: RoundState) -> Action:
    values = solve(st)
    return max(values, key=lambda a: values[a])


def _dropping(st: RoundState, seat: int) -> Action | None:
    """An action that loses the mover's side a contract the best action holds, if any."""
    holding = report.critical(st, seat)
    return None if holding is None else next(a for a, held in holding.items() if not held)


def _record(seed: int, drop_at: int | None) -> tuple[dict[str, Any], int | None]:
    """A round of the bhoos preset: the calls by the intermediate bot, every play by the
    solver's best action on the true deal, except that the first decision from play number
    ``drop_at`` on that can drop the deal does so. The record, and the dropping seat."""
    rules = preset("bhoos")
    deck = list(range(32))
    random.Random(seed).shuffle(deck)
    dealer = seed % 4
    st, _ = start_round(rules, dealer, deck)
    callers = [make_bot("intermediate", s) for s in range(4)]
    actions: list[Action] = []
    decisions = 0
    dropper = None
    while not st.is_over:
        seat = to_act(st)[0]
        if st.phase is not Phase.PLAY:
            action = callers[seat].choose(view(st, seat))
        else:
            action = _best(st)
            if len(legal_actions(st, seat)) > 1:
                decisions += 1
                if drop_at is not None and dropper is None and decisions >= drop_at:
                    bad = _dropping(st, seat)
                    if bad is not None:
                        action, dropper = bad, seat
        actions.append(action)
        st, _ = apply(st, action)
    record = {
        "sides": ["ours", "theirs"],
        "dealer": dealer,
        "deck": codes(deck),
        "actions": [a.to_json() for a in actions],
        **st.summary(),
    }
    return record, dropper


def _played_records(drop_at: int | None) -> list[tuple[dict[str, Any], int | None]]:
    out = []
    seed = 0
    while len(out) < 3:
        seed += 1
        record, dropper = _record(seed, drop_at)
        if record["outcome"] in ("won", "lost") and (drop_at is None or dropper is not None):
            out.append((record, dropper))
    return out


def test_best_play_throughout_drops_nothing() -> None:
    records = [r for r, _ in _played_records(None)]
    result = report.study(records)
    assert sum(s["decisions"] for s in result.values()) > 0
    assert all(s["drops"] == 0 for s in result.values())
    for r in records:  # each contract stood as best play left it
        bidder_side = result[r["sides"][r["bidder"] & 1]]
        key = "makeable, won" if r["outcome"] == "won" else "not makeable, lost"
        assert bidder_side["contracts_at_first_card"].get(key, 0) >= 1


def test_one_dropping_choice_is_counted_once_against_the_side_that_made_it() -> None:
    played = _played_records(3)
    result = report.study([r for r, _ in played])
    for name in ("ours", "theirs"):
        expected = sum(1 for r, seat in played if seat is not None and r["sides"][seat & 1] == name)
        assert result.get(name, {"drops": 0})["drops"] == expected
    assert sum(s["drops"] for s in result.values()) == len(played)


def test_rechoosing_judges_the_recorded_and_the_new_choice_on_the_same_positions() -> None:
    played = _played_records(3)
    records = [r for r, _ in played]
    dropped = report.study(records)
    assert sum(len(list(report.positions(records, side))) for side in ("ours", "theirs")) >= 3
    for side in ("ours", "theirs"):
        found = list(report.positions(records, side))
        # every drop is made at a critical position, and is counted there
        assert (
            sum(not holding[action] for _, _, action, holding in found)
            == (dropped.get(side, {"drops": 0})["drops"])
        )
        assert all(any(h.values()) and not all(h.values()) for _, _, _, h in found)
        plain = report.rechoose(records, side, "random")
        via = report.rechoose(records, side, "expert", worlds=4, via_bhoos=True)
        for out in (plain, via):
            assert out["positions"] == len(found)
            assert out["recorded_drops"] == dropped.get(side, {"drops": 0})["drops"]
            assert 0 <= out["rechosen_drops"] <= out["positions"]
            assert 0 <= out["differ"] <= out["positions"]
