// Lumina game core: one attempt at one level, and the pure rules around it (stars, the
// daily pick, keyboard selection; the search behind hints is search.js). No DOM, no timers, no storage:
// everything here runs under `node --test` (tests/js/core.test.mjs). The rule numbers come
// from the page's #site-data (lumina/sitedata.py), never from constants typed in here.
import * as E from "./engine.js";

/** Stars for a win in `moves` on a level of par `par`; `helped` (a Hint or Solution used in
 * this attempt) caps the result at rule.help_cap. Twin of lumina.sitedata.stars. */
export function starsFor(moves, par, helped, rule) {
  const earned = moves <= par + rule.three_within ? 3 : moves <= par + rule.two_within ? 2 : 1;
  return helped ? Math.min(earned, rule.help_cap) : earned;
}

/** Days from the epoch ("YYYY-MM-DD") to `date`'s local calendar day. */
export function dayNumber(date, epoch) {
  const [y, m, d] = epoch.split("-").map(Number);
  return Math.round((Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) - Date.UTC(y, m - 1, d)) / 86400000);
}

/** The daily pool index for `date` (site = #site-data: {epoch, pool}). Twin of lumina.sitedata.day_index. */
export const dayIndex = (date, site) => ((dayNumber(date, site.epoch) % site.pool) + site.pool) % site.pool;

/** The most states one search may visit (hints, solution steps, a shared level's par). */
export const SEARCH_BUDGET = 300000;

/**
 * Keyboard selection: the block nearest to block `i` in direction dir = [dx, dy], or -1.
 * Candidates are blocks whose centre lies strictly that way; nearest is the smallest
 * along + 2 * |across| (cells between centres), ties broken by the smaller along (the
 * block nearer along the arrow: d-010's rime block was reachable by no arrow when the
 * farther one took the tie), then by the lower block index.
 */
export function nearestBlock(board, state, i, dir) {
  const mid = (j) => { const r = E.rect(board, state, j); return [r.x + r.w / 2, r.y + r.h / 2]; };
  const [fx, fy] = mid(i), [dx, dy] = dir;
  let best = -1, bd = Infinity, ba = Infinity;
  for (let j = 0; j < board.n; j++) {
    const [x, y] = mid(j), along = (x - fx) * dx + (y - fy) * dy, across = Math.abs((x - fx) * dy + (y - fy) * dx);
    // blocks within 45 degrees of the arrow rank before any block further off its line
    const d = along + 2 * across + (across > along ? 1000 : 0);
    if (j !== i && along > 0 && (d < bd || (d === bd && along < ba))) { best = j; bd = d; ba = along; }
  }
  return best;
}

/**
 * One attempt at `level`: the history of states (Undo walks it back, Redo forward again), whether help was
 * used, the stars a win earns under `rule` (#site-data's "stars"), and what is known about
 * optimal moves from positions met so far (the stored solution, then every line a search
 * found), so a hint on a known position needs no search.
 */
export function createGame(level, rule) {
  const board = E.compile(level), start = E.startState(board), key = E.stateKey;
  const plan = new Map();   // state key -> {move, left}: one optimal next move and the distance
  let hist = [start], played = [], helped = false;

  /** Remember an optimal line from `state` (each suffix of a shortest line is one too). */
  function learn(state, moves) {
    let s = state;
    try {
      const keys = [];
      for (const m of moves) { keys.push(key(s)); s = E.applyMove(board, s, m); }
      if (!E.isSolved(board, s)) return false;
      keys.forEach((k, n) => { if (!plan.has(k)) plan.set(k, { move: moves[n], left: moves.length - n }); });
      return true;
    } catch { return false; }
  }
  const storedLine = Array.isArray(level.solution) && level.solution.length > 0 && learn(start, level.solution);
  const current = () => hist[hist.length - 1];
  let undone = [];   // moves taken back by undo, latest last: redo plays them again

  /** Apply move m from the current position: {state, thawed: [rime blocks it thawed]} or null. */
  function step(m) {
    const prev = current();
    let next;
    try { next = E.applyMove(board, prev, m); } catch { return null; }
    hist.push(next); played.push([m[0], m[1]]);
    const thawed = [];
    board.blocks.forEach((b, j) => { if (b.kind === "rime" && next.flags[j] && !prev.flags[j]) thawed.push(j); });
    return { state: next, thawed };
  }

  return {
    board, level, start, rule,
    /** Did the stored solution replay to a win (tutorial autoplay needs it)? */
    storedLine,
    get state() { return current(); },
    get moves() { return played.length; },
    get played() { return played.slice(); },
    get helped() { return helped; },
    solved: () => E.isSolved(board, current()),
    legal: (i) => E.legalMoves(board, current()).filter((m) => i === undefined || m[0] === i),
    /** Play a move; returns {state, thawed: [block indices]} or null when it is illegal. A new
     * move forgets what Undo took back (Redo has nothing left to replay). */
    play(m) {
      const r = step(m);
      if (r) undone = [];
      return r;
    },
    /** Take back the last move; Redo can play it again. */
    undo() {
      if (!played.length) return false;
      hist.pop(); undone.push(played.pop());
      return true;
    },
    /** Can Redo replay a move taken back by Undo? */
    get canRedo() { return undone.length > 0; },
    /** Replay the last move Undo took back: {move, state, thawed}, or null when there is none. */
    redo() {
      if (!undone.length) return null;
      const m = undone[undone.length - 1], r = step(m);
      if (!r) { undone = []; return null; }
      undone.pop();
      return { move: m, ...r };
    },
    /** A fresh attempt: back to the start, and help no longer counts. */
    reset() { hist = [start]; played = []; undone = []; helped = false; },
    /** A Hint or Solution step was shown: this attempt can earn at most rule.help_cap stars. */
    help() { helped = true; },
    /** {move, left} known for the current position (left 0 and no move when solved), or null. */
    known() {
      if (E.isSolved(board, current())) return { move: null, left: 0 };
      return plan.get(key(current())) || null;
    },
    /** Take a search result for `state` (search.solveFrom's shape); returns {move, left} or null. */
    learnFrom(state, res) {
      if (!res || res.outcome !== "solved") return null;
      if (res.left === 0) return { move: null, left: 0 };
      if (!learn(state, res.moves)) return null;
      return plan.get(key(state));
    },
    stateKey: key,
    /** The result of the current position if it is a win: {moves, optimal, stars, helped}. */
    result(optimal = level.optimal) {
      if (!E.isSolved(board, current())) return null;
      const par = optimal == null ? played.length : optimal;
      return { moves: played.length, optimal: par, stars: starsFor(played.length, par, helped, rule), helped };
    },
  };
}
