// The daily pages (lumina/render/pages.py: dailies): daily.html goes straight on to today's
// own page, the archive lists the days of this round up to today (newest first, with their
// dates and stars). The date helpers and a day page's own code are day.js's (a day page
// loads only that).
import { loadProgress } from "./progress.js";
import { $, $$, pad3 } from "./pages.js";
import { WEEK, shift, fmt, todayN, daysAgo } from "./day.js";

function today() {
  // daily.html: straight on to today's own page (it embeds only its level).
  const n = todayN(new Date()), href = `daily/${pad3(n)}.html`;
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

const PAGES = { today, archive };
const run = PAGES[document.body.dataset.page];
if (run) run();
