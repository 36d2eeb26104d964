// Teach in place (daily and practice pages): for each twist mechanic on the board that the
// player has not met in the campaign (no star yet in the world that teaches it), a short
// explainer with that world's tutorial playing itself on a small board; for one they have
// met, a one-line reminder. Contract: one visible [data-explain="MECHANIC"] per twist
// mechanic on the board, data-met "true" | "false". The words and tutorials are teach.json
// (lumina/render/pages.py: teach), fetched only here.
import { mountBoard } from "./board.js";
import { loadProgress } from "./progress.js";
import { $, ROOT, SITE, applyMotion } from "./common.js";
import { extraCss } from "./lazycss.js";

/** The twist mechanics of a level, in its label's order (Level.mechanics): sand, ice, rime, beam. */
export const twists = (lv) => [...["sand", "ice", "rime"].filter((k) => lv.blocks.some((b) => b.kind === k)), ...(lv.win === "beam" ? ["beam"] : [])];

function el(tag, cls, text) {
  const n = document.createElement(tag);
  if (cls) n.className = cls;
  if (text) n.textContent = text;
  return n;
}

/** Has the player met mechanic `t` (teach.json's entry)? A star in the world that teaches it. */
const met = (p, t) => Object.keys(p.levels).some((id) => id.startsWith(`w${t.world}-`) && p.levels[id].stars > 0);

export async function teach(kinds, slot = $("[data-teach]")) {
  if (!slot || !kinds.length) return;
  let data;
  try { data = await (await fetch(`${ROOT}teach.json`)).json(); } catch { return; }
  await extraCss();
  const p = loadProgress();
  slot.replaceChildren();
  for (const k of kinds) {
    const t = data[k];
    if (!t) continue;
    const known = met(p, t), box = el(known ? "p" : "section", "explain");
    box.dataset.explain = k; box.dataset.met = known;
    const how = el("a", null, "how it works");
    how.href = `${ROOT}how-to-play.html#${k}`;
    if (known) {
      box.append(el("strong", null, `${t.name}: `), `${t.remind} `, how);
    } else {
      const head = el("h2", null, `New here: ${t.name}`), words = el("p", null, `${t.words} `);
      const frame = el("div", "board-frame explain-board"), board = el("div", "board demo-board");
      frame.style.setProperty("--w", t.level.width); frame.style.setProperty("--h", t.level.height);
      board.setAttribute("aria-label", `${t.name}: ${t.world_name}'s first level playing itself`);
      frame.append(board);
      words.append(`${t.world_name} teaches it; its first level plays here. `, how, ".");
      box.append(head, words, frame);
      slot.append(box);
      const fake = (tag) => document.createElement(tag);
      // each small board in a task of its own, when the page is idle: the player's board first
      (window.requestIdleCallback || setTimeout)(() => mountBoard(board, { ...t.level, id: `teach-${k}` }, {
        autoplay: applyMotion(), record: false, maxCell: 30, site: SITE,
        controls: { moves: fake("output"), undo: fake("button"), reset: fake("button"), solution: fake("button"), result: fake("div") },
      }));
      continue;
    }
    slot.append(box);
  }
}
