// Lumina page chrome, shared by every page script: the page's data (#site-data, #site-meta),
// star totals, whether a world is open (locks.js words a shut one), the player's settings
// (motion, sound) and small DOM helpers (toast.js, loaded when needed, shows a message). It imports no page script, so no page
// script imports another in a circle (tests/test_static_modules.py). Missing or corrupt
// storage never makes a page throw.
import { loadProgress, totalStars, isWorldUnlocked } from "./progress.js";

export const $ = (s, r = document) => r.querySelector(s);
export const $$ = (s, r = document) => Array.from(r.querySelectorAll(s));
export const pad2 = (n) => String(n).padStart(2, "0");
export const pad3 = (n) => String(n).padStart(3, "0");

export function json(id, fallback = null) {
  const n = document.getElementById(id);
  if (!n) return fallback;
  try { return JSON.parse(n.textContent); } catch { return fallback; }
}

/** The page's #site-data (lumina/sitedata.py): gates, pool, epoch, stars, kinds. */
export function siteData(doc = document) {
  const n = doc.getElementById("site-data");
  if (!n) throw new Error("this page has no #site-data");
  return JSON.parse(n.textContent);
}
export const SITE = siteData();
export const GATES = SITE.gates;
export const META = json("site-meta", { worlds: [] });
export const worldName = (n) => (META.worlds.find((w) => w.n === n) || { name: `World ${n}` }).name;
export const ROOT = document.body.dataset.root || "";

/** Campaign stars only (level ids w1-.. w5-): the gates count the campaign, not the dailies. */
export const campaignStars = (p) => totalStars(p, "w");

/** The next locked world's gate above `total`, or null when every world is open. */
function nextGate(total) {
  for (const w of META.worlds) if (!isWorldUnlocked(w.n, total, GATES)) return { world: w.n, gate: GATES[w.n], need: GATES[w.n] - total };
  return null;
}

export function paintTotals() {
  const p = loadProgress(), total = campaignStars(p), g = nextGate(total);
  $$("[data-total-stars]").forEach((n) => { n.textContent = total; });
  $$("[data-next-gate]").forEach((n) => {
    n.textContent = g ? `${g.need} more ★ opens ${worldName(g.world)} (world ${g.world})` : "Every world is open.";
  });
  $$("[data-next-gate-short]").forEach((n) => {
    n.textContent = g ? `${total}/${g.gate}` : "all open";
    n.title = g ? `${g.need} more stars open ${worldName(g.world)}` : "Every world is open";
  });
  return { p, total };
}

/** {open, gate, need, total} for world `n` with `total` campaign stars (locks.js words it). */
export function worldLock(n, total) {
  const gate = GATES[n] ?? 0;
  return { open: isWorldUnlocked(n, total, GATES), gate, need: Math.max(0, gate - total), total };
}

/** #best: the player's fewest moves on level `id` and its stars. */
export function showBest(id) {
  const e = loadProgress().levels[id];
  const b = $("#best");
  if (b) b.textContent = e && e.best ? `${e.best} ${"★".repeat(e.stars)}` : "–";
}

// ---- the player's settings (motion, sound), kept in this browser -------------------------
const SETTINGS = "lumina.settings.v1";
/** {motion?: bool, sound?: bool}: only what the player chose; unset means the default. */
export function settings() {
  try {
    const s = JSON.parse(localStorage.getItem(SETTINGS));
    return s && typeof s === "object" && !Array.isArray(s) ? s : {};
  } catch { return {}; }
}
export function saveSetting(k, v) {
  try { localStorage.setItem(SETTINGS, JSON.stringify({ ...settings(), [k]: v })); } catch { /* full or blocked */ }
}
/** Motion is on unless the player turned it off here, or the system asks for reduced motion
 * and the player has not turned it on here. <html data-motion="on|off"> drives the CSS. */
export function applyMotion() {
  const m = settings().motion, on = typeof m === "boolean" ? m : !matchMedia("(prefers-reduced-motion: reduce)").matches;
  document.documentElement.dataset.motion = on ? "on" : "off";
  return on;
}
