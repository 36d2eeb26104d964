"""`python -m lumina.bench solver`: the compiled BFS against a plain-Python BFS, and
with `--vs-c` against a plain C BFS.

Every board of a Rush Hour file (default: the rush sample) solved by `lumina.engine.solve`,
then by `lumina.bench.pybfs` on the same boards: CPU seconds, states per second, peak
memory, and the ratio on the same boards. Boards whose count disagrees with the
published MM are counted.

`--vs-c` compiles `cbfs.c` (found by `lumina.bench.data_file`: inside the repository
first, then `../shared/bench/`) with the system C compiler (`$CC`, else `cc`, `gcc` or
`clang`) and runs both on the same boards in one run, checking every answer (MM, and
CLUSTER for the components) on both sides: solving inside the process (C's own CPU
clock around its loop; Lumina's around `solve` of the loaded levels), whole components
(`cbfs -c` and `lumina.engine.component`), and whole processes, start-up included
(`cbfs FILE` and `python -m lumina.solve --rush FILE`, CPU seconds of the child, with
Python's bytecode cached as an installed package has it), and start-up alone (the same
command on one board, beside a bare `python -c pass`). Each figure is the best of
`--repeat` runs; the load average is printed beside them. With `--ref DIR` (another
checkout, its engine built in place: the engine before a change) the same four figures
are measured there too in the same run, its answers checked, and the speed-up printed.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lumina.bench import ROOT, data_file, peak_rss_mb, ref_argument, run_in_checkout, rush_argument, rush_file
from lumina.bench.pybfs import solve_plain
from lumina.cli import UsageError, int_in
from lumina.desc import from_rush_hour
from lumina.engine import component, solve
from lumina.solve import read_rush_file

TARGETS = {"solve": 1.2, "components": 1.2, "process": 1.6}   # issue 18: Lumina / C at most


def arguments(ap: argparse.ArgumentParser) -> None:
    rush_argument(ap)
    ap.add_argument("--python-boards", type=int_in(1, 100_000), default=None,
                    help="limit the plain-Python baseline to the first N boards")
    ap.add_argument("--vs-c", action="store_true",
                    help="against the plain C BFS (cbfs.c, compiled here): in process, whole "
                         "components, whole process")
    ap.add_argument("--cbfs", type=Path, default=None,
                    help="--vs-c: the C BFS source (default: cbfs.c found by the data rule)")
    ap.add_argument("--repeat", type=int_in(1, 100), default=5,
                    help="--vs-c: runs of each measurement; the best is reported")
    ref_argument(ap)


def run(args: argparse.Namespace) -> int:
    if args.vs_c:
        if args.cbfs is not None and not args.cbfs.is_file():
            raise UsageError(f"{args.cbfs}: no such file (pass --cbfs)")
        return bench_vs_c(rush_file(args.rush), args.repeat, args.cbfs, args.ref)
    return bench_solver(rush_file(args.rush), args.python_boards)


def bench_solver(rush: Path, python_boards: int | None) -> int:
    rows = read_rush_file(str(rush))
    levels = [from_rush_hour(b, id=f"rush-{i}") for i, (b, _, _) in enumerate(rows, 1)]
    rss0 = peak_rss_mb()
    per = []
    t0 = time.process_time()
    for lv in levels:
        t = time.process_time()
        s = solve(lv)
        per.append((s.states, time.process_time() - t, s.optimal))
    cy = time.process_time() - t0
    rss1 = peak_rss_mb()
    states = sum(p[0] for p in per)
    wrong = sum(1 for (b, mm, _), p in zip(rows, per) if mm is not None and p[2] != mm)
    print(f"boards                 {len(levels)}  ({wrong} disagree with the published MM)")
    print(f"cython BFS total       {cy:.3f} s   {states} states   {states / cy:,.0f} states/s")
    print(f"peak RSS               {rss1:.1f} MB (before: {rss0:.1f} MB)")
    big = sorted(per, key=lambda p: -p[0])
    for label, group in (("largest 10 boards", big[:10]),
                         ("median 50 boards", big[len(big) // 2 - 25:len(big) // 2 + 25])):
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


# ---------------------------------------------------------------------------
# Against the plain C BFS

def c_compiler() -> str:
    """The system C compiler: $CC, else the first of cc, gcc, clang on PATH."""
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        found = shutil.which(name) if name else None
        if found:
            return found
    raise UsageError("bench solver --vs-c: no C compiler found (cc, gcc or clang on PATH, "
                     "or set CC)")


def compile_cbfs(src: Path, folder: Path) -> Path:
    """`cc -O2 -o folder/cbfs src`, as cbfs.c's README says; UsageError when it fails."""
    cc = c_compiler()
    exe = folder / "cbfs"
    proc = subprocess.run([cc, "-O2", "-o", str(exe), str(src)], capture_output=True, text=True)
    if proc.returncode != 0 or not exe.is_file():
        first = (proc.stderr.strip().splitlines() or ["no output"])[0][:200]
        raise UsageError(f"{src}: {cc} failed: {first}")
    return exe


def _child_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_process(cmd: list[str], env: dict[str, str] | None = None, cwd: Path | None = None
                ) -> tuple[float, float, str, str]:
    """(CPU seconds of the child, wall seconds, stdout, stderr) of one run of `cmd`."""
    c0, w0 = _child_cpu(), time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    wall, cpu = time.perf_counter() - w0, _child_cpu() - c0
    if proc.returncode not in (0, 1):
        raise UsageError(f"{cmd[0]}: exit {proc.returncode}: "
                         f"{(proc.stderr.strip().splitlines() or [''])[-1][:200]}")
    return cpu, wall, proc.stdout, proc.stderr


def run_c(exe: Path, rush: Path, full: bool) -> tuple[float, list[tuple[int, int]]]:
    """cbfs on the file: (its own CPU seconds around its loop, (moves, states) per board)."""
    _, _, out, err = run_process([str(exe)] + (["-c"] if full else []) + [str(rush)])
    m = re.search(r"cpu_s=([0-9.]+)", err)
    if m is None:
        raise UsageError(f"{exe.name}: no cpu_s in its summary: {err.strip()[:200]}")
    rows = []
    for line in out.splitlines():
        _board, moves, states = line.split("\t")
        rows.append((int(moves), int(states)))
    return float(m[1]), rows


def child_env(pycache: Path, root: Path = ROOT) -> dict[str, str]:
    """The environment of a timed `python -m lumina.solve`: the checkout `root` first on
    the path, and compiled bytecode cached (in `pycache`) as an installed package has it,
    even where PYTHONDONTWRITEBYTECODE is set: else every run compiles every module
    again, a start-up no installed Lumina pays."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(root)] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") and root == ROOT else []))
    return env


# Run in the --ref checkout (its own lumina): solve and component of every board, best of
# `repeat` each, with the answers.
REF_SOLVE = """
import json, sys, time
from lumina.desc import from_rush_hour
from lumina.engine import component, solve
from lumina.solve import read_rush_file
rush, repeat = json.load(sys.stdin)
levels = [from_rush_hour(b, id=f"rush-{i}") for i, (b, _, _) in enumerate(read_rush_file(rush), 1)]
def best(f):
    out = []
    for _ in range(repeat):
        t = time.process_time()
        got = [f(lv) for lv in levels]
        out.append((time.process_time() - t, got))
    return min(out, key=lambda r: r[0])
s_sec, sols = best(solve)
c_sec, comps = best(component)
print(json.dumps([s_sec, c_sec, [s.optimal for s in sols], sum(s.states for s in sols), comps]))
"""


def _best(fn, repeat: int):
    """The run of fn() with the least time (fn returns (seconds, result))."""
    return min((fn() for _ in range(repeat)), key=lambda r: r[0])


def bench_vs_c(rush: Path, repeat: int, cbfs: Path | None = None, ref: Path | None = None) -> int:
    src = cbfs or data_file("cbfs.c")
    rows = read_rush_file(str(rush))
    levels = [from_rush_hour(b, id=f"rush-{i}") for i, (b, _, _) in enumerate(rows, 1)]
    mm = [r[1] for r in rows]
    cluster = [r[2] for r in rows]
    with tempfile.TemporaryDirectory() as tmp:
        exe = compile_cbfs(src, Path(tmp))

        def lumina_solve():
            t = time.process_time()
            got = [solve(lv) for lv in levels]
            return time.process_time() - t, got

        def lumina_components():
            t = time.process_time()
            got = [component(lv) for lv in levels]
            return time.process_time() - t, got

        c_sec, c_rows = _best(lambda: run_c(exe, rush, False), repeat)
        l_sec, l_sols = _best(lumina_solve, repeat)
        cc_sec, cc_rows = _best(lambda: run_c(exe, rush, True), repeat)
        lc_sec, l_comps = _best(lumina_components, repeat)
        lumina_cmd = [sys.executable, "-m", "lumina.solve", "--rush", str(rush)]
        env = child_env(Path(tmp) / "pycache")
        l_out = run_process(lumina_cmd, env)[2]          # untimed: fills the bytecode cache
        c_proc = min((run_process([str(exe), str(rush)])[:2] for _ in range(repeat)))
        l_proc = min((run_process(lumina_cmd, env)[:2] for _ in range(repeat)))
        # start-up: the same command on the sample's first board alone, and a bare interpreter
        one = Path(tmp) / "one-board.txt"
        one.write_text(f"{mm[0] if mm[0] is not None else ''} {rows[0][0]} "
                       f"{cluster[0] if cluster[0] is not None else ''}".strip() + "\n")
        l_one = min((run_process(lumina_cmd[:-1] + [str(one)], env)[:2] for _ in range(repeat)))
        bare = min((run_process([sys.executable, "-c", "pass"], env)[:2] for _ in range(repeat)))
        if ref is not None:
            r_solve, r_comp, r_opt, r_states, r_comps = run_in_checkout(ref, REF_SOLVE, [str(rush.resolve()), repeat])
            r_env = child_env(Path(tmp) / "pycache-ref", ref.resolve())
            r_cmd = [sys.executable, "-m", "lumina.solve", "--rush", str(rush.resolve())]
            r_out = run_process(r_cmd, r_env, ref)[2]      # untimed: fills the bytecode cache
            r_proc = min((run_process(r_cmd, r_env, ref)[:2] for _ in range(repeat)))
            r_one = min((run_process(r_cmd[:-1] + [str(one)], r_env, ref)[:2] for _ in range(repeat)))
    # every answer checked, on both sides
    wrong = []
    l_proc_opt = [line.split("\t")[2] for line in l_out.splitlines()]
    for i, (b, _, _) in enumerate(rows):
        if mm[i] is not None:
            if c_rows[i][0] != mm[i] or cc_rows[i][0] != mm[i]:
                wrong.append(f"C: {b}: {c_rows[i][0]} moves, MM {mm[i]}")
            if l_sols[i].optimal != mm[i] or l_proc_opt[i] != str(mm[i]):
                wrong.append(f"Lumina: {b}: {l_sols[i].optimal} moves, MM {mm[i]}")
        if cluster[i] is not None:
            if cc_rows[i][1] != cluster[i]:
                wrong.append(f"C: {b}: component {cc_rows[i][1]}, CLUSTER {cluster[i]}")
            if l_comps[i] != cluster[i]:
                wrong.append(f"Lumina: {b}: component {l_comps[i]}, CLUSTER {cluster[i]}")
    c_states = sum(r[1] for r in c_rows)
    l_states = sum(s.states for s in l_sols)
    comp_states = sum(r[1] for r in cc_rows)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"vs C: {len(rows)} boards of {rush.name}, {src} compiled with -O2; best of {repeat} "
          f"runs each (load average {load})")
    print(f"{'':26} {'C BFS':>10} {'Lumina':>10} {'ratio':>7} {'target':>8}")

    def line(label: str, c: float, lum: float, target: str | None) -> None:
        ratio = lum / max(c, 1e-9)
        verdict = "" if target is None else (
            f"  <= {TARGETS[target]}x " + ("met" if ratio <= TARGETS[target] else "MISSED"))
        print(f"{label:26} {c:>9.3f}s {lum:>9.3f}s {ratio:>6.2f}x{verdict}")

    line("solve, inside the process", c_sec, l_sec, "solve")
    print(f"{'  states/s':26} {c_states / c_sec / 1e6:>9.2f}M {l_states / l_sec / 1e6:>9.2f}M"
          f"   ({c_states:,} and {l_states:,} states: each stops at its first win)")
    line("whole components", cc_sec, lc_sec, "components")
    print(f"{'  states/s':26} {comp_states / cc_sec / 1e6:>9.2f}M "
          f"{comp_states / lc_sec / 1e6:>9.2f}M   ({comp_states:,} states each)")
    line("whole process, CPU", c_proc[0], l_proc[0], "process")
    line("whole process, wall", c_proc[1], l_proc[1], None)
    print(f"(whole process: {exe.name} FILE against python -m lumina.solve --rush FILE, "
          "start-up and printing included, Python's bytecode cached as installed)")
    print(f"start-up: python -m lumina.solve on one board {l_one[0]:.3f}s CPU ({l_one[1]:.3f}s wall); "
          f"a bare `python -c pass` {bare[0]:.3f}s CPU ({bare[1]:.3f}s wall)")
    if ref is not None:
        r_proc_opt = [line.split("\t")[2] for line in r_out.splitlines()]
        r_wrong = sum(1 for i in range(len(rows)) if mm[i] is not None and (
            r_opt[i] != mm[i] or r_proc_opt[i] != str(mm[i]))) + sum(
            1 for i in range(len(rows)) if cluster[i] is not None and r_comps[i] != cluster[i])
        print(f"before: {ref} in the same run ({r_wrong} wrong answers there); its ratio to C, and how "
              f"much faster Lumina is here:")
        for label, c, there, here in (("solve, inside the process", c_sec, r_solve, l_sec),
                                      ("whole components", cc_sec, r_comp, lc_sec),
                                      ("whole process, CPU", c_proc[0], r_proc[0], l_proc[0]),
                                      ("start-up (one board), CPU", None, r_one[0], l_one[0])):
            vs_c = f"{there / max(c, 1e-9):>6.2f}x of C" if c is not None else " " * 12
            print(f"{label:26} {there:>9.3f}s {vs_c}   now {there / max(here, 1e-9):.2f}x faster")
        print(f"{'  states/s (solve)':26} {r_states / max(r_solve, 1e-9) / 1e6:>9.2f}M")
        wrong += [f"ref: {r_wrong} wrong"] if r_wrong else []
    print(f"answers: {len(rows)} boards' MM and CLUSTER checked on both sides: "
          f"{len(wrong)} wrong")
    for w in wrong[:10]:
        print(f"  {w}", file=sys.stderr)
    return 1 if wrong else 0
