"""The static site build: gather everything from packs/ once, render, write once.

`build(packs_dir, out_dir, verify=report)` is one straight function (MkDocs' shape):

    inputs.gather   every pack (Level objects from lumina.packfile), report, table
    pages.*         one builder per page kind, through one Jinja2 environment
                    (autoescape on, StrictUndefined: a missing variable fails the build)
    assets          scripts and styles minified by rjsmin / rcssmin, play.css, the icon
    offline         the app icons, the web manifest and last the service worker, whose
                    version is the hash of every other file (a republish replaces its cache)
    writer.Writer   every output in memory
    safeio          the one site writer: replace_tree swaps the new folder in at once

Determinism: packs and levels are iterated in sorted order, there are no timestamps
anywhere, thumbnails are palette PNGs without metadata, and JSON is dumped with sorted
keys, so the same packs give a byte-identical site. The URL layout is in docs/SITE.md.
"""
from __future__ import annotations

import gzip
import hashlib
import posixpath
import re
from pathlib import Path
from typing import Callable, Sequence

import jinja2

from lumina import safeio
from lumina.verify import VerifyReport
from lumina.worlds import CAMPAIGN, Campaign

from . import assets, offline, pages
from .inputs import SiteInput, gather
from .writer import SiteError, Writer

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"

__all__ = ["SiteError", "Writer", "gather", "render", "build", "page_weight",
           "level_pages", "tree_hash", "TEMPLATES"]


def environment(templates: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates)),
        autoescape=jinja2.select_autoescape(["html", "xml", "svg"], default_for_string=True),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["json_script"] = pages.json_script
    env.filters["stars"] = lambda n: "★" * n + "☆" * (3 - n)
    return env


def render(data: SiteInput, templates: Path = TEMPLATES, *,
           builders: Sequence[Callable[[pages.Site], None]] = pages.BUILDERS) -> Writer:
    """Every output of the site, in one Writer (nothing on disk yet): the pages of
    `builders` (every page kind unless a test asks for fewer), the static files and the
    offline files."""
    out = Writer()
    s = pages.Site(data=data, env=environment(Path(templates)), out=out)
    for build_pages in builders:
        build_pages(s)
    for rel, blob in assets.static_files(Path(templates)):
        out.add(rel, blob)
    offline.add_app_files(out, Path(templates))
    return out


def build(packs_dir: Path | str, out_dir: Path | str, *, verify: VerifyReport | None = None,
          templates: Path = TEMPLATES, campaign: Campaign = CAMPAIGN) -> Writer:
    """Gather, render and write the site through the one site writer
    (`safeio.replace_tree`: `out_dir` must be empty, new, or an earlier build). Nothing
    in `out_dir` changes unless every output rendered. Returns the writer (its `files`
    are what was written)."""
    writer = render(gather(Path(packs_dir), verify, campaign), Path(templates))
    safeio.replace_tree(writer.files, Path(out_dir))
    return writer


# ------------------------------------------------------------------ weights

#: Static ES imports and re-exports, minified or not (`import{a}from"./a.js"`). Dynamic
#: `import()` and workers load on demand, so they are not part of a page's first load.
IMPORT = re.compile(r'(?:^|[;\s}])(?:import|export)\s*(?:[^"\';(]*?from\s*)?["\'](\.{1,2}/[^"\']+)["\']', re.M)
_STYLE_OR_PRELOAD = re.compile(r'<link[^>]*rel="(?:stylesheet|modulepreload)"[^>]*>', re.I)


def imports(js: str) -> list[str]:
    """The relative module specifiers a script imports statically."""
    return IMPORT.findall(js)


def page_loads(files: dict[str, bytes], rel: str) -> set[str]:
    """Every script and stylesheet page `rel` loads before any interaction: `<script src>`,
    stylesheets, module preloads, inline modules' imports and every static ES import from
    there (and CSS @import). Dynamic `import()` and worker scripts load on demand and are
    not in it. `files` maps site paths to bytes."""
    html = files[rel].decode("utf-8")
    base = posixpath.dirname(rel)
    todo = [posixpath.normpath(posixpath.join(base, m.group(1)))
            for m in re.finditer(r'<script[^>]*\bsrc="([^"]+)"', html)]
    for m in _STYLE_OR_PRELOAD.finditer(html):
        h = re.search(r'href="([^"]+)"', m.group(0))
        if h:
            todo.append(posixpath.normpath(posixpath.join(base, h.group(1))))
    for m in re.finditer(r'<script type="module">(.*?)</script>', html, re.S):
        todo += [posixpath.normpath(posixpath.join(base, spec)) for spec in imports(m.group(1))]
    seen: set[str] = set()
    while todo:
        p = todo.pop()
        if p in seen or p not in files:
            continue
        seen.add(p)
        if p.endswith(".js"):
            todo += [posixpath.normpath(posixpath.join(posixpath.dirname(p), spec))
                     for spec in imports(files[p].decode("utf-8"))]
        if p.endswith(".css"):
            for imp in re.finditer(r'@import\s+(?:url\()?["\']([^"\']+)["\']', files[p].decode("utf-8")):
                todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(p), imp.group(1))))
    return seen


def page_weight(files: dict[str, bytes], rel: str, gzipped: bool = False) -> int:
    """Bytes of a page plus everything it loads first (`page_loads`), images excluded; with
    `gzipped`, each file's gzip size (what travels over a compressing server)."""
    size = (lambda b: len(gzip.compress(b, mtime=0))) if gzipped else len
    return size(files[rel]) + sum(size(files[p]) for p in page_loads(files, rel))


def level_pages(files: dict[str, bytes]) -> list[str]:
    """Every playable level page: campaign (w1/01.html), daily (daily/001.html) and practice."""
    return sorted(p for p in files if re.fullmatch(r"w\d+/\d+\.html|daily/\d{3}\.html|practice\.html", p))


def tree_hash(root: Path) -> str:
    """sha256 over every file's path and bytes under `root`, sorted."""
    h = hashlib.sha256()
    for p in sorted(Path(root).rglob("*")):
        if p.is_file():
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()
