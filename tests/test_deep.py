"""The deep layout search (lumina.gen.search): deterministic, within budget, exact, binding.

Small grids and tiny budgets so the file runs in seconds; figures on 6x6 are printed
by `python -m lumina.bench deep`, never asserted here.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lumina.bench.deep import bench_spec
from lumina.gen.search import DeepSpec, Tuning, deepest_levels, random_layout, search
from lumina.engine import Board, crystal, exact_sweep, solve
from lumina.model import Level
from lumina.worlds import Bucket

ROOT = Path(__file__).resolve().parent.parent
CRYSTAL_5 = DeepSpec(5, 5, blockers=(4, 9))
SAND_5 = DeepSpec(5, 5, blockers=(4, 8), twists={"sand": 1})
ICE_RIME_5 = DeepSpec(5, 5, blockers=(4, 8), twists={"ice": 1, "rime": 1}, walls=(0, 1))
BEAM_5 = DeepSpec(5, 5, blockers=(3, 6), beam=True, mirrors=(1, 2))


def _solved(lv: Level) -> bool:
    board = Board(lv)
    return board.is_solved(board.start)


def test_same_seed_same_layout_and_trace():
    a = search(CRYSTAL_5, 7, target=99, budget_sweeps=60)
    b = search(CRYSTAL_5, 7, target=99, budget_sweeps=60)
    assert a.layout == b.layout
    assert a.trace == b.trace
    assert (a.deepest, a.sweeps, a.work) == (b.deepest, b.sweeps, b.work)
    assert a.sweep.harvest == b.sweep.harvest
    c = search(CRYSTAL_5, 8, target=99, budget_sweeps=60)
    assert c.layout != a.layout          # the seed matters


def test_budget_counts_every_sweep():
    for budget in (1, 2, 25):
        r = search(CRYSTAL_5, 3, target=99, budget_sweeps=budget)
        assert r.sweeps == budget        # target out of reach: the whole budget, no more
        assert r.reached_at_sweep is None
    with pytest.raises(ValueError):
        search(CRYSTAL_5, 3, target=9, budget_sweeps=0)


def test_stops_once_target_reached():
    r = search(CRYSTAL_5, 2, target=4, budget_sweeps=500)
    assert r.reached_at_sweep is not None
    assert r.deepest >= 4
    assert r.sweeps == r.reached_at_sweep + 1      # plus the harvesting sweep
    assert r.trace[-1] == (r.reached_at_sweep, r.trace[-1][1]) and r.trace[-1][1] >= 4
    depths = [d for _, d in r.trace]
    assert depths == sorted(set(depths))           # the trace records improvements only


def test_search_climbs_above_its_start():
    start = random_layout(CRYSTAL_5, __import__("random").Random(11))
    first = exact_sweep(start, per_depth=0).deepest
    r = search(CRYSTAL_5, 11, target=99, budget_sweeps=300, start=start)
    assert r.deepest >= first + 3


def test_deepest_is_the_solvers_par():
    r = search(CRYSTAL_5, 5, target=99, budget_sweeps=150)
    levels = deepest_levels(r, 3, 1, "t")
    assert levels and levels[0].optimal == r.deepest
    for lv in levels:
        fresh = solve(lv.replace(optimal=None, solution=None))
        assert fresh.optimal == lv.optimal
        assert len(lv.solution) == lv.optimal
    assert [lv.id for lv in levels] == ["t-01", "t-02", "t-03"][:len(levels)]
    assert [lv.optimal for lv in levels] == sorted((lv.optimal for lv in levels), reverse=True)


def _twists(lv: Level) -> dict[str, int]:
    out: dict[str, int] = {}
    for b in lv.blocks:
        if b.kind not in ("key", "crystal"):
            out[b.kind] = out.get(b.kind, 0) + 1
    return out


@pytest.mark.parametrize("spec", [SAND_5, ICE_RIME_5], ids=["sand", "ice+rime"])
def test_twist_results_bind(spec):
    found = []
    for seed in range(4):          # a binding layout is rare at random; the search finds one
        r = search(spec, seed, target=99, budget_sweeps=400)
        assert r.binding
        assert _twists(r.layout) == spec.twists     # the spec's twist counts are kept
        assert r.deepest == r.sweep.deepest_binding
        if r.deepest:
            found.append(r)
    assert found
    r = found[0]
    levels = deepest_levels(r, 4, 1, "b")
    assert levels
    assert levels[0].optimal == r.deepest
    for lv in levels:
        assert lv.optimal > solve(crystal(lv)).optimal      # every twist level binds


def test_layouts_are_valid_and_solved():
    for spec in (CRYSTAL_5, SAND_5, ICE_RIME_5, BEAM_5, DeepSpec(4, 4, blockers=(2, 5))):
        r = search(spec, 1, target=99, budget_sweeps=40)
        lv = r.layout
        assert Level.from_json(json.loads(json.dumps(lv.to_json()))) == lv
        assert _solved(lv)
        assert spec.blockers[0] <= len(lv.blocks) - 1 <= spec.blockers[1]
        assert spec.walls[0] <= len(lv.walls) <= spec.walls[1]
        assert (lv.win == "beam") == spec.beam
        if spec.beam:
            assert spec.mirrors[0] <= len(lv.mirrors) <= spec.mirrors[1]


def test_beam_search_finds_levels():
    r = search(BEAM_5, 2, target=99, budget_sweeps=80)
    levels = deepest_levels(r, 2, 1, "beam")
    assert levels and all(lv.win == "beam" and lv.optimal >= 1 for lv in levels)
    assert levels[0].optimal == r.deepest


def test_accepts_a_bucket():
    bucket = Bucket(name="t", width=5, height=5, band=(6, 9), levels=3, blockers=(4, 8),
                    twists={"sand": 1}, walls=(0, 1))
    a = search(bucket, 9, target=99, budget_sweeps=30)
    b = search(DeepSpec(5, 5, blockers=(4, 8), twists={"sand": 1}, walls=(0, 1)), 9,
               target=99, budget_sweeps=30)
    assert a.layout == b.layout and a.trace == b.trace


def test_start_layout_is_used():
    start = random_layout(CRYSTAL_5, __import__("random").Random(3))
    r = search(CRYSTAL_5, 1, target=99, budget_sweeps=2, start=start)
    assert r.trace[0] == (1, exact_sweep(start, per_depth=0).deepest)
    assert r.layout.exit == start.exit and r.layout.key == start.key


def test_bad_spec_is_a_value_error():
    with pytest.raises(ValueError):
        search(DeepSpec(5, 5, blockers=(1, 2), twists={"sand": 3}), 1, target=5, budget_sweeps=5)
    with pytest.raises(ValueError):
        search(DeepSpec(5, 5, blockers=(2, 4), twists={"lava": 1}), 1, target=5, budget_sweeps=5)


def test_tuning_changes_the_path_not_the_rules():
    r = search(CRYSTAL_5, 6, target=99, budget_sweeps=50, tuning=Tuning(tie="tight", walk=0.0))
    assert _solved(r.layout) and r.sweeps == 50


def _bench(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "lumina.bench", "deep", *args],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


def test_bench_deep_smoke(tmp_path):
    out = tmp_path / "deep.jsonl"
    p = _bench("--target", "6", "--seeds", "2", "--size", "5x5", "--budget", "400",
               "--out", str(out))
    assert p.returncode == 0, p.stderr
    last = p.stdout.strip().splitlines()[-1]
    m = re.fullmatch(r"deep search: reached (\d+)/2 seeds at >= 6 moves; "
                     r"median CPU s to reach: (\d+\.\d|inf)", last)
    assert m, last
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 2
    for row in rows:
        lv = Level.from_json(row)
        assert lv.optimal == solve(lv.replace(optimal=None, solution=None)).optimal
    assert int(m[1]) == sum(1 for row in rows if row["optimal"] >= 6)


def test_bench_deep_beam_searches_beam_layouts(tmp_path):
    """`bench deep --beam` measures World 5's finale search (issue 17: 45 on 4 of 5)."""
    out = tmp_path / "deep.jsonl"
    p = _bench("--target", "5", "--seeds", "1", "--size", "5x5", "--budget", "300",
               "--beam", "--out", str(out))
    assert p.returncode == 0, p.stderr
    assert "5x5 beam (mirrors 1-3)" in p.stdout.splitlines()[0]
    rows = [Level.from_json(json.loads(line)) for line in out.read_text().splitlines()]
    assert rows and all(lv.win == "beam" and lv.mirrors for lv in rows)


@pytest.mark.parametrize("args", [["--target", "0"], ["--target", "5", "--seeds", "x"],
                                  ["--target", "5", "--size", "9x9"], ["--seeds", "2"]])
def test_bench_deep_bad_flags_exit_2(args):
    p = _bench(*args)
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr


def test_bench_spec_sizes():
    assert bench_spec(6, 6).blockers == (7, 14)
    assert bench_spec(4, 4).blockers[1] <= 15


def test_restarts_keep_the_best_and_stay_deterministic():
    tuning = Tuning(stall=15)                 # many fresh restarts within the budget
    a = search(CRYSTAL_5, 12, target=99, budget_sweeps=120, tuning=tuning)
    b = search(CRYSTAL_5, 12, target=99, budget_sweeps=120, tuning=tuning)
    assert a.layout == b.layout and a.trace == b.trace and a.sweeps == 120
    assert a.deepest == max(d for _, d in a.trace) == a.sweep.deepest
    assert _solved(a.layout)


# ---------------------------------------------------------------------------
# Aiming (issue 17): a level starts at its board's deepest, so a search aims the
# board's deepest at its target, and scores a twist board's margin with its depth.

def test_aim_folds_a_board_deeper_than_its_target():
    """A level cannot be cut from a deeper board (RULES.md "The hardest start"): a
    board two moves too deep is as far from an exact aim as one two moves short."""
    from lumina.gen.search import Aim
    aim = Aim(target=20, exact=True)
    assert aim.depth(18) == aim.depth(22) == 18 and aim.depth(20) == 20
    assert Aim(target=20).depth(22) == 22


def test_aimed_search_stops_only_on_a_board_whose_deepest_is_the_target():
    for seed in (1, 2, 3):
        r = search(CRYSTAL_5, seed, target=6, budget_sweeps=400, exact=True)
        if r.reached_at_sweep is not None:
            assert r.deepest == 6 == exact_sweep(r.layout, per_depth=0).deepest
            return
    raise AssertionError("no aimed search reached 6 on a 5x5 board in 400 sweeps")


def test_margin_under_the_floor_costs_more_than_a_move_of_depth():
    """The twist-margin objective: with an aim's floor of 3, a board one move shallower
    but on the floor beats one at the target with margin 1, and margin above the floor
    breaks ties between boards of one depth."""
    from types import SimpleNamespace

    from lumina.gen.search import Aim, _score
    aim = Aim(target=20, exact=True, margin=3)

    def sw(d, m):
        return SimpleNamespace(deepest=d, deepest_binding=d, deepest_margin=m, binding=1,
                               histogram={}, positions=100)
    assert _score(sw(19, 3), True, "none", aim) > _score(sw(20, 1), True, "none", aim)
    assert _score(sw(20, 6), True, "none", aim) > _score(sw(20, 3), True, "none", aim)
    assert _score(sw(21, 7), True, "none", aim) < _score(sw(20, 3), True, "none", aim)
    assert aim.hit(sw(20, 3), True) and not aim.hit(sw(20, 2), True)
    assert not aim.hit(sw(21, 5), True)


def test_twist_search_with_a_margin_floor_returns_its_margin():
    r = search(SAND_5, 4, target=7, budget_sweeps=600, exact=True, margin=2)
    if r.reached_at_sweep is not None:
        sw = exact_sweep(r.layout, per_depth=0)
        assert sw.deepest_binding == 7 and sw.deepest_margin >= 2


def test_light_mutation_keeps_beam_layouts_solved_and_moves_the_lantern():
    """Beam searches retrace the light through new mirrors (issue 17: the finale is
    beam); every layout they score is still solved, and runs reach new lanterns."""
    import random as _random

    from lumina.gen.layouts import _frame_of
    from lumina.gen.search import _level, _m_light
    start = random_layout(BEAM_5, _random.Random(3))
    frame = _frame_of(start, BEAM_5)
    blockers = [b for b in start.blocks if b.kind != "key"]
    exits = set()
    rng = _random.Random(5)
    for _ in range(60):
        got = _m_light(rng, frame, blockers, list(start.walls))
        if got is None:
            continue
        lv = _level(got[2], got[0], got[1])
        if lv is not None:
            assert _solved(lv)
            exits.add((lv.exit.side, lv.exit.index))
    assert len(exits) >= 2
    assert _m_light(rng, _frame_of(random_layout(CRYSTAL_5, _random.Random(1)), CRYSTAL_5),
                    [], []) is None
