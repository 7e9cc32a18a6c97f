"""What every computer player is: something that picks an action from its seat's view.

A bot never receives a ``RoundState``: only ``views.view(state, seat)``, the same view a person
in that seat gets. Everything it knows comes from there.
"""

from __future__ import annotations

from typing import Protocol

from ..engine.actions import Act, Action
from ..engine.cards import mask_of
from ..engine.views import View


class Bot(Protocol):
    """A computer player. ``choose`` gets the view of the seat it plays and must return one of
    ``view.legal``."""

    name: str

    def choose(self, view: View) -> Action: ...


def obvious(view: View) -> Action | None:
    """The action that needs no thought, if there is one: the only legal action, or declaring
    the pair (it always helps the team that declares it). Raises ValueError when the seat has
    nothing to do."""
    legal = view.legal
    if not legal:
        raise ValueError("no legal action in this view: it is not this seat's turn")
    if len(legal) == 1:
        return legal[0]
    return next((a for a in legal if a.act is Act.PAIR), None)


def seat_of(view: View) -> int:
    """The seat whose view this is (a bot never plays from a spectator's view)."""
    if view.viewer is None:
        raise ValueError("a bot needs a seat's view")
    return view.viewer


def hand_of(view: View, seat: int) -> int:
    """``seat``'s cards in ``view`` as a mask (none when the view does not show them)."""
    return mask_of(view.hands[seat] or ())


def pass_and_bids(legal: tuple[Action, ...] | list[Action]) -> tuple[Action | None, list[Action]]:
    """An auction turn's choices: the pass (None where the seat may not pass) and the bids,
    lowest first."""
    passing = next((a for a in legal if a.act is Act.PASS), None)
    return passing, sorted((a for a in legal if a.act is Act.BID), key=lambda a: a.arg)
