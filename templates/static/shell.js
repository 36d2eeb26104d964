// The page shell around the board (lumina/render/pages.py, docs/SITE.md): world locks that
// hold on level pages and links, and the daily date rule (today's page, the archive of past
// days, a day page's date). The progress page's own code is progress-page.js. Every rule comes from the
// page's #site-data (lumina.sitedata.site_data(): gates, pool, epoch, star rule); stored
// progress comes from progress.js. Never throws on missing or corrupt storage.
import { loadProgress, totalStars } from "./progress.js";

export const $ = (s, r = document) => r.querySelector(s);
export const $$ = (s, r = document) => Array.from(r.querySelectorAll(s));
export const pad3 = (n) => String(n).padStart(3, "0");

export function json(id, fallback) {
  const n = document.getElementById(id);
  if (!n) return fallback;
  try { return JSON.parse(n.textContent); } catch { return fallback; }
}
export const SITE = json("site-data", { gates: {}, pool: 1, epoch: "1970-01-01", stars: {} });
const META = json("site-meta", { worlds: [] });
const ROOT = document.body.dataset.root || "";
export const worldName = (n) => (META.worlds.find((w) => w.n === n) || { name: `World ${n}` }).name;

// ---- the date rule ------------------------------------------------------------------
const DAY_MS = 86400000;
/** Days from the site's epoch to the player's local calendar `date`. */
export function dayNumber(date = new Date(), site = SITE) {
  const [y, m, d] = site.epoch.split("-").map(Number);
  return Math.round((Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) - Date.UTC(y, m - 1, d)) / DAY_MS);
}
/** Today's index into the daily pool (0-based; level d-(index+1)). */
export const dayIndex = (date = new Date(), site = SITE) => ((dayNumber(date, site) % site.pool) + site.pool) % site.pool;
/** The local calendar date `k` days from `date`. */
export const shift = (date, k) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + k);
const fmt = (date) => date.toLocaleDateString(undefined, { weekday: "short", month: "short", day: "numeric" });

// ---- locks ----------------------------------------------------------------------------
const campaignStars = () => totalStars(loadProgress(), "w");
/** {open, gate, need, total} for world `n` with the stored progress. */
export function worldLock(n, total = campaignStars()) {
  const gate = SITE.gates[String(n)] ?? 0;
  return { open: total >= gate, gate, need: Math.max(0, gate - total), total };
}

/** A link into another world shows the lock instead of walking in while that world is shut. */
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
    a.title = `${worldName(n)} is locked: it opens at ${lock.gate} stars; you have ${lock.total}, ${lock.need} more to go`;
    a.setAttribute("aria-label", a.title);
  }
}

function levelLocks() {
  const world = +document.body.dataset.world;
  const total = campaignStars(), lock = worldLock(world, total);
  const play = $(".play"), cover = $("[data-lock-cover]");
  if (play && cover) {
    play.classList.toggle("is-locked", !lock.open);
    cover.hidden = lock.open;
    for (const el of [$(".board-frame", play), $(".controls", play)]) if (el) el.inert = !lock.open;
    if (!lock.open) {
      $("[data-lock-text]", cover).textContent =
        `${worldName(world)} opens at ${lock.gate} ★. You have ${lock.total}: ${lock.need} more to go.`;
      const prev = world - 1, go = $("[data-lock-go]", cover);
      if (go && META.worlds.some((w) => w.n === prev)) {
        go.href = `${ROOT}w${prev}/index.html`; go.textContent = `Earn stars in ${worldName(prev)}`;
      }
    }
  }
  $$("a[data-world]").forEach((a) => lockLink(a, total));
  // A win may open a gate (or the result offers the next world): settle links after pages.js.
  document.addEventListener("lumina:win", () => {
    const now = campaignStars(), data = json("level-data", {});
    $$("a[data-world]").forEach((a) => lockLink(a, now));
    if (data.next && data.next_world) {
      for (const a of $$("#result a")) {
        if (a.getAttribute("href") === data.next || a.dataset.href === data.next) {
          a.dataset.world = data.next_world; lockLink(a, now);
        }
      }
    }
  });
}

// ---- dailies ----------------------------------------------------------------------------
function today() {
  // daily.html: straight on to today's own page (it embeds only its level).
  const n = dayIndex() + 1, href = `daily/${pad3(n)}.html`;
  const a = $("[data-today-link] a");
  if (a) { a.href = href; a.textContent = `Play today's level (#${n})`; }
  location.replace(href);
}

function starsCell(node, e) {
  const s = e ? e.stars : 0;
  node.dataset.starsEarned = s;
  node.setAttribute("aria-label", `${s} of 3 stars${e && e.best ? `, best ${e.best} moves` : ""}`);
  node.firstElementChild.textContent = "★".repeat(s) + "☆".repeat(3 - s);
}

function archive() {
  const now = new Date(), t = dayIndex(now) + 1, p = loadProgress();
  for (const li of $$("[data-days] [data-day]")) {
    const n = +li.dataset.day;
    li.hidden = n > t;                       // future days of this round stay unlisted
    if (li.hidden) continue;
    $("[data-day-date]", li).textContent = n === t ? "today" : fmt(shift(now, n - t));
    const e = p.levels[li.dataset.level];
    li.classList.toggle("done", !!(e && e.stars));
    starsCell($("[data-stars-earned]", li), e);
  }
}

function dayPage() {
  const now = new Date(), t = dayIndex(now) + 1, n = +document.body.dataset.day;
  const label = $("[data-day-date]");
  if (label) label.textContent = n === t ? "today's level" : n < t ? fmt(shift(now, n - t)) : `comes in ${n - t} day${n - t === 1 ? "" : "s"}`;
  $$("[data-day-link]").forEach((a) => { a.hidden = +a.dataset.dayLink > t; });
}

const PAGES = { today, archive };
const page = document.body.dataset.page;
$$("[data-total-stars]").forEach((n) => { n.textContent = campaignStars(); });
if (page === "level" && document.body.dataset.world) levelLocks();
if (page === "level" && document.body.dataset.day) dayPage();
if (PAGES[page]) PAGES[page]();
