"""The three generation strategies, measured side by side (issues 5 and 9).

    python -m lumina.bench strategies [--quick] [--out packs/strategies.json]
    (the benchmark that runs it, prints the tables and writes the JSON:
    lumina/bench/strategies.py)

The article's lesson: two plausible generators produced wrong levels without ever
failing, and only re-solving every candidate showed it. This module makes that
reproducible on our boards. Three candidate producers share one interface,

    Producer = (bucket, layout, rng, budget) -> list[Candidate(label, level)]

where `layout` is a phase-A solved layout (`lumina.gen.layouts.solved_layout`, the only
thing taken from the generator), `rng` is seeded identically for all three, `budget`
is the most candidates the producer may return for that layout, and `label` is the
move count the strategy *claims*:

  reverse-walk   K uniformly random legal moves from the solved layout on the
                 crystal board (sand, ice and rime as crystal), K drawn from the
                 band; label K.
  single-source  BFS from the one solved layout (crystal board); harvest at most 60
                 states per depth over the band; label = depth from it.
  multi-source   the shipped sweep: `lumina.engine.exact_sweep` on the real rules
                 (every goal at once, directed edges walked in reverse), drawn
                 round-robin over the band's pars; label = the start's exact par.
                 No harvest shift. Unlike the generator, which harvests only binding
                 starts in twist buckets, the bench takes every start, so the judge's
                 "unbound" count shows how rare binding starts are.

Every candidate is then re-solved with the real solver on the real-kinds level and
filed by what it turned out to be (`lumina.judge.band_reason`): already solved,
under band, in band, over band, unsolvable, exhausted. In-band candidates go through
the judge's `screen`, cheapest first: exact or near duplicate of an earlier survivor
(`judge.Seen`, decoys left out once measured), then on the level's measures (the
judge's `LEVEL_REASONS`: unbound twist, margin, dead or optional twist, not the
board's deepest start, chain, plans, dead blocks); the ones left are the survivors. Draws never stop early on an accepted level, so
the classification counts measure the producer alone.

Insight: on an undirected move graph, a walk's length is only an upper bound on
its distance from home, and distance from *one* win is only an upper bound on the
distance to the nearest one; only the multi-source depth is the real count, and
only a sweep over the real (directed) moves is exact when sand, ice or rime play.

    walk:    S -> a -> S -> a -> b      K = 4, distance 2
    single:  G1 - a - b - c - S         S is 4 from G1 ...
    multi:   G1 - a - b - G2 - S        ... and 1 from G2
"""
from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Callable, NamedTuple, Sequence

from lumina import judge
from lumina.engine import (Board, Outcome, backward_sweep, crystal, exact_sweep, level_at,
                           solve)
from lumina.gen.buckets import PER_DEPTH, SOLVE_STATE_CAP, SWEEP_STATE_CAP
from lumina.gen.layouts import solved_layout
from lumina.judge import CLASSES, FILTERS
from lumina.model import Block, Level
from lumina.worlds import Bucket


class Candidate(NamedTuple):
    label: int        # the move count the strategy claims for this board
    level: Level      # real kinds (sand, ice, rime restored), blocks where the state puts them


Producer = Callable[[Bucket, Level, random.Random, int], list[Candidate]]


def round_robin(harvest: dict[int, list], depths: Sequence[int], rng: random.Random
                ) -> list[tuple[int, object]]:
    """B3: one item from each depth in turn (each depth's list shuffled by `rng`)."""
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


def _real_level(layout: Level, flat: Board, state: int, level_id: str) -> Level:
    """The layout's real kinds where a crystal-board `state` puts the blocks."""
    positions, _ = flat.decode(state)
    return layout.replace(id=level_id, blocks=tuple(
        Block(kind=b.kind, x=x, y=y, w=b.w, h=b.h) for b, (x, y) in zip(layout.blocks, positions)))


def reverse_walk(bucket: Bucket, layout: Level, rng: random.Random, budget: int) -> list[Candidate]:
    """Strategy 1: K random moves backward from the solved layout, labelled K.

    Crystal slides are their own inverses, so a backward move is any legal move;
    nothing stops the walk from undoing itself (that is the point)."""
    board = Board(crystal(layout))
    lo, hi = bucket.band
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
        out.append(Candidate(k, _real_level(layout, board, state, f"cand-{i}")))
    return out


def single_source(bucket: Bucket, layout: Level, rng: random.Random, budget: int) -> list[Candidate]:
    """Strategy 2: BFS from the one solved layout; harvest by depth from that source.

    A backward sweep on the crystal board seeded with a single state instead of the
    goal set, so the source set is what differs from the generator's first sweep."""
    flat = crystal(layout)
    lo, hi = bucket.band
    harvest, _states, _deepest, _capped = backward_sweep(
        flat, [Board(flat).start], lo, PER_DEPTH, SWEEP_STATE_CAP, hi, rng.randrange(1, 2**32))
    board = Board(flat)
    return [Candidate(depth, _real_level(layout, board, state, f"cand-{i}"))
            for i, (depth, state) in enumerate(round_robin(harvest, sorted(harvest), rng)[:budget])]


def multi_source(bucket: Bucket, layout: Level, rng: random.Random, budget: int) -> list[Candidate]:
    """Strategy 3: the shipped sweep, `exact_sweep` under the real rules: each start's
    label is its exact par (binding or not: the judge counts unbound ones)."""
    lo, hi = bucket.band
    sweep = exact_sweep(layout, min_depth=lo, per_depth=PER_DEPTH, seed=rng.randrange(1, 2**32),
                        state_cap=SWEEP_STATE_CAP)
    pars = [p for p in sorted(sweep.harvest) if p <= hi]
    return [Candidate(par, level_at(layout, c.state, f"cand-{i}"))
            for i, (par, c) in enumerate(round_robin(sweep.harvest, pars, rng)[:budget])]


STRATEGIES: dict[str, Producer] = {
    "reverse-walk": reverse_walk,
    "single-source": single_source,
    "multi-source": multi_source,
}

# The bench's own buckets (the campaign's shapes before issue 9), fixed here so that
# re-planning the campaign (lumina/campaign.toml) never moves the comparison: 4x4 to 6x6
# crystal, then sand, ice, rime+sand and beam. Name -> (bucket, layout seed).
def _bucket(name: str, size: str, band: tuple[int, int], blockers: tuple[int, int],
            **kw) -> Bucket:
    w, h = (int(v) for v in size.split("x"))
    return Bucket(name=name, width=w, height=h, band=band, levels=6, blockers=blockers, **kw)


BUCKETS: dict[str, tuple[Bucket, int]] = {b.name: (b, seed) for b, seed in (
    (_bucket("crystal-4x4", "4x4", (2, 4), (2, 4)), 101),
    (_bucket("crystal-5x5", "5x5", (4, 6), (4, 7)), 101),
    (_bucket("crystal-6x6", "6x6", (7, 9), (9, 12), walls=(0, 1)), 101),
    (_bucket("crystal-6x6-12", "6x6", (10, 12), (11, 14), walls=(0, 1)), 101),
    (_bucket("sand-6x5", "6x5", (6, 9), (6, 9), twists={"sand": 2}), 202),
    (_bucket("ice-6x6", "6x6", (9, 11), (9, 12), twists={"ice": 2}, walls=(0, 1)), 303),
    (_bucket("rime-6x6", "6x6", (9, 11), (9, 12), twists={"rime": 1, "sand": 1}), 404),
    (_bucket("beam-5x5", "5x5", (4, 6), (4, 6), beam=True, mirrors=(1, 2)), 505),
)}
PER_LAYOUT = 24   # our own budget, fixed here so the lead tuning the generator never moves it


def bucket_by_name(name: str) -> Bucket:
    return BUCKETS[name][0]


def bucket_label(bucket: Bucket) -> str:
    kinds = "+".join(f"{k}{n}" for k, n in sorted(bucket.twists.items())) or "crystal"
    if bucket.beam:
        kinds = f"beam {kinds}"
    return f"{bucket.name} {bucket.width}x{bucket.height} {kinds} {bucket.band[0]}-{bucket.band[1]}"


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


def classify(level: Level, band: tuple[int, int]) -> tuple[str, int | None]:
    """Re-solve with the real solver: the class and the real optimal."""
    sol = solve(level, state_cap=SOLVE_STATE_CAP)
    if sol.outcome is Outcome.EXHAUSTED:
        return "exhausted", None
    if sol.outcome is Outcome.UNSOLVABLE:
        return "unsolvable", None
    return judge.band_reason(sol.optimal, band) or "in_band", sol.optimal


def run_strategy(name: str, bucket: Bucket, layouts: Sequence[tuple[Level, random.Random]],
                 per_layout: int = PER_LAYOUT, filters: bool = True) -> Row:
    """One strategy on one bucket: produce, re-solve, classify, judge. Deterministic
    apart from `seconds` (CPU seconds of this process)."""
    producer = STRATEGIES[name]
    t0 = time.process_time()
    counts: Counter[str] = Counter()
    filtered: Counter[str] = Counter()
    labels: Counter = Counter()
    seen = judge.Seen()                 # the survivors so far
    survivors = 0
    for layout, rng0 in layouts:
        rng = random.Random()
        rng.setstate(rng0.getstate())
        for cand in producer(bucket, layout, rng, per_layout):
            cls, opt = classify(cand.level, bucket.band)
            counts[cls] += 1
            labels[(cand.label, cls if opt is None else opt)] += 1
            if cls != "in_band" or not filters:
                continue
            v = judge.screen(cand.level, seen=seen, optimal=opt)
            if v.reason:
                filtered[v.reason] += 1
            else:
                seen.add(cand.level, dead=v.measures.dead_blocks)
                survivors += 1
    return Row(strategy=name, bucket=bucket_label(bucket), layouts=len(layouts), counts=counts,
               filtered=filtered, survivors=survivors, seconds=time.process_time() - t0,
               labels=labels)


def run_all(buckets: Sequence[str], n_layouts: int, per_layout: int = PER_LAYOUT,
            filters: bool = True, strategies: Sequence[str] = tuple(STRATEGIES)) -> list[Row]:
    """Every strategy on every named bucket (of BUCKETS), on the same layouts."""
    rows = []
    for name in buckets:
        bucket, seed = BUCKETS[name]
        layouts = layouts_for(bucket, seed, n_layouts)
        for s in strategies:
            rows.append(run_strategy(s, bucket, layouts, per_layout, filters))
    return rows
