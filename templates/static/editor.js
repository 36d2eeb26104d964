// Lumina level editor page (editor.html): the grid a designer draws on (mouse, touch and
// keyboard), the live verdicts from editor-worker.js, play on the real board (board.js),
// share links, export and import. The board and its history are editor-model.js; this
// module only draws them and turns input into the model's edits.
//
// Test contract: editor.html?d=DESC and editor.html?rush=BOARD open that board; #editor
// carries data-state (loading, illegal, thinking, done, error), and once known
// data-outcome (solved, unsolvable, exhausted), data-par, data-plans, data-deepest, data-ms
// (milliseconds from the edit to the last verdict); #export downloads the level as JSON.
import { createModel, emptyLevel, parseImport, fromRushHour, cleanLevel } from "./editor-model.js";
import { encodeDesc } from "./desc.js";
import { compile, startState, beamPath } from "./engine.js";
import { mountBoard } from "./board.js";
import { SITE } from "./common.js";
import { make } from "./render.js";
import { whyHard, thousands as num } from "./editor-why.js";

const $ = (s, r = document) => r.querySelector(s);
const root = $("#editor"), grid = $("#ed-grid"), refusal = $("#ed-refusal");
const DATA = JSON.parse($("#editor-data").textContent);
const BLOCK_TOOLS = ["key", "crystal", "sand", "ice", "rime"];
const twist = (lv) => lv.blocks.some((b) => ["sand", "ice", "rime"].includes(b.kind));
const KEYS = { k: "key", c: "crystal", s: "sand", i: "ice", r: "rime" };
const ARROWS = { ArrowUp: [0, -1], ArrowRight: [1, 0], ArrowDown: [0, 1], ArrowLeft: [-1, 0] };
const SIDE_NAMES = { left: "left of row", right: "right of row", top: "above column", bottom: "below column" };

let model = createModel(), tool = "move", selected = -1, cursor = [0, 0], cell = 56, drag = null;
let verdict = {}, player = null;

// ---- opening a board ----------------------------------------------------------------
function opening() {
  const q = new URLSearchParams(location.search);
  try {
    if (q.get("rush")) return cleanLevel(fromRushHour(q.get("rush")));
    if (q.get("d")) return parseImport(q.get("d"));
  } catch (e) {
    say(`Could not open that board: ${e.message}`);
  }
  return emptyLevel();
}

// ---- drawing the grid -----------------------------------------------------------------
function layout(lv) {
  const avail = grid.parentElement.clientWidth || 360;
  const byH = Math.floor(((window.innerHeight || 800) - 160) / (lv.height + 2));
  cell = Math.max(30, Math.min(64, Math.floor(avail / (lv.width + 2)), Math.max(40, byH)));
  grid.style.setProperty("--_c", cell + "px");
  grid.style.width = lv.width * cell + "px";
  grid.style.height = lv.height * cell + "px";
  grid.dataset.cell = cell;
}

function lightPath(lv, svg) {
  let board;
  try { board = compile(lv); } catch { return; }
  const p = beamPath(board, startState(board));
  if (!p.start) return;
  const [sx, sy, dx, dy] = p.start, pts = [[sx + 0.5 - dx / 2, sy + 0.5 - dy / 2], ...p.cells.map(([x, y]) => [x + 0.5, y + 0.5])];
  if (p.end) {
    const last = p.cells.length ? p.cells[p.cells.length - 1] : [p.end[0] - dx, p.end[1] - dy];
    pts.push([p.end[0] + 0.5 - (p.end[0] - last[0]) / 2, p.end[1] + 0.5 - (p.end[1] - last[1]) / 2]);
  }
  const s = pts.map((q) => q.join(",")).join(" ");
  make("polyline", "lb-beam-halo", svg).setAttribute("points", s);
  make("polyline", "lb-beam-core", svg).setAttribute("points", s);
  grid.classList.toggle("lb-lit", p.solved);
}

function draw() {
  const lv = model.level, W = lv.width, H = lv.height, dead = new Set(verdict.dead_blocks || []);
  layout(lv);
  grid.replaceChildren();
  grid.classList.remove("lb-lit");
  grid.classList.toggle("lb-beamlevel", lv.win === "beam");
  const { side, index } = lv.exit;
  grid.style.setProperty("--_lx", side === "left" ? -0.3 : side === "right" ? W + 0.3 : index + 0.5);
  grid.style.setProperty("--_ly", side === "top" ? -0.3 : side === "bottom" ? H + 0.3 : index + 0.5);
  for (const s of ["top", "bottom", "left", "right"]) {
    const count = s === "left" || s === "right" ? H : W;
    for (let i = 0; i < count; i++) {
      const [x, y] = ring(s, i, W, H);
      const spot = make("span", "ed-spot" + (s === side && i === index ? " ed-here" : ""), grid, { _x: x, _y: y });
      spot.dataset.side = s; spot.dataset.index = i;
    }
  }
  for (const [x, y] of lv.walls || []) make("div", "lb-wall", grid, { _x: x, _y: y });
  for (const m of lv.mirrors || []) make("div", "lb-mirror " + (m.tilt === "/" ? "lb-fwd" : "lb-back"), grid, { _x: m.x, _y: m.y });
  if (lv.win === "beam" && !model.problem) {
    const svg = make("svg", "lb-beam", grid);
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`); svg.setAttribute("aria-hidden", "true");
    lightPath(lv, svg);
  }
  lv.blocks.forEach((b, i) => {
    const n = make("div", `lb-block lb-${b.kind} ${b.w > b.h ? "lb-h" : "lb-v"}`, grid, { _x: b.x, _y: b.y, _w: b.w, _h: b.h });
    n.dataset.block = i; n.dataset.kind = b.kind; n.dataset.x = b.x; n.dataset.y = b.y;
    if (b.kind === "rime") n.classList.add("lb-frozen");   // as a level loads it (thawed once the key touches it)
    if (b.w === b.h) n.classList.add("ed-square");
    if (dead.has(i) && b.kind !== "key") n.classList.add("ed-dead");
    if (i === selected) {
      n.classList.add("ed-selected");
      make("span", "ed-handle", n).dataset.handle = i;
    }
    if (b.kind === "key" && lv.win === "beam" && lv.beam) make("span", `lb-emitter lb-emit-${lv.beam.dir.toLowerCase()}`, n, { _o: lv.beam.offset });
  });
  make("div", "lb-lantern lb-" + side, grid).setAttribute("aria-hidden", "true");
  const cur = make("div", "ed-cursor", grid, { _x: cursor[0], _y: cursor[1] });
  cur.setAttribute("aria-hidden", "true");
  cur.dataset.at = JSON.stringify(cursor);
  if (drag && drag.preview) {
    const p = drag.preview;
    make("div", "ed-preview", grid, { _x: p.x, _y: p.y, _w: p.w, _h: p.h });
  }
  grid.setAttribute("aria-label", `Level grid, ${W} by ${H}. ${describe(cursor[0], cursor[1])}`);
  controlsFrom(lv);
}

/** The ring cell just outside the grid where a lantern on `side` at `index` stands. */
function ring(side, i, W, H) {
  return side === "left" ? [-1, i] : side === "right" ? [W, i] : side === "top" ? [i, -1] : [i, H];
}
/** The lantern spot at ring cell (x, y), or null for a grid cell or a corner. */
function spotAt(x, y, W, H) {
  const inX = x >= 0 && x < W, inY = y >= 0 && y < H;
  if (x === -1 && inY) return ["left", y];
  if (x === W && inY) return ["right", y];
  if (y === -1 && inX) return ["top", x];
  if (y === H && inX) return ["bottom", x];
  return null;
}

function describe(x, y) {
  const lv = model.level, spot = spotAt(x, y, lv.width, lv.height);
  if (spot) return `Cursor beside the grid, ${SIDE_NAMES[spot[0]]} ${spot[1] + 1}${lv.exit.side === spot[0] && lv.exit.index === spot[1] ? ": the lantern" : ""}.`;
  const what = model.at(x, y);
  const thing = !what ? "empty" : what.type === "block" ? `${lv.blocks[what.index].kind} block ${what.index}` : what.type === "wall" ? "wall" : `mirror ${what.tilt}`;
  return `Cursor at column ${x + 1}, row ${y + 1}: ${thing}.`;
}

function controlsFrom(lv) {
  $("#ed-width").value = lv.width; $("#ed-height").value = lv.height;
  $("#ed-win").value = lv.win || "exit";
  $("#ed-emitter-controls").hidden = lv.win !== "beam";
  if (lv.beam) { $("#ed-beam-dir").value = lv.beam.dir; $("#ed-beam-offset").value = lv.beam.offset; }
  if (document.activeElement !== $("#ed-name")) $("#ed-name").value = lv.name || "";
  $("#ed-undo").disabled = !model.canUndo; $("#ed-redo").disabled = !model.canRedo;
}

// ---- edits ------------------------------------------------------------------------------
function say(text) { refusal.textContent = text; if (text) root.dataset.refused = text; else delete root.dataset.refused; }

/** Run a model edit; refused: say why and change nothing. */
function act(r) {
  if (r === true || (r && r.ok)) { say(""); changed(); return true; }
  if (r && r.reason) say(`Refused: ${r.reason}`);
  return false;
}

function changed() {
  const lv = model.level;
  if (selected >= lv.blocks.length) selected = -1;
  verdict = {};
  draw();
  const problem = model.problem;
  if (!problem) history.replaceState(null, "", "?d=" + encodeURIComponent(encodeDesc(lv)));
  analyse(lv, problem);
}

/** A block of `kind` at cell (x, y): two cells long, across the lantern's axis for a key. */
function placeAt(kind, x, y) {
  const lv = model.level, vertical = kind === "key" ? ["top", "bottom"].includes(lv.exit.side) : false;
  const first = vertical ? [1, 2] : [2, 1], second = vertical ? [2, 1] : [1, 2];
  const r = model.place(kind, x, y, ...first);
  if (r.ok) { selected = model.level.blocks.length - 1; return act(r); }
  const r2 = model.place(kind, x, y, ...second);
  if (r2.ok) { selected = model.level.blocks.length - 1; return act(r2); }
  return act(r);
}

/** Use a tool on cell (x, y) (a tap, Enter, or a key's shortcut). */
function useTool(t, x, y) {
  const lv = model.level, spot = spotAt(x, y, lv.width, lv.height);
  if (spot) return act(model.lantern(spot[0], spot[1]));
  if (x < 0 || y < 0 || x >= lv.width || y >= lv.height) return false;
  const what = model.at(x, y);
  if (t === "move") {
    selected = what && what.type === "block" ? what.index : -1;
    draw();
    return true;
  }
  if (BLOCK_TOOLS.includes(t)) {
    if (what && what.type === "block") {
      selected = what.index;
      if (lv.blocks[what.index].kind === t) { draw(); return true; }
      return act(model.setKind(what.index, t));
    }
    return placeAt(t, x, y);
  }
  if (t === "wall") return act(what && what.type === "wall" ? model.clear(x, y) : model.wall(x, y));
  if (t === "mirror-f" || t === "mirror-b") {
    const tilt = t === "mirror-f" ? "/" : "\\";
    return act(what && what.type === "mirror" && what.tilt === tilt ? model.clear(x, y) : model.mirror(x, y, tilt));
  }
  if (t === "erase") return act(model.clear(x, y));
  if (t === "light") return act(lightFrom(x, y));
  return false;
}

/** The emitter that sends the key's light into cell (x, y), which must touch the key's edge. */
function lightFrom(x, y) {
  const lv = model.level, k = lv.blocks.find((b) => b.kind === "key");
  if (!k) return { ok: false, reason: "place the key first: the light leaves from it" };
  if (lv.win !== "beam") return { ok: false, reason: "the light wins only on beam levels: choose Win: light at the lantern" };
  const rowIn = y >= k.y && y < k.y + k.h, colIn = x >= k.x && x < k.x + k.w;
  if (rowIn && x === k.x + k.w) return model.emitter("E", y - k.y);
  if (rowIn && x === k.x - 1) return model.emitter("W", y - k.y);
  if (colIn && y === k.y + k.h) return model.emitter("S", x - k.x);
  if (colIn && y === k.y - 1) return model.emitter("N", x - k.x);
  return { ok: false, reason: "tap a cell touching the key's edge: the light leaves the key there" };
}

// ---- pointer: mouse, touch and pen alike ----------------------------------------------------
function cellOf(e) {
  const r = grid.getBoundingClientRect();
  return [Math.floor((e.clientX - r.left) / cell), Math.floor((e.clientY - r.top) / cell)];
}
const rectOf = ([x0, y0], [x1, y1]) => ({ x: Math.min(x0, x1), y: Math.min(y0, y1), w: Math.abs(x1 - x0) + 1, h: Math.abs(y1 - y0) + 1 });
const clampCell = ([x, y], lv) => [Math.max(0, Math.min(lv.width - 1, x)), Math.max(0, Math.min(lv.height - 1, y))];

function down(e) {
  if (e.button > 0) return;
  grid.dataset.input = "pointer";
  const lv = model.level, c0 = cellOf(e), handle = e.target.closest && e.target.closest("[data-handle]");
  e.preventDefault();
  grid.focus({ preventScroll: true });
  try { grid.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
  cursor = c0;
  const what = model.at(...c0), onGrid = c0[0] >= 0 && c0[1] >= 0 && c0[0] < lv.width && c0[1] < lv.height;
  drag = { id: e.pointerId, c0, c1: c0, mode: "tap", preview: null };
  const inBlock = (i) => { const b = lv.blocks[i]; return b && c0[0] >= b.x && c0[0] < b.x + b.w && c0[1] >= b.y && c0[1] < b.y + b.h; };
  if (handle && !inBlock(+handle.dataset.handle)) {
    drag.mode = "resize"; drag.i = +handle.dataset.handle;
  } else if (tool === "move" && what && what.type === "block") {
    const b = lv.blocks[what.index];
    selected = what.index;
    drag.mode = "move"; drag.i = what.index; drag.grab = [c0[0] - b.x, c0[1] - b.y];
  } else if (tool === "move" && what) {
    drag.mode = "shift";             // a wall or a mirror
  } else if (BLOCK_TOOLS.includes(tool) && onGrid && !what) {
    drag.mode = "draw";
  }
  draw();
}

function moved(e) {
  if (!drag || e.pointerId !== drag.id) return;
  const lv = model.level, c = cellOf(e);
  if (c[0] === drag.c1[0] && c[1] === drag.c1[1]) return;
  drag.c1 = c;
  if (drag.mode === "draw") drag.preview = rectOf(drag.c0, clampCell(c, lv));
  else if (drag.mode === "move") {
    const b = lv.blocks[drag.i];
    drag.preview = { x: c[0] - drag.grab[0], y: c[1] - drag.grab[1], w: b.w, h: b.h };
  } else if (drag.mode === "resize") {
    const b = lv.blocks[drag.i];
    drag.preview = { x: b.x, y: b.y, w: Math.max(1, c[0] - b.x + 1), h: Math.max(1, c[1] - b.y + 1) };
  } else if (drag.mode === "shift") drag.preview = { x: c[0], y: c[1], w: 1, h: 1 };
  draw();
}

function up(e) {
  if (!drag || e.pointerId !== drag.id) return;
  const d = drag, lv = model.level, still = d.c0[0] === d.c1[0] && d.c0[1] === d.c1[1];
  drag = null;
  if (e.type !== "pointerup") { draw(); return; }
  if (d.mode === "draw" && !still) {
    const r = d.preview, res = model.place(tool, r.x, r.y, r.w, r.h);
    if (res.ok) selected = model.level.blocks.length - 1;
    if (!act(res)) draw();
  } else if (d.mode === "move") {
    if (still || !d.preview) { draw(); return; }
    if (!act(model.move(d.i, d.preview.x, d.preview.y))) draw();
  } else if (d.mode === "resize") {
    if (!d.preview) { draw(); return; }
    const p = d.preview;
    if (!act(model.reshape(d.i, p.x, p.y, p.w, p.h))) draw();
  } else if (d.mode === "shift" && !still) {
    if (!act(model.shift(...d.c0, ...d.c1))) draw();
  } else if (still) {
    useTool(tool, ...d.c0);
  } else draw();
  cursor = clampCell(d.c1, lv);
}

// ---- keyboard -----------------------------------------------------------------------------
function keys(e) {
  const lv = model.level, k = e.key, dir = ARROWS[k], what = model.at(...cursor);
  const block = what && what.type === "block" ? what.index : -1;
  grid.dataset.input = "keyboard";
  if ((e.ctrlKey || e.metaKey) && !dir) return;   // undo/redo: the document's handler
  if (dir) {
    e.preventDefault();
    if (e.shiftKey && what) {
      const [x, y] = cursor, to = [x + dir[0], y + dir[1]];
      let r;
      if (block >= 0) { const b = lv.blocks[block]; selected = block; r = model.move(block, b.x + dir[0], b.y + dir[1]); }
      else r = model.shift(x, y, ...to);
      if (act(r)) { cursor = to; draw(); }
      return;
    }
    if ((e.altKey || e.ctrlKey) && block >= 0) {
      const b = lv.blocks[block];
      selected = block;
      act(model.reshape(block, b.x, b.y, Math.max(1, b.w + dir[0]), Math.max(1, b.h + dir[1])));
      return;
    }
    const x = cursor[0] + dir[0], y = cursor[1] + dir[1];
    if (x >= -1 && y >= -1 && x <= lv.width && y <= lv.height && (spotAt(x, y, lv.width, lv.height) || (x >= 0 && y >= 0 && x < lv.width && y < lv.height))) cursor = [x, y];
    draw();
    return;
  }
  const lower = k.length === 1 ? k.toLowerCase() : k;
  if (k === "Enter" || k === " ") { e.preventDefault(); useTool(tool, ...cursor); }
  else if (KEYS[lower]) { e.preventDefault(); useTool(KEYS[lower], ...cursor); }
  else if (lower === "w") { e.preventDefault(); useTool("wall", ...cursor); }
  else if (k === "/") { e.preventDefault(); useTool("mirror-f", ...cursor); }
  else if (k === "\\") { e.preventDefault(); useTool("mirror-b", ...cursor); }
  else if (lower === "l") { e.preventDefault(); useTool("light", ...cursor); }
  else if (lower === "t" && block >= 0) { e.preventDefault(); selected = block; act(model.turn(block)); }
  else if (k === "Delete" || k === "Backspace") { e.preventDefault(); act(model.clear(...cursor)); }
  else if (k === "Escape") { selected = -1; draw(); }
}

function undoRedo(e) {
  if (!(e.ctrlKey || e.metaKey) || $("#ed-playing").hidden === false) return;
  if (e.target.closest && e.target.closest("input, textarea, select")) return;
  const k = e.key.toLowerCase();
  if (k === "z" && !e.shiftKey) { e.preventDefault(); if (model.undo()) changed(); }
  else if ((k === "z" && e.shiftKey) || k === "y") { e.preventDefault(); if (model.redo()) changed(); }
}

// ---- verdicts (the worker) ------------------------------------------------------------------
let worker = null, busy = false, seq = 0, t0 = 0;

function analyse(lv, problem) {
  const id = ++seq;
  for (const k of ["outcome", "par", "plans", "deepest", "ms"]) delete root.dataset[k];
  if (problem) {
    root.dataset.state = "illegal";
    root.dataset.problem = problem;
    showVerdict();
    return;
  }
  delete root.dataset.problem;
  root.dataset.state = "thinking";
  showVerdict();
  if (busy && worker) { worker.terminate(); worker = null; }
  if (!worker) {
    try {
      worker = new Worker(new URL("./editor-worker.js", import.meta.url), { type: "module" });
    } catch (err) { root.dataset.state = "error"; $("#ed-outcome").textContent = `No verdicts here: ${err.message}`; return; }
    worker.onmessage = (e) => received(e.data);
    worker.onerror = (e) => { if (e.preventDefault) e.preventDefault(); busy = false; root.dataset.state = "error"; $("#ed-outcome").textContent = "The verdict worker failed to start."; };
  }
  busy = true; t0 = performance.now();
  worker.postMessage({ id, level: lv, limits: DATA });
}

function received(msg) {
  if (msg.id !== seq) return;
  const { stage, id, ms, ...rest } = msg;
  Object.assign(verdict, rest);
  if (stage === "measures") {
    root.dataset.outcome = verdict.outcome;
    if (verdict.optimal != null) root.dataset.par = verdict.optimal;
    if (verdict.plans != null) root.dataset.plans = verdict.plans;
    draw();   // dead blocks show on the grid
  }
  if (stage === "deepest" && verdict.deepest != null) root.dataset.deepest = verdict.deepest;
  if (stage === "done" || stage === "error") {
    busy = false;
    root.dataset.ms = Math.round(performance.now() - t0);
    root.dataset.state = stage;
  }
  showVerdict();
}

/** A move in a player's words: "the key right 2", "crystal 3 up 1" (block 3 of the level). */
function moveText(lv, [i, d]) {
  const b = lv.blocks[i] || { kind: "block", w: 1, h: 1 }, dir = b.w > b.h ? (d > 0 ? "right" : "left") : (d > 0 ? "down" : "up");
  const who = b.kind === "key" ? "the key" : b.kind + " " + i;   // (no nested template: rjsmin)
  return `${who} ${dir} ${Math.abs(d)}`;
}

function showVerdict() {
  const v = verdict, state = root.dataset.state, set = (id, t) => { $(id).textContent = t; };
  const problem = root.dataset.problem;
  set("#ed-legal", problem ? `Not a level yet: ${problem}` : "A level: every piece in place.");
  $("#ed-legal").classList.toggle("ed-bad", !!problem);
  const lv = model.level;
  if (problem) {
    for (const id of ["#ed-outcome", "#ed-par", "#ed-plans", "#ed-first", "#ed-traps", "#ed-crystal", "#ed-dead", "#ed-chain", "#ed-forced"]) set(id, "–");
  } else {
    set("#ed-outcome", !v.outcome ? "working…" : v.outcome === "solved" ? `solved in ${v.optimal}`
      : v.outcome === "unsolvable" ? `unsolvable: no position reachable from the start wins`
        : `exhausted: over ${num(DATA.budget)} positions, nothing is known`);
    set("#ed-par", v.optimal != null ? v.optimal : v.outcome ? "none" : "…");
    const measured = v.component_states != null;
    set("#ed-plans", measured ? (v.plans_capped ? `${num(v.plans)}+` : num(v.plans)) + ` (raw ${num(v.solutions)}${v.solutions_capped ? "+" : ""})` : v.outcome ? "–" : "…");
    set("#ed-first", measured ? `${v.first_moves_optimal} of ${v.first_moves_legal} keep par` + (v.first_moves.length ? `: ${v.first_moves.map((m) => moveText(lv, m)).join(", ")}` : "") : "–");
    set("#ed-traps", measured ? `${num(v.traps)} of ${num(v.component_states)} positions` : "–");
    set("#ed-crystal", !twist(lv) ? "no sand, ice or rime" : v.crystal_optimal == null ? (state === "done" ? "none" : "…")
      : `${v.crystal_optimal}` + (v.optimal != null ? `, twist margin ${v.optimal - v.crystal_optimal}` : "")
        + (v.optional_twist ? " (some optimal line moves no twist block)" : ""));
    const movable = lv.blocks.length - 1, dead = (v.dead_blocks || []).filter((i) => lv.blocks[i] && lv.blocks[i].kind !== "key");
    set("#ed-dead", measured ? `${dead.length} of ${movable}` + (dead.length ? ` (blocks ${dead.join(", ")})` : "") : "–");
    set("#ed-chain", v.chain != null ? `${v.chain}${v.chain_capped ? " or less" : ""} of ${v.optimal}: the longest run of moves each needing the one before` : "–");
    set("#ed-forced", v.forced != null ? `${v.forced} of ${v.optimal} made where only one move is optimal` : "–");
  }
  const deep = $("#ed-deepest"), jump = $("#ed-jump");
  jump.hidden = true;
  if (problem || v.deepest === undefined) deep.textContent = "";
  else if (!v.complete) deep.textContent = `This board's starts are too many to sweep within ${num(DATA.budget)} positions.`;
  else if (!v.start) deep.textContent = v.binding === 0 && v.deepest_any != null && twist(lv) ? "No start of this board needs its twists (none binds)." : "No start of this board can win.";
  else if (v.optimal != null && v.deepest <= v.optimal) deep.textContent = `This is the board's deepest start: ${v.deepest} moves.`;
  else {
    deep.textContent = `This board holds a ${v.deepest}-move ${twist(lv) ? "binding " : ""}start: jump to it.`;
    jump.hidden = false;
  }
  // the level page's panel (_why.html), its two lines filled here
  const why = $("#ed-why"), words = v.analysis && whyHard(lv, v.optimal, { ...v.analysis, chain: v.chain, deepest: v.deepest });
  why.hidden = !words;
  if (words) {
    const [hard, easier] = why.querySelectorAll(".why > p");
    hard.lastChild.textContent = ` ${words.hard}.`;
    easier.lastChild.textContent = ` ${words.easier}.`;
  }
  set("#ed-speed", state === "done" ? `Verdicts in ${root.dataset.ms} ms (${num(v.states || 0)} positions searched).` : "");
  $("#ed-share").disabled = !!problem;
  $("#ed-play").disabled = !!problem;
  $("#export").disabled = !!problem;
}


function jumpToDeepest() {
  const lv = model.level, at = verdict.start;
  if (!at) return;
  lv.blocks = lv.blocks.map((b, i) => ({ ...b, x: at[i][0], y: at[i][1] }));
  selected = -1;
  act(model.load(lv));
}

// ---- play, share, export, import --------------------------------------------------------------
function playable() {
  const lv = model.level;
  if (verdict.outcome === "solved" && verdict.optimal != null) { lv.optimal = verdict.optimal; lv.solution = verdict.moves; }
  return lv;
}

function play() {
  if (model.problem) return;
  const lv = playable();
  root.hidden = true; $("#ed-playing").hidden = false;
  $("#par").textContent = lv.optimal != null ? lv.optimal : "–";
  const res = $("#result");
  res.hidden = true;
  $(".result-stars", res).dataset.slot = "stars";
  $(".result-text", res).textContent = "";
  const frame = $("#ed-playing .board-frame");
  frame.style.setProperty("--w", lv.width); frame.style.setProperty("--h", lv.height);
  for (const id of ["#sound", "#motion"]) if ($(id)) $(id).hidden = true;   // a level page's toggles (panel.js)
  player = mountBoard($("#board"), lv, { site: SITE, record: false, maxCell: 76 });
  window.luminaBoard = player;
  $("#board").focus({ preventScroll: true });
}

function stopPlaying() {
  if (player) { player.destroy(); player = null; }
  $("#ed-playing").hidden = true; root.hidden = false;
  grid.focus({ preventScroll: true });
}

function won(e) {
  if (!player || e.detail.type !== "win") return;
  const { moves, stars, helped } = e.detail, par = verdict.optimal;
  $(".result-text").textContent = `Solved in ${moves} move${moves === 1 ? "" : "s"}` + (par != null ? ` (par ${par})` : "")
    + (helped ? ", with help." : stars === 3 ? ": a three-star line." : ".");
}

function shareLink() {
  const lv = model.level;
  return new URL("play.html?d=" + encodeURIComponent(encodeDesc(lv)), location.href).href;
}

async function share() {
  if (model.problem) return;
  const url = shareLink(), out = $("#ed-link");
  out.hidden = false; out.value = url; out.select();
  try { await navigator.clipboard.writeText(url); say("Link copied."); } catch { say("Copy the link above."); }
}

/** The level as a one-level pack (what python -m lumina.solve and lumina.verify read). */
export function exportPack(lv, v) {
  const level = { ...lv };
  if (v.outcome === "solved" && v.optimal != null && v.moves) { level.optimal = v.optimal; level.solution = v.moves; }
  if (v.analysis && level.optimal != null) level.analysis = v.analysis;
  return { pack: level.id, name: lv.name || level.id, levels: [level] };
}

function download() {
  if (model.problem) return;
  const lv = model.level, text = JSON.stringify(exportPack(lv, verdict), null, 1) + "\n";
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  a.download = `${lv.id}.json`;
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  say(verdict.analysis ? `Exported ${lv.id}.json: par ${verdict.optimal}, with its analysis.` : `Exported ${lv.id}.json (not solved here, so without par).`);
}

function importText(text) {
  try {
    const lv = parseImport(text);
    selected = -1;
    act(model.load(lv));
    $("#ed-import-box").open = false;
  } catch (e) {
    say(`Could not import: ${e.message}`);
  }
}

// ---- wiring ----------------------------------------------------------------------------------
function pickTool(t) {
  tool = t;
  for (const b of document.querySelectorAll(".ed-tool")) b.setAttribute("aria-checked", String(b.dataset.tool === t));
  root.dataset.tool = t;
}

function wire() {
  for (const b of document.querySelectorAll(".ed-tool")) b.addEventListener("click", () => pickTool(b.dataset.tool));
  grid.addEventListener("pointerdown", down);
  grid.addEventListener("pointermove", moved);
  grid.addEventListener("pointerup", up);
  grid.addEventListener("pointercancel", up);
  grid.addEventListener("keydown", keys);
  document.addEventListener("keydown", undoRedo);
  $("#ed-undo").addEventListener("click", () => { if (model.undo()) changed(); });
  $("#ed-redo").addEventListener("click", () => { if (model.redo()) changed(); });
  $("#ed-clear").addEventListener("click", () => { const lv = model.level; selected = -1; act(model.load(emptyLevel(lv.width, lv.height))); });
  const size = () => act(model.resize(+$("#ed-width").value, +$("#ed-height").value)) || controlsFrom(model.level);
  $("#ed-width").addEventListener("change", size);
  $("#ed-height").addEventListener("change", size);
  $("#ed-win").addEventListener("change", (e) => act(model.setWin(e.target.value)) || controlsFrom(model.level));
  const emit = () => act(model.emitter($("#ed-beam-dir").value, +$("#ed-beam-offset").value)) || controlsFrom(model.level);
  $("#ed-beam-dir").addEventListener("change", emit);
  $("#ed-beam-offset").addEventListener("change", emit);
  $("#ed-name").addEventListener("change", (e) => act(model.rename(e.target.value)));
  $("#ed-jump").addEventListener("click", jumpToDeepest);
  $("#ed-play").addEventListener("click", play);
  $("#ed-back").addEventListener("click", stopPlaying);
  $("#ed-share").addEventListener("click", share);
  $("#export").addEventListener("click", download);
  $("#ed-import").addEventListener("click", () => importText($("#ed-import-text").value));
  $("#ed-import-file").addEventListener("change", async (e) => { const f = e.target.files[0]; if (f) importText(await f.text()); e.target.value = ""; });
  $("#board").addEventListener("lumina-play", won);
  $("#board").addEventListener("keydown", (e) => {   // U undo, Shift+U redo, R reset, as on level pages
    if (!player || e.altKey || e.ctrlKey || e.metaKey) return;
    const k = e.key.toLowerCase();
    if (k === "u") { e.preventDefault(); if (e.shiftKey) player.redo(); else player.undo(); }
    if (k === "r" && !e.shiftKey) { e.preventDefault(); player.reset(); }
  });
  const shareBtn = $("#ed-playing [data-share]");
  if (shareBtn) shareBtn.addEventListener("click", share);
  window.addEventListener("resize", draw);
}

wire();
pickTool("move");
const first = opening();
model = createModel(first);
changed();
window.luminaEditor = { get model() { return model; }, get verdict() { return verdict; }, exportPack: () => exportPack(model.level, verdict) };
