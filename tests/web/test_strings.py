"""The four string tables: the same keys, the same placeholders, and every key the client
uses exists (English is the fallback, so a missing key would show its name)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from .tutorial import STATIC, tutorial_deal

JS = STATIC / "js"
LANGUAGES = ("en", "bn", "hi", "ne")
LINE = re.compile(r'^\s+"?([\w-]+)"?:\s*"((?:[^"\\]|\\.)*)",\s*$', re.M)


def table(lang: str) -> dict[str, str]:
    return dict(LINE.findall((JS / "strings" / f"{lang}.js").read_text(encoding="utf-8")))


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def client_sources() -> list[Path]:
    return [p for p in JS.rglob("*.js") if "strings" not in p.parts]


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_language_has_every_string(lang: str) -> None:
    en, other = table("en"), table(lang)
    assert len(en) > 400
    assert sorted(set(en) - set(other)) == []
    assert sorted(set(other) - set(en)) == []
    wrong = [k for k in en if placeholders(en[k]) != placeholders(other[k])]
    assert wrong == [], f"placeholders differ from English in {lang}: {wrong}"
    same = [k for k in en if other[k] == en[k] and re.search(r"[a-z]{4}", en[k])]
    assert len(same) < 5, f"untranslated in {lang}: {same}"


def test_every_key_the_client_uses_exists() -> None:
    en = table("en")
    used: set[str] = set()
    for path in client_sources():
        used |= set(re.findall(r"\bt\('([a-z0-9_]+)'", path.read_text(encoding="utf-8")))
    for step in tutorial_deal()["steps"]:
        if "say" in step:
            used.add(step["say"])
            if step.get("seat") == tutorial_deal()["you"]:
                used.add(step["say"] + "_hint")
    assert sorted(used - set(en)) == []


def test_keys_made_from_engine_names_exist() -> None:
    """Strings looked up by an engine name (a reason, an event, an option) are all there."""
    from twentynine.engine.rules import PRESETS, option_choices, option_names

    en = table("en")
    wanted = {f"opt_{n}" for n in option_names()}
    wanted |= {f"val_{c}" for n in option_names() for c in option_choices(n) or ()}
    wanted |= {f"preset_{p}" for p in PRESETS} | {f"preset_{p}_about" for p in PRESETS}
    reasons = (
        "first_hand_no_points",
        "no_points",
        "team_without_trump",
        "seventh_card_rule",
        "trump_never_shown",
        "four_jacks",
        "one_suit",
        "all_passed",
    )
    wanted |= {f"reason_{r}" for r in reasons}
    wanted |= {
        f"ev_pass_{s}" for s in ("auction", "double", "redouble", "setdouble", "single_hand")
    }
    wanted |= {f"ev_trump_{m}" for m in ("suit", "seventh", "hand_card")}
    assert sorted(wanted - set(en)) == []


#: refusals no page shows: a stale move is sent again quietly, and the server deals every deck
#: itself (a bad dealer or deck, a deal started before the last ended, never come from a person)
UNSHOWN_REFUSALS = {"stale", "bad_dealer", "bad_deck", "round_in_progress"}


#: the calls that refuse: each names its reason, a code (``not_your_turn``), among its words
REFUSALS = {"TableError", "IllegalAction", "fail", "AccessError", "refused", "_error",
            "SignInError", "FriendError", "DeleteRefused", "refusal"}  # fmt: skip
CODE = re.compile(r"[a-z][a-z_]*")


def refusal_calls() -> list[tuple[str, int, ast.Call]]:
    """Every call of the server and the engine that refuses: (file, line, call)."""
    root = Path(__file__).resolve().parents[2] / "twentynine"
    found = []
    for path in [*(root / "server").rglob("*.py"), *(root / "engine").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                if name in REFUSALS:
                    found.append((path.name, node.lineno, node))
    return found


def codes_of(call: ast.Call) -> set[str]:
    words = [a.value for a in call.args if isinstance(a, ast.Constant)]
    words += [k.value.value for k in call.keywords if isinstance(k.value, ast.Constant)]
    return {w for w in words if isinstance(w, str) and CODE.fullmatch(w)}


def refusal_reasons() -> set[str]:
    """Every reason the server and the engine refuse with, read from their source."""
    return {code for _, _, call in refusal_calls() for code in codes_of(call)}


def test_every_refusal_worded_in_the_source_names_its_reason() -> None:
    """A refusal written out where it is raised (its words in the call, not passed on from
    another refusal) names a reason: without one, a Bengali, Hindi or Nepali page would show
    the English words."""
    worded = [
        (name, line)
        for name, line, call in refusal_calls()
        if all(isinstance(a, ast.Constant | ast.JoinedStr) for a in call.args)
        and all(isinstance(k.value, ast.Constant | ast.JoinedStr) for k in call.keywords)
        and not codes_of(call)
    ]
    assert worded == []


def test_every_refusal_the_server_gives_has_a_string() -> None:
    """Each reason a table (socket or HTTP), a tournament or the engine refuses with is shown
    in the page's language (``refusalText``): a new reason without a string would reach
    bn/hi/ne pages in English."""
    reasons = refusal_reasons()
    assert {"not_your_turn", "must_follow_suit", "full", "rate_limited"} <= reasons
    assert {"registration_closed", "field_full", "changed", "too_long"} <= reasons
    en = table("en")
    assert sorted(r for r in reasons - UNSHOWN_REFUSALS if f"err_{r}" not in en) == []


def test_each_language_is_written_in_its_own_script() -> None:
    """Bengali strings hold no Devanagari letters, Hindi and Nepali no Bengali ones (the
    danda, shared by both, aside)."""
    bengali, devanagari = r"[\u0980-\u09FF]", r"[\u0900-\u0963\u0966-\u097F]"
    for lang, other in (("bn", devanagari), ("hi", bengali), ("ne", bengali)):
        mixed = {k: v for k, v in table(lang).items() if re.search(other, v)}
        assert mixed == {}, lang
