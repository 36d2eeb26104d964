"""The campaign, read from data: worlds, buckets, tutorials, gates and the daily pool.

The campaign is a TOML file, `lumina/campaign.toml` (package data) unless a command is
given `--campaign FILE`; `load(path)` reads one into a `Campaign` of `World`s and
`Bucket`s, checking every field: a bad one is a `CampaignError`, one line naming the
file, the world and the field. The committed campaign is `CAMPAIGN`, and its parts
(`WORLDS`, `GATES`, `DAILY_POOL`, ...) keep their old names here.

A bucket is the unit of generation: one grid size, one block mix and one target band
of optimal move counts, filled with `levels` levels spread evenly across the band.
Buckets of one world that share a grid size have disjoint bands, so two buckets can
never produce the same puzzle or the same family, and they can be generated in any
order, on any number of workers, with identical results.

Insight: a tutorial is drawn in the file as rows, read by `lumina.desc.from_grid`
(A key, B crystal, exit right of row 1). World 1's only optimal solution moves B
down, then slides the key out:

    . . . .
    A A B .  >
    . . B .
    . . . .
"""
from __future__ import annotations

import dataclasses
import datetime as _dt
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lumina.desc import from_grid
from lumina.errors import LuminaError
from lumina.judge import MECHANICS
from lumina.model import (DIRS, MAX_GRID, MAX_MOVABLE, MIN_GRID, SIDES, TWIST_KINDS, Beam, Exit,
                          Level, LevelError, check_text)
from lumina.packfile import read_text

CAMPAIGN_FILE = Path(__file__).with_name("campaign.toml")
DAILY_EPOCH = _dt.date(1970, 1, 1)      # the date rule: pool[(day - epoch) mod pool]


class CampaignError(LuminaError, ValueError):
    """A campaign file cannot be used: one line naming the file, the world and the field."""


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
    margin: int = 0                # twist buckets: the least twist margin (par - crystal par)
                                   # a level may ship with (0: the judge's floor per kind)
    peak: int = 0                  # > 0: its top target ships at a par from this to the band's
                                   # top, or not at all (the campaign's finale)

    def targets(self) -> list[int]:
        """The optimal counts this bucket aims for, spread evenly over the band."""
        lo, hi = self.band
        if self.levels == 1:
            return [lo]
        return [lo + round(j * (hi - lo) / (self.levels - 1)) for j in range(self.levels)]

    def is_peak(self, target: int) -> bool:
        """Whether `target` is this bucket's peak target: its band's top, with `peak` set."""
        return self.peak > 0 and target == self.band[1]


@dataclass(frozen=True, kw_only=True)
class MineJob:
    """One mining job (`python -m lumina.mine`): a pure function of these fields. `deep`
    > 0: one deep layout search of that many sweeps (aimed at `target` when set, else
    climbing), every layout it sweeps judged; `deep` 0: `layouts` random solved layouts,
    each judged. Boards whose hardest start has a par in `keep` are judged and kept."""
    width: int
    height: int
    blockers: tuple[int, int]
    twists: dict[str, int] = field(default_factory=dict)
    walls: tuple[int, int] = (0, 0)
    beam: bool = False
    mirrors: tuple[int, int] = (0, 0)
    deep: int = 0
    layouts: int = 0
    target: int = 0
    margin: int = 0
    keep: tuple[int, int] = (1, 999)
    per_par: int = 12              # boards judged at most per par (the rest are only swept)
    seed: int = 1

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"

    @property
    def twist_text(self) -> str:
        return ",".join(f"{k}{v}" for k, v in sorted(self.twists.items())) or "-"

    @property
    def id(self) -> str:
        """The job's name, made of every field (editing the campaign never renames a
        job whose fields did not change, so a mined job stays mined)."""
        how = f"d{self.deep}" + (f"t{self.target}" if self.target else "") if self.deep \
            else f"r{self.layouts}"
        beam = f".beam{self.mirrors[0]}-{self.mirrors[1]}" if self.beam else ""
        return (f"{self.size}.b{self.blockers[0]}-{self.blockers[1]}.w{self.walls[0]}-{self.walls[1]}"
                f".{self.twist_text}{beam}.{how}.m{self.margin}.k{self.keep[0]}-{self.keep[1]}"
                f".p{self.per_par}"
                f".s{self.seed}")

    @property
    def cost(self) -> float:
        return float(self.deep * 20 if self.deep else self.layouts) * self.width * self.height


@dataclass(frozen=True, kw_only=True)
class World:
    number: int
    name: str
    mechanic: str
    seed: int
    gate: int                      # campaign stars that open it
    tutorial: Level
    buckets: tuple[Bucket, ...]
    margin_median: int = 0         # twist worlds: the median twist margin is at least this
    margin_last: int = 0           # and each of the last five levels' margin at least this

    @property
    def pack(self) -> str:
        return f"world-{self.number}"

    @property
    def levels(self) -> int:
        """How many levels the world holds: its tutorial, then every bucket's."""
        return 1 + sum(b.levels for b in self.buckets)


@dataclass(frozen=True, kw_only=True)
class Campaign:
    source: str                    # the file it was read from (for messages)
    worlds: tuple[World, ...]
    first_peak: int                # the first world's hardest par is at least this
    final_peak: int                # the last world holds the hardest, at least this
    daily_seed: int
    daily_pool: int                # 0: no daily pool
    daily_buckets: tuple[Bucket, ...]
    mine: tuple[MineJob, ...] = ()     # the mining jobs (`[[mine]]` tables, one per seed)
    practice: int = 0                  # levels in the practice pack (0: none)

    @property
    def gates(self) -> dict[int, int]:
        return {w.number: w.gate for w in self.worlds}

    @property
    def tutorials(self) -> dict[int, Level]:
        return {w.number: w.tutorial for w in self.worlds}

    @property
    def stars(self) -> int:
        """Every star of the campaign (three per level)."""
        return 3 * sum(w.levels for w in self.worlds)

    def world(self, number: int) -> World:
        for w in self.worlds:
            if w.number == number:
                return w
        raise KeyError(number)

    def scaled_daily_buckets(self, n: int) -> tuple[Bucket, ...]:
        """The daily buckets with `levels` scaled so they sum to `n` (`--dailies --pool N`).

        Largest-remainder rounding, ties to the earlier bucket, so the split is a pure
        function of `n`; buckets scaled to no level are left out (names, and so seeds, of
        the others are unchanged). `n == daily_pool` returns daily_buckets itself."""
        if n < 1:
            raise ValueError(f"a daily pool has at least 1 level, not {n}")
        if not self.daily_buckets:
            raise CampaignError(f"{self.source}: dailies: this campaign has no daily pool")
        pool, buckets = self.daily_pool, self.daily_buckets
        if n == pool:
            return buckets
        shares = [(b.levels * n) // pool for b in buckets]
        left = n - sum(shares)
        by_remainder = sorted(range(len(buckets)),
                              key=lambda i: (-((buckets[i].levels * n) % pool), i))
        for i in by_remainder[:left]:
            shares[i] += 1
        return tuple(dataclasses.replace(b, levels=k) for b, k in zip(buckets, shares) if k)

    def daily_index(self, day: _dt.date) -> int:
        """Index into the daily pool for a calendar date: days since the epoch, mod the
        pool. The site computes the same in the browser from the player's local date
        (`#site-data`'s epoch and pool), so the static page stays current."""
        return (day - DAILY_EPOCH).days % self.daily_pool

    def daily_id(self, day: _dt.date) -> str:
        return f"d-{self.daily_index(day) + 1:03d}"


# ---------------------------------------------------------------------------
# Reading: every field checked, every message one line naming file, world and field.

_SIZE = re.compile(r"([0-9])x([0-9])", re.ASCII)
_TOP = {"curve": True, "worlds": True, "dailies": False, "mine": False, "practice": False}
_MINE = {"size": True, "blockers": True, "twists": False, "walls": False, "beam": False,
         "mirrors": False, "deep": False, "layouts": False, "target": False, "margin": False,
         "keep": False, "per_par": False, "seeds": True}
_PRACTICE = {"levels": True}
_CURVE = {"first_peak": True, "final_peak": True}
_WORLD = {"name": True, "mechanic": True, "seed": True, "gate": True, "tutorial": True,
          "buckets": True, "margin": False}
_MARGIN = {"median": True, "last": True}
_TUTORIAL = {"name": True, "exit": True, "rows": True, "kinds": False, "beam": False}
_BUCKET = {"size": True, "band": True, "levels": True, "blockers": True, "twists": False,
           "walls": False, "beam": False, "mirrors": False, "deep": False, "upward": False,
           "margin": False, "peak": False}
_DAILIES = {"seed": True, "pool": True, "buckets": True}


class _Reader:
    """Checks one campaign file's fields; `where` is "world 2", "dailies" or "curve"."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, where: str, name: str, message: str) -> CampaignError:
        return CampaignError(f"{self.source}: {where}: {name}: {message}")

    def table(self, where: str, name: str, value: Any, fields: dict[str, bool]) -> dict:
        """`value` must be a table holding every required field and no unknown one."""
        if not isinstance(value, dict):
            raise self.fail(where, name, f"must be a table, got {_kind(value)}")
        prefix = f"{name}." if name else ""
        for k in value:
            if k not in fields:
                raise self.fail(where, f"{prefix}{k}", f"unknown field (fields: {', '.join(fields)})")
        for k, required in fields.items():
            if required and k not in value:
                raise self.fail(where, f"{prefix}{k}", "missing")
        return value

    def integer(self, where: str, name: str, value: Any, lo: int = 0, hi: int = 2**63 - 1) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(where, name, f"must be a whole number, got {_kind(value)}")
        if not lo <= value <= hi:
            raise self.fail(where, name, f"must be in {lo}..{hi}, got {value}")
        return value

    def span(self, where: str, name: str, value: Any, lo: int, hi: int) -> tuple[int, int]:
        """[a, b] with lo <= a <= b <= hi."""
        if not isinstance(value, list) or len(value) != 2:
            raise self.fail(where, name, f"must be a pair [low, high], got {_kind(value)}")
        a, b = (self.integer(where, name, v, lo, hi) for v in value)
        if a > b:
            raise self.fail(where, name, f"low {a} is above high {b}")
        return a, b

    def flag(self, where: str, name: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, name, f"must be true or false, got {_kind(value)}")
        return value

    def text(self, where: str, name: str, value: Any) -> str:
        try:
            text = check_text("-", name, value)
        except LevelError as e:
            raise self.fail(where, name, e.message) from None
        if not text.strip():
            raise self.fail(where, name, "must not be empty")
        return text

    def choice(self, where: str, name: str, value: Any, choices: tuple[str, ...]) -> str:
        if value not in choices:
            raise self.fail(where, name, f"must be one of {', '.join(choices)}; got {_kind(value)}")
        return value

    def buckets(self, where: str, value: Any, prefix: str) -> tuple[Bucket, ...]:
        if not isinstance(value, list) or not value:
            raise self.fail(where, "buckets", "must be a list of at least one bucket")
        return tuple(self.bucket(where, f"buckets[{i}]", raw, f"{prefix}-b{i + 1}")
                     for i, raw in enumerate(value))

    def bucket(self, where: str, name: str, raw: Any, bucket_name: str) -> Bucket:
        b = self.table(where, name, raw, _BUCKET)
        p = f"{name}." if name else ""
        size = b["size"]
        m = _SIZE.fullmatch(size) if isinstance(size, str) else None
        if not m or not all(MIN_GRID <= int(v) <= MAX_GRID for v in m.groups()):
            raise self.fail(where, f"{p}size", f"must be \"WxH\" with sides {MIN_GRID}.."
                            f"{MAX_GRID}, got {_kind(size)}")
        blockers = self.span(where, f"{p}blockers", b["blockers"], 0, MAX_MOVABLE - 1)
        twists = self.table(where, f"{p}twists", b.get("twists", {}),
                            {k: False for k in TWIST_KINDS})
        twists = {k: self.integer(where, f"{p}twists.{k}", v, 1, MAX_MOVABLE - 1)
                  for k, v in twists.items()}
        if sum(twists.values()) > blockers[1]:
            raise self.fail(where, f"{p}twists", f"{sum(twists.values())} twist blocks, "
                            f"more than the {blockers[1]} blockers")
        beam = self.flag(where, f"{p}beam", b.get("beam", False))
        mirrors = self.span(where, f"{p}mirrors", b.get("mirrors", [0, 0]), 0, MAX_GRID ** 2)
        if mirrors != (0, 0) and not beam:
            raise self.fail(where, f"{p}mirrors", "mirrors belong to beam buckets (beam = true)")
        if beam and mirrors[0] < 1:
            raise self.fail(where, f"{p}mirrors", "a beam bucket needs at least one mirror")
        band = self.span(where, f"{p}band", b["band"], 1, 999)
        peak = self.integer(where, f"{p}peak", b.get("peak", 0), 0, band[1])
        if 0 < peak < band[0]:
            raise self.fail(where, f"{p}peak", f"{peak} is under the band {band[0]}-{band[1]}")
        return Bucket(name=bucket_name, width=int(m[1]), height=int(m[2]),
                      band=band,
                      levels=self.integer(where, f"{p}levels", b["levels"], 1, 100_000),
                      blockers=blockers, twists=twists,
                      walls=self.span(where, f"{p}walls", b.get("walls", [0, 0]), 0, MAX_GRID ** 2),
                      beam=beam, mirrors=mirrors,
                      deep=self.integer(where, f"{p}deep", b.get("deep", 0), 0, 10**9),
                      upward=self.flag(where, f"{p}upward", b.get("upward", False)),
                      margin=self.integer(where, f"{p}margin", b.get("margin", 0), 0, 999),
                      peak=peak)

    def mine_jobs(self, where: str, raw: Any) -> list[MineJob]:
        """One `[[mine]]` table: one job per seed of its `seeds` range."""
        m = self.table(where, "", raw, _MINE)
        spec = self.bucket(where, "", {k: m[k] for k in ("size", "blockers", "twists", "walls",
                                                          "beam", "mirrors") if k in m}
                           | {"band": [1, 1], "levels": 1}, "mine")
        deep = self.integer(where, "deep", m.get("deep", 0), 0, 10**7)
        layouts = self.integer(where, "layouts", m.get("layouts", 0), 0, 10**7)
        if (deep == 0) == (layouts == 0):
            raise self.fail(where, "deep", "give a search budget (deep) or random layouts "
                            "(layouts), one of the two")
        seeds = self.span(where, "seeds", m["seeds"], 0, 2**31)
        if seeds[1] - seeds[0] >= 100_000:
            raise self.fail(where, "seeds", "at most 100000 seeds in one table")
        keep = self.span(where, "keep", m.get("keep", [1, 999]), 1, 999)
        return [MineJob(width=spec.width, height=spec.height, blockers=spec.blockers,
                        twists=spec.twists, walls=spec.walls, beam=spec.beam,
                        mirrors=spec.mirrors, deep=deep, layouts=layouts,
                        target=self.integer(where, "target", m.get("target", 0), 0, 999),
                        margin=self.integer(where, "margin", m.get("margin", 0), 0, 999),
                        keep=keep, per_par=self.integer(where, "per_par", m.get("per_par", 12),
                                                        1, 10**6), seed=s)
                for s in range(seeds[0], seeds[1] + 1)]

    def tutorial(self, where: str, raw: Any, number: int) -> Level:
        t = self.table(where, "tutorial", raw, _TUTORIAL)
        rows = t["rows"]
        if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
            raise self.fail(where, "tutorial.rows", "must be a list of strings, one per row")
        ex = self.table(where, "tutorial.exit", t["exit"], {"side": True, "index": True})
        exit_ = Exit(side=self.choice(where, "tutorial.exit.side", ex["side"], SIDES),
                     index=self.integer(where, "tutorial.exit.index", ex["index"], 0, MAX_GRID - 1))
        beam = None
        if "beam" in t:
            bm = self.table(where, "tutorial.beam", t["beam"], {"dir": True, "offset": True})
            beam = Beam(dir=self.choice(where, "tutorial.beam.dir", bm["dir"], DIRS),
                        offset=self.integer(where, "tutorial.beam.offset", bm["offset"], 0, MAX_GRID - 1))
        kinds = t.get("kinds", {})
        if not isinstance(kinds, dict):
            raise self.fail(where, "tutorial.kinds", f"must be a table, got {_kind(kinds)}")
        for ch, k in kinds.items():
            if not (len(ch) == 1 and ch.isascii() and ch.isalpha() and ch not in "Aox"):
                raise self.fail(where, f"tutorial.kinds.{_kind(ch)}", "must be a block's letter "
                                "(A is the key, o and x are empty and wall)")
            self.choice(where, f"tutorial.kinds.{ch}", k, ("crystal", *TWIST_KINDS))
        try:
            lv = from_grid(rows, exit=exit_, id=f"w{number}-01", kinds=kinds, beam=beam)
        except LevelError as e:
            raise self.fail(where, f"tutorial.{e.field}", e.message) from None
        return lv.replace(name=self.text(where, "tutorial.name", t["name"]), tutorial=True)

    def world(self, i: int, raw: Any) -> World:
        where = f"world {i + 1}"
        w = self.table(where, "", raw, _WORLD)
        mg = self.table(where, "margin", w.get("margin", {"median": 0, "last": 0}), _MARGIN)
        return World(margin_median=self.integer(where, "margin.median", mg["median"], 0, 999),
                     margin_last=self.integer(where, "margin.last", mg["last"], 0, 999),
                     number=i + 1, name=self.text(where, "name", w["name"]),
                     mechanic=self.choice(where, "mechanic", w["mechanic"], MECHANICS),
                     seed=self.integer(where, "seed", w["seed"]),
                     gate=self.integer(where, "gate", w["gate"], 0, 10**6),
                     tutorial=self.tutorial(where, w["tutorial"], i + 1),
                     buckets=self.buckets(where, w["buckets"], f"w{i + 1}"))

    def campaign(self, doc: dict) -> Campaign:
        self.table("campaign", "", doc, _TOP)
        curve = self.table("curve", "", doc["curve"], _CURVE)
        raw_worlds = doc["worlds"]
        if not isinstance(raw_worlds, list) or not raw_worlds:
            raise self.fail("campaign", "worlds", "must be a list of at least one world")
        worlds = tuple(self.world(i, raw) for i, raw in enumerate(raw_worlds))
        if worlds[0].gate != 0:
            raise self.fail("world 1", "gate", f"the first world is open from the start (0), "
                            f"got {worlds[0].gate}")
        for a, b in zip(worlds, worlds[1:]):
            if b.gate < a.gate:
                raise self.fail(f"world {b.number}", "gate", f"{b.gate} is below world "
                                f"{a.number}'s {a.gate} (gates climb)")
        seed, pool, daily = 0, 0, ()
        if "dailies" in doc:
            d = self.table("dailies", "", doc["dailies"], _DAILIES)
            seed = self.integer("dailies", "seed", d["seed"])
            pool = self.integer("dailies", "pool", d["pool"], 1, 100_000)
            daily = self.buckets("dailies", d["buckets"], "d")
            if sum(b.levels for b in daily) != pool:
                raise self.fail("dailies", "pool", f"{pool}, but the buckets hold "
                                f"{sum(b.levels for b in daily)} levels")
        mine: list[MineJob] = []
        raw_mine = doc.get("mine", [])
        if not isinstance(raw_mine, list):
            raise self.fail("mine", "", "must be a list of [[mine]] tables")
        for i, raw in enumerate(raw_mine):
            mine.extend(self.mine_jobs(f"mine[{i}]", raw))
        ids = set()
        for j in mine:
            if j.id in ids:
                raise self.fail("mine", "seeds", f"job {j.id} is named twice")
            ids.add(j.id)
        practice = 0
        if "practice" in doc:
            pr = self.table("practice", "", doc["practice"], _PRACTICE)
            practice = self.integer("practice", "levels", pr["levels"], 0, 100_000)
        return Campaign(source=self.source, worlds=worlds, mine=tuple(mine), practice=practice,
                        first_peak=self.integer("curve", "first_peak", curve["first_peak"], 0, 999),
                        final_peak=self.integer("curve", "final_peak", curve["final_peak"], 0, 999),
                        daily_seed=seed, daily_pool=pool, daily_buckets=daily)


def _kind(value: Any) -> str:
    """A value for a message: short, one line."""
    text = repr(value)
    return text if len(text) <= 40 else text[:30] + "..."


def load(path: str | os.PathLike | None = None) -> Campaign:
    """Read and check a campaign file (default: the committed `campaign.toml`).
    CampaignError (or the packfile's PackError for an unreadable file) names the file,
    the world and the field."""
    path = Path(CAMPAIGN_FILE if path is None else path)
    text = read_text(path)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise CampaignError(f"{path}: not valid TOML ({e})") from None
    return _Reader(str(path)).campaign(doc)


CAMPAIGN = load()
WORLDS = CAMPAIGN.worlds
GATES = CAMPAIGN.gates
TUTORIALS = CAMPAIGN.tutorials
DAILY_SEED = CAMPAIGN.daily_seed
DAILY_POOL = CAMPAIGN.daily_pool
DAILY_BUCKETS = CAMPAIGN.daily_buckets
world = CAMPAIGN.world
scaled_daily_buckets = CAMPAIGN.scaled_daily_buckets
daily_index = CAMPAIGN.daily_index
daily_id = CAMPAIGN.daily_id
