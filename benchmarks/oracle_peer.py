"""How far a side that sees every card gets against a peer: a ceiling for any fair bot.

A study, not a player: the "oracle" here reads the true deal, which no bot of ours ever does
(bots get only a seat's view; see ``twentynine/bots/base.py``). It answers one question of
issue 19: how many of the games against a peer (``benchmarks/peers.py``) can be won at all by
playing better, since most duplicate deals are decided by the cards (each side wins one game).

Our side plays in this process, in both seats of its team:

- ``--oracle play``: the expert's calls (auction, trump, doubles) and every card (and call for
  trump) chosen by the exact solver on the true deal, every card seen: perfect play once the
  contract is set;
- ``--oracle all``: also the auction and the trump, every card seen: at a choice between
  passing and bidding, it passes when its partner's contract would be made or the opponents'
  would fail (each with the holder's best trump), else it bids the lowest bid its own team
  would make with its best trump; as the bidder it names the trump its team takes most points
  with. (The solved contracts have trump shown from the first trick, and the peer's later
  bids are not foreseen: a ceiling, not an exact one);
- ``--oracle calls``: the auction and the trump as with ``all``, the play the expert's own;
- ``--oracle partner``: the expert's own calls and play, but in the play each seat's view also
  shows its partner's hand as it is now (not the bidder's face-down trump card): what a perfect
  partnership signal could tell at most; ``--oracle partner-leads`` the same only when the seat
  leads a trick, ``--oracle partner-later-leads`` only when it leads the second trick or a
  later one (not the first lead, which no signal in the play could inform), ``--oracle
  partner-follows`` only when it does not lead;
- ``--oracle none``: the expert unchanged, in this process (the control).

The peer is started and spoken to over the Bhoos protocol exactly as ``benchmarks/peers.py``
does (its own core, its 1500 ms a deal), through the same arena and the same counting client.

    uv run python benchmarks/oracle_peer.py --peer-command /path/to/game29 \\
        --peer-url http://127.0.0.1:8001 [--oracle play|calls|all|none] [--deals 100] [--seeds 1 2]
        [--our-cpu 1] [--peer-cpu 0] [--json]

Prints games won with the 95% interval, contracts made and attempted per side, the swings
(duplicate deals one side won both games of) and the void deals (games nobody won: under the
``bhoos`` preset a deal whose trump was never shown is void, and a side that knows the trump
calls for it less often).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from peers import CountingBhoosBot, SideCounts, refuse_taken, start, stop, swings, wait_for

from twentynine import arena
from twentynine.arena import run_arena, wilson_interval
from twentynine.bots import expert_bot
from twentynine.bots.solver import best_value, open_state, solve
from twentynine.engine import RoundState, preset
from twentynine.engine.actions import Act, Action
from twentynine.engine.cards import suit_of
from twentynine.engine.state import Phase, team_of
from twentynine.engine.views import View, view

#: what the oracle may read the true deal for (see the module's note)
MODES = (
    "play",
    "calls",
    "all",
    "partner",
    "partner-leads",
    "partner-later-leads",
    "partner-follows",
    "none",
)

#: the deal as it truly is, at the moment a seat is asked (set by ``seeing_everything``)
TRUE: dict[str, RoundState] = {}


@contextmanager
def seeing_everything() -> Iterator[None]:
    """While open, the arena notes the true state each time it builds a seat's view."""
    plain = arena.view

    def noting(rnd: RoundState, seat: int) -> View:
        TRUE["state"] = rnd
        return plain(rnd, seat)

    arena.view = noting  # type: ignore[assignment]
    try:
        yield
    finally:
        arena.view = plain  # type: ignore[assignment]


def bidder_points(st: RoundState, bidder: int, trump: int) -> int:
    """Points ``bidder``'s team takes with best play by all four, every card seen, trump
    ``trump`` shown from the first trick, the first hand leading."""
    hands = [st.first_batch(s) | st.second_batch(s) for s in range(4)]
    solved = open_state(hands, trump, leader=st.first_hand, rules=st.rules, bidder=bidder)
    value = best_value(solved)  # the leader's team's
    total = 29 if st.rules.last_trick_point else 28
    return value if team_of(st.first_hand) == team_of(bidder) else total - value


def best_trump_points(st: RoundState, bidder: int) -> int:
    return max(bidder_points(st, bidder, trump) for trump in range(4))


def with_partner_hand(seen: View, st: RoundState, seat: int) -> View:
    """``seen`` (``seat``'s own view) with its partner's hand face up, as the partner's own
    view shows it (the bidder's face-down trump card stays hidden)."""
    partner = (seat + 2) % 4
    theirs = view(st, partner).hands[partner]
    hands = tuple(theirs if s == partner else h for s, h in enumerate(seen.hands))
    return replace(seen, hands=hands)


class Oracle:
    """The expert, except where ``mode`` lets it read the true deal (see the module's note)."""

    def __init__(self, seed: int, mode: str) -> None:
        self.inner = expert_bot(seed)
        self.name = f"oracle-{mode}"
        self.mode = mode

    def choose(self, view: View) -> Action:
        st, seat = TRUE["state"], view.viewer
        assert seat is not None
        sees_calls = self.mode in ("calls", "all")
        if sees_calls and st.phase is Phase.AUCTION:
            call = self._call(st, seat, view.legal)
            if call is not None:
                return call
        if sees_calls and st.phase is Phase.TRUMP:
            suits: dict[int, Action] = {}
            for a in view.legal:
                if a.act is Act.TRUMP_SUIT:
                    suits.setdefault(a.arg, a)
                elif a.act is Act.TRUMP_CARD:
                    suits.setdefault(suit_of(a.arg), a)
            if suits:
                return suits[max(suits, key=lambda t: bidder_points(st, seat, t))]
        if self.mode.startswith("partner") and st.phase is Phase.PLAY:
            leads = not view.trick
            later = leads and bool(view.tricks)
            if (
                self.mode == "partner"
                or (self.mode == "partner-leads" and leads)
                or (self.mode == "partner-later-leads" and later)
                or (self.mode == "partner-follows" and not leads)
            ):
                return self.inner.choose(with_partner_hand(view, st, seat))
            return self.inner.choose(view)
        cards = any(a.act in (Act.PLAY, Act.REVEAL) for a in view.legal)
        if self.mode in ("play", "all") and st.phase is Phase.PLAY and cards:
            values = solve(st)
            best = max(values.values())
            chosen = next((a for a in view.legal if values.get(a) == best), None)
            if chosen is not None:
                return chosen
        return self.inner.choose(view)

    @staticmethod
    def _call(st: RoundState, seat: int, legal: tuple[Action, ...]) -> Action | None:
        bids = [a for a in legal if a.act is Act.BID]
        passing = next((a for a in legal if a.act is Act.PASS), None)
        if not bids or passing is None:
            return None  # a forced bid, or no bid left: the expert's
        if st.holder >= 0:
            holder_makes = best_trump_points(st, st.holder) >= st.bid
            partners = team_of(st.holder) == team_of(seat)
            if partners == holder_makes:  # our side wins the deal as it stands
                return passing
        low = min(bids, key=lambda a: a.arg)
        return low if best_trump_points(st, seat) >= low.arg else passing


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer-command", required=True, help="the shell command starting the peer")
    ap.add_argument("--peer-url", default="http://127.0.0.1:8001", help="where the peer answers")
    ap.add_argument("--peer-name", default="peer", help="the peer's name in the output")
    ap.add_argument(
        "--oracle",
        choices=MODES,
        default="play",
        help="what it reads the true deal for",
    )
    ap.add_argument("--deals", type=int, default=100, help="duplicate deals per seed")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2], help="arena seeds")
    ap.add_argument("--our-cpu", type=int, default=1, help="pin this process to this core")
    ap.add_argument("--peer-cpu", type=int, default=0, help="pin the peer to this core")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    if args.our_cpu is not None:
        os.sched_setaffinity(0, {args.our_cpu})
    counts = SideCounts()

    def make_peer(_seed: int) -> CountingBhoosBot:
        return CountingBhoosBot(args.peer_url, counts)

    ours = f"oracle-{args.oracle}"
    games, contracts, rounds, seconds = [0, 0], [[0, 0], [0, 0]], [], 0.0
    with tempfile.TemporaryDirectory() as tmp:
        refuse_taken([(args.peer_url, "the peer's")])
        peer = start(shlex.split(args.peer_command), args.peer_cpu, Path(tmp) / "peer.log")
        try:
            wait_for(args.peer_url.rstrip("/"), peer, "the peer")
            with seeing_everything():
                for seed in args.seeds:
                    result = run_arena(
                        ours,
                        args.peer_name,
                        args.deals,
                        seed,
                        preset("bhoos"),
                        "bhoos",
                        factories=(lambda s: Oracle(s, args.oracle), make_peer),  # type: ignore[arg-type,return-value]
                        on_round=lambda d, seed=seed: rounds.append({"seed": seed, **d}),
                    )
                    data = result.to_json()
                    for i, side in enumerate(("a", "b")):
                        games[i] += data[side]["games_won"]
                        contracts[i][0] += data[side]["contracts_made"]
                        contracts[i][1] += data[side]["contracts"]
                    seconds += data["seconds"]
        finally:
            stop(peer)
    lo, hi = wilson_interval(games[0], sum(games))
    out: dict[str, Any] = {
        "oracle": args.oracle,
        "peer": args.peer_name,
        "seeds": args.seeds,
        "duplicate_deals_per_seed": args.deals,
        "games_won": {"ours": games[0], "peer": games[1]},
        "our_win_rate": round(games[0] / sum(games), 4) if sum(games) else None,
        "our_win_rate_ci95": [round(lo, 4), round(hi, 4)],
        "contracts": {
            "ours": {"made": contracts[0][0], "attempted": contracts[0][1]},
            "peer": {"made": contracts[1][0], "attempted": contracts[1][1]},
        },
        "swings": swings(rounds, ours),
        "peer_side": counts.to_json(),
        "seconds": round(seconds, 1),
    }
    if args.json:
        print(json.dumps(out))
        return
    print(f"{ours} vs {args.peer_name}: seeds {args.seeds}, {args.deals} duplicate deals each")
    print(
        f"  games won   ours {games[0]}  peer {games[1]}  rate {out['our_win_rate']} "
        f"(95% CI {lo:.3f}-{hi:.3f})"
    )
    print(
        f"  contracts   ours {contracts[0][0]}/{contracts[0][1]}  "
        f"peer {contracts[1][0]}/{contracts[1][1]}"
    )
    s = out["swings"]
    print(f"  swings      ours {s['ours']}  peer {s['peer']}  split {s['split']}  void {s['void']}")
    print(
        f"  the peer    {counts.illegal} illegal answers, {counts.http_errors} HTTP errors, "
        f"{counts.deals_over_budget} deals over budget, {seconds:.0f} s"
    )


if __name__ == "__main__":
    main()
