"""The verifier against the committed packs and against corrupted copies of them."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lumina.verify import default_paths, verify_paths

ROOT = Path(__file__).resolve().parent.parent
PACKS = ROOT / "packs"


def run_verify(*paths) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lumina.verify", *map(str, paths)], cwd=ROOT,
                          capture_output=True, text=True)


def test_committed_packs_verify():
    report = verify_paths(default_paths(PACKS))
    assert report.ok, "\n".join(report.lines)
    by = {p["pack"]: p for p in report.packs}
    for n in range(1, 6):
        p = by[f"world-{n}"]
        assert p["levels"] == p["solvable"] == p["confirmed"] == 30
    assert by["dailies"]["levels"] == by["dailies"]["confirmed"] == 174
    assert all(g["reachable"] for g in report.gates.values()) and len(report.gates) == 5


def test_cli_prints_counts_and_histograms():
    proc = run_verify()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "World 1 (Willow Hollow): 30/30 solvable · 30/30 optimal counts confirmed" in proc.stdout
    assert proc.stdout.count("moves→levels") == 6


def _corrupt(tmp_path: Path, name: str, edit) -> Path:
    data = json.loads((PACKS / name).read_text())
    edit(data["levels"])
    out = tmp_path / name
    out.write_text(json.dumps(data))
    return out


def _beam_level(levels):
    return next(lv for lv in levels if lv.get("win") == "beam" and not lv.get("tutorial"))


def test_dropped_win_field_is_caught(tmp_path):
    lv = {}

    def edit(levels):
        lv.update(_beam_level(levels))
        target = _beam_level(levels)
        del target["win"]
    path = _corrupt(tmp_path, "world-5.json", edit)
    proc = run_verify(path)
    assert proc.returncode != 0
    assert lv["id"] in proc.stdout + proc.stderr


def test_optimal_off_by_one_is_caught(tmp_path):
    def edit(levels):
        levels[7]["optimal"] += 1
        levels[7]["solution"].append(levels[7]["solution"][-1])
    path = _corrupt(tmp_path, "world-2.json", edit)
    proc = run_verify(path)
    assert proc.returncode == 1
    assert "FAIL w2-08: stored optimal" in proc.stdout


def test_solution_that_no_longer_wins_is_caught(tmp_path):
    def edit(levels):
        b, d = levels[12]["solution"][-1]
        levels[12]["solution"][-1] = [b, -d]
    path = _corrupt(tmp_path, "world-3.json", edit)
    proc = run_verify(path)
    assert proc.returncode == 1
    assert "FAIL w3-13:" in proc.stdout


def test_truncated_file_is_exit_2_with_one_line(tmp_path):
    text = (PACKS / "world-1.json").read_text()
    path = tmp_path / "world-1.json"
    path.write_text(text[: len(text) // 2])
    proc = run_verify(path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "world-1.json" in proc.stderr


def test_tutorial_that_teaches_nothing_is_caught(tmp_path):
    # an ice tutorial where the ice only needs to nudge one cell
    def edit(levels):
        levels[0]["blocks"] = [{"kind": "ice", "x": 2, "y": 1, "w": 1, "h": 2},
                               {"kind": "key", "x": 0, "y": 1, "w": 2, "h": 1}]
        levels[0]["optimal"] = 2
        levels[0]["solution"] = [[0, 1], [1, 2]]
    path = _corrupt(tmp_path, "world-3.json", edit)
    proc = run_verify(path)
    assert proc.returncode == 1
    assert "FAIL w3-01: ice tutorial nudges the ice less than two cells" in proc.stdout
