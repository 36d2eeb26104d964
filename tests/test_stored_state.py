"""What the site reads back from localStorage is held to the play-log schema (issue 28).

A player (or a stray extension) can write anything into localStorage. The site plays on
from what it reads, so every number, id and text it reads is validated and clamped to the
ranges of `lumina/playtest/schema.py`, and an exported log is always readable by
`python -m lumina.playtest`. Run through node, on the very module the pages import
(templates/static/playlog.js), then read by the Python reader and the report command.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import os
from pathlib import Path

import pytest

from lumina.packfile import read_pack
from lumina.playtest.reader import LogReader

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "packs" / "world-1.json"

_EXPORT = """
import * as L from %(module)s;
const stored = %(stored)s;
const log = L.parseLog(JSON.stringify(stored));
const note = L.recorder(%(meta)s);
let t = 1000;
note(log, { type: "start" }, t);
for (const [block, distance] of %(moves)s) note(log, { type: "move", block, distance }, t += 1500);
note(log, { type: "win", moves: %(n)d, stars: 3, helped: false }, t += 100);
process.stdout.write(L.toJsonl(log));
"""


def _export(tmp_path: Path, stored: dict) -> tuple[Path, int]:
    """The log the site would export after reading `stored` and playing w1-02 to a win."""
    node = shutil.which("node")
    assert node, "node is required (it is on every CI machine)"
    pack = read_pack(PACK)
    lv = pack.levels[1]
    meta = {"level": lv.id, "generator": pack.meta["generator"], "board": lv.desc()}
    script = tmp_path / "export.mjs"
    script.write_text(_EXPORT % {"module": json.dumps((ROOT / "templates/static/playlog.js").as_uri()),
                                 "stored": json.dumps(stored), "meta": json.dumps(meta),
                                 "moves": json.dumps([list(m) for m in lv.solution]),
                                 "n": len(lv.solution)})
    proc = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "export.jsonl"
    out.write_text(proc.stdout)
    return out, len(lv.solution)


def _read(log: Path) -> tuple[list, list]:
    reader = LogReader()
    attempts = list(reader.attempts([log]))
    return attempts, reader.problems


def test_tampered_playlog_counter_exports_readable(tmp_path):
    """The attempt counter tampered to 2**53: the site plays on, and the export is read
    whole by lumina.playtest (before: its attempt number was out of the schema's range,
    0 attempts read)."""
    log, moves = _export(tmp_path, {"player": "p-0123456789abcdef", "next": 2 ** 53, "attempts": []})
    attempts, problems = _read(log)
    assert not problems, [str(p) for p in problems]
    assert len(attempts) == 1
    report = tmp_path / "report"
    proc = subprocess.run([sys.executable, "-m", "lumina.playtest", str(log), "--packs", str(PACK),
                           "--out", str(report)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    data = json.loads((report / "playtest.json").read_text())
    assert data["attempts"] == 1 and data["left_out"]["attempts"] == 0, data["left_out"]


@pytest.mark.parametrize("field, value", [
    ("n", 2 ** 53), ("level", "../../etc"), ("board", "x\u2028y"), ("generator", "g" * 500),
    ("from", [[99, 1]]), ("events", [["move", 10 ** 20, 1, 1], ["move", 5, 99, 1], ["win", 5, 2, 9, 0]]),
])
def test_tampered_stored_attempts_export_readable(tmp_path, field, value):
    """Any stored attempt field out of the schema's range: the attempt is dropped or its
    record clamped (a pause of 10^20 ms is a day), never exported for the reader to refuse."""
    pack = read_pack(PACK)
    lv = pack.levels[1]
    stored = {"n": 1, "level": lv.id, "generator": pack.meta["generator"], "board": lv.desc(),
              "events": [["leave", 5]]}
    stored[field] = value
    log, _ = _export(tmp_path, {"player": "p-0123456789abcdef", "next": 2, "attempts": [stored]})
    attempts, problems = _read(log)
    assert not problems, [str(p) for p in problems]
    assert len(attempts) >= 1
