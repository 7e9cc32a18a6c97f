"""The arena's record of each round (``arena.deal_record``), with which a bot's losses against
another are studied (``benchmarks/peers.py --deals-out``, ``benchmarks/rounds_report.py``)."""

from __future__ import annotations

from typing import Any

from twentynine.arena import run_arena
from twentynine.engine import preset
from twentynine.engine.cards import parse_card


def test_every_round_is_recorded_with_its_cards_calls_and_result() -> None:
    rounds: list[dict[str, Any]] = []
    rules = preset("bhoos")
    result = run_arena("beginner", "random", 6, 3, rules, "bhoos", on_round=rounds.append).to_json()
    assert len(rounds) == result["deals_played"] == 12
    assert [(r["deal"], r["table"]) for r in rounds] == [(d, t) for d in range(6) for t in (0, 1)]
    for r in rounds:
        # the sides swap seats between the two tables of a deal
        assert r["sides"] == (["beginner", "random"] if r["table"] == 0 else ["random", "beginner"])
        assert sorted(parse_card(c) for c in r["deck"]) == list(range(32))
        dealt = [c for s in range(4) for c in r["first_four"][s] + r["last_four"][s]]
        assert sorted(dealt) == sorted(r["deck"])
        assert r["first_hand"] == (r["dealer"] + 1) % 4
        assert r["calls"][0][0] == r["first_hand"]
        if r["outcome"] in ("won", "lost"):
            team = r["bidder"] % 2
            assert r["bid"] == max(b for _, b in r["calls"])
            made = r["points"][team] >= r["bid"]
            assert made == (r["outcome"] == "won")
            # one deal is one game under the bhoos preset: the deal's winner wins the game
            assert r["game_winner"] == (team if made else 1 - team)
    # both tables of a deal got the same cards
    for d in range(6):
        one, two = (r for r in rounds if r["deal"] == d)
        assert one["deck"] == two["deck"] and one["dealer"] == two["dealer"]


def test_a_rounds_actions_replay_it_from_its_deck_and_dealer() -> None:
    from twentynine.engine.actions import action_from_json
    from twentynine.engine.round import apply, start_round

    rounds: list[dict[str, Any]] = []
    rules = preset("bhoos")
    run_arena("intermediate", "beginner", 4, 11, rules, "bhoos", on_round=rounds.append)
    plays = 0
    for r in rounds:
        st, _ = start_round(rules, r["dealer"], [parse_card(c) for c in r["deck"]])
        for a in r["actions"]:
            st, _ = apply(st, action_from_json(a, a["seat"]))
            plays += a["act"] == "play"
        assert st.is_over
        summary = st.summary()
        assert {k: summary[k] for k in ("outcome", "bidder", "bid", "points", "trump")} == {
            k: r[k] for k in ("outcome", "bidder", "bid", "points", "trump")
        }
    assert plays > 0
