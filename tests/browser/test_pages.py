"""Every page type in Chromium: gates, the daily pick, share links, no console errors,
no layout shift, and a screenshot of each page type at phone and desktop sizes."""
from __future__ import annotations

import json
from datetime import date

import pytest

from conftest import shoot
from helpers import PROGRESS_KEY

PAGE_TYPES = {
    "home": "index.html",
    "world": "w2/index.html",
    "level": "w1/07.html",
    "tutorial": "w5/01.html",
    "beam-level": "w5/07.html",
    "daily": "daily.html",
    "share": "play.html?d=4x6-R1-I2012K0121",
    "stats": "stats.html",
    "how-to-play": "how-to-play.html",
}
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


def fake_progress(stars_by_id: dict[str, int]) -> str:
    return json.dumps({"levels": {k: {"stars": v, "best": 5} for k, v in stars_by_id.items()}})


@pytest.mark.parametrize("name", sorted(PAGE_TYPES))
@pytest.mark.parametrize("viewport", sorted(VIEWPORTS))
def test_page_type_has_no_console_errors_and_is_screenshotted(browser, base_url, output_dir, name, viewport):
    ctx = browser.new_context(viewport=VIEWPORTS[viewport], color_scheme="dark")
    page = ctx.new_page()
    found: list[str] = []
    page.on("console", lambda m: found.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: found.append(f"pageerror: {e}"))
    page.on("requestfailed", lambda r: found.append(f"request failed: {r.url}"))
    page.on("response", lambda r: found.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
    page.goto(base_url + PAGE_TYPES[name])
    page.wait_for_load_state("networkidle")
    if name in ("level", "tutorial", "beam-level", "daily", "share"):
        page.wait_for_selector("#board [data-block]")
        box = page.locator("#board").bounding_box()
        assert box["width"] <= VIEWPORTS[viewport]["width"]
        if viewport == "phone":   # the board fills a phone in portrait
            assert box["width"] >= 0.6 * VIEWPORTS[viewport]["width"] or box["height"] >= 0.4 * 844
            for b in page.locator("button.button:visible").all():
                bb = b.bounding_box()
                assert bb["height"] >= 44 and bb["width"] >= 44, "touch targets of at least 44 px"
    page.wait_for_timeout(300)
    shoot(page, output_dir, f"{name}-{viewport}")
    ctx.close()
    assert not found, "\n".join(found)


def test_light_scheme_and_reduced_motion_screenshot(browser, base_url, output_dir):
    ctx = browser.new_context(viewport=VIEWPORTS["phone"], color_scheme="light", reduced_motion="reduce")
    page = ctx.new_page()
    page.goto(base_url + "w3/04.html")
    page.wait_for_selector("#board [data-block]")
    bg = page.evaluate("() => getComputedStyle(document.body).color")
    assert bg != "rgb(238, 241, 251)"          # the light palette applies
    anim = page.evaluate("() => getComputedStyle(document.querySelector('.button')).transitionDuration")
    assert anim in ("0s", "0s, 0s")
    shoot(page, output_dir, "level-phone-light")
    ctx.close()


def test_locked_world_unlocks_after_stars_are_earned(page, base_url):
    page.goto(base_url + "index.html")
    page.evaluate(f"() => localStorage.removeItem('{PROGRESS_KEY}')")
    page.reload()
    card = lambda n: page.locator(f'.world-card[data-world="{n}"]')  # noqa: E731
    assert "locked" in card(2).get_attribute("class")
    assert "locked" not in card(1).get_attribute("class")
    # 42 stars: 14 levels at 3 stars. World 2 opens at 40; world 3 (110) stays shut.
    stars = {f"w1-{i:02d}": 3 for i in range(1, 15)}
    page.evaluate(f"() => localStorage.setItem('{PROGRESS_KEY}', {json.dumps(fake_progress(stars))})")
    page.reload()
    assert page.locator("[data-total-stars]").first.inner_text() == "42"
    assert "locked" not in card(2).get_attribute("class")
    assert "open" in card(2).get_attribute("class")
    assert "locked" in card(3).get_attribute("class")
    assert "110 ★" in card(3).inner_text()
    assert "68 more to go" in card(3).locator("a").get_attribute("aria-label")
    page.goto(base_url + "w2/index.html")
    assert page.locator("[data-lock-banner]").is_hidden()
    page.goto(base_url + "w3/index.html")
    assert page.locator("[data-lock-banner]").is_visible()
    # the world page shows stars per level from the same progress
    page.goto(base_url + "w1/index.html")
    assert page.locator('.level-tile[data-level="w1-03"] [data-stars-earned]').get_attribute("data-stars-earned") == "3"


def test_daily_stars_do_not_open_gates(page, base_url):
    page.goto(base_url + "index.html")
    stars = {f"d-{i:03d}": 3 for i in range(1, 30)}
    page.evaluate(f"() => localStorage.setItem('{PROGRESS_KEY}', {json.dumps(fake_progress(stars))})")
    page.reload()
    assert page.locator("[data-total-stars]").first.inner_text() == "0"
    assert "locked" in page.locator('.world-card[data-world="2"]').get_attribute("class")


def test_daily_page_shows_todays_level(page, base_url, packs, errors):
    page.goto(base_url + "daily.html")
    page.wait_for_selector("#board [data-block]")
    y, m, d = page.evaluate("() => { const t = new Date(); return [t.getFullYear(), t.getMonth() + 1, t.getDate()]; }")
    index = (date(y, m, d) - date(1970, 1, 1)).days % 174
    want = f"d-{index + 1:03d}"
    assert page.locator("#board").get_attribute("data-level") == want
    assert page.locator("#par").inner_text() == str(packs[want]["optimal"])
    assert f"#{index + 1} of 174" in page.locator("#daily-id").inner_text()
    frame = page.locator(".board-frame").bounding_box()
    lv = packs[want]
    assert abs(frame["width"] / frame["height"] - (lv["width"] + 1) / (lv["height"] + 1)) < 0.02
    assert not errors


def test_share_link_opens_a_level_and_finds_par(page, base_url, packs, errors):
    from lumina.model import Level
    lv = packs["w4-06"]
    desc = Level.from_json(lv).desc()
    page.goto(f"{base_url}play.html?d={desc}")
    page.wait_for_selector("#board [data-block]")
    assert page.locator("#par").inner_text() == str(lv["optimal"])
    assert page.locator("#board [data-block]").count() == len(lv["blocks"])
    page.goto(f"{base_url}play.html?d=garbage")
    assert page.locator("#play-error").is_visible()
    assert "puzzle we can read" in page.locator("#play-error-text").inner_text()
    assert not errors


def test_level_page_shares_its_desc(page, base_url, packs):
    from lumina.model import Level
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(base_url + "w2/05.html")
    page.wait_for_selector("#board [data-block]")
    page.click("#share")
    page.wait_for_selector(".toast")
    url = page.evaluate("() => navigator.clipboard.readText()")
    assert url == f"{base_url}play.html?d={Level.from_json(packs['w2-05']).desc()}"


def test_no_layout_shift_when_a_level_loads(page, base_url):
    page.add_init_script("""window.__cls = 0; new PerformanceObserver(l => { for (const e of l.getEntries())
        if (!e.hadRecentInput) window.__cls += e.value; }).observe({type: 'layout-shift', buffered: true});""")
    for path in ("w1/07.html", "w3/01.html", "daily.html", "play.html?d=4x6-R1-I2012K0121"):
        page.goto(base_url + path)
        page.wait_for_selector("#board [data-block]")
        page.wait_for_timeout(400)
        cls = page.evaluate("() => window.__cls")
        assert cls < 0.02, f"{path}: cumulative layout shift {cls}"
