"""The reference engine (tests/reference.py) checked against boards drawn by hand.

Each expected value below was worked out on paper from RULES.md, so these tests
check the reference; the parity tests then hold the compiled engine to it.
A sample of rush-sample.txt (published optimal counts and cluster sizes, from
outside this project) checks the reference's BFS and component sweep.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings

import reference as R
import strategies_hypothesis as S


def pos(state, i):
    return state[0][i]


# ------------------------------------------------------------------ crystal

BASIC = """
AA.B
...B
....
CCC.
"""


def test_basic_moves_and_solution():
    lv = R.ascii_level(BASIC, exit=("right", 0))
    s = R.start(lv)
    assert R.moves(lv, s) == [(0, 1), (1, 1), (1, 2), (2, 1)]
    assert not R.is_solved(lv, s)
    outcome, optimal, path, _ = R.bfs(lv)
    assert (outcome, optimal) == ("solved", 2)
    end = s
    for m in path:
        end = R.apply(lv, end, m)
    assert R.is_solved(lv, end) and pos(end, 0) == (2, 0)
    # B down 1 or 2, then A right 2: two optimal solutions; C never moves.
    assert R.optimal_dag(lv) == (2, {2})


def test_moves_slide_through_free_cells_only():
    lv = R.ascii_level("""
        .....
        B.AA.
        B....
        .....
    """, exit=("right", 1))
    s = R.start(lv)
    # Key (block 1) at x=2..3: left 1 (x=1 free, x=0 is B), right 1 (x=4).
    assert [m for m in R.moves(lv, s) if m[0] == 1] == [(1, -1), (1, 1)]
    # B (vertical, x=0, y=1..2): up 1, down 1.
    assert [m for m in R.moves(lv, s) if m[0] == 0] == [(0, -1), (0, 1)]


def test_illegal_move_raises():
    lv = R.ascii_level(BASIC, exit=("right", 0))
    s = R.start(lv)
    for bad in [(0, 2), (0, -1), (2, -1), (1, 3), (3, 1), (0, 0)]:
        with pytest.raises(ValueError):
            R.apply(lv, s, bad)


def test_no_wrap_on_non_square_grid():
    # 5 wide, 4 tall: B at the right end of row 1 cannot come out at the left of row 2.
    lv = R.ascii_level("""
        AA...
        ...BB
        .....
        .....
    """, exit=("right", 0))
    s = R.start(lv)
    assert [m for m in R.moves(lv, s) if m[0] == 1] == [(1, -3), (1, -2), (1, -1)]


def test_unsolvable_and_exhausted():
    walled = R.ascii_level("""
        AA#.
        ....
        ....
        ....
    """, exit=("right", 0))
    assert R.bfs(walled)[:3] == ("unsolvable", None, None)
    assert R.component(walled) == 1
    mm, board, cluster = [l for l in R.rush_sample_lines() if l[2] > 100][0]
    lv = R.rush_level(board)
    assert R.bfs(lv, cap=10)[0] == "exhausted"
    with pytest.raises(R.CapExceeded):
        R.component(lv, cap=10)


def test_solved_at_start_is_zero_moves():
    lv = R.ascii_level("""
        ..AA
        ....
        ..B.
        ..B.
    """, exit=("right", 0))
    assert R.bfs(lv)[:3] == ("solved", 0, [])
    assert R.optimal_dag(lv) == (1, {0, 1})


@pytest.mark.parametrize("side,index,state_pos,solved", [
    ("right", 1, (3, 1), True), ("right", 1, (2, 1), False), ("right", 2, (3, 1), False),
    ("left", 1, (0, 1), True), ("left", 1, (1, 1), False),
])
def test_exit_left_right(side, index, state_pos, solved):
    # 5 wide: a length-2 horizontal key in row 1.
    lv = R.ascii_level("""
        .....
        .AA..
        .....
        .....
    """, exit=(side, index))
    s = ((state_pos,), (False,))
    assert R.is_solved(lv, s) is solved


@pytest.mark.parametrize("side,index,state_pos,solved", [
    ("bottom", 2, (2, 3), True), ("bottom", 2, (2, 2), False), ("bottom", 1, (2, 3), False),
    ("top", 2, (2, 0), True), ("top", 2, (2, 1), False),
])
def test_exit_top_bottom(side, index, state_pos, solved):
    # 4 wide, 6 tall: a length-3 vertical key in column 2.
    lv = R.ascii_level("""
        ....
        ..A.
        ..A.
        ..A.
        ....
        ....
    """, exit=(side, index))
    s = ((state_pos,), (False,))
    assert R.is_solved(lv, s) is solved


def test_thick_key_covers_index_with_either_row():
    lv = R.ascii_level("""
        ......
        .AAA..
        .AAA..
        ......
    """, exit=("right", 2))
    assert R.is_solved(lv, (((3, 1),), (False,)))
    assert not R.is_solved(lv, (((2, 1),), (False,)))


# --------------------------------------------------------------- twists

def test_sand_slides_once_then_never_again():
    lv = R.ascii_level("""
        AA.S.
        ...S.
        .....
        .....
    """, exit=("right", 0), kinds={"S": "sand"})
    s = R.start(lv)
    assert R.moves(lv, s) == [(0, 1), (1, 1), (1, 2)]
    t = R.apply(lv, s, (1, 1))
    assert t == (((0, 0), (3, 1)), (False, True))
    assert R.moves(lv, t) == [(0, 1), (0, 2), (0, 3)]
    assert R.bfs(lv)[1] == 2


def test_spent_sand_is_a_different_state():
    # The sand can go down and ... never come back: the unspent and the spent
    # board in the same place are different states with different futures.
    lv = R.ascii_level("""
        AA.S
        ...S
        ....
        ....
    """, exit=("right", 0), kinds={"S": "sand"})
    fresh = (((0, 0), (3, 1)), (False, False))
    spent = (((0, 0), (3, 1)), (False, True))
    assert fresh != spent
    assert (1, -1) in R.moves(lv, fresh) and not [m for m in R.moves(lv, spent) if m[0] == 1]


def test_ice_goes_to_the_far_end_only():
    lv = R.ascii_level("""
        AA....
        ......
        ......
        ..II.#
        ......
    """, exit=("right", 0), kinds={"I": "ice"})
    s = R.start(lv)
    assert [m for m in R.moves(lv, s) if m[0] == 1] == [(1, -2), (1, 1)]
    t = R.apply(lv, s, (1, -2))
    assert pos(t, 1) == (0, 3)
    assert [m for m in R.moves(lv, t) if m[0] == 1] == [(1, 3)]
    with pytest.raises(ValueError):
        R.apply(lv, s, (1, -1))


def test_ice_tutorial_must_slide_through():
    # The key needs column 3 clear; the vertical ice there can only go all the
    # way down (2 cells), never the one-cell nudge.
    lv = R.ascii_level("""
        .....
        AA.I.
        ...I.
        .....
        .....
    """, exit=("right", 1), kinds={"I": "ice"})
    s = R.start(lv)
    assert [m for m in R.moves(lv, s) if m[0] == 1] == [(1, -1), (1, 2)]
    assert R.bfs(lv)[:3] == ("solved", 2, [(1, 2), (0, 3)])


def test_rime_frozen_until_the_key_touches_it():
    lv = R.ascii_level("""
        ......
        ...R..
        AA.R..
        ......
    """, exit=("right", 2), kinds={"R": "rime"})
    s = R.start(lv)
    assert s[1] == (False, False)
    assert R.moves(lv, s) == [(1, 1)]          # key (block 1 in reading order)
    assert lv["blocks"][1]["kind"] == "key"
    t = R.apply(lv, s, (1, 1))                 # key now at x=1..2 touches rime at x=3
    assert t[1] == (True, False)
    assert R.moves(lv, t) == [(0, -1), (0, 1), (1, -1)]
    # Thawed is forever: moving the key away keeps the rime movable.
    u = R.apply(lv, t, (1, -1))
    assert u[1] == (True, False) and (0, -1) in R.moves(lv, u)


def test_rime_thaws_at_load_when_already_touching():
    lv = R.ascii_level("""
        ......
        ..R...
        AAR...
        ......
    """, exit=("right", 2), kinds={"R": "rime"})
    assert R.start(lv)[1] == (True, False)


def test_rime_does_not_thaw_mid_slide_or_diagonally():
    lv = R.ascii_level("""
        ..R...
        ..R...
        AA....
        ......
    """, exit=("right", 2), kinds={"R": "rime"})
    s = R.start(lv)
    assert s[1] == (False, False)
    # Key slides 4 under the rime and comes to rest away from it: still frozen.
    assert R.apply(lv, s, (1, 4))[1] == (False, False)
    # Resting at x=1..2 it shares an edge with the rime at (2, 1): thawed.
    assert R.apply(lv, s, (1, 1))[1] == (True, False)
    # Resting at x=3..4 only the corner of (3, 2) meets (2, 1): still frozen.
    assert R.apply(lv, s, (1, 3))[1] == (False, False)
    # Only frozen-rime moves are missing while frozen.
    assert all(m[0] == 1 for m in R.moves(lv, s))


def test_rime_in_the_way_needs_the_thaw():
    lv = R.ascii_level("""
        ....
        ....
        AA.R
        ...R
    """, exit=("right", 2), kinds={"R": "rime"})
    # The frozen rime sits in the key's way: the key must touch it first (x=1..2),
    # then the rime goes up 2, then the key slides out.
    outcome, optimal, path, _ = R.bfs(lv)
    assert outcome == "solved" and optimal == 3


# ----------------------------------------------------------------- beam

def beam_level(board, exit, beam, kinds=None):
    return R.ascii_level(board, exit=exit, win="beam", beam=beam, kinds=kinds)


def test_beam_straight_out():
    board = """
        ......
        AA....
        ......
        ......
    """
    lv = beam_level(board, ("right", 1), ("E", 0))
    assert R.is_solved(lv, R.start(lv))
    lv = beam_level(board, ("right", 2), ("E", 0))
    assert not R.is_solved(lv, R.start(lv))
    lv = beam_level(board, ("top", 0), ("N", 0))
    assert R.is_solved(lv, R.start(lv))
    lv = beam_level(board, ("top", 1), ("N", 1))
    assert R.is_solved(lv, R.start(lv))
    lv = beam_level(board, ("bottom", 1), ("S", 1))
    assert R.is_solved(lv, R.start(lv))
    lv = beam_level(board, ("bottom", 1), ("S", 0))
    assert not R.is_solved(lv, R.start(lv))


@pytest.mark.parametrize("tilt,exit,solved", [
    ("\\", ("bottom", 4), True), ("\\", ("top", 4), False),
    ("/", ("top", 4), True), ("/", ("bottom", 4), False), ("/", ("right", 1), False),
])
def test_beam_turns_at_mirrors(tilt, exit, solved):
    board = """
        ......
        AA..M.
        ......
        ......
    """.replace("M", tilt)
    lv = beam_level(board, exit, ("E", 0))
    assert R.is_solved(lv, R.start(lv)) is solved


def test_beam_stopped_by_block_and_wall():
    lv = beam_level("""
        ......
        AA..\\.
        ......
        ....B.
        ....B.
    """, ("bottom", 4), ("E", 0))
    s = R.start(lv)
    assert not R.is_solved(lv, s)
    wall = beam_level("""
        ......
        AA.#..
        ......
        ......
    """, ("right", 1), ("E", 0))
    assert not R.is_solved(wall, R.start(wall))


def test_key_itself_stops_the_beam():
    # N from the key's left cell, / turns it east, \ turns it south: straight into the key.
    lv = beam_level("""
        /\\..
        AA..
        ....
        ....
    """, ("bottom", 1), ("N", 0))
    s = R.start(lv)
    assert R.beam_start(lv, s) == (0, 0, 0, -1)
    assert not R.is_solved(lv, s)
    # Key moved right one: the light starts on the \ at (1, 0), turns west, then
    # south at (0, 0), and leaves by the bottom of column 0, not the lantern's 1.
    t = R.apply(lv, s, (0, 1))
    assert R.beam_start(lv, t) == (1, 0, 0, -1)
    assert not R.is_solved(lv, t)


def test_beam_first_cell_outside_the_grid():
    board = """
        ..AA
        ....
        ....
        ....
    """
    lv = beam_level(board, ("right", 0), ("E", 0))
    assert R.beam_start(lv, R.start(lv)) == (4, 0, 1, 0)
    assert R.is_solved(lv, R.start(lv))
    lv = beam_level(board, ("right", 1), ("E", 0))
    assert not R.is_solved(lv, R.start(lv))
    lv = beam_level(board, ("top", 3), ("N", 1))
    assert R.is_solved(lv, R.start(lv))
    lv = beam_level(board, ("top", 2), ("N", 1))
    assert not R.is_solved(lv, R.start(lv))


def test_beam_offset_on_a_vertical_key():
    lv = beam_level("""
        .A....
        .A....
        .A..\\.
        ......
    """, ("bottom", 4), ("E", 2))
    assert R.beam_start(lv, R.start(lv)) == (2, 2, 1, 0)
    assert R.is_solved(lv, R.start(lv))
    lv = beam_level("""
        .A....
        .A....
        .A..\\.
        ......
    """, ("bottom", 4), ("E", 1))
    assert not R.is_solved(lv, R.start(lv))


def test_beam_level_solved_by_moving_a_blocker():
    lv = beam_level("""
        ......
        AA..\\.
        ......
        ....BB
        ......
        ......
    """, ("bottom", 4), ("E", 0))
    # The light turns south at (4, 1) and meets B; B left 2, 3 or 4 clears column 4
    # (left 1 does not), and no key move helps.
    assert not R.is_solved(lv, R.start(lv))
    outcome, optimal, path, _ = R.bfs(lv)
    assert (outcome, optimal) == ("solved", 1)
    assert path[0] in [(1, -2), (1, -3), (1, -4)]
    assert R.optimal_dag(lv) == (3, {0})


def test_closed_mirror_loop_gives_up():
    lv = beam_level("""
        /..\\
        .AA.
        ....
        \\../
    """, ("right", 0), ("E", 0))
    s = R.start(lv)
    t0 = time.perf_counter()
    assert R.trace(lv, s, 1, 0, 1, 0) is False
    assert time.perf_counter() - t0 < 0.1


def test_trace_from_a_mirror_cell_turns_there():
    lv = beam_level("""
        ....
        .\\..
        ....
        ..AA
    """, ("bottom", 1), ("N", 0))
    s = R.start(lv)
    assert R.trace(lv, s, 1, 1, 1, 0) is True       # turned south at (1, 1), out the bottom
    assert R.trace(lv, s, 1, 1, 0, 1) is False      # turned east, out the right


# ------------------------------------------------------------ strategies

@settings(max_examples=300)
@given(S.levels())
def test_strategy_levels_are_valid(level):
    assert R.problems(level) == [], R.draw(level)
    s = R.start(level)
    for move in R.moves(level, s):
        R.apply(level, s, move)


# ----------------------------------------------------------- rush sample

def _small_rush_lines():
    lines = [l for l in R.rush_sample_lines() if l[2] <= 1500]
    return lines[::3][:40]


@pytest.mark.parametrize("mm,board,cluster", _small_rush_lines(), ids=lambda v: str(v)[:12])
def test_rush_sample_small(mm, board, cluster):
    lv = R.rush_level(board)
    outcome, optimal, path, _ = R.bfs(lv)
    assert (outcome, optimal) == ("solved", mm)
    assert R.component(lv) == cluster
    s = R.start(lv)
    for m in path:
        s = R.apply(lv, s, m)
    assert R.is_solved(lv, s)
