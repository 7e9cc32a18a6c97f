"""The expert: in the play, it samples the hidden hands consistently with everything public (the
auction, voids shown, reveals, the cards played) and solves each sampled deal exactly; it picks
the action that makes (or beats) the contract in most of them, then the one worth most points.
Each sampled deal counts by how likely the auction is with the cards it deals (``calls.py``:
a bid says the caller's four cards are worth about that much, a pass that they are not).
Before the play it bids, names trump, doubles, redoubles on the seventh card and calls Single
Hand by the same kind of search (``calls.py``); answering a Single Hand with a Double follows
the intermediate player's rules.

It plays from its seat's view only: the sampled deals are built from the view, never from the
real game.

``ExpertBot(calls="rules", inference=False)`` is the expert as it was before the calls were
searched and the sampled deals weighed. With ``max_worlds=96`` and ``read_forced_opening=True``
(a partner's opening the rules forced says nothing of its cards) it is still the ``expert``
level that tables and the Bhoos server offer: the searched calls (the ``expert-search`` variant)
measured weaker so far (see ``bots/__init__.py``), and so did they calibrated (``dd_bias``: a
solved sample counts a contract made only with that many points to spare) and the rules' bids
with searched trump and doubles (``calls="hybrid"``).

``read_bids=True`` reads every bid for what it says before bidding (``bid_limit_for``): an
opponent's bid is strength its own four cards lack (``opponent_bid_cost``), and the opening the
rules forced says nothing wherever it stands.

``tests_from=n``: while it holds ``n`` cards or more, each sampled deal is searched only for
whether each card makes (or beats) the contract, by one null-window test a card
(``solve(..., need=...)``), not for its exact points: the first tricks' deals are the costly
ones to solve, so it fits several times more of them into a card's time there.

``void_chance=q`` plays for the rule that a deal whose trump is never shown is void: void in
the suit led with trump hidden, it asks for trump or plays a card by the game each gives (won,
lost, void: ``reveal_or_not``), a card leaving a likely lost deal void with chance ``q``.

``contest_odds=p``: against a bid of the other side that the rules did not force, it bids on
only with a chance ``p`` of making its bid (the rules' usual 0.45); ``yield_to_partner=True``:
a holder challenged by its own partner lets it play unless its hand supports 3 more than the
bid. Neither measured significantly stronger so far (see ``bots/__init__.py``).
``contest_weights=w``: in a contest (``bidding.contest_role``) it bids on exactly when
``evaluate.contest_gain`` with the weights ``w`` (fitted on solved deals) is positive.

``alphamu_from=n``: while it holds ``n`` cards or fewer, the card is chosen by the αμ search
over the first ``alphamu_worlds`` sampled deals (``alphamu.py``: its own next
``alphamu_depth`` cards one card for all the deals it cannot tell apart), the plain count
breaking ties and standing in when the search runs out of time. ``margin_scale=s``: each
sampled deal counts for an action by a logistic of its margin over the need
(``margin_credit``), ``margin_ties_only`` for ties alone, ``margin_shift`` points of margin
taken off the bidder's side. None measured stronger (see ``bots/__init__.py``).

``play_inference=True`` also weighs each sampled deal by how likely the others' cards played are
with it (``playinfer.py``); ``bid_shift`` makes the rules' bids bolder or more cautious. None of
these three measured stronger (see ``bots/__init__.py``).

``caller_model="length"`` weighs the play's sampled deals by how likely the opponents' calls
are if they call by the length of their longest suit (``callers.py``); ``foresight="length"``
(or ``"rules"``) bids and passes by playing the auction forward over deals that fit every
call heard (``foresight.py``), ``foresight_shifts`` saying how a side's contract fares against
the solver's points, ``foresight_trump`` naming trump so too. None measured stronger.

``read_partner=n`` weighs each sampled deal by the partner's latest ``n`` cards: one that, in
the deal, threw the contract away while another of its cards kept it makes the deal
``partner_penalty`` as likely (``partnerread.py``).
"""

from __future__ import annotations

import math
import random
import time

from ..engine.actions import Act, Action
from ..engine.state import Phase, RoundState, partner
from ..engine.views import View
from .alphamu import alphamu_values
from .bidding import forced_opening
from .callers import opponents_likelihood
from .calls import MIN_SAMPLES as MIN_CALL_SAMPLES
from .calls import (
    CallSearch,
    bid_by_search,
    call_weight,
    doubling_by_search,
    seventh_redouble_by_search,
    single_hand_by_search,
    trump_by_search,
)
from .foresight import Foresight
from .intermediate import IntermediateBot
from .knowledge import Knowledge
from .need import points_needed
from .partnerread import PENALTY as PARTNER_PENALTY
from .partnerread import PartnerReading
from .playinfer import DISCARD_PENALTY, FOLLOW_PENALTY, RUFF_PENALTY, Observations
from .solver import solve
from .worlds import sample_world

DEFAULT_BUDGET_MS = 220
MAX_WORLDS = 48
MIN_WORLDS = 2


class ExpertBot(IntermediateBot):
    name = "expert"
    #: it searches with the compiled solver: warm it up (``solver.warm_up``) before serving
    uses_solver = True

    def __init__(
        self,
        seed: int | None = None,
        budget_ms: float = DEFAULT_BUDGET_MS,
        worlds: int = 0,
        *,
        calls: str = "search",
        inference: bool = True,
        max_worlds: int = MAX_WORLDS,
        dd_bias: float = 0.0,
        play_inference: bool = False,
        bid_shift: float = 0.0,
        read_forced_opening: bool = False,
        read_bids: bool = False,
        tests_from: int = 0,
        void_chance: float = 0.0,
        alphamu_from: int = 0,
        alphamu_depth: int = 2,
        alphamu_worlds: int = 32,
        margin_scale: float = 0.0,
        margin_ties_only: bool = False,
        margin_shift: float = 0.0,
        challenge_odds: float | None = None,
        contest_odds: float | None = None,
        yield_to_partner: bool = False,
        challenge_by_gain: bool = False,
        contest_weights: dict[str, float] | None = None,
        takeover_by_search: bool | str = False,
        caller_model: str = "points",
        foresight: str | None = None,
        foresight_shifts: tuple[float, float, float] = (-1.0, -1.0, 0.0),
        foresight_margin: float = 0.1,
        foresight_trump: bool = False,
        read_partner: int = 0,
        partner_penalty: float = PARTNER_PENALTY,
        play_penalties: tuple[float, float, float] = (
            FOLLOW_PENALTY,
            DISCARD_PENALTY,
            RUFF_PENALTY,
        ),
    ) -> None:
        super().__init__(seed)
        self.rng = random.Random(seed)
        #: the time this bot may think about one decision (the Bhoos server sets it)
        self.budget_ms = budget_ms
        #: solve exactly this many sampled deals, whatever the time (repeatable, for tests)
        self.fixed_worlds = worlds
        #: "search": bid, name trump and double by search; "rules": as the intermediate;
        #: "hybrid": bid by the rules, then name trump and double by search
        if calls not in ("search", "rules", "hybrid"):
            raise ValueError(f"calls must be 'search', 'rules' or 'hybrid', not {calls!r}")
        self.calls_by_search = calls != "rules"
        self.bids_by_search = calls == "search"
        #: weigh the play's sampled deals by the likelihood of the auction
        self.inference = inference
        #: weigh them by how likely the cards the others played are (``playinfer.py``)
        self.play_inference = play_inference
        #: weigh them by whether the partner's latest this many cards (0: none) kept the
        #: contract where another of its cards would have (``partnerread.py``), by this much
        self.read_partner = read_partner
        self.partner_penalty = partner_penalty
        #: (follow, discard, ruff): how much less likely each kind of unlikely play makes a deal
        self.play_penalties = play_penalties
        #: the rules' bids: added to the chance of making a bid they ask for (``bid_limit_for``)
        self.bid_shift = bid_shift
        #: a partner's forced opening tells nothing: take the contract over as from nobody
        self.read_forced_opening = read_forced_opening
        #: read every bid for what it says (``bidding.bid_limit_for``)
        self.read_bids = read_bids
        #: the chance of making its bid needed to bid over an opponent's forced opening
        #: (None: the rules' usual 0.45)
        self.forced_challenge_odds = challenge_odds
        #: the chance of making its bid needed to bid on against the other side's real bid
        #: (``bidding.contested``; None: the rules' usual 0.45)
        self.contest_odds = contest_odds
        #: a holder challenged by its partner lets it play unless its own hand is far
        #: stronger (``IntermediateBot.yield_to_partner``)
        self.yield_to_partner = yield_to_partner
        #: bid over an opponent's forced opening when that wins more often than letting it
        #: stand (``evaluate.forced_challenge_gain``)
        self.challenge_by_gain = challenge_by_gain
        #: in a contest, bid on when the fitted gain says so (``evaluate.contest_gain`` with
        #: these weights; None: by the chance of making the bid, ``contest_odds``)
        self.contest_weights = contest_weights
        #: take a partner's forced opening over only when the search (``calls.bid_by_search``:
        #: our contract one higher with our trump, against the partner's with the trump its four
        #: cards would name, both solved on the same sampled deals) agrees with the rules;
        #: "any": an opponent's forced opening too
        self.takeover_by_search = takeover_by_search
        #: with at least this many cards in hand (0: never), each sampled deal is searched
        #: only for whether each card makes (or beats) the contract, not for its points: a
        #: null-window test, a few times cheaper, so more sampled deals in the same time
        self.tests_from = tests_from
        #: where a deal with trump never shown is void (``invalid_trump_never_shown``), how
        #: likely it is taken to end void if this seat, void in the suit led, plays a card
        #: instead of asking for trump (0: the void rule plays no part, as before)
        self.void_chance = void_chance
        #: with at most this many cards in hand (0: never), the card is chosen by the αμ search
        #: over the sampled deals (``alphamu.py``): its own next ``alphamu_depth`` cards the
        #: same in every deal it cannot tell apart, not each deal's best
        self.alphamu_from = alphamu_from
        self.alphamu_depth = alphamu_depth
        #: the αμ search takes the first this many sampled deals (its cost grows fast with them)
        self.alphamu_worlds = alphamu_worlds
        #: how the other side is taken to call, weighing the play's sampled deals:
        #: "points" (only as ``inference`` says) or "length" (``callers.LengthCaller``)
        if caller_model not in ("points", "length"):
            raise ValueError(f"caller_model must be 'points' or 'length', not {caller_model!r}")
        self.caller_model = caller_model
        #: name trump by the deals that fit the auction (``Foresight.trump``) too
        self.foresight_trump = foresight_trump
        #: bid or pass by playing the auction forward (``foresight.py``), the opponents called
        #: by this model ("length" or "rules"); None: the auction as ``calls`` says
        self.foresight = (
            None
            if foresight is None
            else Foresight(
                self,
                random.Random(None if seed is None else seed + 2),
                foresight,
                *foresight_shifts,
                margin=foresight_margin,
            )
        )
        #: the most sampled deals solved for one card (more time buys more, up to this)
        self.max_worlds = max_worlds
        #: > 0: a sampled deal counts for a card by a logistic of its margin over what the side
        #: needs (solved points minus the need, in units of this many points), not 0 or 1: the
        #: open-hand solver's thin margins are often lost in real play
        self.margin_scale = margin_scale
        #: points the margin is taken to lose in real play for the bidder's side (and gain for
        #: the other): the open-hand solver flatters the bidder (``calls.DD_BIAS``)
        self.margin_shift = margin_shift
        #: the margins only break ties in the deals made (then points), not replace them
        self.margin_ties_only = margin_ties_only
        #: decisions taken by the αμ search, and those it ran out of time for
        self.alphamu_used = 0
        self.alphamu_late = 0
        #: points a searched contract must make beyond its target in a solved sample to count
        #: (``calls.DD_BIAS``: the open-hand solver flatters the bidder)
        self._calls = CallSearch(random.Random(None if seed is None else seed + 1), bias=dd_bias)
        if worlds:  # repeatable: a fixed number of samples, whatever the time
            self._calls.max_samples = max(MIN_CALL_SAMPLES, worlds)

    def choose(self, view: View) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.PLAY and view.caller is None:
            pair = next((a for a in legal if a.act is Act.PAIR), None)
            if pair is not None:  # a pair always helps the team that declares it
                return pair
            choice = self._search(view)
            if choice is not None:
                return choice
        elif view.phase is Phase.AUCTION and self.foresight is not None:
            choice = self.foresight.call(view, self._deadline())
            if choice is not None:
                return choice
        elif view.phase is Phase.TRUMP and self.foresight is not None and self.foresight_trump:
            choice = self.foresight.trump(view, self._deadline())
            if choice is not None:
                return choice
        elif self.calls_by_search:
            choice = self._call(view)
            if choice is not None:
                return choice
        choice = super().choose(view)
        if self.takeover_by_search and choice.act is Act.BID and self._over_forced(view):
            deadline = self._deadline()
            searched = bid_by_search(view, self._calls, deadline)
            if searched is not None and searched.act is Act.PASS:
                return searched
        return choice

    def _over_forced(self, view: View) -> bool:
        """Is the contract an opening that the rules forced (``forced_opening``): the
        partner's, or with ``takeover_by_search == "any"`` an opponent's too?"""
        seat = view.viewer
        holder = view.holder
        if view.phase is not Phase.AUCTION or seat is None or holder is None:
            return False
        ours = holder == partner(seat)
        return (ours or self.takeover_by_search == "any") and forced_opening(view)

    def _deadline(self) -> float:
        if self.fixed_worlds:
            return math.inf
        return time.perf_counter() + self.budget_ms / 1000 * 0.8

    # -- the calls -----------------------------------------------------------------------------
    def _call(self, view: View) -> Action | None:
        deadline = self._deadline()
        if view.phase is Phase.AUCTION:
            return bid_by_search(view, self._calls, deadline) if self.bids_by_search else None
        if view.phase is Phase.TRUMP:
            return trump_by_search(view, self._calls, deadline)
        if view.phase is Phase.DOUBLING:
            return doubling_by_search(view, self._calls, deadline)
        if view.phase is Phase.SEVENTH_REDOUBLE:
            return seventh_redouble_by_search(view, self._calls, deadline)
        if view.phase is Phase.SINGLE_HAND:
            return single_hand_by_search(view, self._calls, deadline)
        return None

    # -- the play ------------------------------------------------------------------------------
    def _search(self, view: View) -> Action | None:
        start = time.perf_counter()
        seat = view.viewer
        assert seat is not None
        late = 0 < len(view.hands[seat] or ()) <= self.alphamu_from
        kept: list[Sampled] | None = [] if late or self.margin_scale > 0 else None
        tally = self._weighed(view, kept, share=0.4 if late else 0.8)
        if tally is None:
            return None
        wins, points, total = tally
        legal = set(view.legal)
        scored = [a for a in wins if a in legal]
        if not scored:
            return None
        if self.void_chance > 0 and view.rules.invalid_trump_never_shown and total > 0:
            choice = reveal_or_not(scored, wins, points, total, self.void_chance)
            if choice is not None:
                return choice
        if kept and self.margin_scale > 0:
            return margin_choice(
                view,
                kept,
                scored,
                (wins, points),
                self.margin_scale,
                self.margin_shift,
                self.margin_ties_only,
            )
        if late and kept and len(scored) > 1 and max(wins[a] for a in scored) > 0:
            deadline = start + self.budget_ms / 1000 * 0.8 if not self.fixed_worlds else math.inf
            few = kept[: self.alphamu_worlds]
            found = alphamu_values(
                seat, [k[0] for k in few], [k[1] for k in few], self.alphamu_depth, deadline
            )
            if found is not None:
                self.alphamu_used += 1
                return counted_choice(found, scored, (wins, points))
            self.alphamu_late += 1
        return plain_choice(scored, (wins, points))

    def _tally(self, view: View) -> tuple[dict[Action, float], dict[Action, float]] | None:
        """Over sampled deals, for each action: the weight of the deals where it makes (or
        beats) the contract, and of its points (with ``tests_from``, bounds of them); None when
        no deal could be sampled."""
        tally = self._weighed(view)
        return None if tally is None else tally[:2]

    def _weighed(
        self,
        view: View,
        kept: list[Sampled] | None = None,
        share: float = 0.8,
    ) -> tuple[dict[Action, float], dict[Action, float], float] | None:
        """``_tally``'s two sums and the sampled deals' total weight; each sampled deal, its
        weight, its actions' values and the need appended to ``kept`` when given. It stops
        sampling at ``share`` of the budget."""
        seat = view.viewer
        assert seat is not None
        deadline = time.perf_counter() + self.budget_ms / 1000 * share
        knowledge = Knowledge.from_view(view)
        by_length = self.caller_model == "length"
        if by_length:
            knowledge.weigh_choice = False  # the model weighs the trump named instead
        observed = (
            Observations.from_view(view, *self.play_penalties) if self.play_inference else None
        )
        reading = PartnerReading(view, self.read_partner) if self.read_partner else None
        wins: dict[Action, float] = {}
        points: dict[Action, float] = {}
        total = 0.0
        tests = 0 < self.tests_from <= len(view.hands[seat] or ())
        worlds = 0
        fixed = self.fixed_worlds
        cap = self.max_worlds
        while (
            (worlds < fixed)
            if fixed
            else worlds < cap and (worlds < MIN_WORLDS or time.perf_counter() < deadline)
        ):
            try:
                world = sample_world(view, self.rng, knowledge)
            except Exception:  # no consistent deal found: fall back on the heuristics
                break
            need, left = points_needed(world, seat)
            # a test only while the contract's fate is open (else nothing to test for): its
            # number is at least ``need`` exactly when the value is
            values = solve(world, need=need if tests and 0 < need <= left else 0)
            worlds += 1
            w = self._weight(world, view) if self.inference else 1.0
            if observed is not None:
                w *= observed.weight(world)
            if reading is not None:
                w *= reading.weight(world, self.partner_penalty)
            if by_length:
                played = knowledge.played_by
                eights = (
                    world.seat_cards(0) | played[0],
                    world.seat_cards(1) | played[1],
                    world.seat_cards(2) | played[2],
                    world.seat_cards(3) | played[3],
                )
                w *= opponents_likelihood(
                    view.calls, eights, seat, view.rules, world.bidder, world.trump
                )
            total += w
            if kept is not None:
                kept.append((world, w, values, need))
            for action, value in values.items():
                wins[action] = wins.get(action, 0.0) + (w if value >= need else 0.0)
                points[action] = points.get(action, 0.0) + w * value
            if not fixed and time.perf_counter() > deadline and worlds >= MIN_WORLDS:
                break
        return (wins, points, total) if worlds else None

    @staticmethod
    def _weight(world: RoundState, view: View) -> float:
        """How likely the auction heard is with the first four cards ``world`` deals (a
        floor keeps an unlikely deal from vanishing: the model of the callers is rough)."""
        seat = view.viewer
        assert seat is not None
        first = (
            world.first_batch(0),
            world.first_batch(1),
            world.first_batch(2),
            world.first_batch(3),
        )
        return 0.05 + call_weight(view.calls, first, seat, view.rules)


#: a sampled deal as the play's search keeps it: the deal, its weight, each action's solved
#: value and the points the mover's side needs from here
Sampled = tuple[RoundState, float, dict[Action, int], int]


#: the plain search's two sums: {action: weight of the sampled deals it makes}, {action: the
#: weighed sum of its solved points}
Tally = tuple[dict[Action, float], dict[Action, float]]


def plain_choice(scored: list[Action], tally: Tally) -> Action:
    """The expert's card: the most sampled deals made, then the most points, then the cheaper."""
    wins, points = tally
    return max(scored, key=lambda a: (wins[a], points[a], -_order(a)))


def counted_choice(counts: dict[Action, float], scored: list[Action], tally: Tally) -> Action:
    """The card by another method's ``counts`` (an action it did not count last), the plain
    search's choice among equals."""
    wins, points = tally
    return max(scored, key=lambda a: (counts.get(a, -1.0), wins[a], points[a], -_order(a)))


def margin_choice(
    view: View,
    kept: list[Sampled],
    scored: list[Action],
    tally: Tally,
    scale: float,
    shift: float,
    ties_only: bool,
) -> Action:
    """The card by ``margin_credit`` (``shift`` points of margin taken off the bidder's side,
    given to the other), or with ``ties_only`` the margins only between equal counts."""
    wins, points = tally
    seat = view.viewer
    bidders = view.bidder is not None and seat is not None and seat & 1 == view.bidder & 1
    soft = margin_credit(kept, scored, scale, shift if bidders else -shift)
    if ties_only:
        return max(scored, key=lambda a: (wins[a], soft[a], points[a], -_order(a)))
    return max(scored, key=lambda a: (soft[a], wins[a], points[a], -_order(a)))


def margin_credit(
    kept: list[Sampled], actions: list[Action], scale: float, shift: float = 0.0
) -> dict[Action, float]:
    """{action: the weight of the sampled deals it makes, each counted by a logistic of its
    margin, 1 / (1 + exp(-(value - need + 0.5 - shift) / scale)): with no shift a deal made
    with points to spare nearly 1, made with none 0.5 + a little, failed by a point a little
    under 0.5}."""
    out = dict.fromkeys(actions, 0.0)
    for _, w, values, need in kept:
        for a in actions:
            v = values.get(a)
            if v is not None:
                out[a] += w / (1.0 + math.exp(-(v - need + 0.5 - shift) / scale))
    return out


def reveal_or_not(
    scored: list[Action],
    wins: dict[Action, float],
    points: dict[Action, float],
    total: float,
    void_chance: float,
) -> Action | None:
    """Ask for trump or play a card, where a deal whose trump is never shown is void.

    Asked for only when the mover, void in the suit led, may either ask or play a card (trump
    still hidden): None otherwise. Each choice is valued by its chance ``p`` of making (or
    beating) the contract in the sampled deals as a game won +1, lost -1, void 0: asking shows
    trump, so the deal is decided, ``2p - 1``. Playing a card leaves trump hidden: a side
    likelier to lose (``2p - 1 < 0``) may see the deal end void, with ``void_chance``, so
    the card is worth ``(1 - void_chance) (2p - 1)`` to it; a side likelier to win is taken to
    show trump later itself (forked self-play: of 36 such sides that played a card instead, not
    one deal ended void), so the card is worth ``2p - 1``. So a side sure to lose keeps trump
    hidden; asking wins over a card for the side likelier to win only at an equal chance
    (then it rules out the void for nothing). Other ties go to the points."""
    reveal = next((a for a in scored if a.act is Act.REVEAL), None)
    cards = [a for a in scored if a.act is not Act.REVEAL]
    if reveal is None or not cards:
        return None
    card = max(cards, key=lambda a: (wins[a], points[a], -_order(a)))
    shown = 2 * wins[reveal] / total - 1
    hidden = 2 * wins[card] / total - 1
    if hidden < 0:
        hidden *= 1 - void_chance
    if shown != hidden:
        return reveal if shown > hidden else card
    if shown > 0:
        return reveal
    return reveal if shown == 0 and points[reveal] > points[card] else card


def _order(a: Action) -> int:
    """A stable tie-break: keep low cards (play the cheaper of equal choices)."""
    return a.arg if a.act is Act.PLAY else 99
