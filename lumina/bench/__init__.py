"""Benchmarks: timings printed as figures, never pass/fail (`python -m lumina.bench`).

One module per benchmark, each with `arguments(parser)` and `run(args) -> int`;
`BENCHMARKS` below names them with their `--help` line, in that order, and
`__main__` imports only the benchmark it runs (so one benchmark's memory and
start-up never include another's); `pybfs` is the solver benchmark's baseline. Ratios are measured side by side in one run, in
CPU seconds of the process (the machine may be shared, so wall time is noisier).

Benchmark data (the rush sample, the C BFS) is found by one rule, `data_file`: inside
the repository first (`tests/data/`), then in the `shared` folder beside the
repository root (`../shared/reference/`, `../shared/bench/`).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any, Sequence

from lumina.cli import UsageError

BENCHMARKS: tuple[tuple[str, str], ...] = (
    ("solver", "Cython BFS vs plain-Python BFS on the rush sample"),
    ("analyse", "measure() on every rush-sample board: time, plans by depth"),
    ("sweep", "exact sweep vs crystal sweep on the same 6x6 layouts"),
    ("deep", "deep layout search: seeds reaching --target moves"),
    ("strategies", "the three generation strategies side by side"),
    ("generate", "full regeneration of the packs into a temp folder"),
    ("mine", "mining: accepted boards per CPU second vs generate's levels before the pool"),
    ("compose", "every committed pack composed from the committed pool, vs packs/"),
    ("cluster", "a daily pool: local process pool vs a local Dask cluster"),
    ("site", "site build time and page weight"),
    ("playtest", "lumina.playtest over 100,000 simulated attempts: time and peak memory"),
    ("editor", "the level editor's verdicts (measure.js under Node.js) vs lumina.engine"),
    ("hint", "the site's hint search (search.js under Node.js), cold and warm, optionally vs a commit"),
)

ROOT = Path(__file__).resolve().parents[2]
DATA_DIRS = (ROOT / "tests" / "data", ROOT.parent / "shared" / "reference",
             ROOT.parent / "shared" / "bench")


def data_file(name: str) -> Path:
    """The benchmark data file `name`: the first of DATA_DIRS that holds it.
    UsageError (one line, exit 2) naming the folders looked in when none does."""
    for d in DATA_DIRS:
        if (d / name).is_file():
            return d / name
    raise UsageError(f"{name}: not found in {', '.join(str(d) for d in DATA_DIRS)} "
                     "(pass the file)")


def rush_argument(ap: argparse.ArgumentParser) -> None:
    """`--rush FILE`: a file of Rush Hour boards (default: the rush sample)."""
    ap.add_argument("--rush", type=Path, default=None,
                    help="Rush Hour file (MM BOARD CLUSTER; default: the rush sample)")


def rush_file(given: Path | None) -> Path:
    """The `--rush` file: the one given, else the rush sample (`data_file`)."""
    if given is None:
        return data_file("rush-sample.txt")
    if not given.exists():
        raise UsageError(f"{given}: no such file (pass --rush)")
    return given


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def ref_argument(ap: argparse.ArgumentParser) -> None:
    """`--ref DIR`: another checkout of Lumina, its engine built in place, timed side by side."""
    ap.add_argument("--ref", type=Path, default=None, metavar="DIR",
                    help="another checkout of Lumina (its engine built in place, e.g. an older "
                         "commit's): the same work timed there too, side by side, answers compared")


def run_in_checkout(ref: Path, code: str, payload: Any) -> Any:
    """Run Python `code` with the checkout `ref` first on the path (its own `lumina`), `payload`
    as JSON on its stdin; returns the JSON it prints. UsageError (one line) when it fails."""
    if not (ref / "lumina" / "engine").is_dir():
        raise UsageError(f"--ref {ref}: not a Lumina checkout (no lumina/engine)")
    env = {**os.environ, "PYTHONPATH": str(ref.resolve())}
    proc = subprocess.run([sys.executable, "-c", code], input=json.dumps(payload), capture_output=True,
                          text=True, env=env, cwd=ref)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1][:200]
        raise UsageError(f"--ref {ref}: the run there failed: {last}")
    return json.loads(proc.stdout)


def median(xs: Sequence[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
