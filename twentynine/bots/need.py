"""What a side still needs from a position of the play."""

from __future__ import annotations

from ..engine.state import RoundState


def points_needed(st: RoundState, seat: int) -> tuple[int, int]:
    """(the points ``seat``'s team must take from ``st`` on for its side of the contract to
    hold: the bidder's team to reach the target, the other to keep it short; the points left
    to take; the cards of an unfinished trick count for whoever wins it). Public facts only:
    the same in every sampled deal of a seat's view."""
    bidders = st.bidder & 1
    taken = st.points
    left = 28 + st.rules.last_trick_point - taken[0] - taken[1]
    if seat & 1 == bidders:
        return st.target - taken[bidders], left
    return taken[bidders] + left - st.target + 1, left
