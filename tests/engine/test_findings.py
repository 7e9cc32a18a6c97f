"""Two findings from replaying random deals against an independent reading of RULES.md.

1. The bidder's hidden seventh card, forced to be shown and played, is one action: the card
   lands in the trick before a result that the showing settles (a pair declared on it) ends the
   round; the round never ends between the showing and the card.
2. ``replay`` reports ``stake`` and ``ended_after_trick`` as null for an invalid deal in which
   nothing was staked or played, as for a deal without a contract.
"""

from __future__ import annotations

import json
import random

from twentynine.cli import main
from twentynine.engine import STANDARD, Act, apply, legal_actions, start_round
from twentynine.engine.events import CardPlayed, RoundEnded, TrickWon, TrumpShown
from twentynine.engine.records import DealRecord, RulesSpec


def _seventh_card_plays(seeds: range) -> list[tuple[list[object], object, object]]:
    """(events, state before, state after) of every action in which a bidder played its
    hidden seventh card, over random legal play of ``seeds``' deals."""
    found = []
    for n in seeds:
        rng = random.Random(n)
        deck = list(range(32))
        rng.shuffle(deck)
        st, _ = start_round(STANDARD, n % 4, deck)
        while not st.is_over:
            legal = legal_actions(st)
            action = legal[rng.randrange(len(legal))]
            before = st
            st, events = apply(st, action)
            if (
                action.act is Act.PLAY
                and action.arg == before.indicator
                and action.seat == before.bidder
                and not before.trump_shown
            ):
                found.append((list(events), before, st))
    return found


def test_the_seventh_card_lands_before_the_round_ends() -> None:
    plays = _seventh_card_plays(range(3000))
    ending = [p for p in plays if any(isinstance(e, RoundEnded) for e in p[0])]
    assert len(plays) >= 5 and len(ending) >= 2  # seeds 2063 and 2622 end the round on it
    for events, before, after in plays:
        kinds = [type(e) for e in events]
        assert kinds[0] is TrumpShown and CardPlayed in kinds
        card = next(e for e in events if isinstance(e, CardPlayed))
        assert card.card == before.indicator  # type: ignore[attr-defined]
        if RoundEnded in kinds:
            assert kinds.index(CardPlayed) < kinds.index(RoundEnded)
            # the trick the card finished is counted, not left unfinished
            if len(before.trick) == 3:  # type: ignore[attr-defined]
                assert TrickWon in kinds and after.trick == ()  # type: ignore[attr-defined]
            held = sum(len(t.plays) for t in after.tricks) + len(after.trick)  # type: ignore[attr-defined]
            assert held == sum(len(t.plays) for t in before.tricks) + len(before.trick) + 1  # type: ignore[attr-defined]


def _replay_json(tmp_path, capsys, actions: list[dict[str, object]], deck: list[int]) -> dict:  # type: ignore[no-untyped-def]
    record = DealRecord(RulesSpec("standard", {}), 3, tuple(deck), ())
    data = record.to_json()
    data["actions"] = actions
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(data))
    main(["replay", str(path), "--json"])
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def test_replay_reports_null_for_a_deal_with_nothing_staked(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    deck = list(range(32))
    random.Random(5).shuffle(deck)
    passes = [{"seat": s, "act": "pass"} for s in (0, 1, 2, 3)]
    out = _replay_json(tmp_path, capsys, passes, deck)
    assert out["complete"] is True and out["outcome"] == "invalid"
    assert out["stake"] is None and out["ended_after_trick"] is None and out["bid"] is None


def test_replay_keeps_figures_of_a_played_deal(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from twentynine.engine import preset
    from twentynine.simulate import play_deals

    for game, record in play_deals(preset("standard"), 40, random.Random(8)):
        st = game.round
        path = tmp_path / "deal.json"
        path.write_text(record.dumps())
        main(["replay", str(path), "--json"])
        out = json.loads(capsys.readouterr().out)
        if st.outcome in ("won", "lost"):
            assert out["stake"] == st.stake >= 1 and out["ended_after_trick"] == len(st.tricks) >= 1
        elif not st.tricks:
            assert out["ended_after_trick"] is None
