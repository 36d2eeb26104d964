// Lumina page scripts: star totals, world locks and the board panel of level pages; every
// page loads this module and <body data-page> picks what runs (other page kinds:
// pages-more.js; a day page adds day.js, the progress page progress-page.js). The
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

export function json(id, fallback = null) {
  const n = document.getElementById(id);
  if (!n) return fallback;
  try { return JSON.parse(n.textContent); } catch { return fallback; }
}
export const SITE = siteData();
export const GATES = SITE.gates;
export const META = json("site-meta", { worlds: [] });
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

// ---- locks ----------------------------------------------------------------------------
/** {open, gate, need, total} for world `n` with `total` campaign stars. */
export function worldLock(n, total) {
  const gate = GATES[n] ?? 0;
  return { open: isWorldUnlocked(n, total, GATES), gate, need: Math.max(0, gate - total), total };
}

/** A link into another world (a[data-world]: prev/next, the result's next level) shows the
 * lock and its gate instead of walking in while that world is shut. */
function lockLink(a, total) {
  const n = +a.dataset.world, lock = worldLock(n, total);
  if (!a.dataset.href) { a.dataset.href = a.getAttribute("href"); a.dataset.label = a.textContent; }
  a.classList.toggle("locked-link", !lock.open);
  if (lock.open) {
    a.setAttribute("href", a.dataset.href); a.textContent = a.dataset.label;
    for (const k of ["aria-disabled", "title", "aria-label"]) a.removeAttribute(k);
  } else {
    a.removeAttribute("href"); a.setAttribute("aria-disabled", "true");
    const icon = $(".lock-icon");
    a.replaceChildren(...(icon ? [icon.cloneNode(true)] : []), `${lock.gate} ★`);
    a.title = `${worldName(n)} is locked: it opens at ${lock.gate} stars; you have ${total}, ${lock.need} more to go`;
    a.setAttribute("aria-label", a.title);
  }
}
const lockLinks = (total) => $$("a[data-world]").forEach((a) => lockLink(a, total));

/** A shut world's level page: the board dimmed and inert under the lock cover. */
function lockCover(world, total) {
  const lock = worldLock(world, total), play = $(".play"), cover = $("[data-lock-cover]");
  if (!play || !cover) return;
  play.classList.toggle("is-locked", !lock.open);
  cover.hidden = lock.open;
  for (const el of [$(".board-frame", play), $(".controls", play)]) if (el) el.inert = !lock.open;
  if (lock.open) return;
  $("[data-lock-text]", cover).textContent = `${worldName(world)} opens at ${lock.gate} ★. You have ${total}: ${lock.need} more to go.`;
  const prev = world - 1, go = $("[data-lock-go]", cover);
  if (go && META.worlds.some((w) => w.n === prev)) {
    go.href = `${document.body.dataset.root}w${prev}/index.html`; go.textContent = `Earn stars in ${worldName(prev)}`;
  }
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

function setupResult(level, { next, nextLabel, nextWorld } = {}) {
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
        if (nextWorld) a.dataset.world = nextWorld;
        actions.append(a);
      }
    }
    lockLinks(total);   // a win may open a gate
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

export function playLevel(level, { autoplay = false, record = true, next = null, nextLabel = null, nextWorld = null, desc = null, locked = false } = {}) {
  const el = $("#board");
  const today = new Date();
  // a daily won on its own day counts toward the streak
  const day = level.id === `d-${pad3(dayIndex(today, SITE) + 1)}` ? dayNumber(today, SITE.epoch) : null;
  const ctl = mountBoard(el, level, { autoplay: autoplay && !locked, record, maxCell: 76, site: SITE, day, locked });
  const par = $("#par");
  if (par && level.optimal != null) par.textContent = level.optimal;
  setupResult(level, { next, nextLabel, nextWorld });
  setupShare(desc);
  showBest(level.id);
  takeOverHint(ctl);
  // U / R shortcuts while the board has focus (arrows and Enter belong to board.js).
  el.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "u" || e.key === "U") { e.preventDefault(); ctl.undo(); }
    if (e.key === "r" || e.key === "R") { e.preventDefault(); ctl.reset(); }
  });
  if (record) logPlay($("#board"), level);
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

function level() {
  const { total } = paintTotals();
  const d = json("level-data");
  if (!d) return;
  // a level of a locked world: the board is shown but cannot be played
  const locked = d.world != null && !isWorldUnlocked(d.world, total, GATES);
  if (d.world != null) lockCover(d.world, total);
  const n = $("[data-next]"), nextLabel = n ? (n.dataset.label || n.textContent).trim() : null;
  playLevel(d.level, { autoplay: !!d.autoplay, next: locked ? null : d.next, nextLabel, nextWorld: d.next_world, desc: d.desc, locked });
}

// Other page kinds live in pages-more.js, fetched only by the pages that need them, so a
// level page never downloads the home, daily, share, how-to or progress code.
const page = document.body.dataset.page;
lockLinks(paintTotals().total);
if (page === "level") level();
else if (["home", "world", "today", "archive", "play", "howto", "progress"].includes(page)) import("./pages-more.js").then((m) => m.run(page));
