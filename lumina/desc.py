"""Text forms of a level: the compact desc (share links, fixtures) and Rush Hour boards.

Desc grammar (URL-safe, shared with `templates/static/engine.js`):

    {w}x{h}-{S}{index}-{blocks}[-w{walls}][-m{mirrors}][-b{dir}{offset}]

    S        exit side: L R T B
    blocks   5-character tokens: kind letter (K key, C crystal, S sand, I ice, R rime)
             then x y w h as single digits
    walls    "xy" digit pairs;  mirrors "xy" + f ("/") or b ("\\")
    -b...    present only on beam levels (win = beam)

Example: ``6x5-R2-K0221I2113-w30-m41f-bE0``. `Level.desc()` (lumina.model) writes it,
with the letters of `model.KIND_LETTERS`, `SIDE_LETTERS` and `TILT_LETTERS`;
`from_desc` reads it.

Insight: a 36-character Rush Hour board is the grid read row by row:

    ooooBo      o (or .) empty, x wall, A the key (row 2, exit right of row 2),
    ooooBo      any other letter a crystal block whose shape gives its axis
    AAooBo >
    oooooo
"""
from __future__ import annotations

import re

from lumina.model import (KIND_LETTERS, SIDE_LETTERS, TILT_LETTERS, Beam, Block, Exit, Level,
                          LevelError, Mirror, short)

_LETTER_KIND = {v: k for k, v in KIND_LETTERS.items()}
_LETTER_SIDE = {v: k for k, v in SIDE_LETTERS.items()}
_LETTER_TILT = {v: k for k, v in TILT_LETTERS.items()}

#: What a desc may carry around it (a pasted link's line end): ASCII whitespace only, in
#: both readers (Python's str.strip and JavaScript's trim disagree beyond ASCII).
SPACE = " \t\n\r\f\v"
_DESC = re.compile(
    r"^(?P<w>\d)x(?P<h>\d)-(?P<side>[LRTB])(?P<index>\d)-(?P<blocks>(?:[KCSIR]\d{4})+)"
    r"(?:-w(?P<walls>(?:\d\d)+))?(?:-m(?P<mirrors>(?:\d\d[fb])+))?(?:-b(?P<dir>[NESW])(?P<off>\d))?$", re.ASCII)   # ASCII digits only, like engine.js


def from_desc(text: str, *, id: str = "custom") -> Level:
    """Parse a desc; `LevelError` (field `desc`) when it does not match the grammar,
    or naming the field when the level it draws is not valid (`lumina.model`).
    `templates/static/desc.js` refuses exactly the same texts (parity vectors)."""
    m = _DESC.fullmatch(text.strip(SPACE))
    if not m:
        raise LevelError(id, "desc", f"not a level description: {short(repr(text))}")
    bl = m["blocks"]
    blocks = tuple(Block(kind=_LETTER_KIND[bl[i]], x=int(bl[i + 1]), y=int(bl[i + 2]),
                         w=int(bl[i + 3]), h=int(bl[i + 4])) for i in range(0, len(bl), 5))
    wl = m["walls"] or ""
    walls = tuple((int(wl[i]), int(wl[i + 1])) for i in range(0, len(wl), 2))
    ml = m["mirrors"] or ""
    mirrors = tuple(Mirror(x=int(ml[i]), y=int(ml[i + 1]), tilt=_LETTER_TILT[ml[i + 2]])
                    for i in range(0, len(ml), 3))
    beam = Beam(dir=m["dir"], offset=int(m["off"])) if m["dir"] else None
    return Level(id=id, width=int(m["w"]), height=int(m["h"]),
                 exit=Exit(side=_LETTER_SIDE[m["side"]], index=int(m["index"])),
                 blocks=blocks, walls=walls, mirrors=mirrors,
                 win="beam" if beam else "exit", beam=beam)


def from_grid(rows: list[str], *, exit: Exit, id: str = "grid",
              kinds: dict[str, str] | None = None, key: str = "A",
              empty: str = ".o", wall: str = "x#", beam: Beam | None = None) -> Level:
    """A level from ASCII rows: `key` letter is the key, other letters are blocks
    (crystal unless `kinds` maps them), `/` and `\\` mirrors; `beam` makes it a
    beam level. Blocks are indexed in
    order of first appearance, reading row by row."""
    kinds = kinds or {}
    height, width = len(rows), len(rows[0]) if rows else 0
    cells, walls, mirrors = _scan(rows, id=id, empty=empty, wall=wall)
    blocks = []
    for ch, cs in cells.items():
        xs = [c[0] for c in cs]
        x0, y0 = min(xs), cs[0][1]              # cells come row by row: first row first
        w, h = max(xs) - x0 + 1, cs[-1][1] - y0 + 1
        if w * h != len(cs):
            raise LevelError(id, "grid", f"block {ch!r} is not a rectangle")
        kind = "key" if ch == key else kinds.get(ch, "crystal")
        blocks.append(Block(kind=kind, x=x0, y=y0, w=w, h=h))
    return Level(id=id, width=width, height=height, exit=exit, blocks=tuple(blocks),
                 walls=tuple(walls), mirrors=tuple(mirrors),
                 win="beam" if beam else "exit", beam=beam)


def _scan(rows: list[str], *, id: str, empty: str, wall: str
          ) -> tuple[dict[str, list[tuple[int, int]]], list[tuple[int, int]], list[Mirror]]:
    """Read ASCII rows: (cells per block letter in order of first appearance, reading
    row by row -- the block order --, walls, mirrors)."""
    width = len(rows[0]) if rows else 0
    cells: dict[str, list[tuple[int, int]]] = {}
    walls, mirrors = [], []
    for y, row in enumerate(rows):
        if len(row) != width:
            raise LevelError(id, "grid", f"row {y} has {len(row)} cells, expected {width}")
        for x, ch in enumerate(row):
            if ch in empty:
                continue
            if ch in wall:
                walls.append((x, y))
            elif ch in "/\\":
                mirrors.append(Mirror(x=x, y=y, tilt=ch))
            elif ch.isascii() and ch.isalpha():
                cells.setdefault(ch, []).append((x, y))
            else:
                raise LevelError(id, "grid", f"unknown cell {short(repr(ch))} at ({x}, {y})")
    return cells, walls, mirrors


def _rush_rows(board: str, id: str) -> list[str]:
    board = board.strip()
    if len(board) != 36:
        raise LevelError(id, "board", f"a Rush Hour board has 36 cells, got {len(board)}")
    return [board[i:i + 6] for i in range(0, 36, 6)]


def rush_hour_letters(board: str, *, id: str = "rush") -> tuple[str, ...]:
    """The board's own piece letter of each block of `from_rush_hour(board)`, by block
    index (so moves print as Rush Hour players read them: `E+1 A+3`)."""
    cells, _, _ = _scan(_rush_rows(board, id), id=id, empty="o.", wall="x")
    return tuple(cells)


def from_rush_hour(board: str, *, id: str = "rush") -> Level:
    """A classic 36-character Rush Hour board (A = key, exit right of row 2, x = wall,
    `o` or `.` empty: Fogleman's database uses `o`, his article and most boards `.`)."""
    return from_grid(_rush_rows(board, id), exit=Exit(side="right", index=2), id=id,
                     empty="o.", wall="x")
