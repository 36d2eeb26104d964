import * as E from "./engine.js";
import { recordResult } from "./progress.js";
const NAMES = { key: "light key", crystal: "crystal", sand: "sand", ice: "ice", rime: "rime" };
const SVG = "http://www.w3.org/2000/svg";
const AXES = { h: { ArrowLeft: -1, ArrowRight: 1 }, v: { ArrowUp: -1, ArrowDown: 1 } };
const ARROWS = { ArrowUp: "N", ArrowRight: "E", ArrowDown: "S", ArrowLeft: "W" };
const STEP_MS = 950;
function make(tag, cls, parent, vars) {
const n = tag === "svg" || tag === "polyline" || tag === "circle" ? document.createElementNS(SVG, tag) : document.createElement(tag);
if (cls) n.setAttribute("class", cls);
for (const k in vars || {}) n.style.setProperty("--" + k, vars[k]);
if (parent) parent.append(n);
return n;
}
function controls(el, given) {
const c = {};
let box = null;
for (const [k, label] of [["moves"], ["undo", "Undo"], ["reset", "Reset"], ["solution", "Show solution"], ["result"]]) {
c[k] = given[k] || document.getElementById(k);
if (c[k]) continue;
if (!box) { box = make("div", "lb-controls"); el.after(box); }
if (k === "moves") { const w = make("span", "lb-count", box); w.append("Moves "); c[k] = make("output", "", w); }
else if (k === "result") { c[k] = make("div", "lb-result", box); c[k].hidden = true; c[k].setAttribute("role", "status"); }
else { c[k] = make("button", "lb-button", box); c[k].type = "button"; c[k].textContent = label; }
c[k].id = k;
}
return c;
}
export function mountBoard(el, level, opts = {}) {
const board = E.compile(level), W = board.width, H = board.height, start = E.startState(board);
const ctl = controls(el, opts.controls || {});
const sol = level.solution || [];
let solKeys = null;   // state keys along the stored solution, or null if it does not replay
try {
let s = start; solKeys = [E.stateKey(s)];
for (const m of sol) { s = E.applyMove(board, s, m); solKeys.push(E.stateKey(s)); }
if (!sol.length || !E.isSolved(board, s)) solKeys = null;
} catch { solKeys = null; }
let hist = [start], state = start, won = false, assisted = false, cell = 0;
let drag = null, pending = null, auto = null;
el.replaceChildren();
el.classList.add("lb-board");
layout();   // --cell first, so blocks appear in place instead of transitioning in
if (board.win === "beam") el.classList.add("lb-beamlevel");
el.dataset.level = level.id;
el.setAttribute("role", "group");
el.setAttribute("aria-label", `Puzzle ${level.name || level.id}: ${W} by ${H}. Bring the light key${board.win === "beam" ? "'s beam" : ""} to the lantern.`);
const { side, index } = board.exit;
const lx = side === "left" ? -0.3 : side === "right" ? W + 0.3 : index + 0.5;
const ly = side === "top" ? -0.3 : side === "bottom" ? H + 0.3 : index + 0.5;
el.style.setProperty("--_lx", lx); el.style.setProperty("--_ly", ly);
for (const [x, y] of level.walls || []) make("div", "lb-wall", el, { _x: x, _y: y });
for (const m of level.mirrors || []) make("div", "lb-mirror " + (m.tilt === "/" ? "lb-fwd" : "lb-back"), el, { _x: m.x, _y: m.y });
const svg = board.beam ? make("svg", "lb-beam", el) : null;   // the light, on beam levels
let halo, core, spark;
if (svg) {
svg.setAttribute("viewBox", `0 0 ${W} ${H}`); svg.setAttribute("aria-hidden", "true");
halo = make("polyline", "lb-beam-halo", svg); core = make("polyline", "lb-beam-core", svg);
spark = make("circle", "lb-beam-end", svg); spark.setAttribute("r", "0.13");
}
const ghost = make("div", "lb-ghost", el);
const blocks = board.blocks.map((b, i) => {
const n = make("button", `lb-block lb-${b.kind}`, el, { _w: b.w, _h: b.h, _x: b.x, _y: b.y });
n.type = "button"; n.dataset.block = i; n.dataset.kind = b.kind;
n.classList.add(b.horiz ? "lb-h" : "lb-v");
if (b.kind === "ice") make("span", "lb-hint", n);
return n;
});
const lantern = make("div", "lb-lantern lb-" + side, el);
lantern.setAttribute("aria-hidden", "true");
const live = make("span", "lb-live", el);
live.setAttribute("aria-live", "polite");
function layout() {
const avail = opts.width || (el.parentElement && el.parentElement.clientWidth) || window.innerWidth;
const byH = Math.max(44, Math.floor((window.innerHeight || 800) * 0.7 / (H + 1)));
const c = Math.max(24, Math.min(opts.maxCell || 64, Math.floor(avail / (W + 1)), byH));
if (c === cell) return;
cell = c;
el.classList.add("lb-still");   // a resize re-lays the board without sliding blocks
requestAnimationFrame(() => requestAnimationFrame(() => el.classList.remove("lb-still")));
el.style.setProperty("--_c", cell + "px");
el.style.width = W * cell + "px"; el.style.height = H * cell + "px";
el.dataset.cell = cell;
}
function label(i) {
const b = board.blocks[i], r = E.rect(board, state, i), f = state.flags[i];
const kind = b.kind === "sand" && f ? "spent sand" : b.kind === "rime" ? (f ? "thawed rime" : "frozen rime") : NAMES[b.kind];
return `${kind} block, column ${r.x + 1} row ${r.y + 1}, slides ${b.horiz ? "left and right" : "up and down"}`;
}
function render() {
const movable = new Set(E.legalMoves(board, state).map((m) => m[0]));
blocks.forEach((n, i) => {
const r = E.rect(board, state, i), k = board.blocks[i].kind, f = state.flags[i];
n.style.setProperty("--_x", r.x); n.style.setProperty("--_y", r.y);
n.dataset.x = r.x; n.dataset.y = r.y;
n.classList.toggle("lb-spent", k === "sand" && !!f);
n.classList.toggle("lb-frozen", k === "rime" && !f);
n.classList.toggle("lb-stuck", !movable.has(i));
n.setAttribute("aria-label", label(i));
});
const n = hist.length - 1;
ctl.moves.textContent = n;
el.dataset.moves = n;
el.dataset.solved = won;
el.classList.toggle("lb-won", won);
ctl.undo.disabled = n === 0;
ctl.reset.disabled = n === 0;
ctl.solution.disabled = !solKeys || won;
drawBeam();
}
function drawBeam() {
const lit = E.isSolved(board, state);
el.classList.toggle("lb-lit", lit);
if (!svg) return;
const p = E.beamPath(board, state), [sx, sy, dx0, dy0] = p.start;
const pts = [[sx + 0.5 - dx0 / 2, sy + 0.5 - dy0 / 2]];
for (const [x, y] of p.cells) pts.push([x + 0.5, y + 0.5]);
if (p.end) {
const [ex, ey] = p.end, last = p.cells.length ? p.cells[p.cells.length - 1] : [ex - dx0, ey - dy0];
const ux = ex - last[0], uy = ey - last[1];
pts.push([ex + 0.5 - ux / 2, ey + 0.5 - uy / 2]);
if (p.solved) pts.push([ex + 0.5 - ux / 5, ey + 0.5 - uy / 5]);
}
const s = pts.map((q) => q.join(",")).join(" ");
halo.setAttribute("points", s); core.setAttribute("points", s);
const end = pts[pts.length - 1];
spark.setAttribute("cx", end[0]); spark.setAttribute("cy", end[1]);
spark.style.display = p.stop === "blocked" ? "" : "none";
}
function say(text) { live.textContent = text; }
function emit(type, detail) { el.dispatchEvent(new CustomEvent("lumina:" + type, { detail, bubbles: true })); }
function showResult() {
const res = ctl.result, moves = hist.length - 1, optimal = level.optimal ?? moves;
const st = E.stars(moves, optimal), starText = "★".repeat(st) + "☆".repeat(3 - st);
Object.assign(res.dataset, { stars: st, moves, assisted });
const slot = (k) => res.querySelector(`[data-slot="${k}"]`);
if (slot("stars") || slot("moves")) {
if (slot("stars")) slot("stars").textContent = starText;
if (slot("moves")) slot("moves").textContent = moves;
} else if (!res.children.length || res.classList.contains("lb-result")) {
res.textContent = `Solved in ${moves} move${moves === 1 ? "" : "s"} (par ${optimal}) ${starText}${assisted ? " (shown)" : ""}`;
}
res.setAttribute("aria-label", `${st} of 3 stars`);
res.hidden = false;
if (!assisted && opts.record !== false) recordResult(level.id, moves, optimal);
say(`Solved in ${moves} moves: ${st} of 3 stars.`);
emit("win", { moves, optimal, stars: st, assisted });
}
function commit(m) {
let next;
try { next = E.applyMove(board, state, m); } catch { render(); return false; }
const [i, d] = m, prev = state;
state = next; hist.push(next); pending = null;
const n = blocks[i];
n.classList.toggle("lb-slide", board.blocks[i].kind === "ice");
n.style.setProperty("--_ms", 110 + 45 * Math.abs(d) + "ms");
blocks.forEach((b, j) => {
if (board.blocks[j].kind === "rime" && next.flags[j] && !prev.flags[j]) {
b.classList.add("lb-thawing");
setTimeout(() => b.classList.remove("lb-thawing"), 900);
}
});
won = E.isSolved(board, state) && !auto;
render();
say(label(i) + `. ${hist.length - 1} moves.`);
emit("move", { move: m, moves: hist.length - 1, solved: E.isSolved(board, state) });
if (won) showResult();
return true;
}
function restart() {
clearPending();
hist = [start]; state = start; won = false; assisted = false;
ctl.result.hidden = true;
render();
}
function undo() {
stopAutoplay();
if (hist.length < 2) return;
clearPending();
hist.pop(); state = hist[hist.length - 1];
won = E.isSolved(board, state);
if (!won) ctl.result.hidden = true;
render();
}
function step() {
stopAutoplay();
if (!solKeys || won) return;
clearPending();
let k = solKeys.slice(0, sol.length).lastIndexOf(E.stateKey(state));
if (k < 0) { restart(); k = 0; }
assisted = true;
commit(sol[k]);
}
function movesOf(i) { return E.legalMoves(board, state).filter((m) => m[0] === i); }
function nope(n) {
n.classList.remove("lb-nope"); void n.offsetWidth; n.classList.add("lb-nope");
}
function offset(n, cells) {
const b = board.blocks[+n.dataset.block];
n.style.setProperty(b.horiz ? "--_dx" : "--_dy", cells * cell + "px");
}
function clearOffset(n) { n.style.removeProperty("--_dx"); n.style.removeProperty("--_dy"); }
function aim(n, m) {   // ice: the direction hint and the landing ghost
n.classList.remove("lb-aim-n", "lb-aim-e", "lb-aim-s", "lb-aim-w");
ghost.classList.toggle("lb-show", !!m);
if (!m) return;
const b = board.blocks[m[0]], r = E.rect(board, state, m[0]);
n.classList.add("lb-aim-" + (b.horiz ? (m[1] > 0 ? "e" : "w") : (m[1] > 0 ? "s" : "n")));
for (const [k, v] of Object.entries({ _x: r.x + (b.horiz ? m[1] : 0), _y: r.y + (b.horiz ? 0 : m[1]), _w: r.w, _h: r.h })) ghost.style.setProperty("--" + k, v);
}
function clearPending() {
if (!pending) return;
const n = blocks[pending.i];
n.classList.remove("lb-pending"); clearOffset(n);
pending = null;
}
function tick() {
if (!auto) return;
const k = solKeys.slice(0, sol.length).indexOf(E.stateKey(state));
if (k < 0) { restart(); auto = setTimeout(tick, STEP_MS); return; }
commit(sol[k]);
auto = setTimeout(tick, k === sol.length - 1 ? STEP_MS * 2.5 : STEP_MS);
}
function stopAutoplay() {
if (!auto) return false;
clearTimeout(auto); auto = null;
el.classList.remove("lb-autoplay"); delete el.dataset.autoplay;
restart();
return true;
}
function down(e) {
const n = e.target.closest && e.target.closest("[data-block]");
stopAutoplay();
if (!n || e.button > 0) return;
n.focus({ preventScroll: true });
if (won) return;
const i = +n.dataset.block, ms = movesOf(i);
if (!ms.length) { nope(n); return; }
e.preventDefault();
clearPending();
try { n.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
const ds = ms.map((m) => m[1]);
drag = { n, i, id: e.pointerId, x0: e.clientX, y0: e.clientY, ms, lo: Math.min(0, ...ds), hi: Math.max(0, ...ds), d: 0, m: null };
n.classList.add("lb-dragging");
}
function move(e) {
if (!drag || e.pointerId !== drag.id) return;
const b = board.blocks[drag.i];
const raw = (b.horiz ? e.clientX - drag.x0 : e.clientY - drag.y0) / cell;
if (b.kind === "ice") {
drag.m = Math.abs(raw) < 0.2 ? null : drag.ms.find((m) => Math.sign(m[1]) === Math.sign(raw)) || null;
aim(drag.n, drag.m);
offset(drag.n, drag.m ? Math.sign(raw) * Math.min(0.25, Math.abs(raw)) : 0);
} else {
drag.d = Math.max(drag.lo, Math.min(drag.hi, raw));
offset(drag.n, drag.d);
}
}
function up(e) {
if (!drag || e.pointerId !== drag.id) return;
const { n, i, m } = drag, d = board.blocks[i].kind === "ice" ? (m ? m[1] : 0) : Math.round(drag.d);
drag = null;
n.classList.remove("lb-dragging");
aim(n, null); clearOffset(n);
if (e.type === "pointerup" && d) commit([i, d]);
}
function nearest(i, dx, dy) {   // the closest block from block i in direction (dx, dy)
const mid = (j) => { const r = E.rect(board, state, j); return [r.x + r.w / 2, r.y + r.h / 2]; };
const [fx, fy] = mid(i);
let best = -1, bd = Infinity;
blocks.forEach((_, j) => {
const [x, y] = mid(j), along = (x - fx) * dx + (y - fy) * dy, d = along + 2 * Math.abs((x - fx) * dy + (y - fy) * dx);
if (j !== i && along > 0 && d < bd) { best = j; bd = d; }
});
return best;
}
function key(e) {
const n = e.target.closest && e.target.closest("[data-block]"), dir = E.DIRS[ARROWS[e.key]];
if (e.key !== "Tab") stopAutoplay();
if (!n) {   // the board itself has focus: an arrow picks the key
if (dir && e.target === el) { e.preventDefault(); blocks[board.key].focus(); }
return;
}
const i = +n.dataset.block, b = board.blocks[i], s = AXES[b.horiz ? "h" : "v"][e.key];
if (dir && !s) {   // across the block's axis: pick the next block that way
e.preventDefault();
const j = nearest(i, dir[0], dir[1]);
if (j >= 0) blocks[j].focus();
} else if (s) {
e.preventDefault();
if (won) return;
if (b.kind === "ice") {
const m = movesOf(i).find((q) => Math.sign(q[1]) === s);
if (m) commit(m); else nope(n);
return;
}
const d = (pending && pending.i === i ? pending.d : 0) + s;
if (d && !movesOf(i).some((q) => q[1] === d)) { nope(n); return; }
pending = d ? { i, d } : null;
n.classList.toggle("lb-pending", !!pending);
offset(n, d);
} else if (e.key === "Enter" || e.key === " ") {
e.preventDefault();
if (pending && pending.i === i) { const m = [i, pending.d]; clearPending(); commit(m); }
} else if (e.key === "Escape") {
clearPending();
}
}
function focusIn(e) {
const n = e.target.closest && e.target.closest("[data-block]");
blocks.forEach((b) => b.classList.toggle("lb-selected", b === n));
if (pending && blocks[pending.i] !== n) clearPending();
}
function focusOut(e) {
if (!el.contains(e.relatedTarget)) { blocks.forEach((b) => b.classList.remove("lb-selected")); clearPending(); }
}
const on = [
[el, "pointerdown", down], [el, "pointermove", move], [el, "pointerup", up], [el, "pointercancel", up],
[el, "lostpointercapture", up], [el, "keydown", key], [el, "focusin", focusIn], [el, "focusout", focusOut],
[ctl.undo, "click", undo], [ctl.reset, "click", () => { stopAutoplay(); restart(); }],
[ctl.solution, "click", step], [window, "resize", layout],
];
for (const [t, ev, f] of on) t.addEventListener(ev, f);
render();
if (opts.autoplay && solKeys) {
el.classList.add("lb-autoplay"); el.dataset.autoplay = "1";
auto = setTimeout(tick, STEP_MS);
}
return {
board,
get state() { return state; },
get moves() { return hist.length - 1; },
get solved() { return won; },
move: (m) => { stopAutoplay(); return won ? false : commit(m); },
undo, reset: () => { stopAutoplay(); restart(); }, step, stopAutoplay,
destroy() { stopAutoplay(); for (const [t, ev, f] of on) t.removeEventListener(ev, f); el.replaceChildren(); },
};
}
