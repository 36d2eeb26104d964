# cython: language_level=3, boundscheck=False, wraparound=False
"""Board: one level compiled into bitboard tables, with the Python-facing rules API.

Every method here is a thin, checked wrapper around a nogil kernel in `rules.pxd`;
the solver and the sweeps call the same kernels, so there is one definition of a
legal move and one of winning.

Insight: a vertical 1x2 ice block at x=2 on a 4x4 board has npos = 3 positions,
each a precomputed mask (bits y*4+2 and (y+1)*4+2):

    pos 0: . . I .    pos 1: . . . .    pos 2: . . . .
           . . I .           . . I .           . . . .
           . . . .           . . I .           . . I .
           . . . .           . . . .           . . I .
"""
from libc.stdint cimport uint64_t
from lumina.engine.rules cimport (
    Core, MAXB, MAXP, MAXMOVES, K_KEY, K_CRYSTAL, K_SAND, K_ICE, K_RIME,
    V_EXIT, V_BEAM, V_ANY, SIDE_LEFT, SIDE_RIGHT, SIDE_TOP, SIDE_BOTTOM,
    pos_of, occupancy, flag_set, thaw, do_move, gen_moves, trace_from, key_beam, solved)

_KIND = {"key": K_KEY, "crystal": K_CRYSTAL, "sand": K_SAND, "ice": K_ICE, "rime": K_RIME}
_SIDE = {"left": SIDE_LEFT, "right": SIDE_RIGHT, "top": SIDE_TOP, "bottom": SIDE_BOTTOM}
_DIR = {"N": 0, "E": 1, "S": 2, "W": 3}


cdef uint64_t _cells_mask(int W, int x, int y, int w, int h):
    cdef uint64_t m = 0
    cdef int i, j
    for j in range(y, y + h):
        for i in range(x, x + w):
            m |= (<uint64_t>1) << (j * W + i)
    return m


cdef uint64_t _around(uint64_t m, int W, int H) noexcept:
    """The cells outside mask m that share an edge with one of its cells."""
    cdef uint64_t out = 0
    cdef int cell, x, y
    for cell in range(W * H):
        if (m >> cell) & 1:
            x = cell % W
            y = cell // W
            if x > 0:
                out |= (<uint64_t>1) << (cell - 1)
            if x < W - 1:
                out |= (<uint64_t>1) << (cell + 1)
            if y > 0:
                out |= (<uint64_t>1) << (cell - W)
            if y < H - 1:
                out |= (<uint64_t>1) << (cell + W)
    return out & ~m


cdef class Board:
    """A level compiled for play and search. States are uint64 keys (Python ints).

    `Board(level)` accepts any validated `lumina.model.Level`."""

    def __init__(self, level):
        cdef Core* c = &self.c
        cdef int i, p, W = level.width, H = level.height, flag = 0, x, y
        self.level = level
        blocks = level.blocks
        c.n = len(blocks)
        c.W = W
        c.H = H
        c.fixed = 0
        c.has_rime = 0
        c.trace_cap = W * H * 4
        for i in range(64):
            c.tilt[i] = 0
        for x, y in level.walls:
            c.fixed |= (<uint64_t>1) << (y * W + x)
        for mirror in level.mirrors:
            c.fixed |= (<uint64_t>1) << (mirror.y * W + mirror.x)
            c.tilt[mirror.y * W + mirror.x] = 1 if mirror.tilt == "/" else 2
        flag = 3 * c.n
        for i, b in enumerate(blocks):
            c.kind[i] = _KIND[b.kind]
            c.horiz[i] = 1 if b.w > b.h else 0
            if c.horiz[i]:
                c.npos[i] = W - b.w + 1
                c.cross[i] = b.y
                for p in range(c.npos[i]):
                    c.mask[i][p] = _cells_mask(W, p, b.y, b.w, b.h)
            else:
                c.npos[i] = H - b.h + 1
                c.cross[i] = b.x
                for p in range(c.npos[i]):
                    c.mask[i][p] = _cells_mask(W, b.x, p, b.w, b.h)
            for p in range(c.npos[i], MAXP):
                c.mask[i][p] = 0
            if b.kind in ("sand", "rime"):
                c.flagbit[i] = flag
                flag += 1
            else:
                c.flagbit[i] = -1
            if b.kind == "rime":
                c.has_rime = 1
            if b.kind == "key":
                c.keyi = i
                c.key_w = b.w
                c.key_h = b.h
        # cells sharing an edge with the key, at every key position
        i = c.keyi
        for p in range(c.npos[i]):
            c.keyadj[p] = _around(c.mask[i][p], W, H)
        c.win_beam = 1 if level.win == "beam" else 0
        if any(b.kind in ("sand", "ice", "rime") for b in blocks):
            c.variant = V_ANY
        else:
            c.variant = V_BEAM if c.win_beam else V_EXIT
        c.exit_side = _SIDE[level.exit.side]
        c.exit_index = level.exit.index
        key = blocks[c.keyi]
        if c.exit_side == SIDE_RIGHT:
            c.win_pos = W - key.w
        elif c.exit_side == SIDE_BOTTOM:
            c.win_pos = H - key.h
        else:
            c.win_pos = 0
        if c.win_beam:
            c.beam_dir = _DIR[level.beam.dir]
            c.beam_off = level.beam.offset
        else:
            c.beam_dir = 0
            c.beam_off = 0

    # -- state <-> positions ---------------------------------------------------
    @property
    def start(self):
        """The level's start state (rime touching the key is thawed at load)."""
        positions = tuple((b.x, b.y) for b in self.level.blocks)
        flags = tuple(False for _ in self.level.blocks)
        return thaw(&self.c, self._encode(positions, flags))

    def encode(self, positions, flags):
        """State key from ((x, y) per block, flag per block); ValueError if off-axis,
        out of range or overlapping."""
        return self._encode(positions, flags)

    cdef uint64_t _encode(self, positions, flags) except? 0:
        cdef Core* c = &self.c
        cdef uint64_t s = 0, occ = c.fixed, m
        cdef int i, p
        if len(positions) != c.n or len(flags) != c.n:
            raise ValueError(f"need {c.n} positions and flags")
        for i in range(c.n):
            x, y = positions[i]
            p = x if c.horiz[i] else y
            if (y if c.horiz[i] else x) != c.cross[i] or not 0 <= p < c.npos[i]:
                raise ValueError(f"block {i} cannot stand at ({x}, {y})")
            m = c.mask[i][p]
            if m & occ:
                raise ValueError(f"block {i} at ({x}, {y}) overlaps another piece")
            occ |= m
            s |= (<uint64_t>p) << (3 * i)
            if flags[i]:
                if c.flagbit[i] < 0:
                    raise ValueError(f"block {i} ({self.level.blocks[i].kind}) has no flag")
                s |= (<uint64_t>1) << c.flagbit[i]
        return s

    def decode(self, uint64_t state):
        """((x, y) per block, flag per block: sand spent / rime thawed / else False)."""
        cdef Core* c = &self.c
        cdef int i, p
        positions = []
        flags = []
        for i in range(c.n):
            p = pos_of(state, i)
            positions.append((p, c.cross[i]) if c.horiz[i] else (c.cross[i], p))
            flags.append(bool(flag_set(c, state, i)))
        return tuple(positions), tuple(flags)

    # -- rules -------------------------------------------------------------------
    def moves(self, uint64_t state):
        """Legal moves [(block, signed distance)], by block then distance ascending."""
        cdef int mb[MAXMOVES]
        cdef int md[MAXMOVES]
        cdef int n = gen_moves(&self.c, state, mb, md), k
        return [(mb[k], md[k]) for k in range(n)]

    def apply(self, uint64_t state, move):
        """The state after `move` = (block, distance); ValueError if it is not legal."""
        b, d = move
        if (b, d) not in self.moves(state):
            raise ValueError(f"illegal move {tuple(move)!r}")
        return do_move(&self.c, state, b, d)

    def thawed(self, uint64_t state):
        """`state` with every frozen rime block touching the key thawed (the load rule)."""
        return thaw(&self.c, state)

    def is_solved(self, uint64_t state):
        return bool(solved(&self.c, state))

    def beam(self, uint64_t state):
        """(solved, cells the light passes through) for a beam level."""
        cdef int x, y, dx, dy, steps = 0, t, ndx
        cdef uint64_t occ = occupancy(&self.c, state)
        if not self.c.win_beam:
            return False, []
        key_beam(&self.c, state, &x, &y, &dx, &dy)
        cells = []
        W, H = self.c.W, self.c.H
        while steps < self.c.trace_cap and 0 <= x < W and 0 <= y < H:
            t = self.c.tilt[y * W + x]
            if t == 0 and (occ >> (y * W + x)) & 1:
                break
            cells.append((x, y))
            if t == 1:
                ndx = -dy; dy = -dx; dx = ndx
            elif t == 2:
                ndx = dy; dy = dx; dx = ndx
            x += dx
            y += dy
            steps += 1
        return bool(solved(&self.c, state)), cells

    def trace(self, uint64_t state, int x, int y, int dx, int dy):
        """Trace light from any cell and direction (capped at width*height*4 steps)."""
        return bool(trace_from(&self.c, occupancy(&self.c, state), x, y, dx, dy))

    @property
    def nblocks(self):
        return self.c.n

    @property
    def variant(self):
        """Which compiled specialisation searches this level: "exit" (crystal blocks,
        the key to the lantern), "beam" (crystal blocks, the light) or "any" (sand,
        ice or rime on the board)."""
        return ("exit", "beam", "any")[self.c.variant]
