"""`python -m lumina.vectors [--out tests/js/vectors.json]`: parity vectors for the JS board.

Python is the reference here: for every published level (and a set of hand-drawn
levels covering every kind) it records the legal moves and the solved flag at the
start and along seeded random walks of reachable states, plus every level's stored
solution and optimal count. `tests/js/parity.test.mjs` replays them through the very
module the site's pages import (`templates/static/engine.js`).

It also carries the site's rules as `lumina.sitedata` defines them: `site` (the #site-data
object every page embeds), `days` (calendar dates and their daily-pool index) and `stars`
(moves, par, helped -> stars), which `tests/js/core.test.mjs` replays through core.js.
"""
from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Sequence

import datetime as _dt

from lumina import sitedata
from lumina.cli import run
from lumina.engine import Board, Outcome, solve
from lumina.model import Block
from lumina.packfile import atomic_write, read_pack
from lumina.verify import default_paths
from lumina.worlds import DAILY_EPOCH, DAILY_POOL, TUTORIALS

WALK_STATES = 24


def level_at_state(level, positions, flags):
    """The level that plays exactly like `level` from (positions, flags): spent sand never
    moves again, so it becomes walls; thawed rime never freezes again, so it becomes crystal.
    Its par is the optimal number of moves left from that position."""
    blocks, walls = [], list(level.walls)
    for b, (x, y), f in zip(level.blocks, positions, flags):
        if b.kind == "sand" and f:
            walls.extend((x + dx, y + dy) for dy in range(b.h) for dx in range(b.w))
        else:
            blocks.append(Block(kind="crystal" if b.kind == "rime" and f else b.kind, x=x, y=y, w=b.w, h=b.h))
    return level.replace(id=f"{level.id}-at", blocks=tuple(blocks), walls=tuple(sorted(walls)), optimal=None,
                         solution=None, analysis=None, name=None, tutorial=False)


def moves_left(level, positions, flags) -> int | None:
    """Python's optimal count from a position (None: no win from there)."""
    sol = solve(level_at_state(level, positions, flags))
    if sol.outcome is Outcome.EXHAUSTED:
        raise ValueError(f"level {level.id}: the solver's state cap was hit")
    return sol.optimal if sol.outcome is Outcome.SOLVED else None


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
    # one position off the start (the walk's last unsolved state) carries Python's distance to a win
    for v in reversed(out[1:]):
        if not v["solved"]:
            v["left"] = moves_left(level, v["positions"], v["flags"])
            break
    return out


def day_vectors() -> list[dict]:
    """Dates around the epoch, leap days, month and year ends, and the pool's wrap."""
    epoch, pool = DAILY_EPOCH, DAILY_POOL
    days = {epoch - _dt.timedelta(days=1), epoch, epoch + _dt.timedelta(days=pool - 1),
            epoch + _dt.timedelta(days=pool), _dt.date(2000, 2, 29), _dt.date(2024, 2, 29),
            _dt.date(2024, 3, 1), _dt.date(2025, 12, 31), _dt.date(2026, 1, 1), _dt.date(2026, 3, 29),
            _dt.date(2026, 10, 25), _dt.date(2026, 12, 3), _dt.date(2038, 1, 19), _dt.date(1969, 7, 20)}
    return [{"date": d.isoformat(), "index": sitedata.day_index(d)} for d in sorted(days)]


def star_vectors() -> list[dict]:
    return [{"moves": m, "par": par, "helped": h, "stars": sitedata.stars(m, par, h)}
            for par in (1, 7) for m in range(par, par + 5) for h in (False, True)]


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
    return {"seed": seed, "cases": cases, "solutions": solutions, "site": sitedata.site_data(),
            "days": day_vectors(), "stars": star_vectors()}


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
