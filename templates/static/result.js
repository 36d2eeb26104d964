// The result after a win (panel.js loads this module then): the verdict in words, try again
// and the next level, a toast when a gate opens, links into worlds re-locked or opened, the
// campaign's ending after its last level (ending.js), all kept in view, on a phone as on a
// laptop. Also the share link, made when the player asks for it, and a daily's result to share
// (spoiler-free: "Lumina #88 ★★★ 13/13").
import { isWorldUnlocked } from "./progress.js";
import { $, SITE, GATES, META, ROOT, paintTotals, showBest, applyMotion } from "./common.js";
import { toast } from "./toast.js";
import { lockLinks } from "./locks.js";

function button(text, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button"; b.className = cls; b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

/** Fill #result after a win of `level` on controller `ctl`; `before`: campaign stars before
 * it. Returns the campaign stars now. */
export async function win(ctl, level, { next, nextLabel, nextWorld, ending }, before) {
  const res = $("#result");
  const { p, total } = paintTotals();
  if (!res || !ctl.game.result()) return total;
  const { moves, optimal, stars: st, helped } = ctl.game.result();
  const starsEl = $(".result-stars", res), text = $(".result-text", res), actions = $(".result-actions", res);
  showBest(level.id);
  if (starsEl) starsEl.textContent = "★".repeat(st) + "☆".repeat(3 - st);
  if (text) {
    const verdict = helped ? `With help, ${"★".repeat(SITE.stars.help_cap)} at most. Reset and find it yourself for ★★★.`
      : st === 3 ? (moves < optimal ? "Under par?! That should be impossible — tell us." : "Perfect: you matched par.")
        : st === 2 ? `Within ${moves - optimal} of par. ${optimal} is possible.` : `Par is ${optimal}. Can you find a shorter way?`;
    text.textContent = `Solved in ${moves} move${moves === 1 ? "" : "s"} (par ${optimal}). ${verdict}`;
  }
  if (actions) {
    actions.replaceChildren();
    if (st < 3 || helped) actions.append(button("Try again", "button", () => ctl.reset()));
    if (next) {
      const a = document.createElement("a");
      a.className = "button primary"; a.href = next; a.textContent = nextLabel || "Next level";
      if (nextWorld) a.dataset.world = nextWorld;
      actions.append(a);
    }
  }
  const day = document.body.dataset.day;
  if (day && actions) {
    const said = resultText(+day, st, moves, optimal, helped), b = button("Share result", "button", () => shareText(said));
    b.dataset.shareResult = said;
    actions.append(b);
  }
  lockLinks(p, total);   // a win may open a gate
  for (const w of META.worlds) {
    if (!isWorldUnlocked(w.n, before, GATES) && isWorldUnlocked(w.n, total, GATES)) toast(`${w.name} is open!`);
  }
  if (ending) await (await import("./ending.js")).ending(res, p, total);
  res.dataset.filled = "";
  requestAnimationFrame(() => res.scrollIntoView({ block: "nearest", behavior: applyMotion() ? "smooth" : "auto" }));
  return total;
}

/** A daily's result to share, spoiler-free (no board, no moves): "Lumina #88 ★★★ 13/13". */
export const resultText = (day, st, moves, par, helped) =>
  `Lumina #${day} ${"★".repeat(st)}${"☆".repeat(3 - st)} ${moves}/${par}${helped ? " (with help)" : ""}`;

/** The system's share sheet on a touch device, else the clipboard (a prompt when neither works). */
async function shareText(text, url = null) {
  try {
    if (navigator.share && matchMedia("(pointer: coarse)").matches) { await navigator.share(url ? { title: document.title, url } : { text }); return; }
    await navigator.clipboard.writeText(url || text);
    toast(url ? "Link copied" : `Copied: ${text}`);
  } catch {
    window.prompt(url ? "Share this link" : "Share your result", url || text);
  }
}

/** Share a level as a link: `what` is its share text, or the level (desc.js writes its text).
 * The system's share sheet on a touch device, else the clipboard (a prompt when neither works). */
export async function share(what) {
  const desc = typeof what === "string" ? what : (await import("./desc.js")).encodeDesc(what);
  await shareText(null, new URL(ROOT + "play.html?d=" + encodeURIComponent(desc), location.href).href);
}
