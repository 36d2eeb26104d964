// The page shell around the board (lumina/render/pages.py, docs/SITE.md): the star total and
// world locks that hold on level pages and on links into other worlds. Gates come from the
// page's #site-data (lumina.sitedata), stored progress from progress.js. The daily pages'
// code is days.js, the progress page's progress-page.js. Every rule comes from the
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

$$("[data-total-stars]").forEach((n) => { n.textContent = campaignStars(); });
if (document.body.dataset.page === "level" && document.body.dataset.world) levelLocks();
