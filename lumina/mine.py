"""`python -m lumina.mine`: run the campaign's mining jobs into the board pool.

    python -m lumina.mine                       # every job of lumina/campaign.toml not yet in pool/
    python -m lumina.mine --workers 2           # on a local pool of 2 processes
    python -m lumina.mine --scheduler tcp://host:8786 --workers 4   # on a Dask cluster
    python -m lumina.mine --status              # boards by mechanic and par
    options: --campaign FILE, --pool DIR (default pool/), --limit N (the first N missing jobs)

A job (a `[[mine]]` table of the campaign, one per seed) is a pure function of its
fields (lumina.gen.mining); each finished job is stored at once with its boards in one
transaction (lumina.gen.pool), so a killed run resumes where it stopped and ends with
the same rows as an unbroken one. At the end the pool's committed form (gzip JSON-lines
shards) is written beside the store. docs/GENERATION.md.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Sequence

from lumina.cli import ArgumentParser, UsageError, int_in, run
from lumina.executor import MAX_WORKERS, run_ordered
from lumina.gen import pool as store
from lumina.gen.mining import GENERATOR, run_job
from lumina.safeio import check_output
from lumina.worlds import CAMPAIGN, Campaign, MineJob, load

DEFAULT_POOL = Path("pool")


def missing_jobs(campaign: Campaign, db) -> list[MineJob]:
    done = store.done_jobs(db)
    return [j for j in campaign.mine if j.id not in done]


def check_pool(pool: Path, campaign_file: Path | None = None) -> None:
    """The pool folder as an output (`safeio.check_output`), before any work: not a
    file, its store and job shard not folders, devices or the campaign file."""
    check_output(pool, inputs=[campaign_file], flag="--pool",
                 files=[store.DB_NAME, store.JOBS_SHARD])


def mine(campaign: Campaign, folder: Path, *, workers: int = 1, scheduler: str | None = None,
         limit: int | None = None, export: bool = True, refelt: bool = False) -> int:
    """Run the campaign's jobs missing from the pool at `folder`; returns how many ran."""
    db = store.open_pool(folder)
    try:
        todo = missing_jobs(campaign, db)
        if limit is not None:
            todo = todo[:limit]
        order = sorted(todo, key=lambda j: (-j.cost, j.id))

        def keep(i: int, result) -> None:
            store.store_job(db, result.job, GENERATOR, result.boards, result.work)

        if order:
            run_ordered(run_job, order, workers=workers, scheduler=scheduler, label="mine",
                        names=[j.id for j in order], on_result=keep)
        store.fill_felt(db, everything=refelt)
        if export:
            store.export_shards(db, folder)
        return len(order)
    finally:
        db.close()


def print_status(campaign: Campaign, folder: Path) -> None:
    db = store.open_pool(folder, create=False)
    try:
        st = store.status(db)
        left = len(missing_jobs(campaign, db))
    finally:
        db.close()
    total = sum(sum(t.values()) for t in st["boards"].values())
    print(f"{folder}: {total} boards from {st['jobs']} jobs ({left} of the campaign's "
          f"{len(campaign.mine)} jobs still to mine)")
    pars = sorted({p for t in st["boards"].values() for p in t})
    if not pars:
        return
    print("mechanic      total  " + " ".join(f"{p:>4d}" for p in pars))
    for mech, t in sorted(st["boards"].items()):
        print(f"{mech:12s} {sum(t.values()):6d}  " + " ".join(f"{t.get(p, 0):4d}" for p in pars))


def main(argv: Sequence[str] | None = None) -> int:
    ap = ArgumentParser(prog="python -m lumina.mine",
                        description="Mine judged boards into the pool (docs/GENERATION.md).")
    ap.add_argument("--campaign", type=Path, metavar="FILE",
                    help="the campaign file (default: lumina/campaign.toml)")
    ap.add_argument("--pool", type=Path, default=DEFAULT_POOL, metavar="DIR",
                    help="the pool folder (default: pool/)")
    ap.add_argument("--workers", type=int_in(1, MAX_WORKERS), default=1,
                    help=f"local pool processes, or cluster workers to wait for (1..{MAX_WORKERS})")
    ap.add_argument("--scheduler", metavar="ADDRESS",
                    help="run the jobs on this Dask scheduler (tcp://HOST:8786)")
    ap.add_argument("--limit", type=int_in(1, 10**7), metavar="N",
                    help="run at most N of the missing jobs (largest first)")
    ap.add_argument("--status", action="store_true", help="print boards by mechanic and par")
    ap.add_argument("--refelt", action="store_true",
                    help="only play the felt-difficulty player again on every board (after "
                         "it changed) and write the shards; no mining (a mining run fills "
                         "boards that lack its figures)")
    args = ap.parse_args(argv)
    campaign = CAMPAIGN if args.campaign is None else load(args.campaign)
    if args.status:
        if args.scheduler or args.limit:
            raise UsageError("--status only reads the pool: use it without --scheduler or --limit")
        print_status(campaign, args.pool)
        return 0
    if args.refelt:
        if args.scheduler or args.limit:
            raise UsageError("--refelt mines nothing: use it without --scheduler or --limit")
        check_pool(args.pool, args.campaign)
        db = store.open_pool(args.pool, create=False)
        try:
            n = store.fill_felt(db, everything=True)
            store.export_shards(db, args.pool)
        finally:
            db.close()
        print(f"felt figures of {n} boards played again in {args.pool}", file=sys.stderr)
        return 0
    if not campaign.mine:
        raise UsageError(f"{campaign.source}: mine: the campaign names no mining jobs")
    check_pool(args.pool, args.campaign)
    ran = mine(campaign, args.pool, workers=args.workers, scheduler=args.scheduler,
               limit=args.limit)
    print(f"mined {ran} jobs into {args.pool}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
