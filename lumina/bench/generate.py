"""`python -m lumina.bench generate`: full regeneration (`generate --all`) into a temp folder.

Wall and CPU seconds (this process and its pool children), the jobs' share, each
pack's settle-and-write time, peak memory, and the machine's load average before and
after (it may be shared). Writes nothing outside the temp folder.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import resource
import tempfile
import time
from pathlib import Path

from lumina.cli import int_in
from lumina.executor import MAX_WORKERS
from lumina.gen.packs import all_plans, generate_packs, jobs_of
from lumina.worlds import WORLDS


def arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--workers", type=int_in(1, MAX_WORKERS), default=2,
                    help=f"local pool processes (1..{MAX_WORKERS})")


def run(args: argparse.Namespace) -> int:
    return bench_generate(args.workers)


def bench_generate(workers: int) -> int:
    """Regenerate every pack on `workers` workers into a temp folder; print the figures.
    Exit 1 when a pack failed."""
    print(f"bench: load average before {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    cpu0 = time.process_time() + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    timings: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        report = io.StringIO()
        with contextlib.redirect_stdout(report):
            failures = generate_packs(all_plans(), workers, Path(tmp), timings=timings)
        total = time.perf_counter() - t0
    cpu = (time.process_time() + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime) - cpu0
    jobs = sum(len(jobs_of(p.buckets, p.seed)) for p in all_plans())
    print(f"bench: {jobs} jobs (shallow buckets and deep slots) on {workers} workers: "
          f"{timings.get('jobs', 0):.1f} s wall")
    for name, sec in timings.items():
        if name != "jobs":
            print(f"bench: {name} settled and written in {sec:.1f} s")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"bench: full regeneration ({len(WORLDS)} worlds + dailies, {workers} workers): "
          f"{total:.1f} s wall, {cpu:.1f} CPU s")
    print(f"bench: load average after {os.getloadavg()[0]:.2f}")
    print(f"bench: peak RSS {max(rss, kids):.0f} MB (this process {rss:.0f} MB, "
          f"largest worker {kids:.0f} MB)")
    for f in failures:
        print(f"bench: FAILED {f}")
    return 1 if failures else 0
