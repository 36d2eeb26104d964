"""Phase A: layouts that are already solved (RULES.md "Generation", A).

The one random-layout drawer of the generator (and of the parity vectors' random levels,
`lumina.vectors.random_level`): the key stands on the lantern (beam
levels: its light, traced by `lumina.model.trace_light`, leaves through the lantern's
edge), walls are dropped, blockers are scattered off its way with a third of them
across its lane, and the bucket's twists are assigned to random blockers. Shallow
buckets judge these layouts directly; the deep search (`lumina.gen.search`) starts from
them and mutates them with the same pieces (`_Frame`, `_random_block`, `_crosser`).

Insight: a layout is drawn solved, so a win exists in its component and the exact
sweep can measure every start of it from the goal set:

    . . B . . .
    . . B . . .
    . . . . A A >      A (the key) on the lantern; B crosses no lane yet,
    . . C . . .        C stands across the key's row: depth comes from the lane
    . . C . . .
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterator

from lumina.engine import Board, LayoutSweep
from lumina.model import (MAX_MOVABLE, SIDES, TWIST_KINDS, Beam, Block, Exit, Level, LevelError,
                          Mirror, light_path, random_light)
from lumina.worlds import Bucket

MAX_LAYOUTS = 6000          # random layouts per shallow bucket, at least ...
LAYOUTS_PER_LEVEL = 400     # ... this many per level (a large --daily-size scales its buckets)

# ---------------------------------------------------------------------------
# Drafts: a layout under construction (key first, then blockers, then walls).

@dataclass
class _Frame:
    """What never changes during one search: grid, lantern, key, beam, mirrors."""
    spec: Any
    W: int
    H: int
    exit: Exit
    key: Block
    beam: Beam | None
    mirrors: tuple[Mirror, ...]
    reserved: frozenset          # cells nothing may cover in the layout (key, mirrors, light)
    lane: tuple[str, int]        # the key's lane: ("row", y) or ("col", x)


def _twist_counts(spec: Any) -> dict[str, int]:
    tw = dict(getattr(spec, "twists", None) or {})
    return {k: int(v) for k, v in sorted(tw.items()) if v}


def _check_spec(spec: Any) -> None:
    for name in ("width", "height", "blockers"):
        if not hasattr(spec, name):
            raise ValueError(f"deep search spec has no {name!r}")
    lo, hi = spec.blockers
    tw = _twist_counts(spec)
    if not 0 <= lo <= hi or hi > MAX_MOVABLE - 1:
        raise ValueError(f"blockers {spec.blockers} must be a range within 0..{MAX_MOVABLE - 1}")
    for k in tw:
        if k not in TWIST_KINDS:
            raise ValueError(f"unknown twist kind {k!r}")
    if sum(tw.values()) > hi:
        raise ValueError(f"twists {tw} need more blockers than {spec.blockers}")


def _level(frame: _Frame, blockers: list[Block], walls: list[tuple[int, int]],
           lid: str = "deep") -> Level | None:
    try:
        lv = Level(id=lid, width=frame.W, height=frame.H, exit=frame.exit,
                   blocks=(frame.key, *blockers), walls=tuple(sorted(walls)),
                   mirrors=frame.mirrors, win="beam" if frame.beam else "exit",
                   beam=frame.beam)
    except LevelError:
        return None
    if frame.beam is not None:
        board = Board(lv)
        if not board.is_solved(board.start):
            return None
    return lv


def _occupied(frame: _Frame, blockers: list[Block], walls: list[tuple[int, int]],
              skip: int = -1) -> set[tuple[int, int]]:
    taken = set(frame.reserved)
    taken.update(walls)
    for i, b in enumerate(blockers):
        if i != skip:
            taken.update(b.cells())
    return taken


def _fits(b: Block, taken: set, W: int, H: int) -> bool:
    if b.x < 0 or b.y < 0 or b.x + b.w > W or b.y + b.h > H:
        return False
    return not any(c in taken for c in b.cells())


def _random_block(rng: random.Random, frame: _Frame, taken: set, kind: str = "crystal",
                  shape: tuple[int, int] | None = None, tries: int = 40) -> Block | None:
    W, H = frame.W, frame.H
    for _ in range(tries):
        if shape is None:
            length = 3 if rng.random() < 0.3 else 2
            w, h = (length, 1) if rng.random() < 0.5 else (1, length)
        else:
            w, h = shape
        if w > W or h > H:
            continue
        b = Block(kind=kind, x=rng.randrange(W - w + 1), y=rng.randrange(H - h + 1), w=w, h=h)
        if _fits(b, taken, W, H):
            return b
    return None


def _crosser(rng: random.Random, frame: _Frame, taken: set) -> Block | None:
    """A blocker standing across the key's lane (where depth comes from)."""
    W, H = frame.W, frame.H
    axis, at = frame.lane
    for _ in range(30):
        length = 3 if rng.random() < 0.4 else 2
        if axis == "row":
            b = Block(kind="crystal", x=rng.randrange(W), y=at - rng.randrange(length), w=1, h=length)
        else:
            b = Block(kind="crystal", x=at - rng.randrange(length), y=rng.randrange(H), w=length, h=1)
        if _fits(b, taken, W, H):
            return b
    return None


# ---------------------------------------------------------------------------
# The start: a random solved layout.

def _beam_frame(rng: random.Random, spec: Any) -> _Frame | None:
    W, H = spec.width, spec.height
    kw, kh = (2, 1) if rng.random() < 0.5 else (1, 2)
    key = Block(kind="key", x=rng.randrange(W - kw + 1), y=rng.randrange(H - kh + 1), w=kw, h=kh)
    bdir = rng.choice(("N", "E", "S", "W"))
    beam = Beam(dir=bdir, offset=rng.randrange(kh if bdir in "EW" else kw))
    traced = random_light(rng, W, H, key, beam, getattr(spec, "mirrors", (0, 0)))
    if traced is None:
        return None
    path, mirrors, exit_ = traced
    keycells = set(key.cells())
    lane = ("row", key.y) if key.horizontal else ("col", key.x)
    return _Frame(spec=spec, W=W, H=H, exit=exit_, key=key, beam=beam, mirrors=tuple(mirrors),
                  reserved=frozenset(path) | frozenset(keycells), lane=lane)


def _exit_frame(rng: random.Random, spec: Any) -> _Frame:
    W, H = spec.width, spec.height
    side = rng.choice(SIDES)
    if side in ("left", "right"):
        index = rng.randrange(1, H - 1)
        key = Block(kind="key", x=0 if side == "left" else W - 2, y=index, w=2, h=1)
        lane = ("row", index)
    else:
        index = rng.randrange(1, W - 1)
        key = Block(kind="key", x=index, y=0 if side == "top" else H - 2, w=1, h=2)
        lane = ("col", index)
    return _Frame(spec=spec, W=W, H=H, exit=Exit(side=side, index=index), key=key, beam=None,
                  mirrors=(), reserved=frozenset(key.cells()), lane=lane)


def _frame_of(level: Level, spec: Any) -> _Frame:
    key = level.key
    reserved = set(key.cells()) | {(m.x, m.y) for m in level.mirrors}
    if level.win == "beam":
        reserved |= light_path(level)
    lane = ("row", key.y) if key.horizontal else ("col", key.x)
    return _Frame(spec=spec, W=level.width, H=level.height, exit=level.exit, key=key,
                  beam=level.beam, mirrors=level.mirrors, reserved=frozenset(reserved), lane=lane)


def random_layout(spec: Any, rng: random.Random, tries: int = 200) -> Level:
    """A random solved layout for `spec`: key on the lantern (beam: its light on it),
    walls, blockers scattered with a third of them across the key's lane, twists
    assigned to random blockers. ValueError when `tries` draws all fail."""
    _check_spec(spec)
    tw = _twist_counts(spec)
    for _ in range(tries):
        frame = _beam_frame(rng, spec) if getattr(spec, "beam", False) else _exit_frame(rng, spec)
        if frame is None:
            continue
        walls: list[tuple[int, int]] = []
        taken = set(frame.reserved)
        for _w in range(rng.randint(*getattr(spec, "walls", (0, 0)))):
            free = [(x, y) for y in range(frame.H) for x in range(frame.W) if (x, y) not in taken]
            if free:
                cell = rng.choice(free)
                taken.add(cell)
                walls.append(cell)
        count = rng.randint(*spec.blockers)
        blockers: list[Block] = []
        if not frame.beam:
            for _c in range(max(1, count // 3)):
                b = _crosser(rng, frame, taken)
                if b is not None and len(blockers) < count:
                    blockers.append(b)
                    taken.update(b.cells())
        while len(blockers) < count:
            b = _random_block(rng, frame, taken)
            if b is None:
                break
            blockers.append(b)
            taken.update(b.cells())
        if len(blockers) < max(spec.blockers[0], sum(tw.values())):
            continue
        order = list(range(len(blockers)))
        rng.shuffle(order)
        kinds = [k for k in sorted(tw) for _k in range(tw[k])]
        for kind, i in zip(kinds, order):
            blockers[i] = _with(blockers[i], kind=kind)
        lv = _level(frame, blockers, walls, "layout")
        if lv is not None:
            return lv
    raise ValueError(f"no solved {spec.width}x{spec.height} layout in {tries} draws")


def _with(b: Block, **kw: Any) -> Block:
    d = {"kind": b.kind, "x": b.x, "y": b.y, "w": b.w, "h": b.h}
    d.update(kw)
    return Block(**d)


def solved_layout(bucket: Any, rng: random.Random, level_id: str = "layout") -> Level | None:
    """Phase A: one random solved layout for `bucket` (`random_layout`, at most 10 draws),
    or None when this draw could not place one (counted by the caller, retried)."""
    try:
        return random_layout(bucket, rng, tries=10).replace(id=level_id)
    except ValueError:
        return None


# ---------------------------------------------------------------------------
# Layouts: phase A at random (shallow buckets) or a deep layout search (deep ones).

Source = Iterator[tuple[Level | None, random.Random, LayoutSweep | None]]


def random_layouts(bucket: Bucket, seed: int) -> Source:
    """Phase-A layouts, each drawn from its own seeded generator (no sweep yet)."""
    for i in range(max(MAX_LAYOUTS, LAYOUTS_PER_LEVEL * bucket.levels)):
        rng = random.Random(f"{seed}:{bucket.name}:{i}")
        yield solved_layout(bucket, rng), rng, None

