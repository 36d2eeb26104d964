// Lumina search client: one Web Worker per page (hint-worker.js running search.js), shared by
// every board, for hints, solution steps and a shared level's par. board.js loads this module
// on first use, so a level page does not download it before it is needed.
import * as E from "./engine.js";
import { SEARCH_BUDGET } from "./core.js";

let worker = null, seq = 0;
const waiting = new Map();

async function localSearch(level, state, budget) {   // no workers here (a file:// page): same search, same budget
  const { solveFrom } = await import("./search.js");
  return solveFrom(E.compile(level), state, budget);
}

/** Breadth-first search from `state` in the worker: resolves to search.solveFrom's result (+ ms). */
export function solveAsync(level, state, budget = SEARCH_BUDGET) {
  const msg = { level: JSON.parse(JSON.stringify(level)), state: { pos: Array.from(state.pos), flags: Array.from(state.flags) }, budget };
  try {
    if (!worker) {
      worker = new Worker(new URL("./hint-worker.js", import.meta.url), { type: "module" });
      worker.onmessage = (e) => { const w = waiting.get(e.data.id); if (w) { waiting.delete(e.data.id); w.resolve(e.data); } };
      worker.onerror = (e) => {   // the worker could not start: answer every question here instead
        if (e.preventDefault) e.preventDefault();
        worker = null;
        for (const [id, w] of waiting) { waiting.delete(id); localSearch(w.msg.level, w.msg.state, w.msg.budget).then(w.resolve); }
      };
    }
    const id = ++seq;
    return new Promise((resolve) => { waiting.set(id, { resolve, msg }); worker.postMessage({ id, ...msg }); });
  } catch {
    worker = null;
    return localSearch(msg.level, msg.state, budget);
  }
}

