"""`python -m lumina.bench strategies`: the three generation strategies side by side.

Runs `lumina.strategies.run_all` on the bench's own buckets (all eight, 150 layouts
each; `--quick`: three buckets, 20 layouts), prints three Markdown tables (candidates
by what the real solver found, how honest each strategy's claimed count was, what the
judge removed) and writes them as JSON (`packs/strategies.json` by default, which the
site's "How levels are made" page and docs/STRATEGIES.md show; `--quick` writes only
with `--out`, so the committed file stays).
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Sequence

from lumina.gen.buckets import PER_DEPTH, SOLVE_STATE_CAP, SWEEP_STATE_CAP
from lumina.judge import CLASSES, FILTERS
from lumina.packfile import write_json
from lumina.safeio import check_output
from lumina.strategies import BUCKETS, PER_LAYOUT, Row, bucket_label, run_all
from lumina.worlds import Bucket

COMMAND = "python -m lumina.bench strategies"
FULL_BUCKETS = tuple(BUCKETS)           # all eight, in their order
QUICK_BUCKETS = ("crystal-5x5", "crystal-6x6", "sand-6x5")
FULL_LAYOUTS, QUICK_LAYOUTS = 150, 20


def arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--quick", action="store_true", help="a small run: three buckets, 20 layouts (the committed table stays)")
    ap.add_argument("--out", type=Path, default=None,
                    help="write the JSON here (default: packs/strategies.json; --quick writes "
                         "nothing unless --out is given)")


def run(args: argparse.Namespace) -> int:
    if args.out:
        check_output(args.out)          # before any work
    if args.out or not args.quick:
        return bench_strategies(quick=args.quick, out=args.out or Path("packs/strategies.json"))
    with tempfile.TemporaryDirectory() as tmp:     # --quick: the committed file stays
        return bench_strategies(quick=True, out=Path(tmp) / "strategies.json")


def _pct(n: int, total: int) -> str:
    return f"{100 * n / total:.0f}%" if total else "-"


def format_table(rows: Sequence[Row]) -> list[str]:
    """The table as Markdown lines (counts by reason, never one summed total)."""
    head = ("| strategy | bucket | candidates | already solved | under band | in band | "
            "over band | unsolvable | exhausted | survivors | CPU s |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        j = r.to_json()
        n = j["candidates"]
        cells = [r.strategy, r.bucket, str(n)]
        cells += [f"{j[c]} ({_pct(j[c], n)})" if j[c] else "0" for c in CLASSES]
        cells += [str(r.survivors), f"{r.seconds:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def format_labels(rows: Sequence[Row]) -> list[str]:
    """How honest each strategy's claimed count was (solved candidates only)."""
    lines = ["| strategy | bucket | claimed more than real | exact | claimed less |",
             "|---|---|---|---|---|"]
    for r in rows:
        lv = r.label_vs_real()
        n = sum(lv.values())
        lines.append(f"| {r.strategy} | {r.bucket} | " + " | ".join(
            f"{lv[k]} ({_pct(lv[k], n)})" if lv[k] else "0"
            for k in ("claimed_more", "exact", "claimed_less")) + " |")
    return lines


def format_filters(rows: Sequence[Row]) -> list[str]:
    """What the judge rejected among in-band candidates, by reason."""
    lines = ["| strategy | bucket | in band | " + " | ".join(f.replace("_", " ") for f in FILTERS)
             + " | survivors |", "|---|---|---|" + "---|" * len(FILTERS) + "---|"]
    for r in rows:
        lines.append(f"| {r.strategy} | {r.bucket} | {r.counts['in_band']} | "
                     + " | ".join(str(r.filtered[f]) for f in FILTERS) + f" | {r.survivors} |")
    return lines


def bench_strategies(quick: bool, out: Path) -> int:
    """`python -m lumina.bench strategies`: print the table and write it as JSON."""
    buckets = QUICK_BUCKETS if quick else FULL_BUCKETS
    n_layouts = QUICK_LAYOUTS if quick else FULL_LAYOUTS
    wall0, cpu0 = time.perf_counter(), time.process_time()
    rows = run_all(buckets, n_layouts)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    command = COMMAND + (" --quick" if quick else "")
    print(f"{command}: {len(buckets)} buckets x {n_layouts} layouts x at most {PER_LAYOUT} "
          f"candidates per layout and strategy; every candidate re-solved by BFS")
    for line in format_table(rows):
        print(line)
    print()
    for line in format_labels(rows):
        print(line)
    print()
    for line in format_filters(rows):
        print(line)
    print(f"total: {wall:.1f} s wall, {cpu:.1f} s CPU")
    doc = {"command": command,
           "budget": {"layouts": n_layouts, "per_layout": PER_LAYOUT, "per_depth": PER_DEPTH,
                      "sweep_state_cap": SWEEP_STATE_CAP, "solve_state_cap": SOLVE_STATE_CAP},
           "buckets": [_bucket_json(*BUCKETS[n]) for n in buckets],
           "rows": [r.to_json() for r in rows]}
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json(out, doc)
    print(f"wrote {out}")
    return 0


def _bucket_json(bucket: Bucket, seed: int) -> dict:
    return {"bucket": bucket_label(bucket), "name": bucket.name, "seed": seed,
            "size": f"{bucket.width}x{bucket.height}", "band": list(bucket.band),
            "blockers": list(bucket.blockers), "twists": dict(sorted(bucket.twists.items())),
            "walls": list(bucket.walls)}
