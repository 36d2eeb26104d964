"""`python -m lumina.bench sweep`: the exact sweep against the retired crystal sweep.

On the same phase-A layouts of 6x6 crystal, sand, ice, rime and beam buckets of the
campaign: CPU seconds of `lumina.engine.exact_sweep` and of the crystal sweep
(flatten, B1 goals, B2 backward), the ratio, states per second of each, how many
more states the exact sweep enumerates, the share of binding starts and the deepest
par.
"""
from __future__ import annotations

import argparse
import random
import time

from lumina.cli import int_in
from lumina.engine import backward_sweep, crystal, exact_sweep, goal_sweep
from lumina.gen.layouts import solved_layout
from lumina.model import Level
from lumina.worlds import WORLDS

SWEEP_BUCKETS = ("w1-b5", "w2-b5", "w3-b5", "w4-b4", "w4-b5", "w5-b4")


def arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--layouts", type=int_in(1, 100_000), default=20, help="layouts per bucket")
    ap.add_argument("--seed", type=int_in(0, 2**63 - 1), default=1)


def run(args: argparse.Namespace) -> int:
    return bench_sweep(args.layouts, args.seed)


def crystal_sweep(lv: Level, seed: int) -> int:
    """The retired crystal sweep (flatten, B1 goals, B2 backward): states swept."""
    flat = crystal(lv)
    goals, seen, _ = goal_sweep(flat, 10_000, 500_000)
    if not goals:
        return seen
    return seen + backward_sweep(flat, goals, 1, 60, 500_000, 10**6, seed)[1]


def bench_sweep(layouts: int, seed: int) -> int:
    buckets = {b.name: b for w in WORLDS for b in w.buckets}
    print(f"{'bucket':8} {'twists':14} {'n':>3} {'crystal s':>9} {'exact s':>9} {'ratio':>6} "
          f"{'crystal st/s':>13} {'exact st/s':>12} {'states x':>8} {'binding':>8} {'deepest':>8}")
    tot_c = tot_e = 0.0
    for name in SWEEP_BUCKETS:
        bucket = buckets[name]
        rng = random.Random(f"{seed}:{name}")
        made = []
        for _ in range(20 * layouts):
            if len(made) == layouts:
                break
            lv = solved_layout(bucket, rng)
            if lv is not None:
                made.append(lv)
        c_cpu = e_cpu = 0.0
        c_states = e_states = 0
        starts = binding = deepest = 0
        for i, lv in enumerate(made):
            t = time.process_time()
            c_states += crystal_sweep(lv, seed + i)
            c_cpu += time.process_time() - t
            t = time.process_time()
            ex = exact_sweep(lv, seed=seed + i)
            e_cpu += time.process_time() - t
            e_states += ex.states
            starts += ex.starts
            binding += ex.binding
            deepest = max(deepest, ex.deepest)
        tot_c += c_cpu
        tot_e += e_cpu
        twists = ",".join(f"{k}{v}" for k, v in sorted(bucket.twists.items())) or "crystal"
        twists += "+beam" if bucket.beam else ""
        print(f"{name:8} {twists:14} {len(made):>3} {c_cpu:>9.3f} {e_cpu:>9.3f} "
              f"{e_cpu / max(c_cpu, 1e-9):>5.2f}x {c_states / max(c_cpu, 1e-9):>13,.0f} "
              f"{e_states / max(e_cpu, 1e-9):>12,.0f} {e_states / max(c_states, 1):>8.2f} "
              f"{binding / max(starts, 1):>7.1%} {deepest:>8}")
    print(f"total    crystal {tot_c:.3f} s   exact {tot_e:.3f} s   ratio "
          f"{tot_e / max(tot_c, 1e-9):.2f}x")
    print("(states x = exact-sweep states / crystal-sweep states; binding = share of starts "
          "whose real par exceeds their crystal par)")
    return 0
