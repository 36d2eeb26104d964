// Lumina progress: stars and best move counts in localStorage (key lumina.progress.v1),
// shape {"levels": {"w1-03": {"stars": 3, "best": 7}}, "days": [20425, ...]}. "best" is the
// fewest moves of a win without help; "days" the local day numbers (core.dayNumber) on
// which the day's daily was won (the streak). Reading never throws: missing, corrupt or
// unavailable storage reads as empty progress. `levels` is a null-prototype object, so a
// stored id that names an Object.prototype member ("constructor", "__proto__") is just an
// id, and p.levels[id] is only ever a stored entry. Gates come from #site-data, not from here.

export const KEY = "lumina.progress.v1";
let memory = null;   // used when storage is unavailable (private mode, file:// quirks)

function storage() {
  try { return globalThis.localStorage || null; } catch { return null; }
}

// Held to the play log's ranges (lumina/playtest/schema.py): stars 0..3, a best move count
// 1..MAX_MOVES (a win's `moves`), a day a whole number 0..MAX_DAY; at most MAX_DAYS days.
export const MAX_MOVES = 2147483647;
export const MAX_DAY = 1000000;
export const MAX_DAYS = 400;
const clean = (e) => {
  const s = e && Number.isInteger(e.stars) ? Math.min(3, Math.max(0, e.stars)) : 0;
  const best = e && Number.isInteger(e.best) && e.best > 0 ? Math.min(MAX_MOVES, e.best) : null;
  return s || best ? { stars: s, best } : null;
};
const isDay = (d) => Number.isInteger(d) && d >= 0 && d <= MAX_DAY;

/** The stored progress, sanitised; {levels: {}, days: []} when there is none or it is unreadable. */
export function loadProgress() {
  let raw = memory;
  try { const st = storage(); if (st) raw = st.getItem(KEY); } catch { /* unavailable: memory */ }
  const out = { levels: Object.create(null), days: [] };
  try {
    const data = raw ? JSON.parse(raw) : null;
    const lv = data && typeof data.levels === "object" && !Array.isArray(data.levels) ? data.levels : {};
    for (const id of Object.keys(lv)) { const e = clean(lv[id]); if (e) out.levels[id] = e; }   // own keys only
    if (data && Array.isArray(data.days)) out.days = [...new Set(data.days.filter(isDay))].sort((a, b) => a - b).slice(-MAX_DAYS);
  } catch { /* corrupt: start empty */ }
  return out;
}

function save(p) {
  memory = JSON.stringify(p);
  try { const st = storage(); if (st) st.setItem(KEY, memory); } catch { /* full or blocked */ }
}

/**
 * Record a win: {stars, moves, helped} (stars already decided by core.starsFor). Keeps the
 * most stars; "best" only counts wins without help. `day` (a daily won on its own day)
 * joins the streak. Returns the level's entry.
 */
export function recordResult(id, { stars, moves, helped = false }, day = null) {
  const p = loadProgress(), old = p.levels[id] || { stars: 0, best: null };
  const best = helped ? old.best : old.best ? Math.min(old.best, moves) : moves;
  const e = { stars: Math.max(old.stars, stars), best };
  p.levels[id] = e;
  if (isDay(day) && !p.days.includes(day)) p.days = [...p.days, day].sort((a, b) => a - b).slice(-MAX_DAYS);
  save(p);
  return e;
}


/** Total stars, optionally only for level ids starting with idPrefix (e.g. "w2-"). */
export function totalStars(progress = loadProgress(), idPrefix = "") {
  let t = 0;
  for (const [id, e] of Object.entries(progress.levels || {})) if (id.startsWith(idPrefix)) t += e.stars || 0;
  return t;
}

/** Is a world open with `total` stars? gates = #site-data's {"1": 0, "2": 40, ...}. */
export const isWorldUnlocked = (world, total, gates) => String(world) in gates && total >= gates[String(world)];
