"""``analyse``: the cost of every card of a recorded deal, by the open-hand solver."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import pytest

from twentynine.analyse import analyse_deal, cmd_analyse, register, team_costs
from twentynine.bots.solver import Solver
from twentynine.engine import (
    Act,
    IllegalAction,
    Phase,
    apply,
    legal_actions,
    parse_action,
    preset,
    start_round,
)
from twentynine.engine.cards import mask_points
from twentynine.engine.records import DealRecord, RulesSpec, replay_deal
from twentynine.simulate import play_deals


def simulated(seed: int, n: int = 4) -> list[DealRecord]:
    """Deals of random legal play on the standard rules that reached the play phase."""
    return [
        record
        for game, record in play_deals(preset("standard"), n, random.Random(seed))
        if game.round.tricks
    ]


def test_costs_of_a_random_deal() -> None:
    records = simulated(0) + simulated(1)
    assert records
    for record in records:
        rows = analyse_deal(record)
        assert rows
        for row in rows:
            action = record.actions[row["index"]]
            assert action.seat == row["seat"]
            assert action.act in (Act.PLAY, Act.REVEAL)
            assert row["action"] == action.text
            assert 0 <= row["value"] <= row["best_value"] <= 29
            assert row["cost"] == row["best_value"] - row["value"] >= 0
            assert (row["cost"] == 0) == (row["action"] in row["best"])
        plays = [a for a in record.actions if a.act is Act.PLAY]
        # every card played has its row (the round may have ended early)
        assert len([r for r in rows if r["card"]]) == len(plays)
        assert sum(team_costs(rows)) == sum(r["cost"] for r in rows)


def test_the_best_choice_never_costs_points() -> None:
    """Replace the play from some point on by the solver's best choices: no later row costs
    anything, and the values agree with what the first best choice promised."""
    rules = preset("standard").with_options(early_finish=False)
    rng = random.Random(12)
    solver = Solver()
    for _ in range(3):
        while True:
            deck = list(range(32))
            rng.shuffle(deck)
            dealer = rng.randrange(4)
            st, _ = start_round(rules, dealer, deck)
            actions = []
            while not st.is_over and (st.phase is not Phase.PLAY or len(st.tricks) < 5):
                legal = legal_actions(st)
                action = legal[rng.randrange(len(legal))]
                st, _ = apply(st, action)
                actions.append(action)
            if not st.is_over and st.caller < 0:  # a regular round: no points go to nobody
                break
        while not st.is_over:
            values = solver.solve(st)
            best = max(values.values())
            action = next(a for a, v in values.items() if v == best and a.act is not Act.PAIR)
            st, _ = apply(st, action)
            actions.append(action)
        record = DealRecord(RulesSpec.of(rules), dealer, tuple(deck), tuple(actions))
        assert replay_deal(record).error is None
        rows = analyse_deal(record)
        late = [r for r in rows if r["trick"] >= 6]
        assert late
        assert all(r["cost"] == 0 for r in late)
        _perfect_play_keeps_its_promise(record, late)


def _perfect_play_keeps_its_promise(record: DealRecord, rows: list[dict[str, object]]) -> None:
    """Along perfect play each row's value is the points its team takes until the next row
    plus what the next row promises (for the other team: the points still out minus it)."""
    states = {}
    st, _ = start_round(record.rules.rules, record.dealer, record.deck)
    for i, action in enumerate(record.actions):
        states[i] = st
        st, _ = apply(st, action)
    final = st
    for row, nxt in zip(rows, [*rows[1:], None], strict=True):
        team = row["team"]
        assert isinstance(team, int)
        before = states[row["index"]]  # type: ignore[index]
        after = states[nxt["index"]] if nxt else final  # type: ignore[index]
        gained = after.points[team] - before.points[team]
        if nxt is None:
            assert row["value"] == gained
        elif nxt["team"] == team:
            assert row["value"] == gained + nxt["best_value"]  # type: ignore[operator]
        else:
            held = 0
            for seat in range(4):
                held |= after.seat_cards(seat)
            for _, card in after.trick:
                held |= 1 << card
            out = mask_points(held) + (1 if after.rules.last_trick_point else 0)
            assert row["value"] == gained + out - nxt["best_value"]  # type: ignore[operator]


def test_methods_agree_on_a_late_deal() -> None:
    record = next(r for r in simulated(3, 6) if len([a for a in r.actions if a.act is Act.PLAY]))
    numba_rows = analyse_deal(record, "numba")
    assert numba_rows == analyse_deal(record, "python")


def test_illegal_record_is_refused() -> None:
    record = simulated(0)[0]
    index = next(i for i, a in enumerate(record.actions) if a.act is Act.PLAY)
    actions = list(record.actions)
    seat = actions[index].seat
    actions[index] = parse_action("play JS", (seat + 1) % 4)  # not this seat's turn
    bad = DealRecord(record.rules, record.dealer, record.deck, tuple(actions))
    with pytest.raises(IllegalAction, match=f"action {index}"):
        analyse_deal(bad)


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="twentynine")
    register(parser.add_subparsers())
    args = parser.parse_args(argv)
    assert args.func is cmd_analyse
    result: int = args.func(args)
    return result


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = simulated(1)[0]
    path = tmp_path / "deal.json"
    path.write_text(record.dumps())
    assert _run(["analyse", str(path), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows == analyse_deal(record)
    assert _run(["analyse", str(path)]) == 0
    text = capsys.readouterr().out
    assert "cost" in text and "best value" in text
    assert _run(["analyse", str(tmp_path / "missing.json")]) == 2


def test_command_line_game_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from twentynine.engine.records import GameRecord

    records = simulated(2)
    game = GameRecord(records[0].rules, (0, 0), tuple(records[:1]))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_json()))
    assert _run(["analyse", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == [{"deal": 0, "rows": analyse_deal(records[0])}]
