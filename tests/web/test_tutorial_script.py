"""The tutorial's scripted deal replays exactly with the engine: every move legal for its
seat in turn, your listed choices the engine's legal actions, and the tricks, the trump shown,
the auction and the result as the script says."""

from __future__ import annotations

from twentynine.engine import apply, event_json, legal_actions, parse_card, preset, start_round
from twentynine.engine import to_act as seats_to_act
from twentynine.engine.actions import action_from_json

from .tutorial import tutorial_deal

ACTION_FIELDS = ("seat", "act", "value", "suit", "card")


def test_the_tutorial_deal_replays_with_the_engine() -> None:
    deal = tutorial_deal()
    assert sorted(deal["deck"]) == sorted({c for c in deal["deck"]}) and len(deal["deck"]) == 32
    st, _ = start_round(
        preset(deal["preset"]), deal["dealer"], [parse_card(c) for c in deal["deck"]]
    )
    you = deal["you"]
    moves = 0
    for step in deal["steps"]:
        if "act" not in step:
            continue
        action = action_from_json({k: step[k] for k in ACTION_FIELDS if k in step})
        assert not st.is_over, step
        assert action.seat in seats_to_act(st), step
        assert step["phase"] == st.phase.name.lower(), step
        legal = legal_actions(st, action.seat)
        assert action in legal, step
        if action.seat == you:
            assert step["legal"] == [a.text for a in legal], step
        st, events = apply(st, action)
        seen = [event_json(e) for e in events]
        won = [[e["winner"], e["points"]] for e in seen if e["type"] == "trick_won"]
        assert step.get("won") == (won[0] if won else None), step
        shown = [e["suit"] for e in seen if e["type"] == "trump_shown"]
        assert step.get("shown") == (shown[0] if shown else None), step
        auction = [[e["bidder"], e["bid"]] for e in seen if e["type"] == "auction_won"]
        assert step.get("bidder") == (auction[0] if auction else None), step
        moves += 1
    assert st.is_over and moves == sum("act" in s for s in deal["steps"])
    end = next(s["end"] for s in deal["steps"] if "end" in s)
    assert end == {
        "outcome": st.outcome,
        "early": st.early,
        "score_delta": list(st.score_delta),
        "points": list(st.points),
        "tricks_won": list(st.tricks_won),
    }
    # the learner makes a fair share of the moves, and every move of theirs is explained
    mine = [s for s in deal["steps"] if s.get("seat") == you]
    assert len(mine) >= 10 and all("say" in s for s in mine)
