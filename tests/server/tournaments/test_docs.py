"""Every request body docs/tournaments.md shows is one the API accepts (and the create example
makes a tournament the rules engine accepts)."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest

from twentynine.server.tables.service import rules_spec
from twentynine.server.tournaments import schemas

DOC = Path(__file__).resolve().parents[3] / "docs" / "tournaments.md"
BODIES = {
    "POST /api/tournaments": schemas.CreateTournament,
    "POST /api/tournaments/{id}/entries": schemas.Register,
    "POST /api/tournaments/{id}/entries/{entry}/approve": schemas.Approve,
    "POST /api/tournaments/{id}/entries/{entry}/replace": schemas.Replace,
    "POST /api/tournaments/{id}/bots": schemas.AddBots,
    "POST /api/tournaments/{id}/call": schemas.CallPlayers,
    "POST /api/tournaments/{id}/matches/{match}/result": schemas.AdjustResult,
    "POST /api/tournaments/{id}/matches/{match}/conference": schemas.MatchConference,
    "POST /api/tournaments/{id}/rounds/{round}/pairing": schemas.Repair,
}


def examples() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    route = ""
    text = DOC.read_text(encoding="utf-8")
    for part in re.split(r"^### ", text, flags=re.M)[1:]:
        head = re.match(r"`([A-Z]+ [^`]+)`", part)
        route = head.group(1) if head else ""
        out[route] = re.findall(r"```json\n(.*?)```", part, flags=re.S)
    return out


def test_every_body_the_doc_shows_is_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    found = examples()
    # The create example names the times its registration opens and closes; the API refuses a
    # registration that has already closed, so the example is read as of the moment it opens
    # (read as of today it began to fail once its closing time had passed).
    create = json.loads(found["POST /api/tournaments"][0])
    opens = dt.datetime.fromisoformat(create["registration_opens_at"])
    monkeypatch.setattr(schemas, "utcnow", lambda: opens.astimezone(dt.UTC).replace(tzinfo=None))
    for route, model in BODIES.items():
        assert found.get(route), f"no JSON example for {route}"
        body = model.model_validate(json.loads(found[route][0]))
        if isinstance(body, schemas.CreateTournament):
            rules_spec(body.rules)  # the rules are valid for the engine
    # the document's GET example parses, and has what the page needs
    doc = json.loads(found["GET /api/tournaments/{id}"][0])
    assert {"entries", "rounds", "standings", "ranking", "round_count"} <= set(doc)
