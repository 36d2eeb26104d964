"""The compiled engine held to the pure-Python reference (tests/reference.py).

For random valid levels of every kind (tests/strategies_hypothesis.py): the start
state, legal moves, apply, is_solved, the beam and arbitrary traces agree at the
start and along random walks; solve() agrees with the reference BFS on outcome and
optimal count, and its move list replays *in the reference* to a win in exactly
that many moves; analyse() agrees with the reference's optimal-solution DAG;
component() agrees with the reference's sweep; on crystal levels goal_sweep()
finds exactly the reference's wins within the depth and backward_sweep() files
every state at its true distance to the nearest goal.  A hypothesis state machine drives
both engines with the same random legal moves and compares after every step.

States are mapped with ``board.decode(state)``, which has the reference's shape:
((x, y) per block, flag per block).
"""

from __future__ import annotations

import importlib.machinery
import sys

import pytest
from hypothesis import assume, given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import reference as R
import strategies_hypothesis as S

import lumina.engine as E  # noqa: E402  (an unbuilt engine fails here, never skips)
from lumina.model import Level  # noqa: E402

REF_CAP = 3000       # the reference is slow: only compare levels this small in full


def board_of(d: dict):
    return E.Board(Level.from_json(d))


def ref_state(board, key: int) -> R.State:
    positions, flags = board.decode(key)
    return tuple(tuple(p) for p in positions), tuple(bool(f) for f in flags)


def check_state(d: dict, board, key: int) -> R.State:
    """Everything the two engines say about one state must agree; returns the reference state."""
    s = ref_state(board, key)
    note(f"state {s}\n{R.draw(d, s)}")
    assert board.encode(*board.decode(key)) == key
    assert [tuple(m) for m in board.moves(key)] == R.moves(d, s)
    assert bool(board.is_solved(key)) == R.is_solved(d, s)
    if d.get("win") == "beam":
        solved, _cells = board.beam(key)
        assert bool(solved) == R.is_solved(d, s)
    return s


def test_engine_is_compiled():
    for name in ("lumina.engine.board", "lumina.engine.solve", "lumina.engine.sweep",
                 "lumina.engine.graph"):
        mod = sys.modules.get(name) or __import__(name, fromlist=["_"])
        assert isinstance(mod.__loader__, importlib.machinery.ExtensionFileLoader), name
        assert mod.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), mod.__file__


# --------------------------------------------------------------- moves

@settings(max_examples=S.examples(150))
@given(d=S.levels(), data=st.data())
def test_moves_apply_solved_along_random_walks(d, data):
    board = board_of(d)
    key = board.start
    s = check_state(d, board, key)
    assert s == R.start(d)
    for _ in range(data.draw(st.integers(0, 25), label="walk length")):
        legal = R.moves(d, s)
        if not legal:
            break
        move = data.draw(st.sampled_from(legal), label="move")
        key = board.apply(key, move)
        s_ref = R.apply(d, s, move)
        s = check_state(d, board, key)
        assert s == s_ref


@settings(max_examples=S.examples(100))
@given(d=S.dense_levels(), data=st.data())
def test_dense_random_walks(d, data):
    board = board_of(d)
    key, s = board.start, R.start(d)
    for _ in range(40):
        assert check_state(d, board, key) == s
        legal = R.moves(d, s)
        if not legal:
            break
        move = data.draw(st.sampled_from(legal), label="move")
        key, s = board.apply(key, move), R.apply(d, s, move)


@settings(max_examples=S.examples(100))
@given(d=S.levels(), data=st.data())
def test_illegal_moves_raise(d, data):
    board = board_of(d)
    s = R.start(d)
    legal = set(R.moves(d, s))
    n = len(d["blocks"])
    candidates = [(i, k) for i in range(n) for k in range(-8, 9) if k and (i, k) not in legal]
    for move in data.draw(st.lists(st.sampled_from(candidates), max_size=8), label="illegal"):
        with pytest.raises(ValueError):
            board.apply(board.start, move)


@settings(max_examples=S.examples(150))
@given(d=S.beam_levels(), data=st.data())
def test_trace_from_any_cell(d, data):
    board = board_of(d)
    key = board.start
    s = R.start(d)
    for _ in range(3):
        legal = R.moves(d, s)
        if legal:
            move = data.draw(st.sampled_from(legal))
            key, s = board.apply(key, move), R.apply(d, s, move)
    w, h = d["width"], d["height"]
    for _ in range(6):
        dx, dy = data.draw(st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1)]))
        x, y = data.draw(st.integers(0, w - 1)), data.draw(st.integers(0, h - 1))
        if data.draw(st.booleans()):
            # A start just beyond the edge, already leaving (as a beam from a key on the edge).
            x = w if dx == 1 else -1 if dx == -1 else x
            y = h if dy == 1 else -1 if dy == -1 else y
        assert bool(board.trace(key, x, y, dx, dy)) == R.trace(d, s, x, y, dx, dy), (x, y, dx, dy)


# --------------------------------------------------------------- solving

def _replays_to_win(d: dict, moves, optimal: int) -> None:
    s = R.start(d)
    assert len(moves) == optimal
    for i, m in enumerate(moves):
        assert not R.is_solved(d, s), f"already solved before move {i}"
        s = R.apply(d, s, tuple(m))
    assert R.is_solved(d, s)


def _compare_solve(d: dict, ref_cap: int = REF_CAP) -> None:
    level = Level.from_json(d)
    n = E.component(level)
    if n > ref_cap:
        return          # too big for the slow reference; the moves were still compared
    outcome, optimal, _path, _ = R.bfs(d, cap=ref_cap + 1)
    sol = E.solve(level)
    assert (sol.outcome.value, sol.optimal) == (outcome, optimal)
    if outcome == "solved":
        _replays_to_win(d, sol.moves, optimal)
    else:
        assert tuple(sol.moves) == ()
    assert n == R.component(d, cap=ref_cap + 1)


@settings(max_examples=S.examples(40))
@given(d=S.levels(min_side=6, max_side=8, min_blocks=3, max_blocks=10), data=st.data())
def test_large_grids_up_to_8x8(d, data):
    """7 and 8 wide/tall boards: the 64-cell bitboard's last row and column."""
    board = board_of(d)
    key, s = board.start, R.start(d)
    for _ in range(30):
        assert check_state(d, board, key) == s
        legal = R.moves(d, s)
        if not legal:
            break
        move = data.draw(st.sampled_from(legal), label="move")
        key, s = board.apply(key, move), R.apply(d, s, move)
    _compare_solve(d, ref_cap=1500)


@settings(max_examples=S.examples(150))
@given(S.levels())
def test_solve_matches_reference_bfs(d):
    _compare_solve(d)


@settings(max_examples=S.examples(80))
@given(S.dense_levels())
def test_solve_matches_reference_bfs_dense(d):
    _compare_solve(d)


@settings(max_examples=S.examples(60))
@given(S.dense_levels(win="beam", max_mirrors=6))
def test_solve_matches_reference_bfs_beam(d):
    _compare_solve(d)


@settings(max_examples=S.examples(60))
@given(S.dense_levels(max_blocks=7))
def test_analyse_matches_reference_dag(d):
    level = Level.from_json(d)
    assume(E.component(level) <= 1000)
    solutions, dead = R.optimal_dag(d)
    info = E.analyse(level)
    assert info.capped is False
    if solutions:
        assert info.outcome.value == "solved"
        assert (info.solutions, set(info.dead_blocks)) == (solutions, dead)
    else:
        assert info.outcome.value == "unsolvable"
        assert info.solutions == 0


@settings(max_examples=S.examples(60))
@given(S.dense_levels())
def test_exhausted_only_past_the_cap(d):
    """With a cap at the component size the search completes; one below it, for an
    unsolvable level, it must say exhausted and never unsolvable."""
    level = Level.from_json(d)
    n = E.component(level)
    sol = E.solve(level, state_cap=n)
    assert sol.outcome.value in ("solved", "unsolvable")
    if sol.outcome.value == "unsolvable" and n > 1:
        assert E.solve(level, state_cap=n - 1).outcome.value == "exhausted"


# --------------------------------------------------------------- state machine

class BothEngines(RuleBasedStateMachine):
    """Apply the same random legal move to the compiled board and the reference."""

    @initialize(d=S.levels(max_blocks=8))
    def load(self, d):
        self.d = d
        self.board = board_of(d)
        self.key = self.board.start
        self.s = R.start(d)

    @invariant()
    def agree(self):
        if hasattr(self, "d"):
            assert check_state(self.d, self.board, self.key) == self.s

    @rule(data=st.data())
    def move(self, data):
        legal = R.moves(self.d, self.s)
        if not legal:
            return
        m = data.draw(st.sampled_from(legal), label="move")
        self.key = self.board.apply(self.key, m)
        self.s = R.apply(self.d, self.s, m)

    @rule(data=st.data())
    def illegal(self, data):
        legal = set(R.moves(self.d, self.s))
        i = data.draw(st.integers(0, len(self.d["blocks"]) - 1))
        k = data.draw(st.integers(-7, 7).filter(bool))
        if (i, k) in legal:
            return
        with pytest.raises(ValueError):
            self.board.apply(self.key, (i, k))

    @rule()
    def reencode(self):
        positions, flags = self.board.decode(self.key)
        assert self.board.encode(positions, flags) == self.key


BothEngines.TestCase.settings = settings(max_examples=S.examples(50), stateful_step_count=25, deadline=None)
TestBothEngines = BothEngines.TestCase


# --------------------------------------------------------------- sweeps

def _multi_source_depths(d: dict, goals: list[R.State]) -> dict[R.State, int]:
    """Reference multi-source BFS: distance from each state to the nearest goal
    (crystal moves are their own inverses, so forward moves serve backward)."""
    from collections import deque
    depth = {g: 0 for g in goals}
    queue = deque(goals)
    while queue:
        s = queue.popleft()
        for m in R.moves(d, s):
            t = R.apply(d, s, m)
            if t not in depth:
                depth[t] = depth[s] + 1
                queue.append(t)
    return depth


@settings(max_examples=S.examples(60))
@given(d=S.crystal_levels(min_blocks=2, max_blocks=7), max_depth=st.integers(0, 10))
def test_goal_and_backward_sweeps_match_reference(d, max_depth):
    level = Level.from_json(d)
    assume(E.component(level) <= 1500)
    board = E.Board(level)
    goals, _seen, complete = E.goal_sweep(level, max_depth, 500_000)
    assert complete
    dist = R.distances(d)
    want = {s for s, k in dist.items() if k <= max_depth and R.is_solved(d, s)}
    got = [ref_state(board, g) for g in goals]
    assert len(got) == len(set(got)) and set(got) == want
    if not goals:
        return
    harvest, _seen, deepest, capped = E.backward_sweep(level, goals, 0, 10 ** 6, 500_000, 64)
    assert not capped
    depth = _multi_source_depths(d, sorted(want))
    flat = {ref_state(board, s): k for k, states in harvest.items() for s in states}
    assert flat == depth
    assert deepest == max(depth.values())
    # A rationed harvest: only depths >= 2, at most 3 per depth, each at its true depth.
    layer_sizes: dict[int, int] = {}
    for k in depth.values():
        layer_sizes[k] = layer_sizes.get(k, 0) + 1
    some, _seen, _deepest, _capped = E.backward_sweep(level, goals, 2, 3, 500_000, 64)
    assert set(some) == {k for k in layer_sizes if k >= 2}
    for k, states in some.items():
        assert len(states) == min(3, layer_sizes[k]) and states == sorted(states)
        assert all(depth[ref_state(board, s)] == k for s in states)
