"""Lumina's compiled engine: uint64 state keys, legal moves, the win test, BFS.

The kernels are Cython (`board`, `solve`, `sweep`, `graph`); this module gives them
Python-shaped, checked entry points. There is no pure-Python fallback: on a checkout
whose extensions are not built, this package still imports (so packs can be read), and
the first call that solves raises `EngineMissing` naming the fix (`unbuilt.py`).
"""
from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import NamedTuple

from lumina.engine.unbuilt import EngineMissing
from lumina.model import TWIST_KINDS, Block

try:                            # the compiled kernels (python setup.py build_ext --inplace)
    from lumina.engine.board import Board
    from lumina.engine import solve as _solve
    from lumina.engine import graph as _graph
    from lumina.engine import sweep as _sweep
    from lumina.engine.sweep import backward_sweep, goal_sweep
    BUILT = True
except ImportError:             # not built: reading works, solving raises EngineMissing
    from lumina.engine.unbuilt import Board, Kernels, backward_sweep, goal_sweep
    _solve = _graph = _sweep = Kernels()
    BUILT = False

DEFAULT_STATE_CAP = 500_000
DEFAULT_SOLUTION_CAP = 1_000_000

DEFAULT_MEASURE_CAP = 2_000_000
DEFAULT_PLAN_CAP = 1_000_000
DEFAULT_CHAIN_WORK = 1_000_000      # plan-search steps for the chain (see `measure`)
MEMBER_CAP = 100_000                # sequences of one plan walked where commutation is not static

__all__ = ["Board", "EngineMissing", "Outcome", "Solution", "DagInfo", "Measures", "Candidate",
           "LayoutSweep", "solve", "analyse", "measure", "exact_sweep", "level_at", "component",
           "distances", "goal_sweep", "backward_sweep", "keep_freed_memory", "workspace_bytes",
           "DEFAULT_STATE_CAP"]

KEEP_FREED = 1 << 30            # bytes glibc may keep after free (M_TRIM_THRESHOLD)
MMAP_FROM = 32 << 20            # allocations from here are mmap'd (glibc's maximum)
_kept = False


def keep_freed_memory() -> bool:
    """Ask glibc to keep freed memory for the next sweep instead of returning it to the
    system: a deep search runs thousands of sweeps, each allocating and freeing arrays
    of megabytes, and by default glibc gives them back and the next sweep faults them
    in again. Measured on one World 2 slot: 514,878 page faults, 1.2 s system and 9.4 s
    wall; kept: 64,485 faults, 0.1 s system, 7.8 s wall (same states, same bytes).
    Overrides Dask's worker setting MALLOC_TRIM_THRESHOLD_=65536 too. Once per process;
    False where there is no glibc (nothing changes there)."""
    global _kept
    if not _kept:
        try:
            import ctypes
            libc = ctypes.CDLL("libc.so.6")
            _kept = bool(libc.mallopt(-1, KEEP_FREED)) and bool(libc.mallopt(-3, MMAP_FROM))
        except (OSError, AttributeError):
            return False
    return _kept


def workspace_bytes() -> int:
    """Bytes the engine keeps allocated between searches: each kernel module reuses one
    workspace (visited table and search arrays; the graph module two graphs) from
    search to search, and gives it back after a search that left it above 64 MiB."""
    return _solve.workspace_bytes() + _sweep.workspace_bytes() + _graph.workspace_bytes()


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


def distances(level, *, state_cap: int = DEFAULT_MEASURE_CAP) -> dict[int, int]:
    """Every state reachable from the start (real rules), mapped to its moves to the
    nearest win, or -1 where no win is reachable (a trap): one enumeration of the
    component and one backward sweep from all its goals. ValueError past `state_cap`.
    The play-log tools use it to tell how far a recorded position is from a win."""
    d = _graph.goal_distances(_board(level), _cap("state_cap", state_cap))
    if d is None:
        raise ValueError(f"component larger than {state_cap} states")
    return d


@dataclass(frozen=True, kw_only=True)
class Measures:
    """What makes a level hard (RULES.md, Quality), from one enumeration of its component."""
    outcome: Outcome
    optimal: int | None
    plans: int                     # optimal solutions up to swapping commuting adjacent moves
    plans_capped: bool
    solutions: int                 # raw optimal move sequences
    solutions_capped: bool
    dead_blocks: tuple[int, ...]   # blocks that move in no optimal solution
    crystal_optimal: int | None    # par with sand, ice and rime as crystal; None: no twist
    first_moves: tuple[tuple[int, int], ...]
    first_moves_optimal: int
    first_moves_legal: int
    component_states: int          # states reachable from the start
    traps: int                     # of those, states from which no win is reachable
    chain: int | None              # least over plans of the plan's dependency height (RULES.md
                                   # "Dependent moves"); None unless solved
    chain_capped: bool             # the plan search ran out of work: `chain` is an upper bound
    forced: int | None             # moves of the solution made from a position with exactly one
                                   # optimal move; None: not solved, or not an optimal solution
    deepest: int | None            # the board's deepest par (RULES.md "The hardest start"):
                                   # over binding starts on twist levels; None: sweep capped
    optional_twist: bool           # some optimal solution moves no sand, ice or rime block
    dead_twists: tuple[int, ...]   # sand, ice and rime blocks among `dead_blocks`


def measure(level, *, plan_cap: int = DEFAULT_PLAN_CAP, solution_cap: int = DEFAULT_PLAN_CAP,
            state_cap: int = DEFAULT_MEASURE_CAP, solution=None,
            chain_work: int = DEFAULT_CHAIN_WORK, with_deepest: bool = True) -> Measures:
    """Enumerate the start's whole component under the real rules, then measure the
    optimal-solution DAG: plans (exact up to `plan_cap`), raw solutions (up to
    `solution_cap`), dead blocks, first moves, traps, the chain, forced moves, the
    optional twist; and the board's deepest par. Outcome exhausted when the component
    has more than `state_cap` states (then nothing else is known).

    `forced` is counted along `solution` (default: the level's stored solution, else the
    first win the breadth-first enumeration discovers: the solution `solve` returns). The chain searches the plans (their lexicographically least
    sequences, best first, pruning plans that cannot beat the best so far) for at most
    `chain_work` steps; past that `chain_capped` and the chain is the best found, an
    upper bound (docs/RULES-DECISIONS.md 29). On a level with sand, ice or rime the
    board's deepest costs an exact sweep of its board (about 22 ms a level on the
    committed packs, several times the rest); `with_deepest=False` skips it (`deepest`
    None), for callers that know it from their own sweep or do not need it."""
    board = _board(level)
    plan_cap, solution_cap = _cap("plan_cap", plan_cap), _cap("solution_cap", solution_cap)
    state_cap = _cap("state_cap", state_cap)
    lv = board.level
    if solution is None:
        solution = lv.solution
    # count one past each cap, so a count equal to its cap is known to be exact
    # a thick ice block's front may rest on two blocks at once: then whether two moves
    # commute can depend on a third block, and each plan is walked in full (MEMBER_CAP)
    static = not any(b.kind == "ice" and min(b.w, b.h) > 1 for b in lv.blocks)
    r = _graph.level_measures(board, plan_cap + 1, solution_cap + 1, state_cap,
                              None if solution is None else [tuple(mv) for mv in solution],
                              _cap("chain_work", chain_work),
                              static, MEMBER_CAP)
    outcome = _OUTCOMES[r["outcome"]]
    if outcome is Outcome.EXHAUSTED:
        return Measures(outcome=outcome, optimal=None, plans=0, plans_capped=False,
                        solutions=0, solutions_capped=False, dead_blocks=(),
                        crystal_optimal=None, first_moves=(), first_moves_optimal=0,
                        first_moves_legal=0, component_states=r["states"], traps=0,
                        chain=None, chain_capped=False, forced=None, optional_twist=False,
                        dead_twists=(), deepest=None)
    if outcome is Outcome.SOLVED:
        r["plans_capped"] = r["plans_capped"] or r["plans"] > plan_cap
        r["plans"] = min(r["plans"], plan_cap)
        r["solutions_capped"] = r["solutions"] > solution_cap
        r["solutions"] = min(r["solutions"], solution_cap)
        if r["members"] is not None:        # commutation not static: walk each plan
            r["chain"], r["chain_capped"] = _chain_by_members(board, r["members"],
                                                              r["chain_capped"])
    twist = any(b.kind in TWIST_KINDS for b in lv.blocks)
    if twist and with_deepest:
        sw = exact_sweep(board, per_depth=0, state_cap=state_cap)
        r["deepest"] = sw.deepest_binding if sw.complete else None
    elif not with_deepest:
        r["deepest"] = None
    return Measures(outcome=outcome, optimal=r["optimal"], plans=r["plans"],
                    plans_capped=r["plans_capped"], solutions=r["solutions"],
                    solutions_capped=r["solutions_capped"], dead_blocks=r["dead_blocks"],
                    crystal_optimal=_crystal_optimal(lv, state_cap),
                    first_moves=r["first_moves"], first_moves_optimal=len(r["first_moves"]),
                    first_moves_legal=r["first_moves_legal"],
                    component_states=r["component_states"], traps=r["traps"],
                    chain=r["chain"], chain_capped=r["chain_capped"], forced=r["forced"],
                    optional_twist=twist and r["optional"],
                    dead_twists=tuple(i for i in r["dead_blocks"]
                                      if lv.blocks[i].kind in TWIST_KINDS),
                    deepest=r["deepest"])


def _chain_by_members(board: Board, members, capped: bool) -> tuple[int, bool]:
    """The least chain over the plans whose least sequences are `members`, each plan
    walked in full: every sequence one swap of adjacent commuting moves away (RULES.md
    Plans), occurrence i preceding j when it does in all of them. For boards where
    whether two moves commute depends on a third block (a thick ice block's front can
    rest on two blocks at once), so the kernel's static test is not exact. A plan of
    more than MEMBER_CAP sequences keeps the kernel's bound and sets capped."""
    best = None
    for seq in members:
        got = _plan_chain(board, tuple(seq))
        if got is None:
            capped = True
            got = len(seq)
        best = got if best is None else min(best, got)
    return (0 if best is None else best), capped


def _plan_chain(board: Board, seq: tuple) -> int | None:
    seen, todo = {seq}, [seq]
    while todo:
        s = todo.pop()
        states = [board.start]
        for mv in s:
            states.append(board.apply(states[-1], mv))
        for i in range(len(s) - 1):
            a, b = s[i], s[i + 1]
            if a[0] == b[0] or b not in board.moves(states[i]):
                continue
            mid = board.apply(states[i], b)
            if a not in board.moves(mid) or board.apply(mid, a) != states[i + 2]:
                continue
            t = s[:i] + (b, a) + s[i + 2:]
            if t not in seen:
                if len(seen) >= MEMBER_CAP:
                    return None
                seen.add(t)
                todo.append(t)
    where = [_occurrence_index(s) for s in seen]
    order = list(_occurrence_index(seq))
    height: dict[tuple[int, int], int] = {}
    for j, o in enumerate(order):
        height[o] = 1 + max((height[p] for p in order[:j] if all(w[p] < w[o] for w in where)),
                            default=0)
    return max(height.values(), default=0)


def _occurrence_index(seq) -> dict[tuple[int, int], int]:
    """(block, k) -> where block's k-th move stands in `seq`."""
    count: dict[int, int] = {}
    out = {}
    for i, (b, _) in enumerate(seq):
        count[b] = count.get(b, 0) + 1
        out[(b, count[b])] = i
    return out


class Candidate(NamedTuple):
    state: int          # real-rules state key on Board(layout)
    par: int            # exact real par of that start
    crystal_par: int    # par of the same start with sand, ice and rime as crystal


@dataclass(frozen=True, kw_only=True)
class LayoutSweep:
    complete: bool              # False: the state cap stopped it; nothing below is exact
    positions: int              # crystal component size (block positions)
    states: int                 # real-rules states enumerated (positions x spent/thawed bits)
    work: int                   # states swept in all: crystal positions plus real states
    goals: int                  # winning real states
    starts: int                 # candidate starts (one per position)
    solvable: int               # starts with a finite real par
    deepest: int                # max real par over starts
    deepest_binding: int        # max real par over binding starts
    deepest_margin: int         # best twist margin (par - crystal_par) among the binding
                                # starts at par deepest_binding (0 if none)
    binding: int                # starts with par > crystal_par
    traps: int                  # real states from which no win is reachable
    histogram: dict[int, int]   # real par -> starts with that par (par >= 1)
    harvest: dict[int, list[Candidate]]


def exact_sweep(layout, *, min_depth: int = 1, per_depth: int = 60, seed: int = 1,
                state_cap: int = DEFAULT_STATE_CAP, binding_only: bool = False) -> LayoutSweep:
    """Every start in the layout's component with its exact real par and crystal par.

    Starts are the block positions reachable from the layout's by crystal slides, with
    sand unspent and rime frozen (thawed at load where it touches the key). One forward
    enumeration of the real, directed move graph from all starts, then one backward
    sweep from every goal along the reversed edges. `harvest` holds, per par >=
    `min_depth`, a sample of at most `per_depth` starts drawn by `random.Random` seeded
    with (seed, par) from the starts sorted by state; only binding ones when
    `binding_only`."""
    board = _board(layout)
    r = _graph.layout_sweep(board, Board(crystal(board.level)), _cap("state_cap", state_cap),
                            min_depth, per_depth > 0, binding_only)
    if not r["complete"]:
        return LayoutSweep(complete=False, positions=r["positions"], states=r["states"],
                           work=r["work"], goals=0, starts=0, solvable=0, deepest=0, deepest_binding=0,
                           deepest_margin=0, binding=0, traps=0, histogram={}, harvest={})
    return _layout_sweep(r, per_depth, seed)


def _layout_sweep(r: dict, per_depth: int, seed: int) -> LayoutSweep:
    harvest = {}
    for d, states, cpars in r["pools"] or ():
        states, cpars = memoryview(states).cast("Q"), memoryview(cpars).cast("i")
        picks = range(len(states))
        if len(picks) > per_depth:
            # sampling indices draws what sampling the pool itself would (random.sample
            # picks by position), and the pool is sorted, so sorted picks keep its order
            picks = sorted(random.Random(f"{seed}:{d}").sample(picks, per_depth))
        harvest[d] = [Candidate(states[j], d, cpars[j]) for j in picks]
    return LayoutSweep(complete=True, positions=r["positions"], states=r["states"],
                       work=r["work"], goals=r["goals"], starts=r["starts"], solvable=r["solvable"],
                       deepest=r["deepest"], deepest_binding=r["deepest_binding"],
                       deepest_margin=r["deepest_margin"], binding=r["binding"], traps=r["traps"], histogram=r["histogram"],
                       harvest=harvest)


def level_at(layout, state: int, id: str):
    """The level whose blocks stand where `state` (a key on Board(layout)) puts them;
    kinds, walls, mirrors, exit, win and beam carried over by `Level.replace`."""
    board = layout if isinstance(layout, Board) else Board(layout)
    lv = board.level
    positions, _ = board.decode(state)
    blocks = tuple(Block(kind=b.kind, x=x, y=y, w=b.w, h=b.h)
                   for b, (x, y) in zip(lv.blocks, positions))
    return lv.replace(id=id, blocks=blocks, optimal=None, solution=None, analysis=None,
                      name=None, tutorial=False)



def _board(level) -> Board:
    return level if isinstance(level, Board) else Board(level)


def crystal(level):
    """The same board with every sand, ice and rime block replaced by a crystal block of
    the same shape and place (RULES.md's crystal par is this board's par)."""
    return level.replace(blocks=tuple(
        Block(kind="crystal", x=b.x, y=b.y, w=b.w, h=b.h) if b.kind in TWIST_KINDS else b
        for b in level.blocks))


def _crystal_optimal(level, state_cap: int) -> int | None:
    if not any(b.kind in TWIST_KINDS for b in level.blocks):
        return None
    return solve(crystal(level), state_cap=state_cap).optimal
