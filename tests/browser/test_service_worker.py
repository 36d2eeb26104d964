"""The service worker against the HTTP cache and its neighbours (issue 28), in Chromium.

- A site served as the README says (`python -m http.server`) lets the browser cache pages
  heuristically; served with old Last-Modified headers that is for years. A republished
  site's new worker must fetch what it caches past the HTTP cache, or it keeps the old
  pages for good (test_service_worker_bypasses_http_cache).
- Two Lumina sites on one origin (/a/ and /b/, as on one github.io account) keep their
  own caches (test_two_sites_on_one_origin_keep_their_caches).
- A same-scope file the build does not list (a lazily loaded JSON shard) plays offline
  once visited, and a navigation that misses shows the build's 404.html.
"""
from __future__ import annotations

import shutil
import threading
import http.server
import functools
from pathlib import Path

from conftest import FIXTURE_PACKS, SUBPATH, _Quiet, new_context

READY = 'html[data-offline="ready"]'
OLD = 946684800            # 2000-01-01: what an old checkout's mtimes would say


class _OldDates(_Quiet):
    """http.server, with every file's Last-Modified in 2000 and no Cache-Control: the
    browser may keep a page for a tenth of its age (heuristic freshness), years."""

    def date_time_string(self, timestamp=None):
        return super().date_time_string(OLD if timestamp is not None else None)


def _serve(directory: Path, handler=_OldDates):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                            functools.partial(handler, directory=str(directory)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def _ready(page, timeout=90_000) -> str:
    page.wait_for_selector(READY, state="attached", timeout=timeout)
    return page.evaluate("() => document.documentElement.dataset.offlineVersion")


def _replace(src: Path, dst: Path) -> None:
    """A republish, as fast as a copy: `dst` becomes a copy of the built site `src`."""
    shutil.rmtree(dst)
    shutil.copytree(src, dst)


def test_service_worker_bypasses_http_cache(browser, tmp_path, site_root):
    """Publish the fixtures (seven levels a world), visit, republish the real packs (thirty)
    while the server says every file dates from 2000: the new worker's cache holds the new
    pages, online after the takeover and offline."""
    from lumina.render import offline, site
    serve = tmp_path / "serve"
    out = serve / SUBPATH
    first = site.build(FIXTURE_PACKS, out)
    httpd = _serve(serve)
    base = f"http://127.0.0.1:{httpd.server_address[1]}/{SUBPATH}/"
    try:
        ctx = new_context(browser, service_workers="allow")
        page = ctx.new_page()
        page.goto(base + "w1/index.html")
        assert _ready(page) == offline.version(first.files)
        assert page.locator(".level-tile").count() == 7
        _replace(site_root, out)                       # the republish
        new = (out / "sw.js").read_text()
        page.reload()                                  # the old worker finds the new one
        page.wait_for_function("v => document.documentElement.dataset.offlineVersion"
                               " && v.includes(document.documentElement.dataset.offlineVersion)",
                               arg=new, timeout=90_000)
        page.wait_for_load_state("load")
        assert page.locator(".level-tile").count() == 30, "the new worker cached the old page"
        ctx.set_offline(True)
        page.goto(base + "w1/index.html")
        assert page.locator(".level-tile").count() == 30, "offline: the old build's page"
        page.goto(base + "w1/30.html")                 # a page only the new build has
        page.wait_for_selector('#board[data-level="w1-30"] [data-block]')
        ctx.close()
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_two_sites_on_one_origin_keep_their_caches(browser, tmp_path, site_root):
    """Two builds under /a/ and /b/ of one origin: visiting /b/ after /a/ leaves /a/'s
    offline copy alone, and each still opens offline."""
    from lumina.render import site
    serve = tmp_path / "serve"
    site.build(FIXTURE_PACKS, serve / "a")
    shutil.copytree(site_root, serve / "b")
    httpd = _serve(serve, _Quiet)
    origin = f"http://127.0.0.1:{httpd.server_address[1]}/"
    try:
        ctx = new_context(browser, service_workers="allow")
        page = ctx.new_page()
        page.goto(origin + "a/w1/index.html")
        va = _ready(page)
        page.goto(origin + "b/w1/index.html")
        vb = _ready(page)
        assert va != vb
        keys = page.evaluate("() => caches.keys()")
        ctx.set_offline(True)
        page.goto(origin + "a/w1/index.html")
        assert page.locator(".level-tile").count() == 7, f"/a/ lost its offline copy: {keys}"
        page.goto(origin + "b/w1/index.html")
        assert page.locator(".level-tile").count() == 30
        assert sorted(keys) == sorted([f"lumina:/a/:{va}", f"lumina:/b/:{vb}"]), keys
        ctx.close()
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_lazy_json_plays_offline_once_visited_and_misses_show_404(browser, tmp_path):
    """A same-scope file the build does not list (a practice/*.json shard) is kept
    once fetched; a navigation that misses shows the build's own 404.html, online (status
    404) and offline."""
    from lumina.render import site
    marker = "This page is not here"                # the heading of templates/404.html
    serve = tmp_path / "serve"
    out = serve / SUBPATH
    site.build(FIXTURE_PACKS, out)
    (out / "practice").mkdir(exist_ok=True)
    (out / "practice" / "shard-1.json").write_text('{"shard": 1}\n')
    httpd = _serve(serve, _Quiet)
    base = f"http://127.0.0.1:{httpd.server_address[1]}/{SUBPATH}/"
    try:
        ctx = new_context(browser, service_workers="allow")
        page = ctx.new_page()
        page.goto(base + "index.html")
        _ready(page)
        fetch = "u => fetch(u).then(r => r.ok ? r.json() : r.status)"
        assert page.evaluate(fetch, "practice/shard-1.json") == {"shard": 1}
        missing = page.goto(base + "no-such-page.html")
        assert missing.status == 404 and marker in page.content()
        ctx.set_offline(True)
        page.goto(base + "index.html")
        assert page.evaluate(fetch, "practice/shard-1.json") == {"shard": 1}, "the shard is not kept"
        page.goto(base + "w1/99.html")                 # not in the cache, network off
        assert marker in page.content()
        ctx.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
