# cython: language_level=3
"""Search arrays: the BFS queue is the flat array of discovered states; parents and
the move that reached each state sit beside it, so a path is rebuilt without
storing boards. `expand` is one BFS step over the rules and the visited table.

Insight: follow parent links from any index back to a root (parent -1):

    index:   0    1     2     3     4
    st:      s0   s1    s2    s3    s4       queue order = discovery order
    parent:  -1   0     0     1     1        path to s4: s0 -> s1 -> s4
    move:    -    0:+1  2:-1  1:+2  0:+2     (block, distance) that reached it
    depth:   0    1     1     2     2
"""
from libc.stdint cimport uint64_t, int64_t, int32_t, int8_t, int16_t
from libc.stdlib cimport malloc, realloc, free
from lumina.engine.rules cimport Core, MAXMOVES, gen_moves, do_move
from lumina.engine.table cimport Table, table_init, table_free, table_add

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
