"""The deal's time under the Bhoos protocol: ``timeRemaining`` is what is left of the deal's
1500 ms, and the competition ran each bot on one CPU. After a reserve for the network and the
answers still to come, what is left is shared among this decision and the ones to come by
weight, the auction and the first tricks weighing most (the positions where thought changes
most; the last tricks nearly play themselves). ``Overhead`` learns how much the game server's
clock charges beyond our own answer time, and the reserve for each answer follows it."""

from __future__ import annotations

import threading

from .payload import Request as BhoosRequest

#: kept back from ``timeRemaining`` for the network and the game server's own work
SAFETY_MS = 120.0
#: kept back for each answer still to come (its request, rebuilding the state, the answer)
PER_ANSWER_MS = 8.0
#: the weight of a decision in the deal's time plan: a bid, naming trump, and a card played
#: with n cards in hand (with one card left there is nothing to decide)
BID_WEIGHT = 1.5
TRUMP_WEIGHT = 1.5
PLAY_WEIGHTS = {8: 1.6, 7: 1.5, 6: 1.3, 5: 1.1, 4: 0.8, 3: 0.5, 2: 0.25, 1: 0.0}
#: the bids a seat may still make after this one, on average, and the chance it names trump
BIDS_TO_COME = 1.0
TRUMP_CHANCE = 0.5


def _plays_weight(cards: int) -> float:
    return sum(PLAY_WEIGHTS.get(n, 0.0) for n in range(1, cards + 1))


def answer_budget_ms(
    req: BhoosRequest, safety_ms: float = SAFETY_MS, per_answer_ms: float = PER_ANSWER_MS
) -> float:
    """The milliseconds this answer may take: the deal's remaining time, less a reserve for
    the network and the answers to come (``per_answer_ms`` each), times this decision's
    weight over the weights of this and every decision still to come (``PLAY_WEIGHTS``,
    ``BID_WEIGHT``, ...)."""
    if req.endpoint == "bid":
        now = BID_WEIGHT
        future = BIDS_TO_COME * BID_WEIGHT + TRUMP_CHANCE * TRUMP_WEIGHT + _plays_weight(8)
        answers = BIDS_TO_COME + TRUMP_CHANCE + 8
    elif req.endpoint == "chooseTrump":
        now, future, answers = TRUMP_WEIGHT, _plays_weight(8), 8
    else:
        n = max(1, len(req.cards))
        now = PLAY_WEIGHTS.get(n, 1.0)
        future = _plays_weight(n - 1)
        answers = n - 1
    usable = req.time_remaining - safety_ms - per_answer_ms * answers
    if now <= 0:  # one card left: whatever is left is this answer's
        return max(0.0, req.time_remaining - safety_ms)
    return max(0.0, usable * now / (now + future))


def deal_key(req: BhoosRequest) -> tuple[str, frozenset[int]]:
    """Names one seat's deal across its requests: the player and every card it has held
    (its hand and the cards it played), the same from one request to the next of a phase."""
    own = set(req.cards)  # (it is our turn: none of our cards is in the trick in progress)
    for t in req.hands_history:
        own.add(t.cards[(req.seat - t.leader) & 3])
    return req.pid(req.seat), frozenset(own)


class Overhead:
    """What the game server's clock charges beyond our own answer time (the network, the
    queues of a busy machine), learnt from one seat's successive requests: the drop in
    ``timeRemaining`` less our own time for the answer between. The reserve kept for each
    answer still to come follows the largest seen, forgetting slowly."""

    def __init__(self, floor_ms: float = PER_ANSWER_MS, keep: int = 512) -> None:
        self.floor_ms = floor_ms
        self.estimate_ms = floor_ms
        self._last: dict[tuple[str, frozenset[int]], tuple[float, float]] = {}
        self._keep = keep
        self._lock = threading.Lock()

    def seen(self, req: BhoosRequest) -> None:
        """Learn from ``req`` if the same seat's previous request of this deal is known."""
        with self._lock:
            last = self._last.get(deal_key(req))
            if last is None:
                return
            remaining, ours = last
            extra = remaining - req.time_remaining - ours
            if 0 <= extra < remaining:
                self.estimate_ms = max(self.floor_ms, 0.95 * self.estimate_ms, extra)

    def answered(self, req: BhoosRequest, elapsed_ms: float) -> None:
        with self._lock:
            if len(self._last) >= self._keep:
                self._last.clear()
            self._last[deal_key(req)] = (req.time_remaining, elapsed_ms)

    @property
    def reserve_ms(self) -> float:
        return self.estimate_ms
