"""`python -m lumina.generate`: deterministic packs, layouts -> candidates -> verdicts.

    python -m lumina.generate                 # all five worlds -> packs/world-N.json
    python -m lumina.generate --world 3       # one world (judged against worlds 1-2 in --out)
    python -m lumina.generate --dailies       # the 174-level daily pool -> packs/dailies.json
    options: --seed S (default: the world's recorded seed), --workers N, --out DIR

Per bucket (RULES.md, "Generation"; docs/GENERATION.md):
  layouts     phase A: a layout that is already solved (key on the lantern, or its light
              on it), drawn at random; deep buckets search over layouts instead
              (lumina.gen.search: add, remove and move blocks and walls, keep what makes the
              component deeper), one seeded search per layout, budgets in sweeps;
  candidates  the engine's exact sweep (`lumina.engine.exact_sweep`) gives every start of
              the layout's component its exact real par, twists included; at most 60 per
              par (a seeded sample), binding ones only in twist buckets;
  verdicts    each candidate is re-solved (the solver has the last word) and judged by
              `lumina.judge`, cheapest first: band, exact duplicate, near duplicate (this
              bucket, earlier buckets, earlier packs), binding, then the measures (plans,
              dead blocks). Every rejection is counted by reason and printed;
  levels      one per layout, carrying par, solution and every RULES.md measure.
Worlds are judged against the earlier worlds' packs in --out, the daily pool against
every world's pack, so packs are generated in order: worlds 1-5, then the dailies.

Buckets are independent (seeded by pack seed and bucket name), so the packs are
byte-identical whatever --workers is.
"""
from __future__ import annotations

import random
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from lumina import judge
from lumina.gen import search as deep
from lumina.cli import ArgumentParser, UsageError, int_in, run
from lumina.engine import (Board, Candidate, LayoutSweep, Outcome, exact_sweep,
                           keep_freed_memory, level_at, measure, solve)
from lumina.executor import run_ordered
from lumina.model import TWIST_KINDS, Beam, Block, Exit, Level, LevelError, Mirror, random_light
from lumina.packfile import PackError, read_pack, write_pack_and_report
from lumina.safeio import check_writable_folder
from lumina.worlds import DAILY_POOL, DAILY_SEED, WORLDS, Bucket, scaled_daily_buckets, world

GENERATOR_VERSION = "lumina-gen/3"
PER_DEPTH = 60              # harvest cap per par (the article's 9.9 GB lesson)
SWEEP_STATE_CAP = 500_000
SOLVE_STATE_CAP = 500_000
MAX_DRAWS_PER_LAYOUT = 60
MAX_LAYOUTS = 1500          # random layouts per shallow bucket, at least ...
LAYOUTS_PER_LEVEL = 100     # ... this many per level (a large --pool scales its buckets)
TOLERANCE_STEP = 150        # random layouts before a target accepts one move further away
SEARCHES_PER_LEVEL = 4     # deep buckets: at most this many searches per level (slot)
# The generator pins its search tuning, so the packs it wrote stay reproducible when the
# deep search's defaults are retuned for `bench deep`: lumina-gen/3 packs are made with
# fresh restarts after 1000 idle sweeps (lumina-gen/2: back to the best after 3000).
SEARCH_TUNING = deep.Tuning(stall=1000, restart="fresh")
REJECTION_REASONS = ("layout", "sweep_capped", "shallow", "unsolvable", "exhausted",
                     "already_solved", "under_band", "over_band", "band_full", "duplicate", "near_duplicate",
                     "unbound", "plans", "dead_blocks")


# ---------------------------------------------------------------------------
# Phase A: a layout that is already solved.

def _fits(cells: list[tuple[int, int]], taken: set[tuple[int, int]], W: int, H: int) -> bool:
    return all(0 <= x < W and 0 <= y < H and (x, y) not in taken for x, y in cells)


def _place_blockers(rng: random.Random, bucket: Bucket, taken: set[tuple[int, int]],
                    count: int) -> list[Block]:
    W, H = bucket.width, bucket.height
    blocks: list[Block] = []
    for _ in range(count):
        for _try in range(40):
            length = 3 if rng.random() < 0.25 and max(W, H) >= 5 else 2
            if rng.random() < 0.5:
                w, h = length, 1
            else:
                w, h = 1, length
            x, y = rng.randrange(W - w + 1), rng.randrange(H - h + 1)
            b = Block(kind="crystal", x=x, y=y, w=w, h=h)
            cells = b.cells()
            if _fits(cells, taken, W, H):
                taken.update(cells)
                blocks.append(b)
                break
    return blocks


def _lane_crossers(rng: random.Random, bucket: Bucket, key: Block,
                   taken: set[tuple[int, int]]) -> list[Block]:
    """One to three blockers standing across the key's lane (the row or column it
    travels): the lane is where depth comes from, and random scatter rarely crosses
    it (measured: twice as many 6x6 layouts reach 12 moves with crossers)."""
    W, H = bucket.width, bucket.height
    blocks = []
    for _ in range(rng.randint(1, 3)):
        for _try in range(30):
            length = 3 if rng.random() < 0.5 and min(W, H) >= 5 else 2
            if key.horizontal:
                b = Block(kind="crystal", x=rng.randrange(W), y=key.y - rng.randrange(length),
                          w=1, h=length)
            else:
                b = Block(kind="crystal", x=key.x - rng.randrange(length), y=rng.randrange(H),
                          w=length, h=1)
            cells = b.cells()
            if b.x >= 0 and b.y >= 0 and _fits(cells, taken, W, H):
                taken.update(cells)
                blocks.append(b)
                break
    return blocks


def _assign_twists(rng: random.Random, bucket: Bucket, blockers: list[Block]) -> list[Block]:
    kinds = [k for k in TWIST_KINDS for _ in range(bucket.twists.get(k, 0))]
    order = list(range(len(blockers)))
    rng.shuffle(order)
    out = list(blockers)
    for kind, i in zip(kinds, order):
        out[i] = Block(kind=kind, x=out[i].x, y=out[i].y, w=out[i].w, h=out[i].h)
    return out


def solved_layout(bucket: Bucket, rng: random.Random, level_id: str = "layout") -> Level | None:
    """Phase A: key on the lantern (or its light on it), blockers scattered off the way.

    Returns None when this draw could not place a valid layout (counted, retried)."""
    W, H = bucket.width, bucket.height
    taken: set[tuple[int, int]] = set()
    mirrors: list[Mirror] = []
    beam = None
    if bucket.beam:
        horiz = rng.random() < 0.5
        kw, kh = (2, 1) if horiz else (1, 2)
        key = Block(kind="key", x=rng.randrange(W - kw + 1), y=rng.randrange(H - kh + 1),
                    w=kw, h=kh)
        bdir = rng.choice(("N", "E", "S", "W"))
        beam = Beam(dir=bdir, offset=rng.randrange(kh if bdir in "EW" else kw))
        traced = random_light(rng, W, H, key, beam, bucket.mirrors)
        if traced is None:
            return None
        path, mirrors, exit_ = traced
        taken.update(path)          # reserved light path: nothing sits on it when solved
    else:
        side = rng.choice(("left", "right", "top", "bottom"))
        if side in ("left", "right"):
            index = rng.randrange(H)
            x = 0 if side == "left" else W - 2
            key = Block(kind="key", x=x, y=index, w=2, h=1)
        else:
            index = rng.randrange(W)
            y = 0 if side == "top" else H - 2
            key = Block(kind="key", x=index, y=y, w=1, h=2)
        exit_ = Exit(side=side, index=index)
    taken.update(key.cells())
    taken.update((m.x, m.y) for m in mirrors)
    walls = []
    for _ in range(rng.randint(*bucket.walls)):
        free = [(x, y) for y in range(H) for x in range(W) if (x, y) not in taken]
        if free:
            cell = rng.choice(free)
            taken.add(cell)
            walls.append(cell)
    count = rng.randint(*bucket.blockers)
    blockers = [] if bucket.beam else _lane_crossers(rng, bucket, key, taken)
    blockers += _place_blockers(rng, bucket, taken, max(0, count - len(blockers)))
    if len(blockers) < bucket.blockers[0]:
        return None
    blockers = _assign_twists(rng, bucket, blockers)
    blocks = [key] + blockers
    try:
        return Level(id=level_id, width=W, height=H, exit=exit_, blocks=tuple(blocks),
                     walls=tuple(sorted(walls)), mirrors=tuple(mirrors),
                     win="beam" if bucket.beam else "exit", beam=beam)
    except LevelError:
        return None


# ---------------------------------------------------------------------------
# Layouts: phase A at random (shallow buckets) or a deep layout search (deep ones).

Source = Iterator[tuple[Level | None, random.Random, LayoutSweep | None]]


def random_layouts(bucket: Bucket, seed: int) -> Source:
    """Phase-A layouts, each drawn from its own seeded generator (no sweep yet)."""
    for i in range(max(MAX_LAYOUTS, LAYOUTS_PER_LEVEL * bucket.levels)):
        rng = random.Random(f"{seed}:{bucket.name}:{i}")
        yield solved_layout(bucket, rng), rng, None


# ---------------------------------------------------------------------------
# Candidates: every start of a layout with its exact par (RULES.md B1-B3, exact).

def harvest(bucket: Bucket, layout: Level, min_par: int, seed: int) -> LayoutSweep:
    """The layout's starts by exact real par (at most PER_DEPTH per par, a seeded
    sample); twist buckets harvest only binding starts (par > crystal par)."""
    return exact_sweep(layout, min_depth=max(1, min_par), per_depth=PER_DEPTH, seed=seed,
                       state_cap=SWEEP_STATE_CAP, binding_only=bool(bucket.twists))


def draws(sweep: LayoutSweep, pars: Sequence[int], rng: random.Random) -> list[Candidate]:
    """Candidates to try, hardest wanted par first (deep pars are the scarce ones), each
    par's harvest shuffled by the layout's generator, at most MAX_DRAWS_PER_LAYOUT."""
    out: list[Candidate] = []
    for par in sorted(set(pars), reverse=True):
        pool = list(sweep.harvest.get(par, ()))
        rng.shuffle(pool)
        out.extend(pool)
    return out[:MAX_DRAWS_PER_LAYOUT]


signature = judge.signature


def proven(level: Level) -> Level:
    """`level` with its proven optimum, one optimal solution and its measures."""
    sol = solve(level, state_cap=SOLVE_STATE_CAP)
    if sol.outcome is not Outcome.SOLVED:
        raise AssertionError(f"{level.id} is {sol.outcome.value}")
    m = measure(level)
    return level.replace(optimal=sol.optimal, solution=sol.moves, analysis=judge.analysis(level, m))


# ---------------------------------------------------------------------------
# Verdicts: the judge's filters, cheapest first, every rejection counted.

class Verdicts:
    """One bucket's judge: which candidates become levels, and why the others did not.

    `prior` holds the levels this bucket must not duplicate (earlier packs, and on a
    rerun the earlier buckets of the same pack)."""

    def __init__(self, bucket: Bucket, prior: Sequence[Level] = ()):
        self.bucket = bucket
        self.targets = bucket.targets()
        self.rejected: Counter[str] = Counter()
        self.accepted: list[Level] = []
        self.mismatches = 0
        self.sigs = {signature(lv) for lv in prior}
        self.near = judge.NearIndex()
        for lv in prior:
            self.near.add(lv, lv.id)

    @property
    def full(self) -> bool:
        return len(self.accepted) >= len(self.targets)

    def wanted(self, tolerance: int) -> list[int]:
        """Pars that would still fill a target (within `tolerance` moves), in band."""
        lo, hi = self.bucket.band
        return [p for p in range(lo, hi + 1) if self._needed(p, tolerance)]

    def hardest_wanted(self) -> int:
        need = Counter(self.targets)
        need.subtract(lv.optimal for lv in self.accepted)
        return max((t for t, n in need.items() if n > 0), default=self.bucket.band[1])

    def lowest_wanted(self) -> int:
        need = Counter(self.targets)
        need.subtract(lv.optimal for lv in self.accepted)
        return min((t for t, n in need.items() if n > 0), default=self.bucket.band[1])

    def _needed(self, par: int, tolerance: int) -> bool:
        need = Counter(self.targets)
        need.subtract(lv.optimal for lv in self.accepted)
        if self.bucket.upward:              # only a harder par may stand in for a target
            return any(n > 0 and 0 <= par - t <= tolerance for t, n in need.items())
        return any(n > 0 and abs(t - par) <= tolerance for t, n in need.items())

    def reject(self, reason: str) -> None:
        self.rejected[reason] += 1

    def consider(self, board: Board, cand: Candidate, tolerance: int) -> Level | None:
        """Re-solve the candidate (the solver has the last word), then judge it."""
        b = self.bucket
        level = level_at(board, cand.state, f"{b.name}-{len(self.accepted) + 1:02d}")
        sol = solve(level, state_cap=SOLVE_STATE_CAP)
        if sol.outcome is not Outcome.SOLVED:
            self.reject(sol.outcome.value)
            return None
        par = sol.optimal
        assert par is not None
        if par != cand.par:
            self.mismatches += 1          # an engine bug if ever non-zero: reported
        band = judge.band_reason(par, b.band)
        if band:
            self.reject(band)
        elif not self._needed(par, tolerance):
            self.reject("band_full")
        elif signature(level) in self.sigs:
            self.reject("duplicate")
        elif self.near.find(level) is not None:
            self.reject("near_duplicate")
        elif not judge.binds(level, cand.crystal_par if b.twists else None, par):
            self.reject("unbound")
        else:
            m = measure(level)
            if m.optimal != par:
                raise AssertionError(f"{b.name}: measure() optimal {m.optimal} != BFS {par}")
            reason = judge.judge_level(level, m, beam=b.beam)
            if reason:
                self.reject(reason)
                return None
            level = level.replace(optimal=par, solution=sol.moves,
                                  analysis=judge.analysis(level, m))
            self.sigs.add(signature(level))
            self.near.add(level, level.id)
            self.accepted.append(level)
            return level
        return None


# ---------------------------------------------------------------------------
# One bucket: layouts -> candidates -> verdicts -> accepted levels.

@dataclass
class BucketResult:
    bucket: str
    levels: list[Level]
    report: dict
    seconds: float = 0.0
    failed: str | None = None


@dataclass
class SlotResult:
    """One deep bucket's target (`slot`): the level that fills it, or None."""
    bucket: str
    slot: int
    level: Level | None
    rejected: dict[str, int]
    work: dict[str, int]
    seconds: float = 0.0


def _try_layout(verdicts: Verdicts, bucket: Bucket, layout: Level | None, rng: random.Random,
                sweep: LayoutSweep | None, tolerance: int, work: Counter) -> Level | None:
    """One layout's turn: its candidates by exact par, judged until one is accepted."""
    if layout is None:
        verdicts.reject("layout")
        return None
    work["layouts"] += 1
    pars = verdicts.wanted(tolerance)
    if not pars:
        verdicts.reject("band_full")
        return None
    if sweep is None:
        sweep = harvest(bucket, layout, min(pars), rng.randrange(1, 2**32))
        work["sweep_states"] += sweep.work
    if not sweep.complete:
        verdicts.reject("sweep_capped")
        return None
    cands = draws(sweep, pars, rng)
    if not cands:
        verdicts.reject("shallow")
        return None
    work["harvested"] += sum(len(v) for v in sweep.harvest.values())
    board = Board(layout)
    for cand in cands:
        work["candidates"] += 1
        level = verdicts.consider(board, cand, tolerance)
        if level is not None:
            return level                    # one level per layout
    return None


def generate_slot(bucket: Bucket, seed: int, slot: int, prior: Sequence[Level] = ()
                  ) -> SlotResult:
    """Fill target `slot` of a deep bucket: deep layout searches (`lumina.gen.search.search`,
    budget `bucket.deep` sweeps each, never seconds) aimed at that target, each
    layout's binding harvest judged, until a level is accepted or SEARCHES_PER_LEVEL
    searches are spent. Search a accepts a par up to a moves from the target. A search
    that fell short hands its best layout to the next one, which climbs on from it; one
    that reached the target but gave no level is followed by a fresh layout.

    Slots are independent of each other (seeded by pack seed, bucket name and slot),
    so a deep bucket's slots run side by side on any number of workers; `prior` only
    matters when a slot is re-run to avoid an earlier level (see assemble_bucket)."""
    t0 = time.perf_counter()
    target = bucket.targets()[slot]
    verdicts = Verdicts(bucket, prior)
    verdicts.targets = [target]
    work: Counter[str] = Counter()
    start = None
    level = None
    for attempt in range(SEARCHES_PER_LEVEL):
        rng = random.Random(f"{seed}:{bucket.name}:slot:{slot}:{attempt}")
        result = deep.search(bucket, rng.randrange(1, 2**32), target=target,
                             budget_sweeps=bucket.deep, start=start, per_depth=PER_DEPTH,
                             state_cap=SWEEP_STATE_CAP, tuning=SEARCH_TUNING)
        work["searches"] += 1
        work["search_sweeps"] += result.sweeps
        work["search_states"] += result.work
        work["search_deepest"] = max(work["search_deepest"], result.deepest)
        level = _try_layout(verdicts, bucket, result.layout, rng, result.sweep, attempt, work)
        if level is not None:
            break
        start = None if result.deepest >= target else result.layout
    if level is not None:
        level = level.replace(id=f"{bucket.name}-{slot + 1:02d}")
    if verdicts.mismatches:
        work["sweep_mismatches"] = verdicts.mismatches
    return SlotResult(bucket=bucket.name, slot=slot, level=level,
                      rejected=dict(sorted(verdicts.rejected.items())),
                      work=dict(sorted(work.items())), seconds=time.perf_counter() - t0)


def _report(bucket: Bucket, targets: list[int], accepted: list[Level], rejected: Counter,
            work: Counter) -> dict:
    report = {"bucket": bucket.name, "size": f"{bucket.width}x{bucket.height}",
              "band": list(bucket.band), "targets": targets, "levels": len(accepted),
              "layouts": work["layouts"], "sweep_states": work["sweep_states"],
              "harvested": work["harvested"], "candidates": work["candidates"],
              "accepted": len(accepted), "pars": [lv.optimal for lv in accepted],
              "rejections": {r: rejected[r] for r in REJECTION_REASONS if rejected[r]},
              "mix": {"blockers": list(bucket.blockers),
                      "twists": dict(sorted(bucket.twists.items())), "beam": bucket.beam,
                      "walls": list(bucket.walls), "deep": bucket.deep}}
    if bucket.deep:
        report["search"] = {"searches": work["searches"], "sweeps": work["search_sweeps"],
                            "states": work["search_states"], "deepest": work["search_deepest"]}
    if work["sweep_mismatches"]:        # an engine bug if ever non-zero: reported
        report["sweep_mismatches"] = work["sweep_mismatches"]
    return report


def assemble_bucket(bucket: Bucket, seed: int, slots: Sequence[SlotResult]) -> BucketResult:
    """A deep bucket from its slots, in slot order. A slot whose level repeats or nearly
    duplicates an earlier slot's is re-run here with the earlier levels as its prior,
    so the bucket equals generate_bucket's one-slot-after-another run, whatever ran
    the slots."""
    t0 = time.perf_counter()
    levels: list[Level] = []
    index = judge.NearIndex()
    sigs: set[str] = set()
    rejected: Counter[str] = Counter()
    work: Counter[str] = Counter()
    done = []
    for s in slots:
        lv = s.level
        if lv is not None and (signature(lv) in sigs or index.find(lv) is not None):
            s = generate_slot(bucket, seed, s.slot, prior=levels)
            lv = s.level
        done.append(s)
        rejected.update(s.rejected)
        deepest = max(work["search_deepest"], s.work.get("search_deepest", 0))
        work.update(s.work)
        work["search_deepest"] = deepest
        if lv is not None:
            levels.append(lv)
            index.add(lv, lv.id)
            sigs.add(signature(lv))
    accepted = sorted(levels, key=lambda lv: (lv.optimal, signature(lv)))
    report = _report(bucket, bucket.targets(), accepted, rejected, work)
    failed = None
    missing = [s.slot for s in done if s.level is None]
    if missing:
        failed = (f"bucket {bucket.name}: only {len(accepted)} of {len(done)} levels "
                  f"(no level for target {', '.join(str(bucket.targets()[i]) for i in missing)} "
                  f"after {work['searches']} searches)")
    return BucketResult(bucket=bucket.name, levels=accepted, report=report,
                        seconds=sum(s.seconds for s in done) + time.perf_counter() - t0,
                        failed=failed)


def generate_bucket(bucket: Bucket, seed: int, prior: Sequence[Level] = ()) -> BucketResult:
    """Fill one bucket, one level per layout, until every target par has a level.

    Deep buckets fill their targets slot by slot (generate_slot, each with the levels
    before it as prior). Shallow ones draw random phase-A layouts; a target accepts a
    par one move further away after every TOLERANCE_STEP layouts. Deterministic per
    seed and prior."""
    if bucket.deep:
        slots: list[SlotResult] = []
        accepted: list[Level] = []
        for j in range(bucket.levels):
            s = generate_slot(bucket, seed, j, prior=[*prior, *accepted])
            slots.append(s)
            if s.level is not None:
                accepted.append(s.level)
        return assemble_bucket(bucket, seed, slots)
    t0 = time.perf_counter()
    verdicts = Verdicts(bucket, prior)
    work: Counter[str] = Counter()
    for i, (layout, rng, sweep) in enumerate(random_layouts(bucket, seed)):
        _try_layout(verdicts, bucket, layout, rng, sweep, i // TOLERANCE_STEP, work)
        if verdicts.full:
            break
    accepted = sorted(verdicts.accepted, key=lambda lv: (lv.optimal, signature(lv)))
    work["sweep_mismatches"] = verdicts.mismatches
    report = _report(bucket, verdicts.targets, accepted, verdicts.rejected, work)
    failed = None
    if len(accepted) < len(verdicts.targets):
        failed = (f"bucket {bucket.name}: only {len(accepted)} of {len(verdicts.targets)} "
                  f"levels after {work['layouts']} layouts")
    return BucketResult(bucket=bucket.name, levels=accepted, report=report,
                        seconds=time.perf_counter() - t0, failed=failed)


def settle(buckets: Sequence[Bucket], results: Sequence[BucketResult], seed: int,
           prior: Sequence[Level]) -> list[BucketResult]:
    """Near duplicates across buckets and packs. Buckets run independently (any number
    of workers, same bytes); afterwards each bucket, in order, is checked against the
    prior packs and the buckets before it, and a bucket with a collision is generated
    again with those levels as its prior (deterministic, and rare)."""
    seen = list(prior)
    index = judge.NearIndex()
    sigs = {signature(lv) for lv in prior}
    for lv in prior:
        index.add(lv, lv.id)
    out = []
    for bucket, r in zip(buckets, results):
        if any(signature(lv) in sigs or index.find(lv) is not None for lv in r.levels):
            again = generate_bucket(bucket, seed, prior=seen)
            again.report["regenerated"] = "near duplicate of an earlier pack or bucket"
            again.seconds += r.seconds
            r = again
        for lv in r.levels:
            index.add(lv, lv.id)
            sigs.add(signature(lv))
        seen.extend(r.levels)
        out.append(r)
    return out


# ---------------------------------------------------------------------------
# Jobs: the executor's unit. A shallow bucket is one job; a deep bucket is one job
# per target (slot), so its searches run side by side and no bucket is a long serial
# tail. Every job is a pure function of its inputs.

@dataclass(frozen=True)
class Job:
    bucket: Bucket
    seed: int
    slot: int | None = None             # deep buckets: which target

    @property
    def name(self) -> str:
        return self.bucket.name if self.slot is None else f"{self.bucket.name}#{self.slot + 1}"

    @property
    def cost(self) -> float:
        """A rough work estimate, only to start the longest jobs first (any order gives
        the same bytes): deep budget times target depth; shallow buckets are cheap."""
        if self.slot is None:
            return float(self.bucket.levels)
        return float(self.bucket.deep * self.bucket.targets()[self.slot])


def jobs_of(buckets: Sequence[Bucket], seed: int) -> list[Job]:
    return [Job(b, seed, j) for b in buckets for j in (range(b.levels) if b.deep else [None])]


def run_job(job: Job) -> BucketResult | SlotResult:
    keep_freed_memory()                 # whichever process runs it: pool, cluster, this one
    if job.slot is None:
        return generate_bucket(job.bucket, job.seed)
    return generate_slot(job.bucket, job.seed, job.slot)


_job = run_job          # the task the executor runs (tests swap it for a failing one)


def run_jobs(label: str, jobs: Sequence[Job], workers: int, scheduler: str | None = None
             ) -> list[BucketResult | SlotResult]:
    """Run jobs through the executor seam (this process, a local pool, or the Dask
    cluster at `scheduler`), longest first; results in job order."""
    order = sorted(range(len(jobs)), key=lambda i: (-jobs[i].cost, i))
    got = run_ordered(_job, [jobs[i] for i in order], workers=workers, scheduler=scheduler,
                      label=label, names=[jobs[i].name for i in order])
    out: list = [None] * len(jobs)
    for i, r in zip(order, got):
        out[i] = r
    return out


def bucket_results(buckets: Sequence[Bucket], seed: int, jobs: Sequence[Job],
                   results: Sequence[BucketResult | SlotResult]) -> list[BucketResult]:
    """Per bucket, in bucket order: its one result, or its slots assembled."""
    by_bucket: dict[str, list] = {}
    for job, r in zip(jobs, results):
        by_bucket.setdefault(job.bucket.name, []).append(r)
    out = []
    for b in buckets:
        got = by_bucket[b.name]
        out.append(assemble_bucket(b, seed, got) if b.deep else got[0])
    return out


def run_buckets(label: str, buckets: Sequence[Bucket], seed: int, workers: int,
                scheduler: str | None = None) -> list[BucketResult]:
    """Generate buckets (deep ones slot by slot) through the executor seam; results
    in bucket order, the same whatever runs them."""
    jobs = jobs_of(buckets, seed)
    return bucket_results(buckets, seed, jobs, run_jobs(label, jobs, workers, scheduler))


def print_report(label: str, results: Sequence[BucketResult]) -> None:
    print(f"{label}")
    total: Counter[str] = Counter()
    for r in results:
        rep = r.report
        total.update(rep["rejections"])
        rej = " ".join(f"{k}={v}" for k, v in rep["rejections"].items()) or "none"
        pars = rep["pars"]
        span = f"pars {min(pars)}-{max(pars)}" if pars else "no levels"
        deep = ""
        if "search" in rep:
            s = rep["search"]
            deep = f", {s['searches']} searches/{s['sweeps']} sweeps, deepest {s['deepest']}"
        again = " (regenerated: near duplicate)" if rep.get("regenerated") else ""
        print(f"  {rep['bucket']:7s} {rep['size']} band {rep['band'][0]}-{rep['band'][1]}: "
              f"{rep['accepted']}/{len(rep['targets'])} levels, {span}, from "
              f"{rep['candidates']} candidates ({rep['layouts']} layouts{deep}){again}  "
              f"rejected: {rej}")
    print("  rejected in all: " + (" ".join(f"{k}={total[k]}" for k in REJECTION_REASONS
                                           if total[k]) or "none"))


def earlier_packs(out: Path, names: Sequence[str]) -> list[Level]:
    """The levels of packs this one is judged against, read from disk (--out)."""
    levels: list[Level] = []
    for name in names:
        path = out / f"{name}.json"
        if not path.exists():
            raise UsageError(f"{path}: missing; packs are judged against the earlier ones "
                             "(generate worlds 1-5 in order, then the dailies)")
        try:
            levels.extend(read_pack(path).levels)
        except PackError as e:
            raise UsageError(str(e)) from None
    return levels


def order_world(tutorial: Level, results: Sequence[BucketResult], number: int) -> list[Level]:
    """Tutorial first, then every bucket's levels by par (ties by signature), so the
    curve climbs; ids w<N>-01..30."""
    levels = sorted((lv for r in results for lv in r.levels),
                    key=lambda lv: (lv.optimal, signature(lv)))
    levels = [proven(tutorial)] + levels
    return [lv.replace(id=f"w{number}-{i:02d}") for i, lv in enumerate(levels, 1)]


@dataclass(frozen=True)
class PackPlan:
    """One pack to generate: its buckets and seed, and the packs it is judged against."""
    name: str
    buckets: tuple[Bucket, ...]
    seed: int
    prior: tuple[str, ...]              # earlier packs (read from --out when it is settled)
    world: int | None = None            # None: a daily pool
    pool: int = DAILY_POOL


def world_plan(number: int, seed: int | None = None) -> PackPlan:
    w = world(number)
    return PackPlan(name=w.pack, buckets=w.buckets, seed=w.seed if seed is None else seed,
                    prior=tuple(f"world-{n}" for n in range(1, number)), world=number)


def dailies_plan(seed: int | None = None, pool: int = DAILY_POOL) -> PackPlan:
    return PackPlan(name=dailies_pack_name(pool), buckets=scaled_daily_buckets(pool),
                    seed=DAILY_SEED if seed is None else seed,
                    prior=tuple(w.pack for w in WORLDS), pool=pool)


def generate_packs(plans: Sequence[PackPlan], workers: int, out: Path,
                   scheduler: str | None = None, timings: dict[str, float] | None = None
                   ) -> list[str]:
    """Generate `plans` in one run: every job of every pack goes to the executor at
    once (so two cores, or a cluster, stay busy across pack boundaries), then each
    pack, in order, is assembled, settled against the packs before it (read from
    `out`, where the earlier plans of this run have just been written) and written.
    A pack that fails is not written, and packs judged against it are not either.
    Returns the failures, one line each."""
    made = {p.name for p in plans}
    read: dict[str, list[Level]] = {}   # each earlier pack is read from `out` once

    def prior_of(names: Sequence[str]) -> list[Level]:
        for n in names:
            if n not in read:
                read[n] = earlier_packs(out, [n])
        return [lv for n in names for lv in read[n]]

    for p in plans:                     # a missing earlier pack is an error before any work
        prior_of([n for n in p.prior if n not in made])
    jobs = [jobs_of(p.buckets, p.seed) for p in plans]
    t0 = time.perf_counter()
    flat = run_jobs(", ".join(p.name for p in plans), [j for js in jobs for j in js],
                    workers, scheduler)
    if timings is not None:
        timings["jobs"] = time.perf_counter() - t0
    failures: list[str] = []
    failed: set[str] = set()
    at = 0
    for plan, js in zip(plans, jobs):
        t = time.perf_counter()
        results, at = flat[at:at + len(js)], at + len(js)
        lost = [n for n in plan.prior if n in failed]
        if lost:
            failures.append(f"{plan.name}: not generated, it is judged against {lost[0]}, "
                            "which failed")
            failed.add(plan.name)
            continue
        found = _finish_pack(plan, bucket_results(plan.buckets, plan.seed, js, results),
                             prior_of(plan.prior), out)
        if found:
            failed.add(plan.name)
        failures += found
        if timings is not None:
            timings[plan.name] = time.perf_counter() - t
    return failures


def _finish_pack(plan: PackPlan, results: list[BucketResult], prior: list[Level], out: Path
                 ) -> list[str]:
    """Settle against `prior` (the earlier packs' levels), report, order and write one
    pack (nothing written when it fails)."""
    if plan.world is not None:
        w = world(plan.world)
        results = settle(plan.buckets, results, plan.seed, prior + [w.tutorial])
        print_report(f"World {w.number} ({w.name}) seed {plan.seed}", results)
        failures = [r.failed for r in results if r.failed]
        levels = order_world(w.tutorial, results, w.number)
        if not failures:                # never write a world the verifier would reject
            failures += judge.curve_problems([lv.optimal for lv in levels[1:]],
                                             f"world {w.number}")
        meta = {"pack": plan.name, "name": w.name, "world": w.number, "mechanic": w.mechanic,
                "seed": plan.seed, "generator": GENERATOR_VERSION}
    else:
        results = settle(plan.buckets, results, plan.seed, prior)
        print_report(f"Daily pool seed {plan.seed}"
                     + ("" if plan.pool == DAILY_POOL else f" ({plan.pool} levels)"), results)
        failures = [r.failed for r in results if r.failed]
        levels = [lv.replace(id=f"d-{i:03d}")
                  for i, lv in enumerate(interleave_dailies(results), 1)]
        if not failures and len(levels) != plan.pool:
            failures.append(f"daily pool has {len(levels)} levels, expected {plan.pool}")
        meta = {"pack": plan.name, "name": "Daily pool", "world": None, "mechanic": "mixed",
                "seed": plan.seed, "generator": GENERATOR_VERSION}
    if not failures:
        write_pack_and_report(out, plan.name, meta, levels,
                              {"pack": plan.name, "seed": plan.seed,
                               "generator": GENERATOR_VERSION,
                               "buckets": [r.report for r in results]})
    return failures


def _dailies_pack(seed: int | None, workers: int, out: Path, scheduler: str | None = None,
                  pool: int = DAILY_POOL) -> list[str]:
    return generate_packs([dailies_plan(seed, pool)], workers, out, scheduler)


def interleave_dailies(results: Sequence[BucketResult]) -> list[Level]:
    """Round-robin across buckets so the mechanic changes from day to day."""
    queues = [list(r.levels) for r in results]
    out = []
    while any(queues):
        for q in queues:
            if q:
                out.append(q.pop(0))
    return out


def dailies_pack_name(pool: int) -> str:
    """`dailies` for the site's pool of 174; `dailies-pool-N` for any other size, so a
    bigger or smaller pool never replaces the committed one (verify and publish read
    only `dailies.json`)."""
    return "dailies" if pool == DAILY_POOL else f"dailies-pool-{pool}"


def all_plans() -> list[PackPlan]:
    """The whole product: worlds 1-5, then the daily pool (judged against them all)."""
    return [world_plan(w.number) for w in WORLDS] + [dailies_plan()]


def bench_generate(workers: int) -> int:
    """`python -m lumina.bench generate`: full regeneration (`generate --all`) into a
    temp dir: wall and CPU seconds, the jobs' share, and each pack's settle-and-write
    time (the machine's load average is printed, it is shared)."""
    import contextlib
    import io
    import os
    import resource
    import tempfile
    print(f"bench: load average before {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    cpu0 = time.process_time() + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    timings: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        report = io.StringIO()
        with contextlib.redirect_stdout(report):
            failures = generate_packs(all_plans(), workers, Path(tmp), timings=timings)
        total = time.perf_counter() - t0
    cpu = (time.process_time() + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime) - cpu0
    jobs = sum(len(jobs_of(p.buckets, p.seed)) for p in all_plans())
    print(f"bench: {jobs} jobs (shallow buckets and deep slots) on {workers} workers: "
          f"{timings.get('jobs', 0):.1f} s wall")
    for name, sec in timings.items():
        if name != "jobs":
            print(f"bench: {name} settled and written in {sec:.1f} s")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"bench: full regeneration (5 worlds + dailies, {workers} workers): {total:.1f} s "
          f"wall, {cpu:.1f} CPU s")
    print(f"bench: load average after {os.getloadavg()[0]:.2f}")
    print(f"bench: peak RSS {max(rss, kids):.0f} MB (this process {rss:.0f} MB, "
          f"largest worker {kids:.0f} MB)")
    for f in failures:
        print(f"bench: FAILED {f}")
    return 1 if failures else 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = ArgumentParser(prog="python -m lumina.generate",
                        description="Generate deterministic Lumina packs.")
    ap.add_argument("--world", type=int, action="append", help="world number (repeatable)")
    ap.add_argument("--dailies", action="store_true", help="generate the daily pool only")
    ap.add_argument("--all", action="store_true",
                    help="worlds 1-5 and the daily pool, in one run (what the committed "
                         "packs are)")
    ap.add_argument("--seed", type=int_in(0, 2**63 - 1), help="override the recorded seed")
    ap.add_argument("--workers", type=int_in(1, 64), default=1)
    ap.add_argument("--out", type=Path, default=Path("packs"))
    ap.add_argument("--scheduler", metavar="ADDRESS",
                    help="run the generation tasks on this Dask scheduler (tcp://HOST:8786); "
                         "--workers is then how many cluster workers to wait for")
    ap.add_argument("--pool", type=int_in(1, 100_000), default=DAILY_POOL,
                    help=f"daily pool size with --dailies (default {DAILY_POOL}; another size "
                         "writes dailies-pool-N.json)")
    args = ap.parse_args(argv)
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.dailies and args.world:
        raise UsageError("--dailies and --world are separate runs")
    if args.all and (args.dailies or args.world):
        raise UsageError("--all is every pack: use it without --world or --dailies")
    if args.all and args.seed is not None:
        raise UsageError("--seed overrides one pack's seed: use it with --world or --dailies")
    if args.pool != DAILY_POOL and not args.dailies:
        raise UsageError("--pool is the size of the daily pool: use it with --dailies")
    for n in args.world or ():
        if n not in {w.number for w in WORLDS}:
            raise UsageError(f"--world {n}: worlds are 1..{len(WORLDS)}")
    check_writable_folder(args.out)         # before any work, not after the whole world
    if args.all:
        plans = all_plans()
    elif args.dailies:
        plans = [dailies_plan(args.seed, args.pool)]
    else:
        plans = [world_plan(n, args.seed) for n in args.world or [w.number for w in WORLDS]]
    failures = generate_packs(plans, args.workers, args.out, args.scheduler)
    for f in failures:
        print(f"FAILED: {f} (nothing written for that pack)", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    run(main)
