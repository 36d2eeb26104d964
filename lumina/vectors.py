"""`python -m lumina.vectors [--out tests/js/vectors.json]`: parity vectors for the JS board.

Python is the reference here: for every published level (and a set of hand-drawn
levels covering every kind) it records the legal moves and the solved flag at the
start and along seeded random walks of reachable states, plus every level's stored
solution and optimal count. `tests/js/parity.test.mjs` replays them through the very
module the site's pages import (`templates/static/engine.js`).
"""
from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Sequence

from lumina.cli import run
from lumina.engine import Board
from lumina.packfile import atomic_write, read_pack
from lumina.verify import default_paths
from lumina.worlds import TUTORIALS

WALK_STATES = 24


def state_vectors(level, rng: random.Random, count: int = WALK_STATES) -> list[dict]:
    """Legal moves and solved flag at `count` reachable states (random walks that
    restart from the start whenever they win or get stuck)."""
    board = Board(level)
    out = []
    s = board.start
    for _ in range(count):
        positions, flags = board.decode(s)
        moves = board.moves(s)
        out.append({"positions": [list(p) for p in positions], "flags": [int(f) for f in flags],
                    "moves": [list(m) for m in moves], "solved": board.is_solved(s)})
        if not moves or board.is_solved(s):
            s = board.start
        else:
            s = board.apply(s, rng.choice(moves))
    return out


def build_vectors(pack_paths: Sequence[Path], seed: int = 7) -> dict:
    rng = random.Random(seed)
    levels = list(TUTORIALS.values())
    for p in pack_paths:
        levels.extend(read_pack(p).levels)
    cases, solutions = [], []
    for lv in levels:
        core = {k: v for k, v in lv.to_json().items() if k not in ("analysis",)}
        cases.append({"level": core, "states": state_vectors(lv, rng)})
        if lv.solution is not None and lv.optimal is not None:
            solutions.append({"level": core, "optimal": lv.optimal,
                              "solution": [list(m) for m in lv.solution]})
    return {"seed": seed, "cases": cases, "solutions": solutions}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m lumina.vectors", description=__doc__.split("\n")[0])
    ap.add_argument("packs", nargs="*", type=Path)
    ap.add_argument("--out", type=Path, default=Path("tests/js/vectors.json"))
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    data = build_vectors(args.packs or default_paths(), args.seed)
    atomic_write(args.out, json.dumps(data, separators=(",", ":")) + "\n")
    n = sum(len(c["states"]) for c in data["cases"])
    print(f"{args.out}: {len(data['cases'])} levels, {n} states, {len(data['solutions'])} solutions")
    return 0


if __name__ == "__main__":
    run(main)
