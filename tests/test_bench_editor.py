"""`python -m lumina.bench editor`: it runs, and prints the editor's figures.

The figures themselves are never asserted (timings live in the bench only); what is held
here is that the benchmark measures what it says: the committed levels with the highest
par and with the most positions, each line naming the level, the par and positions
measure.js found (which must be the pack's own), a JS and a Python time, and the
editor's 300 ms target. Bad flags and a machine without Node.js end in one line, exit 2.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from clihelp import Ran, run_cli
from lumina.packfile import read_pack
from lumina.verify import default_paths

ROOT = Path(__file__).resolve().parents[1]
LINE = re.compile(r"^  (?P<id>[\w.-]+) \((?P<pick>highest par|most positions): par (?P<par>\d+), "
                  r"(?P<states>[\d,]+) positions, deepest (?P<deepest>\d+|None)\): "
                  r"JS (?P<js>\d+) / (?P<jsmed>\d+) ms, Python (?P<py>\d+) / (?P<pymed>\d+) ms "
                  r"\((?P<ratio>[\d.]+)x\); target 300 ms$")


def _bench(*args: str, env: dict | None = None) -> Ran:
    """`python -m lumina.bench editor ARGS`, in this process (tests/clihelp.py)."""
    return run_cli("bench", "editor", *args, env=env)


def test_bench_editor_prints_its_figures_for_the_hardest_committed_levels():
    assert shutil.which("node"), "node is required for the editor's benchmark (it is on every CI machine)"
    proc = _bench("--runs", "1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    head, *rows = proc.stdout.splitlines()
    assert head.startswith("editor verdicts, measure.js under Node.js (best / median of 1 after 2 warm-up runs"), head
    found = [LINE.match(r) for r in rows]
    assert all(found) and len(found) in (1, 2), proc.stdout      # one row when one level is both
    levels = [lv for p in default_paths(ROOT / "packs") for lv in read_pack(p).levels]
    highest = max(levels, key=lambda lv: (lv.optimal or 0, lv.id))
    most = max(levels, key=lambda lv: (lv.analysis.component_states if lv.analysis else 0, lv.id))
    picks = {m["pick"]: m for m in found}
    assert set(picks) == ({"highest par", "most positions"} if highest.id != most.id else set(picks))
    by_id = {lv.id: lv for lv in levels}
    for m in found:
        lv = by_id[m["id"]]
        # measure.js's par and component are the pack's, proved by Python at generation
        assert int(m["par"]) == lv.optimal, m.group(0)
        assert int(m["states"].replace(",", "")) == lv.analysis.component_states, m.group(0)
        if lv.analysis.deepest is not None:
            assert m["deepest"] == str(lv.analysis.deepest), m.group(0)
    assert picks["highest par"]["id"] == highest.id
    assert picks.get("most positions", picks["highest par"])["id"] == most.id


def test_bench_editor_refuses_bad_runs_in_one_line():
    for runs in ("0", "1001", "x"):
        proc = _bench("--runs", runs)
        assert proc.returncode == 2, (runs, proc.stdout, proc.stderr)
        assert len(proc.stderr.strip().splitlines()) == 1 and "--runs" in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_bench_editor_without_node_is_one_line(tmp_path):
    proc = _bench("--runs", "1", env={"PATH": str(tmp_path)})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and "node" in err[0] and "Traceback" not in proc.stderr, proc.stderr
