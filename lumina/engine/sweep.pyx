# cython: language_level=3, boundscheck=False, wraparound=False
"""Generation sweeps (RULES.md phases B1 and B2) over a flattened, crystal-only level.

B1 `goal_sweep`: bounded forward BFS from a solved layout, keeping every state that
wins. B2 `backward_sweep`: one BFS seeded with every goal at depth 0, so a state's
depth is its distance to the *nearest* win, the number a player meets. Crystal slides
are their own inverses, so a state's backward neighbours are its forward ones.

Insight: seeding with all goals is what makes the depth honest.

    single source:  G1 - a - b - c - S      S looks 4 from G1 ...
    multi source:   G1 - a - b - G2 - S     ... but is 1 from G2: depth(S) = 1
"""
from libc.stdint cimport uint64_t, int64_t, int32_t
from libc.stdlib cimport malloc, free
from lumina.engine.rules cimport Core, K_SAND, K_ICE, K_RIME, solved
from lumina.engine.table cimport Table, table_add, table_bytes
from lumina.engine.search cimport (
    Arrays, Workspace, expand, arrays_push, arrays_bytes, ws_take, ws_begin, ws_give)
from lumina.engine.board cimport Board


cdef inline uint64_t xorshift(uint64_t* s) noexcept nogil:
    cdef uint64_t x = s[0]
    x ^= x << 13
    x ^= x >> 7
    x ^= x << 17
    s[0] = x
    return x


cdef int reservoir(const uint64_t* src, int64_t n, uint64_t* out, int k,
                   uint64_t* rng) noexcept nogil:
    """Algorithm R: a uniform sample of min(n, k) of src[0:n] into out; returns the count."""
    cdef int64_t i
    cdef uint64_t j
    if n <= k:
        for i in range(n):
            out[i] = src[i]
        return <int>n
    for i in range(k):
        out[i] = src[i]
    for i in range(k, n):
        j = xorshift(rng) % <uint64_t>(i + 1)
        if j < <uint64_t>k:
            out[j] = src[i]
    return k


cdef Workspace _ws     # this module's search arrays and visited table, reused


cdef Board _crystal_board(level):
    cdef Board b = level if isinstance(level, Board) else Board(level)
    cdef int i
    for i in range(b.c.n):
        if b.c.kind[i] in (K_SAND, K_ICE, K_RIME):
            raise ValueError("sweeps run on flattened levels: sand, ice and rime must be "
                             "crystal (phase B0)")
    return b


def goal_sweep(level, int max_depth, int64_t state_cap=500_000):
    """B1: every winning state within `max_depth` moves of the start.

    Returns (goals, states_seen, complete) where complete is False when the cap
    stopped the sweep before `max_depth`."""
    cdef Board b = _crystal_board(level)
    cdef Workspace own
    cdef Workspace* w
    cdef Arrays* a
    cdef Table* t
    cdef int64_t head = 0, i, ng
    cdef int status = 0
    cdef uint64_t start = b.start
    w = ws_take(&_ws, &own)
    a = &w.a
    t = &w.t
    if ws_begin(w, False) != 0:
        ws_give(w, &own)
        raise MemoryError
    try:
        with nogil:
            arrays_push(a, start, -1, 0, 0, 0)
            table_add(t, start, 0)
            while head < a.n and status == 0 and a.depth[head] < max_depth:
                status = expand(&b.c, a, t, head, state_cap)
                head += 1
        if status == -1:
            raise MemoryError("goal sweep ran out of memory")
        ng = 0
        with nogil:
            for i in range(a.n):
                if solved(&b.c, a.st[i]):
                    a.st[ng] = a.st[i]
                    ng += 1
        return [a.st[i] for i in range(ng)], a.n, status == 0
    finally:
        ws_give(w, &own)


def backward_sweep(level, goals, int min_depth, int per_depth=60,
                   int64_t state_cap=500_000, int max_depth=64, uint64_t seed=1):
    """B2: multi-source BFS from every goal at once; harvest at most `per_depth`
    states at each depth >= `min_depth` (a seeded reservoir sample of that layer).

    Returns (harvest, states_seen, deepest, capped): harvest maps depth -> sorted
    list of state keys; capped is True when the state cap ended the sweep."""
    cdef Board b = _crystal_board(level)
    cdef Workspace own
    cdef Workspace* w
    cdef Arrays* a
    cdef Table* t
    cdef int64_t head = 0, i, j
    cdef int k, d, status = 0, deepest = 0, m
    cdef uint64_t* buf = NULL
    cdef uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 0x1234567ULL
    if rng == 0:
        rng = 88172645463325252ULL
    w = ws_take(&_ws, &own)
    a = &w.a
    t = &w.t
    if ws_begin(w, False) != 0:
        ws_give(w, &own)
        raise MemoryError
    harvest = {}
    try:
        for g in sorted(set(goals)):
            if table_add(t, g, a.n) == -1:
                arrays_push(a, g, -1, 0, 0, 0)
        with nogil:
            while head < a.n and status == 0:
                if a.depth[head] >= max_depth:
                    status = 2
                    break
                status = expand(&b.c, a, t, head, state_cap)
                head += 1
        if status == -1:
            raise MemoryError("backward sweep ran out of memory")
        # harvest: a seeded reservoir sample of each layer, drawn in C
        buf = <uint64_t*>malloc((per_depth if per_depth > 0 else 1) * sizeof(uint64_t))
        if buf == NULL:
            raise MemoryError
        try:
            i = 0
            while i < a.n:
                d = a.depth[i]
                j = i
                while j < a.n and a.depth[j] == d:
                    j += 1
                deepest = d
                if d >= min_depth and per_depth > 0:
                    with nogil:
                        k = reservoir(a.st + i, j - i, buf, per_depth, &rng)
                    harvest[d] = sorted([buf[m] for m in range(k)])
                i = j
        finally:
            free(buf)
        return harvest, a.n, deepest, status == 1
    finally:
        ws_give(w, &own)


def workspace_bytes():
    """Bytes this module keeps allocated between searches (its reused workspace)."""
    return table_bytes(&_ws.t) + arrays_bytes(&_ws.a)
