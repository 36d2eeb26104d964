// The daily pages (lumina/render/pages.py: dailies): daily.html goes straight on to today's
// own page, the archive lists the days of this round up to today (newest first, with their
// dates and stars), and a day page names its date and offers the next day only once it has
// come. The date rule (epoch, pool) is #site-data's.
// Self-contained (no shell.js): a day page has no world to lock, so it loads only this.
import { loadProgress } from "./progress.js";

const $ = (s, r = document) => r.querySelector(s);
const $$ = (s, r = document) => Array.from(r.querySelectorAll(s));
const pad3 = (n) => String(n).padStart(3, "0");
let SITE = { pool: 1, epoch: "1970-01-01" };
try { SITE = JSON.parse(document.getElementById("site-data").textContent); } catch { /* keep the fallback */ }

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

/** Days of the last week always stay listed, even across the start of a new round. */
export const WEEK = 7;

function archive() {
  const now = new Date(), t = dayIndex(now) + 1, p = loadProgress();
  for (const li of $$("[data-days] [data-day]")) {
    const n = +li.dataset.day, ago = (((t - n) % SITE.pool) + SITE.pool) % SITE.pool;   // days ago
    li.hidden = n > t && ago >= WEEK;        // later days of this round stay unlisted
    if (li.hidden) continue;
    li.style.order = ago;                    // newest first, yesterday's round included
    $("[data-day-date]", li).textContent = ago === 0 ? "today" : fmt(shift(now, -ago));
    const e = p.levels[li.dataset.level];
    li.classList.toggle("done", !!(e && e.stars));
    starsCell($("[data-stars-earned]", li), e);
  }
}

function dayPage() {
  const now = new Date(), t = dayIndex(now) + 1, n = +document.body.dataset.day;
  // past: this round up to today, and the last week (which may reach into the last round)
  const ago = (m) => (((t - m) % SITE.pool) + SITE.pool) % SITE.pool;
  const past = (m) => m <= t || ago(m) < WEEK;
  const label = $("[data-day-date]");
  if (label) label.textContent = n === t ? "today's level" : past(n) ? fmt(shift(now, -ago(n))) : `comes in ${n - t} day${n - t === 1 ? "" : "s"}`;
  $$("[data-day-link]").forEach((a) => { a.hidden = !past(+a.dataset.dayLink); });
}

const PAGES = { today, archive, level: dayPage };
const run = PAGES[document.body.dataset.page];
if (run) run();
