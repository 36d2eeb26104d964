"""`python -m lumina.bench analyse`: `lumina.engine.measure` on every board of a Rush Hour file.

Total CPU seconds and states per second, boards whose optimal count or component
disagrees with the published MM or CLUSTER, and per published depth MM: the boards,
median and maximum plans, median and maximum raw optimal solutions, one-plan boards.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from lumina.bench import median, rush_argument, rush_file
from lumina.desc import from_rush_hour
from lumina.engine import measure
from lumina.solve import read_rush_file


def arguments(ap: argparse.ArgumentParser) -> None:
    rush_argument(ap)


def run(args: argparse.Namespace) -> int:
    return bench_analyse(rush_file(args.rush))


def bench_analyse(rush: Path) -> int:
    rows = read_rush_file(str(rush))
    levels = [from_rush_hour(b, id=f"rush-{i}") for i, (b, _, _) in enumerate(rows, 1)]
    t0 = time.process_time()
    got = [measure(lv, plan_cap=1_000_000, solution_cap=1_000_000) for lv in levels]
    cpu = time.process_time() - t0
    states = sum(m.component_states for m in got)
    wrong = sum(1 for (_, mm, cl), m in zip(rows, got)
                if (mm is not None and m.optimal != mm) or (cl is not None and m.component_states != cl))
    print(f"boards                 {len(levels)}  ({wrong} disagree with MM or CLUSTER)")
    print(f"measure() total        {cpu:.3f} s CPU   {states} component states   "
          f"{states / max(cpu, 1e-9):,.0f} states/s")
    print(f"plans capped           {sum(m.plans_capped for m in got)}   "
          f"raw solutions capped {sum(m.solutions_capped for m in got)} (cap 10^6)")
    by: dict[int, list] = {}
    for m in got:
        by.setdefault(m.optimal if m.optimal is not None else -1, []).append(m)
    print(f"{'MM':>4} {'boards':>6} {'plans med':>10} {'plans max':>10} {'raw med':>12} "
          f"{'raw max':>12} {'1 plan':>7}")
    for mm in sorted(by):
        ms = by[mm]
        plans = [m.plans for m in ms]
        raw = [m.solutions for m in ms]
        capped = "+" if any(m.solutions_capped for m in ms) else ""
        print(f"{mm:>4} {len(ms):>6} {median(plans):>10g} {max(plans):>10} "
              f"{median(raw):>12g} {max(raw):>11}{capped or ' '} "
              f"{sum(p == 1 for p in plans):>7}")
    return 0
