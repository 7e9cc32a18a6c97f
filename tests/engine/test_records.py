"""Deal and game records: notation round-trips, every simulated deal replays to the same result,
bad records are refused with a clear error."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from twentynine.cli import main
from twentynine.engine import PRESETS, Act, Action, NotationError, preset
from twentynine.engine.actions import action_from_json, action_json, action_text, parse_action
from twentynine.engine.cards import card_code, parse_card
from twentynine.engine.records import (
    DealRecord,
    GameRecord,
    RulesSpec,
    deal_summary,
    load_record,
    replay_deal,
    replay_game,
)
from twentynine.simulate import play_deals

ACTIONS = [
    Action(1, Act.BID, 17),
    Action(2, Act.PASS),
    Action(0, Act.TRUMP_SUIT, 2),
    Action(0, Act.TRUMP_SEVENTH),
    Action(3, Act.TRUMP_CARD, parse_card("7H")),
    Action(1, Act.DOUBLE),
    Action(2, Act.REDOUBLE),
    Action(3, Act.SETDOUBLE),
    Action(0, Act.SINGLE_HAND),
    Action(1, Act.REVEAL),
    Action(2, Act.PLAY, parse_card("JS")),
    Action(3, Act.PAIR),
]


def test_card_codes_round_trip() -> None:
    assert [card_code(c) for c in range(32)] == [
        card_code(parse_card(card_code(c))) for c in range(32)
    ]
    assert card_code(parse_card("1c")) == "AC"
    for bad in ("", "X", "JX", "10S", "ZS"):
        with pytest.raises(NotationError):
            parse_card(bad)


@pytest.mark.parametrize("action", ACTIONS, ids=action_text)
def test_actions_round_trip(action: Action) -> None:
    assert parse_action(action_text(action), action.seat) == action
    assert action_from_json(action.to_json()) == action
    assert action_from_json(action_json(action), action.seat) == action


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"seat": 5, "act": "pass"},
        {"seat": 0, "act": "bid"},
        {"seat": 0, "act": "fly"},
        {"seat": 0, "act": "play", "card": "QQ"},
        {"seat": 0, "act": "pass", "x": 1},
        [1, 2],
    ],
)
def test_bad_actions_are_refused(bad: object) -> None:
    with pytest.raises(NotationError):
        action_from_json(bad)


@pytest.mark.parametrize("name", list(PRESETS))
def test_simulated_deals_replay_to_the_same_result(name: str) -> None:
    rules = preset(name)
    for game, record in play_deals(rules, 60, random.Random(name), preset_name=name):
        text = record.dumps()
        again = DealRecord.loads(text)
        assert again == record
        result = replay_deal(again)
        assert result.error is None
        assert deal_summary(result) == game.round.summary()


@given(seed=st.integers(0, 10**6))
def test_game_records_replay_scores_exactly(seed: int) -> None:
    rules = preset("standard")
    deals = []
    last = None
    for game, record in play_deals(rules, 6, random.Random(seed)):
        if game.over:
            break
        deals.append(record)
        last = game
    if last is None:
        return
    record = GameRecord(RulesSpec(), (0, 0), tuple(deals))
    replayed = replay_game(GameRecord.from_json(json.loads(json.dumps(record.to_json()))))
    assert replayed.error is None
    assert replayed.game is not None
    assert replayed.game.scores == last.scores
    assert replayed.game.red_sets == last.red_sets


def test_replay_cli_reports_illegal_action(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    _, record = next(play_deals(preset("standard"), 1, random.Random(3)))
    data = record.to_json()
    data["actions"].insert(2, {"seat": (data["actions"][1]["seat"] + 2) % 4, "act": "double"})
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["error"]["index"] == 2
    assert out["error"]["reason"] == "not_your_turn"


def test_replay_cli_in_progress_lists_legal(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    _, record = next(play_deals(preset("standard"), 1, random.Random(4)))
    data = record.to_json()
    data["actions"] = data["actions"][:1]
    path = tmp_path / "part.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["complete"] is False and out["outcome"] is None
    assert out["to_act"] and all(out["legal"][str(s)] for s in out["to_act"])


def test_bad_records_are_refused() -> None:
    _, record = next(play_deals(preset("standard"), 1, random.Random(5)))
    good = record.to_json()
    for change in (
        {"format": "something/2"},
        {"dealer": 4},
        {"deck": good["deck"][:31]},
        {"deck": [good["deck"][0]] * 32},
        {"rules": {"preset": "nope"}},
        {"rules": {"preset": "standard", "options": {"min_bid": "x"}}},
    ):
        with pytest.raises((NotationError, ValueError)):
            DealRecord.from_json({**good, **change})
    with pytest.raises(NotationError):
        load_record("{not json")


def test_rules_spec_keeps_overrides() -> None:
    rules = preset("pagat").with_options(after_set="reset_both")
    spec = RulesSpec.of(rules, "pagat")
    assert spec.options == {"after_set": "reset_both"}
    assert spec.rules == rules
