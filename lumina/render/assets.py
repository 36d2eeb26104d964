"""The site's static assets: scripts and stylesheets minified by well-kept libraries
(rjsmin, rcssmin), `play.css` cut from `site.css`, and the icon.

`play.css` is `site.css` without the sections marked `/* @section home|world|tables|
howto|archive|progress */`: the level, daily and share pages never show them, and
leaving them out keeps a level page under its 60 KB budget.
"""
from __future__ import annotations

import re
from pathlib import Path

import rcssmin
import rjsmin

#: site.css sections (marked `/* @section name */`) that play pages leave out.
NOT_ON_PLAY_PAGES = ("home", "world", "tables", "howto", "archive", "progress")

ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
        '<rect width="32" height="32" rx="7" fill="#0b1020"/>'
        '<circle cx="16" cy="15" r="9" fill="#ffce5c" opacity=".25"/>'
        '<rect x="11" y="8" width="10" height="14" rx="3" fill="#ffce5c"/>'
        '<rect x="14" y="11" width="4" height="8" rx="1" fill="#fff4c8"/>'
        '<rect x="9" y="23" width="14" height="3" rx="1" fill="#7e96e6"/></svg>\n')


def minify_js(text: str) -> str:
    """rjsmin: comments and needless whitespace out, semantics kept (it knows regex
    literals, strings and template literals, and keeps the line breaks ASI needs)."""
    return rjsmin.jsmin(text) + "\n"


def minify_css(text: str) -> str:
    """rcssmin: comments and needless whitespace out."""
    return rcssmin.cssmin(text) + "\n"


def css_sections(text: str, drop: tuple[str, ...]) -> str:
    """`text` without the `/* @section NAME */` blocks named in `drop` (a block runs to
    the next marker or `/* @section common */`)."""
    parts = re.split(r"(/\* @section [a-z]+ \*/)", text)
    out, keep = [], True
    for part in parts:
        m = re.fullmatch(r"/\* @section ([a-z]+) \*/", part)
        if m:
            keep = m.group(1) not in drop
            continue
        if keep:
            out.append(part)
    return "".join(out)


def static_files(templates: Path) -> list[tuple[str, bytes]]:
    """Every file under templates/static (scripts and stylesheets minified), plus
    `static/play.css` and `static/icon.svg`, as (site path, bytes), sorted."""
    static = templates / "static"
    out = []
    for p in sorted(static.rglob("*")):
        if not p.is_file() or p.suffix not in (".js", ".css", ".svg", ".png"):
            continue
        rel = "static/" + p.relative_to(static).as_posix()
        if p.suffix == ".js":
            out.append((rel, minify_js(p.read_text(encoding="utf-8")).encode("utf-8")))
        elif p.suffix == ".css":
            text = p.read_text(encoding="utf-8")
            out.append((rel, minify_css(text).encode("utf-8")))
            if p.name == "site.css":
                out.append(("static/play.css",
                            minify_css(css_sections(text, NOT_ON_PLAY_PAGES)).encode("utf-8")))
        else:
            out.append((rel, p.read_bytes()))
    out.append(("static/icon.svg", ICON.encode("utf-8")))
    return sorted(out)
