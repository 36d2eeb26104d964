"""`python -m lumina.bench editor`: the level editor's verdicts, timed under Node.js.

The editor's worker (`templates/static/editor-worker.js`) runs `measure.js`: the
component with its edges, par and the solver's solution, plans, raw solutions, first
moves, traps, the chain, forced moves, crystal par, the board's deepest start and the
analysis record. This runs
the same stages on the committed levels with the highest par and with the most positions,
in one Node.js process (warmed up first, as the worker is after its first board), and
prints the best and median milliseconds beside `lumina.engine` doing the same work
(`measure` and `exact_sweep`), measured in the same run. The editor's target is 300 ms
for the hardest committed level; the browser suite (`tests/browser/test_editor.py`)
prints the same figure from the page, the worker's start-up and messages included.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

from lumina.bench import median
from lumina import schema
from lumina.cli import UsageError, int_in
from lumina.engine import DEFAULT_CHAIN_WORK, DEFAULT_PLAN_CAP, DEFAULT_STATE_CAP, MEMBER_CAP, exact_sweep, measure
from lumina.model import Analysis
from lumina.packfile import read_pack
from lumina.render.site import ROOT
from lumina.verify import default_paths

MEASURE_JS = ROOT / "templates" / "static" / "measure.js"

# The worker's stages, run `runs` times per level after `warm` runs; prints JSON lines.
SCRIPT = """
const M = await import(process.argv[1]);
const [levels, limits, runs, warm] = JSON.parse(process.argv[2]), cap = limits.cap;
for (const lv of levels) {
  const ms = [];
  let m, d;
  for (let r = 0; r < warm + runs; r++) {
    const t = performance.now();
    m = M.measureLevel(lv, limits);
    const cp = M.crystalPar(lv, cap);
    d = M.deepestStart(lv, cap, m);
    M.analysisRecord(lv, m, cp.crystal_optimal, d.complete ? d.deepest : null, limits.analysis);
    if (r >= warm) ms.push(performance.now() - t);
  }
  console.log(JSON.stringify({ id: lv.id, ms, optimal: m.optimal, states: m.component_states, deepest: d.deepest }));
}
"""


def arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--packs", type=Path, default=None, help="folder of packs (default: the repository's packs/)")
    ap.add_argument("--runs", type=int_in(1, 1000), default=5, help="timed runs per level (1..1000, default 5)")


def run(args: argparse.Namespace) -> int:
    node = shutil.which("node")
    if not node:
        raise UsageError("node (Node.js) is not on PATH: the editor's verdicts run in JavaScript")
    levels = [lv for p in default_paths(args.packs or ROOT / "packs") for lv in read_pack(p).levels]
    picks = {max(levels, key=lambda lv: (lv.optimal or 0, lv.id)).id: "highest par",
             max(levels, key=lambda lv: (lv.analysis.component_states if lv.analysis else 0, lv.id)).id: "most positions"}
    chosen = [lv for lv in levels if lv.id in picks]
    core = [{k: v for k, v in lv.to_json().items() if k not in ("analysis", "solution", "optimal")} for lv in chosen]
    proc = subprocess.run([node, "--input-type=module", "-e", SCRIPT, str(MEASURE_JS),
                           json.dumps([core, {"cap": DEFAULT_STATE_CAP, "planCap": DEFAULT_PLAN_CAP,
                                              "solutionCap": DEFAULT_PLAN_CAP, "chainWork": DEFAULT_CHAIN_WORK,
                                              "memberCap": MEMBER_CAP,
                                              "analysis": schema.describe(Analysis)}, args.runs, 2])],
                          capture_output=True, text=True, check=True, cwd=ROOT)
    load = os.getloadavg()[0]
    print(f"editor verdicts, measure.js under Node.js (best / median of {args.runs} after 2 warm-up runs; "
          f"load average {load:.1f}); lumina.engine measure + exact_sweep in the same run:")
    for lv, line in zip(chosen, proc.stdout.splitlines()):
        js = json.loads(line)
        py = []
        for _ in range(args.runs):
            t0 = time.process_time()
            measure(lv, state_cap=DEFAULT_STATE_CAP)
            exact_sweep(lv, per_depth=0, state_cap=DEFAULT_STATE_CAP)
            py.append((time.process_time() - t0) * 1000)
        print(f"  {lv.id} ({picks[lv.id]}: par {js['optimal']}, {js['states']:,} positions, deepest {js['deepest']}): "
              f"JS {min(js['ms']):.0f} / {median(js['ms']):.0f} ms, Python {min(py):.0f} / {median(py):.0f} ms "
              f"({min(js['ms']) / max(min(py), 0.001):.1f}x); target 300 ms")
    return 0
