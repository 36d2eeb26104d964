"""The level model: frozen dataclasses for a Lumina level and its JSON form.

A `Level` validates itself when it is built, so a `Level` object that exists is a
level every engine (Cython, JavaScript) can play without crashing. `LevelError`
names the level id and the field at fault.

There is exactly one copy path, `Level.replace` (which is `dataclasses.replace`):
anything not named is carried, so no rebuild can drop a field (the article's
World 5 lost its win condition in a hand-written copy).

Insight: the board is a grid with the origin top-left; x grows right, y down.

    x: 0 1 2 3 4 5
    y0 . . . . . .
    y1 . . B . . .      B: {kind: crystal, x: 2, y: 1, w: 1, h: 2} (vertical)
    y2 A A B . . . >    A: {kind: key, x: 0, y: 2, w: 2, h: 1}; exit {right, 2}
    y3 . . . . # .      #: wall [4, 3]
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable

from lumina import schema as S
from lumina.schema import MAX_TEXT, SAFE_ID, escape_text, field, short

TWIST_KINDS = ("sand", "ice", "rime")     # the kinds whose rules differ from crystal
KINDS = ("key", "crystal", *TWIST_KINDS)
MECHANICS = ("crystal", *TWIST_KINDS, "beam")   # a level's label, in this order
FLAG_KINDS = ("sand", "rime")       # kinds that carry a spent/thawed bit in the state
SIDES = ("left", "right", "top", "bottom")
DIRS = ("N", "E", "S", "W")
TILTS = ("/", "\\")
# The letters of the desc text form (grammar in lumina/desc.py, twin in static/desc.js).
KIND_LETTERS = {"key": "K", "crystal": "C", "sand": "S", "ice": "I", "rime": "R"}
SIDE_LETTERS = {"left": "L", "right": "R", "top": "T", "bottom": "B"}
TILT_LETTERS = {"/": "f", "\\": "b"}
WINS = ("exit", "beam")
MIN_GRID, MAX_GRID = 4, 8
MAX_MOVABLE = 16
MAX_KEY_BITS = 64
COORD_BITS = 3


def check_text(lid: str, field: str, v: Any) -> str:
    """A display string: at most MAX_TEXT printable characters (no control or format
    characters, line separators or lone surrogates: they break a line or UTF-8)."""
    why = S.text_problem(v)
    if why:
        raise LevelError(lid, field, why)
    return v


class LevelError(ValueError):
    """A level failed validation. The message names the level id and the field; the
    id is shortened and escaped (`short`), so the message is one short line."""

    def __init__(self, level_id: str, field: str, message: str):
        self.level_id = level_id
        self.field = field
        self.message = message
        super().__init__(f"level {short(level_id)}: {field}: {message}")


# The records below declare their JSON form field by field (`lumina.schema.field`): the
# one schema that reading, checking, canonical writing and the verifier's diff follow.

@dataclass(frozen=True, kw_only=True)
class Block:
    kind: str = field(S.choice(*KINDS))
    x: int = field(S.integer())
    y: int = field(S.integer())
    w: int = field(S.integer(1))
    h: int = field(S.integer(1))

    @property
    def horizontal(self) -> bool:
        """True when the block slides along x (it is wider than tall)."""
        return self.w > self.h

    def cells(self) -> list[tuple[int, int]]:
        return [(self.x + i, self.y + j) for j in range(self.h) for i in range(self.w)]


@dataclass(frozen=True, kw_only=True)
class Exit:
    side: str = field(S.choice(*SIDES))
    index: int = field(S.integer())


@dataclass(frozen=True, kw_only=True)
class Beam:
    dir: str = field(S.choice(*DIRS))
    offset: int = field(S.integer())


@dataclass(frozen=True, kw_only=True)
class Mirror:
    x: int = field(S.integer())
    y: int = field(S.integer())
    tilt: str = field(S.choice(*TILTS))


# The light's geometry (RULES.md Winning), written once for Python: where it leaves
# the key, how a mirror turns it, and the random walk of light the generators lay out.
BEAM_STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def beam_start(key: Block, beam: Beam) -> tuple[int, int]:
    """The beam's first cell for the key where it stands."""
    return {"E": (key.x + key.w, key.y + beam.offset), "W": (key.x - 1, key.y + beam.offset),
            "S": (key.x + beam.offset, key.y + key.h), "N": (key.x + beam.offset, key.y - 1)
            }[beam.dir]


def mirror_turn(dx: int, dy: int, tilt: str) -> tuple[int, int]:
    """The light's new step after a mirror of `tilt` ("/" or "\\")."""
    return (-dy, -dx) if tilt == "/" else (dy, dx)


def exit_at(x: int, y: int, width: int, height: int) -> Exit:
    """The lantern at the cell (x, y) just outside a width x height grid."""
    if x < 0:
        return Exit(side="left", index=y)
    if x >= width:
        return Exit(side="right", index=y)
    if y < 0:
        return Exit(side="top", index=x)
    return Exit(side="bottom", index=x)


def trace_light(width: int, height: int, key: Block, beam: Beam,
                turn: Callable[[int, int, int], str | None]
                ) -> tuple[list[tuple[int, int]], tuple[int, int] | None]:
    """The one light tracer of the generator: walk the key's light from its face,
    turning where `turn(x, y, cells so far)` names a tilt, until it leaves the grid.
    Returns the cells it crosses, in order, and the point just outside the grid where
    it leaves (None when it meets the key or its own path first)."""
    x, y = beam_start(key, beam)
    dx, dy = BEAM_STEP[beam.dir]
    keycells = set(key.cells())
    path: list[tuple[int, int]] = []
    while 0 <= x < width and 0 <= y < height:
        if (x, y) in keycells or (x, y) in path:
            return path, None
        tilt = turn(x, y, len(path))
        if tilt is not None:
            dx, dy = mirror_turn(dx, dy, tilt)
        path.append((x, y))
        x, y = x + dx, y + dy
    return path, (x, y)


def light_path(level: "Level") -> set[tuple[int, int]]:
    """The cells the light crosses in `level` as laid out (the key where it stands)."""
    tilt = {(m.x, m.y): m.tilt for m in level.mirrors}
    path, _ = trace_light(level.width, level.height, level.key, level.beam,
                          lambda x, y, n: tilt.get((x, y)))
    return set(path)


def random_light(rng: Any, width: int, height: int, key: Block, beam: Beam,
                 mirrors: tuple[int, int]) -> tuple[list[tuple[int, int]], list[Mirror], Exit] | None:
    """Trace the key's light to the boundary, turning at up to rng.randint(*mirrors)
    mirrors placed at random (a turn with chance 0.45 per cell after the first):
    the cells it crosses, the mirrors, and the lantern where it leaves. None when the
    light meets the key or its own path, or turns fewer than mirrors[0] times, or
    crosses fewer than 2 cells."""
    want = rng.randint(*mirrors)
    placed: list[Mirror] = []

    def turn(x: int, y: int, n: int) -> str | None:
        if len(placed) < want and n and rng.random() < 0.45:
            placed.append(Mirror(x=x, y=y, tilt=rng.choice(("/", "\\"))))
            return placed[-1].tilt
        return None

    path, end = trace_light(width, height, key, beam, turn)
    if end is None or len(placed) < mirrors[0] or len(path) < 2:
        return None
    return path, placed, exit_at(*end, width, height)


def _label(v: Any, where: str) -> tuple[str, ...]:
    """A mechanics label: known mechanics once each, in `MECHANICS` order."""
    label = S.tuple_of(S.choice(*MECHANICS))(v, where)
    if not label or list(label) != sorted(set(label), key=MECHANICS.index):
        raise S.Bad(where, "must list mechanics once each, in the order "
                    f"{', '.join(MECHANICS)}; got {short(list(label))}")
    return label


@dataclass(frozen=True, kw_only=True)
class Analysis:
    """What makes a level hard, measured by `lumina.engine.measure` (RULES.md, Quality).

    Written per level by the generator, re-measured and compared by the verifier. The
    one declaration of the pack's analysis record (README "The schema"): each field's
    check, and how `lumina.judge.analysis` computes it (`measure=`; by default the
    engine's `Measures` attribute of the same name). Adding a measure is one line here plus its
    computation; packs, verify's diff, `solve --json` and the editor follow. (`dead_share`
    and `family` are the judge's to compute: `lumina.judge.JUDGED`.)"""
    plans: int = field(S.integer())   # optimal solutions up to swapping commuting adjacent moves
    plans_capped: bool = field(S.flag)      # True when `plans` hit the cap
    solutions: int = field(S.integer())     # raw optimal move sequences (exact up to the cap)
    solutions_capped: bool = field(S.flag)  # True when `solutions` hit the cap
    dead_blocks: tuple[int, ...] = field(S.tuple_of(S.integer()))
    #                                         blocks that never move in any optimal solution
    dead_share: float = field(S.real(0, 1))
    #                                         dead non-key blocks / non-key blocks
    crystal_optimal: int | None = field(S.nullable(S.integer()), default=None)
    #                                         par with sand, ice and rime as crystal (None: no twist)
    first_moves_optimal: int = field(S.integer())   # distinct optimal first moves
    first_moves_legal: int = field(S.integer())     # legal first moves
    component_states: int = field(S.integer())      # states reachable from the start
    traps: int = field(S.integer())   # of those, states from which no win is reachable
    # Recorded since lumina-gen/4 (None: a pack written before; a pack holds all or none):
    chain: int | None = field(S.integer(), default=None, group="gen4")
    #                                         least over plans of the plan's dependency height
    forced: int | None = field(S.integer(), default=None, group="gen4")
    #                                         moves of the stored solution with one optimal move
    deepest: int | None = field(S.integer(), default=None, group="gen4")
    #                                         the board's deepest par (binding starts on twist levels)
    optional_twist: bool | None = field(S.flag, default=None, group="gen4")
    #                                         some optimal solution moves no sand, ice or rime
    mechanics: tuple[str, ...] | None = field(_label, default=None, group="gen4",
                                              measure=lambda level, m: level.mechanics)
    #                                         the label: `Level.mechanics`
    # The felt difficulty (`lumina.playtest.felt`, computed by `lumina.judge.analysis`):
    # both or neither on read; the verifier requires them of every pack.
    effort: float | None = field(S.real(0, S.MAX_COUNT), default=None, group="felt")
    #                                         the board-only player's actions per win
    success: float | None = field(S.real(0, 1), default=None, group="felt")
    #                                         and its share of runs that win
    family: str = field(S.text)       # near-duplicate family key


# Analysis fields recorded since generator lumina-gen/4: all of them, or none (older packs)
GEN4_MEASURES = tuple(s.key for s in S.specs(Analysis) if s.group == "gen4")
# The felt-difficulty figures (`lumina.playtest.felt`): both or neither on read
FELT_MEASURES = tuple(s.key for s in S.specs(Analysis) if s.group == "felt")


@dataclass(frozen=True, kw_only=True)
class Level:
    """One level. The fields are declared in the order of its canonical JSON object
    (RULES.md): defaults and empties are left out of it."""
    id: str = field(S.name)
    width: int = field(S.integer())
    height: int = field(S.integer())
    exit: Exit = field(S.record(Exit))
    win: str = field(S.choice(*WINS), default="exit")
    beam: Beam | None = field(S.record(Beam), default=None)
    walls: tuple[tuple[int, int], ...] = field(
        S.tuple_of(S.pair(S.integer(), S.integer(), "[x, y]")), default=())
    mirrors: tuple[Mirror, ...] = field(S.tuple_of(S.record(Mirror)), default=())
    blocks: tuple[Block, ...] = field(S.tuple_of(S.record(Block)))
    optimal: int | None = field(S.integer(), default=None)
    solution: tuple[tuple[int, int], ...] | None = field(
        S.tuple_of(S.pair(S.integer(), S.nonzero(-S.MAX_COUNT, S.MAX_COUNT),
                          "[block, distance]")), default=None)
    name: str | None = field(S.nullable(S.text), default=None)
    tutorial: bool = field(S.flag, default=False)
    analysis: Analysis | None = field(S.record(Analysis), default=None)

    def __post_init__(self) -> None:
        _validate(self)

    # -- the one copy path -------------------------------------------------
    def replace(self, **changes: Any) -> "Level":
        """A copy with `changes`; every field not named is carried."""
        return dataclasses.replace(self, **changes)

    # -- derived views -------------------------------------------------------
    @property
    def key_index(self) -> int:
        return next(i for i, b in enumerate(self.blocks) if b.kind == "key")

    @property
    def key(self) -> Block:
        return self.blocks[self.key_index]

    def count(self, kind: str) -> int:
        return sum(1 for b in self.blocks if b.kind == kind)

    @property
    def mechanics(self) -> tuple[str, ...]:
        """The level's truthful label (RULES.md "Labels tell the truth"), in `MECHANICS`
        order: every twist kind on the board, plus "beam" on a beam level; ("crystal",)
        when there is neither."""
        kinds = {b.kind for b in self.blocks}
        out = tuple(k for k in TWIST_KINDS if k in kinds) + (("beam",) if self.win == "beam" else ())
        return out or ("crystal",)

    @property
    def state_bits(self) -> int:
        flags = sum(1 for b in self.blocks if b.kind in FLAG_KINDS)
        return COORD_BITS * len(self.blocks) + flags

    # -- JSON ------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The canonical JSON object of RULES.md (defaults and empties omitted):
        `lumina.schema.write` of the declaration above."""
        return S.write(self)

    @classmethod
    def from_json(cls, data: Any) -> "Level":
        """Parse and validate one level object; raises `LevelError` naming the field."""
        return _parse(data)

    # -- the desc text form (read by lumina.desc.from_desc) ----------------------
    def desc(self) -> str:
        """The desc of the level's puzzle (id and metadata are not part of it):
        `6x5-R2-K0221I2113-w30-m41f-bE0`, the grammar in lumina/desc.py."""
        parts = [f"{self.width}x{self.height}", f"{SIDE_LETTERS[self.exit.side]}{self.exit.index}",
                 "".join(f"{KIND_LETTERS[b.kind]}{b.x}{b.y}{b.w}{b.h}" for b in self.blocks)]
        if self.walls:
            parts.append("w" + "".join(f"{x}{y}" for x, y in self.walls))
        if self.mirrors:
            parts.append("m" + "".join(f"{m.x}{m.y}{TILT_LETTERS[m.tilt]}" for m in self.mirrors))
        if self.win == "beam":
            assert self.beam is not None
            parts.append(f"b{self.beam.dir}{self.beam.offset}")
        return "-".join(parts)


# ---------------------------------------------------------------------------
# Parsing: JSON types -> dataclasses by the declared schema, every field named.

def _int(lid: str, field: str, v: Any, *, minimum: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise LevelError(lid, field, f"must be an integer, got {v!r}")
    if v < minimum:
        raise LevelError(lid, field, f"must be >= {minimum}, got {v}")
    return v


def _choice(lid: str, field: str, v: Any, choices: tuple[str, ...]) -> str:
    if v not in choices:
        raise LevelError(lid, field, f"must be one of {', '.join(choices)}; got {v!r}")
    return v


def _parse(data: Any) -> Level:
    if not isinstance(data, dict):
        raise LevelError("?", "level", f"must be an object, got {type(data).__name__}")
    lid = data.get("id", "?")
    try:
        S.name(lid, "id")
    except S.Bad as e:
        raise LevelError("?", "id", e.why) from None
    try:
        return S.read(Level, data)
    except S.Bad as e:
        raise LevelError(lid, e.where, e.why) from None


# ---------------------------------------------------------------------------
# Semantic validation (also run for levels built in code).

def _validate(lv: Level) -> None:
    lid = lv.id
    if not isinstance(lid, str) or not SAFE_ID.fullmatch(lid):
        raise LevelError("?", "id", f"must be 1-64 letters, digits, '.', '_' or '-', got "
                         f"{short(repr(lid))}")
    for f in ("width", "height"):
        v = _int(lid, f, getattr(lv, f))
        if not MIN_GRID <= v <= MAX_GRID:
            raise LevelError(lid, f, f"must be between {MIN_GRID} and {MAX_GRID}, got {v}")
    W, H = lv.width, lv.height
    _choice(lid, "win", lv.win, WINS)
    _choice(lid, "exit.side", lv.exit.side, SIDES)
    limit = H if lv.exit.side in ("left", "right") else W
    if not 0 <= _int(lid, "exit.index", lv.exit.index) < limit:
        raise LevelError(lid, "exit.index", f"{lv.exit.index} is not on the {lv.exit.side} "
                         f"boundary (must be 0..{limit - 1})")
    occupied: dict[tuple[int, int], str] = {}

    def claim(cell: tuple[int, int], what: str, field: str) -> None:
        x, y = cell
        if not (0 <= x < W and 0 <= y < H):
            raise LevelError(lid, field, f"{what} at ({x}, {y}) is outside the {W}x{H} grid")
        if cell in occupied:
            raise LevelError(lid, field, f"{what} overlaps {occupied[cell]} at ({x}, {y})")
        occupied[cell] = what

    for i, (x, y) in enumerate(lv.walls):
        _int(lid, f"walls[{i}][0]", x), _int(lid, f"walls[{i}][1]", y)
        claim((x, y), f"wall {i}", f"walls[{i}]")
    for i, m in enumerate(lv.mirrors):
        _choice(lid, f"mirrors[{i}].tilt", m.tilt, TILTS)
        claim((m.x, m.y), f"mirror {i}", f"mirrors[{i}]")
    if lv.mirrors and lv.win != "beam":
        raise LevelError(lid, "mirrors", "mirrors belong to beam levels (win: beam)")
    if len(lv.blocks) > MAX_MOVABLE:
        raise LevelError(lid, "blocks", f"{len(lv.blocks)} movable blocks; at most {MAX_MOVABLE}")
    keys = [i for i, b in enumerate(lv.blocks) if b.kind == "key"]
    if not keys:
        raise LevelError(lid, "blocks", "no block has kind key")
    if len(keys) > 1:
        raise LevelError(lid, f"blocks[{keys[1]}].kind", "a second key (exactly one allowed)")
    for i, b in enumerate(lv.blocks):
        f = f"blocks[{i}]"
        x, y, w, h = b.x, b.y, b.w, b.h
        # the common case checked without building a field name per attribute (every
        # level built, by every search of the generator, passes here); else the checks
        # that name the field
        if not (b.kind in KINDS and type(x) is int and type(y) is int and type(w) is int
                and type(h) is int and x >= 0 and y >= 0 and w >= 1 and h >= 1):
            _choice(lid, f + ".kind", b.kind, KINDS)
            for attr, lo in (("x", 0), ("y", 0), ("w", 1), ("h", 1)):
                _int(lid, f"{f}.{attr}", getattr(b, attr), minimum=lo)
        if b.w == b.h:
            raise LevelError(lid, f, f"a {b.w}x{b.h} square block has no axis (make it longer "
                             "one way)")
        if b.x + b.w > W or b.y + b.h > H:       # before any cell is listed
            raise LevelError(lid, f, f"block {i} at ({b.x}, {b.y}) size {b.w}x{b.h} is outside "
                             f"the {W}x{H} grid")
        what = f"block {i}"
        for cell in b.cells():          # inside the grid: checked just above
            if cell in occupied:
                claim(cell, what, f)    # names the overlap
            occupied[cell] = what
    if lv.state_bits > MAX_KEY_BITS:
        raise LevelError(lid, "blocks", f"state needs {lv.state_bits} bits; at most {MAX_KEY_BITS}")
    key = lv.blocks[keys[0]]
    if lv.win == "exit":
        if lv.beam is not None:
            raise LevelError(lid, "beam", "beam is only for win: beam levels")
        side, idx = lv.exit.side, lv.exit.index
        if side in ("left", "right"):
            if not key.horizontal:
                raise LevelError(lid, "exit.side", f"the key slides vertically and can never "
                                 f"reach the {side} lantern")
            if not key.y <= idx < key.y + key.h:
                raise LevelError(lid, "exit.index", f"the key spans rows {key.y}..{key.y + key.h - 1} "
                                 f"and can never cover row {idx}")
        else:
            if key.horizontal:
                raise LevelError(lid, "exit.side", f"the key slides horizontally and can never "
                                 f"reach the {side} lantern")
            if not key.x <= idx < key.x + key.w:
                raise LevelError(lid, "exit.index", f"the key spans columns {key.x}.."
                                 f"{key.x + key.w - 1} and can never cover column {idx}")
    else:
        if lv.beam is None:
            raise LevelError(lid, "beam", "missing (a win: beam level needs beam {dir, offset})")
        _choice(lid, "beam.dir", lv.beam.dir, DIRS)
        edge = key.h if lv.beam.dir in ("E", "W") else key.w
        if not 0 <= _int(lid, "beam.offset", lv.beam.offset) < edge:
            raise LevelError(lid, "beam.offset", f"{lv.beam.offset} is off the key's "
                             f"{lv.beam.dir} edge (0..{edge - 1})")
    if lv.optimal is not None:
        _int(lid, "optimal", lv.optimal)
    if lv.solution is not None:
        for i, (bi, d) in enumerate(lv.solution):
            if not 0 <= _int(lid, f"solution[{i}][0]", bi) < len(lv.blocks):
                raise LevelError(lid, f"solution[{i}][0]", f"no block {bi}")
            if isinstance(d, bool) or not isinstance(d, int) or d == 0:
                raise LevelError(lid, f"solution[{i}][1]", "must be a non-zero integer")
        if lv.optimal is not None and len(lv.solution) != lv.optimal:
            raise LevelError(lid, "solution", f"has {len(lv.solution)} moves but optimal is "
                             f"{lv.optimal}")
    if lv.analysis is not None:
        for i, bi in enumerate(lv.analysis.dead_blocks):
            if not 0 <= bi < len(lv.blocks):
                raise LevelError(lid, f"analysis.dead_blocks[{i}]", f"no block {bi}")
