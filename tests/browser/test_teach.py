"""Teach in place (issue 27): a daily or practice page whose board holds a mechanic the player
has not met in the campaign explains it, with its tutorial playing on a small board, before
the first move; one they have met gets a one-line reminder. Contract: one visible
[data-explain="MECHANIC"] per twist mechanic on the board (teach.js)."""
from __future__ import annotations

import json

from helpers import PROGRESS_KEY, watch
from lumina.model import Level


def _daily_with(packs, *kinds) -> str:
    """The first daily whose label holds every kind in `kinds`."""
    for lid in sorted(i for i in packs if i.startswith("d-")):
        if all(k in Level.from_json(packs[lid]).mechanics for k in kinds):
            return lid
    raise AssertionError(f"no daily with {kinds}")


def _twists(packs, lid) -> list[str]:
    return [k for k in Level.from_json(packs[lid]).mechanics if k != "crystal"]


def test_a_daily_with_an_unmet_mechanic_explains_it_before_the_first_move(page, base_url, packs):
    lid = _daily_with(packs, "beam")
    found = watch(page)
    page.goto(f"{base_url}daily/{lid[2:]}.html")
    for k in _twists(packs, lid):
        box = page.locator(f'[data-explain="{k}"]')
        box.wait_for(state="visible")
        assert box.get_attribute("data-met") == "false"
        assert "New here" in box.inner_text() and "how it works" in box.inner_text()
        demo = box.locator(".demo-board [data-block]")
        demo.first.wait_for(state="attached")   # mounted when the page is idle
        assert demo.count() >= 2, "the tutorial's board is drawn"
    assert page.locator("#board").get_attribute("data-moves") == "0", "shown before the first move"
    # the tutorial plays itself: its blocks move within a few steps
    box = page.locator('[data-explain="beam"] .demo-board')
    before = box.evaluate("b => [...b.querySelectorAll('[data-block]')].map(n => n.dataset.x + n.dataset.y).join()")
    page.wait_for_function("""([sel, before]) => [...document.querySelector(sel).querySelectorAll('[data-block]')]
        .map(n => n.dataset.x + n.dataset.y).join() !== before""", arg=['[data-explain="beam"] .demo-board', before],
                           timeout=8000)
    assert not found, found


def test_a_met_mechanic_gets_a_one_line_reminder(page, base_url, packs):
    lid = _daily_with(packs, "beam")
    twists = _twists(packs, lid)
    worlds = {"sand": 2, "ice": 3, "rime": 4, "beam": 5}
    met = {f"w{worlds[k]}-01": {"stars": 3, "best": 2} for k in twists}
    page.add_init_script(f"localStorage.setItem({json.dumps(PROGRESS_KEY)}, {json.dumps(json.dumps({'levels': met}))})")
    page.goto(f"{base_url}daily/{lid[2:]}.html")
    for k in twists:
        box = page.locator(f'[data-explain="{k}"]')
        box.wait_for(state="visible")
        assert box.get_attribute("data-met") == "true"
        assert box.locator(".demo-board").count() == 0 and box.evaluate("b => b.getClientRects().length") == 1
        assert box.bounding_box()["height"] < 80, "one line (two on a narrow column)"


def test_a_crystal_daily_explains_nothing(page, base_url, packs):
    lid = next(i for i in sorted(packs) if i.startswith("d-") and Level.from_json(packs[i]).mechanics == ("crystal",))
    page.goto(f"{base_url}daily/{lid[2:]}.html")
    page.wait_for_selector("#board [data-block]")
    page.wait_for_timeout(300)
    assert page.locator("[data-explain]").count() == 0
