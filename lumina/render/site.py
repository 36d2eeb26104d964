"""The static site build: gather everything from packs/, render, write once.

`build(packs_dir, out_dir, verify=report)` is one straight function (MkDocs'
shape): `gather` reads every pack, report and table from disk into plain data,
`render` turns that into a list of `(path, bytes)` outputs through one Jinja2
environment (autoescape on, StrictUndefined: a missing variable is a failed
build, never an empty string), and `Writer` writes them into a temporary
folder beside the output that replaces it only when every page was written.
The writer refuses two outputs at one path and any path outside the output.

Determinism: packs and levels are iterated in sorted order, there are no
timestamps anywhere, thumbnails are palette PNGs without metadata, and JSON is
dumped with sorted keys, so the same packs give a byte-identical site.

URL layout (every link is relative, so the site works from any sub-path):

    index.html              home: five worlds, gates, the player's stars
    w1/index.html           a world: thumbnails, par, stars, difficulty curve
    w1/01.html, w1/01.png   a level page and its thumbnail (also og:image)
    daily.html, dailies.json  today's level, picked in the browser
    play.html?d=<desc>      any level from its share-link text
    stats.html              generation report, verification, histograms
    how-to-play.html        one section per mechanic, with live demo boards
    static/*.js, *.css      the board (engine, board, progress) and page scripts
"""
from __future__ import annotations

import hashlib
import json
import os
import posixpath
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from lumina.render import charts, thumbs

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
GATES = {1: 0, 2: 40, 3: 110, 4: 170, 5: 230}
DAILY_POOL = 174
MECHANICS = {
    "crystal": "Crystal", "sand": "Sand", "ice": "Ice", "rime": "Rime", "beam": "Beam & mirrors",
    "mixed": "Mixed",
}
#: Fields a page's board needs; metadata like analysis stays out of the page weight.
PLAY_FIELDS = ("id", "name", "width", "height", "exit", "win", "beam", "walls", "mirrors",
               "blocks", "optimal", "solution", "tutorial")


class SiteError(ValueError):
    """Bad input for the site; the message names the file, level and field."""


# ------------------------------------------------------------------ gather

@dataclass
class World:
    number: int
    pack: str
    name: str
    mechanic: str
    gate: int
    levels: list[dict[str, Any]]
    path: str  # source file, for messages


@dataclass
class SiteData:
    worlds: list[World]
    dailies: list[dict[str, Any]]
    reports: list[dict[str, Any]]
    strategies: dict[str, Any] | None
    verify: dict[str, Any]


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise SiteError(f"{path}: cannot read: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SiteError(f"{path}: not valid JSON: {e}") from None


def read_pack_levels(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(meta, level dicts) of one pack file, validated by `lumina.packfile` when it exists.

    Levels come back as canonical JSON dicts (`Level.to_json`), so the site never
    depends on how a pack happens to be laid out on disk.
    """
    try:
        from lumina.packfile import read_pack  # the lead's strict reader
    except ImportError:  # pragma: no cover - before lumina.packfile lands
        read_pack = None
    if read_pack is not None:
        pack = read_pack(path)
        return dict(pack.meta), [lv.to_json() for lv in pack.levels]
    data = _load_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("levels"), list):
        raise SiteError(f"{path}: levels: a pack is an object with a list of levels")
    from lumina.model import Level
    levels = [Level.from_json(lv).to_json() for lv in data["levels"]]
    meta = {k: v for k, v in data.items() if k != "levels"}
    return meta, levels


def pack_paths(packs_dir: Path) -> list[Path]:
    """The pack files of a packs folder: world-*.json and dailies.json, sorted."""
    return sorted(packs_dir.glob("world-*.json")) + sorted(packs_dir.glob("dailies.json"))


def _check_level(path: Path, lv: dict[str, Any], want_id: str | None) -> None:
    lid = lv.get("id", "?")
    for f in ("optimal", "solution"):
        if lv.get(f) is None:
            raise SiteError(f"{path}: level {lid}: {f}: missing (publish needs solved levels)")
    if want_id is not None and lid != want_id:
        raise SiteError(f"{path}: level {lid}: id: expected {want_id} at this position")


def gather(packs_dir: Path, verify: dict[str, Any] | None = None) -> SiteData:
    """Read everything the site shows from `packs_dir`. Raises SiteError (or the
    packfile's PackError) naming the file and field on bad input."""
    packs_dir = Path(packs_dir)
    if not packs_dir.is_dir():
        raise SiteError(f"{packs_dir}: not a folder of packs")
    worlds: list[World] = []
    dailies: list[dict[str, Any]] = []
    for path in pack_paths(packs_dir):
        meta, levels = read_pack_levels(path)
        if path.name == "dailies.json":
            for i, lv in enumerate(levels):
                _check_level(path, lv, f"d-{i + 1:03d}")
            dailies = levels
            continue
        num = meta.get("world")
        if not isinstance(num, int) or num not in GATES:
            raise SiteError(f"{path}: world: must be 1..5, got {num!r}")
        for f in ("name", "mechanic"):
            if not isinstance(meta.get(f), str):
                raise SiteError(f"{path}: {f}: missing or not a string")
        for i, lv in enumerate(levels):
            _check_level(path, lv, f"w{num}-{i + 1:02d}")
        worlds.append(World(number=num, pack=str(meta.get("pack", path.stem)), name=meta["name"],
                            mechanic=meta["mechanic"], gate=GATES[num], levels=levels, path=str(path)))
    worlds.sort(key=lambda w: w.number)
    if not worlds:
        raise SiteError(f"{packs_dir}: no world-*.json packs")
    nums = [w.number for w in worlds]
    if len(set(nums)) != len(nums):
        raise SiteError(f"{packs_dir}: world: two packs claim the same world number")
    reports = []
    for path in sorted(packs_dir.glob("report-*.json")):
        rep = _load_json(path)
        if not isinstance(rep, dict) or not isinstance(rep.get("buckets"), list):
            raise SiteError(f"{path}: buckets: a report is an object with a list of buckets")
        for i, b in enumerate(rep["buckets"]):
            if not isinstance(b, dict) or not isinstance(b.get("rejections", {}), dict):
                raise SiteError(f"{path}: buckets[{i}].rejections: must be an object of counts")
        reports.append(rep)
    strat_path = packs_dir / "strategies.json"
    strategies = _load_json(strat_path) if strat_path.exists() else None
    return SiteData(worlds=worlds, dailies=dailies, reports=reports, strategies=strategies,
                    verify=verify or {"ok": True, "lines": [], "packs": [], "gates": {}})


# ------------------------------------------------------------------ writer

class Writer:
    """One collection of outputs, written into a temp folder that replaces `out`.

    `add` refuses a second output at the same path and any path that would land
    outside the output folder; `commit` writes everything or nothing.
    """

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def add(self, rel: str, data: bytes | str) -> None:
        norm = posixpath.normpath(rel)
        if (rel.startswith(("/", "\\")) or norm.startswith("..") or norm == "." or "\\" in rel
                or re.match(r"^[A-Za-z]:", rel) or norm != rel):
            raise SiteError(f"output {rel!r}: path is outside the site folder or not normalised")
        if norm in self.files:
            raise SiteError(f"output {rel!r}: two pages at one path")
        self.files[norm] = data.encode("utf-8") if isinstance(data, str) else data

    def commit(self, out: Path) -> None:
        out = Path(out).resolve()
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.build-", dir=out.parent))
        try:
            for rel in sorted(self.files):
                p = tmp / rel
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_bytes(self.files[rel])
            old = None
            if out.exists():
                old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
                old.rmdir()
                os.replace(out, old)
            os.replace(tmp, out)
            os.chmod(out, 0o755)
            if old is not None:
                shutil.rmtree(old)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise


# ------------------------------------------------------------------ render

def _env(templates: Path):
    import jinja2
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates)),
        autoescape=jinja2.select_autoescape(["html", "xml", "svg"], default_for_string=True),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["json_script"] = json_script
    env.filters["stars"] = lambda n: "★" * n + "☆" * (3 - n)
    return env


def json_script(data: Any) -> Any:
    """JSON safe inside a <script type="application/json"> element."""
    from markupsafe import Markup
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def play_level(lv: dict[str, Any]) -> dict[str, Any]:
    """The fields a board needs (keeps page weight down)."""
    return {k: lv[k] for k in PLAY_FIELDS if k in lv}


def level_desc(lv: dict[str, Any]) -> str:
    from lumina.model import Level
    return Level.from_json(lv).desc()


def level_num(lv: dict[str, Any]) -> int:
    return int(lv["id"].rsplit("-", 1)[1])


def minify_js(text: str) -> str:
    """Drop comment-only lines, block comments that start a line, indentation and blank
    lines. Line breaks are kept, so automatic semicolon insertion is unchanged. A file
    with a template literal spanning lines is returned as it is (its whitespace is data)."""
    lines = text.splitlines()
    if any(line.count("`") % 2 for line in lines):
        return text
    out, in_block = [], False
    for line in lines:
        t = line.strip()
        if in_block:
            in_block = "*/" not in t
            continue
        if t.startswith("/*"):
            in_block = "*/" not in t
            continue
        if not t or t.startswith("//"):
            continue
        out.append(t)
    return "\n".join(out) + "\n"


def minify_css(text: str) -> str:
    """Comments out, whitespace collapsed around braces, semicolons and commas."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s*([{};,])\s*", r"\1", text)
    return text.replace(";}", "}").strip() + "\n"


#: site.css sections (marked `/* @section name */`) that play pages leave out.
NOT_ON_PLAY_PAGES = ("home", "world", "tables", "howto")


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


def _static_files(templates: Path) -> list[tuple[str, bytes]]:
    """The static assets, minified (comments and indentation out), plus `play.css`:
    site.css without the sections a play page never shows (page weight < 60 KB)."""
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
    return out


ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
        '<rect width="32" height="32" rx="7" fill="#0b1020"/>'
        '<circle cx="16" cy="15" r="9" fill="#ffce5c" opacity=".25"/>'
        '<rect x="11" y="8" width="10" height="14" rx="3" fill="#ffce5c"/>'
        '<rect x="14" y="11" width="4" height="8" rx="1" fill="#fff4c8"/>'
        '<rect x="9" y="23" width="14" height="3" rx="1" fill="#7e96e6"/></svg>\n')


def _histogram(levels: Iterable[dict[str, Any]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for lv in levels:
        out[lv["optimal"]] = out.get(lv["optimal"], 0) + 1
    return dict(sorted(out.items()))


def _rejection_table(reports: list[dict[str, Any]]) -> dict[str, Any]:
    reasons = sorted({r for rep in reports for b in rep["buckets"] for r in b.get("rejections", {})})
    rows = []
    for rep in reports:
        for b in rep["buckets"]:
            rej = b.get("rejections", {})
            rows.append({
                "pack": str(rep.get("pack", "")), "bucket": str(b.get("bucket", "")),
                "size": str(b.get("size", "")),
                "band": "–".join(str(x) for x in b.get("band", [])),
                "candidates": b.get("candidates", ""), "accepted": b.get("accepted", ""),
                "counts": [rej.get(r, 0) for r in reasons],
            })
    return {"reasons": reasons, "rows": rows}


def _strategy_table(strategies: Any) -> dict[str, Any] | None:
    """Any list of flat objects in strategies.json as a table (columns in first-seen order)."""
    if strategies is None:
        return None
    rows = None
    command = None
    if isinstance(strategies, list):
        rows = strategies
    elif isinstance(strategies, dict):
        command = strategies.get("command")
        for k in ("rows", "table", "results", "strategies"):
            if isinstance(strategies.get(k), list):
                rows = strategies[k]
                break
    if not rows or not all(isinstance(r, dict) for r in rows):
        return None
    first = ("strategy", "name", "bucket", "size", "band", "candidates", "already_solved", "under_band",
             "in_band", "over_band", "unsolvable", "exhausted", "unsolvable_or_exhausted", "survivors",
             "levels", "seconds")
    seen: list[str] = []
    for r in rows:
        for k in r:
            if k not in seen and not isinstance(r[k], (dict, list)):
                seen.append(k)
    cols = [c for c in first if c in seen] + [c for c in seen if c not in first]
    body = [[r.get(c, "") for c in cols] for r in rows]
    return {"command": command if isinstance(command, str) else None, "columns": cols, "rows": body}


def _progress_meta(worlds: list[World]) -> dict[str, Any]:
    return {"gates": {str(w.number): w.gate for w in worlds},
            "worlds": [{"n": w.number, "name": w.name, "levels": len(w.levels)} for w in worlds]}


from lumina.sitedata import site_data  # noqa: E402  (sitejs: #site-data on every page)


def render(data: SiteData, templates: Path = TEMPLATES) -> Writer:
    """Every output of the site, in one Writer (nothing on disk yet)."""
    env = _env(templates)
    w = Writer()
    meta = _progress_meta(data.worlds)
    total_levels = sum(len(x.levels) for x in data.worlds)
    max_stars = 3 * total_levels
    mech_demo = {x.mechanic: play_level(x.levels[0]) for x in data.worlds if x.levels}

    def page(rel: str, template: str, **ctx: Any) -> None:
        depth = rel.count("/")
        root = "../" * depth
        html = env.get_template(template).render(root=root, path=rel, site_meta=meta, site=site_data(),
                                                has_daily=bool(data.dailies), **ctx)
        w.add(rel, html)

    worlds_ctx = []
    for wd in data.worlds:
        worlds_ctx.append({
            "n": wd.number, "name": wd.name, "mechanic": wd.mechanic,
            "mechanic_name": MECHANICS.get(wd.mechanic, wd.mechanic.title()), "gate": wd.gate,
            "levels": len(wd.levels), "max_stars": 3 * len(wd.levels),
            "thumb": f"w{wd.number}/{level_num(wd.levels[0]):02d}.png" if wd.levels else None,
            "thumb_size": thumbs.thumbnail_size(wd.levels[0]) if wd.levels else (0, 0),
            "par_range": (f"{min(l['optimal'] for l in wd.levels)}–{max(l['optimal'] for l in wd.levels)}"
                          if wd.levels else ""),
        })

    page("index.html", "home.html", title="Lumina", worlds=worlds_ctx, max_stars=max_stars,
         og_image=worlds_ctx[0]["thumb"],
         description="Slide the crystal blocks, carry the Light Key to the lantern.")

    for wd, wc in zip(data.worlds, worlds_ctx):
        levels_ctx = []
        for lv in wd.levels:
            n = level_num(lv)
            levels_ctx.append({"id": lv["id"], "num": n, "href": f"{n:02d}.html", "thumb": f"{n:02d}.png",
                               "name": lv.get("name"), "optimal": lv["optimal"],
                               "tutorial": bool(lv.get("tutorial")),
                               "size": thumbs.thumbnail_size(lv)})
        curve = charts.curve_svg([(c["num"], c["optimal"], c["tutorial"]) for c in levels_ctx],
                                 title=f"{wd.name}: optimal moves by level",
                                 shape=charts.MARKERS[(wd.number - 1) % len(charts.MARKERS)])
        from markupsafe import Markup
        page(f"w{wd.number}/index.html", "world.html", title=f"{wd.name} · Lumina", world=wc,
             levels=levels_ctx, curve=Markup(curve), og_image=f"{levels_ctx[0]['thumb']}" if levels_ctx else None,
             description=f"World {wd.number} of Lumina: {wc['mechanic_name']}, {len(wd.levels)} levels.")
        for i, lv in enumerate(wd.levels):
            n = level_num(lv)
            prev_href = f"{level_num(wd.levels[i - 1]):02d}.html" if i else None
            if i + 1 < len(wd.levels):
                next_href, next_label = f"{level_num(wd.levels[i + 1]):02d}.html", f"Level {i + 2}"
            else:
                nxt = next((x for x in data.worlds if x.number > wd.number and x.levels), None)
                next_href = f"../w{nxt.number}/01.html" if nxt else None
                next_label = f"{nxt.name}" if nxt else None
            w.add(f"w{wd.number}/{n:02d}.png", thumbs.thumbnail_png(lv))
            page(f"w{wd.number}/{n:02d}.html", "level.html",
                 title=f"{wd.name} {n} · Lumina", world=wc, level=lv, num=n,
                 play=play_level(lv), desc=level_desc(lv), size=(lv["width"], lv["height"]),
                 prev_href=prev_href, next_href=next_href, next_label=next_label,
                 og_image=f"{n:02d}.png",
                 description=f"{wd.name}, level {n}: {lv['width']}×{lv['height']}, par {lv['optimal']}.")

    if data.dailies:
        w.add("dailies.json", json.dumps({"pool": DAILY_POOL, "levels": [play_level(x) for x in data.dailies]},
                                         sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
        sizes = "".join(f"{x['width']}{x['height']}" for x in data.dailies)
        page("daily.html", "daily.html", title="Today's light · Lumina", count=len(data.dailies),
             pool=DAILY_POOL, sizes=sizes, og_image=worlds_ctx[0]["thumb"],
             description="A new Lumina puzzle every day.")

    page("play.html", "play.html", title="Shared level · Lumina", og_image=worlds_ctx[0]["thumb"],
         description="Play a Lumina level from its share link.")
    page("how-to-play.html", "howto.html", title="How to play · Lumina", demos=mech_demo,
         worlds=worlds_ctx, og_image=worlds_ctx[0]["thumb"],
         description="The rules of Lumina: crystal, sand, ice, rime, beam and mirrors.")

    from markupsafe import Markup
    hists = []
    for wd in data.worlds:
        hists.append({"name": wd.name, "svg": Markup(charts.histogram_svg(
            _histogram(wd.levels), title=f"{wd.name}: levels by optimal moves", uid=f"w{wd.number}",
            width=340, height=190))})
    if data.dailies:
        hists.append({"name": "Dailies", "svg": Markup(charts.histogram_svg(
            _histogram(data.dailies), title="Dailies: levels by optimal moves", uid="d",
            width=340, height=190))})
    campaign = Markup(charts.campaign_svg([(wd.name, [l["optimal"] for l in wd.levels]) for wd in data.worlds],
                                          title="The campaign: optimal moves in play order"))
    page("stats.html", "stats.html", title="Stats · Lumina", verify=data.verify,
         rejections=_rejection_table(data.reports), strategies=_strategy_table(data.strategies),
         histograms=hists, campaign=campaign, worlds=worlds_ctx, dailies=len(data.dailies),
         og_image=worlds_ctx[0]["thumb"], description="How Lumina's levels were generated and proved.")

    for rel, blob in _static_files(templates):
        w.add(rel, blob)
    w.add("static/icon.svg", ICON)
    return w


# ------------------------------------------------------------------ build

def build(packs_dir: Path | str, out_dir: Path | str, *, verify: dict[str, Any] | None = None,
          templates: Path = TEMPLATES) -> Writer:
    """Gather, render and write the site. Nothing in `out_dir` changes unless every
    output rendered. Returns the writer (its `files` are what was written)."""
    data = gather(Path(packs_dir), verify)
    writer = render(data, Path(templates))
    writer.commit(Path(out_dir))
    return writer


# ------------------------------------------------------------------ weights

_SRC = re.compile(r'<(?:script[^>]*\bsrc|link[^>]*\bhref)="([^"#?]+)"[^>]*>', re.I)
_IMPORT = re.compile(r'(?:^|[;\s])import\s+(?:[^"\';]*?\sfrom\s+)?["\'](\.{1,2}/[^"\']+)["\']', re.M)
_MODULE_PRELOAD = re.compile(r'<link[^>]*rel="(?:stylesheet|modulepreload)"[^>]*>', re.I)


def page_weight(files: dict[str, bytes], rel: str) -> int:
    """Bytes of a page plus every script and stylesheet it loads (ES imports followed),
    images excluded. `files` maps site paths to bytes."""
    seen: set[str] = set()
    total = len(files[rel])
    html = files[rel].decode("utf-8")
    base = posixpath.dirname(rel)
    todo = []
    for m in re.finditer(r'<script[^>]*\bsrc="([^"]+)"', html):
        todo.append(posixpath.normpath(posixpath.join(base, m.group(1))))
    for m in _MODULE_PRELOAD.finditer(html):
        h = re.search(r'href="([^"]+)"', m.group(0))
        if h:
            todo.append(posixpath.normpath(posixpath.join(base, h.group(1))))
    for m in re.finditer(r'<script type="module">(.*?)</script>', html, re.S):
        for imp in _IMPORT.finditer(m.group(1)):
            todo.append(posixpath.normpath(posixpath.join(base, imp.group(1))))
    while todo:
        p = todo.pop()
        if p in seen or p not in files:
            continue
        seen.add(p)
        total += len(files[p])
        if p.endswith(".js"):
            for imp in _IMPORT.finditer(files[p].decode("utf-8")):
                todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(p), imp.group(1))))
        if p.endswith(".css"):
            for imp in re.finditer(r'@import\s+(?:url\()?["\']([^"\']+)["\']', files[p].decode("utf-8")):
                todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(p), imp.group(1))))
    return total


def level_pages(files: dict[str, bytes]) -> list[str]:
    return sorted(p for p in files if re.fullmatch(r"w\d+/\d+\.html", p))


def tree_hash(root: Path) -> str:
    """sha256 over every file's path and bytes under `root`, sorted."""
    h = hashlib.sha256()
    for p in sorted(Path(root).rglob("*")):
        if p.is_file():
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def bench_site(packs_dir: Path | str | None = None) -> dict[str, Any]:
    """Build the site from `packs_dir` (default: packs/) into a temp dir; print the
    seconds and the weight of the heaviest level page with its scripts and CSS."""
    packs_dir = Path(packs_dir) if packs_dir else ROOT / "packs"
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        writer = build(packs_dir, Path(tmp) / "site")
        secs = time.perf_counter() - t0
    weights = {p: page_weight(writer.files, p) for p in level_pages(writer.files)}
    heaviest = max(weights, key=lambda p: (weights[p], p)) if weights else None
    result = {"seconds": round(secs, 3), "pages": len(writer.files),
              "heaviest_level_page": heaviest, "heaviest_bytes": weights.get(heaviest, 0)}
    print(f"site: {len(writer.files)} files in {secs:.2f} s; heaviest level page {heaviest} "
          f"{result['heaviest_bytes']} bytes with scripts and css (limit 60000)")
    sys.stdout.flush()
    return result
