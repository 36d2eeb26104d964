"""Browser test fixtures: the built site served over HTTP, Debian's Chromium, screenshots.

The site is built once per run (tests/shared.py: whatever the number of xdist workers)
from the committed packs (packs/, what players get, with the run's one verification of
them; or the directory in LUMINA_TEST_PACKS, e.g. tests/fixtures/packs, verified here)
into a temp dir, and served by a `http.server` thread on 127.0.0.1 at a free port *under a
sub-path* (`/sub/lumina/`), so every test also proves the site works from a sub-path with relative links only.

The browser is Debian's Chromium in its headless shell, /usr/bin/chromium-headless-shell
(package chromium-headless-shell, the same Chromium build as /usr/bin/chromium without
the desktop browser around it: what Playwright itself runs for headless tests). A fresh
context and its first page cost 0.4 CPU s in it against 1.0 s in the full browser, and
the browser tests open some 300 of them. `test_full_chromium.py` plays a level in the
full /usr/bin/chromium too. If either is missing the tests FAIL, never skip: a browser
suite that quietly skips proves nothing.

Screenshots and other artefacts go under $LUMINA_TEST_OUTPUT (default test-output/).

Service workers are blocked in every context but those of the offline tests
(`test_offline.py`): a worker precaches all ~700 files of the site on a page's first
visit, which every short-lived test context would repeat against the shared server. A
blocked registration is a path the pages must take quietly too (`offline.js`).
"""
from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import shutil
import sys
import threading
from pathlib import Path
from typing import Iterator

import pytest
from shared import shared

CHROMIUM = "/usr/bin/chromium-headless-shell"
FULL_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
REPO = Path(__file__).resolve().parents[2]
FIXTURE_PACKS = REPO / "tests" / "fixtures" / "packs"
SUBPATH = "sub/lumina"


@pytest.hookimpl(tryfirst=True)          # before xdist reads the groups
def pytest_collection_modifyitems(items):
    """Every test here is a browser test; each file's tests run together on one xdist
    worker (`--dist loadgroup`, group `browser-<file>`), so a worker starts Chromium and
    serves the site once, and the files still share out over both cores (all of them
    on one worker took 8 min 24 s at load 9, longer than the rest of the suite)."""
    here = Path(__file__).parent
    for item in items:
        path = Path(str(item.fspath))
        if path.parent == here:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.xdist_group(f"browser-{path.stem}"))


def launch_args(executable: str) -> dict:
    """Playwright's launch arguments for Debian's `executable`; the test fails (never
    skips) when it is not installed."""
    if not Path(executable).exists():
        pytest.fail(f"{executable} is missing: install Debian's chromium and chromium-headless-shell "
                    "(the browser tests must not skip)")
    return {"executable_path": executable, "args": list(CHROMIUM_ARGS)}


@pytest.fixture(scope="session")
def browser_type_launch_args():
    return launch_args(CHROMIUM)


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "service_workers": "block"}


def new_context(browser, **kw):
    """A browser context with service workers blocked unless `service_workers="allow"`."""
    return browser.new_context(**{"service_workers": "block", **kw})


@pytest.fixture(scope="session")
def output_dir() -> Path:
    out = Path(os.environ.get("LUMINA_TEST_OUTPUT", "test-output"))
    if not out.is_absolute():
        out = REPO / out
    (out / "screenshots").mkdir(parents=True, exist_ok=True)
    return out


@pytest.fixture(scope="session")
def packs_dir() -> Path:
    return Path(os.environ.get("LUMINA_TEST_PACKS", REPO / "packs"))


def practice_pack(dailies: Path, out: Path) -> Path:
    """A practice pack for tests (the format of dailies.json, docs/SITE.md "Practice"): the
    proven daily pool under ids p-00001.. and pack meta "practice". The committed packs get
    their own later; the tests never depend on them."""
    doc = json.loads(dailies.read_text())
    doc.update(pack="practice", name="Practice")
    for i, lv in enumerate(doc["levels"]):
        lv["id"] = f"p-{i + 1:05d}"
    out.write_text(json.dumps(doc, indent=1) + "\n")
    return out


def _build_site(folder: Path, packs_dir: Path, report=None) -> dict:
    """The site of `packs_dir` built into folder/serve/sub/lumina, with a practice pack made
    from its daily pool when it has none (so practice.html is built and tested), verified
    here unless `report` is its verification: the packs folder it was built from."""
    from lumina.packfile import pack_files
    from lumina.render import site
    from lumina.verify import verify_paths
    packs = packs_dir
    if not (packs_dir / "practice.json").exists():
        packs = folder / "packs"
        packs.mkdir()
        for p in packs_dir.glob("*.json"):
            shutil.copy(p, packs / p.name)
        practice_pack(packs_dir / "dailies.json", packs / "practice.json")
    if report is None:
        report = verify_paths(pack_files([packs]), workers=2)
    site.build(packs, folder / "serve" / SUBPATH, verify=report)
    return {"packs": packs}


@pytest.fixture(scope="session")
def built_site(request, tmp_path_factory, packs_dir) -> tuple[Path, dict]:
    """The site, built once for the run whatever the number of xdist workers (each
    browser test file runs on one worker; they all read this one build). Built from the
    committed packs, it takes the run's one verification of them (the `committed_report`
    fixture: publish's, the practice pack's levels included), as publish does."""
    report = None
    if packs_dir.resolve() == (REPO / "packs").resolve():
        report = request.getfixturevalue("committed_report")["report"]
    return shared(tmp_path_factory, "browser-site",
                  functools.partial(_build_site, packs_dir=packs_dir, report=report))


@pytest.fixture(scope="session")
def site_packs(built_site) -> Path:
    """The packs the session's site is built from: packs_dir's, plus a practice pack made from
    its daily pool when it has none."""
    return built_site[1]["packs"]


@pytest.fixture(scope="session")
def site_root(built_site) -> Path:
    """The built site, at <serve root>/sub/lumina. Read it; never write into it."""
    return built_site[0] / "serve" / SUBPATH


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep test output clean
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    """A browser that drops a connection mid-file (a page left, a fetch aborted) is no
    error of the site: no traceback in CI's log for it."""

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serving(directory: Path) -> Iterator[str]:
    """`directory` served by an http.server thread on 127.0.0.1 at a free port: its URL."""
    handler = functools.partial(_Quiet, directory=str(directory))
    httpd = _QuietServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="session")
def base_url(site_root) -> str:
    """http://127.0.0.1:<port>/sub/lumina/ serving the built site."""
    with serving(site_root.parents[len(Path(SUBPATH).parts) - 1]) as url:
        yield f"{url}{SUBPATH}/"


@pytest.fixture(scope="session")
def packs(site_packs) -> dict[str, dict]:
    """Every level of the packs by id (JSON dicts, as on disk), practice levels too."""
    out = {}
    for p in sorted(site_packs.glob("*.json")):
        data = json.loads(p.read_text())
        for lv in data.get("levels", []) if isinstance(data, dict) else []:
            out[lv["id"]] = lv
    return out


@pytest.fixture
def errors(page):
    """Console errors and uncaught page errors collected while a test runs."""
    found: list[str] = []
    page.on("console", lambda m: found.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: found.append(f"pageerror: {e}"))
    return found


def shoot(page, output_dir: Path, name: str) -> Path:
    path = output_dir / "screenshots" / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
