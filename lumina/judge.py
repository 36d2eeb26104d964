"""The one judge: what a good Lumina level is (RULES.md, Generation and Quality).

The generator (miner, composer), the strategy bench and the verifier all ask this
module, and every verdict is a `Problem(reason, message)`: the judge writes every
sentence, no caller re-checks a rule or words a reason.

- thresholds: `MAX_PLANS`, `BEAM_MAX_PLANS` (and `DEEP_MAX_PLANS` from
  `DEEP_PLANS_FROM`), `MAX_DEAD_SHARE`, `BEAM_MAX_DEAD_SHARE`, `MARGIN_FLOOR` (ice 2:
  "Ice must slide"), the tutorial and felt-effort limits (calibration in
  docs/RULES-DECISIONS.md);
- exact and near duplicates and re-skins: `signature`, `family_key` (invariant under
  the 8 symmetries of the grid and translation), `NearIndex` (one block apart),
  `ReskinIndex` (two blocks apart, kinds ignored, same par) and `Seen`, the one index
  of all three, on whole boards and on live boards (`decoys` aside);
- one level: `level_problems` (band, repeats, then `measured_problems`: unbound,
  margin, dead twist, optional twist, not the board's deepest start, chain, plans, dead
  blocks; docs/RULES-DECISIONS.md 35), `judge_level` (its first reason), and `screen`,
  the same verdicts staged cheapest first for the generator;
- the measures a pack records per level: `analysis` (with the felt figures of
  `lumina.playtest.felt`);
- tutorials: `tutorial_problems` (tiny, one plan, the hardest start, the mechanic
  changes the par, every optimal solution shows it: `skips_mechanic`, no harder than the
  next three levels);
- worlds: `world_problems` (size, tutorial, `curve_problems`, `world_label_problems`,
  `world_margin_problems`, `effort_problems`), `label_problems`;
- the campaign: `repeat_problems` (near duplicates and re-skins across every pack, the
  practice pack against the others) and `campaign_problems` (tops rising, peaks).

Insight: a family key is the smallest of the 8 symmetric images of a board, each
translated so its contents start at (0, 0). These two 5x4 boards have one key:

    . . . . .          . . . . .
    A A B . . >        . . . . .         the right one is the left one
    . . B . .      < . B A A . .         mirrored left-right and moved down a row
    . . . . .          . B . . .         (the lantern moves with the board)
"""
from __future__ import annotations

import dataclasses
import functools
import statistics
from dataclasses import dataclass
from typing import Any, Callable, Collection, Iterable, Protocol, Sequence

from lumina import schema
from lumina.model import BEAM_STEP, MECHANICS, TWIST_KINDS, Analysis, Level, beam_start

# ---------------------------------------------------------------------------
# Thresholds (RULES.md Quality; the numbers are calibrated in docs/RULES-DECISIONS.md).

MAX_PLANS = 40                 # keeps 85.2% of rush-sample boards, 97-100% of candidates
BEAM_MAX_PLANS = 40            # beam candidates measured stay far below (at most 10)
MAX_DEAD_SHARE = 0.40          # non-key blocks that never move in any optimal solution
BEAM_MAX_DEAD_SHARE = 0.67     # beam layouts are pinned by the light path and mirrors
MIN_CHAIN_SHARE = 0.55         # chain / par floor, for levels of par MIN_CHAIN_SHARE_FROM or more
MIN_CHAIN_SHARE_FROM = 20      # (calibrated on the rush sample: docs/RULES-DECISIONS.md 34)
# The least twist margin (par - crystal par) per twist kind (issue 17); a level with
# several kinds meets the strictest of its kinds' floors (`margin_floor`).
# Ice's floor is 2 (RULES.md "Ice must slide": an ice block that only ever moves one cell
# is a crystal block), so every level whose twists are ice only has margin at least 2.
MARGIN_FLOOR = {"sand": 2, "rime": 2, "ice": 2}
LAST_MARGINS = 5               # a world's margin target `last` holds for its last this-many
# RULES.md "Felt difficulty": at par DEEP_PLANS_FROM and above, at most DEEP_MAX_PLANS plans.
DEEP_MAX_PLANS = 16
DEEP_PLANS_FROM = 20
# RULES.md "Tutorials teach".
TUTORIAL_MAX_BLOCKS = 6        # blocks, the key included
TUTORIAL_FOLLOWING = 3         # a tutorial is no harder than this many levels after it
# RULES.md "Felt difficulty": a world's felt effort rises with its level numbers.
MIN_EFFORT_RANK = 0.8          # Spearman rank correlation of effort with level number
EFFORT_WINDOW = 5              # compared with the median of this many levels after / before
EFFORT_SPIKE = 2.0             # no level above this times the median of the ones after it
EFFORT_DROP = 0.5              # none under this times the median of the ones before it

# Every reason a candidate level is turned away, in `screen`'s order (cheapest first):
# the solver's outcome, the band, duplicates and re-skins, then the measured verdicts
# of `level_problems`.
LEVEL_REASONS = ("unbound", "margin", "dead_twist", "optional_twist", "not_deepest", "chain",
                 "plans", "dead_blocks")                # level_problems' measured ones, in order
REASONS = ("unsolvable", "exhausted", "already_solved", "under_band", "over_band", "band_full",
           "duplicate", "near_duplicate", "reskin", *LEVEL_REASONS)
# What a re-solved candidate turned out to be (band_reason's classes, or in band), and
# the verdicts an in-band candidate then meets, in screen's order: the strategy table's
# columns (lumina.strategies writes them, the site's "How levels are made" page shows them).
CLASSES = ("already_solved", "under_band", "in_band", "over_band", "unsolvable", "exhausted")
# (A re-skin needs the par of both levels: the strategy bench indexes its survivors
# without one, so "reskin" is never among its filters.)
FILTERS = tuple(r for r in REASONS if r not in CLASSES and r not in ("band_full", "reskin"))

# Curve rules (RULES.md "The curve climbs"; numbers from issue 9). The campaign's own
# peaks (the first world's and the last world's) are the campaign file's `[curve]`.
MAX_DIP = 2            # a level may be at most this much easier than the hardest before it
MAX_HOLE = 3           # consecutive distinct pars of a world differ by at most this
PEAK_WINDOW = 5        # a world's hardest par appears among its last this-many levels


class _Measured(Protocol):
    """What `level_problems` reads: `lumina.engine.Measures` and `lumina.model.Analysis`
    both have these (None in an Analysis: not recorded, which fails the rule that
    needs it)."""
    plans: int
    plans_capped: bool
    dead_blocks: tuple[int, ...]
    crystal_optimal: int | None
    chain: int | None
    deepest: int | None
    optional_twist: bool | None


def max_plans(beam: bool, par: int = 0) -> int:
    """The most plans a level of par `par` may have: the cap of its kind, and at most
    DEEP_MAX_PLANS from par DEEP_PLANS_FROM (RULES.md "Felt difficulty")."""
    cap = BEAM_MAX_PLANS if beam else MAX_PLANS
    return min(cap, DEEP_MAX_PLANS) if par >= DEEP_PLANS_FROM else cap


def max_dead_share(beam: bool) -> float:
    return BEAM_MAX_DEAD_SHARE if beam else MAX_DEAD_SHARE


# ---------------------------------------------------------------------------
# The depth window.

def band_reason(optimal: int, band: tuple[int, int]) -> str | None:
    """Where a solved candidate's par falls against an inclusive band: "already_solved"
    (par 0), "under_band", "over_band", or None when it is inside."""
    lo, hi = band
    if optimal == 0:
        return "already_solved"
    if optimal < lo:
        return "under_band"
    if optimal > hi:
        return "over_band"
    return None


# ---------------------------------------------------------------------------
# Exact duplicates, families and near duplicates.

def signature(level: Level) -> str:
    """Exact-duplicate signature: the puzzle's desc (id and metadata excluded)."""
    return level.desc()


# The 8 symmetries of a grid: optionally transpose (x, y) -> (y, x), then optionally
# flip x and/or y in the (possibly transposed) grid.
_SYMMETRIES = tuple((t, fx, fy) for t in (False, True) for fx in (False, True)
                    for fy in (False, True))
_DIR_VEC = BEAM_STEP
_VEC_DIR = {v: k for k, v in _DIR_VEC.items()}


class _Sym:
    """One symmetry applied to a W x H grid: points (outside cells too), vectors."""

    def __init__(self, sym: tuple[bool, bool, bool], width: int, height: int):
        self.t, self.fx, self.fy = sym
        self.w, self.h = (height, width) if self.t else (width, height)

    def point(self, x: int, y: int) -> tuple[int, int]:
        if self.t:
            x, y = y, x
        return (self.w - 1 - x if self.fx else x, self.h - 1 - y if self.fy else y)

    def vec(self, dx: int, dy: int) -> tuple[int, int]:
        if self.t:
            dx, dy = dy, dx
        return (-dx if self.fx else dx, -dy if self.fy else dy)

    def unvec(self, dx: int, dy: int) -> tuple[int, int]:
        dx, dy = (-dx if self.fx else dx, -dy if self.fy else dy)
        return (dy, dx) if self.t else (dx, dy)

    def rect(self, x: int, y: int, w: int, h: int) -> tuple[int, int, int, int]:
        (ax, ay), (bx, by) = self.point(x, y), self.point(x + w - 1, y + h - 1)
        return min(ax, bx), min(ay, by), abs(bx - ax) + 1, abs(by - ay) + 1

    def tilt(self, tilt: str) -> str:
        """A mirror turns a beam by a linear map M; the image mirror turns by S M S^-1."""
        dx, dy = self.unvec(1, 0)
        dx, dy = (-dy, -dx) if tilt == "/" else (dy, dx)
        return "/" if self.vec(dx, dy) == (0, -1) else "\\"


def _exit_point(level: Level) -> tuple[int, int]:
    """The cell just outside the grid where the lantern stands."""
    side, i = level.exit.side, level.exit.index
    return {"left": (-1, i), "right": (level.width, i), "top": (i, -1),
            "bottom": (i, level.height)}[side]


@dataclass(frozen=True)
class _Image:
    """A board under one symmetry, before translation."""
    head: str                                       # grid size and win kind
    exit: tuple[int, int]
    beam: tuple[str, int, int] | None               # transformed dir and start cell
    key_index: int
    blocks: tuple[tuple[str, int, int, int, int], ...]   # in the level's block order
    walls: tuple[tuple[int, int], ...]
    mirrors: tuple[tuple[int, int, str], ...]


def _images(level: Level) -> list[_Image]:
    out = []
    for sym in _SYMMETRIES:
        s = _Sym(sym, level.width, level.height)
        beam = None
        if level.beam is not None:
            beam = (_VEC_DIR[s.vec(*_DIR_VEC[level.beam.dir])], *s.point(*beam_start(level.key, level.beam)))
        out.append(_Image(
            head=f"{s.w}x{s.h}:{level.win}", exit=s.point(*_exit_point(level)), beam=beam,
            key_index=level.key_index,
            blocks=tuple((b.kind, *s.rect(b.x, b.y, b.w, b.h)) for b in level.blocks),
            walls=tuple(s.point(x, y) for x, y in level.walls),
            mirrors=tuple((*s.point(m.x, m.y), s.tilt(m.tilt)) for m in level.mirrors)))
    return out


class _Texter:
    """One image's canonical texts (`text`), for any set of blocks left out: the image
    translated so its contents (blocks, walls, mirrors) start at (0, 0), without the
    blocks of `drop`; the lantern and the beam move with the board. The blocks' order
    (sorted by kind, then place and shape) does not change with a translation, and the
    pieces' texts are made once per offset (leaving a block out rarely moves it).

    The keys of every level judged are made here, a few hundred texts a level (its
    re-skin keys leave out every one and two of its blocks), so the offset is read off
    the blocks sorted by x and by y (the first one not left out) rather than a scan."""

    __slots__ = ("img", "order", "by_x", "by_y", "fixed_x", "fixed_y", "memo")

    def __init__(self, img: _Image):
        self.img = img
        blocks = img.blocks
        self.order = sorted(range(len(blocks)), key=lambda i: blocks[i])
        self.by_x = [(blocks[i][1], i) for i in sorted(range(len(blocks)), key=lambda i: blocks[i][1])]
        self.by_y = [(blocks[i][2], i) for i in sorted(range(len(blocks)), key=lambda i: blocks[i][2])]
        fixed = list(img.walls) + [m[:2] for m in img.mirrors]
        self.fixed_x = min((f[0] for f in fixed), default=None)
        self.fixed_y = min((f[1] for f in fixed), default=None)
        self.memo: dict[tuple[int, int], tuple] = {}

    def _pieces(self, ox: int, oy: int) -> tuple:
        """(block texts by block index, the text before the blocks with the beam from the
        key, the same from the key's cell, the text after the blocks, all blocks)."""
        img = self.img
        blocks = [f"{k[0]}{x - ox},{y - oy},{w},{h}" for k, x, y, w, h in img.blocks]
        head = f"{img.head}:e{img.exit[0] - ox},{img.exit[1] - oy}:"
        if img.beam is None:
            with_key = without_key = head
        else:
            without_key = f"{head}b{img.beam[0]}:"
            with_key = f"{head}b{img.beam[0]}{img.beam[1] - ox},{img.beam[2] - oy}:"
        tail = (":w" + ".".join(f"{x - ox},{y - oy}" for x, y in sorted(img.walls))
                + ":m" + ".".join(f"{x - ox},{y - oy}{'f' if t == '/' else 'b'}"
                                  for x, y, t in sorted(img.mirrors)))
        every = ".".join([blocks[i] for i in self.order])
        return blocks, with_key, without_key, tail, every

    def text(self, drop: frozenset[int] = frozenset()) -> str:
        return self.finish(*self.head(drop), drop)

    def head(self, drop: frozenset[int] = frozenset()) -> tuple[str, tuple]:
        """The text's start, up to its blocks (grid, win, lantern and beam), and the
        pieces `finish` completes it from."""
        # the offset: the least x and y among the blocks kept and the fixed pieces
        ox, oy = self.fixed_x, self.fixed_y
        for v, i in self.by_x:
            if i not in drop:
                if ox is None or v < ox:
                    ox = v
                break
        for v, i in self.by_y:
            if i not in drop:
                if oy is None or v < oy:
                    oy = v
                break
        if ox is None:                      # nothing on the board
            ox = oy = 0
        pieces = self.memo.get((ox, oy))
        if pieces is None:
            pieces = self.memo[(ox, oy)] = self._pieces(ox, oy)
        return (pieces[2] if drop and self.img.key_index in drop else pieces[1]), pieces

    def finish(self, head: str, pieces: tuple, drop: frozenset[int] = frozenset()) -> str:
        blocks, _, _, tail, every = pieces
        if not drop:
            return head + every + tail
        return head + ".".join([blocks[i] for i in self.order if i not in drop]) + tail


def _least_text(texters: Sequence[_Texter], drop: frozenset[int] = frozenset()) -> str:
    """min(t.text(drop) for t in texters), with the whole text made only for the images
    whose start could lead to the least: a text whose start neither equals the least
    start nor begins with it is greater at a character of that start (the eight images
    of a board usually differ there: the lantern's place)."""
    heads = [t.head(drop) for t in texters]
    least = min(h for h, _ in heads)
    return min([t.finish(h, p, drop) for t, (h, p) in zip(texters, heads) if h.startswith(least)])


@functools.lru_cache(maxsize=1024)
def _texters(level: Level, blind: bool = False) -> tuple[_Texter, ...]:
    """The level's eight images, made once per level (its family key, its near keys whole
    and without its decoys, and with `blind` its re-skin keys all read them)."""
    return tuple(_Texter(_blind(img) if blind else img) for img in _images(level))


# The keys here and below are pure functions of a (frozen, hashable) level: a level is asked
# about and then added (find, then add; the composer asks three indexes of one board),
# so each is computed once. Bounded caches: a pool's selection asks ~20,000 boards.
_KEY_CACHE = 8192


@functools.lru_cache(maxsize=_KEY_CACHE)
def family_key(level: Level) -> str:
    """The board's canonical text, the same for every mirror, rotation and
    transposition (6x5 and 5x6 are one grid) and every translation of its contents
    with the lantern: block kinds, shapes and places, walls, mirrors (tilts turned
    with the board), lantern, win kind, beam direction and start. Not the par, id
    or any metadata. Equal keys: the same puzzle up to symmetry and translation."""
    return _least_text(_texters(level))


def decoys(level: Level, dead: Iterable[int] | None = None) -> frozenset[int]:
    """The blocks near duplicates do not count (RULES.md Quality, "Near duplicates"):
    the non-key blocks among `dead` (default: the dead blocks of the level's stored
    analysis, none without one)."""
    if dead is None:
        dead = level.analysis.dead_blocks if level.analysis is not None else ()
    key = level.key_index
    return frozenset(i for i in dead if i != key and 0 <= i < len(level.blocks))


@functools.lru_cache(maxsize=_KEY_CACHE)
def _near_keys(level: Level, drop: frozenset[int] = frozenset()) -> tuple[str, tuple[str, ...]]:
    """(the family key of the board without the blocks of `drop`, and of that board
    without one more block i, for every other block i)."""
    imgs = _texters(level)
    full = _least_text(imgs, drop)
    minus = tuple(_least_text(imgs, drop | {i}) for i in range(len(level.blocks)) if i not in drop)
    return full, minus


class NearIndex:
    """Near duplicates (RULES.md Quality): two levels are near duplicates when, up to
    symmetry and translation, they are identical or one block apart (one block's
    kind, place or shape changed, or one block more or less).

    It indexes each added level's family key and the keys of the level without each
    one of its blocks; two levels one block apart share a key of the board without
    that block (or one's full key is the other's key without a block). With `drop`,
    the boards are compared without those blocks (`Seen` drops the decoys)."""

    def __init__(self) -> None:
        self._owner: dict[str, tuple[int, str]] = {}
        self._added = 0

    def __len__(self) -> int:
        return self._added

    def add(self, level: Level, owner: str, drop: frozenset[int] = frozenset()) -> None:
        """Index `level` under `owner` (the first owner of a key keeps it)."""
        full, minus = _near_keys(level, drop)
        for k in [full, *minus]:
            self._owner.setdefault(k, (self._added, owner))
        self._added += 1

    def find(self, level: Level, drop: frozenset[int] = frozenset()) -> str | None:
        """The owner of the earliest added level `level` nearly duplicates, or None."""
        return self._find(*_near_keys(level, drop))

    def _find(self, full: str, minus: list[str]) -> str | None:
        hits = [self._owner[k] for k in [full, *minus] if k in self._owner]
        return min(hits)[1] if hits else None


def _blind(img: _Image) -> _Image:
    """The image with block kinds ignored: the key stays the key, every other block
    is a plain block (drawn as crystal)."""
    return dataclasses.replace(img, blocks=tuple(
        ("key" if i == img.key_index else "crystal", *b[1:]) for i, b in enumerate(img.blocks)))


@functools.lru_cache(maxsize=_KEY_CACHE)
def reskin_keys(level: Level) -> frozenset[str]:
    """The family keys of `level` with kinds ignored (`_blind`), whole and without any
    one or two of its blocks: two boards share a key exactly when, up to symmetry and
    translation and whatever their kinds, they are identical or at most two blocks
    apart (a block moved, added or taken away counts one)."""
    imgs = _texters(level, blind=True)
    n = len(level.blocks)
    drops = [frozenset()] + [frozenset({i}) for i in range(n)] + [
        frozenset({i, j}) for i in range(n) for j in range(i + 1, n)]
    return frozenset(_least_text(imgs, d) for d in drops)


class ReskinIndex:
    """Re-skins (RULES.md "Not a re-skin"): two levels with the same par that are
    identical or at most two blocks apart under the eight symmetries and translation,
    block kinds ignored, are one puzzle twice."""

    def __init__(self) -> None:
        self._owner: dict[tuple[int, str], tuple[int, str]] = {}
        self._added = 0

    def add(self, level: Level, owner: str, par: int) -> None:
        for k in reskin_keys(level):
            self._owner.setdefault((par, k), (self._added, owner))
        self._added += 1

    def find(self, level: Level, par: int) -> str | None:
        hits = [self._owner[(par, k)] for k in reskin_keys(level) if (par, k) in self._owner]
        return min(hits)[1] if hits else None


@dataclass(frozen=True)
class Match:
    """What a level repeats: `reason` "duplicate" (the same level text) or
    "near_duplicate"; `owner` the level it repeats; `same` True when the two are one
    puzzle up to symmetry and translation (equal family keys); `live` True when only
    their live blocks (decoys left out) are identical or one block apart."""
    reason: str
    owner: str
    same: bool
    live: bool = False


class Seen:
    """The one index of levels already shipped or accepted: exact duplicates (the same
    `signature`) and near duplicates, each answered with the first owner. The
    generator, the strategy bench and the verifier all ask it.

    Near duplicates are judged twice (docs/RULES-DECISIONS.md 37): on the whole boards,
    and on the live boards, each level without its own decoys (`decoys`: non-key
    blocks that move in no optimal solution). A level whose decoys are unknown (no
    `dead` given and no stored analysis) counts every block as live."""

    def __init__(self, levels: Iterable[Level] = ()) -> None:
        self._sigs: dict[str, str] = {}
        self._families: dict[str, str] = {}
        self._near = NearIndex()            # whole boards
        self._live = NearIndex()            # boards without their decoys
        self._reskin = ReskinIndex()        # kinds ignored, two blocks apart, same par
        for lv in levels:
            self.add(lv)

    def __len__(self) -> int:
        return len(self._near)

    def add(self, level: Level, owner: str | None = None,
            dead: Iterable[int] | None = None) -> None:
        """Index `level` under `owner` (default: its id); earlier owners keep their keys.
        `dead`: its blocks that move in no optimal solution (default: the stored
        analysis' `dead_blocks`)."""
        owner = level.id if owner is None else owner
        self._sigs.setdefault(signature(level), owner)
        self._families.setdefault(family_key(level), owner)
        self._near.add(level, owner)
        self._live.add(level, owner, decoys(level, dead))
        if level.optimal is not None:
            self._reskin.add(level, owner, level.optimal)

    def find(self, level: Level, dead: Iterable[int] | None = None) -> Match | None:
        """How `level` repeats an indexed level, or None when it does not: an exact
        duplicate, a near duplicate of the whole board, or (when `level`'s decoys are
        known: `dead`, default the stored analysis' dead blocks) of its live blocks."""
        return self.find_board(level) or self.find_live(level, dead) or self.find_reskin(level)

    def find_reskin(self, level: Level, par: int | None = None) -> Match | None:
        """A re-skin (RULES.md "Not a re-skin") of `level` at par `par` (default its
        stored par; None: not judged) among the indexed levels with a par, or None."""
        par = level.optimal if par is None else par
        if par is None:
            return None
        owner = self._reskin.find(level, par)
        return None if owner is None else Match("reskin", owner, False)

    def find_live(self, level: Level, dead: Iterable[int] | None = None) -> Match | None:
        """A near duplicate of `level`'s live blocks (without its decoys, `dead` as in
        `find`) among the indexed levels' live blocks, or None."""
        owner = self._live.find(level, decoys(level, dead))
        return None if owner is None else Match("near_duplicate", owner, False, live=True)

    def find_board(self, level: Level) -> Match | None:
        """An exact duplicate or a near duplicate of the whole board (decoys counted):
        cheap, needs no measures (`screen` asks it before measuring)."""
        sig = signature(level)
        if sig in self._sigs:
            return Match("duplicate", self._sigs[sig], True)
        full, minus = _near_keys(level)
        if full in self._families:
            return Match("near_duplicate", self._families[full], True)
        owner = self._near._find(full, minus)
        return None if owner is None else Match("near_duplicate", owner, False)


# ---------------------------------------------------------------------------
# Binding twists, plans and dead blocks.

def has_twist(level: Level) -> bool:
    """True when the level carries sand, ice or rime."""
    return any(b.kind in TWIST_KINDS for b in level.blocks)


def binds(level: Level, crystal_optimal: int | None, optimal: int | None) -> bool:
    """RULES.md "Binding twists": True when the level has no twist, or its par is
    strictly greater than its crystal par. A twist level whose crystal par is unknown
    (None) does not bind: nothing proves the twist is felt."""
    if not has_twist(level):
        return True
    return crystal_optimal is not None and optimal is not None and optimal > crystal_optimal


def dead_share(level: Level, dead_blocks: Iterable[int]) -> float:
    """Non-key blocks that never move in any optimal solution / non-key blocks
    (rounded to 4 places, as packs store it; 0.0 when there are none)."""
    others = sum(1 for b in level.blocks if b.kind != "key")
    dead = sum(1 for i in set(dead_blocks) if level.blocks[i].kind != "key")
    return round(dead / others, 4) if others else 0.0


def twist_kinds(level: Level) -> tuple[str, ...]:
    """The twist kinds on the board, in TWIST_KINDS order."""
    kinds = {b.kind for b in level.blocks}
    return tuple(k for k in TWIST_KINDS if k in kinds)


def margin_floor(level: Level) -> int:
    """The least twist margin (par - crystal par) the level may ship with: the
    strictest `MARGIN_FLOOR` of the twist kinds on its board (0 without twist)."""
    return max((MARGIN_FLOOR[k] for k in twist_kinds(level)), default=0)


def twist_margin(level: Level, crystal_optimal: int | None, optimal: int | None) -> int | None:
    """par - crystal par of a twist level; None without twist or when either is unknown."""
    if not has_twist(level) or crystal_optimal is None or optimal is None:
        return None
    return optimal - crystal_optimal


def dead_twists(level: Level, dead_blocks: Iterable[int]) -> tuple[int, ...]:
    """The sand, ice and rime blocks among `dead_blocks`, in order."""
    return tuple(sorted(i for i in set(dead_blocks) if level.blocks[i].kind in TWIST_KINDS))


def chain_low(chain: int, par: int) -> bool:
    """True when a level of par `par` has too short a chain: par at least
    MIN_CHAIN_SHARE_FROM and chain / par under MIN_CHAIN_SHARE."""
    return par >= MIN_CHAIN_SHARE_FROM and chain / par < MIN_CHAIN_SHARE


# ---------------------------------------------------------------------------
# Verdicts: every rule's finding, with the one sentence people read.

@dataclass(frozen=True)
class Problem:
    """One rule a level, a world or the campaign breaks: `reason` a short key (one of
    REASONS for a level's own rules; "tutorial_*", "curve", "effort_*", ... for the
    others), `message` the one sentence people read (no caller writes its own), and
    `level` the level it is about when a world or campaign rule names one."""
    reason: str
    message: str
    level: str | None = None

    def __str__(self) -> str:
        return self.message if self.level is None else f"{self.level}: {self.message}"


def band_problems(par: int, band: tuple[int, int]) -> list[Problem]:
    """The depth window: a solved candidate's par against an inclusive band."""
    reason = band_reason(par, band)
    if reason is None:
        return []
    if reason == "already_solved":
        return [Problem(reason, "already solved at the start (par 0)")]
    side = "under" if reason == "under_band" else "over"
    return [Problem(reason, f"par {par} is {side} the band {band[0]}-{band[1]}")]


def match_problem(hit: Match | None, par: int | None = None) -> list[Problem]:
    """The sentence of a `Seen` match (none for None)."""
    if hit is None:
        return []
    if hit.reason == "duplicate":
        return [Problem("duplicate", f"the same level as {hit.owner}")]
    if hit.reason == "reskin":
        return [Problem("reskin", f"a re-skin of {hit.owner}: the same par"
                        f"{'' if par is None else f' {par}'}, identical or at most two blocks "
                        "apart with block kinds ignored, up to symmetry and translation")]
    if hit.same:
        return [Problem("near_duplicate", f"same puzzle as {hit.owner} (up to symmetry and "
                        "translation)")]
    if hit.live:
        return [Problem("near_duplicate", f"near duplicate of {hit.owner} (its live blocks "
                        "identical or one block apart, decoys aside, up to symmetry and "
                        "translation)")]
    return [Problem("near_duplicate", f"near duplicate of {hit.owner} (one block apart, up "
                    "to symmetry and translation)")]


def seen_problems(level: Level, seen: Seen, *, par: int | None,
                  dead: Iterable[int] | None = None) -> list[Problem]:
    """Duplicates, near duplicates (whole board, then live blocks) and re-skins of
    `level` among the levels of `seen`: at most one problem, the first of those."""
    hit = seen.find_board(level) or seen.find_live(level, dead) or seen.find_reskin(level, par)
    return match_problem(hit, par)


def twist_problems(level: Level, crystal_optimal: int | None, par: int,
                   margin: int = 0) -> list[Problem]:
    """Binding and the twist margin (par - crystal par) against max(`margin`, the
    board's `margin_floor`; ice's floor is RULES.md "Ice must slide")."""
    if not has_twist(level):
        return []
    if not binds(level, crystal_optimal, par):
        return [Problem("unbound", f"twist does not bind: par {par}, crystal par "
                        f"{crystal_optimal} (must be below par)")]
    need = max(margin, margin_floor(level))
    got = par - crystal_optimal
    if got >= need:
        return []
    kinds = twist_kinds(level)
    why = (" (ice must slide: an ice block that moves one cell is a crystal block)"
           if kinds == ("ice",) and need == MARGIN_FLOOR["ice"] else "")
    return [Problem("margin", f"twist margin {got} (par {par}, crystal par {crystal_optimal}) "
                    f"is under {need} ({', '.join(kinds)}){why}")]


def _par_of(level: Level, measured: Any, optimal: int | None) -> int:
    par = getattr(measured, "optimal", None)
    if par is None:
        par = optimal if optimal is not None else level.optimal
    if par is None:
        raise ValueError(f"{level.id}: no par to judge (not solved, none stored)")
    return par


def measured_problems(level: Level, measured: _Measured, par: int,
                      margin: int = 0) -> list[Problem]:
    """The rules the optimal-solution measures rule on, every failing one in
    LEVEL_REASONS order: binding and margin, dead and optional twists, the hardest
    start, the chain floor, plans (at most DEEP_MAX_PLANS from par DEEP_PLANS_FROM),
    dead blocks. A measure recorded as None fails the rule that needs it."""
    beam = level.win == "beam"
    twist = has_twist(level)
    out = twist_problems(level, measured.crystal_optimal, par, margin)
    if twist and (dead := dead_twists(level, measured.dead_blocks)):
        out.append(Problem("dead_twist", f"twist block{'s' if len(dead) > 1 else ''} "
                           f"{', '.join(f'{i} ({level.blocks[i].kind})' for i in dead)} never "
                           f"move{'' if len(dead) > 1 else 's'} in an optimal solution"))
    if twist and measured.optional_twist is not False:
        out.append(Problem("optional_twist",
                           "an optimal solution moves no sand, ice or rime block (the twist is "
                           "optional)" if measured.optional_twist else
                           "whether the twist is optional is not recorded"))
    if measured.deepest != par:
        deepest = ("unknown (not recorded, or its sweep passed the state cap)"
                   if measured.deepest is None else measured.deepest)
        out.append(Problem("not_deepest", f"does not start at its board's deepest: par {par}, "
                           f"the board's deepest {deepest}"))
    chain = measured.chain
    if chain is None:
        out.append(Problem("chain", "chain unknown (not recorded or not solved)"))
    elif chain_low(chain, par):
        out.append(Problem("chain", f"chain {chain} of par {par} is under "
                           f"{MIN_CHAIN_SHARE:.2f} of par (from par {MIN_CHAIN_SHARE_FROM})"))
    cap = max_plans(beam, par)
    if measured.plans_capped or measured.plans > cap:
        deep = f" from par {DEEP_PLANS_FROM}: past that, any route works" \
            if par >= DEEP_PLANS_FROM and cap == DEEP_MAX_PLANS else ""
        out.append(Problem("plans", f"{measured.plans}{'+' if measured.plans_capped else ''} "
                           f"plans (at most {cap}{deep})"))
    share = dead_share(level, measured.dead_blocks)
    if share > max_dead_share(beam):
        out.append(Problem("dead_blocks", f"{share:.0%} of blocks never move (at most "
                           f"{max_dead_share(beam):.0%})"))
    return out


def level_problems(level: Level, measures: _Measured, *, band: tuple[int, int] | None = None,
                   margin: int = 0, seen: Seen | None = None, felt: Any = None,
                   optimal: int | None = None) -> list[Problem]:
    """Every level rule of RULES.md Quality one solved level can fail on its own, in
    REASONS order: the band (when given), a duplicate, near duplicate or re-skin of a
    level of `seen` (when given), then `measured_problems` (binding, margin with ice
    at least 2, dead and optional twists, the hardest start, the chain, plans with at
    most 16 from par 20, dead blocks). `measures` is `lumina.engine.Measures` (its
    `optimal` is the par) or a pack's `Analysis` (the par is `optimal`, else the
    level's stored one). `margin`: a bucket's or world's own least twist margin.
    `felt` is not a level rule (felt difficulty is judged across a world:
    `world_problems`). [] means it ships."""
    par = _par_of(level, measures, optimal)
    out = band_problems(par, band) if band is not None else []
    if seen is not None:
        out += seen_problems(level, seen, par=par, dead=measures.dead_blocks)
    return out + measured_problems(level, measures, par, margin)


def judge_level(level: Level, measured: _Measured, *, optimal: int | None = None,
                margin: int = 0) -> str | None:
    """The first reason of `measured_problems`, or None: the level's measures pass."""
    got = measured_problems(level, measured, _par_of(level, measured, optimal), margin)
    return got[0].reason if got else None


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """`screen`'s answer: the first failing problem (None: the level ships), the proven
    par and one optimal solution (when solved), and the measures (when reached)."""
    problem: Problem | None
    optimal: int | None = None
    moves: tuple[tuple[int, int], ...] = ()
    measures: Any = None

    @property
    def reason(self) -> str | None:
        return None if self.problem is None else self.problem.reason


def screen(level: Level, *, seen: Seen | None = None, band: tuple[int, int] | None = None,
           wanted: Callable[[int], bool] | None = None, crystal_par: int | None = None,
           optimal: int | None = None, moves: tuple[tuple[int, int], ...] = (),
           measured: Any = None, state_cap: int = 500_000, margin: int = 0) -> Verdict:
    """`level_problems` staged cheapest first, for the generator and the strategy bench
    (the verifier calls `level_problems` itself): the solver's outcome ("unsolvable",
    "exhausted"), the band ("already_solved", "under_band", "over_band"; "band_full"
    when `wanted(par)` is False), "duplicate", "near_duplicate" and "reskin" of a
    whole board in `seen`, "unbound" and "margin" (from `crystal_par`, the sweep's
    crystal par, before anything is measured), then `lumina.engine.measure` (with the
    board's deepest), "near_duplicate" on the live blocks (decoys left out), and
    `measured_problems` (with `margin`, the bucket's least twist margin). Stops at the
    first failing stage; its first problem is the verdict.

    `optimal` (with `moves`) and `measured` skip the solve and the measure when the
    caller has them already."""
    from lumina.engine import Outcome, measure, solve
    if optimal is None:
        sol = solve(level, state_cap=state_cap)
        if sol.outcome is not Outcome.SOLVED:
            why = ("no win is reachable" if sol.outcome is Outcome.UNSOLVABLE
                   else f"the solver passed its cap of {state_cap:,} states")
            return Verdict(problem=Problem(sol.outcome.value, why))
        optimal, moves = sol.optimal, sol.moves
    v = dict(optimal=optimal, moves=moves)
    found = band_problems(optimal, band) if band is not None else []
    if not found and wanted is not None and not wanted(optimal):
        found = [Problem("band_full", f"no target wants par {optimal} any more")]
    if not found and seen is not None:
        found = match_problem(seen.find_board(level) or seen.find_reskin(level, optimal),
                              optimal)
    if not found and crystal_par is not None:
        found = twist_problems(level, crystal_par, optimal, margin)
    if found:
        return Verdict(problem=found[0], **v)
    m = measure(level) if measured is None else measured
    if m.optimal != optimal:
        raise AssertionError(f"{level.id}: measure() optimal {m.optimal} != BFS {optimal}")
    if seen is not None:
        found = match_problem(seen.find_live(level, dead=m.dead_blocks), optimal)
    found = found or measured_problems(level, m, optimal, margin)
    return Verdict(problem=found[0] if found else None, measures=m, **v)


def analysis(level: Level, m, felt: Any = None) -> Analysis:
    """The pack's per-level record of `lumina.engine.measure(level)` (`m`; its `forced`
    counted along the solution the level stores), with the level's label and its felt
    difficulty (`felt`, a `lumina.playtest.felt.Felt`; default: played afresh): every
    field `Analysis` declares, by its `measure=`, else the judge's rule (`JUDGED`), else
    the felt player's figure (group "felt"), else the engine's attribute of its name."""
    if felt is None:
        from lumina.playtest.felt import felt as play
        felt = play(level)

    def value(s: schema.Spec) -> Any:
        how = s.measure or JUDGED.get(s.name)
        if how:
            v = how(level, m)
        elif s.group == "felt":
            v = getattr(felt, s.name)
        else:
            v = getattr(m, s.name)
        return tuple(v) if isinstance(v, list) else v
    return Analysis(**{s.name: value(s) for s in schema.specs(Analysis)})


#: The analysis fields the judge computes (the rest are the engine's, the felt player's
#: or the level's).
JUDGED: dict[str, Callable[[Level, Any], Any]] = {
    "dead_share": lambda level, m: dead_share(level, m.dead_blocks),
    "family": lambda level, m: family_key(level),
}


# ---------------------------------------------------------------------------
# Tutorials.

def _shows(board, level: Level, mechanic: str, s: int, mv: tuple[int, int]) -> bool:
    """Whether move `mv` from state `s` shows `mechanic` (RULES.md "Tutorials teach"):
    an ice block slides at least 2 cells; a sand block moves (and is spent); a rime
    block that was frozen at the start moves (it thawed, then moved); a crystal
    tutorial's blocker moves."""
    kind = level.blocks[mv[0]].kind
    if mechanic == "ice":
        return kind == "ice" and abs(mv[1]) >= 2
    if mechanic == "sand":
        return kind == "sand"
    if mechanic == "rime":
        return kind == "rime" and not board.decode(board.start)[1][mv[0]]
    if mechanic == "crystal":
        return kind != "key"
    return False


def skips_mechanic(level: Level, mechanic: str) -> bool | None:
    """True when some optimal solution of `level` never shows `mechanic` (see `_shows`;
    the beam: its winning light turns at a mirror), on the optimal-solution DAG
    enumerated exactly in Python (tutorials are tiny); None when it is not solvable."""
    from lumina.engine import Board, distances
    board = Board(level)
    dist = distances(board)
    s0 = board.start
    if dist.get(s0, -1) < 0:
        return None
    mirrors = {(m.x, m.y) for m in level.mirrors}

    def turned(s: int) -> bool:
        lit, cells = board.beam(s)
        return bool(lit) and any(tuple(c) in mirrors for c in cells)
    # states reachable along optimal moves without showing the mechanic
    todo, plain = [s0], {s0}
    while todo:
        s = todo.pop()
        if dist[s] == 0:
            if mechanic != "beam" or not turned(s):
                return True
            continue
        for mv in board.moves(s):
            t = board.apply(s, mv)
            if dist.get(t, -1) != dist[s] - 1 or t in plain:
                continue
            if mechanic != "beam" and _shows(board, level, mechanic, s, mv):
                continue
            plain.add(t)
            todo.append(t)
    return False


def _effort(level: Level) -> float:
    a = level.analysis
    if a is not None and a.effort is not None:
        return a.effort
    from lumina.playtest.felt import felt
    return felt(level).effort


def tutorial_problems(tutorial: Level, m, mechanic: str,
                      following: Sequence[Level] = ()) -> list[Problem]:
    """Why a tutorial does not teach its `mechanic` (RULES.md "Tutorials teach"), from
    its measures `m` (`lumina.engine.Measures`): it is tiny (at most
    TUTORIAL_MAX_BLOCKS blocks with the key), has exactly one plan and starts at its
    board's deepest; the mechanic changes its par (a twist: crystal par below par by at
    least the board's `margin_floor`; the beam: the key moves and the winning light
    turns at a mirror; crystal: a blocker moves); every optimal solution shows the
    mechanic (`skips_mechanic`); and it is no harder than any of `following` (the
    next TUTORIAL_FOLLOWING levels: par and felt effort). [] : it teaches."""
    if mechanic not in MECHANICS:
        raise ValueError(f"mechanic must be one of {', '.join(MECHANICS)}, got {mechanic!r}")
    if m.optimal is None:
        return [Problem("tutorial_unsolvable", "tutorial is not solvable")]
    par = m.optimal
    out = []
    if len(tutorial.blocks) > TUTORIAL_MAX_BLOCKS:
        out.append(Problem("tutorial_size", f"tutorial has {len(tutorial.blocks)} blocks "
                           f"(at most {TUTORIAL_MAX_BLOCKS} with the key)"))
    if m.plans_capped or m.plans != 1:
        out.append(Problem("tutorial_plans", f"tutorial has {m.plans}"
                           f"{'+' if m.plans_capped else ''} plans (exactly one teaches)"))
    if m.deepest != par:
        out.append(Problem("not_deepest", "tutorial does not start at its board's deepest: "
                           f"par {par}, the board's deepest "
                           f"{'unknown' if m.deepest is None else m.deepest}"))
    if mechanic in TWIST_KINDS:
        if not any(b.kind == mechanic for b in tutorial.blocks):
            out.append(Problem("tutorial_mechanic", f"{mechanic} tutorial has no {mechanic} "
                               "block"))
        elif m.crystal_optimal is None or not m.crystal_optimal < par:
            out.append(Problem("tutorial_mechanic", f"{mechanic} tutorial teaches nothing: "
                               f"crystal par {m.crystal_optimal} is not below par {par}"))
        elif par - m.crystal_optimal < margin_floor(tutorial):
            out.append(Problem("tutorial_mechanic", f"{mechanic} tutorial's twist margin "
                               f"{par - m.crystal_optimal} is under {margin_floor(tutorial)}"))
    elif mechanic == "beam":
        if tutorial.win != "beam":
            out.append(Problem("tutorial_mechanic", "beam tutorial is not a beam level"))
        elif tutorial.key_index in m.dead_blocks or par == 0:
            out.append(Problem("tutorial_mechanic", "beam tutorial's key never moves"))
    elif not [i for i, b in enumerate(tutorial.blocks)
              if b.kind != "key" and i not in m.dead_blocks]:
        out.append(Problem("tutorial_mechanic", "crystal tutorial teaches nothing: no blocker "
                           "moves"))
    if (mechanic != "beam" or tutorial.win == "beam") and skips_mechanic(tutorial, mechanic):
        out.append(Problem("tutorial_skips", f"an optimal solution never shows {mechanic}: "
                           + _SHOW_TEXT[mechanic]))
    following = list(following)[:TUTORIAL_FOLLOWING]
    if following:
        harder = [lv.id for lv in following if lv.optimal is not None and lv.optimal < par]
        if harder:
            out.append(Problem("tutorial_harder", f"tutorial's par {par} is above the par of "
                               f"{', '.join(harder)} (no harder than the next "
                               f"{TUTORIAL_FOLLOWING} levels)"))
        mine = _effort(tutorial)
        easier = [(lv.id, e) for lv in following if (e := _effort(lv)) < mine]
        if easier:
            out.append(Problem("tutorial_harder", f"tutorial's felt effort {mine:g} is above "
                               + ", ".join(f"{i}'s {e:g}" for i, e in easier)
                               + f" (no harder than the next {TUTORIAL_FOLLOWING} levels)"))
    return out


_SHOW_TEXT = {"ice": "every one must slide an ice block at least 2 cells in one move",
              "sand": "every one must spend a sand block",
              "rime": "every one must thaw a rime block and then move it",
              "beam": "in every one the winning light must turn at a mirror",
              "crystal": "every one must move a blocker"}


# ---------------------------------------------------------------------------
# Worlds.

def num_text(x: float) -> str:
    """A whole number without its ".0"; else as short as it reads."""
    return str(int(x)) if x == int(x) else f"{x:g}"


def world_margin_problems(margins: Sequence[int], *, median: int, last: int,
                          label: str) -> list[Problem]:
    """A twist world's margin targets (issue 17; the campaign file's `margin`), given
    the twist margins of its levels in order (tutorial excluded): the median of all at
    least `median`, and each of the last LAST_MARGINS at least `last` (0: no target)."""
    out = []
    if not margins:
        return out
    mid = statistics.median(margins)
    if median and mid < median:
        out.append(Problem("world_margin", f"{label}: twist margin median {num_text(mid)} is "
                           f"under {median}"))
    if last:
        tail = list(margins)[-LAST_MARGINS:]
        low = [x for x in tail if x < last]
        if low:
            out.append(Problem("world_margin", f"{label}: twist margins of the last {len(tail)} "
                               f"levels {' '.join(map(str, tail))}: {len(low)} under {last}"))
    return out


def label_problems(level: Level) -> list[Problem]:
    """RULES.md "Labels tell the truth": the label the level's analysis records
    (`analysis.mechanics`) names exactly the kinds on its board (`Level.mechanics`)."""
    a = level.analysis
    if a is None or a.mechanics is None or tuple(a.mechanics) == level.mechanics:
        return []
    return [Problem("label", f"label {', '.join(a.mechanics)} is not the board's: "
                    f"{', '.join(level.mechanics)}", level.id)]


def world_label_problems(mechanic: str, levels: Iterable[Level]) -> list[Problem]:
    """A world's label holds for its levels (RULES.md "Labels tell the truth"): every
    level of a `mechanic` world carries it (a beam world's are beam levels, its finale
    included; a crystal world's carry no twist and no beam)."""
    if mechanic not in MECHANICS:
        raise ValueError(f"mechanic must be one of {', '.join(MECHANICS)}, got {mechanic!r}")
    return [Problem("world_label", f"a {mechanic} world's level, but its board is "
                    f"{', '.join(lv.mechanics)}", lv.id)
            for lv in levels if mechanic not in lv.mechanics]


def curve_problems(pars: Sequence[int], label: str) -> list[Problem]:
    """A world's curve (its levels' pars in order, the tutorial excluded): no dip of
    more than MAX_DIP below the hardest level before, no hole of more than MAX_HOLE
    between consecutive distinct pars, and the hardest among the last PEAK_WINDOW."""
    out = []
    best = None
    for n, p in enumerate(pars, 1):
        if best is not None and p < best - MAX_DIP:
            out.append(Problem("curve", f"{label}: level {n} dips to {p} after {best} (at most "
                               f"{MAX_DIP} below)"))
        best = p if best is None else max(best, p)
    distinct = sorted(set(pars))
    for a, b in zip(distinct, distinct[1:]):
        if b - a > MAX_HOLE:
            out.append(Problem("curve", f"{label}: curve has a hole: no level between {a} and "
                               f"{b} moves (at most {MAX_HOLE} apart)"))
    if pars and max(pars) not in pars[-PEAK_WINDOW:]:
        out.append(Problem("curve", f"{label}: the hardest level ({max(pars)} moves) is not "
                           f"among the last {PEAK_WINDOW}"))
    return out


def ranks(xs: Sequence[float]) -> list[float]:
    """1-based ranks, ties given the mean of the ranks they span (also the play-test
    report's, `lumina.playtest.stats`)."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (ties share their mean rank); 1.0 for fewer than
    two values or a constant series."""
    if len(xs) < 2:
        return 1.0
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return 1.0
    return sxy / (sxx * syy) ** 0.5


def effort_problems(ids: Sequence[str], efforts: Sequence[float], label: str) -> list[Problem]:
    """RULES.md "Felt difficulty" over a world's levels in order (tutorial excluded):
    Spearman rank correlation of effort with level number at least MIN_EFFORT_RANK, no
    level above EFFORT_SPIKE times the median effort of the EFFORT_WINDOW after it,
    none under EFFORT_DROP times the median of the EFFORT_WINDOW before it (a level
    with fewer after or before it is compared with those it has)."""
    out = []
    if len(efforts) < 2:
        return out
    rho = spearman(list(range(len(efforts))), efforts)
    if rho < MIN_EFFORT_RANK:
        out.append(Problem("effort_rank", f"{label}: felt effort rank correlation with level "
                           f"number {rho:.2f} is under {MIN_EFFORT_RANK}"))
    for i, (lid, e) in enumerate(zip(ids, efforts)):
        after = efforts[i + 1:i + 1 + EFFORT_WINDOW]
        if after and e > EFFORT_SPIKE * (mid := statistics.median(after)):
            out.append(Problem("effort_spike", f"felt effort {e:g} is more than "
                               f"{EFFORT_SPIKE:g}x the median {mid:g} of the "
                               f"{len(after)} level(s) after it", lid))
        before = efforts[max(0, i - EFFORT_WINDOW):i]
        if before and e < EFFORT_DROP * (mid := statistics.median(before)):
            out.append(Problem("effort_drop", f"felt effort {e:g} is under "
                               f"{EFFORT_DROP:g}x the median {mid:g} of the "
                               f"{len(before)} level(s) before it", lid))
    return out


def world_problems(world: Any, levels: Sequence[Level], *, measures: dict | None = None,
                   felt: Sequence[float] | None = None, name: str | None = None
                   ) -> list[Problem]:
    """A world pack's rules (`world` a `lumina.worlds.World`; `levels` in order): its
    name (when `name`, the pack's, is given) and number of levels, the tutorial first
    and only first, teaching its mechanic and no harder than the levels after it
    (`tutorial_problems`, from `measures[tutorial id]` or measured afresh), the curve,
    every level carrying the world's label, its twist margin targets (median and last
    five: `world.margin_median`, `world.margin_last`), and its felt effort ordering
    (`effort_problems`, from `felt`, the efforts of the levels after the tutorial,
    default their recorded `analysis.effort`; a level without one is a problem)."""
    label = f"world {world.number}"
    out = []
    if name is not None and name != world.name:
        out.append(Problem("world_name", f"world {world.number} is named {world.name!r}"))
    if len(levels) != world.levels:
        out.append(Problem("world_size", f"a world has {world.levels} levels, this one "
                           f"{len(levels)}"))
    if not levels:
        return out
    tut, rest = levels[0], list(levels[1:])
    if not tut.tutorial:
        out.append(Problem("tutorial_first", "level 1 of a world must be its hand-authored "
                           "tutorial", tut.id))
    else:
        m = (measures or {}).get(tut.id)
        if m is None:
            from lumina.engine import measure
            m = measure(tut)
        out += [dataclasses.replace(p, level=tut.id)
                for p in tutorial_problems(tut, m, world.mechanic, rest)]
    out += [Problem("tutorial_first", "only level 1 of a world is a tutorial", lv.id)
            for lv in rest if lv.tutorial]
    out += curve_problems([lv.optimal for lv in rest if lv.optimal is not None], label)
    out += world_label_problems(world.mechanic, levels)
    margins = [lv.optimal - lv.analysis.crystal_optimal for lv in rest
               if has_twist(lv) and lv.optimal is not None and lv.analysis is not None
               and lv.analysis.crystal_optimal is not None]
    out += world_margin_problems(margins, median=world.margin_median, last=world.margin_last,
                                 label=label)
    if felt is None:
        missing = [lv.id for lv in rest if lv.analysis is None or lv.analysis.effort is None]
        if missing:
            out.append(Problem("effort_missing", f"{label}: no felt effort recorded for "
                               f"{', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}"))
            return out
        felt = [lv.analysis.effort for lv in rest]
    out += effort_problems([lv.id for lv in rest], list(felt), label)
    return out


# ---------------------------------------------------------------------------
# The campaign.

def repeat_problems(levels: Sequence[Level], dead: Callable[[Level], Iterable[int] | None]
                    = lambda lv: None, *, against: Sequence[Level] = ()) -> list[Problem]:
    """Near duplicates and re-skins across every level given (worlds, dailies), in the
    order given: a level fails when it repeats one before it or any tutorial
    (tutorials are indexed first and never failed themselves: docs/RULES-DECISIONS.md
    13b). The levels of `against` (the practice pack) are then each checked against
    all of `levels`, not against each other. `dead(level)`: its blocks that move in no
    optimal solution (its decoys), default the stored analysis'."""
    seen = Seen()
    for lv in levels:
        if lv.tutorial:
            seen.add(lv, dead=dead(lv))
    out = []
    for lv in levels:
        if lv.tutorial:
            continue
        d = dead(lv)
        out += [dataclasses.replace(p, level=lv.id)
                for p in seen_problems(lv, seen, par=lv.optimal, dead=d)]
        seen.add(lv, dead=d)
    for lv in against:
        out += [dataclasses.replace(p, level=lv.id)
                for p in seen_problems(lv, seen, par=lv.optimal, dead=dead(lv))]
    return out


def campaign_problems(worlds_pars: dict[int, Sequence[int]], *, first_peak: int,
                      final_world: int, final_peak: int) -> list[Problem]:
    """The campaign's shape over the worlds given (number -> pars, tutorials
    excluded): each world's hardest above the previous world's; World 1's hardest at
    least `first_peak`; world `final_world` (the campaign's last) holds the campaign's
    hardest, at least `final_peak`. (Repeats across packs: `repeat_problems`.)"""
    peaks = {n: max(p) for n, p in sorted(worlds_pars.items()) if p}
    out = []
    nums = sorted(peaks)
    for a, b in zip(nums, nums[1:]):
        if peaks[b] <= peaks[a]:
            out.append(Problem("tops", f"world {b}'s hardest level ({peaks[b]} moves) is not "
                               f"harder than world {a}'s ({peaks[a]})"))
    if 1 in peaks and peaks[1] < first_peak:
        out.append(Problem("peak", f"world 1's hardest level has {peaks[1]} moves (at least "
                           f"{first_peak})"))
    if final_world in peaks:
        top = max(peaks.values())
        if peaks[final_world] < top:
            out.append(Problem("peak", f"world {final_world} does not hold the campaign's "
                               f"hardest level ({peaks[final_world]} < {top})"))
        if peaks[final_world] < final_peak:
            out.append(Problem("peak", f"world {final_world}'s hardest level has "
                               f"{peaks[final_world]} moves (at least {final_peak})"))
    return out
