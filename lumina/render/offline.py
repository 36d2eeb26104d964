"""What makes the site installable and playable offline: the icons (drawn with Pillow), the
web manifest and the service worker, whose version is the hash of every other file.

    render.site.render
      pages, thumbnails, static files ...     everything else, in the Writer
      offline.add_app_files(writer)           static/icon-192.png, static/icon-512.png,
                                              manifest.webmanifest, then sw.js: VERSION =
                                              sha256 of every other file (path and bytes,
                                              sorted), FILES = every other file

The worker (`templates/sw.js`) fetches FILES on install with the HTTP cache bypassed
(`cache: "reload"`) into a cache named after its scope and VERSION (`lumina:/a/:HASH`), and
deletes only its own site's older caches on activation, so a republish replaces the cache
cleanly and two Lumina sites on one origin keep theirs. It also keeps any other same-scope
file it serves (lazily loaded JSON plays offline once visited), and shows `404.html`, when
the build has one, for a navigation that misses. The
precache holds every page, script, style and thumbnail: `precache_bytes` measures it
(`python -m lumina.bench site` prints it). Deterministic: palette PNGs without metadata,
JSON with sorted keys, FILES sorted.

Insight: the icon is the site's lantern on the night sky, drawn on a 32-unit grid and
scaled, kept inside the middle 80% so a maskable crop never cuts it.

    +--------------------------------+
    |          .  glow  .            |     body (11..21, 8..22), core (14..18, 11..19)
    |        .  +------+  .          |     base (9..23, 23..26)
    |           | core |             |
    |           +------+             |
    |         ==========             |
    +--------------------------------+
"""
from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

from PIL import Image, ImageDraw

from .assets import minify_js
from .writer import Writer

NAME = "Lumina"
NIGHT = "#0b1020"
ICON_SIZES = (192, 512)
SW = "sw.js"
MANIFEST = "manifest.webmanifest"

# The icon's palette: night, glow (gold over night, a quarter strong), gold, core, base.
_PALETTE = [(11, 16, 32), (75, 63, 47), (255, 206, 92), (255, 244, 200), (126, 150, 230)]


def icon_png(size: int) -> bytes:
    """The lantern icon, `size` px square: a palette PNG without metadata."""
    img = Image.new("P", (size, size), 0)
    img.putpalette([c for rgb in _PALETTE for c in rgb])
    d = ImageDraw.Draw(img)
    unit = size * 0.8 / 32          # the 32-unit drawing inside the middle 80%
    off = size * 0.1

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        return (round(off + x0 * unit), round(off + y0 * unit), round(off + x1 * unit) - 1,
                round(off + y1 * unit) - 1)
    d.ellipse(box(4, 3, 28, 27), fill=1)
    d.rounded_rectangle(box(11, 8, 21, 22), radius=round(3 * unit), fill=2)
    d.rounded_rectangle(box(14, 11, 18, 19), radius=round(unit), fill=3)
    d.rounded_rectangle(box(9, 23, 23, 26), radius=round(unit), fill=4)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False, compress_level=9)
    return buf.getvalue()


def manifest() -> bytes:
    """The web manifest: name, start page, colours and the icons (paths relative to it)."""
    doc = {
        "name": NAME, "short_name": NAME,
        "description": "Sliding-block puzzles: carry the Light Key to the lantern. Plays offline.",
        "start_url": "./index.html", "scope": "./", "display": "standalone",
        "background_color": NIGHT, "theme_color": NIGHT,
        "icons": [{"src": f"static/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png",
                   "purpose": "any maskable"} for n in ICON_SIZES],
    }
    return (json.dumps(doc, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def precache(files: dict[str, bytes]) -> list[str]:
    """Every file the worker caches: all of the site but the worker itself, sorted."""
    return sorted(p for p in files if p != SW)


def precache_bytes(files: dict[str, bytes]) -> int:
    """Bytes the worker stores after one visit (every precached file, uncompressed)."""
    return sum(len(files[p]) for p in precache(files))


def version(files: dict[str, bytes]) -> str:
    """The build's content hash: sha256 over every precached file's path and bytes."""
    h = hashlib.sha256()
    for p in precache(files):
        h.update(p.encode("utf-8") + b"\0" + files[p] + b"\0")
    return h.hexdigest()[:16]


def service_worker(files: dict[str, bytes], templates: Path) -> bytes:
    """templates/sw.js with VERSION and FILES written in, minified."""
    src = (templates / SW).read_text(encoding="utf-8")
    if src.count("/* @precache */") != 1:
        raise ValueError(f"{templates / SW}: needs one /* @precache */ line")
    line = (f"const VERSION = {json.dumps(version(files))};\n"
            f"const FILES = {json.dumps(precache(files), separators=(',', ':'))};")
    return minify_js(src.replace("/* @precache */", line)).encode("utf-8")


def add_app_files(out: Writer, templates: Path) -> None:
    """Icons and manifest, then the service worker over everything in `out`."""
    for n in ICON_SIZES:
        out.add(f"static/icon-{n}.png", icon_png(n))
    out.add(MANIFEST, manifest())
    out.add(SW, service_worker(out.files, templates))
