// The campaign's ending, shown in the result after its last level is won (panel.js loads it
// then): the stars overall, what is left to perfect (and where to start), and the daily.
import { $, META, ROOT, pad2 } from "./common.js";
import { extraCss } from "./lazycss.js";

function para(...parts) {
  const p = document.createElement("p");
  p.append(...parts);
  return p;
}

function link(href, text) {
  const a = document.createElement("a");
  a.href = href; a.textContent = text;
  return a;
}

/** Fill the ending into the result element `res` for progress `p` and `total` campaign stars;
 * resolves once its styles apply (the result scrolls into view after that: styles arriving
 * after the scroll grew the box past the fold on a busy phone). */
export function ending(res, p, total) {
  const styled = extraCss();
  const max = META.worlds.reduce((a, w) => a + 3 * w.levels, 0);
  const todo = [];
  for (const w of META.worlds) {
    for (let i = 1; i <= w.levels; i++) if (((p.levels[`w${w.n}-${pad2(i)}`] || {}).stars || 0) < 3) todo.push([w, i]);
  }
  const box = document.createElement("div");
  box.className = "ending"; box.dataset.ending = "";
  const h = document.createElement("h2");
  h.textContent = "The lantern is lit: you reached the end of the campaign.";
  box.append(h, para(`Stars overall: ${total} of ${max} ★.`));
  if (todo.length) {
    const [w, i] = todo[0];
    box.append(para(`Left to perfect: ${todo.length} level${todo.length === 1 ? "" : "s"} under ★★★. Start with `,
      link(`${ROOT}w${w.n}/${pad2(i)}.html`, `${w.name} ${i}`), "."));
  } else box.append(para("Every level at ★★★: a perfect campaign."));
  if ($('.top-nav a[href$="daily.html"]')) box.append(para("A new puzzle waits every day: ", link(`${ROOT}daily.html`, "today's daily"), "."));
  const old = $("[data-ending]", res);
  if (old) old.replaceWith(box); else res.append(box);
  return styled;
}
