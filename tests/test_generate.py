"""The generator: reproducible packs, curves without holes, tutorials that teach."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from lumina import Outcome
from lumina.engine import solve
from lumina.engine import Board
from lumina.generate import (candidate_from_state, flatten, generate_bucket, harvest_shift,
                             multi_source_sweep, solved_layout)
from lumina.packfile import read_pack
from lumina.worlds import DAILY_POOL, WORLDS, Bucket, daily_id, daily_index, world

ROOT = Path(__file__).resolve().parent.parent
PACKS = ROOT / "packs"


def _gen(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lumina.generate", "--out", str(tmp), *args],
                          cwd=ROOT, capture_output=True, text=True)


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_regenerating_reproduces_committed_packs_byte_for_byte(tmp_path, workers):
    worlds = ["1", "4"] if workers == "1" else ["1", "2", "3", "4", "5"]
    args = [a for n in worlds for a in ("--world", n)]
    proc = _gen(tmp_path, *args, "--workers", workers)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for n in worlds:
        for name in (f"world-{n}.json", f"report-world-{n}.json"):
            assert (tmp_path / name).read_bytes() == (PACKS / name).read_bytes(), name
    assert "rejected:" in proc.stdout          # rejection counts printed per bucket


@pytest.mark.slow
def test_regenerating_the_daily_pool_reproduces_it(tmp_path):
    proc = _gen(tmp_path, "--dailies", "--workers", "2")
    assert proc.returncode == 0, proc.stderr[-2000:]
    for name in ("dailies.json", "report-dailies.json"):
        assert (tmp_path / name).read_bytes() == (PACKS / name).read_bytes(), name
    assert not (tmp_path / "world-1.json").exists()   # the pool never re-searches the campaign


def test_packs_record_seed_and_version():
    for w in WORLDS:
        meta = read_pack(PACKS / f"world-{w.number}.json").meta
        assert meta["seed"] == w.seed and meta["generator"].startswith("lumina-gen/")
        assert meta["name"] == w.name and meta["mechanic"] == w.mechanic
    assert len(read_pack(PACKS / "dailies.json").levels) == DAILY_POOL


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5])
def test_curve_rises_without_holes(number):
    levels = [lv for lv in read_pack(PACKS / f"world-{number}.json").levels if not lv.tutorial]
    counts = [lv.optimal for lv in levels]
    best = 0
    for c in counts:
        assert c >= best - 2, counts           # small dips only
        best = max(best, c)
    distinct = sorted(set(counts))
    assert all(b - a <= 2 for a, b in zip(distinct, distinct[1:])), distinct
    assert sum(counts[-5:]) > sum(counts[:5])  # it really rises
    sizes = [lv.width * lv.height for lv in levels]
    assert sizes == sorted(sizes) and sizes[0] == 16 and sizes[-1] == 36


def test_campaign_rises_across_worlds():
    tops = [max(lv.optimal for lv in read_pack(PACKS / f"world-{n}.json").levels) for n in range(1, 5)]
    assert tops == sorted(tops)


def test_every_level_has_proof_and_analysis():
    for path in sorted(PACKS.glob("world-*.json")) + [PACKS / "dailies.json"]:
        for lv in read_pack(path).levels:
            assert lv.optimal is not None and len(lv.solution) == lv.optimal
            assert lv.analysis is not None and lv.analysis.family


@pytest.mark.parametrize("number,kind", [(1, "crystal"), (2, "sand"), (3, "ice"), (4, "rime")])
def test_tutorial_optimal_solution_uses_its_mechanic(number, kind):
    tut = world(number).tutorial
    sol = solve(tut)
    assert sol.outcome is Outcome.SOLVED and sol.optimal <= 4
    moved = [(tut.blocks[b].kind, d) for b, d in sol.moves]
    assert any(k == kind for k, _ in moved)
    if kind == "ice":
        assert all(abs(d) >= 2 for k, d in moved if k == "ice")
    # the twist is needed: turn its block into a wall and the level gets harder or impossible
    if kind != "crystal":
        i = next(i for i, b in enumerate(tut.blocks) if b.kind == kind)
        walls = tuple(tut.walls) + tuple(tut.blocks[i].cells())
        blocked = tut.replace(blocks=tut.blocks[:i] + tut.blocks[i + 1:], walls=walls)
        s2 = solve(blocked)
        assert s2.outcome is Outcome.UNSOLVABLE or s2.optimal > sol.optimal


def test_beam_tutorial_bends_the_light():
    tut = world(5).tutorial
    board = Board(tut)
    s = board.start
    for mv in solve(tut).moves:
        s = board.apply(s, mv)
    lit, cells = board.beam(s)
    assert lit and (tut.mirrors[0].x, tut.mirrors[0].y) in cells


def test_phase_a_layouts_are_solved_and_multi_source_depth_is_exact():
    bucket = world(1).buckets[3]
    checked = 0
    for i in range(40):
        layout = solved_layout(bucket, random.Random(i))
        if layout is None:
            continue
        board = Board(layout)
        assert board.is_solved(board.start)
        sweep = multi_source_sweep(flatten(layout), 3, 6, seed=i)
        for depth, states in sorted(sweep.harvest.items()):
            for st in states[:3]:
                cand = candidate_from_state(layout, board, st, "c")
                assert solve(cand).optimal == depth   # crystal only: the sweep depth is exact
                checked += 1
    assert checked > 20


def test_harvest_shift_sign():
    b = Bucket(name="t", width=6, height=6, band=(5, 6), levels=1, blockers=(6, 6),
               twists={"sand": 1, "ice": 1, "rime": 1})
    layout = next(l for i in range(50) if (l := solved_layout(b, random.Random(i))))
    assert harvest_shift(layout) == 1


def test_bucket_is_deterministic_and_counts_rejections():
    b = world(1).buckets[0]
    r1, r2 = generate_bucket(b, 9), generate_bucket(b, 9)
    assert [lv.desc() for lv in r1.levels] == [lv.desc() for lv in r2.levels]
    assert r1.report == r2.report and r1.report["accepted"] == b.levels
    assert sum(r1.report["rejections"].values()) > 0


def test_daily_rule():
    import datetime as dt
    assert daily_index(dt.date(1970, 1, 1)) == 0
    assert daily_index(dt.date(1970, 1, 1) + dt.timedelta(days=174)) == 0
    assert daily_id(dt.date(2026, 12, 2)) == f"d-{(dt.date(2026, 12, 2) - dt.date(1970, 1, 1)).days % 174 + 1:03d}"
