"""`python -m lumina.bench solver`: the compiled BFS against a plain-Python BFS.

Every board of a Rush Hour file (default: the rush sample) solved by `lumina.engine.solve`,
then by `lumina.bench.pybfs` on the same boards: CPU seconds, states per second, peak
memory, and the ratio on the same boards. Boards whose count disagrees with the
published MM are counted.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from lumina.bench import peak_rss_mb, rush_argument, rush_file
from lumina.bench.pybfs import solve_plain
from lumina.cli import int_in
from lumina.desc import from_rush_hour
from lumina.engine import solve
from lumina.solve import read_rush_file


def arguments(ap: argparse.ArgumentParser) -> None:
    rush_argument(ap)
    ap.add_argument("--python-boards", type=int_in(1, 100_000), default=None,
                    help="limit the plain-Python baseline to the first N boards")


def run(args: argparse.Namespace) -> int:
    return bench_solver(rush_file(args.rush), args.python_boards)


def bench_solver(rush: Path, python_boards: int | None) -> int:
    rows = read_rush_file(str(rush))
    levels = [from_rush_hour(b, id=f"rush-{i}") for i, (b, _, _) in enumerate(rows, 1)]
    rss0 = peak_rss_mb()
    per = []
    t0 = time.process_time()
    for lv in levels:
        t = time.process_time()
        s = solve(lv)
        per.append((s.states, time.process_time() - t, s.optimal))
    cy = time.process_time() - t0
    rss1 = peak_rss_mb()
    states = sum(p[0] for p in per)
    wrong = sum(1 for (b, mm, _), p in zip(rows, per) if mm is not None and p[2] != mm)
    print(f"boards                 {len(levels)}  ({wrong} disagree with the published MM)")
    print(f"cython BFS total       {cy:.3f} s   {states} states   {states / cy:,.0f} states/s")
    print(f"peak RSS               {rss1:.1f} MB (before: {rss0:.1f} MB)")
    big = sorted(per, key=lambda p: -p[0])
    for label, group in (("largest 10 boards", big[:10]),
                         ("median 50 boards", big[len(big) // 2 - 25:len(big) // 2 + 25])):
        st = sum(p[0] for p in group)
        sec = sum(p[1] for p in group)
        print(f"  {label:20s} {st / len(group):9.0f} states each  {st / sec:,.0f} states/s")
    n = len(levels) if python_boards is None else min(python_boards, len(levels))
    t0 = time.process_time()
    py_states = 0
    for lv, (b, mm, _) in zip(levels[:n], rows[:n]):
        opt, st = solve_plain(lv)
        py_states += st
        if mm is not None and opt != mm:
            print(f"plain BFS disagrees on {b}: {opt} != {mm}", file=sys.stderr)
    py = time.process_time() - t0
    cy_same = sum(p[1] for p in per[:n])
    print(f"plain-Python BFS       {py:.3f} s on {n} boards   {py_states / py:,.0f} states/s")
    print(f"ratio (same boards)    {py / cy_same:.1f}x faster compiled")
    return 0
