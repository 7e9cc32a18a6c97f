"""The tutorial's scripted deal, read from its JS module (the object there is plain JSON)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parents[2] / "twentynine" / "web" / "static"
SCRIPT = STATIC / "js" / "tutorial" / "deal.js"


def tutorial_deal() -> dict[str, Any]:
    text = SCRIPT.read_text(encoding="utf-8")
    body = text.split("export default", 1)[1].strip().rstrip(";")
    deal: dict[str, Any] = json.loads(body)
    return deal
