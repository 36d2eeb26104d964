// Lumina search: breadth-first search from any position under the board's rules, for hints,
// solution steps and the par of shared levels. It runs in hint-worker.js (never on the page's
// main thread unless workers are unavailable) and under node --test (tests/js/core.test.mjs).
//
// The moves are engine.js's: its genMoves, doMove and solved, the one rule set the board
// plays by (held to Python by the rules vectors), so the answer is the one a plain
// breadth-first search over engine.js's legalMoves gives: the same first win met, the same
// line, the same count of states. What makes it fast (the Cython engine's choices, lumina/engine):
// - one visited table and one set of search arrays per worker, allocated on first use,
//   grown when a search needs more and kept for the next search; the table is cleared by
//   bumping a generation stamp (a slot is taken only if its stamp is this search's);
// - states in typed arrays (positions as bytes, two 32-bit key words, parent, move), never
//   Maps, strings or one object per state;
// - a child's key is its parent's plus d * the block's radix (engine.js's mixed radix), and
//   the move is played on one reused row and taken back: no copied state per move;
// - the board's kernel (bitboard masks, compiled once per board by engine.compile).
import { LOW_BLOCKS, genMoves, doMove, thaw, solved } from "./engine.js";
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

/**
 * Breadth-first search from `state` ({pos, flags}, engine.js's face), at most `budget` states.
 * {outcome: "solved", left, moves, states} (moves: one optimal line from `state`),
 * {outcome: "unsolvable", states} (every reachable state seen, no win) or
 * {outcome: "exhausted", states} (the budget ran out first: nothing is known).
 */
export function solveFrom(board, state, budget = SEARCH_BUDGET) {
  budget = Number(budget);
  if (Number.isNaN(budget)) budget = Infinity;   // as the plain BFS: no number, no limit
  const c = board.core, nb = c.n, mult = c.mult, fm = c.flagMult;
  const start = new Uint8Array(nb);
  let fl0 = 0;
  for (let i = 0; i < nb; i++) {
    start[i] = state.pos[i];
    if (c.flagbit[i] >= 0 && state.flags[i]) fl0 |= 1 << c.flagbit[i];
  }
  if (solved(c, start)) return { outcome: "solved", left: 0, moves: [], states: 1 };
  // a start with a frozen rime block touching the key (never met in play) thaws on any first
  // move, as RULES.md thaws after every move; from then on only key moves thaw (doMove)
  const thawFirst = thaw(c, start, fl0) !== fl0;

  ensureRows(Math.min(budget, 1 << 16) + 1, nb, 0);
  clearTable(Math.min(budget, rows));
  let lo0 = 0, hi0 = 0;
  for (let i = 0; i < nb; i++) if (i < LOW_BLOCKS) lo0 += start[i] * mult[i]; else hi0 += start[i] * mult[i];
  P.set(start, 0); FL[0] = fl0; KL[0] = lo0 | 0; KH[0] = (hi0 + fl0 * fm) | 0; PAR[0] = -1;
  add(KL[0], KH[0]);

  const found = search(c, budget, thawFirst);
  if (found >= 0) {
    const moves = [];
    for (let s = found; s > 0; s = PAR[s]) moves.push([MB[s], MD[s]]);
    moves.reverse();
    return { outcome: "solved", left: moves.length, moves, states: found + 1 };
  }
  return { outcome: found === -1 ? "unsolvable" : "exhausted", states: lastCount };
}

let lastCount = 0;   // states queued when a search ends without a win (read right after it)
const GB = new Int8Array(128), GD = new Int8Array(128);   // one state's moves (16 blocks x 7 distances)

/**
 * The search proper: engine.js's genMoves, doMove and solved from each queued state.
 * Returns the winning row, or -1 (unsolvable) / -2 (exhausted) with the count in lastCount.
 */
function search(c, budget, thawFirst) {
  const nb = c.n, mult = c.mult, fm = c.flagMult, cur = new Uint8Array(nb);
  let n = 1;
  for (let head = 0; head < n; head++) {
    const base = head * nb, kl = KL[head], kh = KH[head], fl = FL[head];
    for (let i = 0; i < nb; i++) cur[i] = P[base + i];
    const count = genMoves(c, cur, fl, GB, GD);
    for (let k = 0; k < count; k++) {
      const i = GB[k], d = GD[k];
      let nf = doMove(c, cur, fl, i, d);
      if (thawFirst && head === 0) nf = thaw(c, cur, nf);
      const win = solved(c, cur);
      cur[i] -= d;
      let nl = kl, nh = kh;
      if (i < LOW_BLOCKS) nl = (kl + d * mult[i]) | 0; else nh = (kh + d * mult[i]) | 0;
      if (nf !== fl) nh = (nh + (nf - fl) * fm) | 0;
      if (!add(nl, nh)) continue;
      if (n >= rows) ensureRows(n + 1, nb, n);
      const o = n * nb;
      P.copyWithin(o, base, base + nb); P[o + i] += d;
      FL[n] = nf; KL[n] = nl; KH[n] = nh; PAR[n] = head; MB[n] = i; MD[n] = d;
      n++;
      if (win) return n - 1;
      if (n >= budget) { lastCount = n; return -2; }
      if (n * 2 > tcap) growTable(n);
    }
  }
  lastCount = n;
  return -1;
}
