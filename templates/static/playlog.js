// Lumina play log (docs/PLAYLOG.md): every attempt at a level, kept in this browser's
// localStorage (key lumina.playlog.v1) and never sent anywhere; the progress page exports it
// as JSON lines (schema lumina-play, version 1) or clears it. It listens to the board's
// "lumina-play" events. Pure parts (recording, bounding, export) take the log as an object
// and are tested under node (tests/js/playlog.test.mjs); storage never throws into a page.

export const KEY = "lumina.playlog.v1";
export const VERSION = 1;
export const MAX_CHARS = 400000;     // the stored log, as JSON; the oldest attempts go first
export const MAX_EVENTS = 2000;      // records of one attempt; later ones are not kept
export const MAX_FROM = 1000;        // moves a continued attempt may start from
export const MAX_MS = 86400000;      // a pause longer than a day is written as a day
// The play-log schema's ranges (lumina/playtest/schema.py): whatever is read back from
// storage is held to them, so an export is always readable by `python -m lumina.playtest`.
export const MAX_ATTEMPT = 2147483647;
export const MAX_TEXT = 200;
export const MAX_BLOCK = 15;
export const MAX_SLIDE = 7;
const TYPES = ["move", "undo", "redo", "reset", "hint", "solution", "win", "leave"];
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
// Python's str.isprintable() is false for these: control, format, private-use, unassigned
// and surrogate code points, line and paragraph separators, and spaces other than " ".
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u;

const int = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;
const text = (v) => typeof v === "string" && v.length <= MAX_TEXT && !UNPRINTABLE.test(v);
const slide = (m) => Array.isArray(m) && m.length === 2 && int(m[0], 0, MAX_BLOCK)
  && int(m[1], -MAX_SLIDE, MAX_SLIDE) && m[1] !== 0;

/** One stored record [type, ms, ...] held to the schema: ms clamped to 0..MAX_MS, anything
 * else out of range (a block, a slide, stars) drops the record (null). */
export function cleanEvent(e) {
  if (!Array.isArray(e) || !TYPES.includes(e[0])) return null;
  const ms = Number.isFinite(e[1]) ? Math.max(0, Math.min(MAX_MS, Math.round(e[1]))) : 0;
  if (e[0] === "move") return slide([e[2], e[3]]) ? ["move", ms, e[2], e[3]] : null;
  if (e[0] === "win") {
    if (!int(e[2], 0, MAX_ATTEMPT) || !int(e[3], 1, 3)) return null;
    return ["win", ms, e[2], e[3], e[4] ? 1 : 0];
  }
  return [e[0], ms];
}

/** One stored attempt held to the schema, or null when it cannot be (a bad number, id,
 * text or `from`); its records cleaned (`cleanEvent`), at most MAX_EVENTS. */
export function cleanAttempt(a) {
  if (!a || typeof a !== "object" || !int(a.n, 1, MAX_ATTEMPT) || typeof a.level !== "string"
      || !SAFE_ID.test(a.level) || !text(a.generator) || !text(a.board) || !Array.isArray(a.events)) return null;
  const out = { n: a.n, level: a.level, generator: a.generator, board: a.board, events: [] };
  if (a.from !== undefined) {
    if (!Array.isArray(a.from) || a.from.length > MAX_FROM || !a.from.every(slide)) return null;
    if (a.from.length) out.from = a.from.map((m) => [m[0], m[1]]);
  }
  if (a.helped === true) out.helped = true;
  for (const e of a.events) {
    if (out.events.length >= MAX_EVENTS) break;
    const c = cleanEvent(e);
    if (c) out.events.push(c);
  }
  return out;
}

/** A new random player id: "p-" and 16 hex digits. */
export function playerId(rng = globalThis.crypto) {
  const b = new Uint8Array(8);
  if (rng && rng.getRandomValues) rng.getRandomValues(b); else for (let i = 0; i < 8; i++) b[i] = Math.floor(Math.random() * 256);
  return "p-" + Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** The log in `raw` (JSON text) if it is one, else a fresh log for a new player. Every
 * attempt is held to the play-log schema (`cleanAttempt`; those that cannot be are dropped),
 * and the attempt counter `next` too: a counter out of 1..MAX_ATTEMPT, or not above the
 * attempts kept, restarts after the highest kept (attempts are renumbered from 1 when even
 * that would pass MAX_ATTEMPT). */
export function parseLog(raw, newId = playerId) {
  try {
    const d = JSON.parse(raw);
    if (d && typeof d.player === "string" && /^p-[0-9a-f]{16}$/.test(d.player) && Array.isArray(d.attempts)) {
      const attempts = d.attempts.map(cleanAttempt).filter(Boolean);
      return fixCounter({ player: d.player, next: d.next, attempts });
    }
  } catch { /* corrupt or missing: start afresh */ }
  return { player: newId(), next: 1, attempts: [] };
}

/** `log.next` within the schema's range and above every kept attempt; returns `log`. */
export function fixCounter(log) {
  const top = log.attempts.reduce((m, a) => Math.max(m, a.n), 0);
  if (!int(log.next, top + 1, MAX_ATTEMPT)) log.next = top + 1;
  if (log.next > MAX_ATTEMPT) {            // renumber, keeping the order
    log.attempts.forEach((a, i) => { a.n = i + 1; });
    log.next = log.attempts.length + 1;
  }
  return log;
}

/** Drop the oldest attempts (never the last, the one being played) until the log's JSON
 * is at most `max` characters; returns that JSON. */
export function bound(log, max = MAX_CHARS) {
  let text = JSON.stringify(log);
  while (text.length > max && log.attempts.length > 1) {
    const over = text.length - max;
    let drop = 0, freed = 0;
    while (drop < log.attempts.length - 1 && freed < over) freed += JSON.stringify(log.attempts[drop++]).length + 1;
    log.attempts.splice(0, drop);
    text = JSON.stringify(log);
  }
  return text;
}

/** The log as the file format: a header line, then each attempt's start and records. */
export function toJsonl(log) {
  const out = [JSON.stringify({ log: "lumina-play", version: VERSION, player: log.player, source: "browser" })];
  for (const a of log.attempts) {
    const start = { attempt: a.n, type: "start", level: a.level, generator: a.generator, board: a.board };
    if (a.from && a.from.length) start.from = a.from;
    if (a.helped) start.helped = true;
    out.push(JSON.stringify(start));
    for (const e of a.events) {
      const r = { attempt: a.n, type: e[0] };
      if (e[0] === "move") Object.assign(r, { block: e[2], distance: e[3] });
      if (e[0] === "win") Object.assign(r, { moves: e[2], stars: e[3], helped: !!e[4] });
      r.ms = e[1];
      out.push(JSON.stringify(r));
    }
  }
  return out.join("\n") + "\n";
}

/**
 * A recorder for one board: `note(log, detail, t)` applies one "lumina-play" event (detail
 * {type, ...}, at time t in ms) to `log`, in place. It keeps the board's position as moves
 * (so an attempt that begins after a win, with Undo, can say where it starts) and whether
 * help was used since the last reset. meta = {level, generator, board} (board: the desc).
 */
export function recorder(meta) {
  let openN = null, last = 0, moves = [], undone = [], helped = false;

  function begin(log, t, from) {
    fixCounter(log);
    const a = { n: log.next++, level: meta.level, generator: meta.generator, board: meta.board, events: [] };
    if (from.length) a.from = from.map((m) => m.slice());
    if (helped) a.helped = true;
    log.attempts.push(a);
    openN = a.n;
    last = t;
    return a;
  }

  function follow(d) {   // the board's history, as the board keeps it (core.js)
    if (d.type === "move") { moves.push([d.block, d.distance]); undone = []; }
    else if (d.type === "undo" && moves.length) undone.push(moves.pop());
    else if (d.type === "redo" && undone.length) moves.push(undone.pop());
    else if (d.type === "reset" || d.type === "start") { moves = []; undone = []; helped = false; }
    else if (d.type === "hint" || d.type === "solution") helped = true;
  }

  return function note(log, d, t) {
    if (!d || (d.type !== "start" && !TYPES.includes(d.type))) return;
    if (d.type === "start") { follow(d); begin(log, t, []); return; }
    // the attempt being played (another tab's bounding, or Clear, may have removed it)
    let a = openN === null ? null : log.attempts.findLast((x) => x.n === openN) || null;
    if (!a) {
      if (d.type === "leave") { openN = null; return; }
      if (d.type === "reset") { follow(d); begin(log, t, []); return; }   // Try again: a fresh attempt
      if (moves.length > MAX_FROM) { follow(d); return; }
      a = begin(log, t, moves);     // after a win: the next action begins where the board stands
    }
    follow(d);
    const ms = Math.max(0, Math.min(MAX_MS, Math.round(t - last)));
    last = t;
    if (d.type === "win" || d.type === "leave") openN = null;
    if (a.events.length >= MAX_EVENTS) return;
    const e = [d.type, ms];
    if (d.type === "move") e.push(d.block, d.distance);
    if (d.type === "win") e.push(d.moves, d.stars, d.helped ? 1 : 0);
    a.events.push(e);
  };
}

// ---- the browser's side: storage, the board, the progress page -------------------------------
function storage() {
  try { return globalThis.localStorage || null; } catch { return null; }
}

/** The stored log (a fresh one when there is none or it is unreadable). */
export function load() {
  let raw = null;
  try { const st = storage(); if (st) raw = st.getItem(KEY); } catch { /* unavailable */ }
  return parseLog(raw);
}

function save(log) {
  try { const st = storage(); if (st) st.setItem(KEY, bound(log)); } catch { /* full or blocked */ }
}

/** Record the "lumina-play" events of board element `el` (level = the board's level object,
 * generator = its pack's version, desc = its desc). `queued` are events that came before this
 * module did; `keep` the listener that queued them (replaced by this one). */
export function attach(el, level, generator, desc, queued = [], keep = null) {
  const note = recorder({ level: level.id, generator: generator || "", board: desc || "" });
  const take = (ev) => { const log = load(); note(log, ev.detail, ev.timeStamp); save(log); };
  el.addEventListener("lumina-play", take);
  if (keep) el.removeEventListener("lumina-play", keep);
  for (const ev of queued) take(ev);
}

/** The progress page's [data-playlog] section: Export (a download) and Clear. */
export function setupPage(doc = document) {
  const box = doc.querySelector("[data-playlog]");
  if (!box) return;
  const count = box.querySelector("[data-playlog-count]");
  const show = () => {
    const n = load().attempts.length;
    if (count) count.textContent = n ? `${n} attempt${n === 1 ? "" : "s"} kept.` : "Nothing kept yet.";
  };
  box.querySelector("[data-playlog-export]").addEventListener("click", () => {
    const url = URL.createObjectURL(new Blob([toJsonl(load())], { type: "application/x-ndjson" }));
    const a = doc.createElement("a");
    a.href = url; a.download = "lumina-playlog.jsonl";
    doc.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  box.querySelector("[data-playlog-clear]").addEventListener("click", () => {
    const log = load();
    log.attempts = [];
    save(log);
    show();
  });
  show();
}
