"""One bucket: layouts -> candidates -> the judge's verdicts -> levels (docs/GENERATION.md).

A shallow bucket draws random phase-A layouts (`lumina.gen.layouts`); a deep bucket
fills each of its targets in its own slot with deep layout searches
(`lumina.gen.search`). Either way each layout's starts come from the engine's exact
sweep with their exact par, and candidates go through the judge, cheapest first, every
rejection counted by reason. `settle` resolves near duplicates across buckets and packs.

Insight: a slot is a pure function of (bucket, seed, slot, prior), so the slots of a
deep bucket run side by side and assemble to the same bucket as a serial run:

    slot 1  search -> layout -> level    \
    slot 2  search -> layout -> level     > assemble (re-run a slot that repeats one before it)
    slot 3  search -> layout -> level    /
"""
from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from lumina import judge
from lumina.engine import (Board, Candidate, LayoutSweep, Outcome, exact_sweep, level_at,
                           measure, solve)
from lumina.gen import search as deep
from lumina.gen.layouts import random_layouts
from lumina.model import Level
from lumina.worlds import Bucket

PER_DEPTH = 60              # harvest cap per par (the article's 9.9 GB lesson)
SWEEP_STATE_CAP = 500_000
SOLVE_STATE_CAP = 500_000
MAX_DRAWS_PER_LAYOUT = 60
TOLERANCE_STEP = 500        # random layouts before a target accepts one move further away
SEARCHES_PER_LEVEL = 8     # deep buckets: at most this many searches per level (slot)
# The generator pins its search tuning, so the packs it wrote stay reproducible when the
# deep search's defaults are retuned for `bench deep`: lumina-gen/3 and /4 packs are made
# with fresh restarts after 1000 idle sweeps (lumina-gen/2: back to the best after 3000);
# lumina-gen/4 aims each search at its slot's target exactly, with the bucket's margin.
SEARCH_TUNING = deep.Tuning(stall=1000, restart="fresh")
# A layout's own failures, then the judge's reasons in its screen's order.
REJECTION_REASONS = ("layout", "sweep_capped", "shallow", *judge.REASONS)


# ---------------------------------------------------------------------------
# Candidates: every start of a layout with its exact par (RULES.md B1-B3, exact).

def harvest(bucket: Bucket, layout: Level, min_par: int, seed: int) -> LayoutSweep:
    """The layout's starts by exact real par (at most PER_DEPTH per par, a seeded
    sample); twist buckets harvest only binding starts (par > crystal par)."""
    return exact_sweep(layout, min_depth=max(1, min_par), per_depth=PER_DEPTH, seed=seed,
                       state_cap=SWEEP_STATE_CAP, binding_only=bool(bucket.twists))


def deepest_par(bucket: Bucket, sweep: LayoutSweep) -> int:
    """The par a level of this layout must have (RULES.md "The hardest start"): the
    board's deepest, over binding starts when the bucket has twists."""
    return sweep.deepest_binding if bucket.twists else sweep.deepest


def margin_floor(bucket: Bucket) -> int:
    """The least twist margin a level of `bucket` may ship with: the bucket's own
    `margin`, or the judge's floor for its twist kinds when that is higher."""
    return max([bucket.margin, *(judge.MARGIN_FLOOR[k] for k in bucket.twists)])


def draws(sweep: LayoutSweep, par: int, rng: random.Random) -> list[Candidate]:
    """The layout's starts at `par` (its deepest), widest twist margin first, each
    margin's starts in the order the layout's generator shuffles them, at most
    MAX_DRAWS_PER_LAYOUT."""
    pool = list(sweep.harvest.get(par, ()))
    rng.shuffle(pool)
    pool.sort(key=lambda c: c.crystal_par - c.par)       # stable: the shuffle breaks ties
    return pool[:MAX_DRAWS_PER_LAYOUT]


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
        self.seen = judge.Seen(prior)
        self.margin = margin_floor(bucket)

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
        b = self.bucket
        for t, n in need.items():
            if n <= 0:
                continue
            if b.is_peak(t):                # from the bucket's peak up to its band's top only
                fits = b.peak <= par <= t
            elif b.upward:                  # only a harder par may stand in for a target
                fits = 0 <= par - t <= tolerance
            else:
                fits = abs(t - par) <= tolerance
            if fits:
                return True
        return False

    def reject(self, reason: str) -> None:
        self.rejected[reason] += 1

    def consider(self, board: Board, cand: Candidate, tolerance: int) -> Level | None:
        """Re-solve the candidate (the solver has the last word), then let the judge's
        `screen` rule on it; the accepted level carries its proven par and measures."""
        b = self.bucket
        level = level_at(board, cand.state, f"{b.name}-{len(self.accepted) + 1:02d}")
        v = judge.screen(level, seen=self.seen, band=b.band,
                         wanted=lambda par: self._needed(par, tolerance),
                         crystal_par=cand.crystal_par if b.twists else None,
                         state_cap=SOLVE_STATE_CAP, margin=self.margin)
        if v.optimal is not None and v.optimal != cand.par:
            self.mismatches += 1          # an engine bug if ever non-zero: reported
        if v.reason is not None:
            self.reject(v.reason)
            return None
        level = level.replace(optimal=v.optimal, solution=v.moves,
                              analysis=judge.analysis(level, v.measures))
        self.seen.add(level)
        self.accepted.append(level)
        return level


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
    par = deepest_par(bucket, sweep)
    if par not in pars:                     # a level starts at its board's deepest
        found = judge.band_problems(par, bucket.band)
        verdicts.reject(found[0].reason if found else "band_full")
        return None
    cands = draws(sweep, par, rng)
    if not cands:
        verdicts.reject("shallow")
        return None
    board = Board(layout)
    if bucket.twists:                       # its widest margin at the deepest start
        found = judge.twist_problems(level_at(board, cands[0].state, "margin"),
                                     cands[0].crystal_par, cands[0].par, verdicts.margin)
        if found:
            verdicts.reject(found[0].reason)
            return None
    work["harvested"] += sum(len(v) for v in sweep.harvest.values())
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
    for attempt in range(SEARCHES_PER_LEVEL * (2 if bucket.is_peak(target) else 1)):
        rng = random.Random(f"{seed}:{bucket.name}:slot:{slot}:{attempt}")
        result = deep.search(bucket, rng.randrange(1, 2**32), target=target,
                             budget_sweeps=bucket.deep, start=start, per_depth=PER_DEPTH,
                             state_cap=SWEEP_STATE_CAP, tuning=SEARCH_TUNING, exact=True,
                             margin=verdicts.margin)
        work["searches"] += 1
        work["search_sweeps"] += result.sweeps
        work["search_states"] += result.work
        work["search_deepest"] = max(work["search_deepest"], result.deepest)
        level = _try_layout(verdicts, bucket, result.layout, rng, result.sweep, attempt, work)
        if level is not None:
            break
        start = None if result.reached_at_sweep is not None else result.layout
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
    seen = judge.Seen()
    rejected: Counter[str] = Counter()
    work: Counter[str] = Counter()
    done = []
    for s in slots:
        lv = s.level
        if lv is not None and seen.find(lv) is not None:
            s = generate_slot(bucket, seed, s.slot, prior=levels)
            lv = s.level
        done.append(s)
        rejected.update(s.rejected)
        deepest = max(work["search_deepest"], s.work.get("search_deepest", 0))
        work.update(s.work)
        work["search_deepest"] = deepest
        if lv is not None:
            levels.append(lv)
            seen.add(lv)
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
    earlier = list(prior)
    seen = judge.Seen(prior)
    out = []
    for bucket, r in zip(buckets, results):
        if any(seen.find(lv) is not None for lv in r.levels):
            again = generate_bucket(bucket, seed, prior=earlier)
            again.report["regenerated"] = "near duplicate of an earlier pack or bucket"
            again.seconds += r.seconds
            r = again
        for lv in r.levels:
            seen.add(lv)
        earlier.extend(r.levels)
        out.append(r)
    return out


