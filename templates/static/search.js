// Lumina search: breadth-first search from any position under the board's rules, for hints,
// solution steps and the par of shared levels. It runs in hint-worker.js (never on the page's
// main thread unless workers are unavailable) and under node --test (tests/js/core.test.mjs).
//
// The moves are kernel.js's bitboard kernel (engine.js's rules, the same moves in the same
// order, held to Python by the rules vectors), so the answer is the one engine.js's
// legalMoves would give: the same first win met, the same line, the same count of states.
// What makes it fast (the Cython engine's choices, lumina/engine):
// - one visited table and one set of search arrays per worker, allocated on first use,
//   grown when a search needs more and kept for the next search; the table is cleared by
//   bumping a generation stamp (a slot is taken only if its stamp is this search's);
// - states in typed arrays (positions as bytes, two 32-bit key words, parent, move), never
//   Maps, strings or one object per state;
// - a child's key is its parent's plus d * the block's radix (kernel.js's mixed radix), and
//   moves are generated and inserted in one pass: no move list, no copied state per move;
// - a crystal-only exit level (no sand, ice, rime, beam: most of the campaign) takes a path
//   with no flag, thaw or beam branch per move, chosen once per level (compileCore's
//   `twist` and `winBeam`; the core is compiled once per board and kept on it).
import { SAND, ICE, RIME, LOW_BLOCKS, compileCore, thaw, solved } from "./kernel.js";
import { SEARCH_BUDGET } from "./core.js";

// ---- the reused workspace: search arrays (one row per state) and the visited table ----------
let rows = 0, NB = 0;                     // rows allocated, bytes of positions per row
let P = new Uint8Array(0), FL = new Int32Array(0), KL = new Int32Array(0), KH = new Int32Array(0);
let PAR = new Int32Array(0), MB = new Int8Array(0), MD = new Int8Array(0);
let tcap = 0, TL = new Int32Array(0), TH = new Int32Array(0), STAMP = new Int32Array(0), gen = 0;

/** Room for `need` rows of `nb` positions (row s at s * nb); rows below `keep` are kept. */
function ensureRows(need, nb, keep) {
  if (need <= rows && nb <= NB) return;
  const r = Math.max(need, rows * 2, 4096), b = Math.max(nb, NB);
  const np = new Uint8Array(r * b);
  if (keep) np.set(P.subarray(0, keep * nb));
  const wider = (A) => { const a = new A.constructor(r); if (keep) a.set(A.subarray(0, keep)); return a; };
  P = np; FL = wider(FL); KL = wider(KL); KH = wider(KH); PAR = wider(PAR); MB = wider(MB); MD = wider(MD);
  rows = r; NB = b;
}

const mix = (lo, hi) => {
  let h = Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1);
  h ^= h >>> 15; h = Math.imul(h, 0x2c1b3c6d); h ^= h >>> 12;
  return h;
};

/** A fresh (empty) table with room for `n` states at half load: a new generation, or a new
 * table when it must grow (or the stamp would wrap). */
function clearTable(n) {
  if (tcap < n * 2 || gen >= 0x7ffffff0) {
    let c = Math.max(tcap, 1 << 14);
    while (c < n * 2) c *= 2;
    if (c !== tcap) { tcap = c; TL = new Int32Array(c); TH = new Int32Array(c); STAMP = new Int32Array(c); }
    else STAMP.fill(0);
    gen = 0;
  }
  gen++;
}

/** Insert key (lo, hi): false when it was there already. */
function add(lo, hi) {
  const m = tcap - 1;
  let h = mix(lo, hi) & m;
  while (STAMP[h] === gen) {
    if (TL[h] === lo && TH[h] === hi) return false;
    h = (h + 1) & m;
  }
  STAMP[h] = gen; TL[h] = lo; TH[h] = hi;
  return true;
}

/** Double the table, re-inserting the `n` states queued so far (every visited state is queued). */
function growTable(n) {
  const c = tcap * 2;
  tcap = c; TL = new Int32Array(c); TH = new Int32Array(c); STAMP = new Int32Array(c); gen = 1;
  for (let s = 0; s < n; s++) add(KL[s], KH[s]);
}

/** The board's compiled kernel (compileCore), once per board. */
const coreOf = (board) => board.core || (board.core = compileCore(board.level));

/**
 * Breadth-first search from `state` ({pos, flags} as engine.js keeps it), at most `budget` states.
 * {outcome: "solved", left, moves, states} (moves: one optimal line from `state`),
 * {outcome: "unsolvable", states} (every reachable state seen, no win) or
 * {outcome: "exhausted", states} (the budget ran out first: nothing is known).
 */
export function solveFrom(board, state, budget = SEARCH_BUDGET) {
  budget = Number(budget);
  if (Number.isNaN(budget)) budget = Infinity;   // as the plain BFS: no number, no limit
  const c = coreOf(board), nb = c.n, mult = c.mult, fm = c.flagMult;
  const start = new Uint8Array(nb);
  let fl0 = 0;
  for (let i = 0; i < nb; i++) {
    start[i] = state.pos[i];
    if (c.flagbit[i] >= 0 && state.flags[i]) fl0 |= 1 << c.flagbit[i];
  }
  if (solved(c, start)) return { outcome: "solved", left: 0, moves: [], states: 1 };
  // a start with a frozen rime block touching the key (never met in play) thaws on any
  // first move, as engine.js thaws after every move; from then on only key moves thaw
  const thawFirst = thaw(c, start, fl0) !== fl0;

  ensureRows(Math.min(budget, 1 << 16) + 1, nb, 0);
  clearTable(Math.min(budget, rows));
  let lo0 = 0, hi0 = 0;
  for (let i = 0; i < nb; i++) if (i < LOW_BLOCKS) lo0 += start[i] * mult[i]; else hi0 += start[i] * mult[i];
  P.set(start, 0); FL[0] = fl0; KL[0] = lo0 | 0; KH[0] = (hi0 + fl0 * fm) | 0; PAR[0] = -1;
  add(KL[0], KH[0]);

  const found = !c.twist && !c.winBeam ? plainSearch(c, budget) : fullSearch(c, budget, thawFirst);
  if (found >= 0) {
    const moves = [];
    for (let s = found; s > 0; s = PAR[s]) moves.push([MB[s], MD[s]]);
    moves.reverse();
    return { outcome: "solved", left: moves.length, moves, states: found + 1 };
  }
  return { outcome: found === -1 ? "unsolvable" : "exhausted", states: lastCount };
}

let lastCount = 0;   // states queued when a search ends without a win (read right after it)

/**
 * Crystal-only exit levels: key and crystal blocks, win = the key at its lantern. Returns the
 * winning row, or -1 (unsolvable) / -2 (exhausted) with the count in lastCount.
 */
function plainSearch(c, budget) {
  const nb = c.n, mult = c.mult, mlo = c.mlo, mhi = c.mhi, npos = c.npos, keyi = c.keyi, winPos = c.winPos;
  let n = 1;
  for (let head = 0; head < n; head++) {
    const base = head * nb, kl = KL[head], kh = KH[head];
    let olo = c.fixlo, ohi = c.fixhi;
    for (let i = 0; i < nb; i++) { olo |= mlo[i * 8 + P[base + i]]; ohi |= mhi[i * 8 + P[base + i]]; }
    for (let i = 0; i < nb; i++) {
      const p = P[base + i], mb = i * 8, rlo = olo & ~mlo[mb + p], rhi = ohi & ~mhi[mb + p], top = npos[i];
      let a = p, z = p;   // the free range of positions [a, z]
      while (a > 0 && !((mlo[mb + a - 1] & rlo) | (mhi[mb + a - 1] & rhi))) a--;
      while (z + 1 < top && !((mlo[mb + z + 1] & rlo) | (mhi[mb + z + 1] & rhi))) z++;
      const r = mult[i], low = i < LOW_BLOCKS;
      for (let q = a; q <= z; q++) {
        if (q === p) continue;
        const d = q - p, nl = low ? (kl + d * r) | 0 : kl, nh = low ? kh : (kh + d * r) | 0;
        if (!add(nl, nh)) continue;
        if (n >= rows) ensureRows(n + 1, nb, n);
        const o = n * nb;
        P.copyWithin(o, base, base + nb); P[o + i] = q;
        FL[n] = 0; KL[n] = nl; KH[n] = nh; PAR[n] = head; MB[n] = i; MD[n] = d;
        n++;
        if (i === keyi && q === winPos) return n - 1;
        if (n >= budget) { lastCount = n; return -2; }
        if (n * 2 > tcap) growTable(n);
      }
    }
  }
  lastCount = n;
  return -1;
}

/** Every other level: sand, ice, rime, the beam (as kernel.js's genMoves and doMove). */
function fullSearch(c, budget, thawFirst) {
  const nb = c.n, mult = c.mult, fm = c.flagMult, mlo = c.mlo, mhi = c.mhi, npos = c.npos, kind = c.kind;
  const keyi = c.keyi, winPos = c.winPos, beam = c.winBeam, thawing = c.hasRime, flagbit = c.flagbit;
  const cur = new Uint8Array(nb);
  let n = 1;
  for (let head = 0; head < n; head++) {
    const base = head * nb, kl = KL[head], kh = KH[head], fl = FL[head], thawAll = thawFirst && head === 0;
    let olo = c.fixlo, ohi = c.fixhi;
    for (let i = 0; i < nb; i++) { cur[i] = P[base + i]; olo |= mlo[i * 8 + cur[i]]; ohi |= mhi[i * 8 + cur[i]]; }
    for (let i = 0; i < nb; i++) {
      const kd = kind[i];
      if (kd === SAND && fl & (1 << flagbit[i])) continue;
      if (kd === RIME && !(fl & (1 << flagbit[i]))) continue;
      const p = cur[i], mb = i * 8, rlo = olo & ~mlo[mb + p], rhi = ohi & ~mhi[mb + p], top = npos[i];
      let a = p, z = p;
      while (a > 0 && !((mlo[mb + a - 1] & rlo) | (mhi[mb + a - 1] & rhi))) a--;
      while (z + 1 < top && !((mlo[mb + z + 1] & rlo) | (mhi[mb + z + 1] & rhi))) z++;
      const r = mult[i], low = i < LOW_BLOCKS, ice = kd === ICE;
      for (let q = a; q <= z; q++) {
        if (q === p || (ice && q !== a && q !== z)) continue;
        const d = q - p;
        let nf = kd === SAND ? fl | (1 << flagbit[i]) : fl;
        cur[i] = q;
        if (thawAll || (thawing && i === keyi)) nf = thaw(c, cur, nf);
        const win = beam ? solved(c, cur) : i === keyi && q === winPos;
        cur[i] = p;
        let nl = kl, nh = kh;
        if (low) nl = (kl + d * r) | 0; else nh = (kh + d * r) | 0;
        if (nf !== fl) nh = (nh + (nf - fl) * fm) | 0;
        if (!add(nl, nh)) continue;
        if (n >= rows) ensureRows(n + 1, nb, n);
        const o = n * nb;
        P.copyWithin(o, base, base + nb); P[o + i] = q;
        FL[n] = nf; KL[n] = nl; KH[n] = nh; PAR[n] = head; MB[n] = i; MD[n] = d;
        n++;
        if (win) return n - 1;
        if (n >= budget) { lastCount = n; return -2; }
        if (n * 2 > tcap) growTable(n);
      }
    }
  }
  lastCount = n;
  return -1;
}
