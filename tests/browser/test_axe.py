"""Accessibility (issue 27): axe-core finds no violation on home, a world, a level, a daily,
the archive, the editor, progress and practice, in the dark and the light theme.

axe-core comes from npm (`npm i -E axe-core@4.10.2`, see README's test command); its
axe.min.js is found at $AXE_CORE_JS, else under node_modules of the checkout, /tmp/axe or
the global npm root. Missing, the test FAILS: a browser suite must not skip."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from conftest import REPO, new_context
from helpers import open_everything

PAGES = ["index.html", "w2/index.html", "w1/05.html", "daily/088.html", "daily/index.html", "editor.html",
         "progress.html", "practice.html?mechanic=beam&tier=medium&n=1", "how-to-play.html", "404.html"]


def axe_js() -> str:
    candidates = [os.environ.get("AXE_CORE_JS", ""), REPO / "node_modules/axe-core/axe.min.js",
                  "/tmp/axe/node_modules/axe-core/axe.min.js"]
    try:
        root = subprocess.run(["npm", "root", "-g"], capture_output=True, text=True, timeout=20).stdout.strip()
        candidates.append(Path(root) / "axe-core/axe.min.js")
    except (OSError, subprocess.SubprocessError):
        pass
    for c in candidates:
        if c and Path(c).is_file():
            return Path(c).read_text()
    pytest.fail("axe-core is missing: npm i -E axe-core@4.10.2 (or set AXE_CORE_JS to its axe.min.js)")


@pytest.fixture(scope="module")
def axe() -> str:
    return axe_js()


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_axe_finds_no_violation(browser, base_url, packs, axe, scheme):
    ctx = new_context(browser, viewport={"width": 1280, "height": 800}, color_scheme=scheme)
    page = ctx.new_page()
    open_everything(page, packs)
    found = {}
    for rel in PAGES:
        page.goto(base_url + rel)
        page.wait_for_load_state("networkidle")
        page.add_script_tag(content=axe)
        res = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .map(v => `${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`)""")
        if res:
            found[rel] = res
    ctx.close()
    assert not found, found
