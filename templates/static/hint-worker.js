// Lumina search worker: breadth-first search (search.solveFrom, on engine.js's rules) off the
// page's main thread, for hints, solution steps and the par of shared levels. The compiled
// board (with its kernel) and the search's visited table
// and arrays are kept from one message to the next; a new level compiles once.
// In: {id, level, state: {pos, flags}, budget}. Out: {id, outcome, left, moves, states, ms}.
import { compile } from "./engine.js";
import { solveFrom } from "./search.js";

let board = null, lastLevel = "";

self.onmessage = (e) => {
  const { id, level, state, budget } = e.data, t0 = performance.now();
  let res;
  try {
    const text = JSON.stringify(level);
    if (text !== lastLevel) { board = compile(level); lastLevel = text; }
    res = solveFrom(board, { pos: Array.from(state.pos), flags: Array.from(state.flags) }, budget);
  } catch {
    res = { outcome: "error", states: 0 };
  }
  self.postMessage({ id, ...res, ms: Math.round(performance.now() - t0) });
};
