# cython: language_level=3
"""C-level core shared by every engine module: per-level tables, the uint64 state
key, move generation, the win test, and the open-addressing visited table.

Insight: cells index a uint64 bitboard, bit = y * W + x. Each block has a mask at
every position along its axis, computed once per level, so a slide never wraps a
row: the mask for position p is built from real (x, y) cells, not by shifting.

    state key (low bits first):  [pos0:3][pos1:3]...[posN-1:3][flag bits...]
    4x4, key "AA" at x=1, row 1:    . . . .
                                    . A A .     pos0 = 1 -> bits 0..2 = 001
                                    . . . .
Flag bits: sand (set = spent) and rime (set = thawed) read it in opposite ways.
"""
from libc.stdint cimport uint64_t, int64_t, int32_t, int8_t, int16_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset

cdef enum:
    MAXB = 16
    MAXP = 8
    MAXMOVES = 256
    K_KEY = 0
    K_CRYSTAL = 1
    K_SAND = 2
    K_ICE = 3
    K_RIME = 4
    SIDE_LEFT = 0
    SIDE_RIGHT = 1
    SIDE_TOP = 2
    SIDE_BOTTOM = 3

cdef extern from *:
    """
    #define LUMINA_EMPTY_KEY 0xFFFFFFFFFFFFFFFFULL
    """
    # never a state key: no block can stand at axis position 7 (blocks are >= 2 long)
    const uint64_t EMPTY_KEY "LUMINA_EMPTY_KEY"

cdef struct Core:
    int n, W, H
    uint64_t fixed                 # walls | mirrors
    int horiz[MAXB]
    int npos[MAXB]                 # positions along the axis: 0 .. npos-1
    int cross[MAXB]                # the fixed coordinate (y if horizontal, x if vertical)
    uint64_t mask[MAXB][MAXP]
    int kind[MAXB]
    int flagbit[MAXB]              # bit of the spent/thawed flag, or -1
    int keyi
    int has_rime
    uint64_t keyadj[MAXP]          # cells sharing an edge with the key at each position
    int win_beam
    int win_pos                    # exit levels: the key position that wins
    int exit_side, exit_index
    int beam_dir                   # 0 N, 1 E, 2 S, 3 W
    int beam_off
    int key_w, key_h
    int8_t tilt[64]                # 0 none, 1 "/", 2 "\"
    int trace_cap


cdef inline int pos_of(uint64_t s, int i) noexcept nogil:
    return <int>((s >> (3 * i)) & 7)


cdef inline uint64_t occupancy(const Core* c, uint64_t s) noexcept nogil:
    cdef uint64_t occ = c.fixed
    cdef int i
    for i in range(c.n):
        occ |= c.mask[i][pos_of(s, i)]
    return occ


cdef inline bint flag_set(const Core* c, uint64_t s, int i) noexcept nogil:
    return c.flagbit[i] >= 0 and ((s >> c.flagbit[i]) & 1) != 0


cdef inline uint64_t thaw(const Core* c, uint64_t s) noexcept nogil:
    """Set the thawed bit of every frozen rime block sharing an edge with the key."""
    cdef uint64_t adj
    cdef int i
    if not c.has_rime:
        return s
    adj = c.keyadj[pos_of(s, c.keyi)]
    for i in range(c.n):
        if c.kind[i] == K_RIME and not ((s >> c.flagbit[i]) & 1):
            if c.mask[i][pos_of(s, i)] & adj:
                s |= (<uint64_t>1) << c.flagbit[i]
    return s


cdef inline uint64_t do_move(const Core* c, uint64_t s, int b, int d) noexcept nogil:
    """The state after block b slides d cells (the move must be legal)."""
    cdef int sh = 3 * b
    cdef uint64_t p = <uint64_t>(pos_of(s, b) + d)
    s = (s & ~((<uint64_t>7) << sh)) | (p << sh)
    if c.kind[b] == K_SAND:
        s |= (<uint64_t>1) << c.flagbit[b]
    elif b == c.keyi:
        s = thaw(c, s)
    return s


cdef inline int gen_moves(const Core* c, uint64_t s, int* mb, int* md) noexcept nogil:
    """Legal moves of state s into (mb, md), ordered by block then distance ascending."""
    return gen_moves_skip(c, s, mb, md, -1)


cdef inline int gen_moves_skip(const Core* c, uint64_t s, int* mb, int* md, int skip) noexcept nogil:
    """As gen_moves, leaving out block `skip` (-1: none)."""
    cdef uint64_t occ = occupancy(c, s), rest
    cdef int i, p, lo, hi, d, k, n = 0, kd
    for i in range(c.n):
        if i == skip:
            continue
        kd = c.kind[i]
        if kd == K_SAND and flag_set(c, s, i):
            continue
        if kd == K_RIME and not flag_set(c, s, i):
            continue
        p = pos_of(s, i)
        rest = occ & ~c.mask[i][p]
        lo = 0
        while p - lo - 1 >= 0 and not (c.mask[i][p - lo - 1] & rest):
            lo += 1
        hi = 0
        while p + hi + 1 < c.npos[i] and not (c.mask[i][p + hi + 1] & rest):
            hi += 1
        if kd == K_ICE:
            if lo > 0:
                mb[n] = i
                md[n] = -lo
                n += 1
            if hi > 0:
                mb[n] = i
                md[n] = hi
                n += 1
        else:
            for k in range(lo):
                mb[n] = i
                md[n] = k - lo
                n += 1
            for k in range(1, hi + 1):
                mb[n] = i
                md[n] = k
                n += 1
    return n


cdef inline bint trace_from(const Core* c, uint64_t occ, int x, int y, int dx, int dy) noexcept nogil:
    """Follow light from cell (x, y) moving (dx, dy): True when it leaves through the
    lantern's edge. Blocks and walls stop it; mirrors turn it; gives up after
    trace_cap cells so a closed mirror loop always returns."""
    cdef int steps = 0, t, cell, ndx
    while steps < c.trace_cap:
        if x < 0:
            return c.exit_side == SIDE_LEFT and c.exit_index == y
        if x >= c.W:
            return c.exit_side == SIDE_RIGHT and c.exit_index == y
        if y < 0:
            return c.exit_side == SIDE_TOP and c.exit_index == x
        if y >= c.H:
            return c.exit_side == SIDE_BOTTOM and c.exit_index == x
        cell = y * c.W + x
        t = c.tilt[cell]
        if t == 1:
            ndx = -dy
            dy = -dx
            dx = ndx
        elif t == 2:
            ndx = dy
            dy = dx
            dx = ndx
        elif (occ >> cell) & 1:
            return False
        x += dx
        y += dy
        steps += 1
    return False


cdef inline void key_beam(const Core* c, uint64_t s, int* x, int* y, int* dx, int* dy) noexcept nogil:
    """The beam's first cell and direction for state s."""
    cdef int i = c.keyi, p = pos_of(s, i)
    cdef int kx = p if c.horiz[i] else c.cross[i]
    cdef int ky = c.cross[i] if c.horiz[i] else p
    cdef int kw = c.key_w, kh = c.key_h
    if c.beam_dir == 0:      # N
        x[0] = kx + c.beam_off; y[0] = ky - 1; dx[0] = 0; dy[0] = -1
    elif c.beam_dir == 1:    # E
        x[0] = kx + kw; y[0] = ky + c.beam_off; dx[0] = 1; dy[0] = 0
    elif c.beam_dir == 2:    # S
        x[0] = kx + c.beam_off; y[0] = ky + kh; dx[0] = 0; dy[0] = 1
    else:                    # W
        x[0] = kx - 1; y[0] = ky + c.beam_off; dx[0] = -1; dy[0] = 0


cdef inline bint solved(const Core* c, uint64_t s) noexcept nogil:
    """RULES.md's is_solved(level, state): the only definition of winning."""
    cdef int x, y, dx, dy
    if not c.win_beam:
        return pos_of(s, c.keyi) == c.win_pos
    key_beam(c, s, &x, &y, &dx, &dy)
    return trace_from(c, occupancy(c, s), x, y, dx, dy)


# ---------------------------------------------------------------------------
# Visited table: power-of-two open addressing over uint64 keys, linear probing,
# doubled at half load. Values are int32 indices into the search's state arrays.

cdef struct Table:
    uint64_t* keys
    int32_t* vals                  # NULL for a membership-only table (plain BFS)
    uint64_t mask
    int64_t size


cdef inline uint64_t mix(uint64_t k) noexcept nogil:
    k ^= k >> 33
    k *= 0xff51afd7ed558ccdULL
    k ^= k >> 33
    return k


cdef inline int table_init(Table* t, int64_t capacity, bint with_values) noexcept nogil:
    cdef int64_t cap = 1024, i
    while cap < capacity * 2:
        cap *= 2
    t.keys = <uint64_t*>malloc(cap * sizeof(uint64_t))
    t.vals = <int32_t*>malloc(cap * sizeof(int32_t)) if with_values else NULL
    if t.keys == NULL or (with_values and t.vals == NULL):
        return -1
    for i in range(cap):
        t.keys[i] = EMPTY_KEY
    t.mask = <uint64_t>(cap - 1)
    t.size = 0
    return 0


cdef inline void table_free(Table* t) noexcept nogil:
    free(t.keys)
    free(t.vals)
    t.keys = NULL
    t.vals = NULL


cdef inline int64_t table_get(const Table* t, uint64_t k) noexcept nogil:
    """The value stored for k (0 in a membership-only table), or -1 when absent."""
    cdef uint64_t h = mix(k) & t.mask
    while True:
        if t.keys[h] == k:
            return t.vals[h] if t.vals != NULL else 0
        if t.keys[h] == EMPTY_KEY:
            return -1
        h = (h + 1) & t.mask


cdef inline int table_grow(Table* t) noexcept nogil:
    cdef uint64_t* ok = t.keys
    cdef int32_t* ov = t.vals
    cdef uint64_t ocap = t.mask + 1, i, h
    cdef uint64_t ncap = ocap * 2
    t.keys = <uint64_t*>malloc(ncap * sizeof(uint64_t))
    t.vals = <int32_t*>malloc(ncap * sizeof(int32_t)) if ov != NULL else NULL
    if t.keys == NULL or (ov != NULL and t.vals == NULL):
        return -1
    for i in range(ncap):
        t.keys[i] = EMPTY_KEY
    t.mask = ncap - 1
    for i in range(ocap):
        if ok[i] != EMPTY_KEY:
            h = mix(ok[i]) & t.mask
            while t.keys[h] != EMPTY_KEY:
                h = (h + 1) & t.mask
            t.keys[h] = ok[i]
            if ov != NULL:
                t.vals[h] = ov[i]
    free(ok)
    free(ov)
    return 0


cdef extern from *:
    void prefetch "__builtin_prefetch"(const void* p) noexcept nogil


cdef inline void table_prefetch(const Table* t, uint64_t k) noexcept nogil:
    prefetch(&t.keys[mix(k) & t.mask])


cdef inline int64_t table_add(Table* t, uint64_t k, int64_t v) noexcept nogil:
    """Insert k -> v unless present, in one probe. Returns -1 when inserted, the
    existing value when k was already there, -2 when memory ran out."""
    cdef uint64_t h
    if (t.size + 1) * 2 > <int64_t>(t.mask + 1):
        if table_grow(t) != 0:
            return -2
    h = mix(k) & t.mask
    while True:
        if t.keys[h] == k:
            return t.vals[h] if t.vals != NULL else 0
        if t.keys[h] == EMPTY_KEY:
            t.keys[h] = k
            if t.vals != NULL:
                t.vals[h] = <int32_t>v
            t.size += 1
            return -1
        h = (h + 1) & t.mask


# ---------------------------------------------------------------------------
# Search arrays: the BFS queue is the flat array of discovered states; parents and
# the move that reached each state sit beside it, so a path is rebuilt without
# storing boards.

cdef struct Arrays:
    uint64_t* st
    int32_t* parent
    int8_t* mb
    int8_t* md
    int16_t* depth
    int64_t n
    int64_t alloc


cdef inline int arrays_init(Arrays* a, int64_t alloc) noexcept nogil:
    a.n = 0
    a.alloc = alloc
    a.st = <uint64_t*>malloc(alloc * sizeof(uint64_t))
    a.parent = <int32_t*>malloc(alloc * sizeof(int32_t))
    a.mb = <int8_t*>malloc(alloc * sizeof(int8_t))
    a.md = <int8_t*>malloc(alloc * sizeof(int8_t))
    a.depth = <int16_t*>malloc(alloc * sizeof(int16_t))
    if a.st == NULL or a.parent == NULL or a.mb == NULL or a.md == NULL or a.depth == NULL:
        return -1
    return 0


cdef inline void arrays_free(Arrays* a) noexcept nogil:
    free(a.st)
    free(a.parent)
    free(a.mb)
    free(a.md)
    free(a.depth)
    a.st = NULL
    a.parent = NULL
    a.mb = NULL
    a.md = NULL
    a.depth = NULL


cdef inline int arrays_push(Arrays* a, uint64_t s, int32_t parent, int b, int d, int depth) noexcept nogil:
    cdef int64_t na
    if a.n == a.alloc:
        na = a.alloc * 2
        a.st = <uint64_t*>realloc(a.st, na * sizeof(uint64_t))
        a.parent = <int32_t*>realloc(a.parent, na * sizeof(int32_t))
        a.mb = <int8_t*>realloc(a.mb, na * sizeof(int8_t))
        a.md = <int8_t*>realloc(a.md, na * sizeof(int8_t))
        a.depth = <int16_t*>realloc(a.depth, na * sizeof(int16_t))
        if a.st == NULL or a.parent == NULL or a.mb == NULL or a.md == NULL or a.depth == NULL:
            return -1
        a.alloc = na
    a.st[a.n] = s
    a.parent[a.n] = parent
    a.mb[a.n] = <int8_t>b
    a.md[a.n] = <int8_t>d
    a.depth[a.n] = <int16_t>depth
    a.n += 1
    return 0


cdef inline int expand(const Core* c, Arrays* a, Table* t, int64_t head,
                       int64_t cap) noexcept nogil:
    """Append every unseen neighbour of state `head` to the sweep, one layer deeper.
    Returns 0, 1 when the state cap stopped it, -1 when memory ran out."""
    cdef int mb[MAXMOVES]
    cdef int md[MAXMOVES]
    cdef uint64_t s = a.st[head], ns
    cdef int n = gen_moves(c, s, mb, md), k, d = a.depth[head]
    cdef int64_t r
    for k in range(n):
        ns = do_move(c, s, mb[k], md[k])
        r = table_add(t, ns, a.n)
        if r >= 0:
            continue
        if r == -2:
            return -1
        if a.n >= cap:
            return 1
        if arrays_push(a, ns, <int32_t>head, mb[k], md[k], d + 1) != 0:
            return -1
    return 0


cdef inline int search_open(Arrays* a, Table* t, bint with_values) noexcept nogil:
    """Allocate a search's arrays and visited table; on failure free both and return -1
    (the table's pointers are cleared first, so a failed array allocation never frees
    uninitialised memory)."""
    t.keys = NULL
    t.vals = NULL
    if arrays_init(a, 4096) != 0 or table_init(t, 4096, with_values) != 0:
        arrays_free(a)
        table_free(t)
        return -1
    return 0
