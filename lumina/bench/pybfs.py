"""A plain-Python BFS over the same rules, used only as the benchmark's baseline.

Straightforward idiomatic Python (bitboard ints, a dict of parents, a deque): what
one would write without a compiled core. It handles key and crystal blocks only,
which is all a classic Rush Hour board has.
"""
from __future__ import annotations

from collections import deque

from lumina.model import Level


def solve_plain(level: Level) -> tuple[int | None, int]:
    """(optimal or None, states explored) for a key/crystal exit level."""
    W, H = level.width, level.height
    fixed = 0
    for x, y in level.walls:
        fixed |= 1 << (y * W + x)
    masks = []
    for b in level.blocks:
        if b.kind not in ("key", "crystal"):
            raise ValueError("the plain baseline handles key and crystal blocks only")
        if b.w > b.h:
            masks.append([sum(1 << (j * W + i) for j in range(b.y, b.y + b.h)
                              for i in range(p, p + b.w)) for p in range(W - b.w + 1)])
        else:
            masks.append([sum(1 << (j * W + i) for j in range(p, p + b.h)
                              for i in range(b.x, b.x + b.w)) for p in range(H - b.h + 1)])
    k = level.key_index
    key = level.key
    goal = {"right": W - key.w, "bottom": H - key.h}.get(level.exit.side, 0)
    start = tuple(b.x if b.w > b.h else b.y for b in level.blocks)
    if start[k] == goal:
        return 0, 1
    depth = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        occ = fixed
        for i, p in enumerate(s):
            occ |= masks[i][p]
        for i, p in enumerate(s):
            rest = occ & ~masks[i][p]
            for step in (-1, 1):
                q = p + step
                while 0 <= q < len(masks[i]) and not masks[i][q] & rest:
                    n = s[:i] + (q,) + s[i + 1:]
                    if n not in depth:
                        depth[n] = depth[s] + 1
                        if i == k and q == goal:
                            return depth[n], len(depth)
                        queue.append(n)
                    q += step
    return None, len(depth)
