"""Illegal actions raise IllegalAction with a reason and leave the state exactly as it was."""

from __future__ import annotations

import pytest

from tests.engine.deals import DEALER, PLAY, SEVENTH
from tests.engine.helpers import assert_illegal, autoplay, deck_from_hands, play, snapshot
from twentynine.engine import (
    STANDARD,
    Act,
    Action,
    IllegalAction,
    Phase,
    apply,
    preset,
    start_round,
)

WIN_16 = "0: bid 16; 1: pass; 2: pass; 3: pass"
TO_PLAY = f"{WIN_16}; 0: trump H; 1: pass; 3: pass; 0: pass; 1: pass; 2: pass; 3: pass"
SEVENTH_TO_PLAY = TO_PLAY.replace("trump H", "trump seventh")

CASES = [
    # (rules, deal, script to reach the state, refused line, reason, phase)
    ("standard", PLAY, "", "2: bid 16", "not_your_turn", Phase.AUCTION),
    ("standard", PLAY, "", "0: bid 15", "bad_bid", Phase.AUCTION),
    ("standard", PLAY, "0: bid 20", "1: bid 20", "bad_bid", Phase.AUCTION),
    ("standard", PLAY, "0: bid 16; 1: bid 17", "0: bid 18", "bad_bid", Phase.AUCTION),
    ("standard", PLAY, "", "0: play JS", "not_allowed", Phase.AUCTION),
    ("standard", PLAY, "", "0: double", "not_allowed", Phase.AUCTION),
    ("bhoos", PLAY, "", "0: pass", "not_allowed", Phase.AUCTION),
    ("standard", PLAY, WIN_16, "1: trump H", "not_your_turn", Phase.TRUMP),
    ("standard", PLAY, WIN_16, "0: trump JS", "not_allowed", Phase.TRUMP),
    ("standard", PLAY, WIN_16, "0: pass", "not_allowed", Phase.TRUMP),
    ("pagat", PLAY, WIN_16, "0: trump 7H", "not_allowed", Phase.TRUMP),
    ("standard", PLAY, f"{WIN_16}; 0: trump H", "0: double", "not_your_turn", Phase.DOUBLING),
    ("standard", PLAY, f"{WIN_16}; 0: trump H", "1: redouble", "not_allowed", Phase.DOUBLING),
    (
        "standard",
        PLAY,
        f"{WIN_16}; 0: trump seventh; 1: double; 0: pass; 2: pass",
        "2: redouble",
        "not_your_turn",
        Phase.SEVENTH_REDOUBLE,
    ),
    (
        "standard",
        PLAY,
        f"{WIN_16}; 0: trump seventh; 1: double; 0: pass; 2: pass",
        "0: setdouble",
        "not_allowed",
        Phase.SEVENTH_REDOUBLE,
    ),
    (
        "standard",
        PLAY,
        f"{WIN_16}; 0: trump H; 1: pass; 3: pass",
        "1: single_hand",
        "not_your_turn",
        Phase.SINGLE_HAND,
    ),
    ("standard", PLAY, TO_PLAY, "1: play KS", "not_your_turn", Phase.PLAY),
    ("standard", PLAY, TO_PLAY, "0: play KS", "not_in_hand", Phase.PLAY),
    ("standard", PLAY, TO_PLAY, "0: reveal", "not_allowed", Phase.PLAY),
    ("standard", PLAY, TO_PLAY, "0: pair", "not_allowed", Phase.PLAY),
    ("standard", PLAY, TO_PLAY, "0: bid 20", "not_allowed", Phase.PLAY),
    ("standard", PLAY, f"{TO_PLAY}; 0: play JS", "1: play JD", "must_follow_suit", Phase.PLAY),
    ("standard", PLAY, f"{TO_PLAY}; 0: play JS", "1: reveal", "not_allowed", Phase.PLAY),
    ("standard", PLAY, SEVENTH_TO_PLAY, "0: play 7H", "indicator_hidden", Phase.PLAY),
    ("standard", SEVENTH, SEVENTH_TO_PLAY, "1: play 7H", "not_your_turn", Phase.PLAY),
    (
        "standard",
        PLAY,
        f"{TO_PLAY}; 0: play JS; 1: play 7S; 2: reveal",
        "2: play JC",
        "not_allowed",
        Phase.PLAY,
    ),
    ("standard", PLAY, "0: pass; 1: pass; 2: pass; 3: pass", "0: bid 16", "round_over", Phase.OVER),
]


@pytest.mark.parametrize(("name", "deal", "script", "line", "reason", "phase"), CASES)
def test_illegal_action_is_refused_and_changes_nothing(
    name: str, deal, script: str, line: str, reason: str, phase: Phase
) -> None:
    st, _ = play(preset(name), DEALER, deal, script)
    assert st.phase is phase
    exc = assert_illegal(st, line, reason)
    seat, _, text = line.partition(": ")
    # the message names the seat or what was tried
    assert f"seat {seat}" in exc.message or text.split()[-1] in exc.message


def test_refused_card_message_lists_the_legal_cards() -> None:
    st, _ = play(STANDARD, DEALER, PLAY, f"{TO_PLAY}; 0: play JS")
    exc = assert_illegal(st, "1: play JD", "must_follow_suit")
    for code in ("KS", "QS", "8S", "7S"):
        assert f"play {code}" in exc.message


def test_state_stays_usable_after_a_refusal() -> None:
    st, _ = play(STANDARD, DEALER, PLAY, TO_PLAY)
    assert_illegal(st, "0: play KS", "not_in_hand")
    new, _ = apply(st, Action(0, Act.PLAY, 31))  # JS
    assert new.trick == ((0, 31),) and st.trick == ()


def test_round_over_after_play() -> None:
    st, _ = play(STANDARD, DEALER, PLAY, SEVENTH_TO_PLAY)
    st, _ = autoplay(st)
    assert st.phase is Phase.OVER
    assert_illegal(st, "0: play JS", "round_over")


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("bid 16", "malformed"),
        (Action(5, Act.PASS), "bad_seat"),
        (Action(-1, Act.BID, 16), "bad_seat"),
        (Action(0, Act.PLAY, 40), "malformed"),
    ],
)
def test_malformed_actions(action, reason: str) -> None:
    st, _ = play(STANDARD, DEALER, PLAY, TO_PLAY)
    before = snapshot(st)
    with pytest.raises(IllegalAction) as info:
        apply(st, action)
    assert info.value.reason == reason
    assert snapshot(st) == before


def test_bad_dealer_and_bad_deck() -> None:
    deck = deck_from_hands(DEALER, PLAY)
    with pytest.raises(IllegalAction) as info:
        start_round(STANDARD, 4, deck)
    assert info.value.reason == "bad_dealer"
    with pytest.raises(IllegalAction) as info:
        start_round(STANDARD, 0, deck[:-1] + deck[:1])
    assert info.value.reason == "bad_deck"
