"""The one declarative schema (lumina/schema.py): every record's reading, strict checking,
canonical writing and diff follow from its declaration, and a new measure is one line.

The toy-measure test makes that one edit for real: it copies the package, adds one line
to `lumina.model.Analysis` and nothing else, and sees the measure in a written pack, in
verify's diff, in `solve --json` and in the editor's page data (`#editor-data`, which
`measure.js` builds the exported record from)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from lumina import schema as S
from lumina.model import Analysis, Level
from lumina.packfile import PackError, dumps_pack, read_pack, world_files

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True, kw_only=True)
class Point:
    x: int = S.field(S.integer(0, 9))
    on: bool = S.field(S.flag, default=False)
    tag: str | None = S.field(S.text, default=None, key="label")


def test_a_bool_is_never_a_number():
    for check in (S.integer(), S.number(0, 10), S.real(0, 1)):
        with pytest.raises(S.Bad, match="got true"):
            check(True, "n")
    with pytest.raises(S.Bad, match="must be true or false, got 1"):
        S.flag(1, "f")


def test_record_reads_strictly_naming_the_field():
    assert S.read(Point, {"x": 3, "label": "a"}) == Point(x=3, tag="a")
    with pytest.raises(S.Bad) as e:
        S.read(Point, {"x": 3, "colour": 1}, "rows[2]")
    assert (e.value.where, e.value.why) == ("rows[2].colour", "unknown field")
    with pytest.raises(S.Bad) as e:
        S.read(Point, {"on": True}, "p")
    assert (e.value.where, e.value.why) == ("p.x", "missing")
    with pytest.raises(S.Bad) as e:
        S.read(Point, {"x": 10}, "p")
    assert e.value.where == "p.x" and "0..9" in e.value.why


def test_write_omits_defaults_in_declared_order_and_diff_names_fields():
    assert S.write(Point(x=1)) == {"x": 1}
    assert list(S.write(Point(x=1, on=True, tag="t"))) == ["x", "on", "label"]
    assert S.diff(Point(x=1), Point(x=2, on=True)) == [("x", 1, 2), ("on", False, True)]
    assert S.names(Point) == ("x", "on", "label")


def test_a_group_is_recorded_all_or_none():
    a = S.write(Level.from_json({"id": "g-1", "width": 4, "height": 4,
                                 "exit": {"side": "right", "index": 0},
                                 "blocks": [{"kind": "key", "x": 0, "y": 0, "w": 2, "h": 1}]})
                .replace(analysis=Analysis(plans=1, plans_capped=False, solutions=1,
                                           solutions_capped=False, dead_blocks=(), dead_share=0.0,
                                           first_moves_optimal=1, first_moves_legal=1,
                                           component_states=2, traps=0, family="f")))["analysis"]
    assert "chain" not in a and "crystal_optimal" not in a
    with pytest.raises(S.Bad, match="recorded with chain"):
        S.read(Analysis, {**a, "chain": 1})


def test_every_committed_pack_rewritten_by_the_schema_is_the_same_bytes():
    paths = world_files(ROOT / "packs") + [ROOT / "packs" / "dailies.json"]
    assert len(paths) >= 2
    for p in paths:
        pack = read_pack(p)
        assert dumps_pack(pack.meta, pack.levels) == p.read_text(encoding="utf-8"), p


TOY_LINE = ("    toy: int = field(S.integer(), measure=lambda level, m: 7 * len(level.blocks))"
            "   # a toy measure\n")
ANCHOR = "    family: str = field(S.text"

TOY_SCRIPT = r'''
import contextlib, io, json, sys
from pathlib import Path
from lumina import judge, schema
from lumina.desc import from_desc
from lumina.engine import measure, solve
from lumina.packfile import PackError, read_pack, write_pack
from lumina.render.editor import measure_limits
from lumina.verify import verify_paths
import lumina.solve

out, folder = {}, Path(sys.argv[1])
lv = from_desc("6x6-R2-K0221C4112", id="d-001")
lv = lv.replace(optimal=solve(lv).optimal, solution=solve(lv).moves)
lv = lv.replace(analysis=judge.analysis(lv, measure(lv)))
path = folder / "dailies.json"
write_pack(path, {"pack": "dailies", "name": "Toy", "world": None, "generator": "test"}, [lv])
text = path.read_text()
line = next(l for l in text.splitlines() if '"id": "d-001"' in l)     # the level's own line
out["written"] = json.loads(line.strip().rstrip(","))["analysis"].get("toy")
out["read"] = read_pack(path).levels[0].analysis.toy
out["clean"] = [l for l in verify_paths([path]).lines if "toy" in l]
data = json.loads(text)
data["levels"][0]["analysis"]["toy"] += 1
path.write_text(json.dumps(data))
out["diff"] = [l.strip() for l in verify_paths([path]).lines if "toy" in l]
data["levels"][0]["analysis"]["toy"] = True
path.write_text(json.dumps(data))
try:
    read_pack(path)
except PackError as e:
    out["strict"] = str(e)
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    lumina.solve.main(["6x6-R2-K0221C4112", "--analyse", "--json"])
out["solve"] = json.loads(buf.getvalue())["toy"]
out["editor"] = [f["key"] for f in measure_limits()["analysis"]]
print(json.dumps(out))
'''


def test_a_toy_measure_is_one_line_and_shows_up_everywhere(tmp_path):
    pkg = tmp_path / "pkg"
    shutil.copytree(ROOT / "lumina", pkg / "lumina",
                    ignore=shutil.ignore_patterns("__pycache__", "*.c", "build"))
    model = pkg / "lumina" / "model.py"
    src = model.read_text(encoding="utf-8")
    assert src.count(ANCHOR) == 1
    model.write_text(src.replace(ANCHOR, TOY_LINE + ANCHOR), encoding="utf-8")   # the one edit
    packs = tmp_path / "packs"
    packs.mkdir()
    env = {**os.environ, "PYTHONPATH": str(pkg)}
    proc = subprocess.run([sys.executable, "-c", TOY_SCRIPT, str(packs)], capture_output=True,
                          text=True, cwd=tmp_path, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    toy = 7 * 2                                     # a key and one crystal
    assert got["written"] == got["read"] == got["solve"] == toy
    assert got["clean"] == []
    assert got["diff"] == [f"FAIL d-001: analysis.toy stored {toy + 1}, measured {toy}"]
    assert "dailies.json: level d-001: analysis.toy: must be an integer, got true" in got["strict"]
    assert got["editor"][-2:] == ["toy", "family"]
