// The board panel of level, daily and share pages: mounts the board (board.js) with the
// page's #level-data, best moves, the keyboard shortcuts (U undo, Shift+U or Ctrl+Y redo,
// R reset) and the motion and sound toggles (sound.js, loaded on the player's first
// interaction unless they turned it off). What is needed only later loads then: the lock
// card of a shut world (locks.js), the result after a win and the share link (result.js),
// a playing tutorial's tip (autoplay.js).
import { mountBoard } from "./board.js";
import { loadProgress, isWorldUnlocked } from "./progress.js";
import { dayIndex, dayNumber } from "./core.js";
import { $, json, pad3, SITE, GATES, campaignStars, paintTotals, showBest, settings, saveSetting, applyMotion } from "./common.js";

/** After a win, the result in words (result.js, loaded then), and the share button. */
function setupResult(el, ctl, level, opts) {
  let before = campaignStars(loadProgress());   // a win that opens a gate says so
  const load = () => import("./result.js");
  el.addEventListener("lumina-play", (ev) => {
    if (ev.detail.type === "move") load();   // fetched on the first move, ready by the win
    if (ev.detail.type === "win") load().then((m) => m.win(ctl, level, opts, before)).then((t) => { before = t; });
  });
  const b = $("[data-share]");
  if (b) b.addEventListener("click", () => load().then((m) => m.share(opts.desc || level)));
}

/** U undo, Shift+U or Ctrl+Y (Ctrl+Shift+Z) redo, Ctrl+Z undo, R reset: while the board, a
 * control or nothing in particular has focus (never while typing). */
function shortcuts(ctl) {
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (e.defaultPrevented || e.altKey || !(t === document.body || t.closest(".play"))) return;
    const k = e.key.toLowerCase(), mod = e.ctrlKey || e.metaKey;
    const act = mod ? (k === "y" || (k === "z" && e.shiftKey) ? ctl.redo : k === "z" ? ctl.undo : null)
      : k === "u" ? (e.shiftKey ? ctl.redo : ctl.undo) : k === "r" && !e.shiftKey ? ctl.reset : null;
    if (act) { e.preventDefault(); act(); }
  });
}

/** A toggle button: aria-pressed shows its state. */
const pressed = (b, on) => { if (b) b.setAttribute("aria-pressed", String(on)); };

/** #motion: the game's motion (slides, glow, the key leaving), remembered here. */
function motionToggle() {
  const b = $("#motion");
  pressed(b, applyMotion());
  if (b) b.addEventListener("click", () => { saveSetting("motion", b.getAttribute("aria-pressed") !== "true"); pressed(b, applyMotion()); });
}

/** #sound: off until the player turns it on, or until their first interaction with the page
 * (unless they turned it off before: remembered). Nothing is loaded or played before that. */
function soundToggle(el, ctl) {
  const b = $("#sound");
  let mod = null;
  const set = async (on) => {
    pressed(b, on);
    if (on && !mod) mod = await import("./sound.js");
    if (mod) mod.sound(el, ctl, b.getAttribute("aria-pressed") === "true");
  };
  pressed(b, false);
  if (!b) return;
  b.addEventListener("click", () => { const on = b.getAttribute("aria-pressed") !== "true"; saveSetting("sound", on); set(on); });
  if (settings().sound === false) return;
  const first = (e) => {
    for (const t of ["pointerdown", "keydown"]) document.removeEventListener(t, first, true);
    if (e.target !== b && settings().sound !== false) set(true);
  };
  for (const t of ["pointerdown", "keydown"]) document.addEventListener(t, first, true);
}

export function playLevel(level, { autoplay = false, record = true, next = null, nextLabel = null, nextWorld = null, desc = null, locked = false, ending = false } = {}) {
  const el = $("#board");
  const today = new Date();
  // a daily won on its own day counts toward the streak
  const day = level.id === `d-${pad3(dayIndex(today, SITE) + 1)}` ? dayNumber(today, SITE.epoch) : null;
  const ctl = mountBoard(el, level, { autoplay: autoplay && !locked, record, maxCell: 76, site: SITE, day, locked });
  const par = $("#par");
  if (par && level.optimal != null) par.textContent = el.dataset.par = level.optimal;
  if (desc) el.dataset.desc = desc;
  setupResult(el, ctl, level, { next, nextLabel, nextWorld, ending, desc });
  showBest(level.id);
  if (el.dataset.autoplay) import("./autoplay.js").then((m) => m.takeOverHint(el));   // tutorials only
  shortcuts(ctl);
  motionToggle();
  soundToggle(el, ctl);
  if (record) logPlay(el, level);
  window.luminaBoard = ctl;   // for tests and the curious
  return ctl;
}

/** The play log (playlog.js, docs/PLAYLOG.md), loaded once the board is up; the board's
 * events before it arrives wait in a queue. */
function logPlay(el, level) {
  const q = [], keep = (e) => q.push(e), d = json("level-data", {});
  el.addEventListener("lumina-play", keep);
  import("./playlog.js").then((m) => m.attach(el, level, d.generator, d.desc, q, keep));
}

/** A campaign or daily level page. */
export function level() {
  const { p, total } = paintTotals();
  const d = json("level-data");
  if (!d) return;
  // a level of a locked world: the board is shown but cannot be played
  const locked = d.world != null && !isWorldUnlocked(d.world, total, GATES);
  if (locked) import("./locks.js").then((m) => m.lockCover(d.world, p, total));
  // a shut world's level invites no play: its tutorial line and editor link wait for the gate,
  // their place kept (.shut is visibility:hidden), so opening them shifts nothing
  for (const n of document.querySelectorAll("[data-open-only]")) n.classList.toggle("shut", locked);
  const n = $("[data-next]"), nextLabel = n ? (n.dataset.label || n.textContent).trim() : null;
  if ($("[data-teach]")) import("./teach.js").then((m) => m.teach(m.twists(d.level)));   // a daily's unmet mechanics
  playLevel(d.level, { autoplay: !!d.autoplay, next: locked ? null : d.next, nextLabel, nextWorld: d.next_world, desc: d.desc, locked, ending: !!d.ending });
}
