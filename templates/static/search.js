// Lumina search: breadth-first search from any position under engine.js's rules, for hints,
// solution steps and the par of shared levels. It runs in hint-worker.js (never on the page's
// main thread unless workers are unavailable) and under node --test (tests/js/core.test.mjs).
import * as E from "./engine.js";
import { keyer, SEARCH_BUDGET } from "./core.js";

/** A set of numeric keys (open addressing over a Float64Array: no boxed numbers, little GC). */
function numberSet() {
  let cap = 1 << 14, keys = new Float64Array(cap).fill(-1), size = 0;
  const add = (k) => {
    let h = (Math.imul(k % 2147483629, 0x9e3779b1) >>> 0) & (cap - 1);
    while (keys[h] !== -1) { if (keys[h] === k) return false; h = (h + 1) & (cap - 1); }
    keys[h] = k;
    if (++size * 2 > cap) {
      const old = keys;
      cap *= 2; keys = new Float64Array(cap).fill(-1); size = 0;
      for (const o of old) if (o !== -1) add(o);
    }
    return true;
  };
  return { add };
}
function stringSet() {
  const s = new Set();
  return { add: (k) => (s.has(k) ? false : (s.add(k), true)) };
}

/**
 * Breadth-first search from `state`, at most `budget` states.
 * {outcome: "solved", left, moves, states} (moves: one optimal line from `state`),
 * {outcome: "unsolvable", states} (every reachable state seen, no win) or
 * {outcome: "exhausted", states} (the budget ran out first: nothing is known).
 */
export function solveFrom(board, state, budget = SEARCH_BUDGET) {
  if (E.isSolved(board, state)) return { outcome: "solved", left: 0, moves: [], states: 1 };
  const { key, unkey } = keyer(board), seen = unkey ? numberSet() : stringSet();
  const cur = { pos: state.pos.slice(), flags: state.flags.slice() };
  // the queue holds keys when they decode (unkey), else the states themselves
  const queue = [unkey ? key(state) : state], parent = [-1], via = [null];
  seen.add(key(state));
  for (let head = 0; head < queue.length; head++) {
    const s = unkey ? unkey(queue[head], cur) : queue[head];
    for (const m of E.legalMoves(board, s)) {
      const t = E.applyLegal(board, s, m), k = key(t);
      if (!seen.add(k)) continue;
      queue.push(unkey ? k : t); parent.push(head); via.push(m);
      if (E.isSolved(board, t)) {
        const moves = [];
        for (let i = queue.length - 1; i > 0; i = parent[i]) moves.push(via[i]);
        moves.reverse();
        return { outcome: "solved", left: moves.length, moves, states: queue.length };
      }
      if (queue.length >= budget) return { outcome: "exhausted", states: queue.length };
    }
  }
  return { outcome: "unsolvable", states: queue.length };
}
