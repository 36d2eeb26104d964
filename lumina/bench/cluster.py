"""`python -m lumina.bench cluster`: a daily pool on the local process pool and on a local Dask cluster.

`--dailies --daily-size N` generated three times in one run, on the same cores: on the local
process pool, on a local Dask cluster with Dask's defaults, and (unless `--no-tuned`)
on one with TUNED_WORKERS. Prints wall and CPU seconds of each, the ratios to the local
pool and whether the bytes agree. Needs the `cluster` extra (Dask).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import resource
import shutil
import tempfile
import time
from pathlib import Path

from lumina.cli import UsageError, int_in
from lumina.executor import MAX_WORKERS
from lumina.gen.packs import dailies_pack_name, dailies_plan, generate_packs
from lumina.worlds import CAMPAIGN, DAILY_POOL, Campaign, load

try:                    # the optional `cluster` extra; only this benchmark loads it
    import dask
    from distributed import Client, LocalCluster
except ImportError:
    dask = None


def arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--daily-size", type=int_in(1, 100_000), default=DAILY_POOL, metavar="N",
                    help="daily pool size")
    ap.add_argument("--workers", type=int_in(1, MAX_WORKERS), default=2,
                    help="pool processes, and cluster workers (one thread each)")
    ap.add_argument("--packs", type=Path, default=Path("packs"),
                    help="where the world packs are (a pool is judged against them)")
    ap.add_argument("--campaign", type=Path, metavar="FILE",
                    help="the campaign whose daily buckets are generated (default: "
                         "lumina/campaign.toml)")
    ap.add_argument("--no-tuned", action="store_true",
                    help="skip the third run (a cluster with TUNED_WORKERS): a large pool "
                         "takes minutes per run")


def run(args: argparse.Namespace) -> int:
    campaign = CAMPAIGN if args.campaign is None else load(args.campaign)
    return bench_cluster(args.daily_size, args.workers, tuned=not args.no_tuned, packs=args.packs,
                         campaign=campaign)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


# Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536, which also freezes
# glibc's mmap threshold: every large sweep array is mmap'd and faulted in afresh
# (measured: twice the page faults and system time of one bucket); the worker's
# sampling profiler walks the running task's stack every 10 ms. Both off:
TUNED_WORKERS = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
                 "distributed.worker.profile.enabled": False}


def bench_cluster(pool: int, workers: int, tuned: bool = True, packs: Path = Path("packs"),
                  campaign: Campaign = CAMPAIGN) -> int:
    """`--dailies --daily-size N` three times in one run: on the local process pool of
    `workers` processes, then on a local Dask cluster of as many single-thread worker
    processes (the same cores) with Dask's defaults, then (unless `tuned` is False)
    with TUNED_WORKERS. A pool is judged against the worlds, so each run's
    folder gets a copy of the world packs in `packs` first. Prints
    wall and CPU seconds of each (CPU: this process plus its pool children, or plus
    the cluster's worker processes), the ratios to the local pool and whether the
    bytes agree."""
    if dask is None:
        raise UsageError("bench cluster needs Dask: pip install -e '.[cluster]'")

    worlds = [packs / f"{w.pack}.json" for w in campaign.worlds]
    for p in worlds:
        if not p.is_file():
            raise UsageError(f"{p}: missing; a daily pool is judged against the worlds "
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
        print(f"bench: daily pool of {pool} levels ({dailies_pack_name(pool, campaign)}), {workers} workers")
        w0, c0, k0 = time.perf_counter(), time.process_time(), cpu_children()
        with contextlib.redirect_stdout(io.StringIO()):
            failed = generate_packs([dailies_plan(pool=pool, campaign=campaign)], workers, local)
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
                        failed = generate_packs([dailies_plan(pool=pool, campaign=campaign)], workers, out,
                                                scheduler=cluster.scheduler_address)
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
