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

The rules are written once and specialised per level: a search picks the variant of
its level once (`Core.variant`) and runs a kernel compiled for it (the fused type
`Rules`), so a crystal level's moves never test a kind and an exit level tests the
win only when the key moved.
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
    V_EXIT = 0          # crystal blocks only, the key to the lantern
    V_BEAM = 1          # crystal blocks only, the light to the lantern
    V_ANY = 2           # sand, ice or rime on the board (either win)

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
    int variant                    # V_EXIT, V_BEAM or V_ANY: which specialisation searches it


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


# ---------------------------------------------------------------------------
# The variants: empty marker types, one per specialisation of the move kernels.

cdef extern from *:
    """
    typedef struct { char crystal_exit; } lumina_exit_rules;
    typedef struct { char crystal_beam; } lumina_beam_rules;
    typedef struct { char any_kind; } lumina_any_rules;
    """
    ctypedef struct ExitRules "lumina_exit_rules":
        char crystal_exit
    ctypedef struct BeamRules "lumina_beam_rules":
        char crystal_beam
    ctypedef struct AnyRules "lumina_any_rules":
        char any_kind

ctypedef fused Rules:
    ExitRules
    BeamRules
    AnyRules

# A move consumer: gets (block, signed distance, state after the move); a non-zero
# return stops the enumeration and is passed back.
ctypedef int (*take_fn)(void* ctx, int b, int d, uint64_t ns) noexcept nogil


cdef inline bint movable(const Core* c, uint64_t s, int i, Rules* r) noexcept nogil:
    """Whether block i may slide at all: spent sand and frozen rime may not."""
    cdef int kd
    if Rules is AnyRules:
        kd = c.kind[i]
        if kd == K_SAND:
            return not flag_set(c, s, i)
        if kd == K_RIME:
            return flag_set(c, s, i)
    return True


cdef inline uint64_t slide(const Core* c, uint64_t s, int b, int t, Rules* r) noexcept nogil:
    """The state after block b slides to axis position t (the slide must be legal)."""
    cdef int sh = 3 * b
    s = (s & ~((<uint64_t>7) << sh)) | ((<uint64_t>t) << sh)
    if Rules is AnyRules:
        if c.kind[b] == K_SAND:
            s |= (<uint64_t>1) << c.flagbit[b]
        elif b == c.keyi:
            s = thaw(c, s)
    return s


cdef inline int each_move(const Core* c, uint64_t s, int skip, Rules* r, take_fn take,
                          void* ctx) noexcept nogil:
    """Every legal move of state s, block by block, distance ascending (ice: only the
    farthest slide each way), leaving out block `skip` (-1: none), handed to
    take(ctx, block, distance, next state) as it is generated. Returns the first
    non-zero value take returns (the enumeration stops there), else 0."""
    cdef uint64_t occ = occupancy(c, s), rest
    cdef const uint64_t* m
    cdef int i, p, t, lo, hi, k
    for i in range(c.n):
        if i == skip or not movable(c, s, i, r):
            continue
        m = c.mask[i]
        p = pos_of(s, i)
        rest = occ & ~m[p]
        lo = p
        while lo > 0 and not (m[lo - 1] & rest):
            lo -= 1
        hi = p
        while hi < c.npos[i] - 1 and not (m[hi + 1] & rest):
            hi += 1
        if Rules is AnyRules:
            if c.kind[i] == K_ICE:
                if lo < p:
                    k = take(ctx, i, lo - p, slide(c, s, i, lo, r))
                    if k:
                        return k
                if hi > p:
                    k = take(ctx, i, hi - p, slide(c, s, i, hi, r))
                    if k:
                        return k
                continue
        t = lo
        while t < p:
            k = take(ctx, i, t - p, slide(c, s, i, t, r))
            if k:
                return k
            t += 1
        t = p + 1
        while t <= hi:
            k = take(ctx, i, t - p, slide(c, s, i, t, r))
            if k:
                return k
            t += 1
    return 0


cdef struct MoveList:
    int* mb
    int* md
    int n


cdef inline int _list_take(void* ctx, int b, int d, uint64_t ns) noexcept nogil:
    cdef MoveList* l = <MoveList*>ctx
    l.mb[l.n] = b
    l.md[l.n] = d
    l.n += 1
    return 0


cdef inline int gen_moves(const Core* c, uint64_t s, int* mb, int* md) noexcept nogil:
    """Legal moves of state s into (mb, md), ordered by block then distance ascending."""
    return gen_moves_skip(c, s, mb, md, -1)


cdef inline int gen_moves_skip(const Core* c, uint64_t s, int* mb, int* md, int skip) noexcept nogil:
    """As gen_moves, leaving out block `skip` (-1: none)."""
    cdef MoveList l
    l.mb = mb
    l.md = md
    l.n = 0
    each_move(c, s, skip, <AnyRules*>NULL, _list_take, &l)
    return l.n


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


cdef inline uint64_t do_move(const Core* c, uint64_t s, int b, int d) noexcept nogil:
    """The state after block b slides d cells (the move must be legal)."""
    return slide(c, s, b, pos_of(s, b) + d, <AnyRules*>NULL)


cdef inline bint wins_after(const Core* c, uint64_t ns, int b, Rules* r) noexcept nogil:
    """solved(c, ns) for a state reached by moving block b from a state that did not win:
    on an exit level only a key move can win."""
    if Rules is BeamRules:
        return solved(c, ns)
    elif Rules is ExitRules:
        return b == c.keyi and pos_of(ns, b) == c.win_pos
    else:
        if c.win_beam:
            return solved(c, ns)
        return b == c.keyi and pos_of(ns, b) == c.win_pos
