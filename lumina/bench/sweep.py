"""`python -m lumina.bench sweep`: the exact sweep against the retired crystal sweep.

On the same phase-A layouts of 6x6 crystal, sand, ice, rime and beam buckets of the
campaign: CPU seconds of `lumina.engine.exact_sweep` and of the crystal sweep
(flatten, B1 goals, B2 backward), the ratio, states per second of each, how many
more states the exact sweep enumerates, the share of binding starts and the deepest
par. With `--ref DIR` (another checkout, engine built in place) the same layouts are swept
there too and the exact sweep's speed-up over it is printed per bucket, every sweep's
answer (counts, histogram, harvest) checked to be the same.
"""
from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from lumina.bench import ref_argument, run_in_checkout
from lumina.cli import int_in
from lumina.engine import backward_sweep, crystal, exact_sweep, goal_sweep
from lumina.gen.layouts import solved_layout
from lumina.model import Level
from lumina.worlds import WORLDS

SWEEP_BUCKETS = ("w1-b5", "w2-b5", "w3-b5", "w4-b4", "w4-b5", "w5-b4")


def arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--layouts", type=int_in(1, 100_000), default=20, help="layouts per bucket")
    ap.add_argument("--seed", type=int_in(0, 2**63 - 1), default=1, help="seed of the layouts (default: 1)")
    ref_argument(ap)


def run(args: argparse.Namespace) -> int:
    return bench_sweep(args.layouts, args.seed, args.ref)


# Run in the --ref checkout (its own lumina): exact_sweep on each level, CPU seconds and answer.
REF_SWEEP = """
import json, sys, time
from lumina.engine import exact_sweep
from lumina.model import Level
out = []
for data, seed in json.load(sys.stdin):
    lv = Level.from_json(data)
    t = time.process_time()
    ex = exact_sweep(lv, seed=seed)
    cpu = time.process_time() - t
    out.append([cpu, [ex.complete, ex.positions, ex.states, ex.work, ex.goals, ex.starts, ex.solvable,
                      ex.deepest, ex.deepest_binding, ex.binding, ex.traps, sorted(ex.histogram.items()),
                      sorted((p, [list(c) for c in cs]) for p, cs in ex.harvest.items())]])
print(json.dumps(out))
"""


def answer(ex) -> list:
    """What REF_SWEEP prints of a sweep, as JSON reads it back."""
    return json.loads(json.dumps(
        [ex.complete, ex.positions, ex.states, ex.work, ex.goals, ex.starts, ex.solvable, ex.deepest,
         ex.deepest_binding, ex.binding, ex.traps, sorted(ex.histogram.items()),
         sorted((p, [list(c) for c in cs]) for p, cs in ex.harvest.items())]))


def crystal_sweep(lv: Level, seed: int) -> int:
    """The retired crystal sweep (flatten, B1 goals, B2 backward): states swept."""
    flat = crystal(lv)
    goals, seen, _ = goal_sweep(flat, 10_000, 500_000)
    if not goals:
        return seen
    return seen + backward_sweep(flat, goals, 1, 60, 500_000, 10**6, seed)[1]


def bench_sweep(layouts: int, seed: int, ref: Path | None = None) -> int:
    buckets = {b.name: b for w in WORLDS for b in w.buckets}
    print(f"{'bucket':8} {'twists':14} {'n':>3} {'crystal s':>9} {'exact s':>9} {'ratio':>6} "
          f"{'crystal st/s':>13} {'exact st/s':>12} {'states x':>8} {'binding':>8} {'deepest':>8}")
    tot_c = tot_e = 0.0
    mine: dict[str, tuple[float, list, list]] = {}   # bucket -> (exact CPU s, levels, answers)
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
        answers = []
        for i, lv in enumerate(made):
            t = time.process_time()
            c_states += crystal_sweep(lv, seed + i)
            c_cpu += time.process_time() - t
            t = time.process_time()
            ex = exact_sweep(lv, seed=seed + i)
            e_cpu += time.process_time() - t
            answers.append(answer(ex))
            e_states += ex.states
            starts += ex.starts
            binding += ex.binding
            deepest = max(deepest, ex.deepest)
        tot_c += c_cpu
        tot_e += e_cpu
        mine[name] = (e_cpu, made, answers)
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
    if ref is not None:
        compare_ref(ref, seed, mine)
    return 0


def compare_ref(ref: Path, seed: int, mine: dict[str, tuple[float, list, list]]) -> None:
    """The exact sweep of the same layouts in the --ref checkout: speed-up and same answers."""
    print(f"exact sweep here against {ref} (same layouts, CPU seconds of exact_sweep alone):")
    here_all = there_all = 0.0
    differ = 0
    for name, (cpu, made, answers) in mine.items():
        got = run_in_checkout(ref, REF_SWEEP, [[lv.to_json(), seed + i] for i, lv in enumerate(made)])
        there = sum(g[0] for g in got)
        same = sum(g[1] == a for g, a in zip(got, answers))
        differ += len(made) - same
        here_all += cpu
        there_all += there
        print(f"  {name:8} here {cpu:.3f} s   there {there:.3f} s   speed-up {there / max(cpu, 1e-9):.2f}x   "
              f"same answers {same}/{len(made)}")
    print(f"  total    here {here_all:.3f} s   there {there_all:.3f} s   speed-up "
          f"{there_all / max(here_all, 1e-9):.2f}x   {differ} sweeps differ")
