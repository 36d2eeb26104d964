"""Edges (issue 27): locked levels neither invite play nor open in the editor until their
world opens; a missing page gets 404.html (as a static host serves it); from file:// the board
area shows the note and the controls are disabled."""
from __future__ import annotations

import functools
import http.server
import threading

from conftest import SUBPATH, new_context
from helpers import open_everything, watch


def test_a_locked_tutorial_neither_invites_play_nor_opens_in_the_editor(page, base_url, packs):
    page.goto(base_url + "w2/01.html")   # a tutorial of a shut world, empty progress
    page.wait_for_selector("[data-lock-cover]:not([hidden])")
    text = page.locator(".play-side").inner_text()
    assert "watch, then touch" not in text and "Open in the editor" not in text
    assert page.locator('a[href*="editor.html"]:visible').count() == 0
    assert page.locator("#board").get_attribute("data-autoplay") is None, "it does not play itself"
    # the same page, its world open: the tutorial line and the editor link are back
    open_everything(page, packs)
    page.goto(base_url + "w2/01.html")
    page.wait_for_selector("#board [data-block]")
    assert page.locator("text=Open in the editor").is_visible()
    assert "watch, then touch" in page.locator(".level-meta").inner_text()


class _Host(http.server.SimpleHTTPRequestHandler):
    """A static host: a miss is answered with the site's 404.html and status 404."""
    site = ""

    def log_message(self, *args):
        pass

    def send_error(self, code, message=None, explain=None):
        if code != 404:
            return super().send_error(code, message, explain)
        body = open(f"{self.site}/404.html", "rb").read()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_a_missing_page_gets_the_sites_404_page(browser, site_root):
    serve = site_root.parents[len(SUBPATH.split("/")) - 1]
    handler = type("H", (_Host,), {"site": str(site_root)})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(serve)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        page = new_context(browser).new_page()
        base = f"http://127.0.0.1:{httpd.server_address[1]}/{SUBPATH}/"
        for miss in ("w9/99.html", "no/such/deep/page.html"):
            r = page.goto(base + miss)
            assert r.status == 404
            assert page.locator("h1").inner_text() == "This page is not here"
            page.wait_for_function("() => document.documentElement.dataset.root")
            home = page.locator("a.button.primary")
            assert home.evaluate("a => a.href") == base + "index.html", "links lead into the site from any depth"
            assert page.evaluate("() => getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)", "styled"
        home.click()
        page.wait_for_url(base + "index.html")
        page.context.close()
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_from_a_file_the_board_area_says_what_to_run_and_the_controls_are_off(browser, site_root):
    page = new_context(browser).new_page()
    for rel in ("w1/01.html", "daily/001.html", "play.html"):
        page.goto((site_root / rel).as_uri())
        note = page.locator(".board-frame #file-note")
        assert note.is_visible(), rel
        assert "python3 -m http.server" in note.inner_text()
        buttons = page.locator(".controls button")
        assert buttons.count() >= 6
        assert all(b.is_disabled() for b in buttons.all()), rel
    page.context.close()
