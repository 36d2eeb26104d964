"""Offline and installable, in Chromium: after one online visit to any page, every page type
opens and plays with the network off (`context.set_offline`), a republished site replaces the
worker's cache (no stale pages), and a page opened from file:// says what to run instead.

The offline contract: `<html data-offline="ready" data-offline-version="HASH">` once the
service worker holds every file of the site (templates/static/offline.js, templates/sw.js).
"""
from __future__ import annotations

import functools
import http.server
import re
import threading
from pathlib import Path

import pytest

from conftest import FIXTURE_PACKS, REPO, SUBPATH, _Quiet, new_context, shoot
from helpers import open_everything, watch, win_by_dragging

READY = 'html[data-offline="ready"]'


def wait_ready(page, timeout=90_000) -> str:
    page.wait_for_selector(READY, state="attached", timeout=timeout)
    return page.evaluate("() => document.documentElement.dataset.offlineVersion")


def test_every_page_type_opens_and_plays_offline_after_one_visit(browser, base_url, packs, output_dir):
    ctx = new_context(browser, service_workers="allow", viewport={"width": 1280, "height": 720})
    page = ctx.new_page()
    open_everything(page, packs)
    found = watch(page)
    page.goto(base_url + "how-to-play.html")            # one online visit, to any page
    version = wait_ready(page)
    assert re.fullmatch(r"[0-9a-f]{16}", version)
    ctx.set_offline(True)
    # a level never opened before: it opens, plays and wins with the network off
    lid = max((i for i in packs if i.startswith("w3-") and not packs[i].get("tutorial")),
              key=lambda i: (packs[i]["optimal"], i))
    assert win_by_dragging(page, base_url, packs[lid]) == "3"
    shoot(page, output_dir, "offline-level-won")
    # every other page type, offline too: worlds, a daily and the archive, today's hop,
    # progress, how-to, how levels are made, a shared level (par found by the worker)
    for path in ("index.html", "w5/index.html", f"w5/{max(i for i in packs if i.startswith('w5-'))[3:]}.html",
                 "daily/index.html", "daily/087.html", "progress.html", "how-levels-are-made.html",
                 "stats.html", "play.html?d=4x6-R1-I2012K0121", "./", "daily.html"):
        page.goto(base_url + path)
        if path == "stats.html":
            page.wait_for_url(re.compile(r"how-levels-are-made\.html$"))
        page.wait_for_load_state("load")
        assert page.locator("main").inner_text().strip(), f"{path}: blank offline"
        if "play.html" in path:
            page.wait_for_function("() => /^\\d+$/.test(document.querySelector('#par').textContent)")
    page.wait_for_url(re.compile(r"daily/\d{3}\.html$"))    # today's hop, offline too
    page.wait_for_selector("#board [data-block]")
    ctx.close()
    assert not found, "\n".join(found)


def _serve(root: Path):
    handler = functools.partial(_Quiet, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def test_a_republish_replaces_the_cache(browser, tmp_path, packs_dir):
    """Publish, visit, republish other packs: the new worker takes over, the open page reloads
    into the new build, the old cache is gone, and offline pages come from the new build."""
    from lumina.render import offline, site
    serve = tmp_path / "serve"
    out = serve / SUBPATH
    first = site.build(FIXTURE_PACKS, out)            # seven levels a world
    httpd = _serve(serve)
    base = f"http://127.0.0.1:{httpd.server_address[1]}/{SUBPATH}/"
    try:
        ctx = new_context(browser, service_workers="allow")
        page = ctx.new_page()
        page.goto(base + "w1/index.html")
        old = wait_ready(page)
        assert old == offline.version(first.files)
        assert page.locator(".level-tile").count() == 7
        second = site.build(packs_dir, out)           # the real packs: thirty levels a world
        new = offline.version(second.files)
        assert new != old
        page.reload()                                  # served by the old worker, which finds the new one
        page.wait_for_function(f"() => document.documentElement.dataset.offlineVersion === {new!r}", timeout=90_000)
        assert page.locator(".level-tile").count() == 30, "the open page now shows the new build"
        assert page.evaluate("() => caches.keys()") == [f"lumina:/{SUBPATH}/:{new}"], "the old cache is deleted"
        ctx.set_offline(True)
        page.goto(base + "w1/30.html")                 # a page only the new build has
        page.wait_for_selector('#board[data-level="w1-30"] [data-block]')
        ctx.close()
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_page_opened_as_a_file_says_what_to_run(browser, site_root):
    page = new_context(browser).new_page()
    for rel in ("index.html", "w1/01.html"):
        page.goto((site_root / rel).as_uri())
        note = page.locator("#file-note")
        assert note.is_visible(), rel
        text = note.inner_text()
        assert "python3 -m http.server" in text and "http://127.0.0.1:8000/" in text
        assert "terminal" in text and "module" not in text.lower(), "players' words, not the browser's"
    page.context.close()


def test_the_file_note_stays_hidden_over_http(page, base_url):
    page.goto(base_url + "w1/01.html")
    page.wait_for_selector("#board [data-block]")
    assert page.locator("#file-note").is_hidden()


def test_the_manifest_and_its_icons_load(page, base_url):
    page.goto(base_url + "index.html")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    doc = page.evaluate("async (h) => (await fetch(h)).json()", href)
    assert doc["name"] == "Lumina" and doc["display"] == "standalone" and doc["theme_color"]
    for icon in doc["icons"]:
        size = page.evaluate("""async (src) => { const b = await (await fetch(src)).blob();
            const i = await createImageBitmap(b); return [i.width, i.height]; }""",
                             str(Path(href).parent / icon["src"]) if "/" in href else icon["src"])
        assert f"{size[0]}x{size[1]}" == icon["sizes"]


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 720}])
def test_readme_screenshot_of_a_level_page(browser, base_url, packs, output_dir, viewport):
    """The README's picture of a level page (docs/level-page.png). The suite always writes it
    to $LUMINA_TEST_OUTPUT/screenshots; it refreshes docs/ only with LUMINA_REFRESH_DOCS=1, so a
    CI run never dirties the checkout (pixels differ with fonts, so bytes are never compared)."""
    import os
    ctx = new_context(browser, viewport=viewport, color_scheme="dark", reduced_motion="reduce")
    page = ctx.new_page()
    lid = "w3-12" if "w3-12" in packs else sorted(i for i in packs if i.startswith("w3-"))[-1]
    open_everything(page, packs, but=(lid,))
    page.goto(base_url + f"w3/{lid[3:]}.html")
    page.wait_for_selector("#board [data-block]")
    page.wait_for_timeout(300)
    shot = output_dir / "screenshots" / "readme-level-page.png"
    page.screenshot(path=str(shot))
    ctx.close()
    docs = REPO / "docs" / "level-page.png"
    if os.environ.get("LUMINA_REFRESH_DOCS") == "1":
        docs.write_bytes(shot.read_bytes())
    data = docs.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "docs/level-page.png is the README's screenshot"
    assert int.from_bytes(data[16:20], "big") == viewport["width"]
