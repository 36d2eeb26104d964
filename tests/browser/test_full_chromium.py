"""The rest of the browser tests run in Chromium's headless shell (conftest.py); this one
opens the site in Debian's full browser, /usr/bin/chromium, as a player's Chromium is:
the home page and a level played by mouse to three stars, with no console error."""
from __future__ import annotations

from conftest import FULL_CHROMIUM, launch_args
from helpers import progress, watch, win_by_dragging


def test_a_level_plays_to_three_stars_in_the_full_browser(browser_type, base_url, packs):
    browser = browser_type.launch(**launch_args(FULL_CHROMIUM))
    try:
        ctx = browser.new_context(service_workers="block", viewport={"width": 1280, "height": 720})
        page = ctx.new_page()
        found = watch(page)
        page.goto(base_url + "index.html")
        page.wait_for_selector("main")
        lv = max((packs[f"w1-{i:02d}"] for i in range(2, 8)), key=lambda x: x["optimal"])
        assert win_by_dragging(page, base_url, lv) == "3"
        assert progress(page)["levels"][lv["id"]] == {"stars": 3, "best": lv["optimal"]}
        assert not found, "\n".join(found)
    finally:
        browser.close()
