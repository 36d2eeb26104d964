// Lumina search client: one Web Worker per page (hint-worker.js running search.js), shared by
// every board, for hints, solution steps and a shared level's par; and the board's Hint and
// Solution buttons, which ask it from the current position. board.js loads this module on
// first use (or when the page is idle), so a level page does not download it before.
import * as E from "./engine.js";
import { SEARCH_BUDGET } from "./core.js";
import { KIND_NAMES } from "./render.js";

const DIR_WORDS = { e: "right", w: "left", s: "down", n: "up" };

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

// ---- Hint and Solution for one board ------------------------------------------------------------
// `b` is board.js's helper: {game, board, level, el, ctl, view, render, commit, tell,
// stopAutoplay, won, locked, busy (set while the worker searches)}.

/** {move, left} for the current position, {failure} when none can be given, or null if the
 * position changed while the worker searched. */
async function here(b) {
  const { game, ctl, el } = b, known = game.known();
  if (known) return known;
  const state = game.state, k = game.stateKey(state);
  b.busy = true; b.render();
  ctl.hintText.textContent = "Thinking…";
  const res = await solveAsync(b.level, state);
  b.busy = false;
  el.dataset.searchMs = res.ms ?? "";   // the worker's own search time (the browser suite prints it)
  const h = game.learnFrom(state, res);
  if (game.stateKey(game.state) !== k) { b.render(); return null; }
  ctl.hintText.textContent = "";
  b.render();
  return h || { failure: res.outcome };
}

/** The search's answer from the current position, or null (won, locked, stale, failed). */
async function ask(b) {
  b.stopAutoplay();
  if (b.won || b.locked) return null;
  const h = await here(b);
  if (h && h.failure) {
    b.el.dataset.left = h.failure === "unsolvable" ? "none" : "unknown";
    b.ctl.hintText.textContent = h.failure === "unsolvable"
      ? "From here the light can no longer reach the lantern. Undo a few moves, or Reset."
      : "This position is too tangled for a quick hint. Try Undo, or a move or two, and ask again.";
  }
  return h && !h.failure ? h : null;
}

/** #hint: one optimal next move from here, drawn on the board and said in words. */
export async function hint(b) {
  const h = await ask(b);
  if (!h) return;
  const { game, el, view, ctl } = b;
  game.help();
  el.dataset.left = h.left;
  if (h.move) {
    const [i, d] = h.move, blk = b.board.blocks[i];
    el.dataset.hint = `${i}:${d}`;
    view.showTip(game.state, h.move);
    const dir = DIR_WORDS[blk.horiz ? (d > 0 ? "e" : "w") : (d > 0 ? "s" : "n")];
    const what = blk.kind === "key" ? "the light key" : `the ${KIND_NAMES[blk.kind]} block`;
    const how = blk.kind === "ice" ? `let the ice block glide ${dir}` : `slide ${what} ${dir} ${Math.abs(d)}`;
    ctl.hintText.textContent = `${h.left} move${h.left === 1 ? "" : "s"} left from here. Next: ${how}.`;
  }
  b.render();
  b.tell("hint");
}

/** #solution: play that move. */
export async function step(b) {
  const h = await ask(b);
  if (!h || !h.move) return;
  b.game.help();
  b.tell("solution");
  b.commit(h.move);
}
