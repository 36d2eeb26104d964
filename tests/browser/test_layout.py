"""Layout (issue 27): world pages lead with the level grid (its first row above the fold at
1366x768), the chart after it; no page scrolls sideways at 390x844; the logo and the name show
crisply at every width; a tile's "par N" never wraps; the progress table fits a phone."""
from __future__ import annotations

import pytest

from conftest import new_context
from helpers import open_everything

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1366, "height": 768}
PAGES = ["index.html", "w1/index.html", "w5/index.html", "w1/01.html", "w5/30.html", "daily/088.html",
         "daily/index.html", "daily.html", "progress.html", "how-to-play.html", "how-levels-are-made.html",
         "editor.html", "play.html", "practice.html?mechanic=beam&tier=medium&n=1", "404.html"]


def test_world_page_first_row_of_levels_above_the_fold(browser, base_url):
    ctx = new_context(browser, viewport=WIDE)
    page = ctx.new_page()
    for w in range(1, 6):
        page.goto(f"{base_url}w{w}/index.html")
        page.wait_for_load_state("networkidle")
        boxes = page.evaluate("""() => [...document.querySelectorAll('.level-tile')].slice(0, 8).map(t => {
            const r = t.getBoundingClientRect(); return {y: r.top, height: r.height}; })""")
        row = [b for b in boxes if abs(b["y"] - boxes[0]["y"]) < 1]
        assert len(row) >= 4, "a row of levels"
        assert all(b["y"] + b["height"] <= WIDE["height"] for b in row), f"w{w}: first row below the fold"
        grid, chart = page.locator("ol.levels").bounding_box(), page.locator(".curve-card").bounding_box()
        assert grid["y"] < chart["y"], "grid first, chart after"
        pars = page.locator(".level-par").all()
        assert all(p.evaluate("n => n.getClientRects().length") == 1 and
                   p.bounding_box()["height"] < 30 for p in pars), "par N on one line"
    ctx.close()


@pytest.mark.parametrize("vp", [PHONE, WIDE], ids=["phone", "laptop"])
def test_no_sideways_scroll_and_the_logo_with_its_name(browser, base_url, packs, vp):
    ctx = new_context(browser, viewport=vp)
    page = ctx.new_page()
    open_everything(page, packs)
    wide = []
    for rel in PAGES:
        page.goto(base_url + rel)
        page.wait_for_load_state("networkidle")
        if page.evaluate("() => document.documentElement.scrollWidth") > vp["width"]:
            wide.append(rel)
        logo, name = page.locator(".brand img"), page.locator(".brand span")
        assert logo.is_visible() and name.is_visible() and name.inner_text() == "Lumina", rel
        assert logo.evaluate("i => i.complete && i.naturalWidth > 0 && /\\.svg$/.test(i.src)"), "a vector logo: crisp"
    assert not wide, f"sideways scroll at {vp}: {wide}"
    ctx.close()


def test_the_progress_table_fits_a_phone(browser, base_url, packs):
    ctx = new_context(browser, viewport=PHONE)
    page = ctx.new_page()
    page.goto(base_url + "progress.html")
    wrap = page.locator(".progress-table").first.locator("xpath=..")
    assert wrap.evaluate("w => w.scrollWidth <= w.clientWidth + 1"), "no sideways scroll inside the table"
    assert page.locator(".progress-table th", has_text="Opens at").is_visible()
    ctx.close()
