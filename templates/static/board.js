// Lumina board: mountBoard(el, level, opts) plays one level in `el`. It wires the game core
// (core.js: state, history, help, stars), the renderer (render.js) and the input layer
// (input.js), asks the search worker (hints.js -> hint-worker.js, loaded when first needed)
// for hints, and owns the controls, autoplay and the result. It tells what the player does
// with "lumina-play" events on the board element (the sound and the play log listen). The DOM
// contract is in tests/js/README.
import { createGame } from "./core.js";
import { createView } from "./render.js";
import { attachInput } from "./input.js";
import { recordResult } from "./progress.js";
import { siteData } from "./common.js";

const STEP_MS = 950;

/** Breadth-first search from `state` off the main thread (hints.js, loaded on first use). */
export const solveAsync = async (level, state, budget) => (await import("./hints.js")).solveAsync(level, state, budget);

/** The controls: opts.controls, else the page's elements by id; any missing one is a detached
 * stand-in (a demo board has none), so the board never has to ask. */
function controls(given) {
  const ids = { moves: "moves", undo: "undo", redo: "redo", reset: "reset", solution: "solution", hint: "hint", hintText: "hint-text", helpNote: "help-note", result: "result" };
  const c = {};
  for (const [k, id] of Object.entries(ids)) {
    c[k] = given[k] || (Object.keys(given).length ? null : document.getElementById(id));
    if (!c[k]) { c[k] = document.createElement(k === "result" ? "div" : "button"); c[k].hidden = k === "result"; }
  }
  return c;
}

/**
 * Render `level` into `el` and play it. opts: {controls: {moves, undo, redo, reset, solution, hint,
 * hintText, helpNote, result}, autoplay: bool, record: bool (default true), day: local day
 * number to count toward the daily streak, site: #site-data, maxCell: px (default 64),
 * width: px available}. Returns {board, state, moves, solved, helped, move(m), undo(), redo(),
 * reset(), step(), hint(), stopAutoplay(), destroy()}; step() and hint() return promises.
 */
export function mountBoard(el, level, opts = {}) {
  for (const b of level.blocks) b.kind ||= "crystal";   // pages leave the common kind out (play_json)
  const site = opts.site || siteData();
  const game = createGame(level, site.stars), board = game.board, rule = site.stars;
  const ctl = controls(opts.controls || {});
  const view = createView(el, board, opts);
  let won = false, auto = null, busy = false;
  const locked = !!opts.locked;   // a level of a locked world: drawn, never played
  if (locked) { el.dataset.locked = "true"; el.classList.add("lb-locked"); }

  function render() {
    const movable = new Set(game.legal().map((m) => m[0]));
    view.draw(game.state, { moves: game.moves, won, movable });
    ctl.moves.textContent = game.moves;
    ctl.undo.disabled = game.moves === 0;
    ctl.redo.disabled = !game.canRedo || locked;
    ctl.reset.disabled = game.moves === 0 && !game.helped;
    ctl.solution.disabled = won || busy || locked;
    ctl.hint.disabled = won || busy || locked;
    el.dataset.helped = game.helped;
    // before any help the page's tip states the rule (server-side: no layout shift); after
    // help, this note says what it costs this attempt
    ctl.helpNote.textContent = game.helped
      ? `Help used: this try can earn at most ${"★".repeat(rule.help_cap)}. Reset for a clean try at ★★★.` : "";
  }

  function clearHint() {
    delete el.dataset.hint; delete el.dataset.left;
    view.showTip(game.state, null);
    ctl.hintText.textContent = "";
  }

  /** What the player did, for the sound and the play log: {type, ...} (tests/js/README).
   * Autoplay (tutorials, demos) is not the player: it says nothing. */
  function tell(type, detail = {}) {
    if (!auto && !locked) el.dispatchEvent(new CustomEvent("lumina-play", { detail: { type, ...detail } }));
  }

  function finish() {
    const r = game.result(), res = ctl.result, st = r.stars, starText = "★".repeat(st) + "☆".repeat(3 - st);
    Object.assign(res.dataset, { stars: st, moves: r.moves, assisted: r.helped });
    const slot = (k) => res.querySelector(`[data-slot="${k}"]`);
    if (slot("stars") || slot("moves")) {
      if (slot("stars")) slot("stars").textContent = starText;
      if (slot("moves")) slot("moves").textContent = r.moves;
    } else if (!res.children.length) {
      res.textContent = `Solved in ${r.moves} move${r.moves === 1 ? "" : "s"} (par ${r.optimal}) ${starText}${r.helped ? " (with help)" : ""}`;
    }
    res.setAttribute("aria-label", `${st} of 3 stars`);
    res.hidden = false;
    if (opts.record !== false && level.optimal != null) recordResult(level.id, r, opts.day ?? null);
    view.say(`Solved in ${r.moves} moves: ${st} of 3 stars.`);
    tell("win", { moves: r.moves, stars: st, helped: r.helped });
  }

  // ---- moves ------------------------------------------------------------------------------
  /** Show a move the game core has made (played, or replayed by Redo). */
  function shown(m, thawed, type, detail) {
    view.moved(m, thawed);
    clearHint();
    won = game.solved() && !auto;
    render();
    view.say(view.label(game.state, m[0]) + `. ${game.moves} moves.`);
    tell(type, detail);
    if (won) finish();
  }

  function commit(m) {
    const r = game.play(m);
    if (!r) { render(); return false; }
    shown(m, r.thawed, "move", { block: m[0], distance: m[1] });
    return true;
  }

  function redo() {
    stopAutoplay();
    input.cancel();
    const r = game.redo();
    if (r) shown(r.move, r.thawed, "redo");
  }

  function restart() {
    input.cancel();
    game.reset(); won = false;
    ctl.result.hidden = true;
    clearHint(); render();
  }

  function undo() {
    stopAutoplay();
    input.cancel();
    if (!game.undo()) return;
    won = false;
    ctl.result.hidden = true;
    clearHint(); render();
    tell("undo");
  }

  function reset() {
    if (!stopAutoplay()) restart();
    tell("reset");
  }

  // ---- hints and the solution, from the current position: hints.js, loaded on first use -------
  const helper = {
    game, board, level, el, ctl, view, render, commit, tell, stopAutoplay,
    get won() { return won; }, locked, set busy(v) { busy = v; },
  };
  const hint = async () => (await import("./hints.js")).hint(helper);
  const step = async () => (await import("./hints.js")).step(helper);

  // ---- autoplay (tutorials and how-to demos): the stored solution, looping -----------------------
  function tick() {
    if (!auto) return;
    const k = game.known();
    if (!k || !k.move) { game.reset(); clearHint(); render(); auto = setTimeout(tick, STEP_MS); return; }
    commit(k.move);
    auto = setTimeout(tick, k.left === 1 ? STEP_MS * 2.5 : STEP_MS);
  }
  function stopAutoplay() {
    if (!auto) return false;
    clearTimeout(auto); auto = null;
    el.classList.remove("lb-autoplay"); delete el.dataset.autoplay;
    restart();
    tell("start");   // the player takes over: their attempt starts now
    return true;
  }

  const input = attachInput(el, view, {
    board, state: () => game.state, movesOf: (i) => game.legal(i),
    commit: (m) => (won || locked ? false : commit(m)), locked: () => won || busy || locked, interrupt: () => stopAutoplay(),
  });
  const on = [
    [ctl.undo, "click", undo], [ctl.redo, "click", redo], [ctl.reset, "click", reset],
    [ctl.solution, "click", step], [ctl.hint, "click", hint], [window, "resize", view.layout],
    [window, "pagehide", () => tell("leave")],
  ];
  for (const [t, ev, f] of on) t.addEventListener(ev, f);

  render();
  // start the search worker while the page is idle, with a small search that also warms it up,
  // so the first Hint does not pay for loading and compiling
  if (!opts.autoplay && !locked) (window.requestIdleCallback || setTimeout)(() => solveAsync(level, game.start, 2000));
  if (opts.autoplay && game.storedLine) {
    el.classList.add("lb-autoplay"); el.dataset.autoplay = "1";
    auto = setTimeout(tick, STEP_MS);
  } else queueMicrotask(() => tell("start"));   // after the page's own listeners are on

  return {
    board, game,
    get state() { return game.state; },
    get moves() { return game.moves; },
    get solved() { return won; },
    get helped() { return game.helped; },
    move: (m) => { stopAutoplay(); return won || locked ? false : commit(m); },
    undo, redo, reset, step, hint, stopAutoplay,
    destroy() { stopAutoplay(); input.detach(); for (const [t, ev, f] of on) t.removeEventListener(ev, f); el.replaceChildren(); },
  };
}
