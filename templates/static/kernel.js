// Lumina's bitboard kernel: RULES.md's moves and win test compiled for speed, shared by the
// hint search (search.js, in hint-worker.js) and the level editor's measures (measure.js).
// The same moves as engine.js (the board's rules), in the same order, held to Python by the
// rules vectors (tests/js/measure.test.mjs replays every state of them). Pure logic, no DOM.
//
// Insight: cells index a 64-bit board kept as two 32-bit halves (lo: cells 0..31, hi:
// 32..63). Each block has a mask at every position along its axis, built once, so a
// slide never wraps a row. A state is the blocks' axis positions (bytes) plus one flag
// bit per sand or rime block; its hash key is two 32-bit words: blocks 0-9 in mixed radix
// (at most 7^10 < 2^31), and blocks 10-15 in mixed radix with the flags above them (at most
// 7^6 * 2^15 < 2^32: the key never has a flag).
//
//   x: 0 1 2 3 4 5           mask of B (vertical, x = 2) at position 1:
//   y0 . . . . . .              cells 1*6+2 = 8 and 2*6+2 = 14 -> lo bits 8 and 14
//   y1 . . B . . .
//   y2 A A B . . . >         A at position 0: lo bits 12 and 13

export const KEY = 0, CRYSTAL = 1, SAND = 2, ICE = 3, RIME = 4, LOW_BLOCKS = 10;
const KINDS = { key: KEY, crystal: CRYSTAL, sand: SAND, ice: ICE, rime: RIME };
const SIDES = { left: 0, right: 1, top: 2, bottom: 3 };
const BEAM_DIRS = { N: 0, E: 1, S: 2, W: 3 };
export const TWIST_KINDS = ["sand", "ice", "rime"];


// ------------------------------------------------------------------ the kernel

/** A level compiled into bitboard tables (lumina/engine/board.pyx's Core). */
export function compileCore(level) {
  const W = level.width, H = level.height, n = level.blocks.length;
  const c = {
    n, W, H, kind: new Int8Array(n), horiz: new Uint8Array(n), npos: new Int8Array(n), cross: new Int8Array(n),
    mlo: new Int32Array(n * 8), mhi: new Int32Array(n * 8), fixlo: 0, fixhi: 0,
    flagbit: new Int8Array(n).fill(-1), nflags: 0, keyi: -1, hasRime: false, twist: false,
    adjlo: new Int32Array(8), adjhi: new Int32Array(8), tilt: new Int8Array(64), traceCap: W * H * 4,
    mult: new Int32Array(n), flagMult: 1, winBeam: level.win === "beam", winPos: 0,
    side: SIDES[level.exit.side], index: level.exit.index, beamDir: 0, beamOff: 0, keyW: 0, keyH: 0,
  };
  const bit = (x, y, m) => { const k = y * W + x; if (k < 32) m[0] |= 1 << k; else m[1] |= 1 << (k - 32); };
  const fix = [0, 0];
  for (const [x, y] of level.walls || []) bit(x, y, fix);
  for (const mr of level.mirrors || []) { bit(mr.x, mr.y, fix); c.tilt[mr.y * W + mr.x] = mr.tilt === "/" ? 1 : 2; }
  c.fixlo = fix[0]; c.fixhi = fix[1];
  let mult = 1;   // blocks 0-9 make the low word, 10-15 the high one (flags above them)
  level.blocks.forEach((b, i) => {
    const kd = KINDS[b.kind], horiz = b.w > b.h;
    c.kind[i] = kd; c.horiz[i] = horiz ? 1 : 0;
    c.npos[i] = horiz ? W - b.w + 1 : H - b.h + 1;
    c.cross[i] = horiz ? b.y : b.x;
    for (let p = 0; p < c.npos[i]; p++) {
      const m = [0, 0];
      for (let y = 0; y < b.h; y++) for (let x = 0; x < b.w; x++) bit(horiz ? p + x : b.x + x, horiz ? b.y + y : p + y, m);
      c.mlo[i * 8 + p] = m[0]; c.mhi[i * 8 + p] = m[1];
    }
    if (kd === SAND || kd === RIME) c.flagbit[i] = c.nflags++;
    if (kd === RIME) c.hasRime = true;
    if (kd === SAND || kd === ICE || kd === RIME) c.twist = true;
    if (kd === KEY) { c.keyi = i; c.keyW = b.w; c.keyH = b.h; }
    if (i === LOW_BLOCKS) mult = 1;
    c.mult[i] = mult; mult *= c.npos[i];
  });
  c.flagMult = n > LOW_BLOCKS ? mult : 1;
  const k = c.keyi, kb = level.blocks[k];
  for (let p = 0; p < c.npos[k]; p++) {   // cells sharing an edge with the key at each position
    const m = [0, 0], x0 = c.horiz[k] ? p : kb.x, y0 = c.horiz[k] ? kb.y : p;
    for (let y = y0; y < y0 + kb.h; y++) for (let x = x0; x < x0 + kb.w; x++) {
      for (const [nx, ny] of [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]]) {
        const inKey = nx >= x0 && nx < x0 + kb.w && ny >= y0 && ny < y0 + kb.h;
        if (nx >= 0 && nx < W && ny >= 0 && ny < H && !inKey) bit(nx, ny, m);
      }
    }
    c.adjlo[p] = m[0]; c.adjhi[p] = m[1];
  }
  const side = level.exit.side;
  c.winPos = side === "right" ? W - kb.w : side === "bottom" ? H - kb.h : 0;
  if (c.winBeam) { c.beamDir = BEAM_DIRS[level.beam.dir]; c.beamOff = level.beam.offset; }
  return c;
}

/** The start: each block's axis position and the flags (rime touching the key thawed at load). */
export function startOf(c, level) {
  const pos = new Uint8Array(c.n);
  level.blocks.forEach((b, i) => { pos[i] = c.horiz[i] ? b.x : b.y; });
  return { pos, fl: thaw(c, pos, 0) };
}

/** Flags with every frozen rime block that shares an edge with the key thawed. */
export function thaw(c, pos, fl) {
  if (!c.hasRime) return fl;
  const kp = pos[c.keyi], alo = c.adjlo[kp], ahi = c.adjhi[kp];
  for (let i = 0; i < c.n; i++) {
    if (c.kind[i] !== RIME) continue;
    const f = 1 << c.flagbit[i];
    if (!(fl & f) && ((c.mlo[i * 8 + pos[i]] & alo) | (c.mhi[i * 8 + pos[i]] & ahi))) fl |= f;
  }
  return fl;
}

/** Legal moves into (mb, md), by block then distance ascending; returns how many. */
export function genMoves(c, pos, fl, mb, md) {
  let olo = c.fixlo, ohi = c.fixhi, n = 0;
  for (let i = 0; i < c.n; i++) { olo |= c.mlo[i * 8 + pos[i]]; ohi |= c.mhi[i * 8 + pos[i]]; }
  for (let i = 0; i < c.n; i++) {
    const kd = c.kind[i];
    if (kd === SAND && fl & (1 << c.flagbit[i])) continue;
    if (kd === RIME && !(fl & (1 << c.flagbit[i]))) continue;
    const p = pos[i], base = i * 8, rlo = olo & ~c.mlo[base + p], rhi = ohi & ~c.mhi[base + p], top = c.npos[i];
    let lo = 0, hi = 0;
    while (p - lo - 1 >= 0 && !((c.mlo[base + p - lo - 1] & rlo) | (c.mhi[base + p - lo - 1] & rhi))) lo++;
    while (p + hi + 1 < top && !((c.mlo[base + p + hi + 1] & rlo) | (c.mhi[base + p + hi + 1] & rhi))) hi++;
    if (kd === ICE) {
      if (lo) { mb[n] = i; md[n++] = -lo; }
      if (hi) { mb[n] = i; md[n++] = hi; }
    } else {
      for (let k = 0; k < lo; k++) { mb[n] = i; md[n++] = k - lo; }
      for (let k = 1; k <= hi; k++) { mb[n] = i; md[n++] = k; }
    }
  }
  return n;
}

/** Play a legal move: `pos` changes in place; returns the new flags. */
export function doMove(c, pos, fl, b, d) {
  pos[b] += d;
  if (c.kind[b] === SAND) return fl | (1 << c.flagbit[b]);
  return b === c.keyi ? thaw(c, pos, fl) : fl;
}

function traceFrom(c, olo, ohi, x, y, dx, dy) {
  for (let steps = 0; steps < c.traceCap; steps++) {
    if (x < 0) return c.side === 0 && c.index === y;
    if (x >= c.W) return c.side === 1 && c.index === y;
    if (y < 0) return c.side === 2 && c.index === x;
    if (y >= c.H) return c.side === 3 && c.index === x;
    const cell = y * c.W + x, t = c.tilt[cell];
    if (t === 1) { const ndx = -dy; dy = -dx; dx = ndx; }
    else if (t === 2) { const ndx = dy; dy = dx; dx = ndx; }
    else if (cell < 32 ? (olo >>> cell) & 1 : (ohi >>> (cell - 32)) & 1) return false;
    x += dx; y += dy;
  }
  return false;
}

/** RULES.md's is_solved(level, state). */
export function solved(c, pos) {
  if (!c.winBeam) return pos[c.keyi] === c.winPos;
  let olo = c.fixlo, ohi = c.fixhi;
  for (let i = 0; i < c.n; i++) { olo |= c.mlo[i * 8 + pos[i]]; ohi |= c.mhi[i * 8 + pos[i]]; }
  const k = c.keyi, kx = c.horiz[k] ? pos[k] : c.cross[k], ky = c.horiz[k] ? c.cross[k] : pos[k];
  switch (c.beamDir) {
    case 0: return traceFrom(c, olo, ohi, kx + c.beamOff, ky - 1, 0, -1);
    case 1: return traceFrom(c, olo, ohi, kx + c.keyW, ky + c.beamOff, 1, 0);
    case 2: return traceFrom(c, olo, ohi, kx + c.beamOff, ky + c.keyH, 0, 1);
    default: return traceFrom(c, olo, ohi, kx - 1, ky + c.beamOff, -1, 0);
  }
}
