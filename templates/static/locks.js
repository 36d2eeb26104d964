// Locks that guide: a shut world in words (what opens it, what the player has, and the first
// open world that still has stars to win), on links into it, on its level pages' lock card,
// and (pages-more.js) on the home page's cards and the world page's banner. Loaded only when
// something on the page is locked, and after a win (a gate may have opened).
import { totalStars, isWorldUnlocked } from "./progress.js";
import { $, $$, GATES, META, ROOT, worldName, worldLock } from "./common.js";
import { extraCss } from "./lazycss.js";

const ICON = '<svg class="lock-icon" viewBox="0 0 11 13" aria-hidden="true"><path d="M3 6V4a2.5 2.5 0 0 1 5 0v2" fill="none" stroke="currentColor" stroke-width="1.6"/><rect x="1" y="6" width="9" height="7" rx="1.5" fill="currentColor"/></svg>';
const icon = () => { const t = document.createElement("template"); t.innerHTML = ICON; return t.content.firstChild; };

/** Where to earn the stars a lock needs: the first open world that still has stars to win,
 * {n, name, left, href} (left: stars not yet won there), or null when none has. */
export function guide(p, total) {
  for (const w of META.worlds) {
    const left = 3 * w.levels - totalStars(p, `w${w.n}-`);
    if (isWorldUnlocked(w.n, total, GATES) && left > 0) return { n: w.n, name: w.name, left, href: `${ROOT}w${w.n}/index.html` };
  }
  return null;
}

/** A shut world in words: what opens it, what the player has, and where to earn the rest. */
export function lockWords(n, p, total) {
  const lock = worldLock(n, total), g = guide(p, total);
  return {
    lock, guide: g,
    text: `${worldName(n)} opens at ${lock.gate} ★. You have ${total}: ${lock.need} more to go.`
      + (g ? ` ${g.name} still has ${g.left} ★ to win.` : ""),
  };
}

/** A link into a shut world (a[data-world]: prev/next, the result's next level) shows the lock
 * and the gate beside its label, and says the rest in its title; it still leads to the
 * level's page, whose lock card guides. */
function lockLink(a, p, total) {
  const n = +a.dataset.world, { lock, text } = lockWords(n, p, total);
  if (!a.dataset.label) a.dataset.label = a.textContent;
  a.classList.toggle("locked-link", !lock.open);
  if (lock.open) {
    a.textContent = a.dataset.label;
    for (const k of ["title", "aria-label"]) a.removeAttribute(k);
  } else {
    a.replaceChildren(icon(), `${a.dataset.label.replace(/[‹›]/g, "").trim()} · ${lock.gate} ★`);
    a.title = `Locked. ${text}`;
    a.setAttribute("aria-label", a.title);
  }
}
export const lockLinks = (p, total) => {
  const links = $$("a[data-world]");
  if (links.some((a) => !worldLock(+a.dataset.world, total).open)) extraCss();
  links.forEach((a) => lockLink(a, p, total));
};

/** The lock card over a level page's board (made here, when a page needs it). */
function cover_() {
  const board = $(".play-board");
  if (!board) return null;
  if (!$("[data-lock-cover]", board)) {
    board.insertAdjacentHTML("beforeend", `<div class="lock-cover" data-lock-cover hidden><p class="lock-title">${ICON}Locked</p>`
      + `<p data-lock-text></p><p><a class="button primary" href="${ROOT}index.html" data-lock-go>Back to the worlds</a></p></div>`);
  }
  return $("[data-lock-cover]", board);
}

/** A shut world's level page: the board dimmed and inert under the lock card, which says
 * what opens the world and where to earn the stars. */
export async function lockCover(world, p, total) {
  const { lock, text, guide: g } = lockWords(world, p, total), play = $(".play");
  if (!lock.open) await extraCss();
  const cover = lock.open ? $("[data-lock-cover]") : cover_();
  if (!play || !cover) return;
  play.classList.toggle("is-locked", !lock.open);
  cover.hidden = lock.open;
  for (const el of [$(".board-frame", play), $(".controls", play)]) if (el) el.inert = !lock.open;
  if (lock.open) return;
  $("[data-lock-text]", cover).textContent = text;
  const go = $("[data-lock-go]", cover);
  if (go && g) { go.href = g.href; go.textContent = `Earn them in ${g.name}`; }
}
