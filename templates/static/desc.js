// Lumina share-link text (lumina/desc.py's twin): {w}x{h}-{side}{index}-{blocks}[-w..][-m..][-b..],
// and `validate`, the one JS check of a level: lumina.model's rules and one-line messages.
// Only the share page and the editor need it, so it is not part of engine.js. Both readers
// refuse the same texts: the parity vectors' "descs" and a browser fuzz test hold them to it.
import { KINDS, SIDES } from "./engine.js";

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const WINS = ["exit", "beam"], TILTS = ["/", "\\"], BEAM_DIRS = ["N", "E", "S", "W"];

/** Python's repr of a JSON value, as the reader quotes one in its messages. */
function pyRepr(v) {
  if (v === null || v === undefined) return "None";
  if (v === true || v === false) return v ? "True" : "False";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(v).includes(".") || !Number.isFinite(v) ? String(v) : `${v}.0`;
  if (typeof v === "string") {
    const q = v.includes("'") && !v.includes('"') ? '"' : "'";
    const esc = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
    return q + [...v].map((c) => esc[c] || (c === q ? "\\" + c : c < " " || c === "\x7f" ? "\\x" + c.charCodeAt(0).toString(16).padStart(2, "0") : c)).join("") + q;
  }
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  return "{" + Object.entries(v).map(([k, x]) => pyRepr(k) + ": " + pyRepr(x)).join(", ") + "}";   // (no nested template: rjsmin)
}

/** lumina.model.short: a value cut for a message (at most 40 characters). */
const short = (text, limit = 40) => (text.length > limit ? `${text.slice(0, limit - 12)}...(${text.length} chars)` : text);

/**
 * Check a level object as the Python reader does (lumina.model's validation: the same rules in
 * the same order, the same one-line messages, held together by the parity vectors); throws
 * Error("level <id>: <field>: <why>"). Returns the level. Pack levels are checked in Python
 * (engine.compile trusts them); share links, the editor and its imports are checked here.
 */
export function validate(lv) {
  if (!lv || typeof lv !== "object" || Array.isArray(lv)) throw new Error(`level ?: level: must be an object, got ${Array.isArray(lv) ? "list" : lv === null ? "NoneType" : typeof lv}`);
  const lid = lv.id ?? "custom";
  if (typeof lid !== "string" || !SAFE_ID.test(lid)) {
    throw new Error(`level ?: id: must be 1-64 letters, digits, '.', '_' or '-', got ${short(pyRepr(lid))}`);
  }
  const fail = (f, m) => { throw new Error(`level ${short(lid)}: ${f}: ${m}`); };
  const int = (f, v, minimum = 0) => {
    if (typeof v !== "number" || !Number.isInteger(v)) fail(f, `must be an integer, got ${pyRepr(v)}`);
    if (v < minimum) fail(f, `must be >= ${minimum}, got ${v}`);
    return v;
  };
  const choice = (f, v, choices) => {
    if (!choices.includes(v)) fail(f, `must be one of ${choices.join(", ")}; got ${pyRepr(v)}`);
    return v;
  };
  for (const f of ["width", "height"]) {
    const v = int(f, lv[f]);
    if (v < 4 || v > 8) fail(f, `must be between 4 and 8, got ${v}`);
  }
  const W = lv.width, H = lv.height, win = lv.win ?? "exit", ex = lv.exit || {};
  choice("win", win, WINS);
  choice("exit.side", ex.side, SIDES);
  const limit = ex.side === "left" || ex.side === "right" ? H : W;
  if (int("exit.index", ex.index) >= limit) fail("exit.index", `${ex.index} is not on the ${ex.side} boundary (must be 0..${limit - 1})`);
  const occupied = new Map();
  const claim = (x, y, what, f) => {
    if (!(x >= 0 && x < W && y >= 0 && y < H)) fail(f, `${what} at (${x}, ${y}) is outside the ${W}x${H} grid`);
    const k = y * W + x;
    if (occupied.has(k)) fail(f, `${what} overlaps ${occupied.get(k)} at (${x}, ${y})`);
    occupied.set(k, what);
  };
  const walls = lv.walls || [], mirrors = lv.mirrors || [], blocks = lv.blocks;
  walls.forEach((w, i) => {
    if (!Array.isArray(w) || w.length !== 2) fail(`walls[${i}]`, "must be a pair [x, y]");
    int(`walls[${i}][0]`, w[0]); int(`walls[${i}][1]`, w[1]);
    claim(w[0], w[1], `wall ${i}`, `walls[${i}]`);
  });
  mirrors.forEach((m, i) => {
    const f = `mirrors[${i}]`;
    int(f + ".x", m && m.x); int(f + ".y", m.y);
    choice(f + ".tilt", m.tilt, TILTS);
    claim(m.x, m.y, `mirror ${i}`, f);
  });
  if (mirrors.length && win !== "beam") fail("mirrors", "mirrors belong to beam levels (win: beam)");
  if (!Array.isArray(blocks)) fail("blocks", `must be a list, got ${blocks === null || blocks === undefined ? "NoneType" : typeof blocks}`);
  if (blocks.length > 16) fail("blocks", `${blocks.length} movable blocks; at most 16`);
  const keys = [];
  blocks.forEach((b, i) => { if (b && b.kind === "key") keys.push(i); });
  if (!keys.length) fail("blocks", "no block has kind key");
  if (keys.length > 1) fail(`blocks[${keys[1]}].kind`, "a second key (exactly one allowed)");
  blocks.forEach((b, i) => {
    const f = `blocks[${i}]`;
    choice(f + ".kind", b && b.kind, KINDS);
    for (const [attr, lo] of [["x", 0], ["y", 0], ["w", 1], ["h", 1]]) int(`${f}.${attr}`, b[attr], lo);
    if (b.w === b.h) fail(f, `a ${b.w}x${b.h} square block has no axis (make it longer one way)`);
    if (b.x + b.w > W || b.y + b.h > H) fail(f, `block ${i} at (${b.x}, ${b.y}) size ${b.w}x${b.h} is outside the ${W}x${H} grid`);
    for (let dy = 0; dy < b.h; dy++) for (let dx = 0; dx < b.w; dx++) claim(b.x + dx, b.y + dy, `block ${i}`, f);
  });
  const bits = 3 * blocks.length + blocks.filter((b) => b.kind === "sand" || b.kind === "rime").length;
  if (bits > 64) fail("blocks", `state needs ${bits} bits; at most 64`);
  const key = blocks[keys[0]], horizontal = key.w > key.h, idx = ex.index;
  if (win === "exit") {
    if (lv.beam != null) fail("beam", "beam is only for win: beam levels");
    if (ex.side === "left" || ex.side === "right") {
      if (!horizontal) fail("exit.side", `the key slides vertically and can never reach the ${ex.side} lantern`);
      if (!(key.y <= idx && idx < key.y + key.h)) fail("exit.index", `the key spans rows ${key.y}..${key.y + key.h - 1} and can never cover row ${idx}`);
    } else {
      if (horizontal) fail("exit.side", `the key slides horizontally and can never reach the ${ex.side} lantern`);
      if (!(key.x <= idx && idx < key.x + key.w)) fail("exit.index", `the key spans columns ${key.x}..${key.x + key.w - 1} and can never cover column ${idx}`);
    }
  } else {
    const bm = lv.beam;
    if (bm == null) fail("beam", "missing (a win: beam level needs beam {dir, offset})");
    choice("beam.dir", bm.dir, BEAM_DIRS);
    const edge = bm.dir === "E" || bm.dir === "W" ? key.h : key.w;
    if (int("beam.offset", bm.offset) >= edge) fail("beam.offset", `${bm.offset} is off the key's ${bm.dir} edge (0..${edge - 1})`);
  }
  return lv;
}

/** A desc names each kind and side by its first letter: K C S I R, L R T B. */
const letter = (name) => name[0].toUpperCase();
const LK = Object.fromEntries(KINDS.map((k) => [letter(k), k])), LS = Object.fromEntries(SIDES.map((k) => [letter(k), k]));

/** The share-link text of a level (see lumina/desc.py). */
export function encodeDesc(lv) {
  let s = `${lv.width}x${lv.height}-${letter(lv.exit.side)}${lv.exit.index}-`
    + lv.blocks.map((b) => letter(b.kind) + b.x + b.y + b.w + b.h).join("");
  if (lv.walls && lv.walls.length) s += "-w" + lv.walls.map(([x, y]) => `${x}${y}`).join("");
  if (lv.mirrors && lv.mirrors.length) s += "-m" + lv.mirrors.map((m) => `${m.x}${m.y}${m.tilt === "/" ? "f" : "b"}`).join("");
  if (lv.win === "beam") s += `-b${lv.beam.dir}${lv.beam.offset}`;
  return s;
}

// around a pasted link: ASCII whitespace only, as in Python (String.trim takes more, and less)
const SPACE = /^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g;
const DESC = /^(\d)x(\d)-([LRTB])(\d)-((?:[KCSIR]\d{4})+)(?:-w((?:\d\d)+))?(?:-m((?:\d\d[fb])+))?(?:-b([NESW])(\d))?$/;

/** Parse share-link text into a validated level object; throws a clear Error. */
export function decodeDesc(text, id = "custom") {
  const m = DESC.exec(String(text).replace(SPACE, ""));
  if (!m) throw new Error(`desc: cannot read ${JSON.stringify(String(text))} (expected e.g. 6x5-R2-K0221I2113)`);
  const d = (s, i) => +s[i];
  const lv = { id, width: +m[1], height: +m[2], exit: { side: LS[m[3]], index: +m[4]} };
  if (m[8]) { lv.win = "beam"; lv.beam = { dir: m[8], offset: +m[9] }; }
  if (m[6]) lv.walls = m[6].match(/\d\d/g).map((t) => [d(t, 0), d(t, 1)]);
  if (m[7]) lv.mirrors = m[7].match(/\d\d[fb]/g).map((t) => ({ x: d(t, 0), y: d(t, 1), tilt: t[2] === "f" ? "/" : "\\" }));
  lv.blocks = m[5].match(/[KCSIR]\d{4}/g).map((t) => ({ kind: LK[t[0]], x: d(t, 1), y: d(t, 2), w: d(t, 3), h: d(t, 4) }));
  return validate(lv);
}
