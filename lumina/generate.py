"""`python -m lumina.generate`: deterministic packs, layouts -> candidates -> verdicts.

    python -m lumina.generate                 # all five worlds -> packs/world-N.json
    python -m lumina.generate --world 3       # one world (judged against worlds 1-2 in --out)
    python -m lumina.generate --dailies       # the 174-level daily pool -> packs/dailies.json
    options: --seed S (default: the world's recorded seed), --workers N, --out DIR

Per bucket (RULES.md, "Generation"; docs/GENERATION.md):
  layouts     phase A: a layout that is already solved (key on the lantern, or its light
              on it), drawn at random; deep buckets search over layouts instead
              (lumina.deep: add, remove and move blocks and walls, keep what makes the
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

from lumina import deep, judge
from lumina.cli import ArgumentParser, UsageError, int_in, run
from lumina.engine import (Board, Candidate, LayoutSweep, Outcome, exact_sweep,
                           level_at, measure, solve)
from lumina.executor import run_ordered
from lumina.model import Beam, Block, Exit, Level, LevelError, Mirror
from lumina.packfile import PackError, read_pack, write_pack_and_report
from lumina.safeio import check_writable_folder
from lumina.worlds import DAILY_POOL, DAILY_SEED, WORLDS, Bucket, scaled_daily_buckets, world

GENERATOR_VERSION = "lumina-gen/2"
PER_DEPTH = 60              # harvest cap per par (the article's 9.9 GB lesson)
SWEEP_STATE_CAP = 500_000
SOLVE_STATE_CAP = 500_000
MAX_DRAWS_PER_LAYOUT = 60
MAX_LAYOUTS = 1500
TOLERANCE_STEP = 150        # random layouts before a target accepts one move further away
SEARCHES_PER_LEVEL = 4
# The generator pins its search tuning, so the packs it wrote stay reproducible when the
# deep search's defaults are retuned for `bench deep` (there: fresh restarts after 1000
# idle sweeps; here: back to the best after 3000, what lumina-gen/2 packs were made with).
SEARCH_TUNING = deep.Tuning(stall=3000, restart="best")      # deep buckets: at most this many searches per level
TWIST_KINDS = ("sand", "ice", "rime")
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


def _beam_path(rng: random.Random, bucket: Bucket, key: Block, beam: Beam
               ) -> tuple[list[tuple[int, int]], list[Mirror], Exit] | None:
    """Walk light from the key, turning at randomly placed mirrors, to a boundary."""
    W, H = bucket.width, bucket.height
    dx, dy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[beam.dir]
    if beam.dir == "E":
        x, y = key.x + key.w, key.y + beam.offset
    elif beam.dir == "W":
        x, y = key.x - 1, key.y + beam.offset
    elif beam.dir == "S":
        x, y = key.x + beam.offset, key.y + key.h
    else:
        x, y = key.x + beam.offset, key.y - 1
    want = rng.randint(*bucket.mirrors)
    keycells = set(key.cells())
    path: list[tuple[int, int]] = []
    mirrors: list[Mirror] = []
    while 0 <= x < W and 0 <= y < H:
        if (x, y) in keycells or (x, y) in path:
            return None
        turn = len(mirrors) < want and len(path) >= 1 and rng.random() < 0.45
        if turn:
            tilt = rng.choice(("/", "\\"))
            mirrors.append(Mirror(x=x, y=y, tilt=tilt))
            dx, dy = (-dy, -dx) if tilt == "/" else (dy, dx)
        path.append((x, y))
        x, y = x + dx, y + dy
    if len(mirrors) < bucket.mirrors[0] or len(path) < 2:
        return None
    if x < 0:
        exit_ = Exit(side="left", index=y)
    elif x >= W:
        exit_ = Exit(side="right", index=y)
    elif y < 0:
        exit_ = Exit(side="top", index=x)
    else:
        exit_ = Exit(side="bottom", index=x)
    return path, mirrors, exit_


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
        traced = _beam_path(rng, bucket, key, beam)
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
    for i in range(MAX_LAYOUTS):
        rng = random.Random(f"{seed}:{bucket.name}:{i}")
        yield solved_layout(bucket, rng), rng, None


def deep_layouts(bucket: Bucket, seed: int, verdicts: "Verdicts", work: Counter) -> Source:
    """One deep layout search per layout (`lumina.deep.search`), each seeded from the
    bucket seed, with its budget counted in sweeps (`bucket.deep`), never seconds. The
    search's final sweep (exact, binding starts only for twist buckets) is the layout's
    harvest.

    Independent searches aim at the hardest par the bucket still needs. A `chain`
    bucket climbs instead: each search starts from the last one's layout and must go
    deeper than it (at least the lowest par still wanted), so the bucket's levels come
    from successive, ever deeper layouts of one climb; a search that finds nothing new,
    or a layout already past the band, ends the chain and the next starts afresh."""
    start = None
    for i in range(bucket.levels * SEARCHES_PER_LEVEL):
        rng = random.Random(f"{seed}:{bucket.name}:deep:{i}")
        if bucket.chain:
            target = verdicts.lowest_wanted()
            if start is not None and work["chain_deepest"] < bucket.band[1]:
                target = max(target, work["chain_deepest"] + 1)
            else:
                start = None                    # past the band: climb afresh
        else:
            target = verdicts.hardest_wanted()
        result = deep.search(bucket, rng.randrange(1, 2**32), target=target,
                             budget_sweeps=bucket.deep, start=start, per_depth=PER_DEPTH,
                             state_cap=SWEEP_STATE_CAP, tuning=SEARCH_TUNING)
        work["searches"] += 1
        work["search_sweeps"] += result.sweeps
        work["search_states"] += result.work
        work["search_deepest"] = max(work["search_deepest"], result.deepest)
        if bucket.chain:
            if start is not None and result.layout.desc() == start.desc():
                start = None                    # nothing new: the next search starts afresh
                yield None, rng, None
                continue
            start, work["chain_deepest"] = result.layout, result.deepest
        yield result.layout, rng, result.sweep


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


def generate_bucket(bucket: Bucket, seed: int, prior: Sequence[Level] = ()) -> BucketResult:
    """Fill one bucket, one level per layout, until every target par has a level. A
    target accepts a par one move further away after every TOLERANCE_STEP layouts (deep
    buckets: after every `levels` searches). Deterministic per seed and prior."""
    t0 = time.perf_counter()
    verdicts = Verdicts(bucket, prior)
    work: Counter[str] = Counter()
    if bucket.deep:
        source = deep_layouts(bucket, seed, verdicts, work)
        step = bucket.levels
    else:
        source = random_layouts(bucket, seed)
        step = TOLERANCE_STEP
    for i, (layout, rng, sweep) in enumerate(source):
        tolerance = i // step
        if layout is None:
            verdicts.reject("layout")
            continue
        work["layouts"] += 1
        pars = verdicts.wanted(tolerance)
        if sweep is None:
            sweep = harvest(bucket, layout, min(pars), rng.randrange(1, 2**32))
            work["sweep_states"] += sweep.work
        if not sweep.complete:
            verdicts.reject("sweep_capped")
            continue
        cands = draws(sweep, pars, rng)
        if not cands:
            verdicts.reject("shallow")
            continue
        work["harvested"] += sum(len(v) for v in sweep.harvest.values())
        board = Board(layout)
        for cand in cands:
            work["candidates"] += 1
            if verdicts.consider(board, cand, tolerance) is not None:
                break                       # one level per layout
        if verdicts.full:
            break
    accepted = sorted(verdicts.accepted, key=lambda lv: (lv.optimal, signature(lv)))
    rejected = verdicts.rejected
    report = {"bucket": bucket.name, "size": f"{bucket.width}x{bucket.height}",
              "band": list(bucket.band), "targets": verdicts.targets, "levels": len(accepted),
              "layouts": work["layouts"], "sweep_states": work["sweep_states"],
              "harvested": work["harvested"], "candidates": work["candidates"],
              "accepted": len(accepted), "pars": [lv.optimal for lv in accepted],
              "rejections": {r: rejected[r] for r in REJECTION_REASONS if rejected[r]},
              "mix": {"blockers": list(bucket.blockers),
                      "twists": dict(sorted(bucket.twists.items())), "beam": bucket.beam,
                      "walls": list(bucket.walls), "deep": bucket.deep}}
    if bucket.chain:
        report["mix"]["chain"] = True
    if bucket.deep:
        report["search"] = {"searches": work["searches"], "sweeps": work["search_sweeps"],
                            "states": work["search_states"], "deepest": work["search_deepest"]}
    if verdicts.mismatches:
        report["sweep_mismatches"] = verdicts.mismatches
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


def _bucket_job(args: tuple[Bucket, int]) -> BucketResult:
    return generate_bucket(*args)


# ---------------------------------------------------------------------------
# Packs.

def run_buckets(label: str, buckets: Sequence[Bucket], seed: int, workers: int,
                scheduler: str | None = None) -> list[BucketResult]:
    """Generate buckets through the executor seam (this process, a local pool, or the
    Dask cluster at `scheduler`); results in bucket order."""
    return run_ordered(_bucket_job, [(b, seed) for b in buckets], workers=workers,
                       scheduler=scheduler, label=label, names=[b.name for b in buckets])


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


def _world_pack(number: int, seed: int | None, workers: int, out: Path,
                scheduler: str | None = None) -> list[str]:
    w = world(number)
    seed = w.seed if seed is None else seed
    prior = earlier_packs(out, [f"world-{n}" for n in range(1, number)]) + [w.tutorial]
    results = run_buckets(f"world {number}", w.buckets, seed, workers, scheduler)
    results = settle(w.buckets, results, seed, prior)
    print_report(f"World {number} ({w.name}) seed {seed}", results)
    failures = [r.failed for r in results if r.failed]
    levels = order_world(w.tutorial, results, number)
    if not failures:                # never write a world the verifier would reject
        failures += judge.curve_problems([lv.optimal for lv in levels[1:]], f"world {number}")
    meta = {"pack": w.pack, "name": w.name, "world": number, "mechanic": w.mechanic,
            "seed": seed, "generator": GENERATOR_VERSION}
    if not failures:
        write_pack_and_report(out, w.pack, meta, levels,
                              {"pack": w.pack, "seed": seed, "generator": GENERATOR_VERSION,
                               "buckets": [r.report for r in results]})
    return failures


def finish_tutorial(tut: Level) -> Level:
    """A tutorial carries its proven optimum, solution and measures like any level."""
    return proven(tut)


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


def _dailies_pack(seed: int | None, workers: int, out: Path, scheduler: str | None = None,
                  pool: int = DAILY_POOL) -> list[str]:
    seed = DAILY_SEED if seed is None else seed
    name = dailies_pack_name(pool)
    buckets = scaled_daily_buckets(pool)
    prior = earlier_packs(out, [w.pack for w in WORLDS])
    results = run_buckets(name, buckets, seed, workers, scheduler)
    results = settle(buckets, results, seed, prior)
    print_report(f"Daily pool seed {seed}" + ("" if pool == DAILY_POOL else f" ({pool} levels)"),
                 results)
    failures = [r.failed for r in results if r.failed]
    levels = [lv.replace(id=f"d-{i:03d}") for i, lv in enumerate(interleave_dailies(results), 1)]
    if not failures and len(levels) != pool:
        failures.append(f"daily pool has {len(levels)} levels, expected {pool}")
    meta = {"pack": name, "name": "Daily pool", "world": None, "mechanic": "mixed",
            "seed": seed, "generator": GENERATOR_VERSION}
    if not failures:
        write_pack_and_report(out, name, meta, levels,
                              {"pack": name, "seed": seed, "generator": GENERATOR_VERSION,
                               "buckets": [r.report for r in results]})
    return failures


def bench_generate(workers: int) -> int:
    """`python -m lumina.bench generate`: full regeneration into a temp dir (wall and
    CPU seconds per pack; the machine's load average is printed, it is shared)."""
    import os
    import resource
    import tempfile
    print(f"bench: load average before {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    cpu0 = time.process_time() + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        failures = []
        for w in WORLDS:
            t = time.perf_counter()
            failures += _world_pack(w.number, None, workers, Path(tmp))
            print(f"bench: world {w.number} {time.perf_counter() - t:.1f} s")
        t = time.perf_counter()
        failures += _dailies_pack(None, workers, Path(tmp))
        print(f"bench: dailies {time.perf_counter() - t:.1f} s")
        total = time.perf_counter() - t0
    cpu = (time.process_time() + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime) - cpu0
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
    ap.add_argument("--seed", type=int_in(0, 2**63 - 1), help="override the recorded seed")
    ap.add_argument("--workers", type=int_in(1, 64), default=1)
    ap.add_argument("--out", type=Path, default=Path("packs"))
    ap.add_argument("--scheduler", metavar="ADDRESS",
                    help="run the bucket tasks on this Dask scheduler (tcp://HOST:8786); "
                         "--workers is then how many cluster workers to wait for")
    ap.add_argument("--pool", type=int_in(1, 100_000), default=DAILY_POOL,
                    help=f"daily pool size with --dailies (default {DAILY_POOL}; another size "
                         "writes dailies-pool-N.json)")
    args = ap.parse_args(argv)
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.dailies and args.world:
        raise UsageError("--dailies and --world are separate runs")
    if args.pool != DAILY_POOL and not args.dailies:
        raise UsageError("--pool is the size of the daily pool: use it with --dailies")
    for n in args.world or ():
        if n not in {w.number for w in WORLDS}:
            raise UsageError(f"--world {n}: worlds are 1..{len(WORLDS)}")
    check_writable_folder(args.out)         # before any work, not after the whole world
    failures: list[str] = []
    if args.dailies:
        failures += _dailies_pack(args.seed, args.workers, args.out, args.scheduler, args.pool)
    else:
        for n in args.world or [w.number for w in WORLDS]:
            failures += _world_pack(n, args.seed, args.workers, args.out, args.scheduler)
    for f in failures:
        print(f"FAILED: {f} (nothing written for that pack)", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    run(main)
