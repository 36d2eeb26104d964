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
from libc.stdlib cimport malloc, calloc, free
from lumina.engine.rules cimport Core, MAXB, MAXMOVES, gen_moves, gen_moves_skip, do_move, solved
from lumina.engine.table cimport Table, table_prefetch, table_free, table_add, table_get
from lumina.engine.search cimport Arrays, arrays_free, arrays_push, search_open
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


cdef int bfs(const Core* c, uint64_t start, int64_t cap, int mode, Arrays* a, Table* t,
             int64_t* goal, int* best) noexcept nogil:
    cdef int mb[MAXMOVES]
    cdef int md[MAXMOVES]
    cdef uint64_t nxt[MAXMOVES]
    cdef int64_t head = 0
    cdef int n, k, d, skip
    cdef int64_t r
    cdef uint64_t s, ns
    best[0] = 32767
    goal[0] = -1
    if arrays_push(a, start, -1, 0, 0, 0) != 0 or table_add(t, start, 0) == -2:
        return ST_NOMEM
    if mode != MODE_ALL and solved(c, start):
        goal[0] = 0
        best[0] = 0
        if mode == MODE_SOLVE:
            return ST_SOLVED
    while head < a.n:
        d = a.depth[head]
        if d >= best[0]:
            break
        s = a.st[head]
        # Every slide of the block that just moved reaches a state the parent reaches
        # in one move, so it is already discovered (not so when the key's slide
        # thawed rime on the way: rime levels expand everything).
        skip = a.mb[head] if head > 0 and not c.has_rime else -1
        n = gen_moves_skip(c, s, mb, md, skip)
        for k in range(n):
            nxt[k] = do_move(c, s, mb[k], md[k])
            table_prefetch(t, nxt[k])
        for k in range(n):
            ns = nxt[k]
            r = table_add(t, ns, a.n)
            if r >= 0:
                continue
            if r == -2:
                return ST_NOMEM
            if a.n >= cap:
                return ST_EXHAUSTED
            if arrays_push(a, ns, <int32_t>head, mb[k], md[k], d + 1) != 0:
                return ST_NOMEM
            if mode != MODE_ALL and solved(c, ns):
                if goal[0] < 0:
                    goal[0] = a.n - 1
                    best[0] = d + 1
                if mode == MODE_SOLVE:
                    return ST_SOLVED
        head += 1
    return ST_SOLVED if goal[0] >= 0 else ST_UNSOLVABLE


cdef Board _board(level):
    return level if isinstance(level, Board) else Board(level)


def bfs_solve(level, int64_t state_cap=DEF_STATE_CAP):
    """(status, moves, states): status 0 solved, 1 unsolvable, 2 exhausted."""
    cdef Board b = _board(level)
    cdef Arrays a
    cdef Table t
    cdef int64_t goal, i
    cdef int best, st
    cdef uint64_t start = b.start
    if search_open(&a, &t, False) != 0:
        raise MemoryError
    try:
        with nogil:
            st = bfs(&b.c, start, state_cap, MODE_SOLVE, &a, &t, &goal, &best)
        if st == ST_NOMEM:
            raise MemoryError("solver ran out of memory")
        moves = []
        if st == ST_SOLVED:
            i = goal
            while a.parent[i] >= 0:
                moves.append((a.mb[i], a.md[i]))
                i = a.parent[i]
            moves.reverse()
        return st, moves, a.n
    finally:
        arrays_free(&a)
        table_free(&t)


def bfs_component(level, int64_t state_cap=10_000_000):
    """(complete, states): the number of states reachable from the start."""
    cdef Board b = _board(level)
    cdef Arrays a
    cdef Table t
    cdef int64_t goal
    cdef int best, st
    cdef uint64_t start = b.start
    if search_open(&a, &t, False) != 0:
        raise MemoryError
    try:
        with nogil:
            st = bfs(&b.c, start, state_cap, MODE_ALL, &a, &t, &goal, &best)
        if st == ST_NOMEM:
            raise MemoryError("sweep ran out of memory")
        return st != ST_EXHAUSTED, a.n
    finally:
        arrays_free(&a)
        table_free(&t)


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
    cdef Arrays a
    cdef Table t
    cdef int64_t goal
    cdef int best, st, capped = 0, i
    cdef uint64_t start = b.start
    cdef uint64_t* count = NULL
    cdef int moved[MAXB]
    for i in range(MAXB):
        moved[i] = 0
    if search_open(&a, &t, True) != 0:
        raise MemoryError
    try:
        with nogil:
            st = bfs(&b.c, start, state_cap, MODE_LAYER, &a, &t, &goal, &best)
        if st == ST_NOMEM:
            raise MemoryError("analysis ran out of memory")
        if st != ST_SOLVED:
            return st, None, 0, False, (), a.n
        count = <uint64_t*>calloc(a.n, sizeof(uint64_t))
        if count == NULL:
            raise MemoryError
        with nogil:
            capped = dag_count(&b.c, &a, &t, best, solution_cap, count, moved)
        return (st, best, count[0], bool(capped),
                tuple(i for i in range(b.c.n) if moved[i]), a.n)
    finally:
        free(count)
        arrays_free(&a)
        table_free(&t)
