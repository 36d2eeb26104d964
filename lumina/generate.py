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

import sys
from pathlib import Path
from typing import Sequence

from lumina.cli import ArgumentParser, UsageError, int_in, run
from lumina.executor import MAX_WORKERS
from lumina.gen.packs import Task, all_plans, dailies_plan, generate_packs, run_job, world_plan
from lumina.safeio import check_output, check_writable_folder
from lumina.worlds import CAMPAIGN, load


def main(argv: Sequence[str] | None = None, *, task: Task = run_job) -> int:
    """The command; `task` runs one job (`lumina.gen.packs.run_jobs`'s seam)."""
    ap = ArgumentParser(prog="python -m lumina.generate",
                        description="Generate deterministic Lumina packs.")
    ap.add_argument("--world", type=int_in(1, 99), action="append",
                    help="world number, one of the campaign's (repeatable)")
    ap.add_argument("--dailies", action="store_true", help="generate the daily pool only")
    ap.add_argument("--all", action="store_true",
                    help="every world and the daily pool, in one run (what the committed "
                         "packs are)")
    ap.add_argument("--campaign", type=Path, metavar="FILE",
                    help="the campaign file (default: lumina/campaign.toml)")
    ap.add_argument("--seed", type=int_in(0, 2**63 - 1), help="override the recorded seed")
    ap.add_argument("--workers", type=int_in(1, MAX_WORKERS), default=1,
                    help=f"local pool processes, or cluster workers to wait for (1..{MAX_WORKERS})")
    ap.add_argument("--out", type=Path, default=Path("packs"), help="folder the packs are written to (default: packs)")
    ap.add_argument("--scheduler", metavar="ADDRESS",
                    help="run the generation tasks on this Dask scheduler (tcp://HOST:8786); "
                         "--workers is then how many cluster workers to wait for")
    ap.add_argument("--pool", type=int_in(1, 100_000),
                    help="daily pool size with --dailies (default: the campaign's; another "
                         "size writes dailies-pool-N.json)")
    args = ap.parse_args(argv)
    campaign = CAMPAIGN if args.campaign is None else load(args.campaign)
    if args.dailies and args.world:
        raise UsageError("--dailies and --world are separate runs")
    if args.all and (args.dailies or args.world):
        raise UsageError("--all is every pack: use it without --world or --dailies")
    if args.all and args.seed is not None:
        raise UsageError("--seed overrides one pack's seed: use it with --world or --dailies")
    if args.pool is not None and not args.dailies:
        raise UsageError("--pool is the size of the daily pool: use it with --dailies")
    if args.dailies and not campaign.daily_pool:
        raise UsageError(f"--dailies: {campaign.source} has no daily pool")
    for n in args.world or ():
        if n not in campaign.gates:
            raise UsageError(f"--world {n}: worlds are 1..{len(campaign.worlds)}")
    if args.all:
        plans = all_plans(campaign)
    elif args.dailies:
        plans = [dailies_plan(args.seed, args.pool, campaign)]
    else:
        plans = [world_plan(n, args.seed, campaign)
                 for n in args.world or [w.number for w in campaign.worlds]]
    # before any work, not after the whole world: every pack and report it will write
    check_output(args.out, inputs=[args.campaign], flag="--out",
                 files=[f for p in plans for f in (f"{p.name}.json", f"report-{p.name}.json")])
    check_writable_folder(args.out)
    failures = generate_packs(plans, args.workers, args.out, args.scheduler, task=task)
    for f in failures:
        print(f"FAILED: {f} (nothing written for that pack)", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    run(main)
