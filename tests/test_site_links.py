"""Every internal link in the built site resolves to a file in the site.

Checks each page's href/src (and `<link rel=modulepreload>`), every ES module import
in the static scripts, and `#fragment` targets inside the site, for the fixture packs
and, when packs/ holds world packs, for the real ones. Links must be relative: an
absolute path (`/static/...`) would break the site on a sub-path host.
"""
from __future__ import annotations

import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from lumina.render import site
from lumina.worlds import CAMPAIGN

REPO = Path(__file__).resolve().parents[1]
SOURCES = [REPO / "tests" / "fixtures" / "packs"]
if sorted((REPO / "packs").glob("world-*.json")):
    SOURCES.append(REPO / "packs")

EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.I)
# Static and dynamic imports and re-exports, minified or not: `import{a}from"./a.js"`.
IMPORT = re.compile(r'(?:^|[;\s}])(?:import|export)\s*(?:[^"\';]*?from\s*)?["\']([^"\']+)["\']'
                    r'|\bimport\(\s*["\']([^"\']+)["\']', re.M)
# Web Workers: `new Worker(new URL("./w.js", import.meta.url))` resolves against the module.
WORKER = re.compile(r'new\s+(?:Shared)?Worker\(\s*new\s+URL\(\s*["\']([^"\']+)["\']\s*,\s*import\.meta\.url')


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for name in ("href", "src"):
            if a.get(name) is not None:
                self.links.append((tag, a[name]))
        if tag == "meta" and a.get("property") == "og:image":
            self.links.append((tag, a["content"]))
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "refresh":
            self.links.append((tag, a["content"].split("url=", 1)[1]))


def parse(text: str) -> Links:
    p = Links()
    p.feed(text)
    return p


@pytest.fixture(scope="module", params=SOURCES, ids=lambda p: p.parent.name + "/" + p.name)
def built(request, tmp_path_factory) -> Path:
    """The site of the fixture packs, built here; of the committed packs, the one publish
    of them this run makes (tests/conftest.py, `committed_publish`)."""
    if request.param == REPO / "packs":
        published = request.getfixturevalue("committed_publish")
        assert published["ran"].returncode == 0, published["ran"].stderr[-2000:]
        return published["site"]
    out = tmp_path_factory.mktemp("links") / "site"
    site.build(request.param, out)
    return out


def _resolve(root: Path, page: str, link: str) -> tuple[str, str]:
    path, _, frag = link.partition("#")
    path = path.split("?", 1)[0]
    if not path:
        return page, frag
    assert not path.startswith("/"), f"{page}: absolute link {link!r} breaks sub-path hosting"
    target = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
    assert not target.startswith(".."), f"{page}: link {link!r} leaves the site"
    return target, frag


def test_every_internal_link_resolves(built):
    root = built
    pages = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html"))
    assert len(pages) > 10
    parsed = {p: parse((root / p).read_text(encoding="utf-8")) for p in pages}
    broken, checked = [], 0
    for page, links in parsed.items():
        for tag, link in links.links:
            if EXTERNAL.match(link):
                if not link.startswith(("data:", "mailto:")):
                    broken.append(f"{page}: external link {link!r} (the site must be self-contained)")
                continue
            target, frag = _resolve(root, page, link)
            checked += 1
            if not (root / target).is_file():
                broken.append(f"{page}: <{tag}> {link!r} -> missing {target}")
            elif frag and target.endswith(".html") and frag not in parsed[target].ids:
                broken.append(f"{page}: <{tag}> {link!r} -> no id {frag!r} in {target}")
    assert not broken, "\n".join(broken[:20])
    assert checked > 100


def test_every_script_import_resolves(built):
    root = built
    broken, checked = [], []
    for js in sorted(root.rglob("*.js")):
        rel = js.relative_to(root).as_posix()
        text = js.read_text(encoding="utf-8")
        specs = [m.group(1) or m.group(2) for m in IMPORT.finditer(text)] + WORKER.findall(text)
        for spec in specs:
            assert spec.startswith("./") or spec.startswith("../"), f"{rel}: bare import {spec!r}"
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), spec))
            if not (root / target).is_file():
                broken.append(f"{rel}: import {spec!r} -> missing {target}")
            checked.append(spec)
    assert not broken, "\n".join(broken)
    assert "./engine.js" in checked and "./progress.js" in checked, "minified imports are followed"


def test_every_level_has_prev_next_and_thumbnail(built):
    root = built
    for world in sorted(root.glob("w*/index.html")):
        levels = sorted(world.parent.glob("[0-9][0-9].html"))
        assert levels, world
        for i, page in enumerate(levels):
            links = {href for _, href in parse(page.read_text()).links}
            assert page.with_suffix(".png").is_file()
            if i:
                assert levels[i - 1].name in links, f"{page}: no link to previous level"
            if i + 1 < len(levels):
                assert levels[i + 1].name in links, f"{page}: no link to next level"


def test_every_daily_page_links_its_neighbours_and_the_archive(built):
    root = built
    days = sorted((root / "daily").glob("[0-9][0-9][0-9].html"))
    assert len(days) == CAMPAIGN.daily_pool
    archive = {href for _, href in parse((root / "daily" / "index.html").read_text()).links}
    for i, page in enumerate(days):
        links = {href for _, href in parse(page.read_text()).links}
        assert page.with_suffix(".png").name in archive and page.name in archive, f"{page.name} not in the archive"
        assert "index.html" in links and page.with_suffix(".png").is_file()
        if i:
            assert days[i - 1].name in links, f"{page}: no link to the previous day"
        if i + 1 < len(days):
            assert days[i + 1].name in links, f"{page}: no link to the next day"
