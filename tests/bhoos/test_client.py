"""``BhoosBot``: an external Bhoos-protocol bot in our engine's seat, over real HTTP.

Our own protocol server runs under uvicorn in a background thread; whole deals of the ``bhoos``
preset are played with it in some seats. A deliberately broken fake server checks that bad
answers end in a clear ``BhoosBotError``.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from twentynine.bhoos import BhoosBot, BhoosBotError
from twentynine.bhoos.payload import DEAL_TIME_MS, card_to_bhoos
from twentynine.bhoos.server import create_app
from twentynine.bots import Bot, RandomBot
from twentynine.engine import Act, RoundState, apply, preset, start_round, to_act
from twentynine.engine.state import Phase
from twentynine.engine.views import View, view

RULES = preset("bhoos")


@contextmanager
def running(app: FastAPI) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a free port of 127.0.0.1 in a background thread.

    uvicorn binds port 0 itself (handing it a ready socket instead leaves Nagle's algorithm on
    and every kept-alive request waits ~40 ms for a delayed ACK)."""
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def bot_url() -> Iterator[str]:
    with running(create_app("random", seed=21)) as url:
        yield url


def deck_for(seed: int) -> list[int]:
    deck = list(range(32))
    random.Random(seed).shuffle(deck)
    return deck


def play_deal(bots: dict[int, Bot], deck: list[int]) -> RoundState:
    state, _ = start_round(RULES, 3, deck)
    while not state.is_over:
        seat = to_act(state)[0]
        action = bots[seat].choose(view(state, seat))
        state, _ = apply(state, action)  # raises IllegalAction on an illegal choice
    return state


# -- against our own server, for real -------------------------------------------------------------
def test_hello(bot_url: str) -> None:
    with BhoosBot(bot_url) as bot:
        assert bot.hello()


def test_whole_deals_against_random_bots(bot_url: str) -> None:
    """BhoosBots in seats 0 and 3 (the first hand and the dealer), random bots elsewhere."""
    with BhoosBot(bot_url) as first, BhoosBot(bot_url, name="dealer") as dealer:
        bots: dict[int, Bot] = {0: first, 1: RandomBot(1), 2: RandomBot(2), 3: dealer}
        outcomes = []
        for d in range(6):
            before = first.calls_made
            state = play_deal(bots, deck_for(d))
            assert state.phase is Phase.OVER
            assert state.outcome in ("won", "lost", "invalid")
            outcomes.append(state.outcome)
            assert first.calls_made > before  # it bid at least (the first hand must)
            assert 0 < first.time_remaining_ms <= DEAL_TIME_MS
        assert dealer.calls_made >= 6
    assert set(outcomes) & {"won", "lost"}


def test_all_four_seats_external(bot_url: str) -> None:
    bots = {s: BhoosBot(bot_url) for s in range(4)}
    try:
        for d in range(2):
            assert play_deal(dict(bots.items()), deck_for(100 + d)).is_over
    finally:
        for b in bots.values():
            b.close()


def test_other_rules_are_refused(bot_url: str) -> None:
    state, _ = start_round(preset("standard"), 3, deck_for(0))
    with BhoosBot(bot_url) as bot, pytest.raises(BhoosBotError, match="'bhoos' preset"):
        bot.choose(view(state, to_act(state)[0]))


def test_no_server_is_a_clear_error() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nobody listens here now
    state, _ = start_round(RULES, 3, deck_for(0))
    with (
        BhoosBot(f"http://127.0.0.1:{port}", timeout=2) as bot,
        pytest.raises(BhoosBotError, match="no answer"),
    ):
        bot.choose(view(state, 0))


# -- a deliberately broken fake server ------------------------------------------------------------
class Fake:
    """What the fake bot answers: a function of (endpoint, request body) -> (status, raw body)."""

    def __init__(self) -> None:
        self.reply: Callable[[str, dict[str, Any]], tuple[int, str]] = lambda e, b: (200, "{}")
        self.requests: list[tuple[str, dict[str, Any]]] = []


def fake_app(fake: Fake) -> FastAPI:
    app = FastAPI()

    @app.post("/{endpoint}")
    async def answer(endpoint: str, request: Request) -> Response:
        body = json.loads(await request.body())
        fake.requests.append((endpoint, body))
        status, raw = fake.reply(endpoint, body)
        return Response(raw, status_code=status, media_type="application/json")

    @app.get("/hi")
    async def hi() -> JSONResponse:
        return JSONResponse({"value": "bye"})

    return app


@pytest.fixture(scope="module")
def fake_server() -> Iterator[tuple[Fake, str]]:
    fake = Fake()
    with running(fake_app(fake)) as url:
        yield fake, url


@pytest.fixture
def fake(fake_server: tuple[Fake, str]) -> Iterator[tuple[Fake, BhoosBot]]:
    f, url = fake_server
    f.requests.clear()
    with BhoosBot(url, timeout=5) as bot:
        yield f, bot


def find_state(pred: Callable[[View], bool], tries: int = 400) -> RoundState:
    """The first state of random bhoos deals whose seat to act has a view satisfying
    ``pred``."""
    for seed in range(tries):
        rng = random.Random(seed)
        state, _ = start_round(RULES, 3, deck_for(seed))
        while not state.is_over:
            v = view(state, to_act(state)[0])
            if pred(v):
                return state
            state, _ = apply(state, v.legal[rng.randrange(len(v.legal))])
    raise AssertionError("no such position found")


def find_view(pred: Callable[[View], bool]) -> View:
    state = find_state(pred)
    return view(state, to_act(state)[0])


def can_follow(v: View) -> bool:
    if v.phase is not Phase.PLAY or not v.trick or v.viewer is None:
        return False
    lead = v.trick[0][1] >> 3
    hand = v.hands[v.viewer] or ()
    return any(c >> 3 == lead for c in hand) and any(c >> 3 != lead for c in hand)


def void_trump_hidden_bidder(v: View) -> bool:
    """The bidder cannot follow, trump is hidden, and the bidder holds a trump."""
    if v.phase is not Phase.PLAY or v.viewer is None or v.viewer != v.bidder:
        return False
    hand = v.hands[v.viewer] or ()
    return (
        any(a.act is Act.REVEAL for a in v.legal)
        and v.trump is not None
        and any(c >> 3 == v.trump for c in hand)
    )


def first_view() -> View:
    state, _ = start_round(RULES, 3, deck_for(0))
    return view(state, 0)


def defender_view() -> View:
    return find_view(lambda v: v.phase is Phase.AUCTION and v.speaker == v.holder)


def off_suit_card(v: View) -> str:
    lead = v.trick[0][1] >> 3
    card = next(c for c in v.hands[v.viewer or 0] or () if c >> 3 != lead)
    return card_to_bhoos(card)


BROKEN: list[tuple[str, Callable[[], View], Callable[[View], tuple[int, str]], str]] = [
    ("bid too high", first_view, lambda v: (200, '{"bid": 35}'), "out of range"),
    ("first bidder passes", first_view, lambda v: (200, '{"bid": 0}'), "not allowed"),
    ("bid below 16", first_view, lambda v: (200, '{"bid": 12}'), "not allowed"),
    ("bid is text", first_view, lambda v: (200, '{"bid": "16"}'), "expected"),
    ("bid is true", first_view, lambda v: (200, '{"bid": true}'), "expected"),
    ("no bid field", first_view, lambda v: (200, '{"value": 16}'), "expected"),
    ("defender underbids", defender_view, lambda v: (200, json.dumps({"bid": v.bid - 1})), "bid"),
    ("not JSON", first_view, lambda v: (200, "sixteen"), "not JSON"),
    ("a JSON list", first_view, lambda v: (200, "[16]"), "JSON object"),
    ("HTTP 500", first_view, lambda v: (500, '{"error": "boom"}'), "HTTP 500"),
    ("HTTP 404", first_view, lambda v: (404, "{}"), "HTTP 404"),
    (
        "bad suit",
        lambda: find_view(lambda v: v.phase is Phase.TRUMP),
        lambda v: (200, '{"suit": "X"}'),
        "suit",
    ),
    (
        "card not held",
        lambda: find_view(lambda v: v.phase is Phase.PLAY and not v.trick),
        lambda v: (200, '{"card": "ZZ"}'),
        "not a card",
    ),
    (
        "card of another hand",
        lambda: find_view(lambda v: v.phase is Phase.PLAY and not v.trick),
        lambda v: (200, json.dumps({"card": _not_held(v)})),
        "not in the hand",
    ),
    (
        "not following suit",
        lambda: find_view(can_follow),
        lambda v: (200, json.dumps({"card": off_suit_card(v)})),
        "not legal",
    ),
    (
        "reveal while able to follow",
        lambda: find_view(can_follow),
        lambda v: (200, '{"revealTrump": true}'),
        "revealTrump is not allowed",
    ),
    (
        "revealTrump not a boolean",
        lambda: find_view(can_follow),
        lambda v: (200, '{"revealTrump": "yes"}'),
        "true or false",
    ),
    ("empty answer to play", lambda: find_view(can_follow), lambda v: (200, "{}"), "expected"),
]


def _first_legal(v: View) -> str:
    return card_to_bhoos(next(a.arg for a in v.legal if a.act is Act.PLAY))


def _not_held(v: View) -> str:
    hand = set(v.hands[v.viewer or 0] or ())
    return card_to_bhoos(next(c for c in range(32) if c not in hand))


@pytest.mark.parametrize(
    ("make_view", "reply", "message"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN]
)
def test_broken_answers_raise_a_clear_error(
    fake: tuple[Fake, BhoosBot],
    make_view: Callable[[], View],
    reply: Callable[[View], tuple[int, str]],
    message: str,
) -> None:
    f, bot = fake
    v = make_view()
    f.reply = lambda endpoint, body: reply(v)
    with pytest.raises(BhoosBotError, match=message) as info:
        bot.choose(v)
    assert bot.url in str(info.value)  # the error names the bot


def test_hello_with_a_wrong_answer(fake: tuple[Fake, BhoosBot]) -> None:
    assert fake[1].hello() is False


def test_requests_follow_the_protocol(fake: tuple[Fake, BhoosBot]) -> None:
    f, bot = fake
    f.reply = lambda endpoint, body: (200, '{"bid": 16}')
    v = first_view()
    assert bot.choose(v).arg == 16
    ((endpoint, body),) = f.requests
    assert endpoint == "bid"
    assert body["playerId"] == "A1"
    assert body["playerIds"] == ["A1", "B1", "A2", "B2"]
    assert body["bidHistory"] == []
    assert body["bidState"] == {
        "defenderId": "A1",
        "challengerId": "B1",
        "defenderBid": 0,
        "challengerBid": 0,
    }
    assert len(body["cards"]) == 4 and all(len(c) == 2 and c[0] != "A" for c in body["cards"])
    assert 0 < body["timeRemaining"] <= DEAL_TIME_MS


def test_time_remaining_counts_down_and_resets_each_deal(fake: tuple[Fake, BhoosBot]) -> None:
    f, bot = fake

    def slow(endpoint: str, body: dict[str, Any]) -> tuple[int, str]:
        time.sleep(0.03)
        return 200, '{"bid": 16}'

    f.reply = slow
    v = first_view()
    bot.choose(v)
    bot.choose(v)  # the same position again: the same deal
    first, second = (b["timeRemaining"] for _, b in f.requests)
    assert first == DEAL_TIME_MS
    assert second <= DEAL_TIME_MS - 30
    later = find_view(lambda w: w.phase is Phase.PLAY and len(w.tricks) == 2)
    f.reply = lambda endpoint, body: (200, json.dumps({"card": _first_legal(later)}))
    bot.choose(later)  # the play of some deal: an auction after it is a new deal
    assert f.requests[-1][1]["timeRemaining"] < DEAL_TIME_MS
    f.reply = lambda endpoint, body: (200, '{"bid": 16}')
    bot.choose(v)
    assert f.requests[-1][1]["timeRemaining"] == DEAL_TIME_MS
    bot.new_deal()
    assert bot.time_remaining_ms == DEAL_TIME_MS


def test_reveal_with_a_card_in_one_answer(fake: tuple[Fake, BhoosBot]) -> None:
    """A bidder may answer ``{"revealTrump": true, "card": …}``: we reveal, then play that card
    without asking again."""
    f, bot = fake
    state = find_state(void_trump_hidden_bidder)
    seat = to_act(state)[0]
    v = view(state, seat)
    trump_card = next(c for c in v.hands[seat] or () if c >> 3 == v.trump)
    answer = json.dumps({"revealTrump": True, "card": card_to_bhoos(trump_card)})
    f.reply = lambda e, b: (200, answer)
    reveal = bot.choose(v)
    assert reveal.act is Act.REVEAL
    state, _ = apply(state, reveal)
    play = bot.choose(view(state, seat))
    assert play.act is Act.PLAY and play.arg == trump_card
    assert len(f.requests) == 1
    apply(state, play)


def test_strict_time_raises_when_the_deal_overruns(fake_server: tuple[Fake, str]) -> None:
    f, url = fake_server

    def slow(endpoint: str, body: dict[str, Any]) -> tuple[int, str]:
        time.sleep(0.1)
        return 200, '{"bid": 16}'

    f.reply = slow
    v = first_view()
    with BhoosBot(url, strict_time=True) as bot:
        bot.choose(v)
        bot.time_remaining_ms = 50  # as if most of this deal's time were gone
        with pytest.raises(BhoosBotError, match="overran"):
            bot.choose(v)


def test_a_defender_may_answer_a_challenge_higher(fake: tuple[Fake, BhoosBot]) -> None:
    """Bhoos bots answer a challenge with more than the challenger bid; the bhoos preset
    takes that as the holder's raise."""
    f, bot = fake
    v = defender_view()
    f.reply = lambda endpoint, body: (200, json.dumps({"bid": v.bid + 1}))
    action = bot.choose(v)
    assert (action.act, action.arg, action.seat) == (Act.BID, v.bid + 1, v.viewer)
