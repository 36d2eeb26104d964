"""One mining job: a pure function of its fields, every board it measures judged.

A job (`lumina.worlds.MineJob`, named by a `[[mine]]` table of the campaign) is either
one deep layout search (`lumina.gen.search`, a budget in sweeps; a search that reaches
its target hands the rest of the budget to the next, seeded by the job) or a number of
random solved layouts (`lumina.gen.layouts`). Every layout the job sweeps is a
candidate board, not only the one the search aimed at: its hardest start (RULES.md
"The hardest start": the deepest par, binding par for twist jobs) is judged by the
judge's level rules, and every board that passes is returned with its proven par,
one optimal solution, every measure and the felt-difficulty figures.

Insight: a deep search sweeps thousands of layouts on its way to one target, and
most of them hold a shippable board at another par; the old generator dropped them:

    sweep 1 .. 3000    layout -> deepest start -> judge -> board (kept, any par in `keep`)
                                                        -> rejected (counted by reason)
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from lumina import judge
from lumina.engine import (Board, LayoutSweep, Outcome, exact_sweep, keep_freed_memory,
                           level_at, measure, solve)
from lumina.gen import search as deep
from lumina.gen.layouts import solved_layout
from lumina.model import Level
from lumina.worlds import MineJob

GENERATOR = "lumina-gen/5"
SWEEP_STATE_CAP = 500_000
SOLVE_STATE_CAP = 500_000
PER_DEPTH = 8               # starts harvested at the deepest par (a seeded sample)
DRAWS = 2                   # starts judged per board, widest twist margin first
TUNING = deep.Tuning(stall=1000, restart="fresh")


@dataclass
class JobResult:
    job: str
    boards: list[dict]          # pool rows, sorted by desc
    work: dict[str, int]        # counts (never timings): sweeps, states, rejections


def margin_floor(job: MineJob) -> int:
    return max((judge.MARGIN_FLOOR[k] for k in job.twists), default=0)


@dataclass(frozen=True)
class _NoFelt:
    """Felt figures not played yet (the felt player is not installed): the pool fills
    them in later (`lumina.gen.pool.fill_felt`), a pure function of the board."""
    effort: None = None
    success: None = None


def play_felt(level: Level) -> Any:
    """The felt-difficulty player's figures (`lumina.playtest.felt.felt`, seed 0), or
    _NoFelt when that module is not there yet."""
    try:
        from lumina.playtest.felt import felt
    except ImportError:
        return _NoFelt()
    return felt(level, seed=0)


def level_reason(level: Level, m: Any, crystal_par: int | None) -> str | None:
    """The judge's verdict on one solved level (`level.optimal` set): the first
    problem's reason, or None when it ships. Uses `judge.level_problems` when the
    judge has it, else `judge.judge_level` (its older spelling)."""
    problems = getattr(judge, "level_problems", None)
    if problems is not None:
        found = problems(level, m)
        return found[0].reason if found else None
    return judge.judge_level(level, m, beam=level.win == "beam")


def row_of(level: Level, job: MineJob) -> dict:
    """The pool's row for one accepted level (par, solution and analysis set)."""
    a = level.analysis
    body = level.to_json()
    del body["id"]
    effort, success = a.effort, a.success
    crystal = a.crystal_optimal if a.crystal_optimal is not None else level.optimal
    return {"desc": level.desc(), "mechanic": "+".join(level.mechanics),
            "size": f"{level.width}x{level.height}", "twists": job.twist_text,
            "beam": int(level.win == "beam"), "blocks": len(level.blocks),
            "par": level.optimal, "crystal_par": crystal,
            "margin": level.optimal - crystal if judge.has_twist(level) else 0,
            "plans": a.plans, "chain": a.chain, "dead_share": a.dead_share,
            "solutions": a.solutions, "family": a.family, "reskin": reskin_key(level),
            "felt_effort": effort, "felt_success": success,
            "job": job.id, "generator": GENERATOR, "level": body}


def reskin_key(level: Level) -> str:
    """The board's family key with block kinds ignored (a re-skin turns a block's kind;
    symmetry and translation are already folded by the family key)."""
    plain = level.replace(blocks=tuple(
        b if b.kind == "key" else type(b)(kind="crystal", x=b.x, y=b.y, w=b.w, h=b.h)
        for b in level.blocks), optimal=None, solution=None, analysis=None)
    return judge.family_key(plain)


class _Miner:
    """Judges the layouts one job sweeps; each board (component) once."""

    def __init__(self, job: MineJob):
        self.job = job
        self.binding = bool(job.twists)
        self.floor = margin_floor(job)
        self.seen: set = set()
        self.judged: Counter[int] = Counter()     # boards judged per par
        self.rows: dict[str, dict] = {}
        self.work: Counter[str] = Counter()

    def _fingerprint(self, layout: Level, sw: LayoutSweep) -> tuple:
        """One board (the component of the layout) whatever member the search stands
        on: its fixed parts and the sweep's exact counts."""
        shapes = tuple(sorted((b.kind, b.w, b.h) for b in layout.blocks))
        return (shapes, layout.walls, layout.mirrors, layout.exit, layout.key.x, layout.key.y,
                sw.positions, sw.states, sw.goals, sw.solvable, sw.traps,
                tuple(sorted(sw.histogram.items())))

    def observe(self, layout: Level, sw: LayoutSweep) -> None:
        job = self.job
        par = sw.deepest_binding if self.binding else sw.deepest
        if not job.keep[0] <= par <= job.keep[1]:
            self.work["out_of_keep"] += 1
            return
        if self.binding and sw.deepest_margin < self.floor:
            self.work["margin"] += 1
            return
        if self.judged[par] >= job.per_par:
            self.work["par_full"] += 1
            return
        fp = self._fingerprint(layout, sw)
        if fp in self.seen:
            self.work["seen_board"] += 1
            return
        self.seen.add(fp)
        self.judged[par] += 1
        self.work["boards"] += 1
        full = exact_sweep(layout, min_depth=par, per_depth=PER_DEPTH,
                           seed=len(self.seen), state_cap=SWEEP_STATE_CAP,
                           binding_only=self.binding)
        self.work["judge_sweep_states"] += full.work
        cands = list(full.harvest.get(par, ()))
        cands.sort(key=lambda c: (c.crystal_par - c.par, c.state))
        board = Board(layout)
        for cand in cands[:DRAWS]:
            level = level_at(board, cand.state, "pool")
            self.work["candidates"] += 1
            sol = solve(level, state_cap=SOLVE_STATE_CAP)
            if sol.outcome is not Outcome.SOLVED:
                self.work[sol.outcome.value] += 1
                continue
            m = measure(level, solution=sol.moves)
            level = level.replace(optimal=sol.optimal, solution=sol.moves)
            reason = level_reason(level, m, cand.crystal_par)
            if reason is not None:
                self.work[f"rejected_{reason}"] += 1
                continue
            level = level.replace(analysis=judge.analysis(level, m, felt=play_felt(level)))
            desc = level.desc()
            if desc not in self.rows:
                self.rows[desc] = row_of(level, job)
            self.work["accepted"] += 1
            return


def run_job(job: MineJob) -> JobResult:
    """Run one mining job (pure: the same job gives the same rows on any machine)."""
    keep_freed_memory()
    miner = _Miner(job)
    rng = random.Random(f"lumina-mine:{job.id}")
    if job.deep:
        used = 0
        k = 0
        while used < job.deep:
            r = deep.search(job, rng.randrange(1, 2**32), target=job.target or 999,
                            budget_sweeps=job.deep - used, per_depth=0,
                            state_cap=SWEEP_STATE_CAP, tuning=TUNING,
                            exact=bool(job.target), margin=max(job.margin, miner.floor),
                            observe=miner.observe)
            used += r.sweeps
            k += 1
            miner.work["search_states"] += r.work
        miner.work["searches"] = k
        miner.work["sweeps"] = used
    else:
        for i in range(job.layouts):
            lrng = random.Random(f"lumina-mine:{job.id}:{i}")
            layout = solved_layout(job, lrng)
            if layout is None:
                miner.work["no_layout"] += 1
                continue
            sw = exact_sweep(layout, per_depth=0, state_cap=SWEEP_STATE_CAP)
            miner.work["sweeps"] += 1
            miner.work["search_states"] += sw.work
            if sw.complete:
                miner.observe(layout, sw)
    rows = [miner.rows[d] for d in sorted(miner.rows)]
    return JobResult(job=job.id, boards=rows, work=dict(sorted(miner.work.items())))
