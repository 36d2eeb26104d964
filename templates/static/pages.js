// Lumina page scripts: star totals and the board panel of level pages; every page loads
// this module and <body data-page> picks what runs (other page kinds: pages-more.js). The
// board itself is board.js (mountBoard), the rules engine.js, stored progress progress.js;
// gates, the daily pool and date rule and the star rule come from the page's #site-data
// (lumina/sitedata.py). Missing or corrupt storage never makes a page throw.
import { mountBoard, siteData } from "./board.js";
import { loadProgress, totalStars, isWorldUnlocked } from "./progress.js";
import { dayIndex, dayNumber } from "./core.js";

export const $ = (s, r = document) => r.querySelector(s);
export const $$ = (s, r = document) => Array.from(r.querySelectorAll(s));
export const pad2 = (n) => String(n).padStart(2, "0");
export const pad3 = (n) => String(n).padStart(3, "0");

export function json(id) {
  const n = document.getElementById(id);
  if (!n) return null;
  try { return JSON.parse(n.textContent); } catch { return null; }
}
export const SITE = siteData();
export const GATES = SITE.gates;
export const META = json("site-meta") || { worlds: [] };
export const worldName = (n) => (META.worlds.find((w) => w.n === n) || { name: `World ${n}` }).name;

/** Campaign stars only (level ids w1-.. w5-): the gates count the campaign, not the dailies. */
const campaignStars = (p) => totalStars(p, "w");

/** The next locked world's gate above `total`, or null when every world is open. */
function nextGate(total) {
  const worlds = Object.keys(GATES).map(Number).sort((a, b) => a - b);
  for (const w of worlds) if (!isWorldUnlocked(w, total, GATES) && META.worlds.some((x) => x.n === w)) {
    return { world: w, gate: GATES[w], need: GATES[w] - total };
  }
  return null;
}

export function paintTotals() {
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

// ---- the board panel (level, daily, share) -------------------------------------------
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
      const verdict = assisted ? `With help, ${"★".repeat(SITE.stars.help_cap)} at most. Reset and find it yourself for ★★★.`
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
        if (!isWorldUnlocked(w.n, before, GATES) && isWorldUnlocked(w.n, total, GATES)) toast(`${w.name} is open!`);
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
  const hint = $("#board-tip"), el = $("#board");
  if (!hint || !el || !el.dataset.autoplay) return;
  const old = hint.textContent;
  hint.textContent = "Watching the solution… touch the board or press a key to take over.";
  hint.style.display = "block";
  const back = () => { if (!el.dataset.autoplay) { hint.textContent = old; hint.style.display = ""; } };
  el.addEventListener("pointerdown", back); el.addEventListener("keydown", back);
  return ctl;
}

export function playLevel(level, { autoplay = false, record = true, next = null, nextLabel = null, desc = null, locked = false } = {}) {
  const el = $("#board");
  const today = new Date();
  // a daily won on its own day counts toward the streak
  const day = level.id === `d-${pad3(dayIndex(today, SITE) + 1)}` ? dayNumber(today, SITE.epoch) : null;
  const ctl = mountBoard(el, level, { autoplay: autoplay && !locked, record, maxCell: 76, site: SITE, day, locked });
  const par = $("#par");
  if (par && level.optimal != null) par.textContent = level.optimal;
  setupResult(level, { next, nextLabel });
  setupShare(desc);
  showBest(level.id);
  takeOverHint(ctl);
  // U / R shortcuts while the board has focus (arrows and Enter belong to board.js).
  el.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "u" || e.key === "U") { e.preventDefault(); ctl.undo(); }
    if (e.key === "r" || e.key === "R") { e.preventDefault(); ctl.reset(); }
  });
  window.luminaBoard = ctl;   // for tests and the curious
  return ctl;
}

/** What it takes to open world `n` with `total` campaign stars, in players' words. */
const opensAt = (n, total) => `${worldName(n)} opens at ${GATES[n]} ★: ${GATES[n] - total} more to go.`;

/** Links into a locked world (next level, "Dune Sea ›") lead nowhere and say what opens them.
 * (Links marked a[data-world] belong to the page shell's own lock code, if the page has one.) */
function guardLinks(total) {
  $$("a[href]:not([data-world])").forEach((a) => {
    const m = /(?:^|\/)w(\d+)\/[^/]*$/.exec(a.getAttribute("href"));
    if (!m || isWorldUnlocked(+m[1], total, GATES)) return;
    a.removeAttribute("href");
    a.setAttribute("aria-disabled", "true");
    a.classList.add("locked");
    a.title = opensAt(+m[1], total);
    a.dataset.lockedWorld = m[1];
  });
}

function level() {
  const { total } = paintTotals();
  const d = json("level-data");
  if (!d) return;
  guardLinks(total);
  // a level of a locked world: the board is shown but cannot be played
  const locked = d.world != null && !isWorldUnlocked(d.world, total, GATES);
  const next = locked || !$("a[data-next][href]") ? null : d.next;
  const nextLabel = $("[data-next]") ? $("[data-next]").textContent.trim() : null;
  playLevel(d.level, { autoplay: !!d.autoplay, next, nextLabel, desc: d.desc, locked });
  if (locked && !$("[data-lock-cover]")) {   // a page with a lock cover fills it itself
    document.body.classList.add("world-locked");
    let box = $("[data-lock-note]");
    if (!box) { box = document.createElement("p"); box.className = "lock-note"; $("#board").closest(".board-frame, #board").after(box); }
    box.hidden = false;
    box.textContent = `Locked. ${opensAt(d.world, total)}`;
  }
}

// Other page kinds live in pages-more.js, fetched only by the pages that need them, so a
// level page never downloads the home, daily, share, how-to or progress code.
const page = document.body.dataset.page;
if (page === "level") level();
else if (page) import("./pages-more.js").then((m) => m.run(page));
