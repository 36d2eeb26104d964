// Lumina engine: RULES.md in JavaScript, pure logic (no DOM), for node and the browser.
// The Cython engine is its twin; tests/js/parity.test.mjs holds the two together.
//
//   x: 0 1 2 3 4 5          state = {pos, flags}: pos[i] is block i's coordinate
//   y0 . . B . . .            along its axis (x if w > h, else y); flags[i] = 1 for
//   y1 K K B . . . >          spent sand / thawed rime (0 for every other kind).
//   y2 . . . # . .          K key (horizontal, exit right row 1), B crystal, # wall

export const KL = { key: "K", crystal: "C", sand: "S", ice: "I", rime: "R" };
export const SL = { left: "L", right: "R", top: "T", bottom: "B" };
export const DIRS = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const WALL = -1, FWD = -2, BACK = -3;   // fixed cells in the occupancy grid

/** Precompute a level into a board. Pack levels come checked by Python (lumina.packfile);
 * a share link's level is checked by desc.js (`validate`) before it gets here. */
export function compile(level) {
  const W = level.width, H = level.height, fixed = new Int8Array(W * H);
  for (const [x, y] of level.walls || []) fixed[y * W + x] = WALL;
  for (const m of level.mirrors || []) fixed[m.y * W + m.x] = m.tilt === "/" ? FWD : BACK;
  const blocks = level.blocks.map((b) => ({ kind: b.kind, x: b.x, y: b.y, w: b.w, h: b.h, horiz: b.w > b.h }));
  return {
    level, width: W, height: H, fixed, blocks, n: blocks.length,
    key: blocks.findIndex((b) => b.kind === "key"), exit: level.exit,
    win: level.win || "exit", beam: level.win === "beam" ? level.beam : null,
    rime: blocks.some((b) => b.kind === "rime"),
  };
}

/** Block i's rectangle {x, y, w, h} in `state`. */
export function rect(board, state, i) {
  const b = board.blocks[i], p = state.pos[i];
  return b.horiz ? { x: p, y: b.y, w: b.w, h: b.h } : { x: b.x, y: p, w: b.w, h: b.h };
}

/** Cell grid: 0 free, i+1 block i, negative wall/mirror. */
function occupancy(board, state) {
  const g = board.fixed.slice(), W = board.width;
  for (let i = 0; i < board.n; i++) {
    const r = rect(board, state, i);
    for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) g[y * W + x] = i + 1;
  }
  return g;
}

function touches(a, b) {
  return ((a.x + a.w === b.x || b.x + b.w === a.x) && a.y < b.y + b.h && b.y < a.y + a.h)
    || ((a.y + a.h === b.y || b.y + b.h === a.y) && a.x < b.x + b.w && b.x < a.x + a.w);
}

/** Thaw (in place) every frozen rime block sharing an edge with the key. */
function thaw(board, s) {
  if (!board.rime) return s;
  const k = rect(board, s, board.key);
  board.blocks.forEach((b, i) => {
    if (b.kind === "rime" && !s.flags[i] && touches(k, rect(board, s, i))) s.flags[i] = 1;
  });
  return s;
}

/** The level's start state, thaw-at-load applied. */
export function startState(board) {
  const s = {
    pos: board.blocks.map((b) => (b.horiz ? b.x : b.y)),
    flags: board.blocks.map(() => 0),
  };
  return thaw(board, s);
}

/** [[x, y], ...] per block (tests/js/python-state.mjs reads them back). */
export const positions = (board, state) => board.blocks.map((_, i) => { const r = rect(board, state, i); return [r.x, r.y]; });

/** A string that identifies the state (positions and flags). */
export const stateKey = (state) => state.pos.join(",") + "|" + state.flags.join("");

/** Legal moves [[block, signedDistance], ...] by block index, then distance ascending. */
export function legalMoves(board, state) {
  const W = board.width, H = board.height, out = [];
  const g = board.scratch || (board.scratch = new Int8Array(W * H));
  g.set(board.fixed);   // the occupancy grid, in a buffer reused across calls
  for (let i = 0; i < board.n; i++) {
    const r = rect(board, state, i);
    for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) g[y * W + x] = i + 1;
  }
  for (let i = 0; i < board.n; i++) {
    const b = board.blocks[i], f = state.flags[i];
    if ((b.kind === "sand" && f) || (b.kind === "rime" && !f)) continue;
    // free(t): is the line of cells t (a column for horizontal blocks, a row otherwise) free?
    const p = state.pos[i], len = b.horiz ? b.w : b.h, lim = b.horiz ? W : H;
    const a0 = b.horiz ? b.y : b.x, a1 = a0 + (b.horiz ? b.h : b.w);
    const free = (t) => {
      if (t < 0 || t >= lim) return false;
      for (let a = a0; a < a1; a++) if (g[b.horiz ? a * W + t : t * W + a] !== 0) return false;
      return true;
    };
    let lo = 0, hi = 0;
    while (free(p + lo - 1)) lo--;
    while (free(p + len + hi)) hi++;
    if (b.kind === "ice") {
      if (lo) out.push([i, lo]);
      if (hi) out.push([i, hi]);
    } else for (let d = lo; d <= hi; d++) if (d) out.push([i, d]);
  }
  return out;
}

/** The state after `move` (thaw applied); throws on an illegal move. */
export function applyMove(board, state, move) {
  const [i, d] = move;
  if (!legalMoves(board, state).some((m) => m[0] === i && m[1] === d)) throw new Error(`illegal move [${i}, ${d}]`);
  return applyLegal(board, state, move);
}

/** applyMove for a move taken from legalMoves(board, state) (searches skip the re-check). */
export function applyLegal(board, state, move) {
  const [i, d] = move;
  const s = { pos: state.pos.slice(), flags: state.flags.slice() };
  s.pos[i] += d;
  if (board.blocks[i].kind === "sand") s.flags[i] = 1;
  return thaw(board, s);
}

function atLantern(board, x, y) {
  const { side, index } = board.exit;
  return side === "right" ? x >= board.width && y === index
    : side === "left" ? x < 0 && y === index
    : side === "top" ? y < 0 && x === index
    : y >= board.height && x === index;
}

/**
 * Trace light from cell (x, y) moving (dx, dy). Returns {solved, cells, end, stop}:
 * cells are the grid cells lit, end the first cell not lit, stop "edge" | "blocked" | "loop".
 */
export function trace(board, state, x, y, dx, dy) {
  const W = board.width, H = board.height, g = occupancy(board, state), cells = [];
  for (let step = 0; step < W * H * 4; step++) {
    if (x < 0 || y < 0 || x >= W || y >= H) return { solved: atLantern(board, x, y), cells, end: [x, y], stop: "edge" };
    const c = g[y * W + x];
    if (c > 0 || c === WALL) return { solved: false, cells, end: [x, y], stop: "blocked" };
    cells.push([x, y]);
    if (c === FWD) [dx, dy] = [-dy, -dx];
    else if (c === BACK) [dx, dy] = [dy, dx];
    x += dx; y += dy;
  }
  return { solved: false, cells, end: null, stop: "loop" };
}

/** The key's beam: {solved, cells, end, stop, start: [x, y, dx, dy]}; no beam: {solved: false, cells: []}. */
export function beamPath(board, state) {
  if (!board.beam) return { solved: false, cells: [], end: null, stop: "none" };
  const k = rect(board, state, board.key), { dir, offset } = board.beam, [dx, dy] = DIRS[dir];
  const x = dx > 0 ? k.x + k.w : dx < 0 ? k.x - 1 : k.x + offset;
  const y = dy > 0 ? k.y + k.h : dy < 0 ? k.y - 1 : k.y + offset;
  return { ...trace(board, state, x, y, dx, dy), start: [x, y, dx, dy] };
}

/** The one definition of winning. */
export function isSolved(board, state) {
  if (board.win === "beam") return beamPath(board, state).solved;
  const r = rect(board, state, board.key), { side, index } = board.exit;
  if (side === "left" || side === "right") {
    return (side === "left" ? r.x === 0 : r.x + r.w === board.width) && r.y <= index && index < r.y + r.h;
  }
  return (side === "top" ? r.y === 0 : r.y + r.h === board.height) && r.x <= index && index < r.x + r.w;
}
