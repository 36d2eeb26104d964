"""Packs: jobs for the executor, settling across packs, ordering and writing (docs/GENERATION.md).

A shallow bucket is one job and a deep bucket one job per target (slot), so
`generate_packs` sends every job of every pack to the executor at once (this process,
a local pool or a Dask cluster: the same bytes). Then each pack, in order, is
assembled, settled against the packs it is judged against (read from disk), ordered
(a world: tutorial first, then by par) and written with its report; a pack whose
buckets fell short, or whose curve the judge rejects, is not written.

Insight: packs are judged against the packs before them, so they are settled in order:

    world-1 <- world-2 <- ... <- world-5 <- dailies     (each reads the ones left of it)
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from lumina import judge
from lumina.engine import keep_freed_memory
from lumina.errors import LuminaError
from lumina.executor import run_ordered
from lumina.gen.buckets import (REJECTION_REASONS, BucketResult, SlotResult, assemble_bucket,
                                generate_bucket, generate_slot, proven, settle, signature)
from lumina.model import Level
from lumina.packfile import PackError, read_pack, write_pack_and_report
from lumina.worlds import CAMPAIGN, Bucket, Campaign, level_id

GENERATOR_VERSION = "lumina-gen/4"


class GenerateError(LuminaError):
    """A generation run cannot start: an earlier pack it is judged against is missing or
    unreadable. Nothing is written."""


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


Task = Callable[[Job], "BucketResult | SlotResult"]


def run_jobs(label: str, jobs: Sequence[Job], workers: int, scheduler: str | None = None,
             task: Task = run_job) -> list[BucketResult | SlotResult]:
    """Run jobs through the executor seam (this process, a local pool, or the Dask
    cluster at `scheduler`), longest first; results in job order. `task` runs one job
    (`run_job`; a test passes one that kills its worker)."""
    order = sorted(range(len(jobs)), key=lambda i: (-jobs[i].cost, i))
    got = run_ordered(task, [jobs[i] for i in order], workers=workers, scheduler=scheduler,
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
            raise GenerateError(f"{path}: missing; packs are judged against the earlier ones "
                                "(generate the worlds in order, then the dailies)")
        try:
            levels.extend(read_pack(path).levels)
        except PackError as e:
            raise GenerateError(str(e)) from None
    return levels


def order_world(tutorial: Level, results: Sequence[BucketResult], number: int) -> list[Level]:
    """Tutorial first, then every bucket's levels by par, ties by felt effort (then
    signature), so the curve climbs and effort rises with it, as the composer orders a
    world (the judge's felt-effort ordering, `judge.effort_problems`); ids w<N>-01..30."""
    levels = sorted((lv for r in results for lv in r.levels),
                    key=lambda lv: (lv.optimal, lv.analysis.effort or 0.0, signature(lv)))
    levels = [proven(tutorial)] + levels
    return [lv.replace(id=level_id(number, i)) for i, lv in enumerate(levels, 1)]


@dataclass(frozen=True)
class PackPlan:
    """One pack to generate: its buckets and seed, and the packs it is judged against."""
    name: str
    buckets: tuple[Bucket, ...]
    seed: int
    prior: tuple[str, ...]              # earlier packs (read from --out when it is settled)
    world: int | None = None            # None: a daily pool
    pool: int = 0                       # a daily pool's size
    campaign: Campaign = CAMPAIGN


def world_plan(number: int, seed: int | None = None, campaign: Campaign = CAMPAIGN) -> PackPlan:
    w = campaign.world(number)
    return PackPlan(name=w.pack, buckets=w.buckets, seed=w.seed if seed is None else seed,
                    prior=tuple(f"world-{n}" for n in range(1, number)), world=number,
                    campaign=campaign)


def dailies_plan(seed: int | None = None, pool: int | None = None,
                 campaign: Campaign = CAMPAIGN) -> PackPlan:
    """The daily pool of `pool` levels (default: the campaign's)."""
    pool = campaign.daily_pool if pool is None else pool
    return PackPlan(name=dailies_pack_name(pool, campaign),
                    buckets=campaign.scaled_daily_buckets(pool),
                    seed=campaign.daily_seed if seed is None else seed,
                    prior=tuple(w.pack for w in campaign.worlds), pool=pool, campaign=campaign)


def generate_packs(plans: Sequence[PackPlan], workers: int, out: Path,
                   scheduler: str | None = None, timings: dict[str, float] | None = None,
                   task: Task = run_job) -> list[str]:
    """Generate `plans` in one run: every job of every pack goes to the executor at
    once (so two cores, or a cluster, stay busy across pack boundaries), then each
    pack, in order, is assembled, settled against the packs before it (read from
    `out`, where the earlier plans of this run have just been written) and written.
    A pack that fails is not written, and packs judged against it are not either.
    Returns the failures, one line each. `task` runs one job (see `run_jobs`)."""
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
                    workers, scheduler, task)
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
        w = plan.campaign.world(plan.world)
        results = settle(plan.buckets, results, plan.seed, prior + [w.tutorial])
        print_report(f"World {w.number} ({w.name}) seed {plan.seed}", results)
        failures = [r.failed for r in results if r.failed]
        levels = order_world(w.tutorial, results, w.number)
        if not failures:                # never write a world the verifier would reject
            failures += [f"world {w.number}: {p}" for p in judge.world_problems(w, levels)]
        meta = {"pack": plan.name, "name": w.name, "world": w.number, "mechanic": w.mechanic,
                "seed": plan.seed, "generator": GENERATOR_VERSION}
    else:
        results = settle(plan.buckets, results, plan.seed, prior)
        print_report(f"Daily pool seed {plan.seed}"
                     + ("" if plan.pool == plan.campaign.daily_pool else f" ({plan.pool} levels)"),
                     results)
        failures = [r.failed for r in results if r.failed]
        levels = [lv.replace(id=level_id(None, i))
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


def interleave_dailies(results: Sequence[BucketResult]) -> list[Level]:
    """Round-robin across buckets so the mechanic changes from day to day."""
    queues = [list(r.levels) for r in results]
    out = []
    while any(queues):
        for q in queues:
            if q:
                out.append(q.pop(0))
    return out


def dailies_pack_name(pool: int, campaign: Campaign = CAMPAIGN) -> str:
    """`dailies` for the campaign's own pool; `dailies-pool-N` for any other size, so a
    bigger or smaller pool never replaces the committed one (verify and publish read
    only `dailies.json`)."""
    return "dailies" if pool == campaign.daily_pool else f"dailies-pool-{pool}"


def all_plans(campaign: Campaign = CAMPAIGN) -> list[PackPlan]:
    """The whole product: every world, then the daily pool (judged against them all),
    when the campaign has one."""
    return ([world_plan(w.number, campaign=campaign) for w in campaign.worlds]
            + ([dailies_plan(campaign=campaign)] if campaign.daily_pool else []))
