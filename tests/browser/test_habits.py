"""Daily habits (issue 27): a spoiler-free result to share, a countdown to the next daily, the
best streak, a moves-over-par histogram, and dailies counted only as released so far."""
from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta, timezone

from conftest import new_context
from helpers import PROGRESS_KEY
from lumina.worlds import DAILY_EPOCH, DAILY_POOL, daily_index


def _noon(day: date):
    return datetime(day.year, day.month, day.day, 12, 0, tzinfo=timezone.utc)


def test_a_won_daily_shares_a_spoiler_free_result_and_counts_down(browser, base_url, packs):
    day = date(2026, 12, 3)
    n = daily_index(day) + 1
    lv = packs[f"d-{n:03d}"]
    ctx = new_context(browser, timezone_id="UTC")
    page = ctx.new_page()
    page.clock.set_fixed_time(_noon(day))
    page.goto(f"{base_url}daily/{n:03d}.html")
    page.wait_for_selector("#board [data-block]")
    assert page.locator("[data-next-daily]").inner_text() == "next daily in 12 h 0 min"
    for m in lv["solution"]:
        page.evaluate("m => window.luminaBoard.move(m)", m)
    share = page.locator("[data-share-result]")
    share.wait_for()
    said = share.get_attribute("data-share-result")
    par = lv["optimal"]
    assert said == f"Lumina #{n} ★★★ {par}/{par}"
    assert not re.search(r"[KCSIR]\d{4}|\[\d", said), "no board, no moves"
    ctx.close()


def test_progress_shows_best_streak_histogram_and_days_released_so_far(browser, base_url, packs):
    today = date(2026, 12, 3)
    t = (today - DAILY_EPOCH).days
    pars = {i: packs[i]["optimal"] for i in ("d-001", "d-002", "d-003", "d-004", "d-005")}
    levels = {"d-001": {"stars": 3, "best": pars["d-001"]}, "d-002": {"stars": 2, "best": pars["d-002"] + 1},
              "d-003": {"stars": 2, "best": pars["d-003"] + 2}, "d-004": {"stars": 1, "best": pars["d-004"] + 7},
              "d-005": {"stars": 2, "best": None}}
    # a run of 4 days long ago, and 2 ending yesterday
    stored = {"levels": levels, "days": [t - 40, t - 39, t - 38, t - 37, t - 2, t - 1]}
    ctx = new_context(browser, timezone_id="UTC")
    page = ctx.new_page()
    page.clock.set_fixed_time(_noon(today))
    page.add_init_script(f"localStorage.setItem({json.dumps(PROGRESS_KEY)}, {json.dumps(json.dumps(stored))})")
    page.goto(base_url + "progress.html")
    page.wait_for_function("() => document.querySelector('[data-progress-best-streak]').textContent !== '0'")
    assert page.locator("[data-progress-streak]").inner_text() == "2"
    assert page.locator("[data-progress-best-streak]").inner_text() == "4"
    bars = [int(x) for x in page.locator("[data-over-par] [data-n]").all_inner_texts()]
    assert bars == [1, 1, 1, 0, 1, 1], "at par, +1, +2, +3, +4 or more, with help only"
    k = daily_index(today) + 1   # the archive's days: this round up to today, and the last week
    released = len([n for n in range(1, DAILY_POOL + 1) if n <= k or (k - n) % DAILY_POOL < 7])
    assert page.locator("[data-progress-released]").inner_text() == str(released)
    assert page.locator("[data-progress-dailies]").inner_text() == str(sum(1 for i in levels if int(i[2:]) in
                                                                          [n for n in range(1, DAILY_POOL + 1) if n <= k or (k - n) % DAILY_POOL < 7]))
    assert page.locator("[data-next-daily]").inner_text().startswith("next daily in")
    ctx.close()


def test_dailies_count_only_days_released_so_far(browser, base_url):
    """Bug class: "Dailies won 0 of 174" counted days not yet released in this round."""
    start = date(2026, 12, 3) - timedelta(days=daily_index(date(2026, 12, 3)))   # index 0: a round starts
    for offset, want in ((9, 10), (2, 7)):   # day 10 of a round; day 3 (the last week reaches back)
        ctx = new_context(browser, timezone_id="UTC")
        page = ctx.new_page()
        page.clock.set_fixed_time(_noon(start + timedelta(days=offset)))
        page.goto(base_url + "progress.html")
        page.wait_for_function(f"() => document.querySelector('[data-progress-released]').textContent === '{want}'")
        ctx.close()
