# cython: language_level=3, boundscheck=False, wraparound=False
"""The move graph of a whole component, stored, and what is measured on it: the exact
real-rules sweep of a layout (every start's par and crystal par in one pass) and the
measures of one level (plans, raw solutions, dead blocks, first moves, traps, the chain,
forced moves, the optional twist).

Sand, ice and rime make moves one-way (spent sand never returns, ice cannot stop
half way back, thawed rime never refreezes), so a backward sweep cannot use the
forward move generator. Instead the component is enumerated forward once with its
edges kept in flat CSR arrays, the edges are reversed, and one breadth-first sweep
runs back from every goal at once.

Insight: a sand block S that may slide once. Forward, the key A moves freely and S
spends its bit; backward from the goal G the reversed edges only lead to states
that can really reach G, so a start's depth is exactly its par.

    start  . . S .      S+1 (spent)  . . . S      edges  s0 -> s1 -> G
           A A S .  >                A A . S  >   reversed: G -> s1 -> s0
           . . . .                   . . . .      depth(s0) = 2 = par(s0)

Plans count optimal solutions up to swapping adjacent commuting moves: each class
has one lexicographically least member, the sequence in which no later move could
bubble left past a larger one. A small automaton over the optimal DAG tracks the set
F of moves that could still bubble (a bitmask over the state's DAG out-edges), so the
count never enumerates sequences.
"""
from libc.stdint cimport uint64_t, int64_t, int32_t, int16_t, int8_t
from libc.stdlib cimport malloc, calloc, realloc, free, qsort
from libc.string cimport memset
from lumina.engine.rules cimport (
    Core, MAXB, MAXMOVES, K_SAND, K_ICE, K_RIME, V_EXIT, V_BEAM, V_ANY, Rules, ExitRules,
    BeamRules, AnyRules, each_move, gen_moves, do_move, solved, thaw, pos_of, flag_set)
from lumina.engine.table cimport (
    Table, table_free, table_add, table_put, table_get, table_reset, table_scrub, table_start,
    table_bytes)
from lumina.engine.search cimport (
    Arrays, KEEP_BYTES, arrays_free, arrays_push, arrays_bytes, search_open)
from lumina.engine.board cimport Board

cdef enum:
    G_OK = 0
    G_CAPPED = 1
    G_NOMEM = -1
    EDGES_MIN = 1 << 16


cdef struct Graph:
    Arrays a                # states in discovery order (depth = BFS layer from the starts)
    Table t                 # state key -> index
    int64_t* off            # edges of state i: off[i] .. off[i+1]
    int32_t* to
    int8_t* eb              # move of each edge (block, distance)
    int8_t* ed
    int64_t ne
    int64_t ealloc
    int64_t offalloc
    int busy


# This module's two graphs (the exact sweep holds two at once), reused by every search
# with the policy of lumina.engine.search's workspaces.
cdef Graph _graphs[2]


cdef int graph_open(Graph* g) noexcept nogil:
    """A fresh graph of its own (free it with graph_free)."""
    memset(g, 0, sizeof(Graph))
    if search_open(&g.a, &g.t, True) != 0:
        return -1
    return graph_begin(g)


cdef void graph_free(Graph* g) noexcept nogil:
    arrays_free(&g.a)
    table_free(&g.t)
    free(g.off)
    free(g.to)
    free(g.eb)
    free(g.ed)
    g.off = NULL
    g.to = NULL
    g.eb = NULL
    g.ed = NULL
    g.ealloc = 0
    g.offalloc = 0


cdef inline int _edges_fit(Graph* g, int64_t need) noexcept nogil:
    """Room for `need` edges (contents kept)."""
    cdef int64_t na = g.ealloc if g.ealloc else EDGES_MIN
    cdef void* p
    if need <= g.ealloc:
        return 0
    while na < need:
        na *= 2
    p = realloc(g.to, na * sizeof(int32_t))
    if p == NULL:
        return -1
    g.to = <int32_t*>p
    p = realloc(g.eb, na * sizeof(int8_t))
    if p == NULL:
        return -1
    g.eb = <int8_t*>p
    p = realloc(g.ed, na * sizeof(int8_t))
    if p == NULL:
        return -1
    g.ed = <int8_t*>p
    g.ealloc = na
    return 0


cdef inline int off_fit(Graph* g, int64_t need) noexcept nogil:
    """Room for off[0 .. need-1] (contents kept)."""
    cdef int64_t na = g.offalloc if g.offalloc else 4096
    cdef void* p
    if need <= g.offalloc:
        return 0
    while na < need:
        na *= 2
    p = realloc(g.off, na * sizeof(int64_t))
    if p == NULL:
        return -1
    g.off = <int64_t*>p
    g.offalloc = na
    return 0


cdef int graph_begin(Graph* g) noexcept nogil:
    """Empty the graph for a new search (buffers kept; the table as large as the last
    search needed)."""
    g.a.n = 0
    g.ne = 0
    if table_reset(&g.t, table_start(&g.t, True), True) != 0:
        return -1
    return _edges_fit(g, EDGES_MIN)


cdef Graph* graph_take(Graph* own):
    """A free shared graph, or `own` (emptied) when both are in use. Hold the GIL."""
    cdef int i
    for i in range(2):
        if not _graphs[i].busy:
            _graphs[i].busy = 1
            return &_graphs[i]
    memset(own, 0, sizeof(Graph))
    own.busy = 1
    return own


cdef int64_t graph_bytes(const Graph* g) noexcept nogil:
    return table_bytes(&g.t) + arrays_bytes(&g.a) + g.ealloc * 6 + g.offalloc * 8


def workspace_bytes():
    """Bytes this module keeps allocated between searches (its two reused graphs)."""
    return graph_bytes(&_graphs[0]) + graph_bytes(&_graphs[1])


cdef void graph_give(Graph* g, Graph* own):
    """End a search on g: keep its buffers for the next one, unless g is `own` or holds
    more than KEEP_BYTES."""
    g.t.start = 2 * g.t.size
    if g == own or graph_bytes(g) > KEEP_BYTES:
        graph_free(g)
        g.t.start = 0
    else:
        table_scrub(&g.t, g.a.st, g.a.n)
    g.busy = 0


cdef struct Build:
    Graph* g
    int64_t head
    int64_t cap
    int depth


cdef inline int take_edge(void* ctx, int b, int d, uint64_t ns) noexcept nogil:
    """Keep the edge head -> ns, discovering ns when it is new."""
    cdef Build* x = <Build*>ctx
    cdef Graph* g = x.g
    cdef int64_t r = table_put(&g.t, ns, g.a.n)
    if r == -2:
        return G_NOMEM
    if r == -1:
        if g.a.n >= x.cap:
            return G_CAPPED
        if arrays_push(&g.a, ns, <int32_t>x.head, b, d, x.depth) != 0:
            return G_NOMEM
        r = g.a.n - 1
    g.to[g.ne] = <int32_t>r
    g.eb[g.ne] = <int8_t>b
    g.ed[g.ne] = <int8_t>d
    g.ne += 1
    return 0


cdef inline int _build(const Core* c, Graph* g, int64_t cap, Rules* r) noexcept nogil:
    cdef Build x
    cdef int k
    x.g = g
    x.cap = cap
    x.head = 0
    while x.head < g.a.n:
        if _edges_fit(g, g.ne + MAXMOVES) != 0 or off_fit(g, x.head + 1) != 0:
            return G_NOMEM
        g.off[x.head] = g.ne
        x.depth = g.a.depth[x.head] + 1
        k = each_move(c, g.a.st[x.head], -1, r, take_edge, &x)
        if k:
            return k
        x.head += 1
    if off_fit(g, g.a.n + 1) != 0:
        return G_NOMEM
    g.off[g.a.n] = g.ne
    return G_OK


cdef int graph_build(const Core* c, Graph* g, const uint64_t* starts, int64_t nstarts,
                     int64_t cap) noexcept nogil:
    """Enumerate every state reachable from the starts, keeping every edge, each move
    inserted as it is generated."""
    cdef int64_t i, r
    for i in range(nstarts):
        r = table_put(&g.t, starts[i], g.a.n)
        if r == -2:
            return G_NOMEM
        if r == -1:
            if g.a.n >= cap:
                return G_CAPPED
            if arrays_push(&g.a, starts[i], -1, 0, 0, 0) != 0:
                return G_NOMEM
    if c.variant == V_EXIT:
        return _build(c, g, cap, <ExitRules*>NULL)
    if c.variant == V_BEAM:
        return _build(c, g, cap, <BeamRules*>NULL)
    return _build(c, g, cap, <AnyRules*>NULL)


cdef int dist_to_goal(const Core* c, Graph* g, int32_t* dist, bint undirected) noexcept nogil:
    """dist[i] = moves from state i to the nearest win (-1: none), by one BFS seeded with
    every goal and walking edges backwards (crystal graphs: forwards, they are symmetric)."""
    cdef int64_t n = g.a.n, i, e, head = 0, tail = 0
    cdef int64_t* roff = NULL
    cdef int32_t* rto = NULL
    cdef int32_t* queue = <int32_t*>malloc((n + 1) * sizeof(int32_t))
    cdef int32_t u, v
    if queue == NULL:
        return -1
    if not undirected:
        roff = <int64_t*>calloc(n + 1, sizeof(int64_t))
        rto = <int32_t*>malloc((g.ne + 1) * sizeof(int32_t))
        if roff == NULL or rto == NULL:
            free(roff)
            free(rto)
            free(queue)
            return -1
        for e in range(g.ne):
            roff[g.to[e] + 1] += 1
        for i in range(n):
            roff[i + 1] += roff[i]
        for i in range(n):
            for e in range(g.off[i], g.off[i + 1]):
                v = g.to[e]
                rto[roff[v]] = <int32_t>i
                roff[v] += 1
        for i in range(n - 1, 0, -1):
            roff[i] = roff[i - 1]
        roff[0] = 0
    for i in range(n):
        if solved(c, g.a.st[i]):
            dist[i] = 0
            queue[tail] = <int32_t>i
            tail += 1
        else:
            dist[i] = -1
    while head < tail:
        u = queue[head]
        head += 1
        if undirected:
            for e in range(g.off[u], g.off[u + 1]):
                v = g.to[e]
                if dist[v] < 0:
                    dist[v] = dist[u] + 1
                    queue[tail] = v
                    tail += 1
        else:
            for e in range(roff[u], roff[u + 1]):
                v = rto[e]
                if dist[v] < 0:
                    dist[v] = dist[u] + 1
                    queue[tail] = v
                    tail += 1
    free(roff)
    free(rto)
    free(queue)
    return 0


cdef Board _board(level):
    return level if isinstance(level, Board) else Board(level)


# ---------------------------------------------------------------------------
# The exact sweep of a layout.

cdef struct Cand:
    uint64_t state
    int32_t par
    int32_t cpar


cdef int _cand_order(const void* x, const void* y) noexcept nogil:
    """By par, then by state (states are distinct)."""
    cdef const Cand* a = <const Cand*>x
    cdef const Cand* b = <const Cand*>y
    if a.par != b.par:
        return -1 if a.par < b.par else 1
    return -1 if a.state < b.state else (1 if a.state > b.state else 0)


def layout_sweep(level, flat_level, int64_t state_cap, int min_depth, bint want_cands,
                 bint binding_only):
    """See lumina.engine.exact_sweep. Returns a dict of counts, and with `want_cands`
    "pools": [(par, states, crystal pars)] for every par >= min_depth holding solvable
    starts (binding ones only when `binding_only`), pars ascending, each pool's starts
    sorted by state (states as a bytes of uint64, crystal pars of int32, aligned)."""
    cdef Board b = _board(level)
    cdef Board fb = _board(flat_level)
    cdef Graph own_c, own_r
    cdef Graph* cg
    cdef Graph* rg
    cdef int32_t* cdist = NULL
    cdef int32_t* rdist = NULL
    cdef uint64_t* starts = NULL
    cdef Cand* cands = NULL
    cdef int64_t npos = 0, i, j, nstates = 0, ncand = 0
    cdef int st = 0, twist = b.c.variant == V_ANY, par, cpar
    cdef int64_t goals = 0, traps = 0, solvable = 0, binding = 0
    cdef int deepest = 0, deepest_binding = 0, margin = 0
    cdef uint64_t start = fb.start
    cdef int64_t hist[256]
    memset(hist, 0, sizeof(hist))
    cg = graph_take(&own_c)
    rg = graph_take(&own_r)
    try:
        if graph_begin(cg) != 0 or graph_begin(rg) != 0:
            raise MemoryError
        with nogil:
            st = graph_build(&fb.c, cg, &start, 1, state_cap)
        if st == G_NOMEM:
            raise MemoryError("sweep ran out of memory")
        npos = cg.a.n
        if st == G_CAPPED:
            return {"complete": False, "positions": npos, "states": 0, "work": npos}
        cdist = <int32_t*>malloc(npos * sizeof(int32_t))
        starts = <uint64_t*>malloc(npos * sizeof(uint64_t))
        if cdist == NULL or starts == NULL:
            raise MemoryError
        with nogil:
            st = dist_to_goal(&fb.c, cg, cdist, True)
        if st != 0:
            raise MemoryError
        if twist:
            with nogil:
                for i in range(npos):
                    starts[i] = thaw(&b.c, cg.a.st[i])
                st = graph_build(&b.c, rg, starts, npos, state_cap)
            if st == G_NOMEM:
                raise MemoryError("sweep ran out of memory")
            nstates = rg.a.n
            if st == G_CAPPED:
                return {"complete": False, "positions": npos, "states": nstates,
                        "work": npos + nstates}
            rdist = <int32_t*>malloc(nstates * sizeof(int32_t))
            if rdist == NULL:
                raise MemoryError
            with nogil:
                st = dist_to_goal(&b.c, rg, rdist, False)
            if st != 0:
                raise MemoryError
        else:
            rdist = cdist
        if want_cands:
            cands = <Cand*>malloc((npos + 1) * sizeof(Cand))
            if cands == NULL:
                raise MemoryError
        with nogil:
            for i in range(nstates if twist else npos):
                if rdist[i] == 0:
                    goals += 1
                elif rdist[i] < 0:
                    traps += 1
            # distinct positions thaw to distinct states, so start i is state i of rg
            for i in range(npos):
                cpar = cdist[i]
                par = rdist[i]
                if par < 0:
                    continue
                solvable += 1
                if par > deepest:
                    deepest = par
                if par > cpar:
                    binding += 1
                    if par > deepest_binding:
                        deepest_binding = par
                        margin = par - cpar
                    elif par == deepest_binding and par - cpar > margin:
                        margin = par - cpar
                if par >= 1:
                    hist[par if par < 255 else 255] += 1
                if want_cands and par >= min_depth and par >= 1 and (par > cpar or not binding_only):
                    cands[ncand].state = starts[i] if twist else cg.a.st[i]
                    cands[ncand].par = par
                    cands[ncand].cpar = cpar
                    ncand += 1
            if ncand > 1:
                qsort(cands, ncand, sizeof(Cand), _cand_order)
        pools = None
        if want_cands:
            pools = []
            i = 0
            while i < ncand:
                j = i
                while j < ncand and cands[j].par == cands[i].par:
                    j += 1
                pools.append((cands[i].par,
                              _states_bytes(cands + i, j - i),
                              _cpars_bytes(cands + i, j - i)))
                i = j
        return {"complete": True, "positions": npos, "states": nstates if twist else npos,
                "work": npos + nstates, "goals": goals,
                "starts": npos, "traps": traps, "solvable": solvable, "deepest": deepest,
                "deepest_binding": deepest_binding, "deepest_margin": margin,
                "binding": binding,
                "histogram": {d: hist[d] for d in range(1, 256) if hist[d]},
                "pools": pools}
    finally:
        free(cdist)
        if twist:
            free(rdist)
        free(starts)
        free(cands)
        graph_give(cg, &own_c)
        graph_give(rg, &own_r)


cdef bytes _states_bytes(const Cand* c, int64_t n):
    cdef uint64_t* out = <uint64_t*>malloc((n + 1) * sizeof(uint64_t))
    cdef int64_t i
    if out == NULL:
        raise MemoryError
    try:
        for i in range(n):
            out[i] = c[i].state
        return (<char*>out)[:n * sizeof(uint64_t)]
    finally:
        free(out)


cdef bytes _cpars_bytes(const Cand* c, int64_t n):
    cdef int32_t* out = <int32_t*>malloc((n + 1) * sizeof(int32_t))
    cdef int64_t i
    if out == NULL:
        raise MemoryError
    try:
        for i in range(n):
            out[i] = c[i].cpar
        return (<char*>out)[:n * sizeof(int32_t)]
    finally:
        free(out)


# ---------------------------------------------------------------------------
# The measures of one level.

cdef struct PlanMap:
    int64_t* u              # -1: empty slot
    uint64_t* f
    uint64_t* cnt
    int64_t cap             # power of two
    int64_t size


cdef int pmap_init(PlanMap* m, int64_t want) noexcept nogil:
    cdef int64_t cap = 64, i
    while cap < want * 2:
        cap *= 2
    m.u = <int64_t*>malloc(cap * sizeof(int64_t))
    m.f = <uint64_t*>malloc(cap * sizeof(uint64_t))
    m.cnt = <uint64_t*>malloc(cap * sizeof(uint64_t))
    if m.u == NULL or m.f == NULL or m.cnt == NULL:
        return -1
    for i in range(cap):
        m.u[i] = -1
    m.cap = cap
    m.size = 0
    return 0


cdef void pmap_free(PlanMap* m) noexcept nogil:
    free(m.u)
    free(m.f)
    free(m.cnt)
    m.u = NULL
    m.f = NULL
    m.cnt = NULL


cdef inline uint64_t pmix(int64_t u, uint64_t f) noexcept nogil:
    cdef uint64_t k = (<uint64_t>u) * 0x9E3779B97F4A7C15ULL ^ f
    k ^= k >> 33
    k *= 0xff51afd7ed558ccdULL
    k ^= k >> 33
    return k


cdef int pmap_add(PlanMap* m, int64_t u, uint64_t f, uint64_t c, uint64_t cap) noexcept nogil:
    """Add c to the count of (u, f), saturating at cap. Returns -1 when out of memory."""
    cdef uint64_t h
    cdef PlanMap old
    cdef int64_t i
    if (m.size + 1) * 2 > m.cap:
        old = m[0]
        if pmap_init(m, old.cap) != 0:
            return -1
        for i in range(old.cap):
            if old.u[i] >= 0:
                pmap_add(m, old.u[i], old.f[i], old.cnt[i], cap)
        pmap_free(&old)
    h = pmix(u, f) & <uint64_t>(m.cap - 1)
    while True:
        if m.u[h] == u and m.f[h] == f:
            m.cnt[h] = cap if m.cnt[h] + c >= cap or m.cnt[h] + c < c else m.cnt[h] + c
            return 0
        if m.u[h] < 0:
            m.u[h] = u
            m.f[h] = f
            m.cnt[h] = c if c < cap else cap
            m.size += 1
            return 0
        h = (h + 1) & <uint64_t>(m.cap - 1)


cdef inline bint move_less(int b1, int d1, int b2, int d2) noexcept nogil:
    return b1 < b2 or (b1 == b2 and d1 < d2)


cdef bint legal(const Core* c, uint64_t s, int b, int d) noexcept nogil:
    cdef int mb[MAXMOVES]
    cdef int md[MAXMOVES]
    cdef int n = gen_moves(c, s, mb, md), k
    for k in range(n):
        if mb[k] == b and md[k] == d:
            return True
    return False


cdef int64_t plan_step(const Core* c, Graph* g, const int32_t* dist, const int64_t* doff,
                       const int64_t* dedge, int64_t u, uint64_t f, int64_t j,
                       uint64_t* fn_out) noexcept nogil:
    """One step of the automaton over lexicographic normal forms (the module docstring):
    from (u, F) along u's DAG out-edge j (not in F) to (v, F'), F' holding v's moves
    that could bubble left past this one (each smaller than it, or already able to bubble
    further: in F). Returns v, or -1 when v has more than 64 DAG out-edges."""
    cdef int64_t e = dedge[doff[u] + j], e2, v = g.to[e], du = doff[u + 1] - doff[u], dv, t, q
    cdef int mb = g.eb[e], md = g.ed[e], ab, ad
    cdef bint inherit
    cdef uint64_t fn = 0, s = g.a.st[u], sv, sa
    fn_out[0] = 0
    if dist[v] == 0:
        return v
    dv = doff[v + 1] - doff[v]
    if dv > 64:
        return -1
    sv = g.a.st[v]
    for t in range(dv):
        e2 = dedge[doff[v] + t]
        ab = g.eb[e2]
        ad = g.ed[e2]
        if ab == mb:
            continue
        if not move_less(ab, ad, mb, md):
            inherit = False
            for q in range(du):
                if (f >> q) & 1 and g.eb[dedge[doff[u] + q]] == ab and g.ed[dedge[doff[u] + q]] == ad:
                    inherit = True
                    break
            if not inherit:
                continue
        if not legal(c, s, ab, ad):
            continue
        sa = do_move(c, s, ab, ad)
        if not legal(c, sa, mb, md) or do_move(c, sa, mb, md) != do_move(c, sv, ab, ad):
            continue
        fn |= (<uint64_t>1) << t
    fn_out[0] = fn
    return v


cdef int plans_count(const Core* c, Graph* g, const int32_t* dist, const int16_t* depth,
                     const int64_t* doff, const int64_t* dedge, int best, uint64_t cap,
                     uint64_t* out) noexcept nogil:
    """Count lexicographic normal forms of optimal solutions (see the module docstring).
    doff/dedge list each on-path state's DAG out-edges (indices into g's edge arrays).
    Returns 0, 1 when some state has more than 64 DAG out-edges (count unknown: capped),
    -1 when memory ran out."""
    cdef PlanMap cur, nxt, tmp
    cdef int64_t slot, u, v, j, du
    cdef uint64_t f, fn, total = 0, cu
    cdef int k
    if pmap_init(&cur, 64) != 0:
        return -1
    if pmap_init(&nxt, 64) != 0:
        pmap_free(&cur)
        return -1
    pmap_add(&cur, 0, 0, 1, cap)
    for k in range(best):
        for slot in range(cur.cap):
            u = cur.u[slot]
            if u < 0:
                continue
            f = cur.f[slot]
            cu = cur.cnt[slot]
            du = doff[u + 1] - doff[u]
            if du > 64:
                pmap_free(&cur)
                pmap_free(&nxt)
                return 1
            for j in range(du):
                if (f >> j) & 1:
                    continue
                v = plan_step(c, g, dist, doff, dedge, u, f, j, &fn)
                if v < 0:
                    pmap_free(&cur)
                    pmap_free(&nxt)
                    return 1
                if pmap_add(&nxt, v, fn, cu, cap) != 0:
                    pmap_free(&cur)
                    pmap_free(&nxt)
                    return -1
        tmp = cur
        cur = nxt
        nxt = tmp
        pmap_free(&nxt)
        if pmap_init(&nxt, cur.size) != 0:
            pmap_free(&cur)
            return -1
    for slot in range(cur.cap):
        if cur.u[slot] >= 0:
            total += cur.cnt[slot]
            if total >= cap:
                total = cap
    out[0] = total
    pmap_free(&cur)
    pmap_free(&nxt)
    return 0


def level_measures(level, uint64_t plan_cap, uint64_t solution_cap, int64_t state_cap,
                   solution=None, int64_t chain_work=1, bint static=True, int64_t member_cap=0):
    """See lumina.engine.measure. Returns a dict (outcome 0 solved, 1 unsolvable,
    2 exhausted); `solution`, `chain_work`, `static` and `member_cap` go to
    measure_extras."""
    cdef Board b = _board(level)
    cdef Graph own
    cdef Graph* g
    cdef int32_t* dist = NULL
    cdef int64_t* doff = NULL
    cdef int64_t* dedge = NULL
    cdef uint64_t* count = NULL
    cdef int64_t n, i, e, v, traps = 0, nd = 0
    cdef int st, best, legal_first, k
    cdef int mb[MAXMOVES]
    cdef int md[MAXMOVES]
    cdef uint64_t start = b.start, total, plans = 0
    cdef int moved[MAXB]
    cdef bint capped = False
    cdef const int16_t* depth
    for k in range(MAXB):
        moved[k] = 0
    g = graph_take(&own)
    try:
        if graph_begin(g) != 0:
            raise MemoryError
        with nogil:
            st = graph_build(&b.c, g, &start, 1, state_cap)
        if st == G_NOMEM:
            raise MemoryError("analysis ran out of memory")
        n = g.a.n
        if st == G_CAPPED:
            return {"outcome": 2, "states": n}
        dist = <int32_t*>malloc(n * sizeof(int32_t))
        if dist == NULL:
            raise MemoryError
        with nogil:
            st = dist_to_goal(&b.c, g, dist, False)
            legal_first = gen_moves(&b.c, start, mb, md)
        if st != 0:
            raise MemoryError
        depth = g.a.depth
        for i in range(n):
            if dist[i] < 0:
                traps += 1
        common = {"component_states": n, "traps": traps, "first_moves_legal": legal_first}
        best = dist[0]
        if best < 0:
            return {"outcome": 1, "optimal": None, "plans": 0, "plans_capped": False,
                    "solutions": 0, "solutions_capped": False,
                    "dead_blocks": tuple(range(b.c.n)), "first_moves": (), "chain": None,
                    "chain_capped": False, "members": None, "forced": None,
                    "optional": False, "deepest": 0, **common}
        # the optimal DAG: on-path states (depth + dist == best), edges one layer on
        doff = <int64_t*>calloc(n + 1, sizeof(int64_t))
        dedge = <int64_t*>malloc((g.ne + 1) * sizeof(int64_t))
        count = <uint64_t*>calloc(n, sizeof(uint64_t))
        if doff == NULL or dedge == NULL or count == NULL:
            raise MemoryError
        with nogil:
            for i in range(n):
                doff[i] = nd
                if depth[i] + dist[i] != best or dist[i] == 0:
                    continue
                for e in range(g.off[i], g.off[i + 1]):
                    v = g.to[e]
                    if dist[v] == dist[i] - 1 and depth[v] == depth[i] + 1:
                        dedge[nd] = e
                        nd += 1
                        moved[g.eb[e]] = 1
            doff[n] = nd
            # raw count, deepest layer first (discovery order is BFS order)
            for i in range(n - 1, -1, -1):
                if depth[i] + dist[i] != best:
                    continue
                if dist[i] == 0:
                    count[i] = 1
                    continue
                total = 0
                for e in range(doff[i], doff[i + 1]):
                    total += count[g.to[dedge[e]]]
                    if total >= solution_cap:
                        total = solution_cap
                        capped = True
                count[i] = total
            st = plans_count(&b.c, g, dist, depth, doff, dedge, best, plan_cap, &plans)
        if st < 0:
            raise MemoryError
        first = tuple(sorted({(g.eb[dedge[e]], g.ed[dedge[e]]) for e in range(doff[0], doff[1])}))
        return {"outcome": 0, "optimal": best,
                "plans": plan_cap if st == 1 else plans,
                "plans_capped": st == 1 or plans >= plan_cap,
                "solutions": count[0], "solutions_capped": capped,
                "dead_blocks": tuple(k for k in range(b.c.n) if not moved[k]),
                "first_moves": first, **common,
                **measure_extras(b, g, dist, doff, dedge, best, solution, chain_work, static,
                                 member_cap)}
    finally:
        free(dist)
        free(doff)
        free(dedge)
        free(count)
        graph_give(g, &own)


def goal_distances(level, int64_t state_cap):
    """See lumina.engine.distances: {state key: moves to the nearest win, -1 for a trap}
    over the start's whole component, or None when it has more than `state_cap` states."""
    cdef Board b = _board(level)
    cdef Graph own
    cdef Graph* g
    cdef int32_t* dist = NULL
    cdef uint64_t start = b.start
    cdef int64_t i, n
    cdef int st
    g = graph_take(&own)
    try:
        if graph_begin(g) != 0:
            raise MemoryError
        with nogil:
            st = graph_build(&b.c, g, &start, 1, state_cap)
        if st == G_NOMEM:
            raise MemoryError("distances ran out of memory")
        if st == G_CAPPED:
            return None
        n = g.a.n
        dist = <int32_t*>malloc(n * sizeof(int32_t))
        if dist == NULL:
            raise MemoryError
        with nogil:
            st = dist_to_goal(&b.c, g, dist, False)
        if st != 0:
            raise MemoryError
        return {g.a.st[i]: dist[i] for i in range(n)}
    finally:
        free(dist)
        graph_give(g, &own)


# ---------------------------------------------------------------------------
# The chain, forced moves and the optional twist (RULES.md Quality).
#
# Every sequence of one plan holds the same moves, each a block's k-th move with the
# same (block, distance): swaps only exchange moves of different blocks. Whether two
# such moves x (block X) and y (block Y) may swap when adjacent reads only where X and
# Y stand before and after them (docs/RULES-DECISIONS.md 29):
#
#     . . Y . .     x: X slides right 2; y: Y slides down 2 through column 2.
#     X X Y . .     X before x stands in y's path: y cannot come first,
#     . . . . .     so y depends on x, in every sequence of the plan.
#
# they conflict when X's cells before or after x meet the cells y sweeps (or the other
# way round), when an ice y stops against X before x but not after it (or the other
# way round), or when x is the key move that thawed rime Y. So a plan is a trace with
# that fixed dependence: its order is the transitive closure of the conflicts in any
# one of its sequences, and its chain the longest path through them.

cdef struct Occ:
    int b                  # the block that moves
    uint64_t at0, at1      # its cells before and after
    uint64_t swept         # every cell it covers on the way, both ends included
    uint64_t front         # ice: the cells that stop it, when blocks (not walls or the edge) may
    int thawer             # rime's first move: the path index of the key move that thawed it


cdef inline bint conflict(const Occ* x, const Occ* y, int xi) noexcept nogil:
    """True when x (at path index xi) and the later y never swap: y depends on x."""
    if x.b == y.b:
        return True
    if (x.at0 | x.at1) & y.swept or (y.at0 | y.at1) & x.swept:
        return True
    if y.front and ((x.at0 & y.front) != 0) != ((x.at1 & y.front) != 0):
        return True
    if x.front and ((y.at0 & x.front) != 0) != ((y.at1 & x.front) != 0):
        return True
    return y.thawer == xi


cdef void occ_fill(const Core* c, Occ* o, const Occ* path, const uint64_t* states, int k,
                   int b, uint64_t su, uint64_t sv) noexcept nogil:
    """Move k of a path (block b, from state su = states[k] to sv); `path` and `states`
    hold the moves and states before it."""
    cdef int p0 = pos_of(su, b), p1 = pos_of(sv, b), p, step, i
    o.b = b
    o.at0 = c.mask[b][p0]
    o.at1 = c.mask[b][p1]
    o.swept = 0
    for p in range(p0 if p0 < p1 else p1, (p1 if p0 < p1 else p0) + 1):
        o.swept |= c.mask[b][p]
    o.front = 0
    if c.kind[b] == K_ICE:
        step = 1 if p1 > p0 else -1
        if 0 <= p1 + step < c.npos[b]:
            o.front = c.mask[b][p1 + step] & ~o.at1
            if o.front & c.fixed:
                o.front = 0            # a wall stops it whatever the blocks do
    o.thawer = -1
    if c.kind[b] == K_RIME:
        for i in range(k):
            if path[i].b == b:
                return                 # not its first move
        for i in range(k):
            if path[i].b == c.keyi and not flag_set(c, states[i], b) and flag_set(c, states[i + 1], b):
                o.thawer = i


cdef uint64_t pmap_get(const PlanMap* m, int64_t u, uint64_t f) noexcept nogil:
    """The count stored for (u, f), 0 when absent."""
    cdef uint64_t h = pmix(u, f) & <uint64_t>(m.cap - 1)
    while m.u[h] >= 0:
        if m.u[h] == u and m.f[h] == f:
            return m.cnt[h]
        h = (h + 1) & <uint64_t>(m.cap - 1)
    return 0


cdef struct PlanWalk:
    const Core* c
    Graph* g
    const int32_t* dist
    const int64_t* doff
    const int64_t* dedge
    PlanMap memo           # (u, F) -> 1 no normal form completes from here, 2 one does
    int64_t work


cdef int completes(PlanWalk* w, int64_t u, uint64_t f) noexcept nogil:
    """1 when some normal-form path runs from automaton state (u, F) to a win, 0 when
    none does, -1 on a state past 64 DAG out-edges, -2 out of memory."""
    cdef uint64_t known, fn
    cdef int64_t j, v, du
    cdef int r = 0
    if w.dist[u] == 0:
        return 1
    known = pmap_get(&w.memo, u, f)
    if known:
        return known == 2
    du = w.doff[u + 1] - w.doff[u]
    if du > 64:
        return -1
    for j in range(du):
        if (f >> j) & 1:
            continue
        w.work += 1
        v = plan_step(w.c, w.g, w.dist, w.doff, w.dedge, u, f, j, &fn)
        if v < 0:
            return -1
        r = completes(w, v, fn)
        if r != 0:
            break
    if r < 0:
        return r
    if pmap_add(&w.memo, u, f, 2 if r else 1, 3) != 0:
        return -2
    return r


cdef int chain_search(const Core* c, Graph* g, const int32_t* dist, const int64_t* doff,
                      const int64_t* dedge, int best, int64_t budget, bint keep_members,
                      int* chain_out, bint* capped_out, int8_t* members, int8_t* member_d,
                      int64_t member_cap, int64_t* nmembers) noexcept nogil:
    """The least chain over the plans: a depth-first walk of the normal forms (one per
    plan), the chain of each computed as it grows, a branch dropped once it cannot beat
    the best found. At most `budget` automaton steps; past that capped, and the chain is
    the best found (at most par). With `keep_members` nothing is dropped and each plan's
    normal form is written to members/member_d (up to member_cap of them; more: capped).
    Returns 0, -1 out of memory."""
    cdef PlanWalk w
    cdef int64_t* su = <int64_t*>malloc((best + 1) * sizeof(int64_t))
    cdef uint64_t* sf = <uint64_t*>malloc((best + 1) * sizeof(uint64_t))
    cdef int64_t* sj = <int64_t*>malloc((best + 1) * sizeof(int64_t))
    cdef uint64_t* sst = <uint64_t*>malloc((best + 1) * sizeof(uint64_t))
    cdef int* height = <int*>malloc((best + 1) * sizeof(int))
    cdef int* cmax = <int*>malloc((best + 1) * sizeof(int))
    cdef Occ* occ = <Occ*>malloc((best + 1) * sizeof(Occ))
    cdef int64_t* pe = <int64_t*>malloc((best + 1) * sizeof(int64_t))
    cdef int k = 0, i, h, top, bestchain = best + 1, r
    cdef int64_t u, v, j, du, e
    cdef uint64_t fn
    cdef bint advanced
    w.c = c
    w.g = g
    w.dist = dist
    w.doff = doff
    w.dedge = dedge
    w.work = 0
    capped_out[0] = False
    nmembers[0] = 0
    if su == NULL or sf == NULL or sj == NULL or sst == NULL or height == NULL or cmax == NULL \
            or occ == NULL or pe == NULL or pmap_init(&w.memo, 64) != 0:
        free(su); free(sf); free(sj); free(sst); free(height); free(cmax); free(occ); free(pe)
        return -1
    su[0] = 0
    sf[0] = 0
    sj[0] = 0
    sst[0] = g.a.st[0]
    cmax[0] = 0
    r = completes(&w, 0, 0)
    if r < 0:
        k = -1
        capped_out[0] = True
    while k >= 0:
        u = su[k]
        if dist[u] == 0:
            if cmax[k] < bestchain:
                bestchain = cmax[k]
            if keep_members:
                if nmembers[0] >= member_cap:
                    capped_out[0] = True
                    break
                for i in range(k):
                    members[nmembers[0] * best + i] = g.eb[pe[i]]
                    member_d[nmembers[0] * best + i] = g.ed[pe[i]]
                nmembers[0] += 1
            elif bestchain <= 1:
                break
            k -= 1
            continue
        if w.work > budget:
            capped_out[0] = True
            break
        du = doff[u + 1] - doff[u]
        advanced = False
        while sj[k] < du:
            j = sj[k]
            sj[k] += 1
            if (sf[k] >> j) & 1:
                continue
            w.work += 1
            v = plan_step(c, g, dist, doff, dedge, u, sf[k], j, &fn)
            if v < 0:
                r = -1
                break
            r = completes(&w, v, fn)
            if r < 0:
                break
            if r == 0:
                continue
            e = dedge[doff[u] + j]
            pe[k] = e
            sst[k + 1] = g.a.st[v]
            occ_fill(c, &occ[k], occ, sst, k, g.eb[e], sst[k], sst[k + 1])
            h = 1
            for i in range(k):
                if height[i] >= h and conflict(&occ[i], &occ[k], i):
                    h = height[i] + 1
            height[k] = h
            top = cmax[k] if cmax[k] > h else h
            if top >= bestchain and not keep_members:
                continue
            cmax[k + 1] = top
            su[k + 1] = v
            sf[k + 1] = fn
            sj[k + 1] = 0
            k += 1
            advanced = True
            break
        if r < 0:
            capped_out[0] = True
            break
        if not advanced:
            k -= 1
    if r == -2:
        bestchain = -1
    chain_out[0] = bestchain if bestchain <= best else best
    pmap_free(&w.memo)
    free(su); free(sf); free(sj); free(sst); free(height); free(cmax); free(occ); free(pe)
    return -1 if r == -2 else 0


cdef int level_extras(const Core* c, Graph* g, const int32_t* dist, const int64_t* doff,
                      const int64_t* dedge, int best, const int* pb, const int* pd, int plen,
                      int* forced_out, bint* optional_out) noexcept nogil:
    """Forced moves along the solution pb/pd (-1: it is not an optimal solution) and
    whether a win is reached along DAG edges that move no sand, ice or rime block.
    Returns 0, -1 out of memory."""
    cdef int64_t n = g.a.n, u = 0, i, e, hit
    cdef int k, forced = 0, kd
    cdef int8_t* reach
    forced_out[0] = -1
    if plen == best:
        for k in range(plen):
            hit = -1
            for e in range(doff[u], doff[u + 1]):
                if g.eb[dedge[e]] == pb[k] and g.ed[dedge[e]] == pd[k]:
                    hit = g.to[dedge[e]]
            if hit < 0:
                forced = -1
                break
            forced += doff[u + 1] - doff[u] == 1
            u = hit
        if forced >= 0 and dist[u] == 0:
            forced_out[0] = forced
    reach = <int8_t*>calloc(n, sizeof(int8_t))
    if reach == NULL:
        return -1
    reach[0] = 1
    optional_out[0] = False
    for i in range(n):             # discovery order: DAG edges run to later states
        if not reach[i]:
            continue
        if dist[i] == 0 and g.a.depth[i] == best:
            optional_out[0] = True
            break
        for e in range(doff[i], doff[i + 1]):
            kd = c.kind[g.eb[dedge[e]]]
            if kd != K_SAND and kd != K_ICE and kd != K_RIME:
                reach[g.to[dedge[e]]] = 1
    free(reach)
    return 0


cdef dict measure_extras(Board b, Graph* g, const int32_t* dist, const int64_t* doff,
                         const int64_t* dedge, int best, solution, int64_t chain_work,
                         bint static, int64_t member_cap):
    """The chain (with `static`, else the plans' normal forms for lumina.engine to walk),
    forced moves along `solution` (None: the path to the first win the breadth-first
    enumeration discovered, the solution `solve` returns), the optional twist and the
    deepest par in the
    component: the part of level_measures that RULES.md "Dependent moves", "Twists carry
    the puzzle" and "The hardest start" ask for."""
    cdef int plen = best if solution is None else len(solution), k, chain = 0, forced = -1, st
    cdef int* pb = <int*>malloc((plen + 1) * sizeof(int))
    cdef int* pd = <int*>malloc((plen + 1) * sizeof(int))
    cdef int64_t goal = 0
    cdef int8_t* mb = NULL
    cdef int8_t* md = NULL
    cdef int64_t nm = 0, cap = 0 if static else member_cap, i, deepest = 0
    cdef bint capped = False, optional = False
    try:
        if pb == NULL or pd == NULL:
            raise MemoryError
        if not static:
            mb = <int8_t*>malloc((cap * best + 1) * sizeof(int8_t))
            md = <int8_t*>malloc((cap * best + 1) * sizeof(int8_t))
            if mb == NULL or md == NULL:
                raise MemoryError
        if solution is None:        # the first win discovered, as solve() finds it
            while dist[goal] != 0:
                goal += 1
            for k in range(plen - 1, -1, -1):
                pb[k] = g.a.mb[goal]
                pd[k] = g.a.md[goal]
                goal = g.a.parent[goal]
        else:
            for k in range(plen):
                pb[k], pd[k] = solution[k]
        with nogil:
            st = level_extras(&b.c, g, dist, doff, dedge, best, pb, pd, plen, &forced, &optional)
            if st == 0:
                st = chain_search(&b.c, g, dist, doff, dedge, best, chain_work, not static,
                                  &chain, &capped, mb, md, cap, &nm)
            for i in range(g.a.n):
                if dist[i] > deepest:
                    deepest = dist[i]
        if st != 0:
            raise MemoryError
        members = None if static else [
            tuple((mb[i * best + k], md[i * best + k]) for k in range(best)) for i in range(nm)]
        return {"chain": chain, "chain_capped": capped, "members": members,
                "forced": None if forced < 0 else forced, "optional": optional,
                "deepest": deepest}
    finally:
        free(pb)
        free(pd)
        free(mb)
        free(md)
