"""`python -m lumina.verify [PACKS...]`: re-solve every level from disk and compare.

Nothing the generator knew is trusted: each pack is re-read and validated, every
level is re-solved from scratch (the cached `optimal` is only compared against), its
stored solution is replayed move by move, the filters and tutorials are re-checked,
and the unlock gates are checked against a player who earns two stars everywhere.

Prints per pack a count line and a `moves→levels` histogram, names every failing
level and why; exits 1 on any failure and 2 on unreadable input. With no arguments
it checks `packs/world-*.json` and `packs/dailies.json`.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from lumina.cli import ArgumentParser, UsageError, run
from lumina.engine import Board, Outcome, solve
from lumina.generate import dag_analysis, family_key, signature
from lumina.packfile import Pack, PackError, pack_files, read_pack
from lumina.worlds import (BEAM_MAX_DEAD_SHARE, BEAM_MAX_SOLUTIONS, GATES, MAX_DEAD_SHARE,
                           MAX_SOLUTIONS, world)

MAX_DIP = 2        # a level may be this many moves easier than the hardest before it
MAX_STEP = 2       # consecutive distinct counts of a world differ by at most this
TUTORIAL_KIND = {1: "crystal", 2: "sand", 3: "ice", 4: "rime"}


@dataclass
class PackResult:
    pack: Pack
    solvable: int = 0
    confirmed: int = 0
    histogram: Counter = field(default_factory=Counter)
    failures: list[tuple[str, str]] = field(default_factory=list)

    def fail(self, level_id: str, reason: str) -> None:
        self.failures.append((level_id, reason))

    def to_json(self) -> dict:
        return {"pack": self.pack.meta.get("pack", self.pack.path.stem), "name": self.pack.name,
                "world": self.pack.meta.get("world"), "levels": len(self.pack.levels),
                "solvable": self.solvable, "confirmed": self.confirmed,
                "histogram": {str(k): v for k, v in sorted(self.histogram.items())},
                "failures": [{"level": l, "reason": r} for l, r in self.failures]}


@dataclass
class VerifyReport:
    ok: bool
    lines: list[str]
    packs: list[dict]
    gates: dict


def replay(level, moves) -> str | None:
    """None when `moves` is legal and wins exactly at its last move, else why not."""
    board = Board(level)
    s = board.start
    if board.is_solved(s) and moves:
        return "already solved at the start"
    for n, mv in enumerate(moves, 1):
        try:
            s = board.apply(s, tuple(mv))
        except ValueError:
            return f"stored move {n} {list(mv)} is illegal"
        if board.is_solved(s) and n < len(moves):
            return f"stored solution wins early, at move {n} of {len(moves)}"
    if not board.is_solved(s):
        return "stored solution does not reach the win"
    return None


def check_level(lv, res: PackResult) -> None:
    sol = solve(lv)
    if sol.outcome is not Outcome.SOLVED:
        res.fail(lv.id, f"the solver finds it {sol.outcome.value}")
        return
    res.solvable += 1
    res.histogram[sol.optimal] += 1
    if lv.optimal is None:
        res.fail(lv.id, "no stored optimal count")
    elif lv.optimal != sol.optimal:
        res.fail(lv.id, f"stored optimal {lv.optimal} but the solver proves {sol.optimal}")
    else:
        res.confirmed += 1
    if lv.solution is None:
        res.fail(lv.id, "no stored solution")
    else:
        why = replay(lv, lv.solution)
        if why:
            res.fail(lv.id, why)
        elif len(lv.solution) != sol.optimal:
            res.fail(lv.id, f"stored solution has {len(lv.solution)} moves, optimal is {sol.optimal}")
    if lv.analysis is None:
        res.fail(lv.id, "no stored analysis")
        return
    fresh, _ = dag_analysis(lv, family_key(lv, sol.optimal))
    if fresh != lv.analysis:
        res.fail(lv.id, f"stored analysis {lv.analysis} differs from a fresh one {fresh}")
    if lv.tutorial:
        return
    beam = lv.win == "beam"
    max_sol = BEAM_MAX_SOLUTIONS if beam else MAX_SOLUTIONS
    max_dead = BEAM_MAX_DEAD_SHARE if beam else MAX_DEAD_SHARE
    if fresh.solutions_capped or fresh.solutions > max_sol:
        res.fail(lv.id, f"{fresh.solutions} optimal solutions (at most {max_sol})")
    if fresh.dead_share > max_dead:
        res.fail(lv.id, f"{fresh.dead_share:.0%} of blocks never move (at most {max_dead:.0%})")


def check_tutorial(lv, number: int, res: PackResult) -> None:
    """A tutorial must show its mechanic in its stored optimal solution."""
    if not lv.tutorial:
        res.fail(lv.id, "level 1 of a world must be its hand-authored tutorial")
        return
    if lv.solution is None or replay(lv, lv.solution):
        return                  # no solution, or an illegal one (check_level names it)
    if number == 5:
        board = Board(lv)
        s = board.start
        for mv in lv.solution:
            s = board.apply(s, tuple(mv))
        lit, cells = board.beam(s)
        if lv.win != "beam" or not lit or not any((m.x, m.y) in cells for m in lv.mirrors):
            res.fail(lv.id, "beam tutorial's winning light does not turn at a mirror")
        return
    kind = TUTORIAL_KIND[number]
    moved = [(lv.blocks[b].kind, d) for b, d in lv.solution]
    if not any(k == kind for k, _ in moved):
        res.fail(lv.id, f"tutorial's optimal solution never moves a {kind} block")
    if kind == "ice" and any(k == "ice" and abs(d) < 2 for k, d in moved):
        res.fail(lv.id, "ice tutorial nudges the ice less than two cells")
    if kind == "rime":
        start_flags = Board(lv).decode(Board(lv).start)[1]
        if any(f for b, f in zip(lv.blocks, start_flags) if b.kind == "rime"):
            res.fail(lv.id, "rime tutorial's rime is thawed at load: the thaw is never shown")


def check_pack_shape(res: PackResult) -> None:
    levels = res.pack.levels
    sigs: dict[str, str] = {}
    for lv in levels:
        sig = signature(lv)
        if sig in sigs:
            res.fail(lv.id, f"exact duplicate of {sigs[sig]}")
        sigs.setdefault(sig, lv.id)
    for a, b in zip(levels, levels[1:]):
        if a.analysis and b.analysis and a.analysis.family == b.analysis.family:
            res.fail(b.id, f"same family as the level before it ({a.id})")
    number = res.pack.meta.get("world")
    if not isinstance(number, int):
        return
    try:
        w = world(number)
    except KeyError:
        res.fail(res.pack.path.name, f"world {number} is not one of the five worlds")
        return
    if len(levels) != 30:
        res.fail(res.pack.path.name, f"a world has 30 levels, this one {len(levels)}")
    if levels:
        check_tutorial(levels[0], number, res)
    if res.pack.meta.get("name") != w.name:
        res.fail(res.pack.path.name, f"world {number} is named {w.name!r}")
    best = 0
    counts = [lv.optimal for lv in levels if not lv.tutorial and lv.optimal is not None]
    for lv in levels:
        if lv.tutorial or lv.optimal is None:
            continue
        if lv.optimal < best - MAX_DIP:
            res.fail(lv.id, f"difficulty dips to {lv.optimal} after {best} (curve must rise)")
        best = max(best, lv.optimal)
    distinct = sorted(set(counts))
    for a, b in zip(distinct, distinct[1:]):
        if b - a > MAX_STEP:
            res.fail(res.pack.path.name, f"curve has a hole: no level between {a} and {b} moves")


def gate_check(results: Sequence[PackResult]) -> tuple[dict, list[str]]:
    """Is every gate reachable earning two stars on every level of earlier worlds?"""
    per_world = {r.pack.meta.get("world"): len(r.pack.levels) for r in results
                 if isinstance(r.pack.meta.get("world"), int)}
    gates, problems, total = {}, [], 0
    for n in sorted(GATES):
        if n not in per_world or any(m not in per_world for m in GATES if m < n):
            continue            # judged only when every earlier world is being verified
        need = GATES[n]
        ok = total >= need
        gates[str(n)] = {"needs": need, "two_star_total_before": total, "reachable": ok}
        if not ok:
            problems.append(f"world {n} gate needs {need} stars but two stars on every earlier "
                            f"level give only {total}")
        total += 2 * per_world[n]
    return gates, problems


def verify_packs(packs: Sequence[Pack]) -> VerifyReport:
    results = []
    lines = []
    for pack in packs:
        res = PackResult(pack=pack)
        for lv in pack.levels:
            check_level(lv, res)
        check_pack_shape(res)
        results.append(res)
        n = len(pack.levels)
        number = pack.meta.get("world")
        title = f"World {number} ({pack.name})" if isinstance(number, int) else pack.name
        lines.append(f"{title}: {res.solvable}/{n} solvable · {res.confirmed}/{n} optimal counts "
                     "confirmed")
        lines.append("  moves→levels  " + " ".join(f"{k}:{v}" for k, v in sorted(res.histogram.items())))
        for lid, why in res.failures:
            lines.append(f"  FAIL {lid}: {why}")
    gates, problems = gate_check(results)
    if gates:
        lines.append("Gates (two stars everywhere): " + " ".join(
            f"W{n}:{g['two_star_total_before']}/{g['needs']}" for n, g in gates.items()))
    lines.extend(f"  FAIL gate: {p}" for p in problems)
    total = sum(len(r.pack.levels) for r in results)
    bad = sum(len(r.failures) for r in results) + len(problems)
    lines.append(f"{'OK' if not bad else 'FAILED'}: {total} levels re-solved from disk, "
                 f"{bad} failure(s)")
    return VerifyReport(ok=not bad, lines=lines, packs=[r.to_json() for r in results], gates=gates)


def default_paths(root: Path = Path("packs")) -> list[Path]:
    return sorted(root.glob("world-*.json")) + ([root / "dailies.json"]
                                                if (root / "dailies.json").exists() else [])


def verify_paths(paths: Sequence[str | Path]) -> VerifyReport:
    """Read (PackError on unreadable input) and verify packs."""
    return verify_packs([read_pack(p) for p in paths])


def main(argv: Sequence[str] | None = None) -> int:
    ap = ArgumentParser(prog="python -m lumina.verify", description=__doc__.split("\n")[0])
    ap.add_argument("packs", nargs="*", type=Path, help="pack files or folders of packs")
    args = ap.parse_args(argv)
    paths = pack_files(args.packs) if args.packs else default_paths()
    if not paths:
        raise UsageError("no packs given and none found under packs/")
    report = verify_paths(paths)
    print("\n".join(report.lines))
    return 0 if report.ok else 1


if __name__ == "__main__":
    run(main)
