"""The page's frame (index.html: the skip link, the home link's and the main menu's names for
screen readers) follows the page's language like everything else: it stayed in English."""

from __future__ import annotations

from ..server.conftest import LiveServer
from .conftest import Browser


async def test_the_frame_is_in_the_page_language(web_live: LiveServer, chromium: Browser) -> None:
    page = await chromium.page(web_live.url)
    await page.goto("/#/privacy")
    for lang in ("bn", "hi", "ne", "en"):
        await page.locator("#lang").select_option(lang)
        await page.locator(f"html[lang={lang}]").wait_for()
        strings = await page.evaluate(
            f"import('/static/js/strings/{lang}.js').then(m => m.default)"
        )
        assert await page.locator("a.skip").inner_text() == strings["skip_to_content"]
        brand = await page.locator("header .brand").get_attribute("aria-label")
        assert brand == strings["brand_home"]
        assert await page.locator("#nav").get_attribute("aria-label") == strings["nav_main"]
    chromium.assert_clean()
