"""The one judge: what a good Lumina level is (RULES.md, Generation and Quality).

The generator, the strategy bench and the verifier all ask this module, so the rules
of quality live in one place and none of those three imports another:

- thresholds: `MAX_PLANS`, `BEAM_MAX_PLANS`, `MAX_DEAD_SHARE`, `BEAM_MAX_DEAD_SHARE`
  (calibration in docs/RULES-DECISIONS.md, "Analysis and filters");
- the depth window: `band_reason` files a solved candidate against a band;
- exact and near duplicates: `signature`, `family_key` (invariant under the 8
  symmetries of the grid and translation), `NearIndex` (one block apart) and `Seen`,
  the one index of both, on whole boards and on live boards (`decoys` aside);
- binding twists and twist strength: `has_twist`, `binds`, `MARGIN_FLOOR`,
  `margin_floor`, `dead_twists`;
- the optimal-solution filters: `dead_share`, `judge_level` (`LEVEL_REASONS`:
  unbound, margin, dead twist, optional twist, not the board's deepest start, chain,
  plans, dead blocks; docs/RULES-DECISIONS.md 35);
- the whole chain of verdicts in its order: `screen` (the first failing one of
  `REASONS`);
- the measures a pack records per level: `analysis`;
- tutorials, labels, curves, margins and the campaign: `tutorial_problems`,
  `label_problems`, `world_label_problems`, `world_margin_problems`, `curve_problems`,
  `campaign_problems`.

Insight: a family key is the smallest of the 8 symmetric images of a board, each
translated so its contents start at (0, 0). These two 5x4 boards have one key:

    . . . . .          . . . . .
    A A B . . >        . . . . .         the right one is the left one
    . . B . .      < . B A A . .         mirrored left-right and moved down a row
    . . . . .          . B . . .         (the lantern moves with the board)
"""
from __future__ import annotations

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
MARGIN_FLOOR = {"sand": 2, "rime": 2, "ice": 1}
LAST_MARGINS = 5               # a world's margin target `last` holds for its last this-many

# Every reason a candidate level is turned away, in `screen`'s order (cheapest first):
# the solver's outcome, the band, duplicates, then the measured verdicts of `judge_level`.
LEVEL_REASONS = ("unbound", "margin", "dead_twist", "optional_twist", "not_deepest", "chain",
                 "plans", "dead_blocks")                # judge_level's, in its order
# The verdicts of the rules before issue 17 (lumina-gen/3): what packs made under them
# are judged by when their generator is marked older (`lumina.verify.DESIGNED_SINCE`).
GEN3_LEVEL_REASONS = ("unbound", "plans", "dead_blocks")
REASONS = ("unsolvable", "exhausted", "already_solved", "under_band", "over_band", "band_full",
           "duplicate", "near_duplicate", *LEVEL_REASONS)
# What a re-solved candidate turned out to be (band_reason's classes, or in band), and
# the verdicts an in-band candidate then meets, in screen's order: the strategy table's
# columns (lumina.strategies writes them, the site's "How levels are made" page shows them).
CLASSES = ("already_solved", "under_band", "in_band", "over_band", "unsolvable", "exhausted")
FILTERS = tuple(r for r in REASONS if r not in CLASSES and r != "band_full")

# Curve rules (RULES.md "The curve climbs"; numbers from issue 9). The campaign's own
# peaks (the first world's and the last world's) are the campaign file's `[curve]`.
MAX_DIP = 2            # a level may be at most this much easier than the hardest before it
MAX_HOLE = 3           # consecutive distinct pars of a world differ by at most this
PEAK_WINDOW = 5        # a world's hardest par appears among its last this-many levels


class _Measured(Protocol):
    """What `judge_level` reads: `lumina.engine.Measures` and `lumina.model.Analysis`
    both have these (an Analysis of a pack older than lumina-gen/4 holds None for
    `chain`, `deepest` and `optional_twist`)."""
    plans: int
    plans_capped: bool
    dead_blocks: tuple[int, ...]
    crystal_optimal: int | None
    chain: int | None
    deepest: int | None
    optional_twist: bool | None


def max_plans(beam: bool) -> int:
    return BEAM_MAX_PLANS if beam else MAX_PLANS


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


def _text(img: _Image, drop: frozenset[int] = frozenset()) -> str:
    """The image translated so its contents (blocks, walls, mirrors) start at (0, 0),
    without the blocks of `drop`; the lantern and the beam move with the board."""
    blocks = [b for i, b in enumerate(img.blocks) if i not in drop]
    xs = [b[1] for b in blocks] + [w[0] for w in img.walls] + [m[0] for m in img.mirrors]
    ys = [b[2] for b in blocks] + [w[1] for w in img.walls] + [m[1] for m in img.mirrors]
    ox, oy = (min(xs), min(ys)) if xs else (0, 0)
    parts = [img.head, f"e{img.exit[0] - ox},{img.exit[1] - oy}"]
    if img.beam is not None:
        d, bx, by = img.beam
        parts.append(f"b{d}" if img.key_index in drop else f"b{d}{bx - ox},{by - oy}")
    parts.append(".".join(f"{k[0]}{x - ox},{y - oy},{w},{h}" for k, x, y, w, h in sorted(blocks)))
    parts.append("w" + ".".join(f"{x - ox},{y - oy}" for x, y in sorted(img.walls)))
    parts.append("m" + ".".join(f"{x - ox},{y - oy}{'f' if t == '/' else 'b'}"
                                for x, y, t in sorted(img.mirrors)))
    return ":".join(parts)


def family_key(level: Level) -> str:
    """The board's canonical text, the same for every mirror, rotation and
    transposition (6x5 and 5x6 are one grid) and every translation of its contents
    with the lantern: block kinds, shapes and places, walls, mirrors (tilts turned
    with the board), lantern, win kind, beam direction and start. Not the par, id
    or any metadata. Equal keys: the same puzzle up to symmetry and translation."""
    return min(_text(img) for img in _images(level))


def decoys(level: Level, dead: Iterable[int] | None = None) -> frozenset[int]:
    """The blocks near duplicates do not count (RULES.md Quality, "Near duplicates"):
    the non-key blocks among `dead` (default: the dead blocks of the level's stored
    analysis, none without one)."""
    if dead is None:
        dead = level.analysis.dead_blocks if level.analysis is not None else ()
    key = level.key_index
    return frozenset(i for i in dead if i != key and 0 <= i < len(level.blocks))


def _near_keys(level: Level, drop: frozenset[int] = frozenset()) -> tuple[str, list[str]]:
    """(the family key of the board without the blocks of `drop`, and of that board
    without one more block i, for every other block i)."""
    imgs = _images(level)
    full = min(_text(img, drop) for img in imgs)
    minus = [min(_text(img, drop | {i}) for img in imgs)
             for i in range(len(level.blocks)) if i not in drop]
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

    def find(self, level: Level, dead: Iterable[int] | None = None) -> Match | None:
        """How `level` repeats an indexed level, or None when it does not: an exact
        duplicate, a near duplicate of the whole board, or (when `level`'s decoys are
        known: `dead`, default the stored analysis' dead blocks) of its live blocks."""
        return self.find_board(level) or self.find_live(level, dead)

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


def judge_level(level: Level, measured: _Measured, *, beam: bool,
                optimal: int | None = None, margin: int = 0,
                reasons: Collection[str] = LEVEL_REASONS) -> str | None:
    """The rejection reason of a solved level, in LEVEL_REASONS order, or None:

    - "unbound": a twist level whose par is not above its crystal par;
    - "margin": its twist margin (par - crystal par) under max(`margin`, the
      board's `margin_floor`);
    - "dead_twist": a sand, ice or rime block moves in no optimal solution;
    - "optional_twist": some optimal solution moves no twist block;
    - "not_deepest": the start is not its board's deepest (`deepest` unknown, or not
      equal to par: RULES.md "The hardest start");
    - "chain": par at least MIN_CHAIN_SHARE_FROM and chain / par under
      MIN_CHAIN_SHARE (an unknown chain is turned away);
    - "plans": more plans than the cap, or the count capped;
    - "dead_blocks": too large a share of non-key blocks never move.

    `measured` is `lumina.engine.Measures` (its `optimal` is used) or a pack's
    `Analysis` (then the par is `optimal`, else `level.optimal`). An Analysis of a pack
    older than lumina-gen/4 holds None for the chain, the deepest and the optional
    twist: those checks are skipped for it (never for Measures, where None means the
    measure could not tell)."""
    par = getattr(measured, "optimal", None)
    if par is None:
        par = optimal if optimal is not None else level.optimal
    recorded = isinstance(measured, Analysis)     # None there: not recorded (old pack)
    twist = has_twist(level)
    on = set(reasons).__contains__
    if on("unbound") and not binds(level, measured.crystal_optimal, par):
        return "unbound"
    if (on("margin") and twist and measured.crystal_optimal is not None
            and par - measured.crystal_optimal < max(margin, margin_floor(level))):
        return "margin"
    if on("dead_twist") and twist and dead_twists(level, measured.dead_blocks):
        return "dead_twist"
    if on("optional_twist") and twist and measured.optional_twist:
        return "optional_twist"
    deepest = measured.deepest
    if on("not_deepest") and not (recorded and deepest is None) and deepest != par:
        return "not_deepest"
    chain = measured.chain
    if on("chain") and (chain_low(chain, par) if chain is not None else not recorded):
        return "chain"
    if on("plans") and (measured.plans_capped or measured.plans > max_plans(beam)):
        return "plans"
    if on("dead_blocks") and dead_share(level, measured.dead_blocks) > max_dead_share(beam):
        return "dead_blocks"
    return None


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """`screen`'s answer: the first failing reason (None: the level ships), the proven
    par and one optimal solution (when solved), and the measures (when reached)."""
    reason: str | None
    optimal: int | None = None
    moves: tuple[tuple[int, int], ...] = ()
    measures: Any = None


def screen(level: Level, *, seen: Seen | None = None, band: tuple[int, int] | None = None,
           wanted: Callable[[int], bool] | None = None, crystal_par: int | None = None,
           optimal: int | None = None, moves: tuple[tuple[int, int], ...] = (),
           measured: Any = None, state_cap: int = 500_000, margin: int = 0) -> Verdict:
    """The one chain of verdicts, in REASONS order, cheapest first: the solver's outcome
    ("unsolvable", "exhausted"), the band ("already_solved", "under_band",
    "over_band"; "band_full" when `wanted(par)` is False), "duplicate" and
    "near_duplicate" of a whole board in `seen`, "unbound" and "margin" (from
    `crystal_par`, the sweep's crystal par, before anything is measured), then
    `lumina.engine.measure` (with the board's deepest), "near_duplicate" on the live
    blocks (decoys left out: `Seen.find_live`), and `judge_level` (with `margin`, the
    bucket's least twist margin). Stops at the first failing reason.

    `optimal` (with `moves`) and `measured` skip the solve and the measure when the
    caller has them already (the verifier, which solved and measured afresh)."""
    from lumina.engine import Outcome, measure, solve
    if optimal is None:
        sol = solve(level, state_cap=state_cap)
        if sol.outcome is not Outcome.SOLVED:
            return Verdict(reason=sol.outcome.value)
        optimal, moves = sol.optimal, sol.moves
    v = dict(optimal=optimal, moves=moves)
    reason = band_reason(optimal, band) if band is not None else None
    if reason is None and wanted is not None and not wanted(optimal):
        reason = "band_full"
    if reason is None and seen is not None:
        hit = seen.find_board(level)
        reason = hit.reason if hit else None
    if reason is None and crystal_par is not None and has_twist(level):
        if not binds(level, crystal_par, optimal):
            reason = "unbound"
        elif optimal - crystal_par < max(margin, margin_floor(level)):
            reason = "margin"
    if reason is not None:
        return Verdict(reason=reason, **v)
    m = measure(level) if measured is None else measured
    if m.optimal != optimal:
        raise AssertionError(f"{level.id}: measure() optimal {m.optimal} != BFS {optimal}")
    if seen is not None:
        hit = seen.find_live(level, dead=m.dead_blocks)
        if hit is not None:
            return Verdict(reason=hit.reason, measures=m, **v)
    return Verdict(reason=judge_level(level, m, beam=level.win == "beam", margin=margin),
                   measures=m, **v)


def analysis(level: Level, m) -> Analysis:
    """The pack's per-level record of `lumina.engine.measure(level)` (`m`; its `forced`
    counted along the solution the level stores), with the level's label: every field
    `Analysis` declares, by its `measure=`, else the judge's rule (`JUDGED`), else the
    engine's attribute of its name."""
    def value(s: schema.Spec) -> Any:
        how = s.measure or JUDGED.get(s.name)
        v = how(level, m) if how else getattr(m, s.name)
        return tuple(v) if isinstance(v, list) else v
    return Analysis(**{s.name: value(s) for s in schema.specs(Analysis)})


#: The analysis fields the judge computes (the rest are the engine's or the level's).
JUDGED: dict[str, Callable[[Level, Any], Any]] = {
    "dead_share": lambda level, m: dead_share(level, m.dead_blocks),
    "family": lambda level, m: family_key(level),
}


# ---------------------------------------------------------------------------
# Tutorials, curves, the campaign.

def _winning_path(level: Level) -> tuple[bool, set[tuple[int, int]]]:
    """The beam's cells at the end of an optimal solution found afresh (the stored
    one is the verifier's to check, and may be wrong)."""
    from lumina.engine import Board, solve
    board = Board(level)
    s = board.start
    for mv in solve(level).moves:
        s = board.apply(s, mv)
    lit, cells = board.beam(s)
    return bool(lit), set(map(tuple, cells))


def tutorial_problems(level: Level, m, mechanic: str, *, designed: bool = True) -> list[str]:
    """Why a tutorial does not teach its `mechanic` (RULES.md "Tutorials teach"),
    from its measures `m` (`lumina.engine.Measures`): a twist tutorial's crystal par
    must be below its par by at least its board's `margin_floor`; the beam tutorial's
    key must move and its winning light turn at a mirror (at the end of an optimal
    solution); a crystal tutorial must make a blocker move; every tutorial has
    exactly one plan and starts at its board's deepest (RULES.md "The hardest
    start"). An empty list: it teaches. `designed=False`: the rules before issue 17
    (no hardest start, no margin floor), for packs marked older."""
    if mechanic not in MECHANICS:
        raise ValueError(f"mechanic must be one of {', '.join(MECHANICS)}, got {mechanic!r}")
    out = []
    if m.optimal is None:
        return ["tutorial is not solvable"]
    if m.plans_capped or m.plans != 1:
        out.append(f"tutorial has {m.plans}{'+' if m.plans_capped else ''} plans "
                   "(exactly one teaches)")
    if designed and m.deepest != m.optimal:
        out.append(f"tutorial does not start at its board's deepest: par {m.optimal}, the "
                   f"board's deepest {'unknown' if m.deepest is None else m.deepest}")
    if mechanic in TWIST_KINDS:
        if not any(b.kind == mechanic for b in level.blocks):
            out.append(f"{mechanic} tutorial has no {mechanic} block")
        elif m.crystal_optimal is None or not m.crystal_optimal < m.optimal:
            out.append(f"{mechanic} tutorial teaches nothing: crystal par "
                       f"{m.crystal_optimal} is not below par {m.optimal}")
        elif designed and m.optimal - m.crystal_optimal < margin_floor(level):
            out.append(f"{mechanic} tutorial's twist margin {m.optimal - m.crystal_optimal} "
                       f"is under {margin_floor(level)}")
    elif mechanic == "beam":
        if level.win != "beam":
            out.append("beam tutorial is not a beam level")
        else:
            if level.key_index in m.dead_blocks or m.optimal == 0:
                out.append("beam tutorial's key never moves")
            lit, cells = _winning_path(level)
            if not lit or not any((mr.x, mr.y) in cells for mr in level.mirrors):
                out.append("beam tutorial's winning light does not turn at a mirror")
    else:
        moved = [i for i, b in enumerate(level.blocks)
                 if b.kind != "key" and i not in m.dead_blocks]
        if not moved:
            out.append("crystal tutorial teaches nothing: no blocker moves")
    return out


def world_margin_problems(margins: Sequence[int], *, median: int, last: int,
                          label: str) -> list[str]:
    """A twist world's margin targets (issue 17; the campaign file's `margin`), given
    the twist margins of its levels in order (tutorial excluded): the median of all at
    least `median`, and each of the last LAST_MARGINS at least `last` (0: no target)."""
    out = []
    if not margins:
        return out
    mid = statistics.median(margins)
    if median and mid < median:
        out.append(f"{label}: twist margin median {num_text(mid)} is under {median}")
    if last:
        tail = list(margins)[-LAST_MARGINS:]
        low = [x for x in tail if x < last]
        if low:
            out.append(f"{label}: twist margins of the last {len(tail)} levels "
                       f"{' '.join(map(str, tail))}: {len(low)} under {last}")
    return out


def num_text(x: float) -> str:
    """A whole number without its ".0"; else as short as it reads."""
    return str(int(x)) if x == int(x) else f"{x:g}"


def label_problems(level: Level) -> list[str]:
    """RULES.md "Labels tell the truth": the label the level's analysis records
    (`analysis.mechanics`) names exactly the kinds on its board (`Level.mechanics`).
    A level without a recorded label (a pack older than lumina-gen/4) has none."""
    a = level.analysis
    if a is None or a.mechanics is None or tuple(a.mechanics) == level.mechanics:
        return []
    return [f"label {', '.join(a.mechanics)} is not the board's: {', '.join(level.mechanics)}"]


def world_label_problem(mechanic: str, level: Level) -> str | None:
    """Why `level` breaks its world's label `mechanic` (see `world_label_problems`),
    or None."""
    if mechanic not in MECHANICS:
        raise ValueError(f"mechanic must be one of {', '.join(MECHANICS)}, got {mechanic!r}")
    if mechanic in level.mechanics:
        return None
    return f"a {mechanic} world's level, but its board is {', '.join(level.mechanics)}"


def world_label_problems(mechanic: str, levels: Iterable[Level]) -> list[str]:
    """A world's label holds for its levels (RULES.md "Labels tell the truth"): every
    level of a `mechanic` world carries it (a beam world's are beam levels, its finale
    included; a crystal world's carry no twist and no beam). One "id: why" per level
    that does not."""
    return [f"{lv.id}: {why}" for lv in levels
            if (why := world_label_problem(mechanic, lv)) is not None]


def curve_problems(pars: Sequence[int], label: str) -> list[str]:
    """A world's curve (its levels' pars in order, the tutorial excluded): no dip of
    more than MAX_DIP below the hardest level before, no hole of more than MAX_HOLE
    between consecutive distinct pars, and the hardest among the last PEAK_WINDOW."""
    out = []
    best = None
    for n, p in enumerate(pars, 1):
        if best is not None and p < best - MAX_DIP:
            out.append(f"{label}: level {n} dips to {p} after {best} (at most {MAX_DIP} below)")
        best = p if best is None else max(best, p)
    distinct = sorted(set(pars))
    for a, b in zip(distinct, distinct[1:]):
        if b - a > MAX_HOLE:
            out.append(f"{label}: curve has a hole: no level between {a} and {b} moves "
                       f"(at most {MAX_HOLE} apart)")
    if pars and max(pars) not in pars[-PEAK_WINDOW:]:
        out.append(f"{label}: the hardest level ({max(pars)} moves) is not among the last "
                   f"{PEAK_WINDOW}")
    return out


def campaign_problems(worlds_pars: dict[int, Sequence[int]], *, first_peak: int,
                      final_world: int, final_peak: int) -> list[str]:
    """The campaign's shape over the worlds given (number -> pars, tutorials
    excluded): each world's hardest above the previous world's; World 1's hardest at
    least `first_peak`; world `final_world` (the campaign's last) holds the campaign's
    hardest, at least `final_peak`."""
    peaks = {n: max(p) for n, p in sorted(worlds_pars.items()) if p}
    out = []
    nums = sorted(peaks)
    for a, b in zip(nums, nums[1:]):
        if peaks[b] <= peaks[a]:
            out.append(f"world {b}'s hardest level ({peaks[b]} moves) is not harder than "
                       f"world {a}'s ({peaks[a]})")
    if 1 in peaks and peaks[1] < first_peak:
        out.append(f"world 1's hardest level has {peaks[1]} moves (at least {first_peak})")
    if final_world in peaks:
        top = max(peaks.values())
        if peaks[final_world] < top:
            out.append(f"world {final_world} does not hold the campaign's hardest level "
                       f"({peaks[final_world]} < {top})")
        if peaks[final_world] < final_peak:
            out.append(f"world {final_world}'s hardest level has {peaks[final_world]} moves "
                       f"(at least {final_peak})")
    return out
