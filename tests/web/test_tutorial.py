"""The tutorial in the browser: a newcomer follows the coach through the whole scripted deal,
tries a wrong move once (and is told why), and reaches the result."""

from __future__ import annotations

from typing import Any

from ..server.conftest import LiveServer
from .conftest import Browser, shot
from .tutorial import tutorial_deal

TUTORIAL = "section.tutorial"


def target(step: dict[str, Any]) -> str:
    """The element that makes the scripted move."""
    if step["act"] == "play":
        return f".hand button.card[data-card='{step['card']}']"
    if step["act"] == "bid":
        return f".actions button[data-act=bid][data-value='{step['value']}']"
    if step["act"] == "trump":
        return f".actions button[data-act=trump][data-value='{step['suit']}']"
    return f".actions button[data-act={step['act']}]"


async def test_tutorial_walks_through_a_whole_deal(web_live: LiveServer, chromium: Browser) -> None:
    deal = tutorial_deal()
    page = await chromium.page(web_live.url)
    await page.goto("/#/tutorial?pace=40")  # the computer players need not wait
    lesson = page.locator(TUTORIAL)
    await lesson.wait_for()
    wrong_tried = False
    for index, step in enumerate(deal["steps"]):
        learner = step.get("seat") == deal["you"]
        if not learner and not step.get("say"):
            continue  # steps without words move on by themselves
        await page.locator(f"{TUTORIAL}[data-step='{index}']").wait_for()
        if learner:
            assert await lesson.get_attribute("data-waiting") == "move"
            if not wrong_tried and step["act"] == "bid" and step["value"] == 16:
                # a legal but unwise choice: the coach explains and waits
                await page.locator(".actions button[data-act=bid][data-value='20']").click()
                await page.locator(".coach .feedback").wait_for()
                assert await lesson.get_attribute("data-step") == str(index)
                wrong_tried = True
                await shot(page, "tutorial-hint")
            if step["act"] == "play" and index > 0 and step.get("say") == "tut_follow_suit":
                # only the card that follows suit can be chosen
                legal = page.locator(".hand button.card[data-legal=true]")
                assert await legal.count() == 1
                await shot(page, "tutorial-follow-suit")
            await page.locator(target(step)).click()
        elif step.get("say"):
            await page.get_by_role("button", name="Next").click()
    assert wrong_tried
    await page.locator(f"{TUTORIAL} [data-testid=result]").wait_for()
    assert await page.locator("[data-testid=result]").get_attribute("data-outcome") == "won"
    await shot(page, "tutorial-end")
    # nothing is left to choose, and no empty box stands where the choices were
    assert (
        await page.locator(f"{TUTORIAL} .actions").evaluate_all(
            "boxes => boxes.filter(b => b.checkVisibility()).length"
        )
        == 0
    )
    chromium.assert_clean()
