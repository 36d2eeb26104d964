"""The engine's reused workspaces: a search never sees what an earlier one left behind.

Each kernel module keeps one visited table and one set of search arrays for the
whole process (lumina/engine/search.pxd): they are cleared when a search ends, the
next search starts at the size the last one needed, a search that left more than
64 MiB gives it all back, and a search running in another thread gets its own. Every
bug class this invites has a test here, each able to fail: a stale key left in the
table changes a later search's state count (or hides its win).
"""

from __future__ import annotations

import importlib
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import reference as R

import lumina.engine as E  # noqa: E402  (an unbuilt engine fails here, never skips)
from lumina.desc import from_rush_hour  # noqa: E402
from lumina.model import Level  # noqa: E402
from lumina.packfile import read_level_file  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
KEEP_BYTES = 64 << 20
ES = importlib.import_module("lumina.engine.solve")   # the module, not E.solve


def rush(n: int, step: int = 1) -> list[Level]:
    rows = [line.split() for line in (ROOT / "tests/data/rush-sample.txt").read_text().splitlines()
            if len(line.split()) == 3]
    return [from_rush_hour(b, id=f"rush-{i}") for i, (_, b, _) in enumerate(rows[::step][:n])]


def pack_levels() -> list[Level]:
    """Levels of every kind: crystal, sand, ice, rime, beam (one pack of each world)."""
    out = []
    for w in range(1, 6):
        out += read_level_file(ROOT / f"packs/world-{w}.json")[::6]
    return out


def everything(level: Level) -> tuple:
    """What every entry point says about one level, state counts included."""
    flat = E.crystal(level)
    goals = E.goal_sweep(flat, 10_000, 500_000) if E.Board(flat).variant != "any" else None
    return (E.solve(level), E.solve(level, state_cap=7), E.analyse(level), E.measure(level),
            E.component(level), E.exact_sweep(level, seed=3, min_depth=1),
            E.exact_sweep(level, state_cap=20), goals)


def test_variant_is_chosen_from_the_kinds_and_the_win():
    exit_level = rush(1)[0]
    assert E.Board(exit_level).variant == "exit"
    by_world = {w: {E.Board(lv).variant for lv in read_level_file(ROOT / f"packs/world-{w}.json")}
                for w in (1, 5)}
    assert by_world[1] == {"exit"}
    assert "beam" in by_world[5]
    twisted = [lv for w in (2, 3, 4) for lv in read_level_file(ROOT / f"packs/world-{w}.json")
               if any(b.kind in ("sand", "ice", "rime") for b in lv.blocks)]
    assert twisted and {E.Board(lv).variant for lv in twisted} == {"any"}


def test_searches_in_any_order_agree():
    levels = pack_levels() + rush(12, step=45)
    first = [everything(lv) for lv in levels]
    order = list(range(len(levels)))
    random.Random(18).shuffle(order)
    for i in order:
        assert everything(levels[i]) == first[i], levels[i].id
    for i in reversed(range(len(levels))):
        assert everything(levels[i]) == first[i], levels[i].id


@pytest.mark.parametrize("cap", [1, 2, 5, 40, 300])
def test_exhausted_search_leaves_no_stale_key(cap):
    """An exhausted search inserts one state it never queues; the next search on the
    same level must not find it already visited."""
    level = rush(1, step=1)[0] if cap < 5 else max(rush(40, step=14), key=lambda lv: E.solve(lv).states)
    full = E.solve(level)
    assert full.states > cap
    assert E.solve(level, state_cap=cap).outcome is E.Outcome.EXHAUSTED
    assert E.solve(level) == full
    with pytest.raises(ValueError):
        E.component(level, state_cap=cap)
    assert E.solve(level) == full


def test_goal_sweep_then_sweep_again():
    """goal_sweep reuses its queue for the goals it returns, so its table no longer
    matches its queue: the table must still be cleared."""
    for level in pack_levels()[:6]:
        flat = E.crystal(level)
        once = E.goal_sweep(flat, 10_000, 500_000)
        goals = once[0]
        back = E.backward_sweep(flat, goals, 1, 60, 500_000, 10**6, 7)
        assert E.goal_sweep(flat, 10_000, 500_000) == once
        assert E.backward_sweep(flat, goals, 1, 60, 500_000, 10**6, 7) == back


def test_threads_get_their_own_workspace():
    """Kernels release the GIL, so two threads may search at once: they must never
    share one table."""
    levels = rush(60, step=9) + pack_levels()
    alone = [(E.solve(lv), E.measure(lv)) for lv in levels]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            together = list(pool.map(lambda lv: (E.solve(lv), E.measure(lv)), levels))
            assert together == alone


def test_big_search_gives_its_memory_back():
    """A search that leaves a workspace above 64 MiB frees it; a small one keeps it."""
    small = rush(1)[0]
    E.solve(small)
    kept = ES.workspace_bytes()
    assert 0 < kept <= KEEP_BYTES
    big = Level.from_json(R.ascii_level("""
        AA......
        ........
        BB..CC..
        ........
        D.E.F.G.
        D.E.F.G.
        ........
        HH..II..
    """, exit=("right", 0)))
    assert E.component(big) == 1_066_346       # 17 MB of arrays, 64 MB of table at its peak
    assert ES.workspace_bytes() == 0
    E.solve(small)
    assert 0 < ES.workspace_bytes() <= KEEP_BYTES
    assert E.workspace_bytes() <= 4 * KEEP_BYTES
