# cython: language_level=3
"""The visited table: power-of-two open addressing over uint64 state keys, linear
probing, doubled at half load. Values are int32 indices into a search's arrays.

Insight: a key's slot is mix(key) & mask; a collision walks right to the next free
slot, and a lookup stops at the first empty one. All-ones is never a state key (no
block stands at axis position 7), so it marks an empty slot.

    slot:   0    1    2    3    4    5    6    7
    key:    --   k9   k2   k5   --   --   k7   --      -- = EMPTY_KEY
                 ^ mix(k5) & 7 = 1: probe 1, 2, then 3 (free: k5 goes there)
"""
from libc.stdint cimport uint64_t, int64_t, int32_t
from libc.stdlib cimport malloc, free

cdef extern from *:
    """
    #define LUMINA_EMPTY_KEY 0xFFFFFFFFFFFFFFFFULL
    """
    # never a state key: no block can stand at axis position 7 (blocks are >= 2 long)
    const uint64_t EMPTY_KEY "LUMINA_EMPTY_KEY"

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
