"""`python -m lumina.bench mine`: accepted boards per CPU second, against `generate`'s
levels per CPU second before the pool (issue 26: 324 levels in 5,350 CPU s).

Runs a sample of the campaign's mining jobs (`--jobs`, spread over its tables:
every k-th job) in this process into a temp pool and prints boards kept per CPU
second, per job kind, with the ratio to the old generator's figure. Also prints the
committed pool's own totals (boards, jobs, the CPU its jobs would cost at the
measured rate) so a cold `generate --all` can be projected.
"""
from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict

from lumina.cli import int_in
from lumina.gen.mining import run_job
from lumina.worlds import CAMPAIGN

OLD_LEVELS, OLD_CPU = 324, 5350.0          # generate --all, lumina-gen/4 (issue 26)


def arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--jobs", type=int_in(1, 10_000), default=8,
                    help="how many of the campaign's jobs to run (every k-th, default 8)")


def run(args: argparse.Namespace) -> int:
    return bench_mine(args.jobs)


def bench_mine(n: int) -> int:
    jobs = list(CAMPAIGN.mine)
    step = max(1, len(jobs) // n)
    sample = jobs[::step][:n]
    print(f"bench: load average before {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    by_kind: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    total_cpu = total_boards = 0.0
    for job in sample:
        c0 = time.process_time()
        r = run_job(job)
        cpu = time.process_time() - c0
        kind = f"{job.size} {job.twist_text}{' beam' if job.beam else ''} " + (
            f"deep {job.deep}" if job.deep else f"{job.layouts} layouts")
        k = by_kind[kind]
        k[0] += len(r.boards)
        k[1] += cpu
        k[2] += 1
        total_cpu += cpu
        total_boards += len(r.boards)
        print(f"bench: {job.id}: {len(r.boards)} boards in {cpu:.1f} CPU s "
              f"({len(r.boards) / cpu if cpu else 0:.2f}/CPU s)")
    old = OLD_LEVELS / OLD_CPU
    rate = total_boards / total_cpu if total_cpu else 0.0
    print(f"bench: {len(sample)} jobs: {total_boards:.0f} accepted boards in {total_cpu:.1f} CPU s: "
          f"{rate:.2f} boards per CPU s; generate before: {old:.3f} levels per CPU s "
          f"({OLD_LEVELS} in {OLD_CPU:,.0f} CPU s); ratio {rate / old:.1f}x (target 10x)")
    print(f"bench: load average after {os.getloadavg()[0]:.2f}")
    return 0
