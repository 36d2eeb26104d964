# cython: language_level=3
"""Search arrays: the BFS queue is the flat array of discovered states; parents and
the move that reached each state sit beside it, so a path is rebuilt without
storing boards. One BFS step (`Step` and its move consumers) generates each state's
moves and inserts them in the same pass.

Insight: follow parent links from any index back to a root (parent -1):

    index:   0    1     2     3     4
    st:      s0   s1    s2    s3    s4       queue order = discovery order
    parent:  -1   0     0     1     1        path to s4: s0 -> s1 -> s4
    move:    -    0:+1  2:-1  1:+2  0:+2     (block, distance) that reached it
    depth:   0    1     1     2     2

A `Workspace` (arrays + visited table) is allocated once per kernel module and reused
by every search of the process: nothing is allocated per search once it has grown to
the sizes the process needs. Memory policy: after a search, a workspace holding more
than KEEP_BYTES gives it all back (a giant search never pins its gigabytes), and a
workspace that is busy (a search running in another thread) is never shared: that
search gets its own, freed when it ends.
"""
from libc.stdint cimport uint64_t, int64_t, int32_t, int8_t, int16_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset
from lumina.engine.rules cimport (
    Core, Rules, ExitRules, BeamRules, AnyRules, V_EXIT, V_BEAM, MAXMOVES, pos_of,
    each_move, wins_after, gen_moves, do_move)
from lumina.engine.table cimport (
    Table, table_start, table_init, table_free, table_add, table_insert, table_reset,
    table_scrub, table_bytes)

cdef enum:
    KEEP_BYTES = 64 << 20          # a workspace keeps at most this much between searches
    ARRAYS_MIN = 4096


cdef struct Arrays:
    uint64_t* st
    int32_t* parent
    int8_t* mb
    int8_t* md
    int16_t* depth
    int64_t n
    int64_t alloc


cdef inline int _grow(void** p, int64_t bytes) noexcept nogil:
    cdef void* q = realloc(p[0], bytes)
    if q == NULL:
        return -1
    p[0] = q
    return 0


cdef inline int arrays_reserve(Arrays* a, int64_t alloc) noexcept nogil:
    """Room for at least `alloc` states (contents kept)."""
    if alloc <= a.alloc:
        return 0
    if (_grow(<void**>&a.st, alloc * sizeof(uint64_t)) != 0
            or _grow(<void**>&a.parent, alloc * sizeof(int32_t)) != 0
            or _grow(<void**>&a.mb, alloc * sizeof(int8_t)) != 0
            or _grow(<void**>&a.md, alloc * sizeof(int8_t)) != 0
            or _grow(<void**>&a.depth, alloc * sizeof(int16_t)) != 0):
        return -1
    a.alloc = alloc
    return 0


cdef inline int arrays_init(Arrays* a, int64_t alloc) noexcept nogil:
    memset(a, 0, sizeof(Arrays))
    return arrays_reserve(a, alloc)


cdef inline void arrays_free(Arrays* a) noexcept nogil:
    free(a.st)
    free(a.parent)
    free(a.mb)
    free(a.md)
    free(a.depth)
    memset(a, 0, sizeof(Arrays))


cdef inline int64_t arrays_bytes(const Arrays* a) noexcept nogil:
    return a.alloc * (sizeof(uint64_t) + sizeof(int32_t) + 2 * sizeof(int8_t) + sizeof(int16_t))


cdef inline int arrays_push(Arrays* a, uint64_t s, int32_t parent, int b, int d, int depth) noexcept nogil:
    if a.n == a.alloc:
        if arrays_reserve(a, a.alloc * 2 if a.alloc else ARRAYS_MIN) != 0:
            return -1
    a.st[a.n] = s
    a.parent[a.n] = parent
    a.mb[a.n] = <int8_t>b
    a.md[a.n] = <int8_t>d
    a.depth[a.n] = <int16_t>depth
    a.n += 1
    return 0


cdef inline int search_open(Arrays* a, Table* t, bint with_values) noexcept nogil:
    """Allocate a search's own arrays and visited table; on failure free both and return
    -1 (the table's pointers are cleared first, so a failed array allocation never frees
    uninitialised memory)."""
    memset(t, 0, sizeof(Table))
    if arrays_init(a, ARRAYS_MIN) != 0 or table_init(t, ARRAYS_MIN, with_values) != 0:
        arrays_free(a)
        table_free(t)
        return -1
    return 0


# ---------------------------------------------------------------------------
# Workspaces: one per kernel module, reused by every search.

cdef struct Workspace:
    Arrays a
    Table t
    int busy


cdef inline Workspace* ws_take(Workspace* shared, Workspace* own) noexcept:
    """The shared workspace, or `own` (emptied) when the shared one is in use. Call it
    holding the GIL, so two threads never take the shared one."""
    if shared.busy:
        memset(own, 0, sizeof(Workspace))
        own.busy = 1
        return own
    shared.busy = 1
    return shared


cdef inline int ws_begin(Workspace* w, bint with_values) noexcept nogil:
    """Empty arrays and an empty table, as large as the last search needed."""
    w.a.n = 0
    if w.a.alloc == 0 and arrays_reserve(&w.a, ARRAYS_MIN) != 0:
        return -1
    return table_reset(&w.t, table_start(&w.t, with_values), with_values)


cdef inline void ws_give(Workspace* w, Workspace* own) noexcept:
    """End a search: remember its size for the next one, and give the memory back when
    the workspace is `own` or holds more than KEEP_BYTES; else clear the table."""
    w.t.start = 2 * w.t.size
    if w == own or table_bytes(&w.t) + arrays_bytes(&w.a) > KEEP_BYTES:
        arrays_free(&w.a)
        table_free(&w.t)
        w.t.start = 0
    else:
        table_scrub(&w.t, w.a.st, w.a.n)
    w.busy = 0


# ---------------------------------------------------------------------------
# One BFS step: every unseen neighbour of a state is appended to the queue, one layer
# deeper, as its move is generated.

cdef enum:
    STEP_WIN = 1                   # a winning state was found and the step stops there
    STEP_CAP = 2                   # a new state was found with the queue at its cap
    STEP_NOMEM = 3


cdef struct Step:
    const Core* c
    Arrays* a
    Table* t
    int64_t head                   # the state being expanded
    int64_t cap                    # states at most
    int depth                      # the depth of the states it finds
    int wins                       # 0: no win test; 1: record the first win and go on;
                                   # 2: stop at the first win
    int64_t goal                   # index of the first winning state found, or -1
    int best                       # its depth (32767 while none)


cdef inline int step_init(Step* st, const Core* c, Arrays* a, Table* t, int64_t cap,
                          int wins) noexcept nogil:
    st.c = c
    st.a = a
    st.t = t
    st.head = 0
    st.cap = cap
    st.depth = 0
    st.wins = wins
    st.goal = -1
    st.best = 32767
    return 0


cdef inline int _step_push(Step* st, uint64_t ns, int b, int d) noexcept nogil:
    if st.a.n >= st.cap:
        return STEP_CAP
    if arrays_push(st.a, ns, <int32_t>st.head, b, d, st.depth) != 0:
        return STEP_NOMEM
    return 0


cdef inline int _step_won(Step* st) noexcept nogil:
    if st.goal < 0:
        st.goal = st.a.n - 1
        st.best = st.depth
    return STEP_WIN if st.wins == 2 else 0


cdef inline int take_exit(void* ctx, int b, int d, uint64_t ns) noexcept nogil:
    """Crystal exit levels, membership table: the solver's and the component's step."""
    cdef Step* st = <Step*>ctx
    cdef int r = table_insert(st.t, ns)
    if r <= 0:
        return 0 if r == 0 else STEP_NOMEM
    r = _step_push(st, ns, b, d)
    if r:
        return r
    if st.wins and b == st.c.keyi and pos_of(ns, b) == st.c.win_pos:
        return _step_won(st)
    return 0


cdef inline int take_any(void* ctx, int b, int d, uint64_t ns) noexcept nogil:
    """Any level, either table."""
    cdef Step* st = <Step*>ctx
    cdef int64_t r = table_add(st.t, ns, st.a.n)
    if r != -1:
        return 0 if r >= 0 else STEP_NOMEM
    r = _step_push(st, ns, b, d)
    if r:
        return <int>r
    if st.wins and wins_after(st.c, ns, b, <AnyRules*>NULL):
        return _step_won(st)
    return 0


cdef inline int skip_of(const Core* c, const Arrays* a, int64_t i, Rules* r) noexcept nogil:
    """The block whose slides from state i need not be tried: every slide of the block
    that just moved reaches a state its parent reaches in one move, already discovered
    (not so when the key's slide thawed rime on the way: rime levels try everything)."""
    if a.parent[i] < 0:
        return -1
    if Rules is AnyRules:
        if c.has_rime:
            return -1
    return a.mb[i]


cdef inline int step_run(Step* st, Rules* r, int64_t stop_depth) noexcept nogil:
    """Expand states from st.head on, in queue order, until the queue ends, a state at
    `stop_depth` or past the first win's depth comes up, or a move consumer stops
    (its code is returned: STEP_WIN, STEP_CAP, STEP_NOMEM; else 0)."""
    cdef const Core* c = st.c
    cdef Arrays* a = st.a
    cdef int d, k
    while st.head < a.n:
        d = a.depth[st.head]
        if d >= st.best or d >= stop_depth:
            return 0
        st.depth = d + 1
        if Rules is ExitRules:
            if st.t.slots == NULL:
                k = each_move(c, a.st[st.head], skip_of(c, a, st.head, r), r, take_exit, st)
            else:
                k = each_move(c, a.st[st.head], skip_of(c, a, st.head, r), r, take_any, st)
        else:
            k = each_move(c, a.st[st.head], skip_of(c, a, st.head, r), r, take_any, st)
        if k:
            return k
        st.head += 1
    return 0


cdef inline int step_any(Step* st, int64_t stop_depth) noexcept nogil:
    """step_run in the variant of the step's level."""
    if st.c.variant == V_EXIT:
        return step_run(st, <ExitRules*>NULL, stop_depth)
    if st.c.variant == V_BEAM:
        return step_run(st, <BeamRules*>NULL, stop_depth)
    return step_run(st, <AnyRules*>NULL, stop_depth)


cdef inline int expand(const Core* c, Arrays* a, Table* t, int64_t head,
                       int64_t cap) noexcept nogil:
    """Append every unseen neighbour of state `head` to the sweep, one layer deeper.
    Returns 0, 1 when the state cap stopped it, -1 when memory ran out."""
    cdef Step st
    cdef int k
    step_init(&st, c, a, t, cap, 0)
    st.head = head
    st.depth = a.depth[head] + 1
    if c.variant == V_EXIT:
        k = each_move(c, a.st[head], skip_of(c, a, head, <ExitRules*>NULL),
                      <ExitRules*>NULL, take_any, &st)
    elif c.variant == V_BEAM:
        k = each_move(c, a.st[head], skip_of(c, a, head, <BeamRules*>NULL),
                      <BeamRules*>NULL, take_any, &st)
    else:
        k = each_move(c, a.st[head], skip_of(c, a, head, <AnyRules*>NULL),
                      <AnyRules*>NULL, take_any, &st)
    return 0 if k == 0 else (1 if k == STEP_CAP else -1)
