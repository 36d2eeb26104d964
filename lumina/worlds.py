"""The campaign, read from data: worlds, buckets, tutorials, gates, the daily pool, the
practice pack's size and the mining jobs (`[[mine]]` tables, one `MineJob` per seed).

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

from lumina import schema as S
from lumina.desc import from_grid
from lumina.errors import LuminaError
from lumina.judge import MECHANICS
from lumina.model import (DIRS, MAX_GRID, MAX_MOVABLE, MIN_GRID, SIDES, TWIST_KINDS, Beam, Exit,
                          Level, LevelError)
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


#: Each mechanic in players' words (the site's world cards and pages).
MECHANIC_NAMES = {
    "crystal": "Crystal", "sand": "Sand", "ice": "Ice", "rime": "Rime", "beam": "Beam & mirrors",
    "mixed": "Mixed",
}


def level_id(world: int | None, n: int) -> str:
    """The id of level `n` (from 1) of world `world`'s pack, or of the daily pool when
    `world` is None: w1-07, d-012. The one place the pack id format is written (the
    generator names levels by it, the site checks them by it)."""
    return f"d-{n:03d}" if world is None else f"w{world}-{n:02d}"


def level_number(lid: str) -> int:
    """The level's number within its pack (`level_id`'s `n`): w1-07 -> 7, d-012 -> 12."""
    return int(lid.rsplit("-", 1)[1])


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
    """A world of the campaign: what the generator aims for, and, once its pack is read for
    the site (`lumina.render.inputs.gather`), the levels it published (`published`, with the
    pack's name, mechanic and generator version)."""
    number: int
    name: str
    mechanic: str
    seed: int
    gate: int                      # campaign stars that open it
    tutorial: Level
    buckets: tuple[Bucket, ...]
    margin_median: int = 0         # twist worlds: the median twist margin is at least this
    margin_last: int = 0           # and each of the last five levels' margin at least this
    published: tuple[Level, ...] = ()   # the pack's levels, once read for the site
    generator: str = ""            # the pack's generator version (the play log records it)

    @property
    def pack(self) -> str:
        return f"world-{self.number}"

    @property
    def mechanic_name(self) -> str:
        return MECHANIC_NAMES.get(self.mechanic, self.mechanic.title())

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
        """The daily buckets with `levels` scaled so they sum to `n` (`--dailies --daily-size N`).

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
        return level_id(None, self.daily_index(day) + 1)


# ---------------------------------------------------------------------------
# Reading: the file's shape is declared once (`CAMPAIGN_SCHEMA`, lumina.schema's checks:
# exact types, ranges, unknown fields named), then the checks between fields; every
# message is one line naming file, world and field.

_SIZE = re.compile(r"([0-9])x([0-9])", re.ASCII)


def _size(v: Any, where: str) -> tuple[int, int]:
    m = _SIZE.fullmatch(v) if isinstance(v, str) else None
    if not m or not all(MIN_GRID <= int(x) <= MAX_GRID for x in m.groups()):
        raise S.Bad(where, f"must be \"WxH\" with sides {MIN_GRID}..{MAX_GRID}, got {_kind(v)}")
    return int(m[1]), int(m[2])


def _title(v: Any, where: str) -> str:
    """A display string (`schema.text`) that is not blank."""
    if not S.text(v, where).strip():
        raise S.Bad(where, "must not be empty")
    return v


def _rows(v: Any, where: str) -> list[str]:
    if not isinstance(v, list) or not v or not all(isinstance(r, str) for r in v):
        raise S.Bad(where, "must be a list of strings, one per row")
    return v


def _kinds(v: Any, where: str) -> dict[str, str]:
    """A tutorial's letters: one letter (not A, o or x) -> a blocker kind."""
    if not isinstance(v, dict):
        raise S.Bad(where, f"must be a table, got {_kind(v)}")
    for ch, k in v.items():
        if not (len(ch) == 1 and ch.isascii() and ch.isalpha() and ch not in "Aox"):
            raise S.Bad(f"{where}.{_kind(ch)}", "must be a block's letter (A is the key, o and x "
                        "are empty and wall)")
        S.choice("crystal", *TWIST_KINDS)(k, f"{where}.{ch}")
    return v


def _table(required: dict[str, S.Schema], optional: dict[str, S.Schema] | None = None) -> S.Schema:
    """A TOML table (`schema.obj`); an unknown field's message lists the known ones."""
    check = S.obj(required, optional)
    known = ", ".join([*required, *(optional or {})])

    def table(v: Any, where: str) -> dict:
        try:
            return check(v, where)
        except S.Bad as e:
            if e.why == "unknown field":
                raise S.Bad(e.where, f"unknown field (fields: {known})") from None
            raise
    return table


_SPAN = S.span
BUCKET_SCHEMA = _table(
    {"size": _size, "band": _SPAN(1, 999), "levels": S.integer(1, 100_000),
     "blockers": _SPAN(0, MAX_MOVABLE - 1)},
    {"twists": _table({}, {k: S.integer(1, MAX_MOVABLE - 1) for k in TWIST_KINDS}),
     "walls": _SPAN(0, MAX_GRID ** 2), "beam": S.flag, "mirrors": _SPAN(0, MAX_GRID ** 2),
     "deep": S.integer(0, 10**9), "upward": S.flag, "margin": S.integer(0, 999),
     "peak": S.integer(0, 999)})
TUTORIAL_SCHEMA = _table(
    {"name": _title, "exit": _table({"side": S.choice(*SIDES), "index": S.integer(0, MAX_GRID - 1)}),
     "rows": _rows},
    {"kinds": _kinds, "beam": _table({"dir": S.choice(*DIRS), "offset": S.integer(0, MAX_GRID - 1)})})
_BUCKETS = S.list_of(BUCKET_SCHEMA, 1, what="a list of buckets")
WORLD_SCHEMA = _table(
    {"name": _title, "mechanic": S.choice(*MECHANICS), "seed": S.integer(),
     "gate": S.integer(0, 10**6), "tutorial": TUTORIAL_SCHEMA, "buckets": _BUCKETS},
    {"margin": _table({"median": S.integer(0, 999), "last": S.integer(0, 999)})})
#: One `[[mine]]` table: a bucket's block mix (checked as a bucket's) and the search,
#: one job per seed of `seeds` (`MineJob`).
MINE_SCHEMA = _table(
    {"size": _size, "blockers": _SPAN(0, MAX_MOVABLE - 1), "seeds": _SPAN(0, 2**31)},
    {"twists": _table({}, {k: S.integer(1, MAX_MOVABLE - 1) for k in TWIST_KINDS}),
     "walls": _SPAN(0, MAX_GRID ** 2), "beam": S.flag, "mirrors": _SPAN(0, MAX_GRID ** 2),
     "deep": S.integer(0, 10**7), "layouts": S.integer(0, 10**7), "target": S.integer(0, 999),
     "margin": S.integer(0, 999), "keep": _SPAN(1, 999), "per_par": S.integer(1, 10**6)})
MAX_SEEDS = 100_000             # seeds in one [[mine]] table
#: The campaign file (`campaign.toml`), declared once: the fields, their types and ranges.
CAMPAIGN_SCHEMA = _table(
    {"curve": _table({"first_peak": S.integer(0, 999), "final_peak": S.integer(0, 999)}),
     "worlds": S.list_of(WORLD_SCHEMA, 1, what="a list of worlds")},
    {"dailies": _table({"seed": S.integer(), "pool": S.integer(1, 100_000), "buckets": _BUCKETS}),
     "mine": S.list_of(MINE_SCHEMA, what="a list of [[mine]] tables"),
     "practice": _table({"levels": S.integer(0, 100_000)})})

_PLACE = re.compile(r"(worlds)\[([0-9]+)\](?:\.(.*))?|(curve|dailies|practice|mine\[[0-9]+\])"
                    r"(?:\.(.*))?", re.S)


def _place(where: str) -> tuple[str, str]:
    """A schema path as (place, field): `worlds[1].buckets[0].band` is ("world 2",
    "buckets[0].band"), `mine[3].layouts` is ("mine[3]", "layouts")."""
    m = _PLACE.fullmatch(where)
    if m is None:
        return "campaign", where
    if m[1]:
        return f"world {int(m[2]) + 1}", m[3] or "world"
    return (m[4], m[5]) if m[5] else ("campaign", m[4])


class _Reader:
    """The checks between fields of one campaign file already read by `CAMPAIGN_SCHEMA`;
    `where` is "world 2", "dailies", "curve" or "mine[3]"."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, where: str, name: str, message: str) -> CampaignError:
        return CampaignError(f"{self.source}: {where}: {name}: {message}")

    def buckets(self, where: str, value: list, prefix: str) -> tuple[Bucket, ...]:
        return tuple(self.bucket(where, f"buckets[{i}]", raw, f"{prefix}-b{i + 1}")
                     for i, raw in enumerate(value))

    def bucket(self, where: str, name: str, b: dict, bucket_name: str) -> Bucket:
        (width, height), band, blockers = b["size"], b["band"], b["blockers"]
        p = f"{name}." if name else ""          # a [[mine]] table is checked as a bucket
        twists = b.get("twists", {})
        if sum(twists.values()) > blockers[1]:
            raise self.fail(where, f"{p}twists", f"{sum(twists.values())} twist blocks, "
                            f"more than the {blockers[1]} blockers")
        beam, mirrors = b.get("beam", False), b.get("mirrors", (0, 0))
        if mirrors != (0, 0) and not beam:
            raise self.fail(where, f"{p}mirrors", "mirrors belong to beam buckets (beam = true)")
        if beam and mirrors[0] < 1:
            raise self.fail(where, f"{p}mirrors", "a beam bucket needs at least one mirror")
        peak = b.get("peak", 0)
        if peak > band[1]:
            raise self.fail(where, f"{p}peak", f"must be at most the band's top {band[1]}, "
                            f"got {peak}")
        if 0 < peak < band[0]:
            raise self.fail(where, f"{p}peak", f"{peak} is under the band {band[0]}-{band[1]}")
        walls = b.get("walls", (0, 0))
        need = cells_needed(blockers[1], walls[1], mirrors[1])
        if need > width * height - 1:
            raise self.fail(where, f"{p}size", f"a {width}x{height} grid has {width * height} "
                            f"cells; the key, {blockers[1]} blockers, {walls[1]} walls and "
                            f"{mirrors[1]} mirrors need {need} and one left free")
        return Bucket(name=bucket_name, width=width, height=height, band=band,
                      levels=b["levels"], blockers=blockers, twists=dict(twists),
                      walls=b.get("walls", (0, 0)), beam=beam, mirrors=mirrors,
                      deep=b.get("deep", 0), upward=b.get("upward", False),
                      margin=b.get("margin", 0), peak=peak)

    def mine_jobs(self, where: str, m: dict) -> list[MineJob]:
        """One `[[mine]]` table (read by `MINE_SCHEMA`): one job per seed of its `seeds`
        range; its block mix is checked as a bucket's (twists, mirrors, the grid fit)."""
        spec = self.bucket(where, "", {k: m[k] for k in ("size", "blockers", "twists", "walls",
                                                          "beam", "mirrors") if k in m}
                           | {"band": (1, 1), "levels": 1}, "mine")
        deep, layouts = m.get("deep", 0), m.get("layouts", 0)
        if (deep == 0) == (layouts == 0):
            raise self.fail(where, "deep", "give a search budget (deep) or random layouts "
                            "(layouts), one of the two")
        seeds = m["seeds"]
        if seeds[1] - seeds[0] >= MAX_SEEDS:
            raise self.fail(where, "seeds", f"at most {MAX_SEEDS} seeds in one table")
        return [MineJob(width=spec.width, height=spec.height, blockers=spec.blockers,
                        twists=spec.twists, walls=spec.walls, beam=spec.beam,
                        mirrors=spec.mirrors, deep=deep, layouts=layouts,
                        target=m.get("target", 0), margin=m.get("margin", 0),
                        keep=m.get("keep", (1, 999)), per_par=m.get("per_par", 12), seed=s)
                for s in range(seeds[0], seeds[1] + 1)]

    def tutorial(self, where: str, t: dict, number: int) -> Level:
        ex, bm = t["exit"], t.get("beam")
        try:
            lv = from_grid(t["rows"], exit=Exit(side=ex["side"], index=ex["index"]),
                           id=level_id(number, 1), kinds=t.get("kinds", {}),
                           beam=None if bm is None else Beam(dir=bm["dir"], offset=bm["offset"]))
        except LevelError as e:
            raise self.fail(where, f"tutorial.{e.field}", e.message) from None
        return lv.replace(name=t["name"], tutorial=True)

    def world(self, i: int, w: dict) -> World:
        where = f"world {i + 1}"
        mg = w.get("margin", {"median": 0, "last": 0})
        return World(margin_median=mg["median"], margin_last=mg["last"], number=i + 1,
                     name=w["name"], mechanic=w["mechanic"], seed=w["seed"], gate=w["gate"],
                     tutorial=self.tutorial(where, w["tutorial"], i + 1),
                     buckets=self.buckets(where, w["buckets"], f"w{i + 1}"))

    def campaign(self, raw: Any) -> Campaign:
        try:
            doc = CAMPAIGN_SCHEMA(raw, "")
        except S.Bad as e:
            raise self.fail(*_place(e.where), e.why) from None
        worlds = tuple(self.world(i, raw) for i, raw in enumerate(doc["worlds"]))
        if worlds[0].gate != 0:
            raise self.fail("world 1", "gate", f"the first world is open from the start (0), "
                            f"got {worlds[0].gate}")
        for a, b in zip(worlds, worlds[1:]):
            if b.gate < a.gate:
                raise self.fail(f"world {b.number}", "gate", f"{b.gate} is below world "
                                f"{a.number}'s {a.gate} (gates climb)")
        seed, pool, daily = 0, 0, ()
        if "dailies" in doc:
            d = doc["dailies"]
            seed, pool = d["seed"], d["pool"]
            daily = self.buckets("dailies", d["buckets"], "d")
            if sum(b.levels for b in daily) != pool:
                raise self.fail("dailies", "pool", f"{pool}, but the buckets hold "
                                f"{sum(b.levels for b in daily)} levels")
        mine: list[MineJob] = []
        for i, raw in enumerate(doc.get("mine", [])):
            mine.extend(self.mine_jobs(f"mine[{i}]", raw))
        ids = set()
        for j in mine:
            if j.id in ids:
                raise self.fail("mine", "seeds", f"job {j.id} is named twice")
            ids.add(j.id)
        practice = doc["practice"]["levels"] if "practice" in doc else 0
        curve = doc["curve"]
        return Campaign(source=self.source, worlds=worlds, mine=tuple(mine), practice=practice,
                        first_peak=curve["first_peak"], final_peak=curve["final_peak"],
                        daily_seed=seed, daily_pool=pool, daily_buckets=daily)


def cells_needed(blockers: int, walls: int, mirrors: int) -> int:
    """The fewest cells a layout with this many blockers, walls and mirrors covers: the
    key and every blocker take at least two cells, a wall or a mirror one. A bucket's
    most of each must fit its grid with a cell to spare, or generation could never
    place them (it would search for minutes and fail)."""
    return 2 + 2 * blockers + walls + mirrors


# The campaign file is bounded like every other input (packfile: size, UTF-8, nesting,
# integer digits), and its tables and keys are counted before tomllib builds anything:
# the committed campaign is 15 KB with 136 tables and 582 keys (issue 26's [[mine]] tables).
MAX_CAMPAIGN_BYTES = 1 << 20
MAX_DEPTH = 32
MAX_TABLES = 4_000              # table headers and inline tables
MAX_KEYS = 40_000
MAX_DIGITS = 20                 # every integer fits an int64 (19 digits)
_STRING_OR_COMMENT = re.compile(r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|'
                                r"'[^'\n]*'|#[^\n]*", re.S)
_LONG_NUMBER = re.compile(r"[0-9][0-9_]{%d,}" % MAX_DIGITS, re.ASCII)
_HEADER = re.compile(r"^[ \t]*\[", re.M)


def _blank(m: re.Match) -> str:
    """A string or comment replaced by a placeholder of the same line count."""
    return '""' + "\n" * m.group().count("\n")


def check_bounds(text: str, source: str) -> None:
    """Refuse, before parsing, TOML that could make the parser run away: nested deeper
    than MAX_DEPTH, more than MAX_TABLES tables or MAX_KEYS keys, or a number of more
    than MAX_DIGITS digits (Python's int-string limit would end in a traceback).
    Strings and comments are skipped. `CampaignError` names the file, line and key."""
    bare = _STRING_OR_COMMENT.sub(_blank, text)
    lines = bare.split("\n")
    m = _LONG_NUMBER.search(bare)
    if m:
        n = bare.count("\n", 0, m.start())
        key = lines[n].split("=", 1)[0].strip() if "=" in lines[n] else ""
        digits = sum(c.isdigit() for c in m.group())
        raise CampaignError(f"{source}: line {n + 1}: {key or 'value'}: a number of {digits} digits "
                            f"(at most {MAX_DIGITS})")
    tables = len(_HEADER.findall(bare)) + bare.count("{")
    if tables > MAX_TABLES:
        raise CampaignError(f"{source}: {tables} tables; a campaign holds at most {MAX_TABLES}")
    keys = bare.count("=")
    if keys > MAX_KEYS:
        raise CampaignError(f"{source}: {keys} keys; a campaign holds at most {MAX_KEYS}")
    depth = deepest = 0
    for n, line in enumerate(lines):
        for ch in re.sub(r"[^\[\]{}]+", "", line):
            depth = max(0, depth + (1 if ch in "[{" else -1))
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    key = line.split("=", 1)[0].strip() if "=" in line else ""
                    raise CampaignError(f"{source}: line {n + 1}: {key or 'value'}: nested deeper "
                                        f"than {MAX_DEPTH} levels")


def _kind(value: Any) -> str:
    """A value for a message: short, one line."""
    text = repr(value)
    return text if len(text) <= 40 else text[:30] + "..."


def load(path: str | os.PathLike | None = None) -> Campaign:
    """Read and check a campaign file (default: the committed `campaign.toml`).
    CampaignError (or the packfile's PackError for an unreadable file) names the file,
    the world and the field."""
    path = Path(CAMPAIGN_FILE if path is None else path)
    text = read_text(path, MAX_CAMPAIGN_BYTES)
    check_bounds(text, str(path))
    try:
        doc = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError, MemoryError) as e:
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
