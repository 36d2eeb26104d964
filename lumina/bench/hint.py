"""`python -m lumina.bench hint`: the site's hint search, timed under Node.js.

The hint worker (`templates/static/hint-worker.js`) runs `search.js`'s `solveFrom`: a
breadth-first search from where the player stands, at most `core.SEARCH_BUDGET` states.
This searches from the start of the committed level with the highest par and of the one
with the most positions (the worker's longest searches), in a fresh Node.js process: the
first search is "cold" (what a player's first hint costs: the code not yet compiled, the
workspace not yet allocated), then `--runs` warm searches print their best and median
milliseconds and states per second. With `--ref COMMIT` the same script also runs on
that commit's `templates/static` (taken with `git archive`), side by side in the same run,
and the answers of both are checked to be identical (outcome, line, states). `--desc TEXT`
adds a share-link level (for example an 8x8 board whose search runs out of budget, the
longest a hint ever takes).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from lumina.bench import median
from lumina.cli import UsageError, int_in
from lumina.desc import from_desc
from lumina.model import LevelError
from lumina.packfile import read_pack
from lumina.render.site import ROOT
from lumina.verify import default_paths

STATIC = ROOT / "templates" / "static"

# One cold search, then `runs` warm ones, per level; prints one JSON line per level.
SCRIPT = """
const dir = process.argv[1];
const E = await import(dir + "/engine.js"), S = await import(dir + "/search.js"), C = await import(dir + "/core.js");
const [levels, runs] = JSON.parse(process.argv[2]);
for (const lv of levels) {
  const board = E.compile(lv), start = E.startState(board), ms = [];
  let res, cold;
  for (let r = 0; r <= runs; r++) {
    const t = performance.now();
    res = S.solveFrom(board, start, C.SEARCH_BUDGET);
    const dt = performance.now() - t;
    if (r === 0) cold = dt; else ms.push(dt);
  }
  console.log(JSON.stringify({ id: lv.id, cold, ms, res }));
}
"""


def arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--packs", type=Path, default=None, help="folder of packs (default: the repository's packs/)")
    ap.add_argument("--runs", type=int_in(1, 1000), default=20, help="warm searches per level (1..1000, default 20)")
    ap.add_argument("--desc", action="append", default=[], metavar="TEXT",
                    help="also search from the start of this share-link level (repeatable)")
    ap.add_argument("--ref", default=None, metavar="COMMIT",
                    help="also time this commit's templates/static (git archive) side by side")


def _node_run(node: str, static: Path, levels: list[dict], runs: int) -> list[dict]:
    """One fresh Node.js process per level, so each level's first search is cold."""
    out = []
    for lv in levels:
        proc = subprocess.run([node, "--input-type=module", "-e", SCRIPT, static.resolve().as_uri(),
                               json.dumps([[lv], runs])], capture_output=True, text=True, check=True, cwd=ROOT)
        out.append(json.loads(proc.stdout))
    return out


def _static_at(commit: str, into: Path) -> Path:
    """`templates/static` of `commit`, unpacked under `into`."""
    git = shutil.which("git")
    proc = subprocess.run([git or "git", "-C", str(ROOT), "archive", commit, "templates/static"],
                          capture_output=True) if git else None
    if proc is None or proc.returncode != 0:
        raise UsageError(f"--ref {commit}: not a commit of this repository's history (git archive failed)")
    with tarfile.open(fileobj=BytesIO(proc.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into / "templates" / "static"


def _line(js: dict) -> str:
    best, states = min(js["ms"]), js["res"]["states"]
    return (f"cold {js['cold']:.1f} ms, warm {best:.1f} / {median(js['ms']):.1f} ms "
            f"({states / max(best, 1e-3) / 1000:.2f}M states/s)")


def run(args: argparse.Namespace) -> int:
    node = shutil.which("node")
    if not node:
        raise UsageError("node (Node.js) is not on PATH: the hint search runs in JavaScript")
    levels = [lv for p in default_paths(args.packs or ROOT / "packs") for lv in read_pack(p).levels]
    picks = {max(levels, key=lambda lv: (lv.optimal or 0, lv.id)).id: "highest par",
             max(levels, key=lambda lv: (lv.analysis.component_states if lv.analysis else 0, lv.id)).id: "most positions"}
    chosen = [lv.to_json() for lv in levels if lv.id in picks]
    for k, text in enumerate(args.desc, 1):
        try:
            lv = from_desc(text, id=f"desc-{k}")
        except LevelError as e:
            raise UsageError(f"--desc {text[:40]}: {e.field}: {e.message}") from None
        chosen.append(lv.to_json())
        picks[lv.id] = "given"
    with tempfile.TemporaryDirectory(prefix="lumina-hint-") as tmp:
        ref = _node_run(node, _static_at(args.ref, Path(tmp)), chosen, args.runs) if args.ref else None
        now = _node_run(node, STATIC, chosen, args.runs)
    load = os.getloadavg()[0]
    print(f"hint search (search.js solveFrom under Node.js from the level's start, budget as the worker's; "
          f"cold = the first search in a fresh process, then best / median of {args.runs} warm; load average {load:.1f}):")
    for k, js in enumerate(now):
        res = js["res"]
        what = (f"par {res['left']}" if res["outcome"] == "solved" else res["outcome"])
        print(f"  {js['id']} ({picks[js['id']]}: {what}, {res['states']:,} states searched): {_line(js)}")
        if ref:
            old = ref[k]
            same = "same answer" if old["res"] == res else "ANSWERS DIFFER"
            print(f"    at {args.ref}: {_line(old)}; {same}; speed-up {old['cold'] / js['cold']:.1f}x cold, "
                  f"{min(old['ms']) / max(min(js['ms']), 1e-3):.1f}x warm")
    return 0
