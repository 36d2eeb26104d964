"""Phase A: layouts that are already solved (RULES.md "Generation", A).

The key stands on the lantern (beam levels: its light leaves through the lantern's
edge), blockers are scattered off its way with one to three across its lane, and the
bucket's twists are assigned to random blockers. Shallow buckets judge these layouts
directly; deep buckets search over layouts instead (`lumina.gen.search`).

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
from typing import Iterator

from lumina.engine import LayoutSweep
from lumina.model import TWIST_KINDS, Beam, Block, Exit, Level, LevelError, Mirror, random_light
from lumina.worlds import Bucket

MAX_LAYOUTS = 1500          # random layouts per shallow bucket, at least ...
LAYOUTS_PER_LEVEL = 100     # ... this many per level (a large --pool scales its buckets)

def _fits(cells: list[tuple[int, int]], taken: set[tuple[int, int]], W: int, H: int) -> bool:
    return all(0 <= x < W and 0 <= y < H and (x, y) not in taken for x, y in cells)


def _place_blockers(rng: random.Random, bucket: Bucket, taken: set[tuple[int, int]],
                    count: int) -> list[Block]:
    W, H = bucket.width, bucket.height
    blocks: list[Block] = []
    for _ in range(count):
        for _try in range(40):
            length = 3 if rng.random() < 0.25 and max(W, H) >= 5 else 2
            if rng.random() < 0.5:
                w, h = length, 1
            else:
                w, h = 1, length
            x, y = rng.randrange(W - w + 1), rng.randrange(H - h + 1)
            b = Block(kind="crystal", x=x, y=y, w=w, h=h)
            cells = b.cells()
            if _fits(cells, taken, W, H):
                taken.update(cells)
                blocks.append(b)
                break
    return blocks


def _lane_crossers(rng: random.Random, bucket: Bucket, key: Block,
                   taken: set[tuple[int, int]]) -> list[Block]:
    """One to three blockers standing across the key's lane (the row or column it
    travels): the lane is where depth comes from, and random scatter rarely crosses
    it (measured: twice as many 6x6 layouts reach 12 moves with crossers)."""
    W, H = bucket.width, bucket.height
    blocks = []
    for _ in range(rng.randint(1, 3)):
        for _try in range(30):
            length = 3 if rng.random() < 0.5 and min(W, H) >= 5 else 2
            if key.horizontal:
                b = Block(kind="crystal", x=rng.randrange(W), y=key.y - rng.randrange(length),
                          w=1, h=length)
            else:
                b = Block(kind="crystal", x=key.x - rng.randrange(length), y=rng.randrange(H),
                          w=length, h=1)
            cells = b.cells()
            if b.x >= 0 and b.y >= 0 and _fits(cells, taken, W, H):
                taken.update(cells)
                blocks.append(b)
                break
    return blocks


def _assign_twists(rng: random.Random, bucket: Bucket, blockers: list[Block]) -> list[Block]:
    kinds = [k for k in TWIST_KINDS for _ in range(bucket.twists.get(k, 0))]
    order = list(range(len(blockers)))
    rng.shuffle(order)
    out = list(blockers)
    for kind, i in zip(kinds, order):
        out[i] = Block(kind=kind, x=out[i].x, y=out[i].y, w=out[i].w, h=out[i].h)
    return out


def solved_layout(bucket: Bucket, rng: random.Random, level_id: str = "layout") -> Level | None:
    """Phase A: key on the lantern (or its light on it), blockers scattered off the way.

    Returns None when this draw could not place a valid layout (counted, retried)."""
    W, H = bucket.width, bucket.height
    taken: set[tuple[int, int]] = set()
    mirrors: list[Mirror] = []
    beam = None
    if bucket.beam:
        horiz = rng.random() < 0.5
        kw, kh = (2, 1) if horiz else (1, 2)
        key = Block(kind="key", x=rng.randrange(W - kw + 1), y=rng.randrange(H - kh + 1),
                    w=kw, h=kh)
        bdir = rng.choice(("N", "E", "S", "W"))
        beam = Beam(dir=bdir, offset=rng.randrange(kh if bdir in "EW" else kw))
        traced = random_light(rng, W, H, key, beam, bucket.mirrors)
        if traced is None:
            return None
        path, mirrors, exit_ = traced
        taken.update(path)          # reserved light path: nothing sits on it when solved
    else:
        side = rng.choice(("left", "right", "top", "bottom"))
        if side in ("left", "right"):
            index = rng.randrange(H)
            x = 0 if side == "left" else W - 2
            key = Block(kind="key", x=x, y=index, w=2, h=1)
        else:
            index = rng.randrange(W)
            y = 0 if side == "top" else H - 2
            key = Block(kind="key", x=index, y=y, w=1, h=2)
        exit_ = Exit(side=side, index=index)
    taken.update(key.cells())
    taken.update((m.x, m.y) for m in mirrors)
    walls = []
    for _ in range(rng.randint(*bucket.walls)):
        free = [(x, y) for y in range(H) for x in range(W) if (x, y) not in taken]
        if free:
            cell = rng.choice(free)
            taken.add(cell)
            walls.append(cell)
    count = rng.randint(*bucket.blockers)
    blockers = [] if bucket.beam else _lane_crossers(rng, bucket, key, taken)
    blockers += _place_blockers(rng, bucket, taken, max(0, count - len(blockers)))
    if len(blockers) < bucket.blockers[0]:
        return None
    blockers = _assign_twists(rng, bucket, blockers)
    blocks = [key] + blockers
    try:
        return Level(id=level_id, width=W, height=H, exit=exit_, blocks=tuple(blocks),
                     walls=tuple(sorted(walls)), mirrors=tuple(mirrors),
                     win="beam" if bucket.beam else "exit", beam=beam)
    except LevelError:
        return None


# ---------------------------------------------------------------------------
# Layouts: phase A at random (shallow buckets) or a deep layout search (deep ones).

Source = Iterator[tuple[Level | None, random.Random, LayoutSweep | None]]


def random_layouts(bucket: Bucket, seed: int) -> Source:
    """Phase-A layouts, each drawn from its own seeded generator (no sweep yet)."""
    for i in range(max(MAX_LAYOUTS, LAYOUTS_PER_LEVEL * bucket.levels)):
        rng = random.Random(f"{seed}:{bucket.name}:{i}")
        yield solved_layout(bucket, rng), rng, None

