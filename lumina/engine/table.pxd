# cython: language_level=3
"""The visited table: power-of-two open addressing over uint64 state keys, linear
probing, doubled at half load. A membership table holds keys only; a table with
values holds each key beside its int64 value (an index into a search's arrays), so
a lookup reads one cache line.

Insight: a key's slot is mix(key) & mask; a collision walks right to the next free
slot, and a lookup stops at the first empty one. All-ones is never a state key (no
block stands at axis position 7), so it marks an empty slot, and clearing a table is
one memset of 0xFF bytes.

    slot:   0    1    2    3    4    5    6    7
    key:    --   k9   k2   k5   --   --   k7   --      -- = EMPTY_KEY
                 ^ mix(k5) & 7 = 1: probe 1, 2, then 3 (free: k5 goes there)

A table is reused from search to search: its buffers stay allocated, and the search
that used it clears it when it ends (`table_scrub`): a small search deletes its own
keys (in reverse order of insertion, which undoes the inserts exactly), a large one
memsets the slots it used. The next search starts with as many slots as the last
one ended with keys (times two), and at least a START_BYTES table, so searches of
the usual sizes never grow at all. A grow rehashes into the spare buffer and swaps
the two.
"""
from libc.stdint cimport uint64_t, int64_t, int32_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

cdef extern from *:
    """
    #define LUMINA_EMPTY_KEY 0xFFFFFFFFFFFFFFFFULL
    """
    # never a state key: no block can stand at axis position 7 (blocks are >= 2 long)
    const uint64_t EMPTY_KEY "LUMINA_EMPTY_KEY"
    void prefetch "__builtin_prefetch"(const void* p) noexcept nogil

cdef enum:
    TABLE_MIN = 1024               # slots a table has, at least
    START_BYTES = 1 << 19          # a reused table starts with at least this many bytes


cdef struct Slot:
    uint64_t key
    int64_t val


cdef struct Table:
    uint64_t* keys                 # membership table: the keys (NULL when valued)
    Slot* slots                    # table with values: key and value side by side
    uint64_t mask                  # slots in use - 1 (a power of two - 1)
    int64_t size                   # keys stored
    void* buf                      # the buffer keys or slots point into
    void* spare                    # the other buffer: a grow rehashes into it
    int64_t buf_bytes
    int64_t spare_bytes
    int64_t clean                  # bytes at the start of buf that are all EMPTY (once
    int64_t spare_clean            # the table in use is scrubbed); the same for spare
    int64_t start                  # slots the next reset starts with


cdef inline uint64_t mix(uint64_t k) noexcept nogil:
    k ^= k >> 33
    k *= 0xff51afd7ed558ccdULL
    k ^= k >> 33
    return k


cdef inline int _fit(void** p, int64_t* have, int64_t* clean, int64_t need) noexcept nogil:
    """Make *p hold at least `need` bytes, all EMPTY (contents not kept)."""
    if have[0] < need:
        free(p[0])
        p[0] = malloc(need)
        have[0] = need if p[0] != NULL else 0
        clean[0] = 0
        if p[0] == NULL:
            return -1
    if clean[0] < need:
        memset((<char*>p[0]) + clean[0], 0xFF, need - clean[0])
        clean[0] = need
    return 0


cdef inline int table_reset(Table* t, int64_t slots, bint with_values) noexcept nogil:
    """Empty the table for a new search, with at least `slots` slots in use (a power of
    two, TABLE_MIN at least). Keeps its buffers; clears only what is not clean."""
    cdef int64_t cap = TABLE_MIN
    cdef int64_t width = sizeof(Slot) if with_values else sizeof(uint64_t)
    while cap < slots:
        cap *= 2
    if _fit(&t.buf, &t.buf_bytes, &t.clean, cap * width) != 0:
        return -1
    t.keys = NULL if with_values else <uint64_t*>t.buf
    t.slots = <Slot*>t.buf if with_values else NULL
    t.mask = <uint64_t>(cap - 1)
    t.size = 0
    return 0


cdef inline void table_scrub(Table* t, const uint64_t* keys, int64_t n) noexcept nogil:
    """Clear the table after a search whose keys were inserted in the order of
    keys[0:n] (and no others): by deleting them newest first when the table is sparse,
    else (or when that does not empty it) by one memset of the slots in use."""
    cdef uint64_t h
    cdef int64_t i
    cdef int64_t width = sizeof(Slot) if t.slots != NULL else sizeof(uint64_t)
    if t.size * 16 < <int64_t>(t.mask + 1):
        i = n - 1
        while i >= 0 and t.size > 0:
            h = mix(keys[i]) & t.mask
            if t.slots != NULL:
                while t.slots[h].key != keys[i] and t.slots[h].key != EMPTY_KEY:
                    h = (h + 1) & t.mask
                if t.slots[h].key == keys[i]:
                    t.slots[h].key = EMPTY_KEY
                    t.size -= 1
            else:
                while t.keys[h] != keys[i] and t.keys[h] != EMPTY_KEY:
                    h = (h + 1) & t.mask
                if t.keys[h] == keys[i]:
                    t.keys[h] = EMPTY_KEY
                    t.size -= 1
            i -= 1
    if t.size > 0:
        memset(t.buf, 0xFF, (t.mask + 1) * width)
        t.size = 0


cdef inline int64_t table_start(const Table* t, bint with_values) noexcept nogil:
    """Slots for the next search: twice the keys of the last, START_BYTES at least."""
    cdef int64_t least = START_BYTES // (16 if with_values else 8)
    return t.start if t.start > least else least


cdef inline int table_init(Table* t, int64_t capacity, bint with_values) noexcept nogil:
    """A fresh table for `capacity` keys (free it with table_free)."""
    memset(t, 0, sizeof(Table))
    return table_reset(t, capacity * 2, with_values)


cdef inline void table_free(Table* t) noexcept nogil:
    free(t.buf)
    free(t.spare)
    t.buf = NULL
    t.spare = NULL
    t.keys = NULL
    t.slots = NULL
    t.buf_bytes = 0
    t.spare_bytes = 0
    t.clean = 0
    t.spare_clean = 0


cdef inline int64_t table_bytes(const Table* t) noexcept nogil:
    return t.buf_bytes + t.spare_bytes


cdef inline int64_t table_get(const Table* t, uint64_t k) noexcept nogil:
    """The value stored for k (0 in a membership table), or -1 when absent."""
    cdef uint64_t h = mix(k) & t.mask
    if t.slots != NULL:
        while True:
            if t.slots[h].key == k:
                return t.slots[h].val
            if t.slots[h].key == EMPTY_KEY:
                return -1
            h = (h + 1) & t.mask
    while True:
        if t.keys[h] == k:
            return 0
        if t.keys[h] == EMPTY_KEY:
            return -1
        h = (h + 1) & t.mask


cdef inline int table_grow(Table* t) noexcept nogil:
    """Double the slots in use: rehash into the spare buffer, then swap the two."""
    cdef uint64_t ocap = t.mask + 1, i, h, m
    cdef bint valued = t.slots != NULL
    cdef int64_t width = sizeof(Slot) if valued else sizeof(uint64_t)
    cdef uint64_t* ok = t.keys
    cdef Slot* os = t.slots
    cdef void* tmp
    cdef int64_t tb
    if _fit(&t.spare, &t.spare_bytes, &t.spare_clean, <int64_t>(2 * ocap) * width) != 0:
        return -1
    m = 2 * ocap - 1
    if valued:
        t.slots = <Slot*>t.spare
        for i in range(ocap):
            if os[i].key != EMPTY_KEY:
                h = mix(os[i].key) & m
                while t.slots[h].key != EMPTY_KEY:
                    h = (h + 1) & m
                t.slots[h] = os[i]
    else:
        t.keys = <uint64_t*>t.spare
        for i in range(ocap):
            if ok[i] != EMPTY_KEY:
                h = mix(ok[i]) & m
                while t.keys[h] != EMPTY_KEY:
                    h = (h + 1) & m
                t.keys[h] = ok[i]
    t.mask = m
    tmp = t.buf
    t.buf = t.spare
    t.spare = tmp
    tb = t.buf_bytes
    t.buf_bytes = t.spare_bytes
    t.spare_bytes = tb
    t.clean = t.spare_clean
    t.spare_clean = 0              # the old table's keys are still there
    return 0


cdef inline void table_prefetch(const Table* t, uint64_t k) noexcept nogil:
    if t.slots != NULL:
        prefetch(&t.slots[mix(k) & t.mask])
    else:
        prefetch(&t.keys[mix(k) & t.mask])


cdef inline int table_insert(Table* t, uint64_t k) noexcept nogil:
    """Membership tables: insert k unless present, in one probe. Returns 1 when
    inserted, 0 when k was already there, -1 when memory ran out."""
    cdef uint64_t h, v
    if (t.size + 1) * 2 > <int64_t>(t.mask + 1):
        if table_grow(t) != 0:
            return -1
    h = mix(k) & t.mask
    while True:
        v = t.keys[h]
        if v == k:
            return 0
        if v == EMPTY_KEY:
            t.keys[h] = k
            t.size += 1
            return 1
        h = (h + 1) & t.mask


cdef inline int64_t table_put(Table* t, uint64_t k, int64_t v) noexcept nogil:
    """Tables with values: insert k -> v unless present, in one probe. Returns -1 when
    inserted, the existing value when k was already there, -2 when memory ran out."""
    cdef uint64_t h, x
    if (t.size + 1) * 2 > <int64_t>(t.mask + 1):
        if table_grow(t) != 0:
            return -2
    h = mix(k) & t.mask
    while True:
        x = t.slots[h].key
        if x == k:
            return t.slots[h].val
        if x == EMPTY_KEY:
            t.slots[h].key = k
            t.slots[h].val = v
            t.size += 1
            return -1
        h = (h + 1) & t.mask


cdef inline int64_t table_add(Table* t, uint64_t k, int64_t v) noexcept nogil:
    """Insert k -> v unless present (a membership table ignores v). Returns -1 when
    inserted, the existing value (0 in a membership table) when k was already there,
    -2 when memory ran out."""
    cdef int r
    if t.slots != NULL:
        return table_put(t, k, v)
    r = table_insert(t, k)
    return -1 if r == 1 else (0 if r == 0 else -2)
