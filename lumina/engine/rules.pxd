# cython: language_level=3
"""The rules, compiled: per-level tables, the uint64 state key, move generation and
the win test (RULES.md's is_solved). Every engine module cimports these kernels, so
there is one definition of a legal move and one of winning.

Insight: cells index a uint64 bitboard, bit = y * W + x. Each block has a mask at
every position along its axis, computed once per level, so a slide never wraps a
row: the mask for position p is built from real (x, y) cells, not by shifting.

    state key (low bits first):  [pos0:3][pos1:3]...[posN-1:3][flag bits...]
    4x4, key "AA" at x=1, row 1:    . . . .
                                    . A A .     pos0 = 1 -> bits 0..2 = 001
                                    . . . .
Flag bits: sand (set = spent) and rime (set = thawed) read it in opposite ways.
"""
from libc.stdint cimport uint64_t, int8_t

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
