# cython: language_level=3, boundscheck=False, wraparound=False
"""The felt-difficulty player's inner loop (lumina.playtest.felt has the model).

A seeded player that sees only the board: each position is scored by what a person
sees (the key's blockers, and what blocks each of them from leaving the key's path;
on a beam level, what stops the light), each legal move by the score of where it
leads after a bounded look-ahead, recent positions are avoided, and a player who
makes no progress for a while starts the level again. No distance to the win is
known. Every random draw comes from a splitmix64 stream seeded by the caller, and
moves are chosen by integer weights, so a run is the same on every machine.

Insight: the key's path is a bitboard, and a blocker's way out is every position of
it whose cells miss the path; the pieces in the cells it sweeps on the way are its
own blockers (a wall there closes that way):

    . . C . .        key A A wants the right edge; path = cells right of the key
    A A C . .   >    C blocks it: its ways out are up (row 0: free) or down (row 2+:
    . . C . .        D in the way), so C costs 1 (itself) + 0; h = key move 1 + 1 = 2
    . . D . .
"""
from libc.stdint cimport uint64_t, int64_t
from libc.stdlib cimport malloc, free
from lumina.engine.rules cimport (
    Core, MAXB, MAXMOVES, K_SAND, K_RIME, gen_moves, do_move, solved, occupancy, pos_of,
    flag_set, key_beam)
from lumina.engine.board cimport Board
from lumina.engine.table cimport EMPTY_KEY, mix

cdef enum:
    SEEN_SLOTS = 4096       # positions whose score a play remembers (a power of two)
    FAR = 4                 # a blocker that cannot leave (spent sand, walls both ways)
    MEMORY_MAX = 64
    WEIGHTS = 48            # weight table length (half points of score difference)


cdef inline uint64_t _next(uint64_t* x) noexcept nogil:
    """splitmix64."""
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef int _way_out(const Core* c, uint64_t s, uint64_t occ, int j, uint64_t need) noexcept nogil:
    """How many other pieces stand in block j's least way out of the cells `need`
    (FAR when there is none: a wall or the grid's edge both ways, or spent sand); a
    frozen rime block adds one (it waits for the key's touch)."""
    cdef int p = pos_of(s, j), t, u, k, n, best = FAR, lo, hi
    cdef uint64_t swept, mine = c.mask[j][p], others
    if c.kind[j] == K_SAND and flag_set(c, s, j):
        return FAR
    for t in range(c.npos[j]):
        if c.mask[j][t] & need:
            continue
        lo = p if p < t else t
        hi = t if p < t else p
        swept = 0
        for u in range(lo, hi + 1):
            swept |= c.mask[j][u]
        swept &= ~mine
        if swept & c.fixed:
            continue
        n = 0
        for k in range(c.n):
            if k != j and c.mask[k][pos_of(s, k)] & swept:
                n += 1
        if n < best:
            best = n
    if c.kind[j] == K_RIME and not flag_set(c, s, j) and best < FAR:
        best += 1
    return best


cdef int _blocked(const Core* c, uint64_t s, uint64_t occ, uint64_t need) noexcept nogil:
    """Each piece on the cells `need`: 1 + the pieces in its least way out."""
    cdef int k, h = 0
    for k in range(c.n):
        if k != c.keyi and c.mask[k][pos_of(s, k)] & need:
            h += 1 + _way_out(c, s, occ, k, need)
    return h


cdef int _score(const Core* c, uint64_t s) noexcept nogil:
    """What the board shows of how far the win is (0: won)."""
    cdef uint64_t occ = occupancy(c, s), path = 0
    cdef int i = c.keyi, p, t, lo, hi, x, y, dx, dy, steps = 0, ndx, cell, tl, k
    if solved(c, s):
        return 0
    if not c.win_beam:
        p = pos_of(s, i)
        lo = p if p < c.win_pos else c.win_pos
        hi = c.win_pos if p < c.win_pos else p
        for t in range(lo, hi + 1):
            path |= c.mask[i][t]
        path &= ~c.mask[i][p]
        return 1 + _blocked(c, s, occ, path)
    # the beam: follow the light to what stops it
    key_beam(c, s, &x, &y, &dx, &dy)
    while steps < c.trace_cap:
        if x < 0 or y < 0 or x >= c.W or y >= c.H:
            return 2                    # leaves the grid, not through the lantern
        cell = y * c.W + x
        tl = c.tilt[cell]
        if tl == 1:
            ndx = -dy
            dy = -dx
            dx = ndx
        elif tl == 2:
            ndx = dy
            dy = dx
            dx = ndx
        elif (c.fixed >> cell) & 1:
            return 3                    # a wall: the key must aim elsewhere
        elif (occ >> cell) & 1:
            for k in range(c.n):
                if c.mask[k][pos_of(s, k)] & ((<uint64_t>1) << cell):
                    if k == c.keyi:
                        return 3
                    return 1 + 1 + _way_out(c, s, occ, k, (<uint64_t>1) << cell)
        x += dx
        y += dy
        steps += 1
    return 3


# The scores of the positions met lately: a direct-mapped cache (a position's score is a
# pure function of it, and a play meets the same few hundred positions thousands of
# times), slotted by the visited table's mix; an empty slot holds its EMPTY_KEY.
cdef struct Seen:
    uint64_t key[SEEN_SLOTS]
    int score[SEEN_SLOTS]


cdef void _seen_clear(Seen* m) noexcept nogil:
    cdef int i
    for i in range(SEEN_SLOTS):
        m.key[i] = EMPTY_KEY


cdef inline int _scored(const Core* c, uint64_t s, Seen* m) noexcept nogil:
    """_score(c, s), remembered in `m`."""
    cdef uint64_t h = mix(s) & (SEEN_SLOTS - 1)
    if m.key[h] != s:
        m.key[h] = s
        m.score[h] = _score(c, s)
    return m.score[h]


cdef int _look(const Core* c, uint64_t s, int depth, Seen* m) noexcept nogil:
    """The best score the player sees within `depth` more moves (a win: 0), in half
    points: a position reached one move later counts half a point more."""
    cdef int mb[MAXMOVES]
    cdef int md[MAXMOVES]
    cdef int n, k, v, best = 2 * _scored(c, s, m)
    if best == 0 or depth <= 0:
        return best
    n = gen_moves(c, s, mb, md)
    for k in range(n):
        v = _look(c, do_move(c, s, mb[k], md[k]), depth - 1, m) + 1
        if v < best:
            best = v
    return best


def play(Board board, uint64_t seed, int runs, int budget, int depth, int memory,
         int revisit, int patience, weights):
    """`runs` seeded runs of the board-only player, each until it wins or has spent
    `budget` actions (a move or a restart). Returns (actions per run, wins). Scores
    are in half points; a move to one of the last `memory` positions costs `revisit`
    half points more; after `patience` actions without a better score than its best
    the player starts again. `weights[d]`: the integer weight of a move whose
    score is d half points worse than the best move's."""
    cdef const Core* c = &board.c
    cdef uint64_t start = board.start, s, t, rng, total, r
    cdef uint64_t recent[MEMORY_MAX]
    cdef uint64_t nxt[MAXMOVES]
    cdef int mb[MAXMOVES]
    cdef int md[MAXMOVES]
    cdef int val[MAXMOVES]
    cdef int64_t w[WEIGHTS]
    cdef int run, n, k, m, vmin, d, since, best, now, won, wins = 0, actions, nrec, at, pick
    cdef Seen* seen = <Seen*>malloc(sizeof(Seen))
    if seen == NULL:
        raise MemoryError
    _seen_clear(seen)
    try:
        if memory > MEMORY_MAX:
            memory = MEMORY_MAX
        for k in range(WEIGHTS):
            w[k] = weights[k] if k < len(weights) else 0
        out = []
        for run in range(runs):
            rng = seed * 1000003 + run
            s = start
            nrec = 0
            at = 0
            since = 0
            best = _scored(c, s, seen)
            actions = 0
            won = solved(c, s)
            while not won and actions < budget:
                n = gen_moves(c, s, mb, md)
                pick = -1
                vmin = 1 << 30
                for k in range(n):
                    t = do_move(c, s, mb[k], md[k])
                    nxt[k] = t
                    if solved(c, t):
                        pick = k            # a person sees a win one move away
                        break
                    val[k] = _look(c, t, depth - 1, seen)
                    for m in range(nrec):
                        if recent[m] == t:
                            val[k] += revisit
                            break
                    if val[k] < vmin:
                        vmin = val[k]
                if pick < 0 and n > 0:
                    total = 0
                    for k in range(n):
                        d = val[k] - vmin
                        total += <uint64_t>w[d] if d < WEIGHTS else 0
                    r = _next(&rng) % total
                    for k in range(n):
                        d = val[k] - vmin
                        if d < WEIGHTS:
                            if r < <uint64_t>w[d]:
                                pick = k
                                break
                            r -= <uint64_t>w[d]
                actions += 1
                if pick < 0:                # no legal move: start again
                    s = start
                    nrec = 0
                    since = 0
                    continue
                if memory > 0:
                    recent[at] = s
                    at = (at + 1) % memory
                    if nrec < memory:
                        nrec += 1
                s = nxt[pick]
                if solved(c, s):
                    won = 1
                    break
                now = _scored(c, s, seen)
                if now < best:
                    best = now
                    since = 0
                else:
                    since += 1
                    if since >= patience:
                        s = start
                        nrec = 0
                        at = 0
                        since = 0
                        best = _scored(c, s, seen)
                        actions += 1
            out.append(actions)
            wins += won
    finally:
        free(seen)
    return out, wins
