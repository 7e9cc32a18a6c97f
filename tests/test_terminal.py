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
