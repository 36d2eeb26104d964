// Lumina page scripts for every page but the level page: home, world, today's daily hop,
// the daily archive, share link, how to play, the player's progress and How levels are
// made. pages.js imports this on demand.
import { mountBoard, solveAsync } from "./board.js";
import { loadProgress, totalStars, isWorldUnlocked } from "./progress.js";
import { summary } from "./summary.js";
import { compile, startState } from "./engine.js";
import { decodeDesc } from "./desc.js";
import { dayNumber } from "./core.js";
import { WEEK, shift, fmt, todayN, daysAgo, countdown } from "./day.js";
import { $, $$, pad2, pad3, json, SITE, GATES, META, worldName, paintTotals, applyMotion } from "./common.js";
import { lockWords } from "./locks.js";
import { playLevel } from "./panel.js";

/** A world's card (home) or head (world page): its stars, and when it is shut, what opens it
 * and where to earn the stars ([data-lock-text], [data-lock-go]). Returns whether it is open. */
function paintWorld(node, p, total) {
  const n = +node.dataset.world;
  const count = +(node.dataset.levels || (META.worlds.find((w) => w.n === n) || { levels: 0 }).levels);
  const got = totalStars(p, `w${n}-`), { lock, text, guide } = lockWords(n, p, total), open = lock.open;
  $$("[data-world-stars]", node).forEach((s) => { s.textContent = got; });
  $$("[data-world-bar]", node).forEach((s) => { s.style.width = count ? `${Math.round((100 * got) / (3 * count))}%` : "0%"; });
  node.classList.toggle("locked", !open);
  node.classList.toggle("open", open);
  const badge = $("[data-lock]", node);
  if (badge) badge.textContent = open ? "Open" : `${lock.gate} ★`;
  $$("[data-lock-text]", node).forEach((t) => { t.textContent = open ? "" : text; t.hidden = open; });
  const go = $("[data-lock-go]", node);
  if (go) { go.hidden = open || !guide; if (guide) { go.href = guide.href; go.textContent = `Earn them in ${guide.name}`; } }
  const link = $("a.world-link", node);
  if (link) link.setAttribute("aria-label", open ? `${worldName(n)}: open, ${got} stars` : `${worldName(n)}: locked. ${text}`);
  return open;
}

// ---- home ------------------------------------------------------------------------
function home() {
  const { p, total } = paintTotals();
  $$(".world-card[data-world]").forEach((c) => paintWorld(c, p, total));
  // "Play" continues with the first unfinished level of an open world.
  const go = $("[data-continue]");
  if (!go) return;
  for (const w of META.worlds) {
    if (!isWorldUnlocked(w.n, total, GATES)) break;
    for (let i = 1; i <= w.levels; i++) {
      if (!(p.levels[`w${w.n}-${pad2(i)}`] || {}).stars) {
        go.href = `w${w.n}/${pad2(i)}.html`;
        go.textContent = i === 1 && w.n === 1 ? "Play" : "Continue";
        return;
      }
    }
  }
}

// ---- world ----------------------------------------------------------------------
function world() {
  const { p, total } = paintTotals();
  const head = $(".world-head[data-world]");
  const open = head ? paintWorld(head, p, total) : true;
  const banner = $("[data-lock-banner]");
  if (banner) banner.hidden = open;
  $$(".levels").forEach((l) => l.classList.toggle("locked", !open));
  $$(".level-tile[data-level]").forEach((t) => {
    const e = p.levels[t.dataset.level] || { stars: 0 };
    t.classList.toggle("done", e.stars > 0);
    starsCell($("[data-stars-earned]", t), e);
  });
  // the player's stars on the difficulty curve, under each level's number
  $$("[data-stars-for]").forEach((n) => {
    const s = (p.levels[n.dataset.starsFor] || { stars: 0 }).stars;
    n.textContent = s ? "★".repeat(s) : "·";
    n.classList.toggle("chart-stars-none", !s);
  });
}

/** A table or chart wider than its box scrolls sideways; a line above it says so. */
function scrollCues() {
  const paint = () => $$(".table-wrap, .chart-wrap").forEach((w) => {
    let cue = w.previousElementSibling;
    if (!cue || !cue.hasAttribute("data-scroll-cue")) {
      cue = document.createElement("p");
      cue.className = "scroll-cue"; cue.dataset.scrollCue = ""; cue.textContent = "Scroll sideways for more →";
      w.before(cue);
    }
    cue.hidden = w.scrollWidth <= w.clientWidth + 1;
  });
  paint();
  addEventListener("resize", paint);
}

/** A tile's stars (world levels, archive days): `e` is the level's stored entry, if any. */
function starsCell(node, e) {
  if (!node) return;
  const s = e ? e.stars : 0;
  node.dataset.starsEarned = s;
  node.setAttribute("aria-label", `${s} of 3 stars` + (e && e.best ? `, best ${e.best} moves` : ""));
  node.firstElementChild.textContent = "★".repeat(s) + "☆".repeat(3 - s);
}

// ---- dailies: today's hop and the archive (a day page's own code is day.js) -----------
/** daily.html: straight on to today's own page (it embeds only its level). */
function today() {
  const n = todayN(new Date()), href = `daily/${pad3(n)}.html`;
  const a = $("[data-today-link] a");
  if (a) { a.href = href; a.textContent = `Play today's level (#${n})`; }
  location.replace(href);
}

/** The archive: this round's days up to today and always the last week, newest first. */
function archive() {
  const now = new Date(), t = todayN(now), p = loadProgress();
  for (const li of $$("[data-days] [data-day]")) {
    const n = +li.dataset.day, ago = daysAgo(t, n);
    li.hidden = n > t && ago >= WEEK;        // later days of this round stay unlisted
    if (li.hidden) continue;
    li.style.order = ago;                    // newest first, yesterday's round included
    $("[data-day-date]", li).textContent = ago === 0 ? "today" : fmt(shift(now, -ago));
    const e = p.levels[li.dataset.level];
    li.classList.toggle("done", !!(e && e.stars));
    starsCell($("[data-stars-earned]", li), e);
  }
}

// ---- share link: play.html?d=<desc> ---------------------------------------------------
/** A share-link problem in players' words (engine messages name fields, players need less). */
export function linkError(e) {
  const m = String(e && e.message || e);
  if (/^desc:/.test(m)) return "This link doesn't hold a puzzle we can read. It may have been cut short when it was copied: ask for the whole link.";
  if (/overlaps/.test(m)) return "This link's puzzle has two pieces in the same place, so it can't be played.";
  if (/can never (reach|cover)|off the key/.test(m)) return "This link's puzzle has a light key that can never reach its lantern, so it can't be played.";
  if (/mirrors belong/.test(m)) return "This link's puzzle has mirrors but no beam of light, so it can't be played.";
  if (/key/.test(m)) return "This link's puzzle has no light key (or more than one), so it can't be played.";
  if (/square/.test(m)) return "This link's puzzle has a square block, which could slide either way, so it can't be played.";
  return "This link's puzzle doesn't fit on a Lumina board, so it can't be played.";
}

async function play() {
  paintTotals();
  const d = new URLSearchParams(location.search).get("d");
  const meta = $("#play-meta");
  const fail = (msg) => {
    $("#play-area").hidden = true;
    $("#play-error").hidden = false;
    $("#play-error-text").textContent = msg;
  };
  if (!d) { fail("This link has no puzzle in it. Every level page has a Share button that makes one."); return; }
  let lv;
  try { lv = decodeDesc(d, "shared"); } catch (e) { fail(linkError(e)); return; }
  // par by breadth-first search, in the worker: a huge crafted board can never freeze the page
  const sol = await solveAsync(lv, startState(compile(lv)));
  if (sol.outcome === "unsolvable") { fail("This puzzle has no solution: the light can never reach the lantern."); return; }
  // lumina.playable: a level solved at its start has nothing to play
  if (sol.outcome === "solved" && sol.left === 0) { fail("This puzzle is already solved at its start: there is nothing to play."); return; }
  if (sol.outcome === "solved") {
    lv.optimal = sol.left; lv.solution = sol.moves;
  } else if (meta) meta.textContent = "This board is too large to work out par here; play it for fun.";
  playLevel(lv, { record: false, desc: d });
}

// ---- how to play: demo boards ---------------------------------------------------------
function howto() {
  paintTotals();
  const demos = json("demo-data") || {};
  for (const el of $$("[data-demo]")) {
    const lv = demos[el.dataset.demo];
    if (!lv) continue;
    const fake = (tag) => document.createElement(tag);
    mountBoard(el, lv, {
      autoplay: applyMotion(),
      record: false, maxCell: 52, site: SITE, loop: true,
      controls: { moves: fake("output"), undo: fake("button"), reset: fake("button"), solution: fake("button"), result: fake("div") },
    });
  }
}

// ---- the player's progress page ------------------------------------------------------------
/** #progress-data {worlds: [{n, levels}], pars: {id: optimal}} -> fills [data-progress-*]. */
function progressPage() {
  const { p } = paintTotals();
  const cfg = json("progress-data") || { worlds: META.worlds, pars: {} };
  const today = dayNumber(new Date(), SITE.epoch), s = summary(p, cfg.worlds, cfg.pars || {}, today);
  const put = (sel, v, root = document) => $$(sel, root).forEach((n) => { n.textContent = v; });
  put("[data-progress-stars]", s.stars); put("[data-progress-solved]", s.solved);
  put("[data-progress-streak]", s.streak); put("[data-progress-best-streak]", s.bestStreak);
  // dailies out so far: the days the archive lists (this round up to today, and the last week)
  const t = todayN(new Date()), out = [];
  for (let n = 1; n <= SITE.pool; n++) if (n <= t || daysAgo(t, n) < WEEK) out.push(n);
  put("[data-progress-released]", out.length);
  put("[data-progress-dailies]", out.filter((n) => (p.levels[`d-${pad3(n)}`] || { stars: 0 }).stars).length);
  const bars = $$("[data-over-par] li"), top = Math.max(1, ...s.overPar);
  bars.forEach((li, i) => {
    $("[data-n]", li).textContent = s.overPar[i];
    $("[data-bar]", li).style.width = `${Math.round((100 * s.overPar[i]) / top)}%`;
  });
  if ($("[data-next-daily]")) countdown();
  for (const w of s.worlds) {
    const node = $(`[data-progress-world="${w.n}"]`);
    if (!node) continue;
    put("[data-world-stars]", w.stars, node); put("[data-world-solved]", w.solved, node);
    put("[data-world-at-par]", w.atPar, node); put("[data-world-levels]", w.levels, node);
    node.classList.toggle("locked", !isWorldUnlocked(w.n, s.stars, GATES));
  }
}

const PAGES = { home, world, today, archive, play, howto, progress: () => { progressPage(); addEventListener("lumina-progress", progressPage); } };

export function run(page) {
  if (PAGES[page]) PAGES[page]();
  scrollCues();
}
