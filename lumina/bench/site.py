"""`python -m lumina.bench site`: the static site build, timed and weighed.

Builds the site from a packs folder (default: the repository's `packs/`) into a temp
folder and prints the seconds, the files, the heaviest level page (campaign or daily)
with the scripts and styles it loads first (`lumina.render.site.page_weight`; the
budget is 60,000 bytes), raw and gzip-compressed, all scripts and styles minified
and gzip-compressed, and what the service worker caches for offline play (bytes and
files, and how much of it is level thumbnails).
"""
from __future__ import annotations

import argparse
import gzip
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from lumina.render import offline
from lumina.render.site import ROOT, build, level_pages, page_weight


def arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--packs", type=Path, default=None,
                    help="folder of packs (default: the repository's packs/)")


def run(args: argparse.Namespace) -> int:
    bench_site(args.packs)
    return 0


def bench_site(packs_dir: Path | str | None = None) -> dict[str, Any]:
    """Build the site from `packs_dir` into a temp folder and print its figures; the
    same figures as a dict (for tests)."""
    packs_dir = Path(packs_dir) if packs_dir else ROOT / "packs"
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        writer = build(packs_dir, Path(tmp) / "site")
        secs = time.perf_counter() - t0
    weights = {p: page_weight(writer.files, p) for p in level_pages(writer.files)}
    heaviest = max(weights, key=lambda p: (weights[p], p)) if weights else None
    scripts = sorted(p for p in writer.files if p.endswith((".js", ".css")))
    raw = sum(len(writer.files[p]) for p in scripts)
    gz = sum(len(gzip.compress(writer.files[p], mtime=0)) for p in scripts)
    result = {"seconds": round(secs, 3), "pages": len(writer.files),
              "heaviest_level_page": heaviest, "heaviest_bytes": weights.get(heaviest, 0),
              "heaviest_gzip_bytes": page_weight(writer.files, heaviest, gzipped=True) if heaviest else 0,
              "static_bytes": raw, "static_gzip_bytes": gz,
              "offline_bytes": offline.precache_bytes(writer.files),
              "offline_thumbnail_bytes": sum(len(writer.files[p]) for p in offline.precache(writer.files)
                                             if re.fullmatch(r"(w\d+|daily)/\d+\.png", p))}
    print(f"site: {len(writer.files)} files in {secs:.2f} s; heaviest level page {heaviest} "
          f"{result['heaviest_bytes']} bytes with scripts and css (limit 60000), "
          f"{result['heaviest_gzip_bytes']} gzipped; all scripts+css {raw} bytes minified, {gz} gzipped; "
          f"offline cache {result['offline_bytes']} bytes in {len(offline.precache(writer.files))} files "
          f"({result['offline_thumbnail_bytes']} of them level thumbnails)")
    sys.stdout.flush()
    return result
