"""The campaign's shape: five worlds, their buckets and tutorials, and the daily pool.

A bucket is the unit of generation: one grid size, one block mix and one target band
of optimal move counts, filled with `levels` levels spread evenly across the band.
Buckets of one world that share a grid size have disjoint bands, so two buckets can
never produce the same puzzle or the same family, and they can be generated in any
order, on any number of workers, with identical results.

Insight: the world-1 tutorial, drawn as its fixture (A key, B crystal, exit right of
row 1). Its only optimal solution moves B down, then slides the key out:

    . . . .
    A A B .  >
    . . B .
    . . . .
"""
from __future__ import annotations

import dataclasses
import datetime as _dt
from dataclasses import dataclass, field

from lumina.desc import from_grid
from lumina.model import Beam, Exit, Level

GATES = {1: 0, 2: 40, 3: 110, 4: 170, 5: 230}
DAILY_POOL = 174
DAILY_EPOCH = _dt.date(1970, 1, 1)

# Quality thresholds live in lumina.judge (one judge for generator, bench and verifier).
DEEP_BUDGET = 3000             # sweeps per deep layout search
BEAM_BUDGET = 8000             # beam sweeps are cheap and beam depth is scarce
FINALE_BUDGET = 8000           # the campaign's deepest (World 5's finale)


@dataclass(frozen=True, kw_only=True)
class Bucket:
    name: str
    width: int
    height: int
    band: tuple[int, int]          # inclusive range of optimal move counts
    levels: int                    # how many levels this bucket yields
    blockers: tuple[int, int]      # crystal-or-twist blocker count range
    twists: dict[str, int] = field(default_factory=dict)   # kind -> how many blockers
    walls: tuple[int, int] = (0, 0)
    beam: bool = False
    mirrors: tuple[int, int] = (0, 0)
    deep: int = 0                  # > 0: deep layout search, this many sweeps per search
    upward: bool = False           # a missed target may only be filled by a harder par

    def targets(self) -> list[int]:
        """The optimal counts this bucket aims for, spread evenly over the band."""
        lo, hi = self.band
        if self.levels == 1:
            return [lo]
        return [lo + round(j * (hi - lo) / (self.levels - 1)) for j in range(self.levels)]


@dataclass(frozen=True, kw_only=True)
class World:
    number: int
    name: str
    mechanic: str
    seed: int
    tutorial: Level
    buckets: tuple[Bucket, ...]

    @property
    def pack(self) -> str:
        return f"world-{self.number}"


def _tutorial(world: int, rows: list[str], exit: Exit, name: str, kinds=None,
              beam: Beam | None = None) -> Level:
    lv = from_grid(rows, exit=exit, id=f"w{world}-01", kinds=kinds or {}, beam=beam)
    return lv.replace(name=name, tutorial=True)


TUTORIALS = {
    1: _tutorial(1, ["....",
                     "AAB.",
                     "..B.",
                     "...."], Exit(side="right", index=1), "First light"),
    # Sand: as crystal (par 6) S slides up, F and G clear, S slides back down; sand
    # slides once, so B and D clear the top first and S makes one slide all the way
    # up (par 7).
    2: _tutorial(2, [".BDDE",
                     ".B..E",
                     "..AAG",
                     "..S.G",
                     "..SFF"], Exit(side="right", index=2), "Sand slides once",
                 kinds={"S": "sand"}),
    # Ice: crystal would nudge the ice one cell (par 5); ice slides to the end, so it
    # goes away and comes back to rest against G (par 6).
    3: _tutorial(3, [".BEEE",
                     ".BAAG",
                     ".FFFG",
                     "...II",
                     "DD..."], Exit(side="left", index=1), "Ice slides to the end",
                 kinds={"I": "ice"}),
    4: _tutorial(4, ["....",
                     "AA.R",
                     "...R",
                     "...."], Exit(side="right", index=1), "Rime thaws at a touch",
                 kinds={"R": "rime"}),
    # Beam: the key steps left so its light meets the mirror and turns toward the
    # lantern; then B clears the turned light's row.
    5: _tutorial(5, ["..B.",
                     "/.B.",
                     "....",
                     ".AA."], Exit(side="right", index=1), "Bend the light",
                 beam=Beam(dir="N", offset=0)),
}


def _b(world: int, i: int, size: str, band: tuple[int, int], levels: int,
       blockers: tuple[int, int], **kw) -> Bucket:
    w, h = (int(v) for v in size.split("x"))
    return Bucket(name=f"w{world}-b{i}", width=w, height=h, band=band, levels=levels,
                  blockers=blockers, **kw)


# Each world: tutorial, then levels sorted by par (ties by signature) so the curve
# climbs; shallow bands from random phase-A layouts, deep bands (deep=N: sweeps per
# search) from the deep layout search. Bands of one world are adjacent, so the pars
# leave no hole wider than judge.MAX_HOLE; each world's top is above the last one's.
WORLDS: tuple[World, ...] = (
    World(number=1, name="Willow Hollow", mechanic="crystal", seed=101, tutorial=TUTORIALS[1],
          buckets=(
              _b(1, 1, "4x4", (3, 4), 4, (3, 5)),
              _b(1, 2, "5x5", (5, 8), 5, (4, 7)),
              _b(1, 3, "6x5", (8, 11), 5, (6, 9), walls=(0, 1)),
              _b(1, 4, "6x6", (11, 14), 5, (7, 13), walls=(0, 1), deep=DEEP_BUDGET),
              _b(1, 5, "6x6", (14, 17), 5, (7, 13), walls=(0, 1), deep=DEEP_BUDGET),
              _b(1, 6, "6x6", (17, 21), 5, (7, 13), walls=(0, 1), deep=DEEP_BUDGET),
          )),
    World(number=2, name="Dune Sea", mechanic="sand", seed=202, tutorial=TUTORIALS[2],
          buckets=(
              _b(2, 1, "5x5", (6, 7), 4, (5, 8), twists={"sand": 2}),
              _b(2, 2, "6x5", (7, 10), 5, (6, 9), twists={"sand": 2}),
              _b(2, 3, "6x6", (10, 13), 5, (7, 13), twists={"sand": 2}, walls=(0, 1),
                 deep=DEEP_BUDGET),
              _b(2, 4, "6x6", (13, 16), 5, (7, 13), twists={"sand": 2}, walls=(0, 1),
                 deep=DEEP_BUDGET),
              _b(2, 5, "6x6", (16, 20), 5, (7, 13), twists={"sand": 2}, walls=(0, 1),
                 deep=DEEP_BUDGET),
              _b(2, 6, "6x6", (20, 24), 5, (7, 13), twists={"sand": 2}, walls=(0, 1),
                 deep=DEEP_BUDGET),
          )),
    World(number=3, name="Glass Lake", mechanic="ice", seed=303, tutorial=TUTORIALS[3],
          buckets=(
              _b(3, 1, "6x5", (6, 8), 4, (5, 8), twists={"ice": 2}),
              _b(3, 2, "6x5", (8, 11), 5, (6, 9), twists={"ice": 2}, walls=(0, 1)),
              _b(3, 3, "6x6", (11, 14), 5, (7, 13), twists={"ice": 2}, walls=(0, 1),
                 deep=DEEP_BUDGET),
              _b(3, 4, "6x6", (14, 18), 5, (7, 13), twists={"ice": 2}, walls=(0, 1),
                 deep=DEEP_BUDGET),
              _b(3, 5, "6x6", (18, 23), 5, (7, 13), twists={"ice": 2}, walls=(0, 1),
                 deep=DEEP_BUDGET),
              _b(3, 6, "6x6", (23, 28), 5, (7, 13), twists={"ice": 2}, walls=(0, 1),
                 deep=DEEP_BUDGET),
          )),
    World(number=4, name="Frost Hollow", mechanic="rime", seed=404, tutorial=TUTORIALS[4],
          buckets=(
              _b(4, 1, "5x5", (3, 5), 4, (3, 6), twists={"rime": 1}),
              _b(4, 2, "5x5", (5, 9), 5, (4, 7), twists={"rime": 1}),
              _b(4, 3, "6x5", (9, 13), 5, (6, 9), twists={"rime": 1}, walls=(0, 1)),
              _b(4, 4, "6x6", (13, 18), 5, (7, 13), twists={"rime": 1, "ice": 1},
                 walls=(0, 1), deep=DEEP_BUDGET),
              _b(4, 5, "6x6", (18, 25), 5, (7, 13), twists={"rime": 1, "ice": 1},
                 walls=(0, 1), deep=DEEP_BUDGET),
              _b(4, 6, "6x6", (25, 32), 5, (7, 13), twists={"rime": 2}, walls=(0, 1),
                 deep=DEEP_BUDGET),
          )),
    # Beam layouts top out near 30 moves within budget (measured: 27, 13 and 31 at 2,000
    # to 12,000 sweeps), so the Spire ends with a finale of deep exit levels (w5-b6):
    # the campaign's hardest, 29 to 41 moves (seven targets two apart, so a
    # stand-in one move up never opens a hole of more than 3), each from its own search.
    World(number=5, name="Lantern Spire", mechanic="beam", seed=505, tutorial=TUTORIALS[5],
          buckets=(
              _b(5, 1, "4x4", (3, 5), 3, (2, 4), beam=True, mirrors=(1, 1)),
              _b(5, 2, "5x5", (5, 9), 5, (4, 7), beam=True, mirrors=(1, 2)),
              _b(5, 3, "6x5", (9, 14), 5, (5, 8), beam=True, mirrors=(1, 2)),
              _b(5, 4, "6x6", (14, 20), 5, (7, 13), beam=True, mirrors=(1, 3),
                 deep=BEAM_BUDGET),
              _b(5, 5, "6x6", (20, 26), 4, (7, 13), beam=True, mirrors=(1, 3),
                 deep=BEAM_BUDGET),
              _b(5, 6, "6x6", (29, 41), 7, (7, 13), walls=(0, 1), deep=FINALE_BUDGET),
          )),
)

# The daily pool: its own seed and buckets, so regenerating it never re-searches the
# campaign (and the reverse). Every mechanic, pars from 6 to 26; judged against every
# world's pack, so no daily nearly duplicates a campaign level.
DAILY_SEED = 606
DAILY_BUCKETS: tuple[Bucket, ...] = tuple(
    Bucket(name=f"d-b{i + 1}", width=w, height=h, band=band, levels=n, blockers=bl, **kw)
    for i, (w, h, band, n, bl, kw) in enumerate((
        (5, 5, (6, 9), 16, (4, 7), {}),
        (6, 6, (10, 16), 18, (7, 13), {"walls": (0, 1), "deep": DEEP_BUDGET}),
        (6, 6, (17, 26), 12, (7, 13), {"walls": (0, 1), "deep": DEEP_BUDGET}),
        (6, 6, (6, 10), 16, (7, 13), {"twists": {"sand": 2}, "deep": DEEP_BUDGET}),
        (6, 6, (10, 14), 12, (7, 13), {"twists": {"sand": 2}, "deep": DEEP_BUDGET}),
        (6, 6, (6, 10), 16, (5, 10), {"twists": {"ice": 2}, "deep": DEEP_BUDGET}),
        (6, 6, (10, 16), 14, (7, 13), {"twists": {"ice": 2}, "deep": DEEP_BUDGET}),
        (5, 5, (6, 10), 16, (4, 7), {"twists": {"rime": 1}}),
        (6, 6, (10, 18), 14, (7, 13), {"twists": {"rime": 1, "ice": 1}, "deep": DEEP_BUDGET}),
        (5, 5, (6, 10), 16, (4, 7), {"beam": True, "mirrors": (1, 2)}),
        (6, 6, (10, 18), 12, (7, 13), {"beam": True, "mirrors": (1, 3), "deep": DEEP_BUDGET}),
        (6, 6, (10, 16), 12, (7, 13), {"beam": True, "mirrors": (1, 3),
                                       "twists": {"ice": 1}, "deep": DEEP_BUDGET}),
    )))
assert sum(b.levels for b in DAILY_BUCKETS) == DAILY_POOL


def scaled_daily_buckets(n: int) -> tuple[Bucket, ...]:
    """The daily buckets with `levels` scaled so they sum to `n` (`--dailies --pool N`).

    Largest-remainder rounding, ties to the earlier bucket, so the split is a pure
    function of `n`; buckets scaled to no level are left out (names, and so seeds, of
    the others are unchanged). `n == DAILY_POOL` returns DAILY_BUCKETS itself."""
    if n < 1:
        raise ValueError(f"a daily pool has at least 1 level, not {n}")
    if n == DAILY_POOL:
        return DAILY_BUCKETS
    shares = [(b.levels * n) // DAILY_POOL for b in DAILY_BUCKETS]
    left = n - sum(shares)
    by_remainder = sorted(range(len(DAILY_BUCKETS)),
                          key=lambda i: (-((DAILY_BUCKETS[i].levels * n) % DAILY_POOL), i))
    for i in by_remainder[:left]:
        shares[i] += 1
    return tuple(dataclasses.replace(b, levels=k) for b, k in zip(DAILY_BUCKETS, shares) if k)


def world(number: int) -> World:
    for w in WORLDS:
        if w.number == number:
            return w
    raise KeyError(number)


def daily_index(day: _dt.date) -> int:
    """Index into the daily pool for a calendar date: days since 1970-01-01, mod 174.

    The site computes the same in the browser from the player's local date, so the
    static page stays current (see docs/INTERFACES.md)."""
    return (day - DAILY_EPOCH).days % DAILY_POOL


def daily_id(day: _dt.date) -> str:
    return f"d-{daily_index(day) + 1:03d}"
