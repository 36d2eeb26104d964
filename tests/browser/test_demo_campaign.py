"""A studio's own campaign, played in Chromium: the two-world, ten-level demo
(tests/data/demo-campaign.toml) generated, verified and published with `--campaign`,
served, and played to a win; its second world opens at the demo's own gate (8 stars,
from the page's #site-data), not the product's."""
from __future__ import annotations

import json

import pytest

import demo_campaign
from conftest import serving, shoot
from helpers import PROGRESS_KEY, drag, progress


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """(URL of the served demo site, its levels by id)."""
    packs, site, _ = demo_campaign.make(tmp_path_factory.mktemp("demo"))
    levels = {lv["id"]: lv for p in sorted(packs.glob("world-*.json"))
              for lv in json.loads(p.read_text(encoding="utf-8"))["levels"]}
    with serving(site) as url:
        yield url, levels


def _play(page, level: dict) -> None:
    for move in level["solution"]:
        drag(page, level, move)
    page.locator("#result").wait_for(state="visible")


def test_a_demo_level_plays_to_a_three_star_win(page, demo, errors, output_dir):
    url, levels = demo
    lv = max((levels[f"w1-{n:02d}"] for n in range(2, 6)), key=lambda x: x["optimal"])
    page.goto(f"{url}index.html")
    assert "Demo Meadow" in page.locator("main").inner_text()
    page.goto(f"{url}w1/{lv['id'][3:]}.html")
    page.wait_for_selector(f'#board[data-level="{lv["id"]}"] [data-block]')
    _play(page, lv)
    assert page.locator("#result").get_attribute("data-stars") == "3"
    assert progress(page)["levels"][lv["id"]] == {"stars": 3, "best": lv["optimal"]}
    shoot(page, output_dir, "demo-campaign-won")
    assert not errors


def test_the_demo_s_second_world_opens_at_its_own_gate(page, demo, errors):
    url, levels = demo
    page.goto(f"{url}index.html")
    page.evaluate(f"() => localStorage.removeItem('{PROGRESS_KEY}')")
    page.goto(f"{url}w2/02.html")
    page.wait_for_selector("#board [data-block]")
    cover = page.locator("[data-lock-cover]")
    cover.wait_for(state="visible")             # shown by a lazily imported module
    assert cover.is_visible() and "Demo Frost opens at 8 ★" in cover.inner_text()
    seven = {"levels": {f"w1-0{n}": {"stars": 3, "best": 1} for n in (1, 2)}
             | {"w1-03": {"stars": 1, "best": 9}}}
    page.evaluate(f"() => localStorage.setItem('{PROGRESS_KEY}', {json.dumps(json.dumps(seven))})")
    page.reload()
    page.wait_for_selector("#board [data-block]")
    assert "1 more to go" in page.locator("[data-lock-cover]").inner_text()
    eight = {"levels": {**seven["levels"], "w1-03": {"stars": 2, "best": 9}}}
    page.evaluate(f"() => localStorage.setItem('{PROGRESS_KEY}', {json.dumps(json.dumps(eight))})")
    page.reload()
    page.wait_for_selector("#board [data-block]")
    assert page.locator("[data-lock-cover]").is_hidden()
    lv = levels["w2-02"]
    _play(page, lv)
    assert page.locator("#result").get_attribute("data-stars") == "3"
    assert not errors
