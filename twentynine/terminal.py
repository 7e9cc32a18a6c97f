"""``twentynine play``: a whole game in the terminal, you in seat 0 against three bots.

Every decision of the rules is offered as a numbered list of the legal actions; you may type the
number, the action's text (``bid 17``, ``play JS``, ``reveal`` …) or its short form (``17``,
``JS``, ``H``), ``help`` or ``quit``. Anything else is explained and asked again.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rich.console import Console

from .bots import Bot, make_bot
from .engine.actions import Act, Action, action_text, parse_action
from .engine.cards import SUIT_NAMES, SUITS, card_code
from .engine.errors import EngineError
from .engine.events import (
    AuctionWon,
    BidMade,
    CardPlayed,
    Event,
    PairDeclared,
    Passed,
    RoundEnded,
    RoundInvalid,
    SingleHandCalled,
    StakeRaised,
    TrickWon,
    TrumpChosen,
    TrumpShown,
)
from .engine.game import GameOver, GameState, ScoreChanged, apply, new_game, next_round
from .engine.round import to_act
from .engine.rules import Rules
from .engine.shuffle import next_deck, secure_rng
from .engine.views import View, view

YOU = 0
NAMES = ("South (you)", "East", "North (partner)", "West")

_DESCRIBE: dict[str, str] = {
    "pass": "pass",
    "double": "Double",
    "redouble": "Redouble",
    "setdouble": "SetDouble",
    "single_hand": "call Single Hand",
    "reveal": "ask for trump to be shown",
    "pair": "declare the royal pair",
    "trump seventh": "trump by the seventh card",
}


def describe(action: Action) -> str:
    text = action_text(action)
    if text in _DESCRIBE:
        return _DESCRIBE[text]
    word, _, arg = text.partition(" ")
    if word == "trump" and len(arg) == 1:
        return f"trump {SUIT_NAMES[SUITS.index(arg)]}"
    if word == "trump":
        return f"lay {arg} face down as trump"
    return text


def _cards(cards: tuple[int, ...] | None) -> str:
    return " ".join(card_code(c) for c in cards) if cards else "-"


def render(v: View, console: Console) -> None:
    console.rule(f"[bold]{v.phase.name.replace('_', ' ').lower()}")
    if v.bidder is not None:
        trump = SUITS[v.trump] if v.trump is not None else "hidden"
        shown = " (shown)" if v.trump_shown else ""
        target = f", target {v.target}" if v.target is not None else ""
        console.print(
            f"bidder {NAMES[v.bidder]}, bid {v.bid}{target}, trump {trump}{shown}, stake {v.stake}"
        )
    if v.caller is not None:
        console.print(f"Single Hand by {NAMES[v.caller]}")
    if v.trick:
        console.print("trick: " + ", ".join(f"{NAMES[s]} {card_code(c)}" for s, c in v.trick))
    console.print(f"points: us {v.points[0]}, them {v.points[1]}")
    if v.indicator is not None:
        console.print(f"your face-down trump card: {card_code(v.indicator)}")
    for seat in range(4):
        if seat != YOU and v.hands[seat] is not None:
            console.print(f"{NAMES[seat]}'s hand: {_cards(v.hands[seat])}")
    console.print(f"[bold]your hand:[/bold] {_cards(v.hands[YOU])}")


HELP = """[bold]how to answer[/bold]
  a number from the list, or the action's text: bid 17, pass, trump H, play JS, reveal, double
  short forms: 17 (a bid), p (pass), JS (a card; any case), H or hearts (a trump suit)
  help or ? shows this; quit or q leaves the game"""


class Quit(Exception):
    """The player asked to leave the game."""


def shortcut(raw: str, legal: list[Action]) -> Action | None:
    """The legal action a short answer means: ``17`` a bid, ``p`` pass, ``js`` a card,
    ``h`` or ``hearts`` a trump suit; None when it means none of them."""
    word = raw.strip()
    if word.lower() == "p":
        word = "pass"
    suit_names = {name.lower(): SUITS[i] for i, name in enumerate(SUIT_NAMES)}
    word = suit_names.get(word.lower(), word)
    tries = [word, word.lower()]
    if word and " " not in word:
        tries += [f"{verb} {word.upper()}" for verb in ("bid", "play", "trump")]
    for text in tries:
        try:
            action = parse_action(text, YOU)
        except EngineError:
            continue
        if action in legal:
            return action
    return None


def ask(v: View, console: Console, read: Callable[[str], str]) -> Action:
    legal = list(v.legal)
    for i, a in enumerate(legal, 1):
        label = describe(a)
        if v.holder == YOU and a.act is Act.BID and a.arg == v.bid:
            label = f"match {a.arg}"
        console.print(f"  {i:>2}. {label}  [dim]({action_text(a)})[/dim]")
    while True:
        raw = read("your choice: ").strip()
        if raw.lower() in ("help", "?"):
            console.print(HELP)
            continue
        if raw.lower() in ("quit", "q", "exit"):
            raise Quit
        if raw.isdigit() and 1 <= int(raw) <= len(legal):
            return legal[int(raw) - 1]
        short = shortcut(raw, legal)
        if short is not None:
            return short
        try:
            action = parse_action(raw, YOU)
        except EngineError as e:
            console.print(f"[red]{e}[/red]; type a number 1-{len(legal)} or an action's text")
            continue
        if action in legal:
            return action
        console.print(
            f"[red]{action_text(action)} is not allowed now[/red]; "
            f"choose one of: {', '.join(action_text(a) for a in legal)}"
        )


def narrate(events: list[Event | ScoreChanged | GameOver], console: Console) -> None:
    for e in events:
        text = _event_text(e)
        if text:
            console.print(text)


def _event_text(e: object) -> str:
    if isinstance(e, BidMade):
        return f"{NAMES[e.seat]} bids {e.bid}"
    if isinstance(e, Passed):
        return f"{NAMES[e.seat]} passes" + ("" if e.stage == "auction" else f" ({e.stage})")
    if isinstance(e, AuctionWon):
        return f"{NAMES[e.bidder]} wins the auction at {e.bid}" + (" (forced)" if e.forced else "")
    if isinstance(e, TrumpChosen):
        return f"{NAMES[e.seat]} sets trump ({e.mode.replace('_', ' ')})"
    if isinstance(e, StakeRaised):
        return f"{NAMES[e.seat]} calls {e.call}: stake {e.stake}"
    if isinstance(e, SingleHandCalled):
        return f"{NAMES[e.seat]} calls Single Hand!"
    if isinstance(e, TrumpShown):
        return f"trump shown: {SUIT_NAMES[e.suit]} (asked by {NAMES[e.seat]})"
    if isinstance(e, PairDeclared):
        return f"{NAMES[e.seat]} declares the royal pair: target now {e.target}"
    if isinstance(e, CardPlayed):
        return f"{NAMES[e.seat]} plays {card_code(e.card)}"
    if isinstance(e, TrickWon):
        unit = "point" if e.points == 1 else "points"
        return f"trick {e.trick} to {NAMES[e.winner]} ({e.points} {unit})"
    if isinstance(e, RoundInvalid):
        return f"[yellow]round invalid: {e.reason.replace('_', ' ')}; the cards are dealt again[/]"
    if isinstance(e, RoundEnded) and e.outcome != "invalid":
        return f"[bold]round {e.outcome} by the bidder's team; score change {e.score_delta}[/]"
    if isinstance(e, ScoreChanged):
        return (
            f"scores: us {e.scores[0]}, them {e.scores[1]}; sets red {e.red_sets} black "
            f"{e.black_sets}"
        )
    if isinstance(e, GameOver):
        who = (
            "nobody (a draw)"
            if e.winner is None
            else ("your team" if e.winner == 0 else "the other team")
        )
        return f"[bold green]game over: {who} wins[/]"
    return ""


def play_game(
    rules: Rules,
    level: str,
    console: Console | None = None,
    read: Callable[[str], str] = input,
    seed: int | None = None,
    max_deals: int = 1000,
) -> GameState:
    """Play until the game has a result (or ``max_deals``); returns the final game state."""
    console = console or Console()
    rng = random.Random(seed) if seed is not None else secure_rng()
    bots: dict[int, Bot] = {
        s: make_bot(level, None if seed is None else seed + s) for s in (1, 2, 3)
    }
    game, events = new_game(rules, 3, next_deck(None, rules.shuffle, rng))
    narrate(events, console)
    for _ in range(max_deals):
        while not game.round.is_over:
            rnd = game.round
            seats = to_act(rnd)
            seat = YOU if YOU in seats else seats[0]
            v = view(rnd, seat)
            if seat == YOU:
                render(v, console)
                action = ask(v, console, read)
            else:
                action = bots[seat].choose(v)
            game, events = apply(game, action)
            narrate(events, console)
        render(view(game.round, YOU), console)
        if game.over:
            break
        game, events = next_round(game, next_deck(game.round, rules.shuffle, rng))
        narrate(events, console)
    return game
