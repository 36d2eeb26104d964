"""`python -m lumina.bench analyse`: `lumina.engine.measure` on every board of a Rush Hour file.

Total CPU seconds and states per second (and the share of it the chain search takes:
the same boards measured again with a chain budget of one step), boards whose optimal
count or component disagrees with the published MM or CLUSTER, and per published depth
MM: the boards, median and maximum plans, median and maximum raw optimal solutions,
one-plan boards. Then the chain calibration (docs/RULES-DECISIONS.md 34): chain / par
and forced / par percentiles per depth band, and the share of each band a chain-share
floor would keep. With `--ref DIR` (another checkout, engine built in place) the same
boards are measured there too: the speed-up over it, against this `measure()` with and
without the chain (a measure older engines did not take), and the answers both share
(par, component, plans, raw solutions) checked to be the same.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from lumina.bench import median, ref_argument, run_in_checkout, rush_argument, rush_file
from lumina.desc import from_rush_hour
from lumina.engine import measure
from lumina.judge import MIN_CHAIN_SHARE, MIN_CHAIN_SHARE_FROM
from lumina.solve import read_rush_file

BANDS = ((1, 9), (10, 19), (20, 29), (30, 45), (46, 99), (20, 45))
PERCENTILES = (5, 10, 25, 50, 75, 90)
FLOORS = (0.45, 0.50, 0.55, 0.59, 0.60, 0.65)


# Run in the --ref checkout (its own lumina): measure() on every board, CPU seconds and answers.
REF_MEASURE = """
import json, sys, time
from lumina.desc import from_rush_hour
from lumina.engine import measure
from lumina.solve import read_rush_file
rows = read_rush_file(json.load(sys.stdin))
levels = [from_rush_hour(b, id=f"rush-{i}") for i, (b, _, _) in enumerate(rows, 1)]
t = time.process_time()
got = [measure(lv, plan_cap=1_000_000, solution_cap=1_000_000) for lv in levels]
cpu = time.process_time() - t
print(json.dumps([cpu, [[m.optimal, m.component_states, m.plans, m.solutions] for m in got]]))
"""


def arguments(ap: argparse.ArgumentParser) -> None:
    rush_argument(ap)
    ref_argument(ap)


def run(args: argparse.Namespace) -> int:
    return bench_analyse(rush_file(args.rush), args.ref)


def bench_analyse(rush: Path, ref: Path | None = None) -> int:
    rows = read_rush_file(str(rush))
    levels = [from_rush_hour(b, id=f"rush-{i}") for i, (b, _, _) in enumerate(rows, 1)]
    t0 = time.process_time()
    got = [measure(lv, plan_cap=1_000_000, solution_cap=1_000_000) for lv in levels]
    cpu = time.process_time() - t0
    t0 = time.process_time()
    for lv in levels:
        measure(lv, plan_cap=1_000_000, solution_cap=1_000_000, chain_work=1)
    cpu_nochain = time.process_time() - t0
    states = sum(m.component_states for m in got)
    wrong = sum(1 for (_, mm, cl), m in zip(rows, got)
                if (mm is not None and m.optimal != mm) or (cl is not None and m.component_states != cl))
    print(f"boards                 {len(levels)}  ({wrong} disagree with MM or CLUSTER)")
    print(f"measure() total        {cpu:.3f} s CPU   {states} component states   "
          f"{states / max(cpu, 1e-9):,.0f} states/s")
    print(f"  of which the chain   {cpu - cpu_nochain:.3f} s CPU (measured again with a chain "
          f"budget of one step: {cpu_nochain:.3f} s)")
    print(f"plans capped           {sum(m.plans_capped for m in got)}   "
          f"raw solutions capped {sum(m.solutions_capped for m in got)} (cap 10^6)   "
          f"chains capped {sum(m.chain_capped for m in got)}")
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
    chain_calibration(got)
    if ref is not None:
        there, answers = run_in_checkout(ref, REF_MEASURE, str(rush.resolve()))
        same = sum(a == [m.optimal, m.component_states, m.plans, m.solutions] for a, m in zip(answers, got))
        print(f"measure() against {ref} on the same boards: there {there:.3f} s CPU; here {cpu:.3f} s "
              f"({there / max(cpu, 1e-9):.2f}x), {cpu_nochain:.3f} s with a one-step chain budget "
              f"({there / max(cpu_nochain, 1e-9):.2f}x); par, component, plans and raw solutions the same "
              f"on {same}/{len(got)} boards")
    return 0


def percentile(xs: list[float], p: int) -> float:
    """The p-th percentile of `xs` by linear interpolation (numpy's default)."""
    xs = sorted(xs)
    k = (len(xs) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def chain_calibration(got: list) -> None:
    """chain / par and forced / par percentiles per depth band, and the share of each
    band that each chain-share floor keeps (the calibration of judge.MIN_CHAIN_SHARE)."""
    solved = [m for m in got if m.optimal]
    print()
    print(f"chain / par by depth band (the judge's floor: {MIN_CHAIN_SHARE} from par "
          f"{MIN_CHAIN_SHARE_FROM})")
    print(f"{'pars':>7} {'boards':>6} " + " ".join(f"{'p' + str(p):>5}" for p in PERCENTILES)
          + f" {'min':>5} {'forced p50':>10}   kept by floor " + " ".join(f"{f:.2f}" for f in FLOORS))
    for lo, hi in BANDS:
        ms = [m for m in solved if lo <= m.optimal <= hi]
        if not ms:
            continue
        share = [m.chain / m.optimal for m in ms]
        forced = [m.forced / m.optimal for m in ms if m.forced is not None]
        kept = " ".join(f"{sum(x >= f for x in share) / len(share):4.0%}" for f in FLOORS)
        print(f"{lo:>3}-{hi:<3} {len(ms):>6} "
              + " ".join(f"{percentile(share, p):5.2f}" for p in PERCENTILES)
              + f" {min(share):5.2f} {median(forced):10.2f}   {' ' * 13} {kept}")
