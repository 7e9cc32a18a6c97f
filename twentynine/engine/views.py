"""What a viewer may know. The only way state reaches a player, a spectator or a bot.

``view(state, seat)`` is a player's view; ``spectator_view(state, seats)`` is a spectator's view
with the hands of ``seats`` turned face up for them (each such seat contributes exactly what that
player knows, never more). Every hand is shown once the round is over.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .actions import Action, action_json, action_text
from .cards import CARD_CODES, SUITS, Card, card_code, sorted_for_display
from .round import legal_actions, to_act
from .rules import Rules
from .state import TRUMP_MODE_NAMES, Phase, RoundState, Trick, partner

#: the fields of a view's JSON that depend on who is looking; the rest depend only on the state
PRIVATE_FIELDS = (
    "viewer",
    "sees",
    "to_act",
    "legal",
    "legal_json",
    "hands",
    "indicator",
    "trump",
    "pair_window",
)


@dataclass(frozen=True)
class View:
    viewer: int | None  # the seat, or None for a spectator
    sees: frozenset[int]  # seats whose private knowledge this view holds
    rules: Rules
    dealer: int
    first_hand: int
    phase: Phase
    to_act: tuple[int, ...]
    legal: tuple[Action, ...]  # the viewer's own legal actions
    hands: tuple[tuple[Card, ...] | None, ...]  # None: face down to this viewer
    hand_sizes: tuple[int, ...]
    has_indicator: bool  # a face-down trump card lies beside the bidder
    indicator: Card | None  # that card, if this viewer may see it
    calls: tuple[tuple[int, int], ...]
    holder: int | None
    bid: int
    speaker: int | None
    bidder: int | None
    target: int | None
    trump_mode: str | None
    trump: int | None  # None while unknown to this viewer
    trump_shown: bool
    shown_by: int | None
    shown_in_trick: int | None
    stake: int
    double_level: int
    caller: int | None
    single_hand_level: int
    sits_out: int | None
    leader: int | None
    turn: int | None
    lead_suit: int | None
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    points: tuple[int, int]
    tricks_won: tuple[int, int]
    pair_by: int | None
    pair_window: int | None
    must_trump: int | None
    outcome: str | None
    reason: str | None
    score_delta: tuple[int, int]
    early: bool

    def hand(self, seat: int) -> tuple[Card, ...] | None:
        return self.hands[seat]

    def to_json(self) -> dict[str, Any]:
        return {**self.public_json(), **self.private_json()}

    def private_json(self) -> dict[str, Any]:
        """The fields that depend on who is looking (:data:`PRIVATE_FIELDS`)."""
        return _private_json(
            self.viewer,
            self.sees,
            self.to_act,
            self.legal,
            self.hands,
            self.indicator,
            self.trump,
            self.pair_window,
        )

    def public_json(self) -> dict[str, Any]:
        """The fields every view of the same state shares, whoever looks: a server sending one
        state to many viewers builds them once (``shared_json``, straight from the state)."""
        return _public_json(vars(self))


def _opt(v: int) -> int | None:
    return v if v >= 0 else None


def _public_fields(st: RoundState) -> dict[str, Any]:
    """A view's fields that are the same whoever looks (see :meth:`View.public_json`)."""
    phase = st.phase
    bidder_known = st.bidder >= 0
    caller = st.caller
    return {
        "dealer": st.dealer,
        "first_hand": st.first_hand,
        "phase": phase,
        "hand_sizes": tuple(h.bit_count() for h in st.hands),
        "has_indicator": st.indicator >= 0,
        "calls": st.calls,
        "holder": _opt(st.holder),
        "bid": st.bid,
        "speaker": _opt(st.speaker) if phase is Phase.AUCTION else None,
        "bidder": _opt(st.bidder),
        "target": st.target if bidder_known and caller < 0 else None,
        "trump_mode": TRUMP_MODE_NAMES[st.trump_mode]
        if bidder_known and phase > Phase.TRUMP
        else None,
        "trump_shown": st.trump_shown,
        "shown_by": _opt(st.shown_by),
        "shown_in_trick": _opt(st.shown_in_trick),
        "stake": st.stake if phase is Phase.OVER else st.current_stake,
        "double_level": st.double_level,
        "caller": _opt(caller),
        "single_hand_level": st.single_hand_level,
        "sits_out": partner(caller) if caller >= 0 else None,
        "leader": _opt(st.leader),
        "turn": _opt(st.turn) if phase is Phase.PLAY else None,
        "lead_suit": _opt(st.lead_suit),
        "trick": st.trick,
        "tricks": st.tricks,
        "points": st.points,
        "tricks_won": st.tricks_won,
        "pair_by": _opt(st.pair_by),
        "must_trump": _opt(st.must_trump),
        "outcome": st.outcome or None,
        "reason": st.reason or None,
        "score_delta": st.score_delta,
        "early": st.early,
    }


def _public_json(f: dict[str, Any]) -> dict[str, Any]:
    """The JSON of the public fields ``f`` (a view's, or ``_public_fields``)."""
    codes = CARD_CODES
    lead_suit = f["lead_suit"]
    return {
        "dealer": f["dealer"],
        "first_hand": f["first_hand"],
        "phase": f["phase"].name.lower(),
        "hand_sizes": list(f["hand_sizes"]),
        "has_indicator": f["has_indicator"],
        "calls": [list(c) for c in f["calls"]],
        "holder": f["holder"],
        "bid": f["bid"],
        "speaker": f["speaker"],
        "bidder": f["bidder"],
        "target": f["target"],
        "trump_mode": f["trump_mode"],
        "trump_shown": f["trump_shown"],
        "shown_by": f["shown_by"],
        "shown_in_trick": f["shown_in_trick"],
        "stake": f["stake"],
        "double_level": f["double_level"],
        "caller": f["caller"],
        "single_hand_level": f["single_hand_level"],
        "sits_out": f["sits_out"],
        "leader": f["leader"],
        "turn": f["turn"],
        "lead_suit": None if lead_suit is None else SUITS[lead_suit],
        "trick": [[s, codes[c]] for s, c in f["trick"]],
        "tricks": [
            {
                "leader": t.leader,
                "plays": [[s, codes[c]] for s, c in t.plays],
                "winner": t.winner,
                "points": t.points,
            }
            for t in f["tricks"]
        ],
        "points": list(f["points"]),
        "tricks_won": list(f["tricks_won"]),
        "pair_by": f["pair_by"],
        "must_trump": f["must_trump"],
        "outcome": f["outcome"],
        "reason": f["reason"],
        "score_delta": list(f["score_delta"]),
        "early": f["early"],
    }


def known_cards(st: RoundState, seat: int) -> tuple[dict[int, int], bool, bool]:
    """What ``seat`` knows privately: ({seat: mask of that seat's hand it sees}, whether it
    sees the face-down indicator, whether it knows the trump suit)."""
    bidder = st.bidder
    if st.phase is Phase.SEVENTH_REDOUBLE and seat == bidder:
        # deciding the seventh-card Redouble: the first four cards and the 7th card only
        return {seat: st.first_batch(seat)}, True, True
    hands = {seat: st.hands[seat]}
    caller = st.caller
    if caller == seat and _caller_has_played(st):
        hands[partner(seat)] = st.hands[partner(seat)]
    sees_indicator = seat == bidder and st.indicator >= 0
    knows_trump = st.trump >= 0 and (st.trump_shown or seat == bidder)
    return hands, sees_indicator, knows_trump


def _caller_has_played(st: RoundState) -> bool:
    caller = st.caller
    return bool(st.tricks) or any(s == caller for s, _ in st.trick)


def view(st: RoundState, seat: int) -> View:
    """Everything the player in ``seat`` may know now, and its own legal actions."""
    if not 0 <= seat <= 3:
        raise ValueError(f"there is no seat {seat}; seats are 0-3")
    return _build(st, seat, frozenset((seat,)), tuple(legal_actions(st, seat)))


def seat_private_json(st: RoundState, seat: int) -> dict[str, Any]:
    """``view(st, seat).private_json()``, without building the rest of the view: a server
    sending one state to four players builds the shared part once and this for each."""
    if not 0 <= seat <= 3:
        raise ValueError(f"there is no seat {seat}; seats are 0-3")
    sees = frozenset((seat,))
    hands, indicator, trump = _seen(st, sees)
    return _private_json(
        seat,
        sees,
        _to_act(st, sees),
        legal_actions(st, seat),
        hands,
        indicator,
        trump,
        _pair_window(st, sees),
    )


def shared_json(st: RoundState) -> dict[str, Any]:
    """The part of every view of ``st`` that is the same whoever looks (``public_json``)."""
    return _public_json(_public_fields(st))


def spectator_view(st: RoundState, seats: Iterable[int] = ()) -> View:
    """A spectator's view, with the hands of ``seats`` face up (what those players see)."""
    sees = frozenset(seats)
    if not sees <= {0, 1, 2, 3}:
        raise ValueError(f"seats are 0-3, not {sorted(sees)}")
    return _build(st, None, sees, ())


def _build(
    st: RoundState, viewer: int | None, sees: frozenset[int], legal: tuple[Action, ...]
) -> View:
    hands_out, indicator, trump = _seen(st, sees)
    return View(
        viewer=viewer,
        sees=sees,
        rules=st.rules,
        to_act=_to_act(st, sees),
        legal=legal,
        hands=hands_out,
        indicator=indicator,
        trump=trump,
        pair_window=_pair_window(st, sees),
        **_public_fields(st),
    )


def _seen(
    st: RoundState, sees: frozenset[int]
) -> tuple[tuple[tuple[Card, ...] | None, ...], Card | None, int | None]:
    """What the private knowledge of the seats ``sees`` shows: the four hands (None: face
    down), the face-down indicator card and the trump suit (None where not known)."""
    over = st.phase is Phase.OVER
    visible: dict[int, int] = {}
    sees_indicator = over
    knows_trump = over or st.trump_shown
    if over:
        visible = {s: st.hands[s] for s in range(4)}
    else:
        for s in sees:
            hands, ind, trump = known_cards(st, s)
            visible.update(hands)
            sees_indicator = sees_indicator or ind
            knows_trump = knows_trump or trump
    hands_out = tuple(
        tuple(sorted_for_display(visible[s])) if s in visible else None for s in range(4)
    )
    return (
        hands_out,
        st.indicator if sees_indicator and st.indicator >= 0 else None,
        st.trump if knows_trump and st.trump >= 0 else None,
    )


def _pair_window(st: RoundState, sees: frozenset[int]) -> int | None:
    # who may declare a pair tells that they hold K and Q of trump: theirs to know
    return st.pair_window if st.pair_window in sees else None


def _private_json(
    viewer: int | None,
    sees: frozenset[int],
    to_act: Iterable[int],
    legal: Iterable[Action],
    hands: tuple[tuple[Card, ...] | None, ...],
    indicator: Card | None,
    trump: int | None,
    pair_window: int | None,
) -> dict[str, Any]:
    legal = tuple(legal)
    return {
        "viewer": viewer,
        "sees": sorted(sees),
        "to_act": list(to_act),
        "legal": [action_text(a) for a in legal],
        "legal_json": [action_json(a) for a in legal],
        "hands": [None if h is None else [CARD_CODES[c] for c in h] for h in hands],
        "indicator": None if indicator is None else card_code(indicator),
        "trump": None if trump is None else SUITS[trump],
        "pair_window": pair_window,
    }


def _to_act(st: RoundState, sees: frozenset[int]) -> tuple[int, ...]:
    seats = to_act(st)
    window = st.pair_window
    if window not in seats:  # (most often: no pair window, -1) nothing to leave out
        return seats
    return tuple(s for s in seats if s != window or s == st.turn or s in sees)
