// Lumina editor model: the board a designer is drawing and its edit history. Pure logic, no
// DOM (tested under node --test, tests/js/editor-model.test.mjs); editor.js draws it.
//
// Every edit makes a candidate level and asks the one JS validator (desc.js `validate`, held
// to the Python reader by the parity vectors) about it:
//   - an edit that breaks the board (two pieces on one cell, a block off the grid, a square
//     block, a second key, a 17th block, mirrors on an exit level, ...) is refused, with the
//     reader's one-line reason, and nothing changes;
//   - a board that is only not a level *yet* (no key yet, a key that cannot reach the
//     lantern, an emitter off the key's edge) is kept, and `problem` holds the reason, so a
//     designer can build from an empty grid and fix the lantern after the key.
// Undo and redo walk the history of accepted edits (at most HISTORY of them).
//
//   x: 0 1 2 3 4 5        the model's board is a level object (RULES.md "The level as a
//   y0 . . . . . .        file"): width, height, exit, win, beam, walls, mirrors, blocks.
//   y1 . . . . . .        An empty 6x6 grid: no blocks, lantern right of row 2; its
//   y2 . . . . . .  >     problem is "blocks: no block has kind key".
import { validate, decodeDesc } from "./desc.js";

export const HISTORY = 500;
export const KINDS = ["key", "crystal", "sand", "ice", "rime"];
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** An empty grid: no blocks, the lantern right of the middle row. */
export function emptyLevel(width = 6, height = 6) {
  return { id: "custom", width, height, exit: { side: "right", index: Math.floor((height - 1) / 2) }, blocks: [] };
}

/** A clean copy holding only the fields a board has (RULES.md), in the canonical order. */
export function cleanLevel(lv) {
  const out = { id: lv.id || "custom", width: lv.width, height: lv.height, exit: { side: lv.exit.side, index: lv.exit.index } };
  if ((lv.win || "exit") !== "exit") out.win = lv.win;
  if (lv.beam) out.beam = { dir: lv.beam.dir, offset: lv.beam.offset };
  if (lv.walls && lv.walls.length) out.walls = lv.walls.map(([x, y]) => [x, y]);
  if (lv.mirrors && lv.mirrors.length) out.mirrors = lv.mirrors.map((m) => ({ x: m.x, y: m.y, tilt: m.tilt }));
  out.blocks = lv.blocks.map((b) => ({ kind: b.kind, x: b.x, y: b.y, w: b.w, h: b.h }));
  if (lv.name) out.name = lv.name;
  return out;
}

/** The reader's reason this level is refused ("level custom: blocks[1]: ..."), or null. */
export function problemOf(lv) {
  try { validate(lv); return null; } catch (e) { return String(e.message || e); }
}

/** Reasons that say the board is not a level yet (kept) rather than broken (refused). */
const NOT_YET = [/: blocks: no block has kind key$/, /: exit\.side: the key slides .* can never reach/,
  /: exit\.index: the key spans .* can never cover/, /: beam(\.offset)?: /];
export const notYet = (reason) => NOT_YET.some((r) => r.test(reason));

/** Cells of a rectangle. */
const cells = (r) => { const out = []; for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) out.push([x, y]); return out; };
const inside = (r, x, y) => x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;

/** Python's repr of one character, as the reader quotes a cell in its messages. */
const reprChar = (ch) => (ch === "'" ? `"'"` : ch === "\\" ? "'\\\\'" : `'${ch}'`);

/** A 36-character Rush Hour board (lumina.desc.from_rush_hour): `A` the key, `x` a wall, `o` or
 * `.` empty, any other letter a crystal block; blocks in order of first appearance, lantern
 * right of row 2. Throws the reader's message on a bad board. */
export function fromRushHour(board, id = "rush") {
  const text = String(board).trim();
  const fail = (field, msg) => { throw new Error(`level ${id}: ${field}: ${msg}`); };
  if ([...text].length !== 36) fail("board", `a Rush Hour board has 36 cells, got ${[...text].length}`);
  const chars = [...text], found = new Map(), walls = [];
  chars.forEach((ch, k) => {
    const x = k % 6, y = Math.floor(k / 6);
    if (ch === "o" || ch === ".") return;
    if (ch === "x") walls.push([x, y]);
    else if (/^[A-Za-z]$/.test(ch)) { if (!found.has(ch)) found.set(ch, []); found.get(ch).push([x, y]); }
    else fail("grid", `unknown cell ${reprChar(ch)} at (${x}, ${y})`);
  });
  const blocks = [];
  for (const [ch, cs] of found) {
    const xs = cs.map((c) => c[0]), ys = cs.map((c) => c[1]);
    const x = Math.min(...xs), y = Math.min(...ys), w = Math.max(...xs) - x + 1, h = Math.max(...ys) - y + 1;
    if (w * h !== cs.length) fail("grid", `block ${reprChar(ch)} is not a rectangle`);
    blocks.push({ kind: ch === "A" ? "key" : "crystal", x, y, w, h });
  }
  const lv = { id, width: 6, height: 6, exit: { side: "right", index: 2 }, blocks };
  if (walls.length) lv.walls = walls;
  return validate(lv);
}

/**
 * Read what a designer pastes or opens: a desc (`6x6-R2-K0221C4112`), a level JSON object, a
 * pack (its first level, or the one with `pick` as id), or a 36-character Rush Hour board.
 * Returns a clean level; throws an Error with one line when it cannot.
 */
export function parseImport(text, pick = null) {
  const t = String(text).trim();
  if (t.startsWith("{")) {
    let data;
    try { data = JSON.parse(t); } catch (e) { throw new Error(`not valid JSON: ${e.message}`); }
    let lv = data;
    if (Array.isArray(data.levels)) {
      lv = pick ? data.levels.find((l) => l && l.id === pick) : data.levels[0];
      if (!lv) throw new Error(pick ? `no level ${pick} in this pack` : "this pack holds no levels");
    }
    if (!lv || typeof lv !== "object" || !lv.exit || !Array.isArray(lv.blocks)) throw new Error("not a level: it needs width, height, exit and blocks");
    const clean = cleanLevel(lv);
    if (!SAFE_ID.test(clean.id)) clean.id = "custom";
    validate(clean);
    return clean;
  }
  if ([...t].length === 36 && !/^\d/.test(t)) return cleanLevel(fromRushHour(t));
  return cleanLevel(decodeDesc(t));
}

/**
 * The model. `createModel(level?)` starts from `level` (or an empty 6x6 grid). Every edit
 * returns {ok: true} or {ok: false, reason} (refused: nothing changed).
 */
export function createModel(start = emptyLevel()) {
  let cur = cleanLevel(start), past = [], future = [];

  function commit(next) {
    const reason = problemOf(next);
    if (reason && !notYet(reason)) return { ok: false, reason };
    past.push(cur);
    if (past.length > HISTORY) past.shift();
    future = [];
    cur = next;
    return { ok: true };
  }
  /** Edit a copy of the board with `fn` (which may return {ok: false, reason} to refuse). */
  function edit(fn) {
    const next = cleanLevel(cur);
    next.walls = next.walls || []; next.mirrors = next.mirrors || [];
    const r = fn(next);
    if (r && r.ok === false) return r;
    return commit(cleanLevel(next));
  }
  const block = (i) => cur.blocks[i];
  const checkIndex = (i) => (Number.isInteger(i) && i >= 0 && i < cur.blocks.length ? null : { ok: false, reason: `no block ${i}` });

  const api = {
    /** The board as a level object (a fresh copy). */
    get level() { return cleanLevel(cur); },
    /** Why the board is not a level yet (the reader's one line), or null when it is one. */
    get problem() { return problemOf(cur); },
    get canUndo() { return past.length > 0; },
    get canRedo() { return future.length > 0; },
    /** What stands on cell (x, y): {type: "block", index} | {type: "wall"} | {type: "mirror", tilt} | null. */
    at(x, y) {
      const i = cur.blocks.findIndex((b) => inside(b, x, y));
      if (i >= 0) return { type: "block", index: i };
      if ((cur.walls || []).some((w) => w[0] === x && w[1] === y)) return { type: "wall" };
      const m = (cur.mirrors || []).find((q) => q.x === x && q.y === y);
      return m ? { type: "mirror", tilt: m.tilt } : null;
    },
    /** Add a block of `kind` covering the rectangle (x, y, w, h). */
    place(kind, x, y, w, h) {
      if (!KINDS.includes(kind)) return { ok: false, reason: `no block kind ${kind}` };
      return edit((lv) => { lv.blocks.push({ kind, x, y, w, h }); });
    },
    /** Move block i so its top-left cell is (x, y). */
    move(i, x, y) { return checkIndex(i) || edit((lv) => { Object.assign(lv.blocks[i], { x, y }); }); },
    /** Give block i the rectangle (x, y, w, h). */
    reshape(i, x, y, w, h) { return checkIndex(i) || edit((lv) => { Object.assign(lv.blocks[i], { x, y, w, h }); }); },
    /** Block i turned a quarter: w and h swapped about its top-left cell. */
    turn(i) { if (checkIndex(i)) return checkIndex(i); const b = block(i); return api.reshape(i, b.x, b.y, b.h, b.w); },
    setKind(i, kind) {
      if (!KINDS.includes(kind)) return { ok: false, reason: `no block kind ${kind}` };
      return checkIndex(i) || edit((lv) => { lv.blocks[i].kind = kind; });
    },
    /** Remove block i (later blocks move down one index). */
    remove(i) { return checkIndex(i) || edit((lv) => { lv.blocks.splice(i, 1); }); },
    /** Clear cell (x, y): the block, wall or mirror on it. */
    clear(x, y) {
      const what = api.at(x, y);
      if (!what) return { ok: false, reason: `cell (${x}, ${y}) is already empty` };
      if (what.type === "block") return api.remove(what.index);
      return edit((lv) => {
        lv.walls = lv.walls.filter((w) => w[0] !== x || w[1] !== y);
        lv.mirrors = lv.mirrors.filter((m) => m.x !== x || m.y !== y);
      });
    },
    wall(x, y) { return edit((lv) => { lv.walls.push([x, y]); }); },
    /** Move the wall or mirror on cell (x0, y0) to cell (x, y). */
    shift(x0, y0, x, y) {
      return edit((lv) => {
        const w = lv.walls.find((q) => q[0] === x0 && q[1] === y0), m = lv.mirrors.find((q) => q.x === x0 && q.y === y0);
        if (w) { w[0] = x; w[1] = y; } else if (m) { m.x = x; m.y = y; } else return { ok: false, reason: `no wall or mirror on cell (${x0}, ${y0})` };
      });
    },
    /** A mirror on (x, y): on a cell that holds one, its tilt changes. */
    mirror(x, y, tilt) {
      return edit((lv) => {
        const m = lv.mirrors.find((q) => q.x === x && q.y === y);
        if (m) m.tilt = tilt; else lv.mirrors.push({ x, y, tilt });
      });
    },
    /** The lantern on `side` at row/column `index`. */
    lantern(side, index) { return edit((lv) => { lv.exit = { side, index }; }); },
    /** Win by the key reaching the lantern ("exit") or by its light ("beam", emitter `beam`). */
    setWin(win, beam = { dir: "E", offset: 0 }) {
      return edit((lv) => {
        if (win === "beam") { lv.win = "beam"; lv.beam = lv.beam || { ...beam }; }
        else { delete lv.win; delete lv.beam; }
      });
    },
    /** The key's emitter: the light leaves the key's `dir` edge at cell `offset` of that edge. */
    emitter(dir, offset) {
      if ((cur.win || "exit") !== "beam") return { ok: false, reason: "the emitter belongs to beam levels: choose Win by light first" };
      return edit((lv) => { lv.beam = { dir, offset }; });
    },
    /** A width x height grid; everything keeps its cell (refused if something falls off). */
    resize(width, height) { return edit((lv) => { lv.width = width; lv.height = height; }); },
    /** Name the level (shown and exported); its id follows the name. */
    rename(name) {
      const clean = String(name).replace(/[\p{C}\p{Z}]/gu, (c) => (c === " " ? " " : "")).slice(0, 200).trim();
      const id = clean.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[^a-z0-9]+/, "").slice(0, 64).replace(/-+$/, "");
      return edit((lv) => { lv.name = clean || undefined; lv.id = SAFE_ID.test(id) ? id : "custom"; if (!clean) delete lv.name; });
    },
    /** Replace the whole board (an import, or the deepest start); undoable like any edit. */
    load(level) { return commit(cleanLevel(level)); },
    undo() { if (!past.length) return false; future.push(cur); cur = past.pop(); return true; },
    redo() { if (!future.length) return false; past.push(cur); cur = future.pop(); return true; },
    cells,
  };
  return api;
}
