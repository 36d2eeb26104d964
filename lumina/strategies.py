"""The three generation strategies, measured side by side (issue 5).

    python -m lumina.bench strategies [--quick] [--out packs/strategies.json]

The article's lesson: two plausible generators produced wrong levels without ever
failing, and only re-solving every candidate showed it. This module makes that
reproducible on our boards. Three candidate producers share one interface,

    Producer = (bucket, layout, rng, budget) -> list[Candidate(label, level)]

where `layout` is a phase-A solved layout (`lumina.generate.solved_layout`), `rng`
is seeded identically for all three, `budget` is the most candidates the producer
may return for that layout, and `label` is the move count the strategy *claims*:

  reverse-walk   K uniformly random legal moves from the solved layout on the
                 flattened (crystal) board, K drawn from the target depths; label K.
  single-source  BFS from the one solved layout (flattened); harvest at most 60
                 states per depth over the target depths; label = depth from it.
  multi-source   the shipped sweep: `generate.multi_source_sweep` (goals within
                 band max + 2, one BFS from all of them) and `generate.round_robin`;
                 label = distance to the nearest win found.

The target depths are the generator's: band minimum minus `harvest_shift` up to
band maximum (plus one, and plus the rime correction), so all three aim at the
same numbers. Every candidate is then re-solved with the real solver on the
real-kinds level and filed by what it turned out to be: already solved, under
band, in band, over band, unsolvable, exhausted. In-band candidates go through the
generator's filters, cheapest first (exact duplicate, family, then the optimal-
solution DAG against `bucket.max_solutions` / `bucket.max_dead_share`); the ones
left are the survivors. Draws never stop early on an accepted level, so the
classification counts measure the producer alone.

Insight: on an undirected move graph, a walk's length is only an upper bound on
its distance from home, and distance from *one* win is only an upper bound on the
distance to the nearest one; only the multi-source depth is the real count.

    walk:    S -> a -> S -> a -> b      K = 4, distance 2
    single:  G1 - a - b - c - S         S is 4 from G1 ...
    multi:   G1 - a - b - G2 - S        ... and 1 from G2
"""
from __future__ import annotations

import json
import random
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, NamedTuple, Sequence

from lumina.engine import Board, Outcome, backward_sweep, solve
from lumina.generate import (PER_DEPTH, SOLVE_STATE_CAP, SWEEP_STATE_CAP,
                             candidate_from_state, dag_filter, family_key, flatten,
                             harvest_shift, multi_source_sweep, round_robin, signature,
                             solved_layout)
from lumina.model import Level
from lumina.packfile import write_json
from lumina.worlds import Bucket, world

COMMAND = "python -m lumina.bench strategies"
CLASSES = ("already_solved", "under_band", "in_band", "over_band", "unsolvable", "exhausted")
FILTERS = ("duplicate", "family", "solutions", "dead_blocks")


class Candidate(NamedTuple):
    label: int        # the move count the strategy claims for this board
    level: Level      # real kinds (sand, ice, rime restored), blocks where the state puts them


Producer = Callable[[Bucket, Level, random.Random, int], list[Candidate]]


def target_depths(bucket: Bucket, layout: Level) -> tuple[int, int]:
    """The sweep depths the generator harvests for this layout (inclusive)."""
    lo, hi = bucket.band
    shift = harvest_shift(layout)
    return max(1, lo - shift), max(1, hi - min(0, shift) + 1)


def _from_states(layout: Level, flat: Level, picks: Sequence[tuple[int, int]], budget: int
                 ) -> list[Candidate]:
    board = Board(flat)
    return [Candidate(depth, candidate_from_state(layout, board, state, f"cand-{i}"))
            for i, (depth, state) in enumerate(picks[:budget])]


def reverse_walk(bucket: Bucket, layout: Level, rng: random.Random, budget: int) -> list[Candidate]:
    """Strategy 1: K random moves backward from the solved layout, labelled K.

    Crystal slides are their own inverses, so a backward move is any legal move;
    nothing stops the walk from undoing itself (that is the point)."""
    flat = flatten(layout)
    board = Board(flat)
    lo, hi = target_depths(bucket, layout)
    depths = list(range(lo, hi + 1))
    out = []
    for i in range(budget):
        k = depths[i % len(depths)] if i < len(depths) else rng.choice(depths)
        state = board.start
        for _ in range(k):
            moves = board.moves(state)
            if not moves:
                break
            state = board.apply(state, rng.choice(moves))
        out.append(Candidate(k, candidate_from_state(layout, board, state, f"cand-{i}")))
    return out


def single_source(bucket: Bucket, layout: Level, rng: random.Random, budget: int) -> list[Candidate]:
    """Strategy 2: BFS from the one solved layout; harvest by depth from that source.

    The same compiled sweep as phase B2, seeded with a single state instead of the
    goal set, so the source set is the only thing that differs from multi-source."""
    flat = flatten(layout)
    lo, hi = target_depths(bucket, layout)
    harvest, _states, _deepest, _capped = backward_sweep(
        flat, [Board(flat).start], lo, PER_DEPTH, SWEEP_STATE_CAP, hi, rng.randrange(1, 2**32))
    return _from_states(layout, flat, round_robin(harvest, sorted(harvest), rng), budget)


def multi_source(bucket: Bucket, layout: Level, rng: random.Random, budget: int) -> list[Candidate]:
    """Strategy 3: the shipped multi-source backward sweep (the generator's own code)."""
    flat = flatten(layout)
    lo, hi = target_depths(bucket, layout)
    sweep = multi_source_sweep(flat, lo, hi, seed=rng.randrange(1, 2**32))
    return _from_states(layout, flat, round_robin(sweep.harvest, sorted(sweep.harvest), rng),
                        budget)


STRATEGIES: dict[str, Producer] = {
    "reverse-walk": reverse_walk,
    "single-source": single_source,
    "multi-source": multi_source,
}

# Buckets from the campaign (name, world seed): 4x4 to 6x6 crystal, then a sand, an
# ice and a rime+sand mix. Bands and block mixes are read from lumina.worlds.
BENCH_BUCKETS = (("w1-b1", 101), ("w1-b2", 101), ("w1-b4", 101), ("w1-b5", 101),
                 ("w2-b3", 202), ("w3-b4", 303), ("w4-b4", 404))
QUICK_BUCKETS = (("w1-b2", 101), ("w1-b4", 101), ("w2-b3", 202))
FULL_LAYOUTS, QUICK_LAYOUTS = 150, 20
PER_LAYOUT = 24   # our own budget, fixed here so the lead tuning the generator never moves it


def bucket_by_name(name: str) -> Bucket:
    w = world(int(name[1]))
    return next(b for b in w.buckets if b.name == name)


def bucket_label(bucket: Bucket) -> str:
    twists = "+".join(f"{k}{n}" for k, n in sorted(bucket.twists.items())) or "crystal"
    return f"{bucket.name} {bucket.width}x{bucket.height} {twists} {bucket.band[0]}-{bucket.band[1]}"


@dataclass
class Row:
    strategy: str
    bucket: str
    layouts: int
    counts: Counter
    filtered: Counter
    survivors: int
    seconds: float
    labels: Counter        # (label, real optimal or class) pairs, for the reading

    def to_json(self) -> dict:
        return {"strategy": self.strategy, "bucket": self.bucket,
                "candidates": sum(self.counts[c] for c in CLASSES),
                **{c: self.counts[c] for c in CLASSES},
                "survivors": self.survivors, "seconds": round(self.seconds, 2),
                "layouts": self.layouts,
                "filtered": {f: self.filtered[f] for f in FILTERS},
                "label_vs_real": self.label_vs_real()}

    def label_vs_real(self) -> dict:
        """For solved candidates: was the strategy's claimed count above, equal to or
        below what the real solver found?"""
        out = {"claimed_more": 0, "exact": 0, "claimed_less": 0}
        for (label, real), n in self.labels.items():
            if isinstance(real, int):
                key = "exact" if real == label else "claimed_more" if label > real else "claimed_less"
                out[key] += n
        return out


def layouts_for(bucket: Bucket, seed: int, count: int) -> list[tuple[Level, random.Random]]:
    """The first `count` valid phase-A layouts of this bucket, each with the rng state
    right after it was drawn (every strategy gets a copy of that same state)."""
    out = []
    i = 0
    while len(out) < count and i < 50 * count:
        rng = random.Random(f"{seed}:{bucket.name}:{i}")
        i += 1
        layout = solved_layout(bucket, rng)
        if layout is not None:
            out.append((layout, rng))
    return out


def classify(level: Level, band: tuple[int, int]) -> tuple[str, int | None, tuple]:
    """Re-solve with the real solver; the class, the real optimal and its moves."""
    sol = solve(level, state_cap=SOLVE_STATE_CAP)
    if sol.outcome is Outcome.EXHAUSTED:
        return "exhausted", None, ()
    if sol.outcome is Outcome.UNSOLVABLE:
        return "unsolvable", None, ()
    opt = sol.optimal
    lo, hi = band
    if opt == 0:
        return "already_solved", 0, sol.moves
    if opt < lo:
        return "under_band", opt, sol.moves
    if opt > hi:
        return "over_band", opt, sol.moves
    return "in_band", opt, sol.moves


def run_strategy(name: str, bucket: Bucket, layouts: Sequence[tuple[Level, random.Random]],
                 per_layout: int = PER_LAYOUT, filters: bool = True) -> Row:
    """One strategy on one bucket: produce, re-solve, classify, filter. Deterministic
    apart from `seconds` (CPU seconds of this process)."""
    producer = STRATEGIES[name]
    t0 = time.process_time()
    counts: Counter[str] = Counter()
    filtered: Counter[str] = Counter()
    labels: Counter = Counter()
    sigs: set[str] = set()
    fams: set[str] = set()
    survivors = 0
    for layout, rng0 in layouts:
        rng = random.Random()
        rng.setstate(rng0.getstate())
        for cand in producer(bucket, layout, rng, per_layout):
            cls, opt, _moves = classify(cand.level, bucket.band)
            counts[cls] += 1
            labels[(cand.label, cls if opt is None else opt)] += 1
            if cls != "in_band" or not filters:
                continue
            sig = signature(cand.level)
            fam = family_key(cand.level, opt)
            if sig in sigs:
                filtered["duplicate"] += 1
                continue
            sigs.add(sig)
            if fam in fams:
                filtered["family"] += 1
                continue
            reason, _analysis = dag_filter(bucket, cand.level, opt, fam)
            if reason:
                filtered[reason] += 1
            else:
                fams.add(fam)
                survivors += 1
    return Row(strategy=name, bucket=bucket_label(bucket), layouts=len(layouts), counts=counts,
               filtered=filtered, survivors=survivors, seconds=time.process_time() - t0,
               labels=labels)


def run_all(buckets: Sequence[tuple[str, int]], n_layouts: int, per_layout: int = PER_LAYOUT,
            filters: bool = True, strategies: Sequence[str] = tuple(STRATEGIES)) -> list[Row]:
    rows = []
    for name, seed in buckets:
        bucket = bucket_by_name(name)
        layouts = layouts_for(bucket, seed, n_layouts)
        for s in strategies:
            rows.append(run_strategy(s, bucket, layouts, per_layout, filters))
    return rows


def _pct(n: int, total: int) -> str:
    return f"{100 * n / total:.0f}%" if total else "-"


def format_table(rows: Sequence[Row]) -> list[str]:
    """The table as Markdown lines (counts by reason, never one summed total)."""
    head = ("| strategy | bucket | candidates | already solved | under band | in band | "
            "over band | unsolvable | exhausted | survivors | CPU s |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        j = r.to_json()
        n = j["candidates"]
        cells = [r.strategy, r.bucket, str(n)]
        cells += [f"{j[c]} ({_pct(j[c], n)})" if j[c] else "0" for c in CLASSES]
        cells += [str(r.survivors), f"{r.seconds:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def format_labels(rows: Sequence[Row]) -> list[str]:
    """How honest each strategy's claimed count was (solved candidates only)."""
    lines = ["| strategy | bucket | claimed more than real | exact | claimed less |",
             "|---|---|---|---|---|"]
    for r in rows:
        lv = r.label_vs_real()
        n = sum(lv.values())
        lines.append(f"| {r.strategy} | {r.bucket} | " + " | ".join(
            f"{lv[k]} ({_pct(lv[k], n)})" if lv[k] else "0"
            for k in ("claimed_more", "exact", "claimed_less")) + " |")
    return lines


def bench_strategies(quick: bool, out: Path) -> int:
    """`python -m lumina.bench strategies`: print the table and write it as JSON."""
    buckets = QUICK_BUCKETS if quick else BENCH_BUCKETS
    n_layouts = QUICK_LAYOUTS if quick else FULL_LAYOUTS
    wall0, cpu0 = time.perf_counter(), time.process_time()
    rows = run_all(buckets, n_layouts)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    command = COMMAND + (" --quick" if quick else "")
    print(f"{command}: {len(buckets)} buckets x {n_layouts} layouts x at most {PER_LAYOUT} "
          f"candidates per layout and strategy; every candidate re-solved by BFS")
    for line in format_table(rows):
        print(line)
    print()
    for line in format_labels(rows):
        print(line)
    print(f"total: {wall:.1f} s wall, {cpu:.1f} s CPU")
    doc = {"command": command,
           "budget": {"layouts": n_layouts, "per_layout": PER_LAYOUT, "per_depth": PER_DEPTH,
                      "sweep_state_cap": SWEEP_STATE_CAP, "solve_state_cap": SOLVE_STATE_CAP},
           "buckets": [_bucket_json(bucket_by_name(n), s) for n, s in buckets],
           "rows": [r.to_json() for r in rows]}
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json(out, doc)
    print(f"wrote {out}")
    return 0


def _bucket_json(bucket: Bucket, seed: int) -> dict:
    return {"bucket": bucket_label(bucket), "name": bucket.name, "seed": seed,
            "size": f"{bucket.width}x{bucket.height}", "band": list(bucket.band),
            "blockers": list(bucket.blockers), "twists": dict(sorted(bucket.twists.items())),
            "walls": list(bucket.walls)}
