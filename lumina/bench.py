"""`python -m lumina.bench {solver,generate,...,cluster,deep}`: timings as printed
figures, never pass/fail. Ratios are measured side by side in one run, in CPU
seconds of this process (the machine is shared, so wall time is noisier).

    python -m lumina.bench solver      Cython BFS vs plain-Python BFS on rush-sample.txt
    python -m lumina.bench generate    full regeneration of the packs into a temp dir
    python -m lumina.bench strategies  the three generation strategies side by side
    python -m lumina.bench site        the static site build
    python -m lumina.bench analyse     measure() on every rush-sample board: time, plans by depth
    python -m lumina.bench sweep       exact sweep vs crystal sweep on the same 6x6 layouts
    python -m lumina.bench cluster     a daily pool on the local pool vs a local Dask cluster
    python -m lumina.bench deep        deep layout search (lumina.gen.search) to --target moves per seed
"""
from __future__ import annotations

import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

from lumina.cli import ArgumentParser, UsageError, int_in, run

_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_RUSH = next((p for p in (_ROOT.parent / "shared" / "reference" / "rush-sample.txt",
                                 _ROOT / "tests" / "data" / "rush-sample.txt") if p.exists()),
                    _ROOT / "tests" / "data" / "rush-sample.txt")


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_solver(rush: Path, python_boards: int | None) -> int:
    from lumina.desc import from_rush_hour
    from lumina.engine import solve
    from lumina.pybfs import solve_plain
    from lumina.solve import read_rush_file

    rows = read_rush_file(str(rush))
    levels = [from_rush_hour(b, id=f"rush-{i}") for i, (b, _, _) in enumerate(rows, 1)]
    rss0 = _peak_rss_mb()
    per = []
    t0 = time.process_time()
    for lv in levels:
        t = time.process_time()
        s = solve(lv)
        per.append((s.states, time.process_time() - t, s.optimal))
    cy = time.process_time() - t0
    rss1 = _peak_rss_mb()
    states = sum(p[0] for p in per)
    wrong = sum(1 for (b, mm, _), p in zip(rows, per) if mm is not None and p[2] != mm)
    print(f"boards                 {len(levels)}  ({wrong} disagree with the published MM)")
    print(f"cython BFS total       {cy:.3f} s   {states} states   {states / cy:,.0f} states/s")
    print(f"peak RSS               {rss1:.1f} MB (before: {rss0:.1f} MB)")
    big = sorted(per, key=lambda p: -p[0])
    for label, group in (("largest 10 boards", big[:10]), ("median 50 boards", big[len(big) // 2 - 25:len(big) // 2 + 25])):
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


def _median(xs: Sequence[int]) -> float:
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def bench_analyse(rush: Path) -> int:
    """measure() on every board of a Rush Hour file: total CPU time, and per published
    depth MM the boards, median and max plans, median raw optimal solutions."""
    from lumina.desc import from_rush_hour
    from lumina.engine import measure
    from lumina.solve import read_rush_file

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
        print(f"{mm:>4} {len(ms):>6} {_median(plans):>10g} {max(plans):>10} "
              f"{_median(raw):>12g} {max(raw):>11}{capped or ' '} "
              f"{sum(p == 1 for p in plans):>7}")
    return 0


SWEEP_BUCKETS = ("w1-b5", "w2-b5", "w3-b5", "w4-b4", "w4-b5", "w5-b4")


def bench_sweep(layouts: int, seed: int) -> int:
    """The exact sweep against the crystal sweep (goal_sweep + backward_sweep on the
    flattened layout) on the same 6x6 phase-A layouts of crystal, sand, ice and rime
    buckets: CPU seconds of each, the ratio and states/s."""
    import random

    from lumina.engine import exact_sweep
    from lumina.engine import backward_sweep, crystal, goal_sweep
    from lumina.gen.layouts import solved_layout

    def crystal_sweep(lv, seed):
        """The retired crystal sweep (flatten, B1 goals, B2 backward): states swept."""
        flat = crystal(lv)
        goals, seen, _ = goal_sweep(flat, 10_000, 500_000)
        if not goals:
            return seen
        return seen + backward_sweep(flat, goals, 1, 60, 500_000, 10**6, seed)[1]
    from lumina.worlds import WORLDS

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


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


# Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536, which also freezes
# glibc's mmap threshold: every large sweep array is mmap'd and faulted in afresh
# (measured: twice the page faults and system time of one bucket); the worker's
# sampling profiler walks the running task's stack every 10 ms. Both off:
TUNED_WORKERS = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
                 "distributed.worker.profile.enabled": False}


def bench_cluster(pool: int, workers: int, tuned: bool = True, packs: Path = Path("packs")
                  ) -> int:
    """`--dailies --pool N` three times in one run: on the local process pool of
    `workers` processes, then on a local Dask cluster of as many single-thread worker
    processes (the same cores) with Dask's defaults, then (unless `tuned` is False)
    with TUNED_WORKERS. A pool is judged against the five worlds, so each run's
    folder gets a copy of the world packs in `packs` first. Prints
    wall and CPU seconds of each (CPU: this process plus its pool children, or plus
    the cluster's worker processes), the ratios to the local pool and whether the
    bytes agree."""
    import contextlib
    import io

    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise UsageError("bench cluster needs Dask: pip install -e '.[cluster]'") from None
    from lumina.gen.packs import _dailies_pack, dailies_pack_name
    from lumina.worlds import WORLDS

    worlds = [packs / f"{w.pack}.json" for w in WORLDS]
    for p in worlds:
        if not p.is_file():
            raise UsageError(f"{p}: missing; a daily pool is judged against the five worlds "
                             "(run from the project folder, or give --packs)")

    def folder(path: Path) -> Path:
        path.mkdir()
        for p in worlds:
            shutil.copyfile(p, path / p.name)
        return path

    def cpu_children() -> float:
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        return ru.ru_utime + ru.ru_stime

    rows: dict[str, tuple[float, float, float, list[str]]] = {}
    starts: dict[str, float] = {}
    same: dict[str, bool] = {}
    with tempfile.TemporaryDirectory() as tmp:
        local = folder(Path(tmp) / "local")
        print(f"bench: daily pool of {pool} levels ({dailies_pack_name(pool)}), {workers} workers")
        w0, c0, k0 = time.perf_counter(), time.process_time(), cpu_children()
        with contextlib.redirect_stdout(io.StringIO()):
            failed = _dailies_pack(None, workers, local, None, pool)
        rows["local pool"] = (time.perf_counter() - w0, time.process_time() - c0,
                              cpu_children() - k0, failed)
        runs = [("local cluster", {})] + ([("tuned cluster", TUNED_WORKERS)] if tuned else [])
        for name, config in runs:
            out = folder(Path(tmp) / name.replace(" ", "-"))
            with dask.config.set(config):
                t = time.perf_counter()
                # ":0", a free port: None still binds 8787 (dask/distributed#8136)
                with LocalCluster(n_workers=workers, processes=True, threads_per_worker=1,
                                  dashboard_address=":0") as cluster, \
                        Client(cluster, set_as_default=False) as client:
                    starts[name] = time.perf_counter() - t
                    k0 = sum(client.run(time.process_time).values())
                    w0, c0 = time.perf_counter(), time.process_time()
                    with contextlib.redirect_stdout(io.StringIO()):
                        failed = _dailies_pack(None, workers, out, cluster.scheduler_address, pool)
                    wall, here = time.perf_counter() - w0, time.process_time() - c0
                    there = sum(client.run(time.process_time).values()) - k0
                    rows[name] = (wall, here, there, failed)
            same[name] = _files(out) == _files(local)
    lw, lh, lt, _ = rows["local pool"]
    print(f"{'':14} {'wall s':>7} {'CPU s':>7} {'workers':>8} {'here':>6} {'wall x':>7} "
          f"{'CPU x':>6} {'start s':>8}  same bytes")
    for name, (wall, here, there, failed) in rows.items():
        print(f"{name:14} {wall:>7.1f} {here + there:>7.1f} {there:>8.1f} {here:>6.1f} "
              f"{wall / max(lw, 1e-9):>6.2f}x {(here + there) / max(lh + lt, 1e-9):>5.2f}x "
              f"{starts.get(name, 0.0):>8.1f}  "
              + ("-" if name == "local pool" else "yes" if same[name] else "NO")
              + (f"  FAILED: {failed[0]}" if failed else ""))
    print("(CPU = workers (pool children or cluster worker processes) + here (this process: "
          "for a local cluster also its scheduler and nannies); x = against the local pool; "
          "cluster start-up not in wall; tuned = workers without Dask's "
          "MALLOC_TRIM_THRESHOLD_ and sampling profiler)")
    return 0


def bench_deep(target: int, seeds: int, size: tuple[int, int], budget: int,
               out: Path | None) -> int:
    """`lumina.gen.search.search` on a crystal layout per seed: the deepest par reached and the
    CPU seconds (this process) to reach `target`; with `out`, the deepest level of each
    seed as JSON lines, re-solved (the solver's optimal and solution)."""
    import json

    from lumina.gen.search import bench_spec, deepest_levels, search
    from lumina.safeio import atomic_write
    from lumina.engine import keep_freed_memory

    keep_freed_memory()                 # as the generator's jobs do

    spec = bench_spec(*size)
    print(f"deep search: {size[0]}x{size[1]} crystal, blockers {spec.blockers[0]}-"
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
    med = _median(times)
    shown = f"{med:.1f}" if med != float("inf") else "inf"
    print(f"deep search: reached {reached}/{seeds} seeds at >= {target} moves; "
          f"median CPU s to reach: {shown}")
    return 0


def _size(text: str) -> tuple[int, int]:
    import argparse
    import re
    m = re.fullmatch(r"([4-8])x([4-8])", text.strip(), re.ASCII)
    if not m:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not WxH with sides 4..8")
    return int(m[1]), int(m[2])


def main(argv: Sequence[str] | None = None) -> int:
    ap = ArgumentParser(prog="python -m lumina.bench", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("solver", help="solver throughput vs plain Python")
    s.add_argument("--rush", type=Path, default=DEFAULT_RUSH)
    s.add_argument("--python-boards", type=int, default=None,
                   help="limit the plain-Python baseline to the first N boards")
    g = sub.add_parser("generate", help="full regeneration time and memory")
    g.add_argument("--workers", type=int, default=2)
    st = sub.add_parser("strategies", help="the three generation strategies side by side")
    st.add_argument("--quick", action="store_true")
    st.add_argument("--out", type=Path, default=None,
                    help="write the JSON here (default: packs/strategies.json; --quick writes "
                         "nothing unless --out is given)")
    sub.add_parser("site", help="site build time and page weight")
    an = sub.add_parser("analyse", help="measure() over every rush-sample board")
    an.add_argument("--rush", type=Path, default=DEFAULT_RUSH)
    sw = sub.add_parser("sweep", help="exact sweep vs crystal sweep on the same 6x6 layouts")
    sw.add_argument("--layouts", type=int, default=20, help="layouts per bucket")
    sw.add_argument("--seed", type=int, default=1)
    cl = sub.add_parser("cluster", help="a daily pool: local process pool vs a local Dask cluster")
    cl.add_argument("--pool", type=int_in(1, 100_000), default=174, help="daily pool size")
    cl.add_argument("--workers", type=int_in(1, 64), default=2,
                    help="pool processes, and cluster workers (one thread each)")
    cl.add_argument("--packs", type=Path, default=Path("packs"),
                    help="where the world packs are (a pool is judged against them)")
    cl.add_argument("--no-tuned", action="store_true",
                    help="skip the third run (a cluster with TUNED_WORKERS): a large pool "
                         "takes minutes per run")
    dp = sub.add_parser("deep", help="deep layout search: seeds reaching --target moves")
    dp.add_argument("--target", type=int_in(1, 200), required=True)
    dp.add_argument("--seeds", type=int_in(1, 1000), default=5)
    dp.add_argument("--size", type=_size, default=(6, 6), help="WxH (default 6x6)")
    dp.add_argument("--budget", type=int_in(1, 10**7), default=None,
                    help="sweeps per seed (default: lumina.gen.search.BENCH_BUDGET)")
    dp.add_argument("--out", type=Path, default=None, help="write the found levels as JSON lines")
    args = ap.parse_args(argv)
    if args.what == "cluster":
        return bench_cluster(args.pool, args.workers, tuned=not args.no_tuned, packs=args.packs)
    if args.what == "deep":
        from lumina.gen.search import BENCH_BUDGET
        return bench_deep(args.target, args.seeds, args.size, args.budget or BENCH_BUDGET, args.out)
    if args.what == "analyse":
        if not args.rush.exists():
            raise UsageError(f"{args.rush}: no such file (pass --rush)")
        return bench_analyse(args.rush)
    if args.what == "sweep":
        if args.layouts < 1:
            raise UsageError("--layouts must be positive")
        return bench_sweep(args.layouts, args.seed)
    if args.what == "solver":
        if not args.rush.exists():
            raise UsageError(f"{args.rush}: no such file (pass --rush)")
        return bench_solver(args.rush, args.python_boards)
    if args.what == "generate":
        from lumina.gen.packs import bench_generate
        return bench_generate(args.workers)
    if args.what == "strategies":
        from lumina.strategies import bench_strategies
        if args.out or not args.quick:
            return bench_strategies(quick=args.quick, out=args.out or Path("packs/strategies.json"))
        with tempfile.TemporaryDirectory() as tmp:     # --quick: the committed file stays
            return bench_strategies(quick=True, out=Path(tmp) / "strategies.json")
    from lumina.render.site import bench_site
    bench_site()                # prints its figures; the returned dict is for tests
    return 0


if __name__ == "__main__":
    run(main)
