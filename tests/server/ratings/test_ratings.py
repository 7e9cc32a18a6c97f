"""Ratings (issue 17): a rated public table's game, played to its end over real sockets,
updates all four players exactly as openskill's Weng-Lin (Plackett-Luce) model computes it
here in the test; a player who leaves loses, the others keep the result as it stood; a seat a
bot kept to the end loses; ratings are provisional for ten games; bad requests change nothing."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from openskill.models import PlackettLuce

from twentynine.engine.game import GameState
from twentynine.engine.rules import STANDARD
from twentynine.server.ratings.calc import standing

from ..conftest import Client, LiveServer, client_for, sign_in
from ..live.meclient import MeSocket
from ..tables.wsclient import TableSocket, no_single_hand, play_until, unexpected_errors

ONE_ROUND = {"preset": "standard", "options": {"game_end": "match_rounds", "match_rounds": 1}}
THREE_ROUNDS = {"preset": "standard", "options": {"game_end": "match_rounds", "match_rounds": 3}}


def expected(
    before: list[tuple[float, float]],
    winner: int | None,
    losers: set[int] = frozenset(),  # type: ignore[assignment]
) -> list[tuple[float, float]]:
    """openskill, called directly: teams (seats 0, 2) and (1, 3); a loser's own rating is the
    model's answer for their team losing."""
    model = PlackettLuce()

    def rate(win: int | None) -> list[tuple[float, float]]:
        teams = [
            [model.rating(mu=before[s][0], sigma=before[s][1]) for s in (t, t + 2)] for t in (0, 1)
        ]
        ranks = [1, 1] if win is None else ([1, 2] if win == 0 else [2, 1])
        new = model.rate(teams, ranks=ranks)
        out: list[tuple[float, float]] = [(0.0, 0.0)] * 4
        for t in (0, 1):
            for i, r in enumerate(new[t]):
                out[t + 2 * i] = (r.mu, r.sigma)
        return out

    after = rate(winner)
    for seat in losers:
        after[seat] = rate(1 - (seat & 1))[seat]
    return after


def shown(mu: float, sigma: float) -> int:
    return round(PlackettLuce().rating(mu=mu, sigma=sigma).ordinal(alpha=40, target=1000))


async def rated_table(
    players: list[Client], rules: dict[str, Any], takeover_seconds: int = 60, turn_seconds: int = 0
) -> tuple[str, list[int]]:
    """A rated table opened by the first player and joined by the others; user id by seat."""
    r = await players[0].post(
        "/api/tables",
        json={
            "kind": "public",
            "rated": True,
            "rules": rules,
            "takeover_seconds": takeover_seconds,
            "turn_seconds": turn_seconds,
        },
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    assert r.json()["rated"] is True
    me = (await players[0].get("/api/me")).json()["id"]
    for p in players[1:]:
        r = await p.post(f"/api/tables/{table_id}/join", json={})
        assert r.status_code == 200, r.text
    r = await players[0].get(f"/api/tables/{table_id}")
    info = r.json()
    assert info["status"] == "playing" and info["rated"] is True
    assert info["seats"][0]["user_id"] == me  # players[i] sits in seat i
    return table_id, [s["user_id"] for s in info["seats"]]


async def people(live: LiveServer, n: int = 4) -> list[Client]:
    return [await live.sign_in(f"p{i}@example.com", f"P{i}") for i in range(n)]


async def rating(c: Client, user_id: int) -> dict[str, Any]:
    r = await c.get(f"/api/ratings/{user_id}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def game_over(socks: list[TableSocket]) -> bool:
    """The game is over and rated (the table tells its sockets when it has been rated)."""
    return all(s.seen_event("rated") for s in socks)


async def test_a_rated_game_updates_all_four_as_openskill_computes(live: LiveServer) -> None:
    players = await people(live)
    table_id, seat_users = await rated_table(players, ONE_ROUND)
    fresh = await rating(players[0], seat_users[0])
    assert fresh["games"] == 0 and fresh["provisional"] and fresh["history"] == []
    assert fresh["rating"] == 1000  # a new player's conservative figure

    socks = [await TableSocket(live, p, table_id).connect() for p in players]
    await play_until(socks, lambda: game_over(socks), timeout=60)
    winner = socks[0].state["table"]["game"]["winner"]  # type: ignore[index]
    for s in socks:
        assert unexpected_errors(s) == []
        await s.close()

    new = PlackettLuce()
    want = expected([(new.mu, new.sigma)] * 4, winner)
    for seat, uid in enumerate(seat_users):
        got = await rating(players[1], uid)
        assert set(got) == {"user_id", "mu", "sigma", "rating", "games", "provisional", "history"}
        assert got["user_id"] == uid and got["games"] == 1 and got["provisional"] is True
        assert abs(got["mu"] - want[seat][0]) < 1e-9 and abs(got["sigma"] - want[seat][1]) < 1e-9
        assert got["rating"] == shown(*want[seat])
        (change,) = got["history"]
        result = "draw" if winner is None else ("win" if winner == seat & 1 else "loss")
        assert change["result"] == result and change["reason"] == "finished"
        assert change["table_id"] == table_id and change["rating"] == got["rating"]
    if winner is not None:  # the winners went up, the losers down
        ups = [(await rating(players[0], u))["mu"] > new.mu for u in seat_users]
        assert ups == [seat & 1 == winner for seat in range(4)]

    # the table plays on, but the game was rated once
    r = await players[0].get(f"/api/ratings/{seat_users[0]}")
    assert r.json()["games"] == 1


async def test_a_rated_game_is_told_to_the_pages_that_show_the_leaderboard(
    live: LiveServer,
) -> None:
    """Only to them (a visitor's page too), once the game is rated, and not once they stop."""
    players = await people(live)
    table_id, seat_users = await rated_table(players, ONE_ROUND)
    onlooker = await live.sign_in("onlooker@example.com", "Oz")
    board = await MeSocket(live, onlooker).connect()
    await board.send({"type": "watch", "leaderboard": True})
    visitor = await MeSocket(live, None).connect(visitor=True)
    await visitor.send({"type": "watch", "leaderboard": True})
    elsewhere = await MeSocket(live, players[1]).connect()  # a player's page, not watching
    own = await MeSocket(live, players[2]).connect()  # a player's profile: their own figures
    await own.send({"type": "watch", "history": True})
    oz_history = await MeSocket(live, onlooker).connect()  # the onlooker's own: not his game
    await oz_history.send({"type": "watch", "history": True})
    for page in (board, visitor, own, oz_history):
        await page.send({"type": "ping"})
        await page.next("pong")  # the watch is in
    await play_out(live, players, table_id)
    told = {"type": "ratings_changed", "table_id": table_id, "user_ids": seat_users}
    for page in (board, visitor, own):
        got = await page.next("ratings_changed", timeout=1)
        assert {k: got[k] for k in got if k != "_taken"} == told  # not stored: no seq
    assert elsewhere.of("ratings_changed") == [] and oz_history.of("ratings_changed") == []

    await board.send({"type": "watch", "leaderboard": False})
    await board.send({"type": "ping"})
    await board.next("pong")
    table_id, _ = await rated_table(players, ONE_ROUND)
    await play_out(live, players, table_id)
    await visitor.next("ratings_changed", lambda m: m["table_id"] == table_id, timeout=1)
    assert len(board.of("ratings_changed")) == 1  # it stopped watching: not told again
    for page in (board, visitor, elsewhere, own, oz_history):
        await page.close()


async def test_a_rated_players_line_changing_otherwise_is_told_to_the_leaderboards(
    live: LiveServer,
) -> None:
    """A rated player's new name, their account disabled and enabled by an admin, and another's
    account deleted reach the open leaderboards (``leaderboard_changed``); the same done by
    someone with no rating does not."""
    admin = await live.sign_in("admin@example.com", "Admin")  # the first account: an admin
    players = await people(live)
    table_id, seat_users = await rated_table(players, ONE_ROUND)
    await play_out(live, players, table_id)
    onlooker = await live.sign_in("onlooker@example.com", "Oz")
    oz_id = int((await onlooker.get("/api/me")).json()["id"])
    board = await MeSocket(live, None).connect(visitor=True)
    await board.send({"type": "watch", "leaderboard": True})
    await board.send({"type": "ping"})
    await board.next("pong")

    async def told(user_id: int, change: str) -> None:
        got = await board.next("leaderboard_changed", timeout=1)
        assert (got["user_id"], got["change"]) == (user_id, change)

    assert (await onlooker.patch("/api/me", json={"first_name": "Ozzie"})).status_code == 200
    ids = {int((await p.get("/api/me")).json()["id"]): p for p in players}
    first, second, third = list(ids)[:3]
    assert set(ids) == set(seat_users)
    assert (await ids[first].patch("/api/me", json={"first_name": "Pia"})).status_code == 200
    await told(first, "renamed")  # (nothing came before it for Oz)
    assert (await admin.post(f"/api/admin/users/{second}/disable")).status_code == 200
    await told(second, "disabled")
    assert (await admin.post(f"/api/admin/users/{second}/enable")).status_code == 200
    await told(second, "enabled")
    assert (await admin.post(f"/api/admin/users/{oz_id}/disable")).status_code == 200
    r = await ids[third].post("/api/me/delete", json={"confirm": True})
    assert r.status_code == 200, r.text
    await told(third, "deleted")  # (and nothing for Oz's account disabled before it)
    await board.send({"type": "ping"})
    await board.next("pong")
    assert len(board.of("leaderboard_changed")) == 4
    await board.close()


async def play_out(live: LiveServer, players: list[Client], table_id: str) -> int | None:
    socks = [await TableSocket(live, p, table_id).connect() for p in players]
    await play_until(socks, lambda: game_over(socks), timeout=60)
    winner: int | None = socks[0].state["table"]["game"]["winner"]  # type: ignore[index]
    for s in socks:
        assert unexpected_errors(s) == []
        await s.close()
    return winner


async def test_the_next_game_starts_from_the_ratings_the_last_one_left(live: LiveServer) -> None:
    players = await people(live)
    skill: dict[int, tuple[float, float]] = {}
    for _ in range(2):
        table_id, seat_users = await rated_table(players, ONE_ROUND)
        new = PlackettLuce()
        before = [skill.get(u, (new.mu, new.sigma)) for u in seat_users]
        winner = await play_out(live, players, table_id)
        want = expected(before, winner)
        for seat, uid in enumerate(seat_users):
            got = await rating(players[0], uid)
            assert abs(got["mu"] - want[seat][0]) < 1e-9
            assert abs(got["sigma"] - want[seat][1]) < 1e-9
            skill[uid] = (got["mu"], got["sigma"])
    for uid in skill:
        got = await rating(players[0], uid)
        assert got["games"] == 2 and len(got["history"]) == 2
        assert got["history"][1]["rating_before"] == got["history"][0]["rating"]


def rounds_played(socks: list[TableSocket], n: int) -> bool:
    return all(
        s.state is not None and (s.state["table"]["game"] or {}).get("rounds_played", 0) >= n
        for s in socks
    )


async def test_a_player_who_leaves_loses_and_the_others_keep_the_result_as_it_stood(
    live: LiveServer,
) -> None:
    players = await people(live)
    table_id, seat_users = await rated_table(players, THREE_ROUNDS)
    socks = [await TableSocket(live, p, table_id).connect() for p in players]
    await play_until(socks, lambda: rounds_played(socks, 1), timeout=60)
    game = socks[0].state["table"]["game"]  # type: ignore[index]
    assert not game["over"]
    a, b = game["rounds_won"]
    standing = 0 if a > b else 1 if b > a else None
    leaver = 2
    await socks[leaver].close()
    r = await players[leaver].post(f"/api/tables/{table_id}/leave")
    assert r.status_code == 200, r.text

    new = PlackettLuce()
    want = expected([(new.mu, new.sigma)] * 4, standing, {leaver})
    for seat, uid in enumerate(seat_users):
        got = await rating(players[0], uid)
        assert got["games"] == 1
        assert abs(got["mu"] - want[seat][0]) < 1e-9 and abs(got["sigma"] - want[seat][1]) < 1e-9
        change = got["history"][0]
        if seat == leaver:
            assert change["result"] == "loss" and change["reason"] == "left"
        else:
            result = "draw" if standing is None else ("win" if standing == seat & 1 else "loss")
            assert change["result"] == result and change["reason"] == "finished"
    assert want[leaver][0] < new.mu  # whatever the score, leaving is a loss

    # the three play on with a bot in the seat to the game's end: it is not rated again
    rest = [s for i, s in enumerate(socks) if i != leaver]
    over = lambda: all(s.state and s.state["table"]["game"]["over"] for s in rest)  # noqa: E731
    await play_until(rest, over, timeout=90)
    for uid in seat_users:
        assert (await rating(players[0], uid))["games"] == 1
    for s in rest:
        await s.close()


async def test_a_seat_a_bot_kept_to_the_end_loses(live: LiveServer) -> None:
    players = await people(live)
    table_id, seat_users = await rated_table(players, ONE_ROUND, takeover_seconds=1)
    socks = [await TableSocket(live, p, table_id).connect() for p in players]
    away = 1
    await socks[away].close()  # gone: after a second a bot plays the seat, to the end
    rest = [s for i, s in enumerate(socks) if i != away]
    await rest[0].wait_for(lambda st: st["table"]["seats"][away]["standin"], timeout=10)
    await play_until(rest, lambda: game_over(rest), timeout=60)
    winner = rest[0].state["table"]["game"]["winner"]  # type: ignore[index]
    new = PlackettLuce()
    want = expected([(new.mu, new.sigma)] * 4, winner, {away})
    for seat, uid in enumerate(seat_users):
        got = await rating(players[0], uid)
        assert abs(got["mu"] - want[seat][0]) < 1e-9 and abs(got["sigma"] - want[seat][1]) < 1e-9
        if seat == away:
            assert got["history"][0]["result"] == "loss"
            assert got["history"][0]["reason"] == "bot_kept"
    for s in rest:
        await s.close()


async def test_a_seat_the_turn_clock_kept_to_the_end_loses(live: LiveServer) -> None:
    """With a real clock: one player stays connected and never acts; after two timeouts in a
    row the clock's stand-in keeps the seat to the end, and that player loses."""
    players = await people(live)
    table_id, seat_users = await rated_table(players, ONE_ROUND, turn_seconds=5)
    socks = [await TableSocket(live, p, table_id).connect() for p in players]
    idle = 3
    rest = [s for i, s in enumerate(socks) if i != idle]
    # nobody calls Single Hand: the idle seat's partner playing alone would end the deal before
    # the idle seat's second turn came (it sits the deal out)
    await play_until(rest, lambda: game_over(rest), timeout=120, choose=no_single_hand)
    # the clock's stand-in kept the seat (told as an event, unless a snapshot replaced it)
    assert rest[0].state["table"]["seats"][idle]["kept"]  # type: ignore[index]
    winner = rest[0].state["table"]["game"]["winner"]  # type: ignore[index]
    new = PlackettLuce()
    want = expected([(new.mu, new.sigma)] * 4, winner, {idle})
    for seat, uid in enumerate(seat_users):
        got = await rating(players[0], uid)
        assert abs(got["mu"] - want[seat][0]) < 1e-9 and abs(got["sigma"] - want[seat][1]) < 1e-9
    assert (await rating(players[0], seat_users[idle]))["history"][0]["reason"] == "bot_kept"
    for s in socks:
        await s.close()


def test_standing_counts_sets_then_score_or_rounds_won() -> None:
    from twentynine.engine.cards import parse_card
    from twentynine.engine.game import new_game

    deck = [parse_card(c) for c in STANDARD_DECK]
    game = new_game(STANDARD, 0, deck)[0]
    assert standing(game) is None
    assert standing(_with(game, red_sets=(1, 0))) == 0
    assert standing(_with(game, black_sets=(1, 0))) == 1  # team 0 lost a set: team 1 won it
    assert standing(_with(game, scores=(0, 3))) == 1
    assert standing(_with(game, red_sets=(1, 0), scores=(0, 5))) == 0


STANDARD_DECK = [f"{r}{s}" for s in "SHDC" for r in "789TJQKA"]


def _with(game: GameState, **changes: Any) -> GameState:
    import dataclasses

    return dataclasses.replace(game, **changes)


async def test_ratings_are_provisional_for_ten_games(app: FastAPI) -> None:
    from twentynine.server.ratings.service import rate_game

    players = [await sign_in(app, f"q{i}@example.com", f"Q{i}") for i in range(4)]
    ids = [(await p.get("/api/me")).json()["id"] for p in players]
    for game in range(10):
        async with app.state.sessionmaker() as db:
            assert await rate_game(db, f"t{game}", 1, ids, game % 2)
        got = await rating(players[0], ids[0])
        assert got["games"] == game + 1 and got["provisional"] is (game + 1 < 10)
    async with app.state.sessionmaker() as db:  # one game is rated once
        assert not await rate_game(db, "t9", 1, ids, 0)
    assert (await rating(players[0], ids[0]))["games"] == 10
    r = await players[0].get("/api/ratings", params={"user_ids": f"{ids[0]},{ids[1]}"})
    assert r.status_code == 200
    assert {k: v["games"] for k, v in r.json().items()} == {str(ids[0]): 10, str(ids[1]): 10}


async def test_bad_rating_requests_and_rated_tables_refuse_bots(app: FastAPI) -> None:
    alice = await sign_in(app, "alice@example.com", "Alice")
    assert (await alice.get("/api/ratings/0")).status_code == 422
    assert (await alice.get("/api/ratings/99999")).status_code == 404
    assert (await alice.get(f"/api/ratings/{2**40}")).status_code == 422
    for bad in ("", "x", "1,,2", ",".join(["1"] * 17), "99999999999"):
        r = await alice.get("/api/ratings", params={"user_ids": bad})
        assert r.status_code == 422, bad
    anon = client_for(app)
    assert (await anon.get("/api/leaderboard")).status_code == 401
    assert (await anon.get("/api/ratings/1")).status_code == 401

    rated = {"kind": "public", "rated": True}
    for body in (
        {**rated, "seats": ["me", "bot:random", "open", "open"]},
        {**rated, "kind": "private"},
        {**rated, "kind": "solo"},
    ):
        r = await alice.post("/api/tables", json=body)
        assert r.status_code in (403, 422), r.text
    r = await alice.post("/api/tables", json=rated)
    table_id = r.json()["id"]
    r = await alice.post(f"/api/tables/{table_id}/fill-bots")
    assert r.status_code == 409 and "no bots" in r.json()["detail"]
    guest = client_for(app)
    assert (await guest.post("/api/auth/guest", json={"first_name": "Visitor"})).is_success
    assert (await guest.post(f"/api/tables/{table_id}/join", json={})).status_code == 403
    r = await alice.get(f"/api/tables/{table_id}")
    assert [s["user_id"] is None for s in r.json()["seats"]] == [False, True, True, True]

    # in play, its host may not close it (leaving is a loss; closing would dodge one)
    for n in range(3):
        joiner = await sign_in(app, f"j{n}@example.com", f"J{n}")
        assert (await joiner.post(f"/api/tables/{table_id}/join", json={})).status_code == 200
    assert (await alice.get(f"/api/tables/{table_id}")).json()["status"] == "playing"
    r = await alice.post(f"/api/tables/{table_id}/close")
    assert r.status_code == 409 and "cannot be closed" in r.json()["detail"]
    assert (await alice.get(f"/api/tables/{table_id}")).json()["status"] == "playing"


async def test_the_clocks_kept_seat_loses_and_a_single_timeout_does_not(app: FastAPI) -> None:
    """The hook a rated table calls at its game's end, on the table's own seats: the turn
    clock's stand-in keeping a seat (two timeouts in a row) loses it; a seat whose clock ran
    out once (the bot made that one move) keeps the game's result."""
    from types import SimpleNamespace

    from twentynine.server.ratings import hooks
    from twentynine.server.tables.seats import Seat

    players = [await sign_in(app, f"k{i}@example.com", f"K{i}") for i in range(4)]
    ids = [(await p.get("/api/me")).json()["id"] for p in players]
    seats = [Seat(user_id=uid, name=f"K{i}", joined=True) for i, uid in enumerate(ids)]
    seats[1].standin, seats[1].standin_cause, seats[1].timeouts = "intermediate", "clock", 2
    seats[2].timeouts = 1  # one timeout: no stand-in keeps it
    told: list[list[dict[str, Any]]] = []

    async def commit(events: list[dict[str, Any]]) -> None:
        told.append(events)

    runtime = SimpleNamespace(
        info=SimpleNamespace(id="clocked", rated=True),
        seats=seats,
        game=SimpleNamespace(over=True, winner=1),
        game_no=1,
        status="playing",
        store=SimpleNamespace(maker=app.state.sessionmaker),
        _commit=commit,
    )
    assert hooks.kept_by_bot(runtime) == {1}  # type: ignore[arg-type]
    await hooks.game_over(runtime)  # type: ignore[arg-type]
    assert told == [[{"type": "rated", "game_no": 1, "reason": "finished"}]]
    new = PlackettLuce()
    want = expected([(new.mu, new.sigma)] * 4, 1, {1})
    for seat, uid in enumerate(ids):
        got = await rating(players[0], uid)
        assert abs(got["mu"] - want[seat][0]) < 1e-9 and abs(got["sigma"] - want[seat][1]) < 1e-9
        change = got["history"][0]
        assert (change["result"], change["reason"]) == (
            ("loss", "bot_kept") if seat == 1 else ("win" if seat & 1 else "loss", "finished")
        )
    await hooks.game_over(runtime)  # type: ignore[arg-type]  # rated once
    assert len(told) == 1 and (await rating(players[0], ids[0]))["games"] == 1
