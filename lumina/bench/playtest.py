"""`python -m lumina.bench playtest`: `lumina.playtest` over 100,000 simulated attempts.

Simulated players (`lumina.playtest.simulate`, seeded) play every level of the
campaign until at least `--attempts` attempts are logged, in files of at most
`--players-per-file` players (each well under the reader's 16 MB bound). Then
`python -m lumina.playtest` reads, replays and reports them in a child process, whose
CPU seconds, wall seconds and peak resident memory are printed (the simulation's own
figures are printed apart: it is the fixture, not the benchmark).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lumina.bench import ROOT, peak_rss_mb
from lumina.cli import int_in
from lumina.packfile import world_files
from lumina.playtest.replay import Book
from lumina.playtest.simulate import simulate
from lumina.safeio import atomic_write


def arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--attempts", type=int_in(1, 10_000_000), default=100_000,
                    help="simulated attempts to report on (default 100,000)")
    ap.add_argument("--seed", type=int_in(0, 2 ** 63 - 1), default=1, help="seed of the simulated players (default: 1)")
    ap.add_argument("--players-per-file", type=int_in(1, 1_000), default=15,
                    help="simulated players per play-log file (default: 15)")
    ap.add_argument("--packs", type=Path, default=ROOT / "packs",
                    help="the packs folder (its world-*.json are played)")


def run(args: argparse.Namespace) -> int:
    return bench_playtest(args.packs, args.attempts, args.seed, args.players_per_file)


def bench_playtest(packs: Path, attempts: int, seed: int, per_file: int) -> int:
    worlds = world_files(packs)
    entries = list(Book(worlds).entries.values())
    with tempfile.TemporaryDirectory(prefix="lumina-bench-playtest-") as tmp:
        logs, done, first, records, size = [], 0, 1, 0, 0
        t0, w0 = time.process_time(), time.perf_counter()
        while done < attempts:
            lines = list(simulate(entries, players=per_file, seed=seed, first_player=first))
            done += sum(1 for line in lines if '"type":"start"' in line)
            records += len(lines)
            path = Path(tmp) / f"sim-{first:06d}.jsonl"
            text = "".join(line + "\n" for line in lines)
            size += len(text)
            atomic_write(path, text)
            logs.append(str(path))
            first += per_file
        sim_cpu, sim_wall = time.process_time() - t0, time.perf_counter() - w0
        print(f"simulated      {first - 1} players x {len(entries)} levels: {done:,} attempts, "
              f"{records:,} records, {size / 2 ** 20:.1f} MB in {len(logs)} files; "
              f"{sim_cpu:.1f} s CPU, {sim_wall:.1f} s wall, peak RSS {peak_rss_mb():.0f} MB")
        out = Path(tmp) / "report"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        w1 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "lumina.playtest", *logs, "--packs", *map(str, worlds),
                               "--out", str(out)], capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        wall = time.perf_counter() - w1
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            print(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "report failed",
                  file=sys.stderr)
            return proc.returncode
        rep = json.loads((out / "playtest.json").read_text())
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(f"lumina.playtest {rep['attempts']:,} attempts of {rep['players']} players on "
              f"{rep['levels_played']} levels (left out: {rep['left_out']['attempts']}): "
              f"{cpu:.1f} s CPU, {wall:.1f} s wall, peak RSS {after.ru_maxrss / 1024:.0f} MB "
              f"({rep['attempts'] / max(cpu, 1e-9):,.0f} attempts/s, "
              f"{records / max(cpu, 1e-9):,.0f} records/s)")
    return 0
