"""Lumina's compiled engine: uint64 state keys, legal moves, the win test, BFS.

The kernels are Cython (`board`, `solve`, `sweep`); this module gives them
Python-shaped, checked entry points. There is no pure-Python fallback: if the
extensions are not built, importing this package fails (run `pip install -e .`).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from lumina.engine.board import Board
from lumina.engine import solve as _solve
from lumina.engine.sweep import backward_sweep, goal_sweep

DEFAULT_STATE_CAP = 500_000
DEFAULT_SOLUTION_CAP = 1_000_000

__all__ = ["Board", "Outcome", "Solution", "DagInfo", "solve", "analyse", "component",
           "goal_sweep", "backward_sweep", "DEFAULT_STATE_CAP"]


class Outcome(str, enum.Enum):
    """Never merged: exhausted means nothing is known, not "unsolvable"."""
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    EXHAUSTED = "exhausted"


_OUTCOMES = (Outcome.SOLVED, Outcome.UNSOLVABLE, Outcome.EXHAUSTED)


@dataclass(frozen=True, kw_only=True)
class Solution:
    outcome: Outcome
    optimal: int | None            # None unless solved
    moves: tuple[tuple[int, int], ...]   # one optimal move list (empty unless solved)
    states: int                    # states explored


@dataclass(frozen=True, kw_only=True)
class DagInfo:
    outcome: Outcome
    optimal: int | None
    solutions: int                 # distinct optimal move sequences, exact up to the cap
    capped: bool
    moved_blocks: tuple[int, ...]  # blocks that move in some optimal solution
    dead_blocks: tuple[int, ...]   # blocks that never move in any optimal solution
    states: int


def _cap(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return value


def solve(level, state_cap: int = DEFAULT_STATE_CAP) -> Solution:
    """Breadth-first search from the level's start. `level` is a Level or a Board.

    Returns outcome solved (optimal count and one optimal move list), unsolvable (the
    whole reachable space held no win) or exhausted (more than `state_cap` states)."""
    status, moves, states = _solve.bfs_solve(level, _cap("state_cap", state_cap))
    outcome = _OUTCOMES[status]
    return Solution(outcome=outcome, optimal=len(moves) if outcome is Outcome.SOLVED else None,
                    moves=tuple(moves), states=states)


def analyse(level, solution_cap: int = DEFAULT_SOLUTION_CAP,
            state_cap: int = DEFAULT_STATE_CAP) -> DagInfo:
    """The optimal-solution DAG: how many distinct optimal solutions (exact up to
    `solution_cap`) and which blocks never move in any of them."""
    status, best, count, capped, moved, states = _solve.bfs_dag(
        level, _cap("solution_cap", solution_cap), _cap("state_cap", state_cap))
    n = len(level.level.blocks if isinstance(level, Board) else level.blocks)
    return DagInfo(outcome=_OUTCOMES[status], optimal=best, solutions=count, capped=capped,
                   moved_blocks=moved,
                   dead_blocks=tuple(i for i in range(n) if i not in moved),
                   states=states)


def component(level, state_cap: int = 10_000_000) -> int:
    """Number of states reachable from the start; ValueError past `state_cap`."""
    complete, states = _solve.bfs_component(level, _cap("state_cap", state_cap))
    if not complete:
        raise ValueError(f"component larger than {state_cap} states")
    return states
