"""Level thumbnails: one small PNG per level, byte-identical from run to run.

`thumbnail_png(level) -> bytes` draws a `lumina.model.Level` in
the site's night palette. The image doubles as the level page's social preview.

Determinism: the image is drawn straight into a fixed 16-colour palette
(mode "P", no anti-aliasing, no dithering), and saved without any metadata
chunk (no time, no text, no gamma), so the same level gives the same bytes.

Readable without colour: every kind carries a mark as well as a colour.

    crystal  facet line        sand  grain dots       ice   glint strokes
    rime     snowflake         key   bright core      wall  stone hatch
    mirror   silver diagonal   lantern  a glowing notch in the frame

Insight: 20 px a cell and 6 px of frame; the lantern sits in the frame.

    +------------------+
    | . . B . . .      |     width 6, height 3, cell 20 px, pad 6 px
    | A A B . . .      #  <- lantern notch on the right, row 1
    | . . . . . .      |
    +------------------+
"""
from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from lumina.model import Block, Level

CELL = 20
PAD = 6

# A fixed palette: index -> RGB. Order matters (it is the PNG's PLTE chunk).
PALETTE: list[tuple[int, int, int]] = [
    (11, 16, 32),     # 0 night (frame)
    (22, 30, 56),     # 1 board
    (34, 45, 80),     # 2 grid line
    (88, 92, 108),    # 3 stone
    (60, 63, 78),     # 4 stone hatch
    (255, 206, 92),   # 5 key / lantern gold
    (255, 244, 200),  # 6 key core / lantern light
    (126, 150, 230),  # 7 crystal
    (190, 205, 255),  # 8 crystal facet
    (214, 160, 92),   # 9 sand
    (150, 104, 52),   # 10 sand grain
    (170, 225, 250),  # 11 ice
    (245, 252, 255),  # 12 ice glint / rime mark
    (205, 218, 238),  # 13 rime frost
    (96, 112, 150),   # 14 rime mark
    (220, 226, 236),  # 15 mirror silver
]
_FLAT = [c for rgb in PALETTE for c in rgb]

_KIND = {"key": (5, 6), "crystal": (7, 8), "sand": (9, 10), "ice": (11, 12), "rime": (13, 14)}


def thumbnail_size(level: Level) -> tuple[int, int]:
    """Pixel size of a level's thumbnail (width, height)."""
    return level.width * CELL + 2 * PAD, level.height * CELL + 2 * PAD


def _block(d: ImageDraw.ImageDraw, b: Block) -> None:
    fill, mark = _KIND[b.kind]
    x0, y0 = PAD + b.x * CELL + 2, PAD + b.y * CELL + 2
    x1, y1 = PAD + (b.x + b.w) * CELL - 3, PAD + (b.y + b.h) * CELL - 3
    d.rectangle((x0, y0, x1, y1), fill=fill)
    kind = b.kind
    if kind == "key":
        # a bright core, like a filament
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        d.rectangle((x0 + 4, cy - 2, x1 - 4, cy + 1) if b.w >= b.h else (cx - 2, y0 + 4, cx + 1, y1 - 4),
                    fill=mark)
    elif kind == "crystal":
        d.line((x0 + 2, y1 - 2, x0 + 8, y0 + 2), fill=mark, width=1)
        d.line((x0 + 2, y0 + 2, x1 - 2, y0 + 2), fill=mark, width=1)
    elif kind == "sand":
        for yy in range(y0 + 3, y1 - 1, 4):
            for xx in range(x0 + 3 + (yy // 4) % 2 * 2, x1 - 1, 4):
                d.point((xx, yy), fill=mark)
    elif kind == "ice":
        d.line((x0 + 3, y0 + 8, x0 + 8, y0 + 3), fill=mark, width=1)
        d.line((x0 + 3, y0 + 12, x0 + 12, y0 + 3), fill=mark, width=1)
    elif kind == "rime":
        for i in range(b.w):
            for j in range(b.h):
                cx = PAD + (b.x + i) * CELL + CELL // 2 - 1
                cy = PAD + (b.y + j) * CELL + CELL // 2 - 1
                d.line((cx - 4, cy, cx + 4, cy), fill=mark)
                d.line((cx, cy - 4, cx, cy + 4), fill=mark)
                d.line((cx - 3, cy - 3, cx + 3, cy + 3), fill=mark)
                d.line((cx - 3, cy + 3, cx + 3, cy - 3), fill=mark)


def _lantern(d: ImageDraw.ImageDraw, level: dict[str, Any]) -> None:
    side, index = level.exit.side, level.exit.index
    W, H = level.width, level.height
    if side in ("left", "right"):
        y0, y1 = PAD + index * CELL + 3, PAD + (index + 1) * CELL - 4
        x0 = 0 if side == "left" else PAD + W * CELL + 1
        d.rectangle((x0, y0, x0 + PAD - 2, y1), fill=5)
        d.rectangle((x0 + 1, y0 + 4, x0 + PAD - 3, y1 - 4), fill=6)
    else:
        x0, x1 = PAD + index * CELL + 3, PAD + (index + 1) * CELL - 4
        y0 = 0 if side == "top" else PAD + H * CELL + 1
        d.rectangle((x0, y0, x1, y0 + PAD - 2), fill=5)
        d.rectangle((x0 + 4, y0 + 1, x1 - 4, y0 + PAD - 3), fill=6)


def _beam_hint(d: ImageDraw.ImageDraw, level: dict[str, Any]) -> None:
    """A short ray from the key's emitting edge, so beam levels read as beam levels."""
    key = level.key
    dirn, off = level.beam.dir, level.beam.offset
    kx, ky, kw, kh = key.x, key.y, key.w, key.h
    if dirn in ("E", "W"):
        cy = PAD + (ky + off) * CELL + CELL // 2 - 1
        x = PAD + (kx + kw) * CELL if dirn == "E" else PAD + kx * CELL - 1
        sign = 1 if dirn == "E" else -1
        d.line((x, cy, x + sign * 8, cy), fill=6, width=2)
    else:
        cx = PAD + (kx + off) * CELL + CELL // 2 - 1
        y = PAD + (ky + kh) * CELL if dirn == "S" else PAD + ky * CELL - 1
        sign = 1 if dirn == "S" else -1
        d.line((cx, y, cx, y + sign * 8), fill=6, width=2)


def render(level: Level) -> Image.Image:
    """The thumbnail as a palette image (not yet encoded)."""
    W, H = level.width, level.height
    img = Image.new("P", thumbnail_size(level), 0)
    img.putpalette(_FLAT)
    d = ImageDraw.Draw(img)
    d.rectangle((PAD, PAD, PAD + W * CELL - 1, PAD + H * CELL - 1), fill=1)
    for i in range(1, W):
        d.line((PAD + i * CELL, PAD, PAD + i * CELL, PAD + H * CELL - 1), fill=2)
    for j in range(1, H):
        d.line((PAD, PAD + j * CELL, PAD + W * CELL - 1, PAD + j * CELL), fill=2)
    for x, y in sorted(level.walls):
        x0, y0 = PAD + x * CELL, PAD + y * CELL
        d.rectangle((x0, y0, x0 + CELL - 1, y0 + CELL - 1), fill=3)
        for k in range(0, CELL, 5):
            d.line((x0 + k, y0 + CELL - 1, x0 + CELL - 1, y0 + k), fill=4)
    for m in level.mirrors:
        x0, y0 = PAD + m.x * CELL, PAD + m.y * CELL
        d.rectangle((x0 + 1, y0 + 1, x0 + CELL - 2, y0 + CELL - 2), outline=2)
        if m.tilt == "/":
            d.line((x0 + 2, y0 + CELL - 3, x0 + CELL - 3, y0 + 2), fill=15, width=3)
        else:
            d.line((x0 + 2, y0 + 2, x0 + CELL - 3, y0 + CELL - 3), fill=15, width=3)
    for b in level.blocks:
        _block(d, b)
    _lantern(d, level)
    if level.win == "beam" and level.beam is not None:
        _beam_hint(d, level)
    return img


def thumbnail_png(level: Level) -> bytes:
    """PNG bytes for a level: fixed palette, no metadata, same level -> same bytes."""
    buf = io.BytesIO()
    render(level).save(buf, format="PNG", optimize=False, compress_level=9)
    return buf.getvalue()
