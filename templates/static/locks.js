// Locks that guide: a shut world in words (what opens it, what the player has, and the first
// open world that still has stars to win), on links into it, on its level pages' lock card,
// and (pages-more.js) on the home page's cards and the world page's banner. Loaded only when
// something on the page is locked, and after a win (a gate may have opened).
import { totalStars, isWorldUnlocked } from "./progress.js";
import { $, $$, GATES, META, ROOT, worldName, worldLock } from "./common.js";

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
    const icon = $(".lock-icon");
    a.replaceChildren(...(icon ? [icon.cloneNode(true)] : []), `${a.dataset.label.replace(/[‹›]/g, "").trim()} · ${lock.gate} ★`);
    a.title = `Locked. ${text}`;
    a.setAttribute("aria-label", a.title);
  }
}
export const lockLinks = (p, total) => $$("a[data-world]").forEach((a) => lockLink(a, p, total));

/** A shut world's level page: the board dimmed and inert under the lock card, which says
 * what opens the world and where to earn the stars. */
export function lockCover(world, p, total) {
  const { lock, text, guide: g } = lockWords(world, p, total), play = $(".play"), cover = $("[data-lock-cover]");
  if (!play || !cover) return;
  play.classList.toggle("is-locked", !lock.open);
  cover.hidden = lock.open;
  for (const el of [$(".board-frame", play), $(".controls", play)]) if (el) el.inert = !lock.open;
  if (lock.open) return;
  $("[data-lock-text]", cover).textContent = text;
  const go = $("[data-lock-go]", cover);
  if (go && g) { go.href = g.href; go.textContent = `Earn them in ${g.name}`; }
}
