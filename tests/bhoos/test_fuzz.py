"""Never refuse a game, fuzzed: every recorded request, its history bent at random in ways that
keep the body well-formed (calls dropped, repeated, reordered or changed, tricks swapped or
repeated, leaders and winners moved, trump shown by anyone at any trick, the teams' points and
bids changed), gets a 200 and an answer legal by the protocol's own reading of the request.

Cards are bent too: any card may stand in the trick in progress or a past trick (ours, or one
played already), and our hand may hold a card fewer than the history says; a card twice in
one list (our hand, a trick) is malformed (``test_server.BAD``) and is never made.
``timeRemaining`` is generous, so that the check is of the answer, not of the clock.

``run_bhoos_fuzz`` is also what ``benchmarks/fuzz.py --bhoos N`` runs for longer."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from tests.bhoos.test_server import (
    ORDER,
    PAYLOAD_FILES,
    check_answer_whatever_the_history,
    endpoint_of,
    load,
)
from twentynine.bhoos.server import create_app

SUITS = ("S", "H", "C", "D")
#: every card as the protocol writes it
CARDS = tuple(rank + suit for suit in SUITS for rank in ORDER)

#: one bend of a body: the body and a draw function, changed in place
Bend = Callable[[dict[str, Any], st.DrawFn], None]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app("random", seed=29)) as c:
        yield c


def _ids(body: dict[str, Any]) -> list[str]:
    ids: list[str] = body["playerIds"]
    return ids


def _index(draw: st.DrawFn, items: list[Any]) -> int:
    return draw(st.integers(0, len(items) - 1))


def drop_call(body: dict[str, Any], draw: st.DrawFn) -> None:
    calls = body["bidHistory"]
    if calls:
        del calls[_index(draw, calls)]


def repeat_call(body: dict[str, Any], draw: st.DrawFn) -> None:
    calls = body["bidHistory"]
    if calls:
        i = _index(draw, calls)
        calls.insert(i, list(calls[i]))


def swap_calls(body: dict[str, Any], draw: st.DrawFn) -> None:
    calls = body["bidHistory"]
    if len(calls) > 1:
        i, j = _index(draw, calls), _index(draw, calls)
        calls[i], calls[j] = calls[j], calls[i]


def change_call(body: dict[str, Any], draw: st.DrawFn) -> None:
    calls = body["bidHistory"]
    if calls:
        i = _index(draw, calls)
        calls[i] = [draw(st.sampled_from(_ids(body))), draw(st.integers(0, 40))]


def change_bid_state(body: dict[str, Any], draw: st.DrawFn) -> None:
    state = body.get("bidState")
    if state is not None:
        key = draw(st.sampled_from(sorted(state)))
        if key.endswith("Id"):
            state[key] = draw(st.sampled_from(_ids(body)))
        else:
            state[key] = draw(st.integers(0, 30))


def change_mover(body: dict[str, Any], draw: st.DrawFn) -> None:
    body["playerId"] = draw(st.sampled_from(_ids(body)))


def swap_tricks(body: dict[str, Any], draw: st.DrawFn) -> None:
    tricks = body.get("handsHistory") or []
    if len(tricks) > 1:
        i, j = _index(draw, tricks), _index(draw, tricks)
        tricks[i], tricks[j] = tricks[j], tricks[i]


def repeat_trick(body: dict[str, Any], draw: st.DrawFn) -> None:
    tricks = body.get("handsHistory") or []
    if tricks:
        i = _index(draw, tricks)
        tricks.insert(i, copy.deepcopy(tricks[i]))


def drop_trick(body: dict[str, Any], draw: st.DrawFn) -> None:
    tricks = body.get("handsHistory") or []
    if tricks:
        del tricks[_index(draw, tricks)]


def move_leader_or_winner(body: dict[str, Any], draw: st.DrawFn) -> None:
    tricks = body.get("handsHistory") or []
    if tricks:
        trick = tricks[_index(draw, tricks)]
        trick[draw(st.sampled_from((0, 2)))] = draw(st.sampled_from(_ids(body)))


def show_trump(body: dict[str, Any], draw: st.DrawFn) -> None:
    if "trumpRevealed" in body:
        if draw(st.booleans()):
            body["trumpRevealed"] = False
        else:
            body["trumpRevealed"] = {
                "hand": draw(st.integers(1, 8)),
                "playerId": draw(st.sampled_from(_ids(body))),
            }


def change_trump_suit(body: dict[str, Any], draw: st.DrawFn) -> None:
    if "trumpSuit" in body:
        body["trumpSuit"] = draw(st.sampled_from((False, *SUITS)))


def change_team(body: dict[str, Any], draw: st.DrawFn) -> None:
    teams = body.get("teams")
    if teams:
        team = teams[_index(draw, teams)]
        team[draw(st.sampled_from(("bid", "won")))] = draw(st.integers(0, 29))


def drop_played(body: dict[str, Any], draw: st.DrawFn) -> None:
    played = body.get("played")
    if played:
        del played[_index(draw, played)]


def _replace_card(cards: list[str], draw: st.DrawFn) -> None:
    """One of ``cards`` becomes any card not already among them (a card twice in one list is
    malformed, a 400)."""
    i = _index(draw, cards)
    cards[i] = draw(st.sampled_from([c for c in CARDS if c not in cards or c == cards[i]]))


def change_played(body: dict[str, Any], draw: st.DrawFn) -> None:
    """A card of the trick in progress becomes any card (one of ours, one played before)."""
    played = body.get("played")
    if played:
        _replace_card(played, draw)


def change_past_card(body: dict[str, Any], draw: st.DrawFn) -> None:
    tricks = body.get("handsHistory") or []
    if tricks:
        _replace_card(tricks[_index(draw, tricks)][1], draw)


def drop_hand_card(body: dict[str, Any], draw: st.DrawFn) -> None:
    """One card fewer in our hand than the history says we hold (never none)."""
    cards = body["cards"]
    if len(cards) > 1:
        del cards[_index(draw, cards)]


BENDS: tuple[Bend, ...] = (
    drop_call,
    repeat_call,
    swap_calls,
    change_call,
    change_bid_state,
    change_mover,
    swap_tricks,
    repeat_trick,
    drop_trick,
    move_leader_or_winner,
    show_trump,
    change_trump_suit,
    change_team,
    drop_played,
    change_played,
    change_past_card,
    drop_hand_card,
)


@st.composite
def bent_requests(draw: st.DrawFn) -> tuple[str, dict[str, Any], list[str]]:
    name = draw(st.sampled_from(PAYLOAD_FILES))
    body = copy.deepcopy(load(name))
    body["timeRemaining"] = 1500
    done = []
    for bend in draw(st.lists(st.sampled_from(BENDS), min_size=1, max_size=4)):
        bend(body, draw)
        done.append(bend.__name__)
    return endpoint_of(name), body, done


@dataclass
class BhoosFuzz:
    """What a run sent and got: requests by endpoint, the bends used, and each failure (a
    status other than 200, or an answer the protocol would refuse) with its request."""

    requests: Counter[str] = field(default_factory=Counter)
    bends: Counter[str] = field(default_factory=Counter)
    failures: list[dict[str, Any]] = field(default_factory=list)


def check_bent(client: TestClient, endpoint: str, body: dict[str, Any]) -> str | None:
    """Send one bent request; what is wrong with its answer, or None."""
    sent = copy.deepcopy(body)
    r = client.post(f"/{endpoint}", json=body)
    if r.status_code != 200:
        return f"status {r.status_code}: {r.text}"
    answer = r.json()
    try:
        check_answer_whatever_the_history(endpoint, sent, answer)
    except AssertionError as e:
        return f"illegal answer {answer}: {e}"
    return None


def run_bhoos_fuzz(client: TestClient, examples: int, seed: int | None = None) -> BhoosFuzz:
    """``examples`` bent requests (Hypothesis; ``seed`` None: the same examples every run) sent
    to ``client``; every failure recorded."""
    out = BhoosFuzz()

    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=seed is None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(bent_requests())
    def one(request: tuple[str, dict[str, Any], list[str]]) -> None:
        endpoint, body, bends = request
        out.requests[endpoint] += 1
        out.bends.update(bends)
        wrong = check_bent(client, endpoint, body)
        if wrong is not None:
            out.failures.append({"bends": bends, "request": body, "detail": wrong})

    if seed is not None:
        one = hypothesis_seed(seed)(one)
    one()
    return out


def test_a_bent_history_still_gets_a_legal_answer(client: TestClient) -> None:
    fuzz = run_bhoos_fuzz(client, 300)
    assert sum(fuzz.requests.values()) >= 250
    assert set(fuzz.requests) == {"bid", "chooseTrump", "play"}
    assert set(fuzz.bends) == {bend.__name__ for bend in BENDS}
    assert fuzz.failures == []
