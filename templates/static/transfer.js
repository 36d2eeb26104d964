// Progress between devices without a server (the progress page): export to a file or to a
// link (progress.html#import=<base64url JSON>), import from either, merging so the best
// result on each level wins (most stars, fewest unaided moves; daily-streak days joined). A
// file that is not Lumina progress (malformed, too big, unknown ids, prototype keys, wrong
// types) is refused whole with one sentence, and nothing changes.
import { KEY, loadProgress } from "./progress.js";

export const FORMAT = "lumina-progress";
const ID = /^(?:w\d{1,2}-\d{2,3}|d-\d{3,4}|p-\d{5})$/;
const MAX_BYTES = 1 << 20, MAX_LEVELS = 20000, MAX_DAYS = 4000;
export const REFUSED = "This is not a Lumina progress file, so nothing was changed.";

/** The progress as an export document (plain objects, ids sorted). */
export function exportDoc(p = loadProgress()) {
  const levels = {};
  for (const id of Object.keys(p.levels).sort()) levels[id] = { stars: p.levels[id].stars, best: p.levels[id].best };
  return { format: FORMAT, version: 1, levels, days: p.days.slice() };
}

/** Parse an export's text: {levels (null-prototype), days} or throws Error(REFUSED). */
export function parseDoc(text) {
  const no = () => { throw new Error(REFUSED); };
  if (typeof text !== "string" || text.length > MAX_BYTES) no();
  let d;
  try { d = JSON.parse(text); } catch { no(); }
  if (!d || typeof d !== "object" || Array.isArray(d) || d.format !== FORMAT || d.version !== 1) no();
  const lv = d.levels, days = d.days ?? [];
  if (!lv || typeof lv !== "object" || Array.isArray(lv) || !Array.isArray(days) || days.length > MAX_DAYS) no();
  const ids = Object.keys(lv);
  if (ids.length > MAX_LEVELS) no();
  const levels = Object.create(null);
  for (const id of ids) {
    const e = lv[id];
    if (!ID.test(id) || !e || typeof e !== "object" || Array.isArray(e)) no();
    if (!Number.isInteger(e.stars) || e.stars < 0 || e.stars > 3) no();
    if (!(e.best === null || e.best === undefined || (Number.isInteger(e.best) && e.best > 0 && e.best < 10000))) no();
    levels[id] = { stars: e.stars, best: e.best ?? null };
  }
  if (!days.every((n) => Number.isInteger(n) && Math.abs(n) < 1e6)) no();
  return { levels, days };
}

/** Merge `b` into `a`: per level the most stars and the fewest unaided moves; days joined. */
export function merge(a, b) {
  const levels = Object.create(null);
  for (const id of new Set([...Object.keys(a.levels), ...Object.keys(b.levels)])) {
    const x = a.levels[id], y = b.levels[id];
    if (!x || !y) { levels[id] = { ...(x || y) }; continue; }
    const bests = [x.best, y.best].filter((v) => v != null);
    levels[id] = { stars: Math.max(x.stars, y.stars), best: bests.length ? Math.min(...bests) : null };
  }
  const days = [...new Set([...a.days, ...b.days])].sort((m, n) => m - n).slice(-400);
  return { levels, days };
}

/** base64url of UTF-8 text, and back. */
const toB64 = (s) => btoa(String.fromCharCode(...new TextEncoder().encode(s))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const fromB64 = (s) => new TextDecoder().decode(Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)));

export const linkFor = (doc, base) => `${base.split("#")[0]}#import=${toB64(JSON.stringify(doc))}`;

/** Import `text`: merge it into the stored progress. Returns how many levels it brought. */
export function importText(text) {
  const doc = parseDoc(text), merged = merge(loadProgress(), doc);
  localStorage.setItem(KEY, JSON.stringify({ levels: { ...merged.levels }, days: merged.days }));
  return Object.keys(doc.levels).length;
}

/** The progress page's buttons, and an #import= link opened here. `done` repaints the page. */
export function setupTransfer(done) {
  const $ = (s) => document.querySelector(s), status = $("[data-transfer-status]");
  if (!status) return;
  const say = (t) => { status.textContent = t; };
  const run = (text) => {
    try { const n = importText(text); say(`Imported: ${n} level${n === 1 ? "" : "s"} merged, the best result on each kept.`); done(); } catch { say(REFUSED); }
  };
  $("[data-export-file]").addEventListener("click", () => {
    const blob = new Blob([JSON.stringify(exportDoc(), null, 1) + "\n"], { type: "application/json" });
    const a = Object.assign(document.createElement("a"), { href: URL.createObjectURL(blob), download: "lumina-progress.json" });
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    say("Saved lumina-progress.json: open it on the other device's Progress page.");
  });
  $("[data-export-link]").addEventListener("click", async () => {
    const url = linkFor(exportDoc(), location.href), box = $("[data-export-url]");
    box.value = url; box.hidden = false; box.select();
    try { await navigator.clipboard.writeText(url); say("Link copied: open it on the other device."); } catch { say("Copy this link and open it on the other device."); }
  });
  $("[data-import-file]").addEventListener("change", async (e) => {
    const f = e.target.files && e.target.files[0];
    if (f) run(f.size > MAX_BYTES ? "" : await f.text());
    e.target.value = "";
  });
  const m = /^#import=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (location.hash.startsWith("#import=")) {
    let text = "";
    try { text = m ? fromB64(m[1]) : ""; } catch { /* not base64 */ }
    history.replaceState(null, "", location.pathname + location.search);
    run(text);
  }
}
