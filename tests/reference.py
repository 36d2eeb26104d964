"""A slow, obviously correct pure-Python Lumina engine, written from RULES.md alone.

It works on the level JSON dict of RULES.md directly (it does not import
``lumina`` at all), so the compiled engine can be held to it by tests.  Nothing
here is fast: every question is answered cell by cell with a set of occupied
cells, so each line can be checked against the rules by reading it.

Insight: a state is the blocks' top-left corners plus one flag per block::

    width 6, height 3, exit right of row 1       positions = ((0, 1), (2, 0), (4, 1))
      . . B . . .                                flags     = (False, False, True)
      A A B . C .  >  lantern                    (block 2 is sand: True = spent)
      . . . . C .

State = (positions, flags): ``positions`` a tuple of (x, y) per block,
``flags`` a tuple of bool per block (sand: spent, rime: thawed, others False).
This is the same shape as ``lumina.engine.Board.decode`` returns.

Rule decisions where RULES.md is vague (documented in docs/RULES-DECISIONS.md):
- Thaw is checked on the resting positions after each whole move (and once at
  load); a key sliding past a rime block mid-drag does not thaw it.
- A beam passes over empty cells and mirror cells only; every block, the key
  included, and every wall stops it.
- If the beam's first cell is already outside the grid, the beam has left
  through that edge at the key's row/column: solved iff that is the lantern's
  edge and index.
- ``trace`` starts *in* cell (x, y) travelling (dx, dy); a mirror in the start
  cell turns the beam there.  It gives up after width*height*4 in-grid steps.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Iterable

Level = dict[str, Any]
Positions = tuple[tuple[int, int], ...]
Flags = tuple[bool, ...]
State = tuple[Positions, Flags]
Move = tuple[int, int]

SOLVED, UNSOLVABLE, EXHAUSTED = "solved", "unsolvable", "exhausted"

_DIRS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


class CapExceeded(Exception):
    """A sweep met more states than its cap allowed."""


# ---------------------------------------------------------------- geometry

def horizontal(block: dict) -> bool:
    """A block slides horizontally when it is wider than tall."""
    return block["w"] > block["h"]


def cells(block: dict, pos: tuple[int, int]) -> list[tuple[int, int]]:
    """Every cell a block covers with its top-left corner at ``pos``."""
    x0, y0 = pos
    return [(x, y) for y in range(y0, y0 + block["h"]) for x in range(x0, x0 + block["w"])]


def key_index(level: Level) -> int:
    return [b["kind"] for b in level["blocks"]].index("key")


def fixed_cells(level: Level) -> set[tuple[int, int]]:
    """Walls and mirrors: cells nothing may ever enter."""
    out = {(int(x), int(y)) for x, y in level.get("walls", ())}
    out |= {(m["x"], m["y"]) for m in level.get("mirrors", ())}
    return out


def occupied(level: Level, state: State, skip: int | None = None) -> set[tuple[int, int]]:
    """Walls, mirrors and every block's cells, except block ``skip``."""
    positions, _ = state
    out = fixed_cells(level)
    for i, (block, pos) in enumerate(zip(level["blocks"], positions)):
        if i != skip:
            out.update(cells(block, pos))
    return out


def in_grid(level: Level, x: int, y: int) -> bool:
    return 0 <= x < level["width"] and 0 <= y < level["height"]


def free_distances(level: Level, state: State, i: int, sign: int,
                   blocked: set[tuple[int, int]] | None = None) -> list[int]:
    """Distances block ``i`` can slide in direction ``sign`` (+1 right/down), nearest first.

    ``blocked`` (optional) is ``occupied(level, state, skip=i)``, passed in to save time.
    """
    block = level["blocks"][i]
    x, y = state[0][i]
    dx, dy = (sign, 0) if horizontal(block) else (0, sign)
    if blocked is None:
        blocked = occupied(level, state, skip=i)
    out = []
    k = 1
    while True:
        pos = (x + dx * k, y + dy * k)
        body = cells(block, pos)
        if not all(in_grid(level, cx, cy) and (cx, cy) not in blocked for cx, cy in body):
            return out
        out.append(k)
        k += 1


# ------------------------------------------------------------------ moves

def can_move(level: Level, state: State, i: int) -> bool:
    kind = level["blocks"][i]["kind"]
    spent_or_thawed = state[1][i]
    if kind == "sand":
        return not spent_or_thawed
    if kind == "rime":
        return spent_or_thawed
    return True


def moves(level: Level, state: State) -> list[Move]:
    """Every legal ``(block, signed distance)``, ordered by block then distance."""
    out: list[Move] = []
    everything = occupied(level, state)
    for i, block in enumerate(level["blocks"]):
        if not can_move(level, state, i):
            continue
        blocked = everything - set(cells(block, state[0][i]))
        back = free_distances(level, state, i, -1, blocked)
        fwd = free_distances(level, state, i, +1, blocked)
        if block["kind"] == "ice":
            # The player picks a direction, not a destination.
            back, fwd = back[-1:], fwd[-1:]
        out.extend((i, -k) for k in back)
        out.extend((i, k) for k in fwd)
    return sorted(out)


def thaw(level: Level, state: State) -> State:
    """Thaw every frozen rime block sharing an edge with a key cell."""
    positions, flags = state
    k = key_index(level)
    key_cells = set(cells(level["blocks"][k], positions[k]))
    new_flags = list(flags)
    for i, block in enumerate(level["blocks"]):
        if block["kind"] != "rime" or flags[i]:
            continue
        for cx, cy in cells(block, positions[i]):
            if {(cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)} & key_cells:
                new_flags[i] = True
                break
    return positions, tuple(new_flags)


def start(level: Level) -> State:
    """The level's start state, with thaw-at-load applied."""
    positions = tuple((b["x"], b["y"]) for b in level["blocks"])
    flags = tuple(False for _ in level["blocks"])
    return thaw(level, (positions, flags))


def apply(level: Level, state: State, move: Move) -> State:
    """The state after a legal move (sand spent, thaw applied); ValueError if illegal."""
    move = (int(move[0]), int(move[1]))
    if move not in moves(level, state):
        raise ValueError(f"illegal move {move}")
    return _slide(level, state, move)


def _slide(level: Level, state: State, move: Move) -> State:
    """``apply`` without the legality check (for moves straight from ``moves``)."""
    i, d = move
    positions, flags = state
    x, y = positions[i]
    block = level["blocks"][i]
    new_pos = (x + d, y) if horizontal(block) else (x, y + d)
    positions = positions[:i] + (new_pos,) + positions[i + 1:]
    if block["kind"] == "sand":
        flags = flags[:i] + (True,) + flags[i + 1:]
    return thaw(level, (positions, flags))


# ---------------------------------------------------------------- winning

def _exit(level: Level) -> tuple[str, int]:
    return level["exit"]["side"], level["exit"]["index"]


def trace(level: Level, state: State, x: int, y: int, dx: int, dy: int) -> bool:
    """Follow light that is in cell (x, y) travelling (dx, dy); True iff it leaves by the lantern."""
    side, index = _exit(level)
    w, h = level["width"], level["height"]
    mirrors = {(m["x"], m["y"]): m["tilt"] for m in level.get("mirrors", ())}
    blocked = occupied(level, state) - set(mirrors)
    for _ in range(w * h * 4):
        if not in_grid(level, x, y):
            if x < 0:
                return side == "left" and index == y
            if x >= w:
                return side == "right" and index == y
            if y < 0:
                return side == "top" and index == x
            return side == "bottom" and index == x
        if (x, y) in blocked:
            return False
        tilt = mirrors.get((x, y))
        if tilt == "/":
            dx, dy = -dy, -dx
        elif tilt == "\\":
            dx, dy = dy, dx
        x, y = x + dx, y + dy
    return False


def beam_start(level: Level, state: State) -> tuple[int, int, int, int]:
    """(x, y, dx, dy): the cell just beyond the key's edge facing ``dir``, at ``offset``."""
    k = key_index(level)
    key = level["blocks"][k]
    kx, ky = state[0][k]
    d, off = level["beam"]["dir"], level["beam"]["offset"]
    dx, dy = _DIRS[d]
    if d == "N":
        return kx + off, ky - 1, dx, dy
    if d == "S":
        return kx + off, ky + key["h"], dx, dy
    if d == "E":
        return kx + key["w"], ky + off, dx, dy
    return kx - 1, ky + off, dx, dy


def is_solved(level: Level, state: State) -> bool:
    """The only definition of winning: exit (flush and covering) or beam (leaves by the lantern)."""
    if level.get("win", "exit") == "beam":
        return trace(level, state, *beam_start(level, state))
    side, index = _exit(level)
    k = key_index(level)
    key = level["blocks"][k]
    x, y = state[0][k]
    if side == "right":
        return x + key["w"] == level["width"] and y <= index < y + key["h"]
    if side == "left":
        return x == 0 and y <= index < y + key["h"]
    if side == "bottom":
        return y + key["h"] == level["height"] and x <= index < x + key["w"]
    return y == 0 and x <= index < x + key["w"]


# ---------------------------------------------------------------- solving

def _neighbours(level: Level, state: State) -> Iterable[tuple[Move, State]]:
    for move in moves(level, state):
        yield move, _slide(level, state, move)


def bfs(level: Level, cap: int = 500_000) -> tuple[str, int | None, list[Move] | None, int]:
    """Breadth-first search: (outcome, optimal, one optimal move list, states seen).

    ``exhausted`` when more than ``cap`` distinct states would have to be seen.
    """
    s0 = start(level)
    parent: dict[State, tuple[State, Move] | None] = {s0: None}
    queue = deque([s0])
    while queue:
        s = queue.popleft()
        if is_solved(level, s):
            path: list[Move] = []
            while parent[s] is not None:
                s, m = parent[s]  # type: ignore[misc]
                path.append(m)
            path.reverse()
            return SOLVED, len(path), path, len(parent)
        for move, t in _neighbours(level, s):
            if t not in parent:
                if len(parent) >= cap:
                    return EXHAUSTED, None, None, len(parent)
                parent[t] = (s, move)
                queue.append(t)
    return UNSOLVABLE, None, None, len(parent)


def distances(level: Level, cap: int = 500_000, succ=None) -> dict[State, int]:
    """Every reachable state with its distance from the start; CapExceeded past ``cap``.
    ``succ``: a ``memo_successors(level)`` to share move generation with later questions."""
    succ = succ or memo_successors(level)
    s0 = start(level)
    dist = {s0: 0}
    queue = deque([s0])
    while queue:
        s = queue.popleft()
        for t in succ(s).values():
            if t not in dist:
                if len(dist) >= cap:
                    raise CapExceeded(cap)
                dist[t] = dist[s] + 1
                queue.append(t)
    return dist


def component(level: Level, cap: int = 500_000) -> int:
    """How many states are reachable from the start (the start included)."""
    return len(distances(level, cap))


def optimal_dag(level: Level, cap: int = 500_000) -> tuple[int, set[int]]:
    """(distinct optimal move sequences, blocks that never move in any optimal solution).

    Unsolvable levels give (0, every block index).
    """
    dist = distances(level, cap)
    goals = [s for s in dist if is_solved(level, s)]
    if not goals:
        return 0, set(range(len(level["blocks"])))
    best = min(dist[s] for s in goals)
    # ways[s] = number of optimal move sequences from s to a goal at depth ``best``.
    ways: dict[State, int] = {}
    layers: dict[int, list[State]] = {}
    for s, d in dist.items():
        if d <= best:
            layers.setdefault(d, []).append(s)
    used: set[int] = set()
    for s in layers[best]:
        ways[s] = 1 if is_solved(level, s) else 0
    for d in range(best - 1, -1, -1):
        for s in layers[d]:
            total = 0
            for move, t in _neighbours(level, s):
                if dist.get(t) == d + 1 and ways.get(t, 0):
                    total += ways[t]
            ways[s] = total
    # A move lies on an optimal solution when it goes from a state reached
    # optimally from the start to a state one layer deeper that still leads on.
    frontier = {start(level)}
    for d in range(best):
        nxt = set()
        for s in frontier:
            for move, t in _neighbours(level, s):
                if dist.get(t) == d + 1 and ways.get(t, 0):
                    used.add(move[0])
                    nxt.add(t)
        frontier = nxt
    return ways[start(level)], set(range(len(level["blocks"]))) - used


# ---------------------------------------------------------------- fixtures

def ascii_level(
    board: str,
    *,
    exit: tuple[str, int] = ("right", 2),
    kinds: dict[str, str] | None = None,
    win: str = "exit",
    beam: tuple[str, int] | None = None,
    id: str = "t-ascii",
) -> Level:
    """A level dict from a board drawn as text, one row per line.

    ``.`` empty, ``#`` wall, ``/`` and ``\\`` mirrors, ``A`` the key, any other
    letter a block (kind from ``kinds``, default crystal).  Blocks are numbered
    in order of first appearance, reading row by row.
    """
    kinds = dict(kinds or {})
    rows = [line.split() if " " in line.strip() else list(line.strip())
            for line in board.strip("\n").splitlines() if line.strip()]
    height, width = len(rows), len(rows[0])
    assert all(len(r) == width for r in rows), "ragged board"
    letters: dict[str, list[tuple[int, int]]] = {}
    walls, mirrors = [], []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == ".":
                continue
            if ch == "#":
                walls.append([x, y])
            elif ch in "/\\":
                mirrors.append({"x": x, "y": y, "tilt": ch})
            else:
                letters.setdefault(ch, []).append((x, y))
    blocks = []
    for ch, cs in letters.items():
        xs, ys = [c[0] for c in cs], [c[1] for c in cs]
        x, y, w, h = min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
        assert len(cs) == w * h, f"block {ch} is not a rectangle"
        kind = "key" if ch == "A" else kinds.get(ch, "crystal")
        blocks.append({"kind": kind, "x": x, "y": y, "w": w, "h": h})
    level: Level = {"id": id, "width": width, "height": height,
                    "exit": {"side": exit[0], "index": exit[1]}}
    if win != "exit":
        level["win"] = win
    if beam is not None:
        level["beam"] = {"dir": beam[0], "offset": beam[1]}
    if walls:
        level["walls"] = walls
    if mirrors:
        level["mirrors"] = mirrors
    level["blocks"] = blocks
    return level


def rush_level(board36: str, id: str = "t-rush") -> Level:
    """A Rush Hour line's 36-character board as a level: A the key, exit right of row 2."""
    assert len(board36) == 36
    text = "\n".join(board36[r * 6:(r + 1) * 6] for r in range(6))
    text = text.replace("o", ".").replace("x", "#")
    return ascii_level(text, exit=("right", 2), id=id)


def draw(level: Level, state: State | None = None) -> str:
    """The board as text (inverse of ``ascii_level`` for a state), for failure messages."""
    state = state or start(level)
    grid = [["." for _ in range(level["width"])] for _ in range(level["height"])]
    for x, y in level.get("walls", ()):
        grid[y][x] = "#"
    for m in level.get("mirrors", ()):
        grid[m["y"]][m["x"]] = m["tilt"]
    letters = iter("BCDEFGHIJKLMNOPQRSTUVWXYZ")
    for block, pos in zip(level["blocks"], state[0]):
        ch = "A" if block["kind"] == "key" else next(letters)
        for x, y in cells(block, pos):
            grid[y][x] = ch
    return "\n".join("".join(r) for r in grid)


# ------------------------------------------------------------- validity

def problems(level: Level) -> list[str]:
    """What makes ``level`` invalid per RULES.md (empty when valid); used to check fixtures."""
    out: list[str] = []
    w, h = level["width"], level["height"]
    if not (4 <= w <= 8 and 4 <= h <= 8):
        out.append("grid size")
    blocks = level["blocks"]
    kinds = [b["kind"] for b in blocks]
    if kinds.count("key") != 1:
        out.append("exactly one key")
    if any(k not in ("key", "crystal", "sand", "ice", "rime") for k in kinds):
        out.append("kind")
    if len(blocks) > 16:
        out.append("more than 16 movable blocks")
    seen: set[tuple[int, int]] = set()
    for x, y in level.get("walls", ()):
        if not in_grid(level, x, y) or (x, y) in seen:
            out.append(f"wall {x},{y}")
        seen.add((x, y))
    for m in level.get("mirrors", ()):
        if not in_grid(level, m["x"], m["y"]) or (m["x"], m["y"]) in seen or m["tilt"] not in "/\\":
            out.append(f"mirror {m}")
        seen.add((m["x"], m["y"]))
    for i, b in enumerate(blocks):
        if b["w"] == b["h"] or min(b["w"], b["h"]) < 1:
            out.append(f"block {i} square")
        for c in cells(b, (b["x"], b["y"])):
            if not in_grid(level, *c) or c in seen:
                out.append(f"block {i} cell {c}")
            seen.add(c)
    side, index = level["exit"]["side"], level["exit"]["index"]
    if side not in ("left", "right", "top", "bottom"):
        out.append("exit side")
    elif not 0 <= index < (h if side in ("left", "right") else w):
        out.append("exit index")
    win = level.get("win", "exit")
    if "key" in kinds and win == "exit":
        key = blocks[kinds.index("key")]
        if "beam" in level:
            out.append("beam on an exit level")
        if side in ("left", "right"):
            if not horizontal(key) or not key["y"] <= index < key["y"] + key["h"]:
                out.append("key cannot reach the lantern")
        elif horizontal(key) or not key["x"] <= index < key["x"] + key["w"]:
            out.append("key cannot reach the lantern")
    elif "key" in kinds and win == "beam":
        key = blocks[kinds.index("key")]
        beam = level.get("beam")
        if beam is None or beam["dir"] not in _DIRS:
            out.append("beam")
        else:
            edge = key["w"] if beam["dir"] in "NS" else key["h"]
            if not 0 <= beam["offset"] < edge:
                out.append("beam offset")
    bits = 3 * len(blocks) + sum(k in ("sand", "rime") for k in kinds)
    if bits > 64:
        out.append("more than 64 key bits")
    return out


# ---------------------------------------------------------- rush sample

def rush_sample_path():
    """rush-sample.txt: $LUMINA_RUSH_SAMPLE, else ../shared/reference/ beside the checkout,
    else the copy in tests/data/ (the same published boards)."""
    import os
    from pathlib import Path
    env = os.environ.get("LUMINA_RUSH_SAMPLE")
    if env:
        return Path(env)
    shared = Path(__file__).resolve().parents[2] / "shared" / "reference" / "rush-sample.txt"
    return shared if shared.exists() else Path(__file__).resolve().parent / "data" / "rush-sample.txt"


def rush_sample_lines() -> list[tuple[int, str, int]]:
    """(optimal moves, 36-character board, cluster size) for every line of rush-sample.txt."""
    out = []
    for line in rush_sample_path().read_text().splitlines():
        if line.strip():
            mm, board, cluster = line.split()
            out.append((int(mm), board, int(cluster)))
    return out


# ------------------------------------------------- measures (RULES.md Quality)
#
# Every function below answers one question of RULES.md "Quality" or "Generation"
# the slowest obvious way: optimal sequences are enumerated one by one, plans are
# the connected groups of those sequences under the adjacent-swap rule, every
# state's par is its own forward BFS.  Only for levels of a few hundred states.

def memo_successors(level: Level):
    """Each state's legal moves, each with the state it leads to (``moves`` order),
    remembered per state: the sequences, plans and chains below replay the same
    states again and again."""
    memo: dict[State, dict[Move, State]] = {}

    def successors(s: State) -> dict[Move, State]:
        got = memo.get(s)
        if got is None:
            got = memo[s] = dict(_neighbours(level, s))
        return got
    return successors


def memo_neighbours(level: Level, succ=None):
    """``_neighbours`` with its answers remembered per state (the many fresh searches
    below walk the same states again and again; each search is still its own BFS):
    the (move, state) pairs of ``succ``, a ``memo_successors(level)``."""
    succ = succ or memo_successors(level)
    return lambda s: succ(s).items()


def solve_from(level: Level, state: State, cap: int = 500_000, neighbours=None) -> int | None:
    """Par of ``state`` by a fresh breadth-first search (None: no win reachable).

    ``neighbours``: a ``memo_neighbours(level)`` to share move generation between
    searches.  CapExceeded when more than ``cap`` states would have to be seen."""
    neighbours = neighbours or memo_neighbours(level)
    seen = {state}
    frontier = [state]
    depth = 0
    while frontier:
        if any(is_solved(level, s) for s in frontier):
            return depth
        nxt = []
        for s in frontier:
            for _, t in neighbours(s):
                if t not in seen:
                    if len(seen) >= cap:
                        raise CapExceeded(cap)
                    seen.add(t)
                    nxt.append(t)
        frontier = nxt
        depth += 1
    return None


def optimal_sequences(level: Level, limit: int = 20_000, cap: int = 500_000,
                      succ=None) -> list[tuple[Move, ...]]:
    """Every optimal move sequence from the start, sorted; [] when unsolvable; [()] when solved at load.

    On an optimal sequence of length ``best`` the state after move i is exactly i
    moves from the start (were it closer, a shorter win would exist), so the
    enumeration only follows moves one BFS layer deeper.  CapExceeded past ``limit``
    sequences."""
    succ = succ or memo_successors(level)
    dist = distances(level, cap, succ)
    goals = [s for s in dist if is_solved(level, s)]
    if not goals:
        return []
    best = min(dist[s] for s in goals)
    memo: dict[State, list[tuple[Move, ...]]] = {}

    def tails(s: State) -> list[tuple[Move, ...]]:
        if s in memo:
            return memo[s]
        d = dist[s]
        if d == best:
            out = [()] if is_solved(level, s) else []
        else:
            out = []
            for move, t in succ(s).items():
                if dist.get(t) == d + 1:
                    out.extend((move,) + rest for rest in tails(t))
                    if len(out) > limit:
                        raise CapExceeded(limit)
        memo[s] = out
        return out

    return sorted(tails(start(level)))


def plan_classes(level: Level, seqs: list[tuple[Move, ...]] | None = None, succ=None
                 ) -> list[list[tuple[Move, ...]]]:
    """Optimal sequences grouped into plans (RULES.md Quality, Plans), each group sorted,
    the groups in order of their least member.

    Union-find over the sequences: join ``seq`` with the sequence whose moves i and
    i + 1 are swapped when the two moves belong to different blocks, both orders are
    legal from the same position with the same (block, distance) labels, and both
    orders reach the same position."""
    succ = succ or memo_successors(level)
    if seqs is None:
        seqs = optimal_sequences(level, succ=succ)
    index = {s: n for n, s in enumerate(seqs)}
    parent = list(range(len(seqs)))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for seq in seqs:
        states = [start(level)]
        for m in seq:
            states.append(succ(states[-1])[m])
        for i in range(len(seq) - 1):
            a, b = seq[i], seq[i + 1]
            if a[0] == b[0]:
                continue
            after_b = succ(states[i])
            if b not in after_b:
                continue
            mid = after_b[b]
            if succ(mid).get(a) != states[i + 2]:     # a illegal there, or elsewhere
                continue
            swapped = seq[:i] + (b, a) + seq[i + 2:]
            # Same length, same end: the swapped sequence is optimal, so it was enumerated.
            other = index[swapped]
            parent[find(index[seq])] = find(other)
    groups: dict[int, list[tuple[Move, ...]]] = {}
    for n, seq in enumerate(seqs):
        groups.setdefault(find(n), []).append(seq)
    return sorted((sorted(g) for g in groups.values()), key=lambda g: g[0])


def plans(level: Level, seqs: list[tuple[Move, ...]] | None = None, succ=None) -> int:
    """Optimal sequences up to swapping commuting adjacent moves: the number of groups."""
    return len(plan_classes(level, seqs, succ))


def occurrences(seq: tuple[Move, ...]) -> list[tuple[int, int]]:
    """Each move of ``seq`` named as an occurrence: (block, k) for block's k-th move."""
    seen: dict[int, int] = {}
    out = []
    for block, _ in seq:
        seen[block] = seen.get(block, 0) + 1
        out.append((block, seen[block]))
    return out


def plan_chain(group: list[tuple[Move, ...]]) -> int:
    """A plan's chain (RULES.md Quality, Dependent moves): occurrence i precedes j when
    i comes before j in every sequence of the plan; the chain is the number of moves
    in the longest run of that order, each preceding the next.

    Swaps exchange moves of different blocks only, so every sequence of a plan holds
    the same occurrences, each with the same (block, distance) label."""
    where = []
    for seq in group:
        occ = occurrences(seq)
        where.append({o: i for i, o in enumerate(occ)})
        assert sorted(zip(occ, seq)) == sorted(zip(occurrences(group[0]), group[0])), \
            "a plan's sequences hold different occurrences"
    order = occurrences(group[0])           # one sequence of the plan: a linear extension
    height: dict[tuple[int, int], int] = {}
    for j, o in enumerate(order):
        height[o] = 1 + max((height[p] for p in order[:j]
                             if all(w[p] < w[o] for w in where)), default=0)
    return max(height.values(), default=0)


def chain(level: Level, seqs: list[tuple[Move, ...]] | None = None, succ=None) -> int | None:
    """The level's chain: the least chain over its plans (None when unsolvable, 0 when
    solved at load)."""
    succ = succ or memo_successors(level)
    if seqs is None:
        seqs = optimal_sequences(level, succ=succ)
    if not seqs:
        return None
    return min(plan_chain(g) for g in plan_classes(level, seqs, succ))


def forced(level: Level, solution: tuple[Move, ...], cap: int = 500_000) -> int | None:
    """Moves of ``solution`` made from a position with exactly one optimal move (a move
    after which a fresh BFS proves the par one lower); None when ``solution`` is not an
    optimal solution."""
    nb = memo_neighbours(level)
    s = start(level)
    par = solve_from(level, s, cap, nb)
    if par is None or len(solution) != par:
        return None
    out = 0
    for move in solution:
        best = [m for m, t in nb(s) if solve_from(level, t, cap, nb) == par - 1]
        if move not in best:
            return None
        out += len(best) == 1
        s = _slide(level, s, move)
        par -= 1
    return out


TWIST = ("sand", "ice", "rime")


def optional_twist(level: Level, seqs: list[tuple[Move, ...]] | None = None) -> bool:
    """True when the level has sand, ice or rime and some optimal sequence moves none
    of those blocks."""
    if not has_twists(level):
        return False
    if seqs is None:
        seqs = optimal_sequences(level)
    kinds = [b["kind"] for b in level["blocks"]]
    return any(all(kinds[b] not in TWIST for b, _ in seq) for seq in seqs)


def deepest(level: Level, cap: int = 20_000) -> int:
    """The board's deepest par (RULES.md Quality, The hardest start): the highest par
    over the starts of ``sweep`` (the level's blocks wherever crystal slides take them,
    each with a fresh twist state); for a level with sand, ice or rime only binding
    starts (par above crystal par) count. 0 when no start counts."""
    sw = sweep(level, cap)
    return sw["deepest_binding"] if has_twists(level) else sw["deepest"]


def crystal(level: Level) -> Level:
    """The same board with every sand, ice and rime block turned into crystal of the same shape."""
    out = dict(level)
    out["blocks"] = [dict(b, kind="crystal") if b["kind"] in TWIST else dict(b)
                     for b in level["blocks"]]
    return out


def has_twists(level: Level) -> bool:
    return any(b["kind"] in TWIST for b in level["blocks"])


def traps(level: Level, cap: int = 500_000) -> int:
    """States reachable from the start from which no win is reachable (a fresh BFS from each)."""
    succ = memo_successors(level)
    nb = memo_neighbours(level, succ)
    return sum(1 for s in distances(level, cap, succ) if solve_from(level, s, cap, nb) is None)


def measures(level: Level, limit: int = 20_000, cap: int = 500_000) -> dict[str, Any]:
    """Every measure of RULES.md Quality, by brute force, keyed like ``lumina.engine.Measures``."""
    succ = memo_successors(level)
    seqs = optimal_sequences(level, limit, cap, succ)
    comp = distances(level, cap, succ)
    solved = bool(seqs)
    moved = {m[0] for seq in seqs for m in seq}
    cpar = None
    if has_twists(level):
        cpar = bfs(crystal(level), cap)[1]
    first = sorted({seq[0] for seq in seqs if seq})
    return {
        "outcome": SOLVED if solved else UNSOLVABLE,
        "optimal": len(seqs[0]) if solved else None,
        "plans": plans(level, seqs, succ) if solved else 0,
        "solutions": len(seqs),
        "dead_blocks": tuple(i for i in range(len(level["blocks"])) if i not in moved),
        "crystal_optimal": cpar,
        "first_moves": tuple(first),
        "first_moves_optimal": len(first),
        "first_moves_legal": len(moves(level, start(level))),
        "component_states": len(comp),
        "traps": traps(level, cap),
        "chain": chain(level, seqs, succ),
        "optional_twist": optional_twist(level, seqs),
        "dead_twists": tuple(i for i in range(len(level["blocks"]))
                             if i not in moved and level["blocks"][i]["kind"] in TWIST),
    }


# ------------------------------------------------- exact sweep (RULES.md Generation)

def placed(level: Level, positions: Positions, id: str | None = None) -> Level:
    """The level whose blocks stand at ``positions`` (kinds, walls, exit, beam kept)."""
    out = dict(level)
    out["blocks"] = [dict(b, x=x, y=y) for b, (x, y) in zip(level["blocks"], positions)]
    if id is not None:
        out["id"] = id
    return out


def sweep(layout: Level, cap: int = 20_000) -> dict[str, Any]:
    """The exact sweep of a layout by brute force.

    Starts: every block position reachable from the layout's by crystal slides (all
    blocks as crystal), loaded as a level would be (sand unspent, rime frozen, then
    thawed where it touches the key).  Each start's par is a fresh real-rules BFS and
    its crystal par a fresh BFS on the crystal board.  Also the real states reachable
    from all starts, their wins and traps.  ``starts`` maps positions to
    (start state, par, crystal par)."""
    flat = crystal(layout)
    nb, flat_nb = memo_neighbours(layout), memo_neighbours(flat)
    positions = [s[0] for s in distances(flat, cap)]
    starts: dict[Positions, tuple[State, int | None, int | None]] = {}
    for pos in positions:
        s = start(placed(layout, pos))
        starts[pos] = (s, solve_from(layout, s, cap, nb),
                       solve_from(flat, start(placed(flat, pos)), cap, flat_nb))
    # Real states reachable from every start: one forward search over all of them.
    seen = {s for s, _, _ in starts.values()}
    queue = deque(seen)
    while queue:
        s = queue.popleft()
        for _, t in nb(s):
            if t not in seen:
                if len(seen) >= cap:
                    raise CapExceeded(cap)
                seen.add(t)
                queue.append(t)
    pars = [p for _, p, _ in starts.values() if p is not None]
    binding = [p for _, p, c in starts.values() if p is not None and p > c]
    histogram: dict[int, int] = {}
    for p in sorted(pars):
        if p >= 1:
            histogram[p] = histogram.get(p, 0) + 1
    return {
        "starts": starts,
        "positions": len(positions),
        "states": len(seen),
        "goals": sum(1 for s in seen if is_solved(layout, s)),
        "solvable": len(pars),
        "deepest": max(pars, default=0),
        "deepest_binding": max(binding, default=0),
        "deepest_margin": max((p - c for _, p, c in starts.values()
                               if p is not None and p > c and p == max(binding)), default=0),
        "binding": len(binding),
        "traps": sum(1 for s in seen if solve_from(layout, s, cap, nb) is None),
        "histogram": histogram,
    }
