"""The publish pipeline: verify first, byte-identical builds, atomic writes, clear errors.

Builds from the hand-checked fixture packs in tests/fixtures/packs (every par in
them comes from the reference BFS), so these tests never depend on a generator run.
"""
from __future__ import annotations

import json
import re
import shutil
import struct
import zlib
from pathlib import Path

import pytest

from shared import shared
from lumina import judge, publish, sitedata
from lumina.bench.site import bench_site
from lumina.model import Level
from lumina.packfile import pack_files, read_pack
from lumina.render import assets, charts, pages, site, thumbs, words
from lumina.verify import VerifyReport, verify_paths
from lumina.worlds import CAMPAIGN

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "packs"
LIMIT = 60 * 1000  # "a level page with its scripts weighs under 60 KB before images"


REAL_PACKS = Path(__file__).resolve().parents[1] / "packs"
POOL = CAMPAIGN.daily_pool          # the fixtures' daily pool is as large as the campaign's


def _verify_and_build_fixtures(folder: Path) -> tuple[VerifyReport, site.Writer]:
    rep = verify_paths(pack_files([FIXTURES]))
    return rep, site.build(FIXTURES, folder / "site", verify=rep)


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory) -> tuple[Path, VerifyReport, site.Writer]:
    """The fixture packs verified and built once for the run, whatever the number of
    xdist workers (tests/conftest.py, `shared`): the site folder, the report, the writer."""
    folder, (rep, writer) = shared(tmp_path_factory, "fixture-site", _verify_and_build_fixtures)
    return folder / "site", rep, writer


@pytest.fixture(scope="module")
def report(fixture_site) -> VerifyReport:
    """The real verifier's report on the fixtures. Every fixture level passes the level
    checks; the packs are too small for the world and campaign-shape checks (30 levels a
    world, the curve and felt ordering, the campaign's peaks)."""
    rep = fixture_site[1]
    world_rules = set()         # the judge's world rules, some of which name a level (a
    for path in pack_files([FIXTURES]):        # tutorial, an effort spike): not level checks
        pack = read_pack(path)
        if isinstance(pack.meta.get("world"), int):
            world_rules |= {(p.level, p.message) for p in
                            judge.world_problems(CAMPAIGN.world(pack.meta["world"]), pack.levels)}
    level_failures = [f for p in rep.packs for f in p["failures"] if not f["level"].endswith(".json")
                      and (f["level"], f["reason"]) not in world_rules]
    assert not level_failures, level_failures
    return rep


def _passing() -> VerifyReport:
    """A verifier report that passes: for the publish plumbing on the small fixtures."""
    return VerifyReport(ok=True, lines=["fixture packs: verified by the test"], packs=[], gates={})


@pytest.fixture(scope="module")
def built(fixture_site, report) -> tuple[Path, site.Writer]:
    """The fixture site (read it; never write into it) and its writer."""
    return fixture_site[0], fixture_site[2]


def _copy_packs(tmp_path: Path) -> Path:
    dst = tmp_path / "packs"
    shutil.copytree(FIXTURES, dst, ignore=shutil.ignore_patterns("*.py"))
    return dst


def _sentinel_site(tmp_path: Path) -> Path:
    out = tmp_path / "site"
    (out / "w1").mkdir(parents=True)
    (out / "index.html").write_text("the old site\n")
    (out / "w1" / "01.html").write_text("old level\n")
    (out / ".lumina-site").write_text("an earlier publish built this folder\n")
    return out


def test_build_is_byte_identical_twice(tmp_path, built, report):
    out, _ = built
    again = tmp_path / "again"
    site.build(FIXTURES, again, verify=report)
    assert site.tree_hash(out) == site.tree_hash(again)
    site.build(FIXTURES, again, verify=report)          # rebuilding over an existing site changes nothing
    assert site.tree_hash(out) == site.tree_hash(again)


def test_site_has_every_page_type(built):
    out, writer = built
    for rel in ("index.html", "w1/index.html", "w5/index.html", "w1/01.html", "w1/01.png",
                "daily.html", "daily/index.html", "daily/001.html", f"daily/{POOL:03d}.html", "daily/001.png",
                f"daily/{POOL:03d}.png", "play.html", "progress.html", "how-levels-are-made.html", "stats.html",
                "how-to-play.html", "static/pages.js", "static/pages-more.js", "static/day.js", "static/board.js",
                "static/engine.js", "static/site.css", "static/play.css", "sw.js", "manifest.webmanifest",
                "static/icon-192.png", "static/icon-512.png"):
        assert (out / rel).is_file(), rel
    levels = site.level_pages(writer.files)
    assert len(levels) == 35 + POOL and levels[0] == "daily/001.html" and "w1/01.html" in levels
    assert not (out / "dailies.json").exists(), "no page downloads the whole daily pool any more"
    pngs = [p for p in writer.files if p.endswith(".png") and not p.startswith("static/")]
    assert len(pngs) == 35 + POOL, "a thumbnail for every level, campaign and daily"


def _level_data(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="level-data">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))


def test_every_page_embeds_site_data_once(built):
    """The JS reads gates, pool, date rule, star rule and kinds from #site-data only."""
    _, writer = built
    want = sitedata.site_data()
    for rel, data in writer.files.items():
        if rel.endswith(".html"):
            found = re.findall(r'<script type="application/json" id="site-data">(.*?)</script>', data.decode(), re.S)
            assert len(found) == 1, rel
            assert json.loads(found[0]) == want, rel


def test_daily_pages_embed_only_their_own_level(built):
    _, writer = built
    pool = read_pack(FIXTURES / "dailies.json").levels
    for n in (1, 87, POOL):
        html = writer.files[f"daily/{n:03d}.html"].decode()
        data = _level_data(html)
        assert data["level"] == pages.play_json(pool[n - 1]) and "analysis" not in data["level"]
        assert html.count('"blocks"') == 1, "one level per daily page"
    today = writer.files["daily.html"].decode()
    assert "level-data" not in today and '"blocks"' not in today      # a hop to the day's page only
    archive = writer.files["daily/index.html"].decode()
    days = re.findall(r'data-day="(\d+)" hidden', archive)
    assert days == [str(n) for n in range(POOL, 0, -1)], "every day, newest first, hidden until the date rule shows it"
    assert archive.count('src="') - archive.count('src="../static') == POOL


def test_locked_world_pages_carry_what_the_lock_needs(built):
    """Level pages name their world (the script compares stars with site-data's gates), and
    every link into another world carries that world, so a shut world's link shows the lock."""
    _, writer = built
    last = writer.files["w1/07.html"].decode()
    assert 'data-world="1"' in last   # the lock card itself is made by locks.js when needed
    assert re.search(r'<a class="button" rel="next" href="../w2/01.html" data-world="2"', last)
    assert _level_data(last)["next_world"] == 2
    first = writer.files["w2/01.html"].decode()
    assert re.search(r'rel="prev" href="../w1/07.html" data-world="1"', first)


def test_level_pages_say_what_makes_them_hard_and_keep_the_figures_for_designers(built):
    _, writer = built
    for rel in ("w2/04.html", "daily/010.html"):
        html = writer.files[rel].decode()
        assert "What makes it hard" in html and "<strong>Hard:</strong>" in html and "<strong>Easier:</strong>" in html, rel
        designers = re.search(r'<details class="designers"><summary>For designers</summary><p>(.*?)</p></details>',
                              html, re.S).group(1)
        assert designers.startswith("plans ") and "first moves" in designers and "dead blocks" in designers, rel


def test_no_timestamps_or_absolute_links(built):
    out, writer = built
    for rel, data in writer.files.items():
        if rel.endswith(".html"):
            text = data.decode()
            assert 'href="/' not in text and 'src="/' not in text, rel
            assert "2025" not in text and "2026" not in text, rel  # no build dates


def test_level_page_weight_under_60kb(built):
    _, writer = built
    weights = {p: site.page_weight(writer.files, p) for p in site.level_pages(writer.files)}
    for extra in ("daily.html", "play.html"):
        weights[extra] = site.page_weight(writer.files, extra)
    heavy = max(weights, key=weights.get)
    assert weights[heavy] < LIMIT, f"{heavy} weighs {weights[heavy]} bytes with scripts and css"
    # the weight really follows imports: board.js and engine.js are counted
    assert weights["w1/01.html"] > len(writer.files["static/board.js"]) + len(writer.files["static/engine.js"])
    assert weights["w1/01.html"] > len(writer.files["static/progress.js"]) + len(writer.files["static/pages.js"])


def test_page_weight_counts_what_a_page_loads_before_any_interaction(built):
    """Bug class: page weight. Static imports, stylesheets and preloads count; dynamic
    import() and worker scripts load on demand (first hint, another page kind) and do not."""
    files = {"p.html": b'<link rel="stylesheet" href="s.css"><script type="module" src="a.js"></script>',
             "s.css": b"x" * 10, "a.js": b'import { f } from "./b.js";\nimport("./lazy.js");\n'
             b'new Worker(new URL("./w.js", import.meta.url), { type: "module" });\n',
             "b.js": b"y" * 100, "lazy.js": b"z" * 1000, "w.js": b"w" * 1000}
    assert site.page_loads(files, "p.html") == {"s.css", "a.js", "b.js"}
    assert site.page_weight(files, "p.html") == sum(len(files[p]) for p in ("p.html", "s.css", "a.js", "b.js"))
    # on the real pages: the level page's first load holds the board and none of the on-demand code
    _, writer = built
    for rel in ("w1/01.html", "daily/001.html", "play.html"):
        loads = site.page_loads(writer.files, rel)
        assert {"static/board.js", "static/engine.js", "static/core.js"} <= loads, rel
        lazy = {"static/pages-more.js", "static/hints.js", "static/hint-worker.js", "static/search.js",
                "static/desc.js", "static/summary.js"}
        assert not loads & lazy, (rel, loads & lazy)
        for p in lazy:
            assert p in writer.files, p    # they exist: loaded on demand, not dropped


def test_verification_is_called_on_every_pack_before_building(tmp_path):
    seen = []

    def fake(packs, campaign):
        seen.append([p.path.name for p in packs])
        assert not (tmp_path / "site").exists()          # nothing built yet
        return _passing()
    assert publish.main(["--packs", str(FIXTURES), "--out", str(tmp_path / "site")], verify=fake) == 0
    assert seen == [["world-1.json", "world-2.json", "world-3.json", "world-4.json", "world-5.json",
                     "dailies.json"]]




def test_publish_real_packs_end_to_end(committed_publish):
    """`python -m lumina.publish` of the committed packs (run once this run:
    tests/conftest.py, `committed_publish`)."""
    ran, out = committed_publish["ran"], committed_publish["site"]
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.startswith("published ") and "Traceback" not in ran.stderr
    files = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert len(site.level_pages(files)) == 150 + POOL + 1      # practice.html plays every practice level
    assert max(site.page_weight(files, p) for p in site.level_pages(files)) < LIMIT


def test_failing_pack_leaves_site_exactly_as_it_was(tmp_path, capsys):
    packs = _copy_packs(tmp_path)
    path = packs / "world-1.json"
    data = json.loads(path.read_text())
    lv = data["levels"][3]                     # a crystal level: every slide can be undone
    (i, d) = lv["solution"][0]
    lv["solution"] = [[i, d], [i, -d]] + lv["solution"]
    lv["optimal"] += 2                         # well formed, but a par the solver will not confirm
    path.write_text(json.dumps(data))
    out = _sentinel_site(tmp_path)
    before = site.tree_hash(out)
    code = publish.main(["--packs", str(packs), "--out", str(out)])
    assert code == 1
    assert site.tree_hash(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["packs", "site"]   # no temp dirs left
    err = capsys.readouterr().err
    assert "w1-04" in err and "untouched" in err


def test_publish_writes_site_and_summary(tmp_path, capsys):
    out = _sentinel_site(tmp_path)
    assert publish.main(["--packs", str(FIXTURES), "--out", str(out)],
                        verify=lambda read, campaign: _passing()) == 0
    assert "Lumina" in (out / "index.html").read_text()
    assert not (out / "w1" / "01.html").read_text().startswith("old")
    assert capsys.readouterr().out.startswith("published ")


@pytest.mark.parametrize("breakage, expect", [
    ("not json", "world-3.json"),
    ("unknown field", "w3-02"),
    ("missing folder", "no-such-packs"),
])
def test_bad_input_is_one_line_exit_2(tmp_path, capsys, breakage, expect):
    packs = _copy_packs(tmp_path)
    if breakage == "not json":
        (packs / "world-3.json").write_text("{ nope")
    elif breakage == "unknown field":
        data = json.loads((packs / "world-3.json").read_text())
        data["levels"][1]["optimmal"] = 3
        (packs / "world-3.json").write_text(json.dumps(data))
    else:
        packs = tmp_path / "no-such-packs"
    out = _sentinel_site(tmp_path)
    before = site.tree_hash(out)
    assert publish.main(["--packs", str(packs), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if not line.startswith("publish: verifying")]
    assert len(lines) == 1, err
    assert expect in lines[0] and "Traceback" not in err
    assert site.tree_hash(out) == before


def test_a_failed_render_writes_nothing(tmp_path, monkeypatch):
    out = _sentinel_site(tmp_path)
    before = site.tree_hash(out)

    def boom(level):
        raise RuntimeError("thumbnail exploded")
    monkeypatch.setattr(thumbs, "thumbnail_png", boom)
    with pytest.raises(RuntimeError):
        site.build(FIXTURES, out)
    assert site.tree_hash(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_writer_refuses_two_pages_at_one_path_and_paths_outside():
    w = site.Writer()
    w.add("w1/01.html", "a")
    with pytest.raises(site.SiteError, match="two pages at one path"):
        w.add("w1/01.html", "b")
    for bad in ("../evil.html", "/etc/passwd", "w1/../../x", "a\\b.html", "./x.html", "C:/x"):
        with pytest.raises(site.SiteError, match="outside"):
            w.add(bad, "x")


def test_strict_undefined_fails_the_build(tmp_path):
    tpl = tmp_path / "templates"
    shutil.copytree(site.TEMPLATES, tpl)
    (tpl / "making.html").write_text('{% extends "base.html" %}{% block content %}{{ no_such_thing }}{% endblock %}')
    out = _sentinel_site(tmp_path)
    before = site.tree_hash(out)
    import jinja2
    with pytest.raises(jinja2.UndefinedError):
        site.build(FIXTURES, out, templates=tpl)
    assert site.tree_hash(out) == before


def _png_chunks(data: bytes) -> list[bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    i, out = 8, []
    while i < len(data):
        n, kind = struct.unpack(">I4s", data[i:i + 8])
        assert zlib.crc32(data[i + 4:i + 8 + n]) == struct.unpack(">I", data[i + 8 + n:i + 12 + n])[0]
        out.append(kind)
        i += 12 + n
    return out


def test_thumbnails_are_deterministic_small_and_metadata_free(built):
    out, _ = built
    lv = read_pack(FIXTURES / "world-5.json").levels[6]
    a, b = thumbs.thumbnail_png(lv), thumbs.thumbnail_png(lv.replace())
    assert a == b == (out / "w5" / "07.png").read_bytes()
    assert set(_png_chunks(a)) == {b"IHDR", b"PLTE", b"IDAT", b"IEND"}      # no tIME/tEXt
    w, h = struct.unpack(">II", a[16:24])
    assert (w, h) == thumbs.thumbnail_size(lv) == (lv.width * 20 + 12, lv.height * 20 + 12)
    assert len(a) < 4000
    day = read_pack(FIXTURES / "dailies.json").levels[41]
    assert thumbs.thumbnail_png(day) == (out / "daily" / "042.png").read_bytes()


def test_thumbnail_shows_kinds_walls_mirrors_and_lantern():
    lv = Level.from_json({
        "id": "t", "width": 4, "height": 4, "exit": {"side": "right", "index": 1}, "win": "beam",
        "beam": {"dir": "E", "offset": 0}, "walls": [[0, 3]], "mirrors": [{"x": 3, "y": 3, "tilt": "/"}],
        "blocks": [{"kind": "key", "x": 0, "y": 1, "w": 2, "h": 1},
                   {"kind": "sand", "x": 0, "y": 0, "w": 2, "h": 1},
                   {"kind": "ice", "x": 2, "y": 2, "w": 1, "h": 2},
                   {"kind": "rime", "x": 3, "y": 0, "w": 1, "h": 2}]})
    img = thumbs.render(lv)
    px = lambda cx, cy: img.getpixel((thumbs.PAD + cx * 20 + 10, thumbs.PAD + cy * 20 + 5))  # noqa: E731
    colours = {px(0, 1), px(0, 0), px(2, 2), px(3, 0), px(0, 3)}
    assert len(colours) == 5, "key, sand, ice, rime and wall must differ"
    used = {img.getpixel((x, y)) for x in range(img.width) for y in range(img.height)}
    assert 15 in used and 5 in used      # mirror silver, lantern gold


def test_charts_read_without_colour():
    svg = charts.curve_svg([(1, 2, True), (2, 3, False), (3, 7, False)], title="W1 curve")
    assert svg.startswith("<svg") and "<title>W1 curve</title>" in svg and "<desc>" in svg
    assert "polygon" in svg and "circle" in svg            # tutorial diamond, level circles
    assert ">7</text>" in svg and ">optimal moves</text>" in svg
    hist = charts.histogram_svg({2: 3, 5: 1}, title="H", uid="x")
    assert 'id="hatch-x"' in hist and "url(#hatch-x)" in hist and ">3</text>" in hist
    camp = charts.campaign_svg([("A", [1, 2]), ("B", [3, 4])], title="C")
    assert ">A</text>" in camp and ">B</text>" in camp and "<circle" in camp and "<rect" in camp
    assert charts.curve_svg([(1, 2, False)], title="x") == charts.curve_svg([(1, 2, False)], title="x")


def test_making_page_shows_reports_verification_and_strategies(built):
    out, _ = built
    html = (out / "how-levels-are-made.html").read_text()
    for text in ("under band", "already solved", "w5-b2", "world-1", "filtered: dead blocks",
                 "multi-source", "reverse-walk", "Willow Hollow: levels by optimal moves",
                 "a world has 30 levels", 'class="table-wrap"'):
        assert text in html, text
    assert "{'" not in html and "': " not in html, "no raw Python dicts on the page"
    # every table scrolls inside its own wrapper on a phone
    assert html.count("<table") == html.count('<div class="table-wrap"><table')
    old = (out / "stats.html").read_text()
    assert 'url=how-levels-are-made.html' in old and 'href="how-levels-are-made.html"' in old


def test_gate_table_has_no_raw_dicts_with_a_real_gate_report(tmp_path):
    """Bug class: the verifier's gates dict printed as {'needs': 0, ...} on the page."""
    rep = VerifyReport(ok=True, lines=[], packs=[{"pack": "world-1", "name": "W", "levels": 7, "solvable": 7,
                                                  "confirmed": 7, "histogram": {}, "failures": []}],
                       gates={"2": {"needs": 40, "two_star_total_before": 14, "reachable": False}})
    w = site.build(FIXTURES, tmp_path / "s", verify=rep)
    html = w.files["how-levels-are-made.html"].decode()
    assert "{'" not in html and "reachable" not in html.split("<main")[1].split("</main>")[0].lower().replace("reachable</th>", "")
    row = re.search(r'<tr><th scope="row">Dune Sea</th>(.*?)</tr>', html).group(1)
    assert "40 ★" in row and "14 ★" in row and ">no<" in row


def test_strategy_table_refuses_a_row_without_its_fields(tmp_path, capsys):
    packs = _copy_packs(tmp_path)
    doc = json.loads((packs / "strategies.json").read_text())
    del doc["rows"][1]["filtered"]["near_duplicate"]
    (packs / "strategies.json").write_text(json.dumps(doc))
    assert publish.main(["--packs", str(packs), "--out", str(tmp_path / "site")],
                        verify=lambda read, campaign: _passing()) == 2
    err = capsys.readouterr().err
    assert "strategies.json: rows[1].filtered.near_duplicate: missing" in err


def test_minifiers_are_the_libraries_and_keep_code_working():
    js = "// c\nimport { a } from \"./a.js\";\n  /** doc\n   * more */\n  const s = `x\n  y`; // tail\nlet r = /a\\/b/g\n"
    out = assets.minify_js(js)
    assert "doc" not in out and "tail" not in out and "`x\n  y`" in out and "/a\\/b/g" in out
    assert 'import{a}from"./a.js"' in out
    assert site.imports(out) == ["./a.js"], "the weight and link checks follow minified imports"
    assert site.imports('import{x}from"./x.js";export{y}from"./y.js";import("./lazy.js")') == ["./x.js", "./y.js"]
    css = assets.minify_css("a  { color : red ; }\n/* x */ b,\n c { x: calc(1px + 2px) }")
    assert css == "a{color:red}b,c{x:calc(1px + 2px)}\n"


def test_play_css_leaves_out_the_sections_play_pages_never_show(built):
    _, writer = built
    play, full = writer.files["static/play.css"].decode(), writer.files["static/site.css"].decode()
    assert ".world-card" in full and ".world-card" not in play
    assert ".totals" in full and ".totals" not in play
    assert ".why" in play and ".play-side" in play
    extra = writer.files["static/extra.css"].decode()   # loaded on demand (lazycss.js)
    assert ".lock-cover" in extra and ".lock-cover" not in play


def _with(lv, **fields):
    """`lv` with its analysis fields replaced (and `chain`/`deepest`, which older Analysis lacks)."""
    a = lv.analysis
    extra = {k: fields.pop(k) for k in ("chain", "deepest") if k in fields}
    cls = a.__class__
    if extra and not all(hasattr(a, k) for k in extra):
        import dataclasses
        cls = dataclasses.make_dataclass("A", [(k, int) for k in extra], bases=(cls,), frozen=True)
    return lv.replace(analysis=cls(**{**a.__dict__, **fields, **extra}))


JARGON = ("chain", "plans", "margin", "dead block", "forced")


def test_why_hard_player_lines_speak_no_jargon_and_give_nothing_away():
    """Bug class: developer words on player pages ("chain", "twist margin") and lines that give
    the puzzle away ("1 of 5 blocks never needs to move")."""
    for p in sorted(FIXTURES.glob("*.json")):
        if not (p.name.startswith("world-") or p.name == "dailies.json"):
            continue
        for lv in read_pack(p).levels:
            why = words.why_hard(lv)
            if why is None:
                continue
            text = f"{why.hard} {why.easier}".lower()
            assert not [w for w in JARGON if w in text], (lv.id, text)
            assert "never need" not in text, (lv.id, text)


def test_why_hard_words_come_from_the_analysis_fields():
    lv = read_pack(FIXTURES / "world-2.json").levels[3].replace(optimal=12, solution=None)
    why = words.why_hard(_with(lv, plans=2, plans_capped=False, first_moves_optimal=1, first_moves_legal=9,
                               component_states=4210, traps=1203, crystal_optimal=9, chain=None,
                               deepest=None))
    assert why.hard == ("this sand adds 3 moves to the same board in plain crystal; only 1 of 9 first moves "
                        "keeps par; some positions can never be won: Undo gets you out")
    assert why.easier.startswith("2 different ideas reach par")
    assert why.designer == "plans 2 · first moves 1 of 9 optimal · traps 1,203 · dead blocks 0 of 5 · twist margin 3" \
        or "twist margin 3" in why.designer
    plain = words.why_hard(_with(lv, plans=1, plans_capped=False, traps=0, crystal_optimal=None,
                                 first_moves_optimal=3, first_moves_legal=3, chain=None, deepest=None))
    assert plain.hard.startswith("only one idea solves it in par")
    assert "crystal" not in plain.hard and "any first move can still make par" in plain.easier
    assert "no dead ends" in plain.easier


def test_why_hard_reads_chain_and_deepest_when_the_packs_carry_them():
    """Bug class: many plans listed under "Why it's hard" ("16 plans distinct plans reach par"):
    plans make a level easier; a long chain, a twist margin and the deepest start make it hard."""
    lv = read_pack(FIXTURES / "world-2.json").levels[3].replace(optimal=12, solution=None)
    why = words.why_hard(_with(lv, plans=16, plans_capped=False, crystal_optimal=10, first_moves_optimal=2,
                               first_moves_legal=2, traps=0, chain=9, deepest=12))
    assert why.hard.startswith("9 moves must come in one order; this sand adds 2 moves")
    assert "16 different ideas reach par" in why.easier and "ideas" not in why.hard
    short = words.why_hard(_with(lv, plans=3, plans_capped=True, crystal_optimal=11, chain=4, deepest=12,
                                 first_moves_optimal=1, first_moves_legal=5, traps=0))
    assert short.easier.startswith("3+ different ideas reach par") and "most moves can come in any order" in short.easier
    assert "chain 4" in short.designer and "plans 3+" in short.designer
    assert short.hard.count(";") <= words.ITEMS - 1, "one line: at most three items"


def test_star_words_follow_the_star_rule():
    w = pages.star_words({"three_within": 0, "two_within": 2, "help_cap": 2})
    assert w == {"three": "at par", "two": "within 2 of par", "help_cap": "★★"}
    assert pages.star_words({"three_within": 1, "two_within": 3, "help_cap": 1})["two"] == "within 3 of par"


def test_bench_site_reports_seconds_and_weight(capsys):
    res = bench_site(FIXTURES)
    assert res["heaviest_bytes"] < LIMIT and "seconds" in res and res["static_gzip_bytes"] < res["static_bytes"]
    assert 0 < res["heaviest_gzip_bytes"] < res["heaviest_bytes"]
    assert "heaviest level page" in capsys.readouterr().out


def test_committed_site_matches_a_fresh_build_of_packs(committed_publish):
    """site/ is committed: it must be exactly what `python -m lumina.publish` makes
    (the one publish of the committed packs this run makes: `committed_publish`)."""
    committed = REAL_PACKS.parent / "site"
    out = committed_publish["site"]
    assert committed_publish["ran"].returncode == 0, committed_publish["ran"].stderr[-2000:]

    def tree(root):
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    fresh, old = tree(out), tree(committed)
    assert sorted(fresh) == sorted(old), "site/ has missing or extra files: run python -m lumina.publish"
    stale = [k for k in fresh if fresh[k] != old[k]]
    assert not stale, f"site/ is stale ({len(stale)} files, e.g. {stale[:3]}): run python -m lumina.publish"


def test_making_page_measures_come_from_each_levels_analysis(built):
    _, writer = built
    w2 = read_pack(FIXTURES / "world-2.json").levels
    row = pages.measures_table([("Dune Sea", w2)])[0]
    raised = sum(1 for lv in w2 if lv.analysis.crystal_optimal is not None
                 and lv.analysis.crystal_optimal < lv.optimal)
    twists = sum(1 for lv in w2 if lv.analysis.crystal_optimal is not None)
    assert row["twist"] == f"{raised} of {twists}"
    assert row["trapped"] == sum(1 for lv in w2 if lv.analysis.traps)
    assert row["single_plan"] == sum(1 for lv in w2 if lv.analysis.plans == 1)
    html = writer.files["how-levels-are-made.html"].decode()
    assert "What makes them hard" in html and f"<th scope=\"row\">Dune Sea</th><td class=\"num\">{len(w2)}</td>" in html


# ---- offline and installable -------------------------------------------------------------

def _sw_parts(sw: bytes) -> tuple[str, list[str]]:
    text = sw.decode()
    version = re.search(r'const VERSION="([0-9a-f]+)"', text).group(1)
    files = json.loads(re.search(r"const FILES=(\[.*?\]);", text).group(1))
    return version, files


def test_service_worker_precaches_every_other_file_under_the_builds_hash(built):
    _, writer = built
    from lumina.render import offline
    version, files = _sw_parts(writer.files["sw.js"])
    assert files == sorted(p for p in writer.files if p != "sw.js"), "every page, script and image, nothing else"
    assert version == offline.version(writer.files) and len(version) == 16
    for rel in ("index.html", "w3/05.html", f"daily/{POOL:03d}.html", "daily/index.html", "daily.html", "progress.html",
                "how-to-play.html", "how-levels-are-made.html", "play.html", "static/hint-worker.js",
                "static/search.js", "static/sound.js", "manifest.webmanifest", "w1/01.png"):
        assert rel in files, rel
    assert offline.precache_bytes(writer.files) == sum(len(writer.files[p]) for p in files)


def test_a_changed_site_gets_a_new_worker_version(built):
    """Bug class: stale pages after a republish. The same packs give the same worker byte for
    byte; any changed byte of any other file changes its version (the worker's cache name)."""
    from lumina.render import offline
    one, two = (site.render(site.gather(FIXTURES)) for _ in range(2))
    assert one.files["sw.js"] == two.files["sw.js"]
    changed = {k: v for k, v in one.files.items() if k != "sw.js"}
    changed["static/play.css"] += b" "
    assert offline.version(changed) != offline.version(one.files) == _sw_parts(one.files["sw.js"])[0]


def test_manifest_and_icons(built):
    _, writer = built
    doc = json.loads(writer.files["manifest.webmanifest"])
    assert doc["name"] == "Lumina" and doc["start_url"] == "./index.html" and doc["display"] == "standalone"
    assert doc["theme_color"] == doc["background_color"] == "#0b1020"
    for icon in doc["icons"]:
        data = writer.files[icon["src"]]
        w, h = struct.unpack(">II", data[16:24])
        assert f"{w}x{h}" == icon["sizes"] and icon["type"] == "image/png"
        assert set(_png_chunks(data)) == {b"IHDR", b"PLTE", b"IDAT", b"IEND"}, "no metadata: same bytes every build"
    for rel, data in writer.files.items():
        if rel.endswith(".html") and rel != "404.html":   # 404.html: served at any path, no app
            html = data.decode()
            assert 'rel="manifest"' in html and 'id="file-note" hidden' in html, rel
            assert 'if(location.protocol=="file:")' in html, rel


def test_names_match_across_nav_home_and_titles(built):
    """Bug class: the home button said "Today's light" and the nav "Daily". A page reached by a
    nav, footer or home link is titled with that link's name."""
    _, writer = built
    title = lambda rel: re.search(r"<title>(.*?)</title>", writer.files[rel].decode()).group(1)  # noqa: E731
    home = writer.files["index.html"].decode()
    links = re.findall(r'<a (?:class="[^"]*" )?href="([a-z/.-]+\.html)"[^>]*>([^<]+)</a>',
                       home.split('<header class="top">')[1].split("</header>")[0]
                       + home.split('<p class="hero-actions">')[1].split("</p>")[0]
                       + home.split('<footer class="foot">')[1])
    named = {text.strip(): rel for rel, text in links if text.strip() not in ("Play", "Continue")}
    assert set(named) >= {"Daily", "Progress", "How to play", "How levels are made", "Past days"}, named
    for text, rel in named.items():
        assert title(rel).split(" · ")[0] == text, (text, rel, title(rel))


def test_only_the_campaigns_last_level_carries_the_ending(built):
    _, writer = built
    ending = [p for p in site.level_pages(writer.files) if _level_data(writer.files[p].decode()).get("ending")]
    assert ending == ["w5/07.html"]


def test_chart_labels_never_overlap():
    """Bug class: the world curve's value labels overlapped (13-26) and histogram ticks ran
    together ("1214161820")."""
    pts = [(i + 1, v, i == 0) for i, v in enumerate([2, 13, 14, 13, 14, 15, 14, 15, 16, 15, 26, 25, 26] * 3)]
    for svg in (charts.curve_svg(pts, title="t", width=420), charts.curve_svg(pts, title="t"),
                charts.histogram_svg({k: (k * 7) % 13 + 1 for k in range(4, 46)}, title="h", width=340)):
        boxes = []
        for x, y, anchor, t in re.findall(r'class="chart-(?:value|tick)" x="([\d.]+)" y="([\d.]+)" '
                                          r'text-anchor="(\w+)"[^>]*>([^<]*)<', svg):
            box = charts.text_box(float(x), float(y), t)
            shift = (box[2] - box[0]) / 2 if anchor == "end" else 0     # y-axis ticks end at x
            boxes.append((box[0] - shift, box[1], box[2] - shift, box[3]))
        assert boxes
        bad = [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:] if charts._overlap(a, b)]
        assert not bad, bad[:3]
    assert charts.tick_every(30, 900) == 1 and charts.tick_every(42, 280) == 5
    assert charts.place_labels([(10, 50, "12"), (14, 50, "13")]) == [(10, 41), (14, 71)]


# ------------------------------------------------------------------ read once (issue 20, class 4)

# was test_hardening_round2.py::test_publish_renders_the_packs_it_verified
def test_publish_renders_the_packs_it_verified(tmp_path):
    """Publish read the packs twice, once to verify and once to render: a pack
    replaced in between (a concurrent generate) was published unverified. The real
    verifier runs (its verdict on the small fixtures, too small for the campaign's
    shape, is replaced by a pass); the pack is replaced on disk the moment it returns."""
    from lumina.verify import verify_packs
    packs = _copy_packs(tmp_path)
    swapped = json.loads((packs / "world-1.json").read_text())
    swapped["name"] = "Unverified Swap"

    def verify_then_swap(read, campaign):
        verify_packs(read, campaign)
        (packs / "world-1.json").write_text(json.dumps(swapped))   # a generate lands now
        return _passing()
    assert publish.main(["--packs", str(packs), "--out", str(tmp_path / "site")], verify=verify_then_swap) == 0
    html = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site").rglob("*.html"))
    assert "Willow Hollow" in html and "Unverified Swap" not in html


# was test_hardening_round2.py::test_publish_reads_each_pack_once
def test_publish_reads_each_pack_once(tmp_path, monkeypatch):
    """The same class, at its root: the objects verified are the objects rendered, so
    every pack is read from disk exactly once."""
    from lumina import packfile
    packs = _copy_packs(tmp_path)
    reads: list[str] = []
    real_read = packfile.read_bounded

    def counting(path, *a, **k):
        reads.append(Path(path).name)
        return real_read(path, *a, **k)
    monkeypatch.setattr(packfile, "read_bounded", counting)
    assert publish.main(["--packs", str(packs), "--out", str(tmp_path / "site")],
                        verify=lambda read, campaign: _passing()) == 0
    for name in ("world-1.json", "world-5.json", "dailies.json"):
        assert reads.count(name) == 1, (name, reads)
