"""Hypothesis strategies for random small *valid* Lumina levels, as RULES.md JSON dicts.

Every level drawn here passes RULES.md validation (``reference.problems`` is empty):
blocks in bounds and non-overlapping, movable blocks never square, exactly one
key, exit levels with the key's axis pointing at the lantern's side and its span
covering the index, beam levels with the key anywhere and the beam offset on the
key's edge.  Grids run 4x4..6x6, non-square included, so a width/height swap shows.

The key is inserted at a random index among the blocks, so an engine that
assumes "the key is block 0" is caught too.
"""

from __future__ import annotations

import os

from hypothesis import strategies as st

def examples(n: int) -> int:
    """``n`` hypothesis examples, times $LUMINA_HYPOTHESIS_SCALE for a long soak run."""
    return n * int(os.environ.get("LUMINA_HYPOTHESIS_SCALE", "1"))


SIDES = ("left", "right", "top", "bottom")
KINDS = ("crystal", "sand", "ice", "rime")
DIRS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def _cells(x: int, y: int, w: int, h: int) -> set[tuple[int, int]]:
    return {(cx, cy) for cx in range(x, x + w) for cy in range(y, y + h)}


def _key_shape(draw, horizontal: bool) -> tuple[int, int]:
    """(w, h) of a key: length 2..3 along its axis, thickness 1 (sometimes 2 with length 3)."""
    length = draw(st.sampled_from((2, 2, 3)))
    thick = 2 if length == 3 and draw(st.integers(0, 5)) == 0 else 1
    return (length, thick) if horizontal else (thick, length)


@st.composite
def levels(
    draw,
    *,
    win: str | None = None,
    kinds: tuple[str, ...] = KINDS,
    min_blocks: int = 0,
    max_blocks: int = 6,
    min_side: int = 4,
    max_side: int = 6,
    max_walls: int = 3,
    max_mirrors: int = 4,
) -> dict:
    """A random valid level dict (``win`` None: either kind of level)."""
    width = draw(st.integers(min_side, max_side))
    height = draw(st.integers(min_side, max_side))
    win = win or draw(st.sampled_from(("exit", "exit", "beam")))
    side = draw(st.sampled_from(SIDES))
    across = height if side in ("left", "right") else width
    index = draw(st.integers(0, across - 1))

    if win == "exit":
        horizontal = side in ("left", "right")
        kw, kh = _key_shape(draw, horizontal)
        if horizontal:
            ky = draw(st.integers(max(0, index - kh + 1), min(index, height - kh)))
            kx = draw(st.integers(0, width - kw))
        else:
            kx = draw(st.integers(max(0, index - kw + 1), min(index, width - kw)))
            ky = draw(st.integers(0, height - kh))
        beam = None
    else:
        kw, kh = _key_shape(draw, draw(st.booleans()))
        kx = draw(st.integers(0, width - kw))
        ky = draw(st.integers(0, height - kh))
        d = draw(st.sampled_from(tuple(DIRS)))
        offset = draw(st.integers(0, (kw if d in "NS" else kh) - 1))
        beam = {"dir": d, "offset": offset}

    key = {"kind": "key", "x": kx, "y": ky, "w": kw, "h": kh}
    taken = _cells(kx, ky, kw, kh)

    # Beam levels: usually put a mirror somewhere on the beam's first straight line,
    # so that solvable beam levels (light turning corners) are common.
    mirrors: list[dict] = []
    if beam is not None and draw(st.integers(0, 3)) > 0:
        dx, dy = DIRS[beam["dir"]]
        if beam["dir"] == "N":
            x, y = kx + beam["offset"], ky - 1
        elif beam["dir"] == "S":
            x, y = kx + beam["offset"], ky + kh
        elif beam["dir"] == "E":
            x, y = kx + kw, ky + beam["offset"]
        else:
            x, y = kx - 1, ky + beam["offset"]
        line = []
        while 0 <= x < width and 0 <= y < height:
            line.append((x, y))
            x, y = x + dx, y + dy
        if line:
            mx, my = draw(st.sampled_from(line))
            mirrors.append({"x": mx, "y": my, "tilt": draw(st.sampled_from(("/", "\\")))})
            taken.add((mx, my))
    if beam is not None:
        for _ in range(draw(st.integers(0, max_mirrors))):
            mx, my = draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))
            if (mx, my) not in taken:
                mirrors.append({"x": mx, "y": my, "tilt": draw(st.sampled_from(("/", "\\")))})
                taken.add((mx, my))

    others: list[dict] = []
    wanted = draw(st.integers(min_blocks, max_blocks))
    for _ in range(3 * wanted):
        if len(others) == wanted:
            break
        kind = draw(st.sampled_from(kinds))
        length = draw(st.sampled_from((2, 2, 2, 3, 3, 4)))
        thick = 2 if length >= 3 and draw(st.integers(0, 7)) == 0 else 1
        w, h = (length, thick) if draw(st.booleans()) else (thick, length)
        if w > width or h > height:
            continue
        x, y = draw(st.integers(0, width - w)), draw(st.integers(0, height - h))
        body = _cells(x, y, w, h)
        if body & taken:
            continue
        taken |= body
        others.append({"kind": kind, "x": x, "y": y, "w": w, "h": h})

    walls: list[list[int]] = []
    for _ in range(draw(st.integers(0, max_walls))):
        cx, cy = draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))
        if (cx, cy) not in taken:
            walls.append([cx, cy])
            taken.add((cx, cy))

    if beam is not None and draw(st.integers(0, 2)) > 0:
        # Usually put the lantern where the light would leave an empty board, so
        # that the blocks (not the geometry) decide whether the level is solvable.
        out = _light_exit(width, height, key, beam, mirrors)
        if out is not None:
            side, index = out

    at = draw(st.integers(0, len(others)))
    blocks = others[:at] + [key] + others[at:]

    level: dict = {"id": "h-" + draw(st.sampled_from(("a", "b", "c"))) + "01",
                   "width": width, "height": height,
                   "exit": {"side": side, "index": index}}
    if win == "beam":
        level["win"] = "beam"
        level["beam"] = beam
    if walls:
        level["walls"] = sorted(walls)
    if mirrors:
        level["mirrors"] = sorted(mirrors, key=lambda m: (m["y"], m["x"]))
    level["blocks"] = blocks
    return level


def _light_exit(width: int, height: int, key: dict, beam: dict, mirrors: list[dict]):
    """Where light from the key leaves a board holding only the key and the mirrors."""
    tilt = {(m["x"], m["y"]): m["tilt"] for m in mirrors}
    body = _cells(key["x"], key["y"], key["w"], key["h"])
    dx, dy = DIRS[beam["dir"]]
    x = key["x"] + (beam["offset"] if beam["dir"] in "NS" else key["w"] if beam["dir"] == "E" else -1)
    y = key["y"] + (beam["offset"] if beam["dir"] in "EW" else key["h"] if beam["dir"] == "S" else -1)
    for _ in range(4 * width * height):
        if x < 0:
            return "left", y
        if x >= width:
            return "right", y
        if y < 0:
            return "top", x
        if y >= height:
            return "bottom", x
        if (x, y) in body:
            return None
        t = tilt.get((x, y))
        if t == "/":
            dx, dy = -dy, -dx
        elif t == "\\":
            dx, dy = dy, dx
        x, y = x + dx, y + dy
    return None


def exit_levels(**kw) -> st.SearchStrategy[dict]:
    return levels(win="exit", **kw)


def beam_levels(**kw) -> st.SearchStrategy[dict]:
    return levels(win="beam", **kw)


def dense_levels(**kw) -> st.SearchStrategy[dict]:
    """Crowded 5x5..6x6 boards: bigger state spaces (hundreds to thousands of states)."""
    kw = {"min_blocks": 5, "max_blocks": 9, "min_side": 5, **kw}
    return levels(**kw)


def crystal_levels(**kw) -> st.SearchStrategy[dict]:
    """Crystal-only levels (what the generation sweeps run on)."""
    return levels(kinds=("crystal",), **kw)
