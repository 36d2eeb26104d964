# cython: language_level=3, boundscheck=False, wraparound=False
"""Breadth-first search over uint64 states: the solver, the component count and the
optimal-solution DAG analysis. One nogil kernel serves all three.

BFS, never a heuristic search: its count is the three-star par. Outcomes stay apart:
solved, unsolvable (the whole reachable space was enumerated) and exhausted (the state
cap was hit first: nothing is known).

Insight: the queue is the array of discovered states in discovery order, so depth is
non-decreasing along it; walking it backwards visits deeper layers first, which is all
the DAG count needs:

    index:  0   1   2   3   4   5   6
    depth:  0   1   1   1   2   2   3     count(u) = sum count(v) over moves u->v
                                          with depth(v) = depth(u) + 1
"""
from libc.stdint cimport uint64_t, int64_t, int32_t
from libc.stdlib cimport calloc, free
from lumina.engine.rules cimport Core, MAXB, MAXMOVES, gen_moves, do_move, solved
from lumina.engine.table cimport Table, table_add, table_get, table_bytes
from lumina.engine.search cimport (
    Arrays, Step, Workspace, STEP_CAP, STEP_NOMEM, arrays_push, arrays_bytes, step_init,
    step_any,
    ws_take, ws_begin, ws_give)
from lumina.engine.board cimport Board

DEF_STATE_CAP = 500_000

cdef enum:
    ST_SOLVED = 0
    ST_UNSOLVABLE = 1
    ST_EXHAUSTED = 2
    ST_NOMEM = -1
    MODE_SOLVE = 0      # stop at the first win
    MODE_LAYER = 1      # finish the layer of the first win (for the DAG)
    MODE_ALL = 2        # enumerate the whole component

cdef Workspace _ws     # this module's search arrays and visited table, reused


cdef int bfs(const Core* c, uint64_t start, int64_t cap, int mode, Arrays* a, Table* t,
             int64_t* goal, int* best) noexcept nogil:
    cdef Step st
    cdef int k
    step_init(&st, c, a, t, cap, 0 if mode == MODE_ALL else (2 if mode == MODE_SOLVE else 1))
    best[0] = 32767
    goal[0] = -1
    if arrays_push(a, start, -1, 0, 0, 0) != 0 or table_add(t, start, 0) == -2:
        return ST_NOMEM
    if mode != MODE_ALL and solved(c, start):
        goal[0] = 0
        best[0] = 0
        if mode == MODE_SOLVE:
            return ST_SOLVED
        st.goal = 0
        st.best = 0
    k = step_any(&st, 32767)
    goal[0] = st.goal
    best[0] = st.best
    if k == STEP_NOMEM:
        return ST_NOMEM
    if k == STEP_CAP:
        return ST_EXHAUSTED
    return ST_SOLVED if st.goal >= 0 else ST_UNSOLVABLE


cdef Board _board(level):
    return level if isinstance(level, Board) else Board(level)


def bfs_solve(level, int64_t state_cap=DEF_STATE_CAP):
    """(status, moves, states): status 0 solved, 1 unsolvable, 2 exhausted."""
    cdef Board b = _board(level)
    cdef Workspace own
    cdef Workspace* w
    cdef int64_t goal, i
    cdef int best, st
    cdef uint64_t start = b.start
    w = ws_take(&_ws, &own)
    try:
        if ws_begin(w, False) != 0:
            raise MemoryError
        with nogil:
            st = bfs(&b.c, start, state_cap, MODE_SOLVE, &w.a, &w.t, &goal, &best)
        if st == ST_NOMEM:
            raise MemoryError("solver ran out of memory")
        moves = []
        if st == ST_SOLVED:
            i = goal
            while w.a.parent[i] >= 0:
                moves.append((w.a.mb[i], w.a.md[i]))
                i = w.a.parent[i]
            moves.reverse()
        return st, moves, w.a.n
    finally:
        ws_give(w, &own)


def bfs_component(level, int64_t state_cap=10_000_000):
    """(complete, states): the number of states reachable from the start."""
    cdef Board b = _board(level)
    cdef Workspace own
    cdef Workspace* w
    cdef int64_t goal
    cdef int best, st
    cdef uint64_t start = b.start
    w = ws_take(&_ws, &own)
    try:
        if ws_begin(w, False) != 0:
            raise MemoryError
        with nogil:
            st = bfs(&b.c, start, state_cap, MODE_ALL, &w.a, &w.t, &goal, &best)
        if st == ST_NOMEM:
            raise MemoryError("sweep ran out of memory")
        return st != ST_EXHAUSTED, w.a.n
    finally:
        ws_give(w, &own)


cdef int dag_count(const Core* c, Arrays* a, Table* t, int best, uint64_t cap,
                   uint64_t* count, int* moved) noexcept nogil:
    cdef int mb[MAXMOVES]
    cdef int md[MAXMOVES]
    cdef int64_t u, v
    cdef int n, k, capped = 0
    cdef uint64_t total
    for u in range(a.n - 1, -1, -1):
        if a.depth[u] == best:
            count[u] = 1 if solved(c, a.st[u]) else 0
            continue
        total = 0
        n = gen_moves(c, a.st[u], mb, md)
        for k in range(n):
            v = table_get(t, do_move(c, a.st[u], mb[k], md[k]))
            if v < 0 or a.depth[v] != a.depth[u] + 1 or count[v] == 0:
                continue
            moved[mb[k]] = 1
            total += count[v]
            if total >= cap:
                total = cap
                capped = 1
        count[u] = total
    return capped


def bfs_dag(level, uint64_t solution_cap=1_000_000, int64_t state_cap=DEF_STATE_CAP):
    """(status, optimal, solutions, capped, moved_blocks, states) over the optimal DAG.

    Every state at BFS depth d with a move to a depth d+1 state that still reaches a
    win in the optimal count lies on an optimal solution, so a block "moves in some
    optimal solution" exactly when it makes such a move."""
    cdef Board b = _board(level)
    cdef Workspace own
    cdef Workspace* w
    cdef int64_t goal
    cdef int best, st, capped = 0, i
    cdef uint64_t start = b.start
    cdef uint64_t* count = NULL
    cdef int moved[MAXB]
    for i in range(MAXB):
        moved[i] = 0
    w = ws_take(&_ws, &own)
    try:
        if ws_begin(w, True) != 0:
            raise MemoryError
        with nogil:
            st = bfs(&b.c, start, state_cap, MODE_LAYER, &w.a, &w.t, &goal, &best)
        if st == ST_NOMEM:
            raise MemoryError("analysis ran out of memory")
        if st != ST_SOLVED:
            return st, None, 0, False, (), w.a.n
        count = <uint64_t*>calloc(w.a.n, sizeof(uint64_t))
        if count == NULL:
            raise MemoryError
        with nogil:
            capped = dag_count(&b.c, &w.a, &w.t, best, solution_cap, count, moved)
        return (st, best, count[0], bool(capped),
                tuple(i for i in range(b.c.n) if moved[i]), w.a.n)
    finally:
        free(count)
        ws_give(w, &own)


def workspace_bytes():
    """Bytes this module keeps allocated between searches (its reused workspace)."""
    return table_bytes(&_ws.t) + arrays_bytes(&_ws.a)
