import { mountBoard } from "./board.js";
import { loadProgress, totalStars, GATES, isWorldUnlocked } from "./progress.js";
import { decodeDesc, encodeDesc, compile, startState, legalMoves, applyMove, isSolved, stateKey, stars } from "./engine.js";
const $ = (s, r = document) => r.querySelector(s);
const $$ = (s, r = document) => Array.from(r.querySelectorAll(s));
const pad2 = (n) => String(n).padStart(2, "0");
const pad3 = (n) => String(n).padStart(3, "0");
function json(id) {
const n = document.getElementById(id);
if (!n) return null;
try { return JSON.parse(n.textContent); } catch { return null; }
}
const META = json("site-meta") || { gates: {}, worlds: [] };
const worldName = (n) => (META.worlds.find((w) => w.n === n) || { name: `World ${n}` }).name;
const campaignStars = (p) => totalStars(p, "w");
function nextGate(total) {
const worlds = Object.keys(GATES).map(Number).sort((a, b) => a - b);
for (const w of worlds) if (!isWorldUnlocked(w, total) && META.worlds.some((x) => x.n === w)) {
return { world: w, gate: GATES[w], need: GATES[w] - total };
}
return null;
}
function paintTotals() {
const p = loadProgress(), total = campaignStars(p), g = nextGate(total);
$$("[data-total-stars]").forEach((n) => { n.textContent = total; });
$$("[data-next-gate]").forEach((n) => {
n.textContent = g ? `${g.need} more ★ opens ${worldName(g.world)} (world ${g.world})` : "Every world is open.";
});
$$("[data-next-gate-short]").forEach((n) => {
n.textContent = g ? `${total}/${g.gate}` : "all open";
n.title = g ? `${g.need} more stars open ${worldName(g.world)}` : "Every world is open";
});
return { p, total };
}
function paintWorld(node, p, total) {
const n = +node.dataset.world, gate = +node.dataset.gate;
const count = +(node.dataset.levels || (META.worlds.find((w) => w.n === n) || { levels: 0 }).levels);
const got = totalStars(p, `w${n}-`), open = isWorldUnlocked(n, total);
$$("[data-world-stars]", node).forEach((s) => { s.textContent = got; });
$$("[data-world-bar]", node).forEach((s) => { s.style.width = count ? `${Math.round((100 * got) / (3 * count))}%` : "0%"; });
node.classList.toggle("locked", !open);
node.classList.toggle("open", open);
const lock = $("[data-lock]", node);
if (lock) lock.textContent = open ? "Open" : `${gate} ★`;
const link = $("a", node);
if (link && link.classList.contains("world-link")) {
const why = open ? `${worldName(n)}: open, ${got} stars` : `${worldName(n)}: locked, opens at ${gate} stars, ${gate - total} more to go`;
link.setAttribute("aria-label", why);
link.title = open ? "" : `${gate - total} more ★ to open`;
}
return open;
}
function home() {
const { p, total } = paintTotals();
$$(".world-card[data-world]").forEach((c) => paintWorld(c, p, total));
const go = $("[data-continue]");
if (!go) return;
for (const w of META.worlds) {
if (!isWorldUnlocked(w.n, total)) break;
for (let i = 1; i <= w.levels; i++) {
if (!(p.levels[`w${w.n}-${pad2(i)}`] || {}).stars) {
go.href = `w${w.n}/${pad2(i)}.html`;
go.textContent = i === 1 && w.n === 1 ? "Play" : "Continue";
return;
}
}
}
}
function world() {
const { p, total } = paintTotals();
const head = $(".world-head[data-world]");
const open = head ? paintWorld(head, p, total) : true;
const banner = $("[data-lock-banner]");
if (banner && head) {
banner.hidden = open;
const need = $("[data-need]", banner);
if (need) need.textContent = Math.max(0, +head.dataset.gate - total);
}
$$(".levels").forEach((l) => l.classList.toggle("locked", !open));
$$(".level-tile[data-level]").forEach((t) => {
const e = p.levels[t.dataset.level] || { stars: 0 };
const s = $("[data-stars-earned]", t);
t.classList.toggle("done", e.stars > 0);
if (s) {
s.dataset.starsEarned = e.stars;
s.setAttribute("aria-label", `${e.stars} of 3 stars${e.best ? `, best ${e.best} moves` : ""}`);
s.firstElementChild.textContent = "★".repeat(e.stars) + "☆".repeat(3 - e.stars);
}
});
}
function showBest(id) {
const e = loadProgress().levels[id];
const b = $("#best");
if (b) b.textContent = e && e.best ? `${e.best} ${"★".repeat(e.stars)}` : "–";
}
function toast(text) {
const t = document.createElement("div");
t.className = "toast"; t.setAttribute("role", "status"); t.textContent = text;
document.body.append(t);
setTimeout(() => t.remove(), 2200);
}
function setupResult(level, { next, nextLabel } = {}) {
const res = $("#result");
if (!res) return;
const starsEl = $(".result-stars", res), text = $(".result-text", res), actions = $(".result-actions", res);
if (starsEl) starsEl.dataset.slot = "stars";
document.addEventListener("lumina:win", (ev) => {
const { moves, optimal, stars: st, assisted } = ev.detail;
const before = res.dataset.gateBefore ? +res.dataset.gateBefore : null;
const { total } = paintTotals();
showBest(level.id);
if (starsEl) starsEl.textContent = "★".repeat(st) + "☆".repeat(3 - st);
if (text) {
const verdict = assisted ? "Solution shown — now try it yourself."
: st === 3 ? (moves < optimal ? "Under par?! That should be impossible — tell us." : "Perfect: you matched par.")
: st === 2 ? `Within ${moves - optimal} of par. ${optimal} is possible.` : `Par is ${optimal}. Can you find a shorter way?`;
text.textContent = `Solved in ${moves} move${moves === 1 ? "" : "s"} (par ${optimal}). ${verdict}`;
}
if (actions) {
actions.replaceChildren();
if (st < 3 || assisted) {
const again = document.createElement("button");
again.type = "button"; again.className = "button"; again.textContent = "Try again";
again.addEventListener("click", () => { const r = $("#reset"); if (r) r.click(); });
actions.append(again);
}
if (next) {
const a = document.createElement("a");
a.className = "button primary"; a.href = next; a.textContent = nextLabel || "Next level";
actions.append(a);
}
}
if (before !== null) {
for (const w of META.worlds) {
if (!isWorldUnlocked(w.n, before) && isWorldUnlocked(w.n, total)) toast(`${w.name} is open!`);
}
}
res.dataset.gateBefore = total;
});
res.dataset.gateBefore = campaignStars(loadProgress());
}
function setupShare(desc) {
const b = $("[data-share]");
if (!b) return;
if (!desc) { b.hidden = true; return; }
b.addEventListener("click", async () => {
const url = new URL(document.body.dataset.root + "play.html?d=" + encodeURIComponent(desc), location.href).href;
try {
if (navigator.share && matchMedia("(pointer: coarse)").matches) { await navigator.share({ title: document.title, url }); return; }
await navigator.clipboard.writeText(url);
toast("Link copied");
} catch {
window.prompt("Share this link", url);
}
});
}
function takeOverHint(ctl) {
const hint = $("#hint"), el = $("#board");
if (!hint || !el || !el.dataset.autoplay) return;
const old = hint.textContent;
hint.textContent = "Watching the solution… touch the board or press a key to take over.";
hint.style.display = "block";
const back = () => { if (!el.dataset.autoplay) { hint.textContent = old; hint.style.display = ""; } };
el.addEventListener("pointerdown", back); el.addEventListener("keydown", back);
return ctl;
}
function playLevel(level, { autoplay = false, record = true, next = null, nextLabel = null, desc = null } = {}) {
const el = $("#board");
const ctl = mountBoard(el, level, { autoplay, record, maxCell: 76 });
const par = $("#par");
if (par && level.optimal != null) par.textContent = level.optimal;
setupResult(level, { next, nextLabel });
setupShare(desc);
showBest(level.id);
takeOverHint(ctl);
el.addEventListener("keydown", (e) => {
if (e.altKey || e.ctrlKey || e.metaKey) return;
if (e.key === "u" || e.key === "U") { e.preventDefault(); ctl.undo(); }
if (e.key === "r" || e.key === "R") { e.preventDefault(); ctl.reset(); }
});
window.luminaBoard = ctl;   // for tests and the curious
return ctl;
}
function level() {
paintTotals();
const d = json("level-data");
if (!d) return;
const nextLabel = $("[data-next]") ? $("[data-next]").textContent.trim() : null;
playLevel(d.level, { autoplay: !!d.autoplay, next: d.next, nextLabel, desc: d.desc });
}
export function localDayNumber(date = new Date()) {
return Math.floor(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / 86400000);
}
export const dailyIndex = (date = new Date(), pool = 174) => ((localDayNumber(date) % pool) + pool) % pool;
async function daily() {
paintTotals();
const cfg = json("daily-data") || { src: "dailies.json", pool: 174 };
const err = $("#daily-error");
try {
const res = await fetch(cfg.src);
if (!res.ok) throw new Error(`${cfg.src}: HTTP ${res.status}`);
const data = await res.json();
const levels = data.levels || [];
const idx = dailyIndex(new Date(), cfg.pool) % levels.length;
const want = `d-${pad3(idx + 1)}`;
const lv = levels.find((l) => l.id === want) || levels[idx];
const today = new Date().toLocaleDateString(undefined, { weekday: "long", month: "long", day: "numeric" });
$("#daily-id").textContent = `${today}: #${idx + 1} of ${cfg.pool}, ${lv.width}×${lv.height}.`;
document.body.dataset.daily = lv.id;
playLevel(lv, { desc: encodeDesc(lv) });
} catch (e) {
if (err) { err.hidden = false; err.textContent = `Today's level could not be loaded (${e.message}).`; }
}
}
export function solveBFS(level, cap = 250000) {
const board = compile(level), s0 = startState(board);
const states = [s0], parent = [-1], via = [null], seen = new Map([[stateKey(s0), 0]]);
for (let head = 0; head < states.length; head++) {
const s = states[head];
if (isSolved(board, s)) {
const path = [];
for (let i = head; parent[i] >= 0; i = parent[i]) path.push(via[i]);
return { optimal: path.length, solution: path.reverse() };
}
for (const m of legalMoves(board, s)) {
const t = applyMove(board, s, m), k = stateKey(t);
if (seen.has(k)) continue;
if (states.length >= cap) return { exhausted: true };
seen.set(k, states.length); states.push(t); parent.push(head); via.push(m);
}
}
return null;
}
function play() {
paintTotals();
const d = new URLSearchParams(location.search).get("d");
const fail = (msg) => {
$("#play-area").hidden = true;
$("#play-error").hidden = false;
$("#play-error-text").textContent = msg;
};
if (!d) { fail("This link has no level in it."); return; }
let lv;
try { lv = decodeDesc(d, "shared"); } catch (e) { fail(e.message); return; }
const sol = solveBFS(lv);
if (!sol) { fail("This level has no solution: the light can never reach the lantern."); return; }
if (sol.exhausted) { $("#play-meta").textContent = "This board is too large to work out par here; play it for fun."; }
else { lv.optimal = sol.optimal; lv.solution = sol.solution; }
playLevel(lv, { record: false, desc: d });
}
function howto() {
paintTotals();
const demos = json("demo-data") || {};
for (const el of $$("[data-demo]")) {
const lv = demos[el.dataset.demo];
if (!lv) continue;
const fake = (tag) => document.createElement(tag);
mountBoard(el, lv, {
autoplay: !matchMedia("(prefers-reduced-motion: reduce)").matches,
record: false, maxCell: 52,
controls: { moves: fake("output"), undo: fake("button"), reset: fake("button"), solution: fake("button"), result: fake("div") },
});
}
}
function stats() { paintTotals(); }
const PAGES = { home, world, level, daily, play, howto, stats };
const run = PAGES[document.body.dataset.page];
if (run) run();
export { stars };
