"""`python -m lumina.bench {solver,generate,strategies,site}`: timings as printed
figures, never pass/fail. Ratios are measured side by side in one run, in CPU
seconds of this process (the machine is shared, so wall time is noisier).

    python -m lumina.bench solver      Cython BFS vs plain-Python BFS on rush-sample.txt
    python -m lumina.bench generate    full regeneration of the packs into a temp dir
    python -m lumina.bench strategies  the three generation strategies side by side
    python -m lumina.bench site        the static site build
"""
from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

from lumina.cli import ArgumentParser, UsageError, run

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
    args = ap.parse_args(argv)
    if args.what == "solver":
        if not args.rush.exists():
            raise UsageError(f"{args.rush}: no such file (pass --rush)")
        return bench_solver(args.rush, args.python_boards)
    if args.what == "generate":
        from lumina.generate import bench_generate
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
