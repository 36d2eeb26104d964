"""Progress between devices with no server (issue 27): exported in one browser context (a file
and a link), imported in another, merging so the best result per level wins; a malformed or
hostile file is refused with one sentence and changes nothing."""
from __future__ import annotations

import json

from playwright.sync_api import expect

from conftest import new_context
from helpers import PROGRESS_KEY, progress

REFUSED = "This is not a Lumina progress file, so nothing was changed."


def _ctx_with(browser, stored: dict):
    ctx = new_context(browser, accept_downloads=True)
    ctx.add_init_script(f"if (!sessionStorage.getItem('seeded')) {{ sessionStorage.setItem('seeded', 1); "
                        f"localStorage.setItem({json.dumps(PROGRESS_KEY)}, {json.dumps(json.dumps(stored))}); }}")
    return ctx


def test_progress_exported_in_one_context_and_imported_in_another(browser, base_url, tmp_path):
    a = _ctx_with(browser, {"levels": {"w1-01": {"stars": 3, "best": 2}, "w1-02": {"stars": 1, "best": 9},
                                       "d-005": {"stars": 2, "best": 8}}, "days": [10, 11]})
    pa = a.new_page()
    pa.goto(base_url + "progress.html")
    with pa.expect_download() as dl:
        pa.locator("[data-export-file]").click()
    file = tmp_path / "lumina-progress.json"
    dl.value.save_as(file)
    pa.locator("[data-export-link]").click()
    link = pa.locator("[data-export-url]").input_value()
    assert "#import=" in link and "w1-01" not in link, "the link carries the progress, encoded"
    a.close()

    b = _ctx_with(browser, {"levels": {"w1-02": {"stars": 3, "best": 5}, "w1-03": {"stars": 2, "best": 7}},
                            "days": [12]})
    pb = b.new_page()
    pb.goto(base_url + "progress.html")
    pb.locator("[data-import-file]").set_input_files(str(file))
    pb.wait_for_function("() => /Imported/.test(document.querySelector('[data-transfer-status]').textContent)")
    got = progress(pb)
    assert got["levels"] == {"w1-01": {"stars": 3, "best": 2}, "w1-02": {"stars": 3, "best": 5},
                             "w1-03": {"stars": 2, "best": 7}, "d-005": {"stars": 2, "best": 8}}, "best per level wins"
    assert got["days"] == [10, 11, 12]
    # the page repaints: the totals are pages-more.js's, a dynamic import that may still be
    # loading when the import's status shows (CI read "0"), so wait for the number
    expect(pb.locator("[data-progress-stars]")).to_have_text("8")
    b.close()

    c = _ctx_with(browser, {"levels": {"w1-01": {"stars": 1, "best": 6}}})
    pc = c.new_page()
    pc.goto(link)
    pc.wait_for_function("() => /Imported/.test(document.querySelector('[data-transfer-status]').textContent)")
    assert progress(pc)["levels"]["w1-01"] == {"stars": 3, "best": 2}
    assert "#import" not in pc.url, "the link's data leaves the address bar"
    c.close()


HOSTILE = [
    "not json at all",
    json.dumps([1, 2, 3]),
    json.dumps({"format": "lumina-progress", "version": 1, "levels": {"__proto__": {"stars": 3, "best": 1}}}),
    json.dumps({"format": "lumina-progress", "version": 1, "levels": {"w1-01": {"stars": 99, "best": 1}}}),
    json.dumps({"format": "lumina-progress", "version": 1, "levels": {"w1-01": {"stars": 3, "best": "1"}}}),
    json.dumps({"format": "lumina-progress", "version": 1, "levels": {"<img src=x onerror=alert(1)>": {"stars": 3}}}),
    json.dumps({"levels": {"w1-01": {"stars": 3, "best": 1}}}),
    '{"format": "lumina-progress", "version": 1, "levels": {' + ",".join(f'"w1-{i:03d}": {{"stars": 3}}' for i in range(30000)) + "}}",
]


def test_a_malformed_or_hostile_file_is_refused_in_one_sentence(browser, base_url, tmp_path):
    stored = {"levels": {"w1-01": {"stars": 2, "best": 4}}, "days": []}
    ctx = _ctx_with(browser, stored)
    page = ctx.new_page()
    page.goto(base_url + "progress.html")
    for i, text in enumerate(HOSTILE):
        f = tmp_path / f"bad-{i}.json"
        f.write_text(text)
        page.locator("[data-transfer-status]").evaluate("n => n.textContent = ''")
        page.locator("[data-import-file]").set_input_files(str(f))
        page.wait_for_function("() => document.querySelector('[data-transfer-status]').textContent")
        assert page.locator("[data-transfer-status]").inner_text() == REFUSED, i
        assert progress(page) == stored, i
    page.goto(base_url + "progress.html#import=%%%notbase64")
    page.wait_for_function("() => document.querySelector('[data-transfer-status]').textContent")
    assert page.locator("[data-transfer-status]").inner_text() == REFUSED
    ctx.close()
