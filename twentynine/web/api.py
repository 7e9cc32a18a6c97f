"""Presentation data for the browser client, read from the engine and the bots.

- ``GET /api/web/session``: the signed-in account or ``null`` (always 200, so a first visit does
  not log a failed request in the browser).
- ``GET /api/web/bots``: the bot levels and the best one (for "play now" against bots).
- ``GET /api/web/rules``: every rule option (kind, choices, default) and every preset's values.
- ``GET /api/web/rules-text``: the rules page (docs/rules.md) as Markdown, when it is at hand.
- ``GET /api/web/replay/{deal_id}``: a stored deal of yours replayed by the engine, step by step,
  with every hand, and the solver's verdict on each card when ``twentynine.analyse`` exists.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import logging
import pathlib
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path
from sqlalchemy import select

from ..bots import LEVELS
from ..engine import apply, event_json, start_round
from ..engine.actions import action_text
from ..engine.cards import card_code, sorted_for_display
from ..engine.errors import EngineError
from ..engine.records import DealRecord
from ..engine.rules import PRESETS, Rules, option_choices, option_names
from ..engine.state import RoundState
from ..engine.views import spectator_view
from ..server.accounts.router import user_out
from ..server.accounts.schemas import UserOut
from ..server.deps import CurrentUser, OptionalUser, SessionDep, users_by_ids
from ..server.history.models import DealHistory, DealPlayer

log = logging.getLogger("twentynine.web")

router = APIRouter(prefix="/api/web", tags=["web"])

#: strongest first; a level missing here ranks below these, in the order LEVELS lists it
LEVEL_ORDER = ("expert", "advanced", "strong", "intermediate", "beginner", "random")
RULES_MD = pathlib.Path(__file__).resolve().parents[2] / "docs" / "rules.md"
#: a stored deal's id (the column is a 32-bit integer on PostgreSQL)
DealId = Annotated[int, Path(ge=1, le=2**31 - 1)]


def best_level(levels: list[str]) -> str:
    known = [lv for lv in LEVEL_ORDER if lv in levels]
    if known:
        return known[0]
    return levels[-1]


@router.get("/session")
async def session(user: OptionalUser) -> dict[str, UserOut | None]:
    return {"user": None if user is None else user_out(user)}


@router.get("/bots")
async def bots() -> dict[str, Any]:
    levels = list(LEVELS)
    return {"levels": levels, "best": best_level(levels)}


def option_info(name: str) -> dict[str, Any]:
    default = getattr(Rules(), name)
    choices = option_choices(name)
    kind = "choice" if choices else ("bool" if isinstance(default, bool) else "int")
    return {
        "name": name,
        "kind": kind,
        "choices": list(choices) if choices else None,
        "default": default,
    }


def rules_json() -> dict[str, Any]:
    standard = Rules()
    return {
        "options": [option_info(n) for n in option_names()],
        "presets": [
            {
                "name": p.name,
                "source": p.source,
                "description": p.description,
                "options": p.rules.as_dict(),
                "differs": sorted(p.rules.overrides(standard)),
            }
            for p in PRESETS.values()
        ],
    }


@router.get("/rules")
async def rules() -> dict[str, Any]:
    return rules_json()


@router.get("/rules-text")
async def rules_text() -> dict[str, str | None]:
    text = RULES_MD.read_text(encoding="utf-8") if RULES_MD.is_file() else None
    return {"markdown": text}


# -- replays ---------------------------------------------------------------------------------
def _hands(st: RoundState) -> list[list[str]]:
    return [[card_code(c) for c in sorted_for_display(st.hands[s])] for s in range(4)]


def step_view(st: RoundState) -> dict[str, Any]:
    """What a replay shows: the public view with every hand as it really is."""
    out = spectator_view(st, range(4)).to_json()
    out["hands"] = _hands(st)
    out["indicator"] = card_code(st.indicator) if st.indicator >= 0 else None
    return out


def replay_steps(record: DealRecord) -> list[dict[str, Any]]:
    """The deal before any action, then after each action: the action, its events, the view."""
    st, events = start_round(record.rules.rules, record.dealer, record.deck)
    steps: list[dict[str, Any]] = [
        {
            "action": None,
            "text": None,
            "events": [event_json(e) for e in events],
            "view": step_view(st),
        }
    ]
    for action in record.actions:
        st, events = apply(st, action)
        steps.append(
            {
                "action": action.to_json(),
                "text": action_text(action),
                "events": [event_json(e) for e in events],
                "view": step_view(st),
            }
        )
    return steps


def _analyser() -> Callable[..., Any] | None:
    try:
        module = importlib.import_module("twentynine.analyse")
    except ImportError:
        return None
    found = getattr(module, "analyse_deal", None)
    return found if callable(found) else None


def plain(value: Any) -> Any:
    """Whatever the analyser returns, as JSON data."""
    if hasattr(value, "to_json"):
        return plain(value.to_json())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def analysis(record: DealRecord) -> Any:
    """The solver's verdict on every card played, or None when there is no analyser (or it
    cannot judge this deal)."""
    analyse_deal = _analyser()
    if analyse_deal is None:
        return None
    try:
        return plain(analyse_deal(record))
    except Exception:  # an optional extra must never break the replay
        log.exception("analyse_deal failed")
        return None


async def _your_deal(db: Any, deal_id: int, user_id: int) -> tuple[DealHistory, int, DealRecord]:
    deal = await db.get(DealHistory, deal_id)
    seat = await db.scalar(
        select(DealPlayer.seat).where(DealPlayer.deal_id == deal_id, DealPlayer.user_id == user_id)
    )
    if deal is None or seat is None:
        raise HTTPException(status_code=404, detail="no such deal among yours")
    try:
        record = DealRecord.from_json(deal.record)
    except EngineError as e:
        raise HTTPException(status_code=422, detail=f"the record does not read: {e}") from None
    return deal, seat, record


async def _seat_names(db: Any, seat_users: list[int | None]) -> list[str | None]:
    """The first names of the people who played the deal (None for a bot's seat)."""
    ids = [u for u in seat_users if u is not None]
    names = {u.id: u.first_name for u in (await users_by_ids(db, ids)).values()}
    return [names.get(u) if u is not None else None for u in seat_users]


@router.get("/replay/{deal_id}")
async def replay(deal_id: DealId, user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    deal, seat, record = await _your_deal(db, deal_id, user.id)
    try:
        steps = replay_steps(record)
    except EngineError as e:
        raise HTTPException(status_code=422, detail=f"the record does not replay: {e}") from None
    return {
        "id": deal.id,
        "table_id": deal.table_id,
        "seat": seat,
        "names": await _seat_names(db, deal.seat_users),
        "bots": [u is None for u in deal.seat_users],
        "record": deal.record,
        "rules": record.rules.to_json(),
        "direction": record.rules.rules.direction,
        "dealer": record.dealer,
        "steps": steps,
        "analysis_available": _analyser() is not None,
    }


@router.get("/replay/{deal_id}/analysis")
async def replay_analysis(deal_id: DealId, user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    """The solver's verdict on every card of the deal (``analysis`` is null without one)."""
    _, _, record = await _your_deal(db, deal_id, user.id)
    # solving can take a while on a hard deal: off the event loop
    return {"analysis": await asyncio.to_thread(analysis, record)}
