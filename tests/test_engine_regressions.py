"""Named regression tests for the compiled engine, one per bug a fast engine invites.

Each board is drawn as text (``reference.ascii_level``); expected values were
worked out by hand from RULES.md and are also checked against the reference.
"""

from __future__ import annotations

import time
from collections import deque

import pytest

import reference as R

import lumina.engine as E  # noqa: E402  (an unbuilt engine fails here, never skips)
from lumina.model import Level, LevelError  # noqa: E402


def compiled(d: dict):
    level = Level.from_json(d)
    return level, E.Board(level)


def reachable(board, start=None) -> dict[int, int]:
    """Every state key reachable from ``start`` (default: the level start) with its depth,
    walked through the engine's own moves/apply."""
    s0 = board.start if start is None else start
    depth = {s0: 0}
    queue = deque([s0])
    while queue:
        s = queue.popleft()
        for m in board.moves(s):
            t = board.apply(s, m)
            if t not in depth:
                depth[t] = depth[s] + 1
                queue.append(t)
    return depth


def solve_from(board, start) -> int | None:
    """Optimal move count from an arbitrary state (None when no win is reachable)."""
    wins = [d for s, d in reachable(board, start).items() if board.is_solved(s)]
    return min(wins) if wins else None


# ---------------------------------------------------------------- geometry

@pytest.mark.parametrize("board", [
    # 6x6: B at the right end of row 1; row 2 starts empty.
    """
    ......
    ....BB
    AA....
    ......
    ......
    ......
    """,
    # 5 wide, 4 tall (non-square): the bit after (4, 1) is (0, 2).
    """
    .....
    ...BB
    AA...
    .....
    """,
    # 4 wide, 7 tall: a narrow board, vertical C at the bottom of column 3.
    """
    ....
    ....
    AA..
    ....
    ....
    ...C
    ...C
    """,
    # 8x8: the last cell is bit 63.
    """
    ........
    ........
    AA......
    ........
    ........
    ........
    ........
    .....DDD
    """,
], ids=["6x6", "5x4", "4x7", "8x8"])
def test_no_slide_wraps_a_row(board):
    d = R.ascii_level(board, exit=("right", 2))
    level, b = compiled(d)
    fixed = [(blk.y if blk.horizontal else blk.x) for blk in level.blocks]
    states = reachable(b)
    for key in states:
        positions, _ = b.decode(key)
        for blk, (x, y), f in zip(level.blocks, positions, fixed):
            assert (y if blk.horizontal else x) == f, f"{blk} left its line: ({x}, {y})"
            assert 0 <= x and x + blk.w <= level.width and 0 <= y and y + blk.h <= level.height
    assert len(states) == R.component(d)
    # A block at the right edge (or the bottom) has no move further that way.
    for i, blk in enumerate(level.blocks):
        at_edge = (blk.x + blk.w == level.width) if blk.horizontal else (blk.y + blk.h == level.height)
        if at_edge:
            assert [m for m in b.moves(b.start) if m[0] == i and m[1] > 0] == [], blk


def test_key_need_not_be_block_zero():
    d = R.ascii_level("""
        ..B...
        ..B...
        AAB...
        ......
        ......
        ......
    """, exit=("right", 2))
    assert d["blocks"][1]["kind"] == "key"
    level, b = compiled(d)
    sol = E.solve(level)
    assert (sol.outcome.value, sol.optimal) == ("solved", 2)
    assert sol.moves == ((0, 3), (1, 4))


def test_thick_key_exit():
    d = R.ascii_level("""
        ......
        AAA...
        AAA...
        ......
    """, exit=("right", 2))
    level, b = compiled(d)
    assert (E.solve(level).optimal, b.moves(b.start)) == (1, [(0, 1), (0, 2), (0, 3)])


@pytest.mark.parametrize("side,index,board,optimal", [
    ("left", 1, "....\n..AA\n....\n....\n", 1),
    ("top", 2, "....\n....\n..A.\n..A.\n", 1),
    ("bottom", 0, "A...\nA...\n....\n....\n#...\n", None),
    ("bottom", 0, "A...\nA...\n....\n....\n....\n", 1),
])
def test_exit_on_every_side(side, index, board, optimal):
    d = R.ascii_level(board, exit=(side, index))
    level, b = compiled(d)
    sol = E.solve(level)
    assert sol.optimal == optimal == R.bfs(d)[1]


# ------------------------------------------------------------------ twists

SAND_ACROSS = """
    AA.S.
    ...S.
    .....
    .....
"""
SAND_BELOW = """
    AA...
    ...S.
    ...S.
    .....
"""


def test_sand_spent_bit_is_part_of_the_key():
    # Level 2: the sand starts across the key's row, unspent: push it down, drive out.
    blocking = R.ascii_level(SAND_ACROSS, exit=("right", 0), kinds={"S": "sand"})
    # Level 1: the sand starts one row lower; its one slide (up 1) spends it in the
    # very place level 2's sand starts.
    d = R.ascii_level(SAND_BELOW, exit=("right", 0), kinds={"S": "sand"})
    level1, b1 = compiled(d)
    level2, b2 = compiled(blocking)
    spent = b1.apply(b1.start, (1, -1))
    assert b1.decode(spent) == (((0, 0), (3, 0)), (False, True))
    assert b2.decode(b2.start) == (((0, 0), (3, 0)), (False, False))
    # Same picture, different states: the keys differ on the same board ...
    unspent_here = b1.encode(((0, 0), (3, 0)), (False, False))
    assert unspent_here != spent
    assert b1.moves(unspent_here) != b1.moves(spent)
    # ... and so do the puzzles: 2 moves when unspent, no win at all when spent.
    assert E.solve(level2).optimal == 2
    assert solve_from(b1, spent) is None
    assert solve_from(b1, unspent_here) == 2


def test_sand_moves_exactly_once():
    d = R.ascii_level("""
        AA....
        ......
        .SS...
        ......
    """, exit=("right", 0), kinds={"S": "sand"})
    level, b = compiled(d)
    assert [m for m in b.moves(b.start) if m[0] == 1] == [(1, -1), (1, 1), (1, 2), (1, 3)]
    for m in [(1, -1), (1, 3)]:
        t = b.apply(b.start, m)
        assert [x for x in b.moves(t) if x[0] == 1] == []
        assert b.decode(t)[1] == (False, True)
        with pytest.raises(ValueError):
            b.apply(t, (1, -m[1]))


def test_ice_stops_only_at_the_far_end():
    d = R.ascii_level("""
        AA.....
        .......
        .......
        ..II..#
        .......
        ....J..
        ....J..
    """, exit=("right", 0), kinds={"I": "ice", "J": "ice"})
    level, b = compiled(d)
    s = b.start
    # Horizontal ice: left to the board edge (2), right up to the wall (2).
    assert [m for m in b.moves(s) if m[0] == 1] == [(1, -2), (1, 2)]
    # Vertical ice: column 4 is clear, so up all the way (5); down: already at the edge.
    assert [m for m in b.moves(s) if m[0] == 2] == [(2, -5)]
    for bad in [(1, -1), (1, 1), (2, -1), (2, -4)]:
        with pytest.raises(ValueError):
            b.apply(s, bad)
    t = b.apply(s, (1, 2))
    assert b.decode(t)[0][1] == (4, 3)
    # Now the horizontal ice covers (4, 3): the vertical ice stops under it.
    assert [m for m in b.moves(t) if m[0] == 1] == [(1, -4)]
    assert [m for m in b.moves(t) if m[0] == 2] == [(2, -1)]


def test_ice_tutorial_cannot_be_nudged():
    d = R.ascii_level("""
        .....
        AA.I.
        ...I.
        .....
        .....
    """, exit=("right", 1), kinds={"I": "ice"})
    level, b = compiled(d)
    sol = E.solve(level)
    assert (sol.optimal, sol.moves) == (2, ((1, 2), (0, 3)))


def test_rime_thaws_on_touch_and_not_before():
    d = R.ascii_level("""
        ..R...
        ..R...
        AA....
        ......
    """, exit=("right", 2), kinds={"R": "rime"})
    level, b = compiled(d)
    s = b.start
    assert b.decode(s)[1] == (False, False)
    assert all(m[0] == 1 for m in b.moves(s)), "frozen rime has no moves"
    # Sliding under the rime to the far side does not thaw it (rest positions only).
    far = b.apply(s, (1, 4))
    assert b.decode(far)[1] == (False, False)
    # Resting with only a corner touching does not thaw it either.
    corner = b.apply(s, (1, 3))
    assert b.decode(corner)[1] == (False, False)
    # Resting edge to edge thaws it, for good.
    touch = b.apply(s, (1, 1))
    assert b.decode(touch)[1] == (True, False)
    assert [m for m in b.moves(touch) if m[0] == 0] == []   # thawed, but boxed by the edge/key
    away = b.apply(touch, (1, -1))
    assert b.decode(away)[1] == (True, False)
    assert [m for m in b.moves(away) if m[0] == 0] == [(0, 1), (0, 2)]


def test_rime_thaws_at_load():
    d = R.ascii_level("""
        ......
        ..R...
        AAR...
        ......
    """, exit=("right", 2), kinds={"R": "rime"})
    level, b = compiled(d)
    assert b.decode(b.start)[1] == (True, False)
    assert E.solve(level).optimal == R.bfs(d)[1] == 2


def test_rime_in_the_way_needs_the_thaw():
    d = R.ascii_level("""
        ....
        ....
        AA.R
        ...R
    """, exit=("right", 2), kinds={"R": "rime"})
    level, _ = compiled(d)
    sol = E.solve(level)
    assert (sol.optimal, sol.moves) == (3, ((0, 1), (1, -2), (0, 1)))


# -------------------------------------------------------------------- beam

RING = """
    /....\\
    ......
    ..AA..
    ......
    ......
    \\..../
"""


def test_closed_mirror_loop_returns_quickly():
    d = R.ascii_level(RING, exit=("right", 0), win="beam", beam=("E", 0))
    level, b = compiled(d)
    s = b.start
    t0 = time.perf_counter()
    # Inside the ring on its top row, heading east: \ down, / west, \ up, / east, ...
    assert b.trace(s, 1, 0, 1, 0) is False
    assert time.perf_counter() - t0 < 0.1
    for start in [(0, 0, 1, 0), (5, 5, -1, 0), (0, 3, 0, -1), (5, 2, 0, 1)]:
        t0 = time.perf_counter()
        assert not b.trace(s, *start)
        assert time.perf_counter() - t0 < 0.1
        assert R.trace(d, R.start(d), *start) is False


def test_closed_mirror_loop_on_the_largest_grid():
    d = R.ascii_level("""
        /......\\
        ........
        ........
        ...AA...
        ........
        ........
        ........
        \\....../
    """, exit=("right", 0), win="beam", beam=("S", 0))
    level, b = compiled(d)
    t0 = time.perf_counter()
    for _ in range(100):
        assert not b.trace(b.start, 3, 0, 1, 0)
    assert time.perf_counter() - t0 < 0.1


def test_beam_level_solved_through_mirrors():
    # Light leaves the key east along row 3, turns north at the / in (6, 3), west
    # at the \ in (6, 0), and leaves by the left edge of row 0 -- once B is out of
    # the way.  B down 1 is the only fix (down 2 would sit on the light's first cell).
    d = R.ascii_level("""
        ..B...\\
        ..B....
        .......
        AA..../
    """, exit=("left", 0), win="beam", beam=("E", 0))
    level, b = compiled(d)
    assert not b.is_solved(b.start)
    sol = E.solve(level)
    assert (sol.outcome.value, sol.optimal) == R.bfs(d)[:2] == ("solved", 1)
    assert sol.moves == ((0, 1),)
    end = b.apply(b.start, sol.moves[0])
    solved, cells = b.beam(end)
    assert solved and b.is_solved(end)
    cells = [tuple(c) for c in cells]
    assert (4, 3) in cells and (6, 1) in cells and (1, 0) in cells
    assert E.analyse(level).solutions == 1


def test_key_itself_stops_the_beam():
    d = R.ascii_level("""
        /\\..
        AA..
        ....
        ....
    """, exit=("bottom", 1), win="beam", beam=("N", 0))
    level, b = compiled(d)
    assert not b.is_solved(b.start)
    assert not R.is_solved(d, R.start(d))


def test_beam_first_cell_outside_the_grid():
    board = "..AA\n....\n....\n....\n"
    for exit, beam, solved in [(("right", 0), ("E", 0), True), (("right", 1), ("E", 0), False),
                               (("top", 3), ("N", 1), True), (("top", 2), ("N", 1), False)]:
        d = R.ascii_level(board, exit=exit, win="beam", beam=beam)
        level, b = compiled(d)
        assert bool(b.is_solved(b.start)) is solved, (exit, beam)


# -------------------------------------------------------------- validation

def test_square_movable_block_rejected():
    d = R.ascii_level("""
        ....
        AA..
        ..BB
        ..BB
    """, exit=("right", 1))
    with pytest.raises(LevelError) as err:
        Level.from_json(d)
    assert "blocks[1]" in str(err.value) and "square" in str(err.value)
    key_square = R.ascii_level("....\nAA..\nAA..\n....\n", exit=("right", 1))
    with pytest.raises(LevelError) as err:
        Level.from_json(key_square)
    assert "blocks[0]" in str(err.value)


# ------------------------------------------------------- the biggest levels

SIXTEEN = """
    AA.B.CC.
    ...BQQ.L
    DD.R.M.L
    .E.R.M..
    .E.FF..N
    G.....ON
    G.HH..O.
    ..II.PP.
"""
ALL_FLAGS = dict(zip("BCDEFGILMNOPQR", "sand rime sand sand sand rime sand rime rime sand sand "
                                        "rime sand rime".split())) | {"H": "sand"}
MIXED = dict(zip("BCDEFGHILMNOPQR", "sand ice sand sand ice rime crystal sand rime rime sand "
                                     "sand rime sand ice".split()))


@pytest.mark.parametrize("kinds", [ALL_FLAGS, MIXED], ids=["63-bits", "mixed"])
def test_sixteen_blocks_on_8x8_random_walk(kinds):
    import random
    d = R.ascii_level(SIXTEEN, exit=("right", 0), kinds=kinds)
    level, b = compiled(d)
    assert len(level.blocks) == 16
    assert level.state_bits == (63 if kinds is ALL_FLAGS else 59)
    rng = random.Random(16)
    key, s = b.start, R.start(d)
    for _ in range(300):
        assert b.decode(key) == s
        assert b.moves(key) == R.moves(d, s)
        assert b.is_solved(key) == R.is_solved(d, s)
        assert b.encode(*b.decode(key)) == key
        assert 0 <= key < 2 ** level.state_bits
        legal = R.moves(d, s)
        if not legal:
            break
        m = rng.choice(legal)
        key, s = b.apply(key, m), R.apply(d, s, m)


@pytest.mark.slow
def test_sixteen_blocks_63_bits_full_component():
    d = R.ascii_level(SIXTEEN, exit=("right", 0), kinds=ALL_FLAGS)
    level, b = compiled(d)
    outcome, _, _, states = R.bfs(d)            # unsolvable: the whole component
    assert (E.solve(level).outcome.value, E.component(level)) == (outcome, states) == \
        ("unsolvable", 43200)


def test_solved_at_start():
    d = R.ascii_level("""
        ..AA
        ....
        ..B.
        ..B.
    """, exit=("right", 0))
    level, b = compiled(d)
    sol = E.solve(level, state_cap=1)
    assert (sol.outcome.value, sol.optimal, sol.moves) == ("solved", 0, ())
    info = E.analyse(level)
    assert (info.solutions, set(info.dead_blocks)) == R.optimal_dag(d) == (1, {0, 1})
