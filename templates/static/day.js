// A daily level's page (day.html, loaded by pages.js): names its date, counts down to the next
// daily ([data-next-daily]) and offers the next day only once it has come. Also the date helpers of the archive and today's hop (pages-more.js). The date rule is core.js's
// (dayIndex: the one held to Python's vectors), epoch and pool #site-data's; every daily
// page loads common.js, so its helpers cost nothing here.
import { dayIndex } from "./core.js";
import { $, $$, SITE } from "./common.js";

/** Days of the last week always stay listed, even across the start of a new round. */
export const WEEK = 7;
/** The local calendar date `k` days from `date`. */
export const shift = (date, k) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + k);
export const fmt = (date) => date.toLocaleDateString(undefined, { weekday: "short", month: "short", day: "numeric" });
/** Today's day (1-based: level d-NNN) and how many days ago day `m` came, round-robin. */
export const todayN = (now) => dayIndex(now, SITE) + 1;
export const daysAgo = (t, m) => (((t - m) % SITE.pool) + SITE.pool) % SITE.pool;

/** "5 h 12 min": the time left until the next local midnight, when the next daily comes. */
export function untilNext(now) {
  const mins = Math.max(1, Math.ceil((shift(now, 1) - now) / 60000)), h = Math.floor(mins / 60), m = mins % 60;
  return h ? `${h} h ${m} min` : `${m} min`;
}

/** [data-next-daily]: the countdown to the next daily, kept current each minute. */
export function countdown() {
  const paint = () => $$("[data-next-daily]").forEach((n) => { n.textContent = `next daily in ${untilNext(new Date())}`; });
  paint();
  setInterval(paint, 30000);
}

function dayPage() {
  const now = new Date(), t = todayN(now), n = +document.body.dataset.day;
  // past: this round up to today, and the last week (which may reach into the last round)
  const past = (m) => m <= t || daysAgo(t, m) < WEEK;
  const label = $("[data-day-date]");
  if (label) label.textContent = n === t ? "today's level" : past(n) ? fmt(shift(now, -daysAgo(t, n))) : `comes in ${n - t} day${n - t === 1 ? "" : "s"}`;
  $$("[data-day-link]").forEach((a) => { a.hidden = !past(+a.dataset.dayLink); });
}

if (document.body.dataset.page === "level" && document.body.dataset.day) { dayPage(); countdown(); }
