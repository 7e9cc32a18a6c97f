"""What every computer player is: something that picks an action from its seat's view.

A bot never receives a ``RoundState``: only ``views.view(state, seat)``, the same view a person
in that seat gets. Everything it knows comes from there.
"""

from __future__ import annotations

from typing import Protocol

from ..engine.actions import Action
from ..engine.views import View


class Bot(Protocol):
    """A computer player. ``choose`` gets the view of the seat it plays and must return one of
    ``view.legal``."""

    name: str

    def choose(self, view: View) -> Action: ...
