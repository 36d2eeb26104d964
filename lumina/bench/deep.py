"""`python -m lumina.bench deep`: the deep layout search (`lumina.gen.search.search`) per seed.

On a crystal layout of `--size` (blockers from a fifth to two fifths of the cells; with
`--beam`, a beam layout with 1 to 3 mirrors, as World 5's finale is searched), one
search per seed aimed at `--target` moves within `--budget` sweeps: the deepest par
reached (and the solver's word on it), the sweep and CPU seconds (this process) at
which the target was reached, and the median over seeds; with `--out`, the deepest
level of each seed as JSON lines, re-solved.
"""
from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path

from lumina.bench import median
from lumina.cli import int_in
from lumina.gen.search import DeepSpec, deepest_levels, search
from lumina.engine import keep_freed_memory
from lumina.model import MAX_MOVABLE
from lumina.safeio import atomic_write, check_output

BENCH_BUDGET = 20_000            # sweeps per seed


def bench_spec(width: int, height: int) -> DeepSpec:
    """A crystal spec for a WxH grid: blockers from a fifth to two fifths of the cells
    (6x6: 7 to 14, where classic 40-50-move Rush Hour boards live), no walls."""
    cells = width * height
    return DeepSpec(width, height, blockers=(max(1, cells // 5), min(MAX_MOVABLE - 1, cells * 2 // 5)))


def beam_spec(width: int, height: int) -> DeepSpec:
    """The beam spec of World 5's finale on a WxH grid: blockers as `bench_spec`'s but
    at most 13, 1 to 3 mirrors."""
    lo, hi = bench_spec(width, height).blockers
    return DeepSpec(width, height, blockers=(lo, min(hi, 13)), beam=True, mirrors=(1, 3))


def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"([4-8])x([4-8])", text.strip(), re.ASCII)
    if not m:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not WxH with sides 4..8")
    return int(m[1]), int(m[2])


def arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--target", type=int_in(1, 200), required=True, help="the par to look for (1..200)")
    ap.add_argument("--seeds", type=int_in(1, 1000), default=5, help="searches to run, one per seed (default: 5)")
    ap.add_argument("--size", type=_size, default=(6, 6), help="WxH (default 6x6)")
    ap.add_argument("--budget", type=int_in(1, 10**7), default=BENCH_BUDGET,
                    help=f"sweeps per seed (default {BENCH_BUDGET})")
    ap.add_argument("--out", type=Path, default=None, help="write the found levels as JSON lines")
    ap.add_argument("--beam", action="store_true",
                    help="beam layouts with 1-3 mirrors (World 5's finale) instead of crystal")


def run(args: argparse.Namespace) -> int:
    return bench_deep(args.target, args.seeds, args.size, args.budget, args.out, args.beam)


def bench_deep(target: int, seeds: int, size: tuple[int, int], budget: int,
               out: Path | None, beam: bool = False) -> int:
    if out is not None:
        out = check_output(out)         # before any work
    keep_freed_memory()                 # as the generator's jobs do
    spec = beam_spec(*size) if beam else bench_spec(*size)
    kind = "beam (mirrors 1-3)" if beam else "crystal"
    print(f"deep search: {size[0]}x{size[1]} {kind}, blockers {spec.blockers[0]}-"
          f"{spec.blockers[1]}, target {target}, budget {budget} sweeps per seed")
    times: list[float] = []
    lines: list[str] = []
    for seed in range(1, seeds + 1):
        t0 = time.process_time()
        r = search(spec, seed, target=target, budget_sweeps=budget)
        cpu = time.process_time() - t0
        hit = r.reached_at_sweep is not None
        times.append(cpu if hit else float("inf"))
        found = deepest_levels(r, 1, 1, f"deep-{size[0]}x{size[1]}-s{seed}")
        par = found[0].optimal if found else 0
        lines += [json.dumps(lv.to_json(), separators=(",", ":")) for lv in found]
        reach = f"reached {target} at sweep {r.reached_at_sweep}" if hit else f"missed {target}"
        print(f"seed {seed}: deepest {r.deepest} (solver: {par}); {reach}; {r.sweeps} sweeps, "
              f"{r.work:,} states; {cpu:.1f} CPU s" + (" to reach" if hit else ""), flush=True)
    if out is not None:
        atomic_write(out, "".join(line + "\n" for line in lines))
    reached = sum(t != float("inf") for t in times)
    med = median(times)
    shown = f"{med:.1f}" if med != float("inf") else "inf"
    print(f"deep search: reached {reached}/{seeds} seeds at >= {target} moves; "
          f"median CPU s to reach: {shown}")
    return 0
