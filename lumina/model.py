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
import math
import re
from dataclasses import dataclass
from typing import Any, Callable

TWIST_KINDS = ("sand", "ice", "rime")     # the kinds whose rules differ from crystal
KINDS = ("key", "crystal", *TWIST_KINDS)
MECHANICS = ("crystal", *TWIST_KINDS, "beam")   # a level's label, in this order
# Analysis fields recorded since generator lumina-gen/4: all of them, or none (older packs)
GEN4_MEASURES = ("chain", "forced", "deepest", "optional_twist", "mechanics")
# The felt-difficulty figures (`lumina.playtest.felt`): both or neither on read; the
# verifier requires them.
FELT_MEASURES = ("effort", "success")
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
SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", re.ASCII)
MAX_TEXT = 200


def escape_text(text: str) -> str:
    """`text` with every non-printable character (controls, line separators, format
    characters, lone surrogates) written as a Python escape: one safe terminal line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape", "backslashreplace")
                   .decode("ascii") for c in text)


def short(value: Any, limit: int = 40) -> str:
    """`value` for a message: non-printable characters escaped, long values cut, so an
    echoed value is never a second line or a megabyte."""
    text = str(value)
    if len(text) > limit:
        text = f"{text[:limit - 12]}...({len(text)} chars)"
    return escape_text(text)


def check_text(lid: str, field: str, v: Any) -> str:
    """A display string: at most MAX_TEXT printable characters (no control or format
    characters, line separators or lone surrogates: they break a line or UTF-8)."""
    if not isinstance(v, str):
        raise LevelError(lid, field, "must be a string")
    if len(v) > MAX_TEXT:
        raise LevelError(lid, field, f"{len(v)} characters; at most {MAX_TEXT}")
    if not v.isprintable():
        i = next(i for i, c in enumerate(v) if not c.isprintable())
        raise LevelError(lid, field, f"holds the non-printable character {escape_text(v[i])} "
                         f"at {i} (a control character or a lone surrogate)")
    return v


class LevelError(ValueError):
    """A level failed validation. The message names the level id and the field; the
    id is shortened and escaped (`short`), so the message is one short line."""

    def __init__(self, level_id: str, field: str, message: str):
        self.level_id = level_id
        self.field = field
        self.message = message
        super().__init__(f"level {short(level_id)}: {field}: {message}")


@dataclass(frozen=True, kw_only=True)
class Block:
    kind: str
    x: int
    y: int
    w: int
    h: int

    @property
    def horizontal(self) -> bool:
        """True when the block slides along x (it is wider than tall)."""
        return self.w > self.h

    def cells(self) -> list[tuple[int, int]]:
        return [(self.x + i, self.y + j) for j in range(self.h) for i in range(self.w)]


@dataclass(frozen=True, kw_only=True)
class Exit:
    side: str
    index: int


@dataclass(frozen=True, kw_only=True)
class Beam:
    dir: str
    offset: int


@dataclass(frozen=True, kw_only=True)
class Mirror:
    x: int
    y: int
    tilt: str


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


@dataclass(frozen=True, kw_only=True)
class Analysis:
    """What makes a level hard, measured by `lumina.engine.measure` (RULES.md, Quality).

    Written per level by the generator, re-measured and compared by the verifier."""
    plans: int                # optimal solutions up to swapping commuting adjacent moves
    plans_capped: bool        # True when `plans` hit the cap
    solutions: int            # raw optimal move sequences (exact up to the cap)
    solutions_capped: bool    # True when `solutions` hit the cap
    dead_blocks: tuple[int, ...]   # blocks that never move in any optimal solution
    dead_share: float         # dead non-key blocks / non-key blocks
    crystal_optimal: int | None    # par with sand, ice and rime as crystal (None: no twist)
    first_moves_optimal: int  # distinct optimal first moves
    first_moves_legal: int    # legal first moves
    component_states: int     # states reachable from the start
    traps: int                # of those, states from which no win is reachable
    # Recorded since lumina-gen/4 (None: a pack written before; a pack holds all or none):
    chain: int | None = None  # least over plans of the plan's dependency height
    forced: int | None = None  # moves of the stored solution with exactly one optimal move
    deepest: int | None = None  # the board's deepest par (binding starts on twist levels)
    optional_twist: bool | None = None  # some optimal solution moves no sand, ice or rime
    mechanics: tuple[str, ...] | None = None  # the label: `Level.mechanics`
    effort: float | None = None   # felt difficulty: the board-only player's actions per win
    success: float | None = None  # and its share of runs that win (lumina.playtest.felt)
    family: str               # near-duplicate family key


@dataclass(frozen=True, kw_only=True)
class Level:
    id: str
    width: int
    height: int
    exit: Exit
    blocks: tuple[Block, ...]
    walls: tuple[tuple[int, int], ...] = ()
    mirrors: tuple[Mirror, ...] = ()
    win: str = "exit"
    beam: Beam | None = None
    optimal: int | None = None
    solution: tuple[tuple[int, int], ...] | None = None
    name: str | None = None
    tutorial: bool = False
    analysis: Analysis | None = None

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
        """The canonical JSON object of RULES.md (defaults and empties omitted)."""
        out: dict[str, Any] = {"id": self.id, "width": self.width, "height": self.height,
                               "exit": {"side": self.exit.side, "index": self.exit.index}}
        if self.win != "exit":
            out["win"] = self.win
        if self.beam is not None:
            out["beam"] = {"dir": self.beam.dir, "offset": self.beam.offset}
        if self.walls:
            out["walls"] = [[x, y] for x, y in self.walls]
        if self.mirrors:
            out["mirrors"] = [{"x": m.x, "y": m.y, "tilt": m.tilt} for m in self.mirrors]
        out["blocks"] = [{"kind": b.kind, "x": b.x, "y": b.y, "w": b.w, "h": b.h}
                         for b in self.blocks]
        if self.optimal is not None:
            out["optimal"] = self.optimal
        if self.solution is not None:
            out["solution"] = [[i, d] for i, d in self.solution]
        if self.name is not None:
            out["name"] = self.name
        if self.tutorial:
            out["tutorial"] = True
        if self.analysis is not None:
            a = self.analysis
            out["analysis"] = {
                "plans": a.plans, "plans_capped": a.plans_capped,
                "solutions": a.solutions, "solutions_capped": a.solutions_capped,
                "dead_blocks": list(a.dead_blocks), "dead_share": a.dead_share,
                **({"crystal_optimal": a.crystal_optimal} if a.crystal_optimal is not None else {}),
                "first_moves_optimal": a.first_moves_optimal,
                "first_moves_legal": a.first_moves_legal,
                "component_states": a.component_states, "traps": a.traps,
                **{f: list(v) if f == "mechanics" else v
                   for f in GEN4_MEASURES if (v := getattr(a, f)) is not None},
                **{f: v for f in FELT_MEASURES if (v := getattr(a, f)) is not None},
                "family": a.family}
        return out

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
# Parsing: JSON types -> dataclasses, every field checked and named.

_LEVEL_FIELDS = ("id", "width", "height", "exit", "win", "beam", "walls", "mirrors",
                 "blocks", "optimal", "solution", "name", "tutorial", "analysis")
_ANALYSIS_FIELDS = ("plans", "plans_capped", "solutions", "solutions_capped", "dead_blocks",
                    "dead_share", "crystal_optimal", "first_moves_optimal",
                    "first_moves_legal", "component_states", "traps", *GEN4_MEASURES,
                    *FELT_MEASURES, "family")
_ANALYSIS_REQUIRED = tuple(f for f in _ANALYSIS_FIELDS if f != "crystal_optimal"
                           and f not in GEN4_MEASURES and f not in FELT_MEASURES)


def _int(lid: str, field: str, v: Any, *, minimum: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise LevelError(lid, field, f"must be an integer, got {v!r}")
    if v < minimum:
        raise LevelError(lid, field, f"must be >= {minimum}, got {v}")
    return v


def _obj(lid: str, field: str, v: Any, allowed: tuple[str, ...], required: tuple[str, ...]) -> dict:
    if not isinstance(v, dict):
        raise LevelError(lid, field, f"must be an object, got {type(v).__name__}")
    for k in v:
        if k not in allowed:
            raise LevelError(lid, f"{field}.{k}" if field else k, "unknown field")
    for k in required:
        if k not in v:
            raise LevelError(lid, f"{field}.{k}" if field else k, "missing")
    return v


def _list(lid: str, field: str, v: Any) -> list:
    if not isinstance(v, list):
        raise LevelError(lid, field, f"must be a list, got {type(v).__name__}")
    return v


def _choice(lid: str, field: str, v: Any, choices: tuple[str, ...]) -> str:
    if v not in choices:
        raise LevelError(lid, field, f"must be one of {', '.join(choices)}; got {v!r}")
    return v


def _parse(data: Any) -> Level:
    if not isinstance(data, dict):
        raise LevelError("?", "level", f"must be an object, got {type(data).__name__}")
    lid = data.get("id", "?")
    if not isinstance(lid, str) or not SAFE_ID.fullmatch(lid):
        raise LevelError("?", "id", f"must be 1-64 letters, digits, '.', '_' or '-' "
                         f"(starting with a letter or digit), got {short(repr(lid))}")
    _obj(lid, "", data, _LEVEL_FIELDS, ("id", "width", "height", "exit", "blocks"))
    width = _int(lid, "width", data["width"])
    height = _int(lid, "height", data["height"])
    ex = _obj(lid, "exit", data["exit"], ("side", "index"), ("side", "index"))
    exit_ = Exit(side=_choice(lid, "exit.side", ex["side"], SIDES),
                 index=_int(lid, "exit.index", ex["index"]))
    win = _choice(lid, "win", data.get("win", "exit"), WINS)
    beam = None
    if "beam" in data:
        bm = _obj(lid, "beam", data["beam"], ("dir", "offset"), ("dir", "offset"))
        beam = Beam(dir=_choice(lid, "beam.dir", bm["dir"], DIRS),
                    offset=_int(lid, "beam.offset", bm["offset"]))
    walls = []
    for i, w in enumerate(_list(lid, "walls", data.get("walls", []))):
        if not isinstance(w, list) or len(w) != 2:
            raise LevelError(lid, f"walls[{i}]", "must be a pair [x, y]")
        walls.append((_int(lid, f"walls[{i}][0]", w[0]), _int(lid, f"walls[{i}][1]", w[1])))
    mirrors = []
    for i, m in enumerate(_list(lid, "mirrors", data.get("mirrors", []))):
        f = f"mirrors[{i}]"
        _obj(lid, f, m, ("x", "y", "tilt"), ("x", "y", "tilt"))
        mirrors.append(Mirror(x=_int(lid, f + ".x", m["x"]), y=_int(lid, f + ".y", m["y"]),
                              tilt=_choice(lid, f + ".tilt", m["tilt"], TILTS)))
    blocks = []
    for i, b in enumerate(_list(lid, "blocks", data["blocks"])):
        f = f"blocks[{i}]"
        _obj(lid, f, b, ("kind", "x", "y", "w", "h"), ("kind", "x", "y", "w", "h"))
        blocks.append(Block(kind=_choice(lid, f + ".kind", b["kind"], KINDS),
                            x=_int(lid, f + ".x", b["x"]), y=_int(lid, f + ".y", b["y"]),
                            w=_int(lid, f + ".w", b["w"], minimum=1),
                            h=_int(lid, f + ".h", b["h"], minimum=1)))
    optimal = None
    if "optimal" in data:
        optimal = _int(lid, "optimal", data["optimal"])
    solution = None
    if "solution" in data:
        sol = []
        for i, mv in enumerate(_list(lid, "solution", data["solution"])):
            if not isinstance(mv, list) or len(mv) != 2:
                raise LevelError(lid, f"solution[{i}]", "must be a pair [block, distance]")
            bi = _int(lid, f"solution[{i}][0]", mv[0])
            d = mv[1]
            if isinstance(d, bool) or not isinstance(d, int) or d == 0:
                raise LevelError(lid, f"solution[{i}][1]", f"must be a non-zero integer, got {d!r}")
            sol.append((bi, d))
        solution = tuple(sol)
    name = data.get("name")
    if name is not None:
        check_text(lid, "name", name)
    tutorial = data.get("tutorial", False)
    if not isinstance(tutorial, bool):
        raise LevelError(lid, "tutorial", "must be true or false")
    analysis = None
    if "analysis" in data:
        a = _obj(lid, "analysis", data["analysis"], _ANALYSIS_FIELDS, _ANALYSIS_REQUIRED)
        dead = tuple(_int(lid, f"analysis.dead_blocks[{i}]", v)
                     for i, v in enumerate(_list(lid, "analysis.dead_blocks", a["dead_blocks"])))
        share = a["dead_share"]
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
            raise LevelError(lid, "analysis.dead_share", "must be a number in [0, 1]")
        for flag in ("plans_capped", "solutions_capped"):
            if not isinstance(a[flag], bool):
                raise LevelError(lid, f"analysis.{flag}", "must be true or false")
        check_text(lid, "analysis.family", a["family"])
        gen4 = _gen4_measures(lid, a)
        gen4.update(_felt_measures(lid, a))
        crystal = a.get("crystal_optimal")
        analysis = Analysis(
            plans=_int(lid, "analysis.plans", a["plans"]), plans_capped=a["plans_capped"],
            solutions=_int(lid, "analysis.solutions", a["solutions"]),
            solutions_capped=a["solutions_capped"], dead_blocks=dead,
            dead_share=float(share),
            crystal_optimal=None if crystal is None else _int(lid, "analysis.crystal_optimal", crystal),
            first_moves_optimal=_int(lid, "analysis.first_moves_optimal", a["first_moves_optimal"]),
            first_moves_legal=_int(lid, "analysis.first_moves_legal", a["first_moves_legal"]),
            component_states=_int(lid, "analysis.component_states", a["component_states"]),
            traps=_int(lid, "analysis.traps", a["traps"]), family=a["family"], **gen4)
    return Level(id=lid, width=width, height=height, exit=exit_, blocks=tuple(blocks),
                 walls=tuple(walls), mirrors=tuple(mirrors), win=win, beam=beam,
                 optimal=optimal, solution=solution, name=name, tutorial=tutorial,
                 analysis=analysis)


def _felt_measures(lid: str, a: dict) -> dict[str, Any]:
    """The felt-difficulty figures of an analysis object: both or neither; effort a
    number >= 0, success a number in [0, 1]."""
    present = [f for f in FELT_MEASURES if f in a]
    if not present:
        return {}
    for f in FELT_MEASURES:
        if f not in a:
            raise LevelError(lid, f"analysis.{f}", f"missing (recorded with {present[0]})")
    out = {}
    for f, hi in (("effort", None), ("success", 1)):
        v = a[f]
        if (isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0
                or (hi is not None and v > hi) or not math.isfinite(v)):
            raise LevelError(lid, f"analysis.{f}", "must be a number >= 0"
                             + ("" if hi is None else f" and <= {hi}"))
        out[f] = float(v)
    return out


def _gen4_measures(lid: str, a: dict) -> dict[str, Any]:
    """The lumina-gen/4 measures of an analysis object: all of them or none (older
    packs), each of its type; a mechanics label lists known mechanics once each, in
    `MECHANICS` order."""
    present = [f for f in GEN4_MEASURES if f in a]
    if not present:
        return {}
    for f in GEN4_MEASURES:
        if f not in a:
            raise LevelError(lid, f"analysis.{f}", f"missing (recorded with {present[0]})")
    if not isinstance(a["optional_twist"], bool):
        raise LevelError(lid, "analysis.optional_twist", "must be true or false")
    label = _list(lid, "analysis.mechanics", a["mechanics"])
    for i, m in enumerate(label):
        _choice(lid, f"analysis.mechanics[{i}]", m, MECHANICS)
    if not label or label != sorted(set(label), key=MECHANICS.index):
        raise LevelError(lid, "analysis.mechanics", "must list mechanics once each, in the order "
                         f"{', '.join(MECHANICS)}; got {short(label)}")
    return {"chain": _int(lid, "analysis.chain", a["chain"]),
            "forced": _int(lid, "analysis.forced", a["forced"]),
            "deepest": _int(lid, "analysis.deepest", a["deepest"]),
            "optional_twist": a["optional_twist"], "mechanics": tuple(label)}


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
