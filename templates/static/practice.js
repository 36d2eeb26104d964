// The practice page (practice.html?mechanic=M&tier=T&n=K): the K-th proven level (from 1) of
// one mechanic's set in one tier (bands of par, lumina/sitedata.py PRACTICE_TIERS, shown on
// the page). The sets' sizes are the page's #practice-data; each set's levels come in small
// shards (practice/M-T-k.json: [{id, desc, par}]) fetched only for the level shown. The
// board plays as on every level page (par, stars, hints, share; progress kept under the
// level's id p-NNNNN). Contract: #board[data-desc][data-par], [data-practice-count].
import { decodeDesc } from "./desc.js";
import { playLevel } from "./panel.js";
import { $, $$, json, paintTotals } from "./common.js";
import { twists } from "./teach.js";
import { extraCss } from "./lazycss.js";

const href = (m, t, n) => `practice.html?mechanic=${m}&tier=${t}&n=${n}`;

function fail(msg) {
  $("#play-area").hidden = true;
  $("#play-error").hidden = false;
  $("#play-error-text").textContent = msg;
}

export async function practice() {
  paintTotals();
  extraCss();
  const d = json("practice-data"), q = new URLSearchParams(location.search);
  const size = (m, t) => d.counts[`${m}-${t}`] || 0;
  const first = d.mechanics.find((m) => d.tiers.some((t) => size(m, t))) || d.mechanics[0];
  const m = d.mechanics.includes(q.get("mechanic")) ? q.get("mechanic") : first;
  const t = d.tiers.includes(q.get("tier")) ? q.get("tier") : d.tiers.find((x) => size(m, x)) || d.tiers[0];
  const count = size(m, t), n = Math.max(1, Math.floor(+q.get("n") || 1));
  // the picks: a mechanic keeps the tier, a tier keeps the mechanic; empty sets lead nowhere
  for (const a of $$("[data-pick-mechanic]")) {
    const k = a.dataset.pickMechanic, tier = size(k, t) ? t : d.tiers.find((x) => size(k, x)) || t;
    a.href = href(k, tier, 1);
    if (k === m) a.setAttribute("aria-current", "true");
  }
  for (const a of $$("[data-pick-tier]")) {
    const k = a.dataset.pickTier;
    a.href = href(m, k, 1);
    if (k === t) a.setAttribute("aria-current", "true");
    if (!size(m, k)) { a.setAttribute("aria-disabled", "true"); a.tabIndex = -1; a.href = href(m, t, n); }
  }
  const name = (a) => (a ? a.textContent.trim() : "");
  const label = name($(`[data-pick-mechanic="${m}"]`));
  $("[data-practice-set]").textContent = `${label}, ${t}`;
  $("[data-practice-count]").textContent = count;
  $("[data-practice-n]").textContent = Math.min(n, count);
  const prev = $("[data-practice-prev]"), next = $("[data-practice-next]");
  prev.href = href(m, t, n - 1); prev.hidden = n <= 1;
  next.href = href(m, t, n + 1); next.hidden = n >= count;
  if (!count) { fail(`No ${m} levels in the ${t} tier yet: pick another tier or mechanic.`); return; }
  if (n > count) { fail(`The ${m} ${t} set has ${count} levels: there is no level ${n}.`); return; }
  let row;
  try {
    const rows = await (await fetch(`practice/${m}-${t}-${Math.ceil(n / d.shard)}.json`)).json();
    row = rows[(n - 1) % d.shard];
  } catch { /* offline and never fetched */ }
  if (!row) { fail("This practice level could not be loaded. Connect once to fetch it, then it plays offline."); return; }
  const lv = decodeDesc(row.desc, row.id);
  lv.optimal = row.par;
  // the board's box stays the reserved 6x6 (no layout shift: a smaller board sits centred in it)
  const root = document.documentElement.style;
  if (lv.width > 6 || lv.height > 6) { root.setProperty("--bw", lv.width); root.setProperty("--bh", lv.height); }
  document.title = `Practice: ${m}, ${t} ${n} · Lumina`;
  import("./teach.js").then((x) => x.teach(twists(lv)));
  playLevel(lv, { desc: row.desc, next: n < count ? href(m, t, n + 1) : null, nextLabel: "Next level" });
}
