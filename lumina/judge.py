"""The one judge: what a good Lumina level is (RULES.md, Generation and Quality).

The generator, the strategy bench and the verifier all ask this module, so the rules
of quality live in one place and none of those three imports another:

- thresholds: `MAX_PLANS`, `BEAM_MAX_PLANS`, `MAX_DEAD_SHARE`, `BEAM_MAX_DEAD_SHARE`
  (calibration in docs/RULES-DECISIONS.md, "Analysis and filters");
- the depth window: `band_reason` files a solved candidate against a band;
- exact and near duplicates: `signature`, `family_key` (invariant under the 8
  symmetries of the grid and translation), `NearIndex` (one block apart) and `Seen`,
  the one index of both;
- binding twists: `has_twist`, `binds`;
- the optimal-solution filters: `dead_share`, `judge_level` (unbound, plans,
  dead blocks, cheapest first);
- the whole chain of verdicts in its order: `screen` (the first failing one of
  `REASONS`);
- the measures a pack records per level: `analysis`;
- tutorials, curves and the campaign: `tutorial_problems`, `curve_problems`,
  `campaign_problems`.

Insight: a family key is the smallest of the 8 symmetric images of a board, each
translated so its contents start at (0, 0). These two 5x4 boards have one key:

    . . . . .          . . . . .
    A A B . . >        . . . . .         the right one is the left one
    . . B . .      < . B A A . .         mirrored left-right and moved down a row
    . . . . .          . B . . .         (the lantern moves with the board)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol, Sequence

from lumina.model import BEAM_STEP, MECHANICS, TWIST_KINDS, Analysis, Level, beam_start

# ---------------------------------------------------------------------------
# Thresholds (RULES.md Quality; the numbers are calibrated in docs/RULES-DECISIONS.md).

MAX_PLANS = 40                 # keeps 85.2% of rush-sample boards, 97-100% of candidates
BEAM_MAX_PLANS = 40            # beam candidates measured stay far below (at most 10)
MAX_DEAD_SHARE = 0.40          # non-key blocks that never move in any optimal solution
BEAM_MAX_DEAD_SHARE = 0.67     # beam layouts are pinned by the light path and mirrors
MIN_CHAIN_SHARE = 0.55         # chain / par floor, for levels of par MIN_CHAIN_SHARE_FROM or more
MIN_CHAIN_SHARE_FROM = 20      # (calibrated on the rush sample: docs/RULES-DECISIONS.md 34)

# Every reason a candidate level is turned away, in `screen`'s order (cheapest first):
# the solver's outcome, the band, duplicates, then the measured verdicts of `judge_level`.
LEVEL_REASONS = ("unbound", "plans", "dead_blocks")     # judge_level's, cheapest first
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
    both have these."""
    plans: int
    plans_capped: bool
    dead_blocks: tuple[int, ...]
    crystal_optimal: int | None


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


def _text(img: _Image, drop: int | None = None) -> str:
    """The image translated so its contents (blocks, walls, mirrors) start at (0, 0),
    without block `drop` when given; the lantern and the beam move with the board."""
    blocks = [b for i, b in enumerate(img.blocks) if i != drop]
    xs = [b[1] for b in blocks] + [w[0] for w in img.walls] + [m[0] for m in img.mirrors]
    ys = [b[2] for b in blocks] + [w[1] for w in img.walls] + [m[1] for m in img.mirrors]
    ox, oy = (min(xs), min(ys)) if xs else (0, 0)
    parts = [img.head, f"e{img.exit[0] - ox},{img.exit[1] - oy}"]
    if img.beam is not None:
        d, bx, by = img.beam
        parts.append(f"b{d}" if drop == img.key_index else f"b{d}{bx - ox},{by - oy}")
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


def _near_keys(level: Level) -> tuple[str, list[str]]:
    """(family key, the family key of the board without block i, for every i)."""
    imgs = _images(level)
    full = min(_text(img) for img in imgs)
    minus = [min(_text(img, drop=i) for img in imgs) for i in range(len(level.blocks))]
    return full, minus


class NearIndex:
    """Near duplicates (RULES.md Quality): two levels are near duplicates when, up to
    symmetry and translation, they are identical or one block apart (one block's
    kind, place or shape changed, or one block more or less).

    It indexes each added level's family key and the keys of the level without each
    one of its blocks; two levels one block apart share a key of the board without
    that block (or one's full key is the other's key without a block)."""

    def __init__(self) -> None:
        self._owner: dict[str, tuple[int, str]] = {}
        self._added = 0

    def __len__(self) -> int:
        return self._added

    def add(self, level: Level, owner: str) -> None:
        """Index `level` under `owner` (the first owner of a key keeps it)."""
        full, minus = _near_keys(level)
        for k in [full, *minus]:
            self._owner.setdefault(k, (self._added, owner))
        self._added += 1

    def find(self, level: Level) -> str | None:
        """The owner of the earliest added level `level` nearly duplicates, or None."""
        return self._find(*_near_keys(level))

    def _find(self, full: str, minus: list[str]) -> str | None:
        hits = [self._owner[k] for k in [full, *minus] if k in self._owner]
        return min(hits)[1] if hits else None


@dataclass(frozen=True)
class Match:
    """What a level repeats: `reason` "duplicate" (the same level text) or
    "near_duplicate"; `owner` the level it repeats; `same` True when the two are one
    puzzle up to symmetry and translation (equal family keys)."""
    reason: str
    owner: str
    same: bool


class Seen:
    """The one index of levels already shipped or accepted: exact duplicates (the same
    `signature`) and near duplicates (`NearIndex`), each answered with the first
    owner. The generator, the strategy bench and the verifier all ask it."""

    def __init__(self, levels: Iterable[Level] = ()) -> None:
        self._sigs: dict[str, str] = {}
        self._families: dict[str, str] = {}
        self._near = NearIndex()
        for lv in levels:
            self.add(lv)

    def __len__(self) -> int:
        return len(self._near)

    def add(self, level: Level, owner: str | None = None) -> None:
        """Index `level` under `owner` (default: its id); earlier owners keep their keys."""
        owner = level.id if owner is None else owner
        self._sigs.setdefault(signature(level), owner)
        self._families.setdefault(family_key(level), owner)
        self._near.add(level, owner)

    def find(self, level: Level) -> Match | None:
        """How `level` repeats an indexed level, or None when it does not."""
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


def judge_level(level: Level, measured: _Measured, *, beam: bool,
                optimal: int | None = None) -> str | None:
    """The rejection reason of a solved level, cheapest first: "unbound" (its twist
    does not bind), "plans" (more plans than the cap, or the count capped),
    "dead_blocks" (too large a share of non-key blocks never move), or None.

    `measured` is `lumina.engine.Measures` (its `optimal` is used) or a pack's
    `Analysis` (then the par is `optimal`, else `level.optimal`)."""
    par = getattr(measured, "optimal", None)
    if par is None:
        par = optimal if optimal is not None else level.optimal
    if not binds(level, measured.crystal_optimal, par):
        return "unbound"
    if measured.plans_capped or measured.plans > max_plans(beam):
        return "plans"
    if dead_share(level, measured.dead_blocks) > max_dead_share(beam):
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
           measured: Any = None, state_cap: int = 500_000) -> Verdict:
    """The one chain of verdicts, in REASONS order, cheapest first: the solver's outcome
    ("unsolvable", "exhausted"), the band ("already_solved", "under_band",
    "over_band"; "band_full" when `wanted(par)` is False), "duplicate" and
    "near_duplicate" of a level in `seen`, "unbound" (from `crystal_par`, the sweep's
    crystal par, before anything is measured), then `lumina.engine.measure` and
    `judge_level`. Stops at the first failing reason.

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
        hit = seen.find(level)
        reason = hit.reason if hit else None
    if reason is None and crystal_par is not None and not binds(level, crystal_par, optimal):
        reason = "unbound"
    if reason is not None:
        return Verdict(reason=reason, **v)
    m = measure(level) if measured is None else measured
    if m.optimal != optimal:
        raise AssertionError(f"{level.id}: measure() optimal {m.optimal} != BFS {optimal}")
    return Verdict(reason=judge_level(level, m, beam=level.win == "beam"), measures=m, **v)


def analysis(level: Level, m) -> Analysis:
    """The pack's per-level record of `lumina.engine.measure(level)` (`m`; its `forced`
    counted along the solution the level stores), with the level's label."""
    return Analysis(plans=m.plans, plans_capped=m.plans_capped, solutions=m.solutions,
                    solutions_capped=m.solutions_capped, dead_blocks=tuple(m.dead_blocks),
                    dead_share=dead_share(level, m.dead_blocks),
                    crystal_optimal=m.crystal_optimal,
                    first_moves_optimal=m.first_moves_optimal,
                    first_moves_legal=m.first_moves_legal,
                    component_states=m.component_states, traps=m.traps,
                    chain=m.chain, forced=m.forced, deepest=m.deepest,
                    optional_twist=m.optional_twist, mechanics=level.mechanics,
                    family=family_key(level))


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


def tutorial_problems(level: Level, m, mechanic: str) -> list[str]:
    """Why a tutorial does not teach its `mechanic` (RULES.md "Tutorials teach"),
    from its measures `m` (`lumina.engine.Measures`): a twist tutorial's crystal par
    must be below its par; the beam tutorial's key must move and its winning light
    turn at a mirror (at the end of an optimal solution); a crystal tutorial must
    make a blocker move; every tutorial has exactly one plan. An empty list: it
    teaches."""
    if mechanic not in MECHANICS:
        raise ValueError(f"mechanic must be one of {', '.join(MECHANICS)}, got {mechanic!r}")
    out = []
    if m.optimal is None:
        return ["tutorial is not solvable"]
    if m.plans_capped or m.plans != 1:
        out.append(f"tutorial has {m.plans}{'+' if m.plans_capped else ''} plans "
                   "(exactly one teaches)")
    if mechanic in TWIST_KINDS:
        if not any(b.kind == mechanic for b in level.blocks):
            out.append(f"{mechanic} tutorial has no {mechanic} block")
        elif m.crystal_optimal is None or not m.crystal_optimal < m.optimal:
            out.append(f"{mechanic} tutorial teaches nothing: crystal par "
                       f"{m.crystal_optimal} is not below par {m.optimal}")
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
