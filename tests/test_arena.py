"""The duplicate arena: both tables get the same deals, the figures add up."""

from __future__ import annotations

import json

import pytest

from twentynine.arena import run_arena, wilson_interval
from twentynine.cli import main
from twentynine.engine import preset


def test_duplicate_arena_figures_add_up() -> None:
    result = run_arena("random", "random", 60, 7, preset("standard"))
    data = result.to_json()
    a, b = data["a"], data["b"]
    played = data["deals_played"]
    assert played == 120
    assert a["deals_won"] + b["deals_won"] + data["invalid_deals"] == played
    assert a["contracts"] + b["contracts"] == played - data["invalid_deals"]
    assert a["decisions"] > 0 and b["decisions"] > 0
    lo, hi = data["a_deal_win_rate_ci95"]
    assert lo <= data["a_deal_win_rate"] <= hi


def test_one_deal_games_are_all_counted() -> None:
    data = run_arena("beginner", "random", 15, 2, preset("bhoos")).to_json()
    # bhoos: one deal is one game, so every decided deal decides a game
    assert data["games_decided"] == data["deals_decided"] > 0


def test_same_bots_same_seed_same_result() -> None:
    one = run_arena("random", "random", 20, 3, preset("pagat")).to_json()
    two = run_arena("random", "random", 20, 3, preset("pagat")).to_json()
    for key in ("a", "b"):
        for field in ("deals_won", "games_won", "points_per_deal", "net_score"):
            assert one[key][field] == two[key][field]


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(60, 100)
    assert lo == pytest.approx(0.502, abs=0.002) and hi == pytest.approx(0.691, abs=0.002)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_arena_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "random", "random", "--deals", "5", "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["duplicate_deals"] == 5
    assert main(["arena", "random", "nobody", "--deals", "1"]) == 2
