"""`python -m lumina.bench compose`: every committed pack composed from the committed pool.

The pool's shards (`pool/*.jsonl.gz`) are loaded into a fresh SQLite store in a temp
folder, then `lumina.compose` picks every world, the daily pool and the practice pack;
prints the wall and CPU seconds of each stage and whether the packs equal the
committed `packs/` byte for byte (issue 26's target: under 60 s wall on 2 cores).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

from lumina import compose
from lumina.gen import pool as store
from lumina.worlds import CAMPAIGN


def arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--pool", type=Path, default=Path("pool"), metavar="DIR",
                    help="the pool folder whose shards are composed (default: pool/)")
    ap.add_argument("--packs", type=Path, default=Path("packs"), metavar="DIR",
                    help="the committed packs to compare with (default: packs/)")


def run(args: argparse.Namespace) -> int:
    return bench_compose(args.pool, args.packs)


def _cpu() -> float:
    return time.process_time() + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime


def bench_compose(pool: Path, packs: Path) -> int:
    print(f"bench: load average before {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        folder, out = Path(tmp) / "pool", Path(tmp) / "packs"
        folder.mkdir()
        out.mkdir()
        for p in store.shard_files(pool):
            shutil.copyfile(p, folder / p.name)
        size = sum(p.stat().st_size for p in folder.iterdir())
        t0, c0 = time.perf_counter(), _cpu()
        db = store.open_pool(folder)
        rows = store.rows(db)
        db.close()
        t1, c1 = time.perf_counter(), _cpu()
        comp = compose.compose(CAMPAIGN, rows)
        t2, c2 = time.perf_counter(), _cpu()
        compose.write(comp, out)
        t3, c3 = time.perf_counter(), _cpu()
        same = {p.name: (packs / p.name).is_file()
                and (packs / p.name).read_bytes() == p.read_bytes() for p in sorted(out.iterdir())}
    print(f"bench: pool {size / 1e6:.1f} MB of shards, {len(rows)} boards")
    print(f"bench: load shards into SQLite and read them: {t1 - t0:.1f} s wall, {c1 - c0:.1f} CPU s")
    print(f"bench: compose (one global selection): {t2 - t1:.1f} s wall, {c2 - c1:.1f} CPU s")
    print(f"bench: write {len(comp.packs)} packs and reports: {t3 - t2:.1f} s wall, "
          f"{c3 - c2:.1f} CPU s")
    print(f"bench: compose every committed pack from the committed pool: {t3 - t0:.1f} s wall, "
          f"{c3 - c0:.1f} CPU s (target under 60 s wall)")
    print(f"bench: problems {len(comp.problems)}; equal to {packs}/ byte for byte: "
          f"{sum(same.values())}/{len(same)} files"
          + ("" if all(same.values()) else f" (differs: {', '.join(n for n, s in same.items() if not s)})"))
    print(f"bench: load average after {os.getloadavg()[0]:.2f}")
    return 0
