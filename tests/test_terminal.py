"""The terminal client plays a whole game and explains bad input."""

from __future__ import annotations

import io
import itertools

from rich.console import Console

from twentynine.engine import preset
from twentynine.terminal import play_game


def test_terminal_game_reaches_a_result_and_explains_bad_input() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None)
    answers = itertools.chain(["", "fly away", "99", "play ZZ"], itertools.repeat("1"))
    game = play_game(
        preset("standard"), "random", console, read=lambda _prompt: next(answers), seed=5
    )
    text = buffer.getvalue()
    assert game.over
    assert "game over" in text
    assert "unknown action 'fly away'" in text
    assert "not a card code" in text
    assert "your hand:" in text


def test_short_answers_help_and_quit() -> None:
    """``17`` bids, ``p`` passes, ``js`` plays the Jack of spades, ``hearts`` names trump;
    ``help`` explains, ``quit`` leaves."""
    from twentynine.engine.actions import Act, Action
    from twentynine.engine.cards import parse_card
    from twentynine.terminal import Quit, shortcut

    bids = [Action(0, Act.BID, b) for b in range(16, 29)] + [Action(0, Act.PASS)]
    assert shortcut("17", bids) == Action(0, Act.BID, 17)
    assert shortcut("p", bids) == Action(0, Act.PASS)
    assert shortcut("29", bids) is None  # no such bid
    suits = [Action(0, Act.TRUMP_SUIT, s) for s in range(4)]
    assert shortcut("hearts", suits) == shortcut("h", suits) == Action(0, Act.TRUMP_SUIT, 2)
    cards = [Action(0, Act.PLAY, parse_card(c)) for c in ("JS", "7D")]
    assert shortcut("js", cards) == Action(0, Act.PLAY, parse_card("JS"))
    assert shortcut("JH", cards) is None  # not in the hand
    assert shortcut("", cards) is None

    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None)
    answers = iter(["help", "16", "quit"])
    try:
        play_game(preset("standard"), "random", console, read=lambda _p: next(answers), seed=5)
    except Quit:
        pass
    else:
        raise AssertionError("quit did not leave the game")
    text = buffer.getvalue()
    assert "how to answer" in text
    assert "South (you) bids 16" in text  # seat 0 speaks first in this seed's first deal
