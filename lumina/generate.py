"""`python -m lumina.generate`: deterministic packs by the multi-source backward sweep.

    python -m lumina.generate                 # all five worlds -> packs/world-N.json
    python -m lumina.generate --world 3       # one world
    python -m lumina.generate --dailies       # the 174-level daily pool -> packs/dailies.json
    options: --seed S (default: the world's recorded seed), --workers N, --out DIR

Phases (RULES.md, "Generation"), per layout:
  A   build a layout that is already solved (key on the lantern, blockers scattered);
  B0  flatten sand, ice and rime to crystal (they break the sweep's reversibility);
  B1  forward sweep collecting every winning state (goals): the whole component up
      to the state cap (RULES.md's band max + 2 bound missed far goals; see
      docs/RULES-DECISIONS.md);
  B2  one backward BFS from all goals at once: depth = distance to the nearest win;
      harvest at most 60 states per depth at depth >= band min - shift, where
      shift = sand + ice - rime; the sweep stops at 500k states (on purpose);
  B3  draw candidates round-robin across depths, never in discovery order.
Every candidate is re-solved under the real rules and filed by that count, then
filtered cheapest first: exact duplicate, near-duplicate family, the optimal-solution
DAG (solution count, share of blocks that never move). One level per layout. Every
rejection is counted by reason, printed, and saved in packs/report-<pack>.json.

Buckets are independent (seeded by pack seed and bucket name), so the packs are
byte-identical whatever --workers is.
"""
from __future__ import annotations

import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from lumina.cli import ArgumentParser, UsageError, int_in, run
from lumina.engine import Board, Outcome, backward_sweep, goal_sweep, measure, solve
from lumina.executor import run_ordered
from lumina.model import Analysis, Beam, Block, Exit, Level, LevelError, Mirror
from lumina.packfile import write_pack_and_report
from lumina.safeio import check_writable_folder
from lumina.worlds import DAILY_POOL, DAILY_SEED, WORLDS, Bucket, scaled_daily_buckets, world

GENERATOR_VERSION = "lumina-gen/1"
PER_DEPTH = 60              # B2 harvest cap per depth (the article's 9.9 GB lesson)
SWEEP_STATE_CAP = 500_000   # kept at 500k on purpose: 250k starved the deepest buckets
SOLVE_STATE_CAP = 500_000
MAX_DRAWS_PER_LAYOUT = 60
# B1's horizon. RULES.md bounds it at band max + 2; measured on our 6x6 layouts that
# misses so many far goals that 351 of 808 crystal candidates came back under band
# (a harvested state sat near a win B1 never saw). The component is swept whole
# instead, still bounded by the state cap; see docs/RULES-DECISIONS.md.
GOAL_HORIZON = 10_000
MAX_LAYOUTS = 1500
TWIST_KINDS = ("sand", "ice", "rime")
REJECTION_REASONS = ("layout", "no_goals", "shallow", "already_solved", "unsolvable",
                     "exhausted", "under_band", "over_band", "band_full", "duplicate",
                     "family", "solutions", "dead_blocks")


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
# Phase B0..B3.

def flatten(level: Level) -> Level:
    """B0: every sand, ice and rime block becomes crystal (positions kept)."""
    return level.replace(blocks=tuple(
        b if b.kind in ("key", "crystal") else Block(kind="crystal", x=b.x, y=b.y, w=b.w, h=b.h)
        for b in level.blocks))


def harvest_shift(level: Level) -> int:
    """Sand and ice only remove options (harvest lower); rime adds sweep depth the
    real solution walks around (harvest higher)."""
    return level.count("sand") + level.count("ice") - level.count("rime")


@dataclass
class Sweep:
    harvest: dict[int, list[int]]
    goals: int
    states: int


def multi_source_sweep(flat: Level, min_depth: int, max_depth: int, seed: int,
                       per_depth: int = PER_DEPTH, state_cap: int = SWEEP_STATE_CAP) -> Sweep:
    """B1 + B2 on a flattened layout: harvest states by distance to the nearest win."""
    goals, seen, _complete = goal_sweep(flat, GOAL_HORIZON, state_cap)
    if not goals:
        return Sweep(harvest={}, goals=0, states=seen)
    harvest, states, _deepest, _capped = backward_sweep(
        flat, goals, max(1, min_depth), per_depth, state_cap, max_depth, seed)
    return Sweep(harvest=harvest, goals=len(goals), states=seen + states)


def round_robin(harvest: dict[int, list[int]], depths: Sequence[int], rng: random.Random
                ) -> list[tuple[int, int]]:
    """B3: one state from each depth in turn (each depth's list shuffled)."""
    pools = {}
    for d in depths:
        pool = list(harvest.get(d, ()))
        rng.shuffle(pool)
        if pool:
            pools[d] = pool
    out = []
    while pools:
        for d in list(pools):
            out.append((d, pools[d].pop()))
            if not pools[d]:
                del pools[d]
    return out


def candidate_from_state(layout: Level, board: Board, state: int, level_id: str) -> Level:
    """The real-rules level whose blocks stand where `state` (of the flat board) puts them."""
    positions, _ = board.decode(state)
    blocks = tuple(Block(kind=b.kind, x=x, y=y, w=b.w, h=b.h)
                   for b, (x, y) in zip(layout.blocks, positions))
    return layout.replace(id=level_id, blocks=blocks)


def family_key(level: Level, optimal: int) -> str:
    """What the puzzle is made of, ignoring where the blocks sit: grid, exit, win,
    walls and mirrors, the multiset of block shapes and kinds, and the optimal count."""
    shapes = sorted(f"{b.kind[0]}{b.w}{b.h}" for b in level.blocks)
    fixed = "".join(f"{x}{y}" for x, y in sorted(level.walls))
    mir = "".join(f"{m.x}{m.y}{'f' if m.tilt == '/' else 'b'}" for m in level.mirrors)
    return (f"{level.width}x{level.height}:{level.exit.side[0]}{level.exit.index}:"
            f"{level.win}:{fixed}:{mir}:{'.'.join(shapes)}:{optimal}")


def signature(level: Level) -> str:
    """Exact-duplicate signature: the puzzle's desc (id and metadata excluded)."""
    return level.desc()


def dag_analysis(level: Level, family: str) -> tuple[Analysis, int]:
    """The level's measures (lumina.engine.measure) as its Analysis, and its optimal."""
    m = measure(level)
    others = [i for i, b in enumerate(level.blocks) if b.kind != "key"]
    dead = tuple(i for i in m.dead_blocks if level.blocks[i].kind != "key")
    share = round(len(dead) / len(others), 4) if others else 0.0
    return Analysis(plans=m.plans, plans_capped=m.plans_capped, solutions=m.solutions,
                    solutions_capped=m.solutions_capped, dead_blocks=m.dead_blocks,
                    dead_share=share, crystal_optimal=m.crystal_optimal,
                    first_moves_optimal=m.first_moves_optimal,
                    first_moves_legal=m.first_moves_legal,
                    component_states=m.component_states, traps=m.traps,
                    family=family), m.optimal


def dag_filter(bucket: Bucket, level: Level, optimal: int, family: str
               ) -> tuple[str | None, Analysis]:
    """The last, dearest filter: ("solutions" | "dead_blocks" | None, the analysis)."""
    analysis, dag_opt = dag_analysis(level, family)
    if dag_opt != optimal:
        raise AssertionError(f"{bucket.name}: DAG optimal {dag_opt} != BFS {optimal}")
    if analysis.solutions_capped or analysis.solutions > bucket.max_solutions:
        return "solutions", analysis
    if analysis.dead_share > bucket.max_dead_share:
        return "dead_blocks", analysis
    return None, analysis


# ---------------------------------------------------------------------------
# One bucket.

@dataclass
class BucketResult:
    bucket: str
    levels: list[Level]
    report: dict
    seconds: float = 0.0
    failed: str | None = None


def _needed(targets: list[int], accepted: list[int], value: int, tolerance: int) -> bool:
    need = Counter(targets)
    need.subtract(accepted)
    return any(n > 0 and abs(t - value) <= tolerance for t, n in need.items())


def generate_bucket(bucket: Bucket, seed: int) -> BucketResult:
    """Fill one bucket: layouts until every target count has a level (tolerance
    widens by one move every 150 layouts). Deterministic per seed."""
    t0 = time.perf_counter()
    lo, hi = bucket.band
    targets = bucket.targets()
    rejected: Counter[str] = Counter()
    accepted: list[Level] = []
    seen_sigs: set[str] = set()
    seen_fams: set[str] = set()
    harvested = candidates = layouts = 0
    layout_i = 0
    while len(accepted) < len(targets) and layout_i < MAX_LAYOUTS:
        tolerance = layout_i // 150
        rng = random.Random(f"{seed}:{bucket.name}:{layout_i}")
        layout_i += 1
        layout = solved_layout(bucket, rng)
        if layout is None:
            rejected["layout"] += 1
            continue
        layouts += 1
        flat = flatten(layout)
        shift = harvest_shift(layout)
        min_d, max_d = max(1, lo - shift), max(1, hi - min(0, shift) + 1)
        sweep = multi_source_sweep(flat, min_d, max_d, seed=rng.randrange(1, 2**32))
        if not sweep.goals:
            rejected["no_goals"] += 1
            continue
        if not sweep.harvest:
            rejected["shallow"] += 1
            continue
        # draw only from depths whose (shifted) count is still wanted
        acc = [lv.optimal for lv in accepted]
        depth_list = [d for d in sorted(sweep.harvest)
                      if any(_needed(targets, acc, d + k, tolerance) for k in range(max(0, shift) + 1))]
        if not depth_list:
            rejected["band_full"] += 1
            continue
        harvested += sum(len(v) for v in sweep.harvest.values())
        flat_board = Board(flat)
        done = False
        for draw, (depth, state) in enumerate(round_robin(sweep.harvest, depth_list, rng)):
            if draw >= MAX_DRAWS_PER_LAYOUT or done:
                break
            cand = candidate_from_state(layout, flat_board, state, f"{bucket.name}-cand")
            candidates += 1
            sol = solve(cand, state_cap=SOLVE_STATE_CAP)
            if sol.outcome is Outcome.EXHAUSTED:
                rejected["exhausted"] += 1
                continue
            if sol.outcome is Outcome.UNSOLVABLE:
                rejected["unsolvable"] += 1
                continue
            opt = sol.optimal
            assert opt is not None
            if opt == 0:
                rejected["already_solved"] += 1
            elif opt < lo:
                rejected["under_band"] += 1
            elif opt > hi:
                rejected["over_band"] += 1
            elif not _needed(targets, [lv.optimal for lv in accepted], opt, tolerance):
                rejected["band_full"] += 1
            elif signature(cand) in seen_sigs:
                rejected["duplicate"] += 1
            elif family_key(cand, opt) in seen_fams:
                rejected["family"] += 1
            else:
                fam = family_key(cand, opt)
                reason, analysis = dag_filter(bucket, cand, opt, fam)
                if reason:
                    rejected[reason] += 1
                else:
                    seen_sigs.add(signature(cand))
                    seen_fams.add(fam)
                    accepted.append(cand.replace(optimal=opt, solution=sol.moves,
                                                 analysis=analysis))
                    done = True          # one level per layout
    accepted.sort(key=lambda lv: (lv.optimal, signature(lv)))
    report = {"bucket": bucket.name, "size": f"{bucket.width}x{bucket.height}",
              "band": [lo, hi], "targets": targets, "levels": len(accepted),
              "layouts": layouts, "harvested": harvested, "candidates": candidates,
              "accepted": len(accepted),
              "rejections": {r: rejected[r] for r in REJECTION_REASONS if rejected[r]},
              "mix": {"blockers": list(bucket.blockers), "twists": dict(sorted(bucket.twists.items())),
                      "beam": bucket.beam}}
    failed = None
    if len(accepted) < len(targets):
        failed = (f"bucket {bucket.name}: only {len(accepted)} of {len(targets)} levels after "
                  f"{MAX_LAYOUTS} layouts")
    return BucketResult(bucket=bucket.name, levels=accepted, report=report,
                        seconds=time.perf_counter() - t0, failed=failed)


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
    for r in results:
        rep = r.report
        rej = " ".join(f"{k}={v}" for k, v in rep["rejections"].items()) or "none"
        print(f"  {rep['bucket']:7s} {rep['size']} band {rep['band'][0]}-{rep['band'][1]}: "
              f"{rep['accepted']}/{len(rep['targets'])} levels from {rep['candidates']} candidates "
              f"({rep['layouts']} layouts)  rejected: {rej}")


def _world_pack(number: int, seed: int | None, workers: int, out: Path,
                scheduler: str | None = None) -> list[str]:
    w = world(number)
    seed = w.seed if seed is None else seed
    results = run_buckets(f"world {number}", w.buckets, seed, workers, scheduler)
    print_report(f"World {number} ({w.name}) seed {seed}", results)
    failures = [r.failed for r in results if r.failed]
    levels = [w.tutorial] + [lv for r in results for lv in r.levels]
    levels = [finish_tutorial(levels[0])] + levels[1:]
    levels = [lv.replace(id=f"w{number}-{i:02d}") for i, lv in enumerate(levels, 1)]
    meta = {"pack": w.pack, "name": w.name, "world": number, "mechanic": w.mechanic,
            "seed": seed, "generator": GENERATOR_VERSION}
    if not failures:
        write_pack_and_report(out, w.pack, meta, levels,
                              {"pack": w.pack, "seed": seed, "generator": GENERATOR_VERSION,
                               "buckets": [r.report for r in results]})
    return failures


def finish_tutorial(tut: Level) -> Level:
    """A tutorial carries its proven optimum, solution and analysis like any level."""
    sol = solve(tut)
    if sol.outcome is not Outcome.SOLVED:
        raise AssertionError(f"tutorial {tut.id} is not solvable")
    analysis, _ = dag_analysis(tut, family_key(tut, sol.optimal))
    return tut.replace(optimal=sol.optimal, solution=sol.moves, analysis=analysis)


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
    results = run_buckets(name, scaled_daily_buckets(pool), seed, workers, scheduler)
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
    """`python -m lumina.bench generate`: full regeneration into a temp dir."""
    import resource
    import tempfile
    from lumina.worlds import WORLDS as _W
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        for w in _W:
            t = time.perf_counter()
            _world_pack(w.number, None, workers, Path(tmp))
            print(f"bench: world {w.number} {time.perf_counter() - t:.1f} s")
        t = time.perf_counter()
        _dailies_pack(None, workers, Path(tmp))
        print(f"bench: dailies {time.perf_counter() - t:.1f} s")
        total = time.perf_counter() - t0
    big = [b for b in WORLDS[0].buckets if b.width * b.height == 36][0]
    r = generate_bucket(big, WORLDS[0].seed)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"bench: full regeneration (5 worlds + dailies, {workers} workers): {total:.1f} s")
    print(f"bench: one 6x6 bucket ({big.name}, {big.levels} levels): {r.seconds:.2f} s")
    print(f"bench: peak RSS {max(rss, kids):.0f} MB (this process {rss:.0f} MB, "
          f"largest worker {kids:.0f} MB)")
    return 0


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
