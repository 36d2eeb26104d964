# cython: language_level=3, boundscheck=False, wraparound=False
"""The move graph of a whole component, stored, and what is measured on it: the exact
real-rules sweep of a layout (every start's par and crystal par in one pass) and the
measures of one level (plans, raw solutions, dead blocks, first moves, traps).

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
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset
from lumina.engine.rules cimport (
    Core, MAXB, MAXMOVES, K_SAND, K_ICE, K_RIME, gen_moves, do_move, solved, thaw)
from lumina.engine.table cimport Table, table_free, table_add, table_get, table_prefetch
from lumina.engine.search cimport Arrays, arrays_free, arrays_push, search_open
from lumina.engine.board cimport Board

cdef enum:
    G_OK = 0
    G_CAPPED = 1
    G_NOMEM = -1


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


cdef int graph_open(Graph* g) noexcept nogil:
    g.off = NULL
    g.to = NULL
    g.eb = NULL
    g.ed = NULL
    g.ne = 0
    g.ealloc = 0
    g.offalloc = 0
    if search_open(&g.a, &g.t, True) != 0:
        return -1
    g.ealloc = 1 << 16
    g.off = <int64_t*>malloc((g.a.alloc + 1) * sizeof(int64_t))
    g.offalloc = g.a.alloc
    g.to = <int32_t*>malloc(g.ealloc * sizeof(int32_t))
    g.eb = <int8_t*>malloc(g.ealloc * sizeof(int8_t))
    g.ed = <int8_t*>malloc(g.ealloc * sizeof(int8_t))
    if g.off == NULL or g.to == NULL or g.eb == NULL or g.ed == NULL:
        return -1
    return 0


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


cdef inline int off_fit(Graph* g) noexcept nogil:
    """Keep off[] one longer than the state arrays."""
    if g.a.alloc != g.offalloc:
        g.off = <int64_t*>realloc(g.off, (g.a.alloc + 1) * sizeof(int64_t))
        if g.off == NULL:
            return -1
        g.offalloc = g.a.alloc
    return 0


cdef int graph_build(const Core* c, Graph* g, const uint64_t* starts, int64_t nstarts,
                     int64_t cap) noexcept nogil:
    """Enumerate every state reachable from the starts, keeping every edge."""
    cdef int mb[MAXMOVES]
    cdef int md[MAXMOVES]
    cdef uint64_t nxt[MAXMOVES]
    cdef int64_t head = 0, i, r, na
    cdef int n, k
    cdef uint64_t s
    for i in range(nstarts):
        r = table_add(&g.t, starts[i], g.a.n)
        if r == -2:
            return G_NOMEM
        if r == -1:
            if g.a.n >= cap:
                return G_CAPPED
            if arrays_push(&g.a, starts[i], -1, 0, 0, 0) != 0 or off_fit(g) != 0:
                return G_NOMEM
    while head < g.a.n:
        s = g.a.st[head]
        n = gen_moves(c, s, mb, md)
        for k in range(n):
            nxt[k] = do_move(c, s, mb[k], md[k])
            table_prefetch(&g.t, nxt[k])
        if g.ne + n > g.ealloc:
            na = g.ealloc * 2
            while g.ne + n > na:
                na *= 2
            g.to = <int32_t*>realloc(g.to, na * sizeof(int32_t))
            g.eb = <int8_t*>realloc(g.eb, na * sizeof(int8_t))
            g.ed = <int8_t*>realloc(g.ed, na * sizeof(int8_t))
            if g.to == NULL or g.eb == NULL or g.ed == NULL:
                return G_NOMEM
            g.ealloc = na
        g.off[head] = g.ne
        for k in range(n):
            r = table_add(&g.t, nxt[k], g.a.n)
            if r == -2:
                return G_NOMEM
            if r == -1:
                if g.a.n >= cap:
                    return G_CAPPED
                if arrays_push(&g.a, nxt[k], <int32_t>head, mb[k], md[k],
                               g.a.depth[head] + 1) != 0:
                    return G_NOMEM
                if off_fit(g) != 0:
                    return G_NOMEM
                r = g.a.n - 1
            g.to[g.ne] = <int32_t>r
            g.eb[g.ne] = <int8_t>mb[k]
            g.ed[g.ne] = <int8_t>md[k]
            g.ne += 1
        head += 1
    g.off[g.a.n] = g.ne
    return G_OK


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


cdef bint _has_twist(const Core* c) noexcept nogil:
    cdef int i
    for i in range(c.n):
        if c.kind[i] == K_SAND or c.kind[i] == K_ICE or c.kind[i] == K_RIME:
            return True
    return False


# ---------------------------------------------------------------------------
# The exact sweep of a layout.

def layout_sweep(level, flat_level, int64_t state_cap, int min_depth, bint want_cands,
                 bint binding_only):
    """See lumina.engine.exact_sweep. Returns a dict of counts, and with `want_cands` a
    list of (state, par, crystal_par) for every solvable start with par >= min_depth
    (binding ones only when `binding_only`)."""
    cdef Board b = _board(level)
    cdef Board fb = _board(flat_level)
    cdef Graph cg, rg
    cdef int32_t* cdist = NULL
    cdef int32_t* rdist = NULL
    cdef uint64_t* starts = NULL
    cdef int64_t npos = 0, i, j, nstates = 0
    cdef int st = 0, twist = _has_twist(&b.c), par, cpar
    cdef int64_t goals = 0, traps = 0, solvable = 0, binding = 0
    cdef int deepest = 0, deepest_binding = 0
    cdef uint64_t start = fb.start
    cdef int64_t hist[256]
    memset(hist, 0, sizeof(hist))
    if graph_open(&cg) != 0:
        graph_free(&cg)
        raise MemoryError
    if graph_open(&rg) != 0:
        graph_free(&cg)
        graph_free(&rg)
        raise MemoryError
    try:
        with nogil:
            st = graph_build(&fb.c, &cg, &start, 1, state_cap)
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
            st = dist_to_goal(&fb.c, &cg, cdist, True)
        if st != 0:
            raise MemoryError
        if twist:
            with nogil:
                for i in range(npos):
                    starts[i] = thaw(&b.c, cg.a.st[i])
                st = graph_build(&b.c, &rg, starts, npos, state_cap)
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
                st = dist_to_goal(&b.c, &rg, rdist, False)
            if st != 0:
                raise MemoryError
        cands = [] if want_cands else None
        with nogil:
            if twist:
                for i in range(nstates):
                    if rdist[i] == 0:
                        goals += 1
                    elif rdist[i] < 0:
                        traps += 1
            else:
                for i in range(npos):
                    if cdist[i] == 0:
                        goals += 1
                    elif cdist[i] < 0:
                        traps += 1
        for i in range(npos):
            cpar = cdist[i]
            if twist:
                j = table_get(&rg.t, starts[i])
                par = rdist[j]
            else:
                par = cpar
            if par < 0:
                continue
            solvable += 1
            if par > deepest:
                deepest = par
            if par > cpar:
                binding += 1
                if par > deepest_binding:
                    deepest_binding = par
            if par >= 1:
                hist[par if par < 255 else 255] += 1
            if want_cands and par >= min_depth and par >= 1 and (par > cpar or not binding_only):
                cands.append((starts[i] if twist else cg.a.st[i], par, cpar))
        return {"complete": True, "positions": npos, "states": nstates if twist else npos,
                "work": npos + nstates, "goals": goals,
                "starts": npos, "traps": traps, "solvable": solvable, "deepest": deepest,
                "deepest_binding": deepest_binding, "binding": binding,
                "histogram": {d: hist[d] for d in range(1, 256) if hist[d]},
                "cands": cands}
    finally:
        free(cdist)
        free(rdist)
        free(starts)
        graph_free(&cg)
        graph_free(&rg)


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


cdef int plans_count(const Core* c, Graph* g, const int32_t* dist, const int16_t* depth,
                     const int64_t* doff, const int64_t* dedge, int best, uint64_t cap,
                     uint64_t* out) noexcept nogil:
    """Count lexicographic normal forms of optimal solutions (see the module docstring).
    doff/dedge list each on-path state's DAG out-edges (indices into g's edge arrays).
    Returns 0, 1 when some state has more than 64 DAG out-edges (count unknown: capped),
    -1 when memory ran out."""
    cdef PlanMap cur, nxt, tmp
    cdef int64_t slot, u, v, e, e2, j, t, du, dv, q, inherit
    cdef uint64_t f, fn, total = 0, cu
    cdef int mb, md, ab, ad, k
    cdef uint64_t s, sv, sa
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
            s = g.a.st[u]
            du = doff[u + 1] - doff[u]
            if du > 64:
                pmap_free(&cur)
                pmap_free(&nxt)
                return 1
            for j in range(du):
                if (f >> j) & 1:
                    continue
                e = dedge[doff[u] + j]
                v = g.to[e]
                mb = g.eb[e]
                md = g.ed[e]
                fn = 0
                if dist[v] > 0:
                    dv = doff[v + 1] - doff[v]
                    if dv > 64:
                        pmap_free(&cur)
                        pmap_free(&nxt)
                        return 1
                    sv = g.a.st[v]
                    for t in range(dv):
                        e2 = dedge[doff[v] + t]
                        ab = g.eb[e2]
                        ad = g.ed[e2]
                        if ab == mb:
                            continue
                        # a may bubble left past m when it is smaller, or when it could
                        # already bubble further (it is in F at u)
                        inherit = -1
                        if not move_less(ab, ad, mb, md):
                            for q in range(du):
                                if (f >> q) & 1:
                                    e2 = dedge[doff[u] + q]
                                    if g.eb[e2] == ab and g.ed[e2] == ad:
                                        inherit = q
                                        break
                            if inherit < 0:
                                continue
                        # commute at u: a legal at u, m legal after a, same position
                        if not legal(c, s, ab, ad):
                            continue
                        sa = do_move(c, s, ab, ad)
                        if not legal(c, sa, mb, md):
                            continue
                        if do_move(c, sa, mb, md) != do_move(c, sv, ab, ad):
                            continue
                        fn |= (<uint64_t>1) << t
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


def level_measures(level, uint64_t plan_cap, uint64_t solution_cap, int64_t state_cap):
    """See lumina.engine.measure. Returns a dict (outcome 0 solved, 1 unsolvable,
    2 exhausted)."""
    cdef Board b = _board(level)
    cdef Graph g
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
    if graph_open(&g) != 0:
        graph_free(&g)
        raise MemoryError
    try:
        with nogil:
            st = graph_build(&b.c, &g, &start, 1, state_cap)
        if st == G_NOMEM:
            raise MemoryError("analysis ran out of memory")
        n = g.a.n
        if st == G_CAPPED:
            return {"outcome": 2, "states": n}
        dist = <int32_t*>malloc(n * sizeof(int32_t))
        if dist == NULL:
            raise MemoryError
        with nogil:
            st = dist_to_goal(&b.c, &g, dist, False)
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
                    "dead_blocks": tuple(range(b.c.n)), "first_moves": (), **common}
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
            st = plans_count(&b.c, &g, dist, depth, doff, dedge, best, plan_cap, &plans)
        if st < 0:
            raise MemoryError
        first = tuple(sorted({(g.eb[dedge[e]], g.ed[dedge[e]]) for e in range(doff[0], doff[1])}))
        return {"outcome": 0, "optimal": best,
                "plans": plan_cap if st == 1 else plans,
                "plans_capped": st == 1 or plans >= plan_cap,
                "solutions": count[0], "solutions_capped": capped,
                "dead_blocks": tuple(k for k in range(b.c.n) if not moved[k]),
                "first_moves": first, **common}
    finally:
        free(dist)
        free(doff)
        free(dedge)
        free(count)
        graph_free(&g)


def goal_distances(level, int64_t state_cap):
    """See lumina.engine.distances: {state key: moves to the nearest win, -1 for a trap}
    over the start's whole component, or None when it has more than `state_cap` states."""
    cdef Board b = _board(level)
    cdef Graph g
    cdef int32_t* dist = NULL
    cdef uint64_t start = b.start
    cdef int64_t i, n
    cdef int st
    if graph_open(&g) != 0:
        graph_free(&g)
        raise MemoryError
    try:
        with nogil:
            st = graph_build(&b.c, &g, &start, 1, state_cap)
        if st == G_NOMEM:
            raise MemoryError("distances ran out of memory")
        if st == G_CAPPED:
            return None
        n = g.a.n
        dist = <int32_t*>malloc(n * sizeof(int32_t))
        if dist == NULL:
            raise MemoryError
        with nogil:
            st = dist_to_goal(&b.c, &g, dist, False)
        if st != 0:
            raise MemoryError
        return {g.a.st[i]: dist[i] for i in range(n)}
    finally:
        free(dist)
        graph_free(&g)
