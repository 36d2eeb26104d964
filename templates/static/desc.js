// Lumina share-link text (lumina/desc.py's twin): {w}x{h}-{side}{index}-{blocks}[-w..][-m..][-b..].
// Only the daily and share pages need it, so it is not part of engine.js.
import { KL, SL, DIRS } from "./engine.js";

/** Check a level object (share links only: pack levels are checked in Python); throws Error("level <id>: <field>: <why>"). Returns the level. */
export function validate(lv) {
  const id = lv && typeof lv.id === "string" ? lv.id : "?";
  const fail = (f, m) => { throw new Error(`level ${id}: ${f}: ${m}`); };
  const int = (v, f, lo, hi) => {
    if (!Number.isInteger(v) || v < lo || v > hi) fail(f, `must be an integer ${lo}..${hi}, got ${JSON.stringify(v)}`);
    return v;
  };
  if (!lv || typeof lv !== "object") fail("level", "must be an object");
  const W = int(lv.width, "width", 4, 8), H = int(lv.height, "height", 4, 8);
  const ex = lv.exit;
  if (!ex || !SL[ex.side]) fail("exit.side", "must be one of left, right, top, bottom");
  int(ex.index, "exit.index", 0, (ex.side === "left" || ex.side === "right" ? H : W) - 1);
  const win = lv.win ?? "exit";
  if (win !== "exit" && win !== "beam") fail("win", `must be exit or beam, got ${JSON.stringify(win)}`);
  const seen = new Map();
  const claim = (x, y, what, f) => {
    int(x, f + " x", 0, W - 1); int(y, f + " y", 0, H - 1);
    if (seen.has(y * W + x)) fail(f, `${what} overlaps ${seen.get(y * W + x)} at (${x}, ${y})`);
    seen.set(y * W + x, what);
  };
  (lv.walls || []).forEach((w, i) => claim(w && w[0], w && w[1], `wall ${i}`, `walls[${i}]`));
  (lv.mirrors || []).forEach((m, i) => {
    if (!m || (m.tilt !== "/" && m.tilt !== "\\")) fail(`mirrors[${i}].tilt`, "must be / or \\");
    claim(m.x, m.y, `mirror ${i}`, `mirrors[${i}]`);
  });
  if (!Array.isArray(lv.blocks) || lv.blocks.length > 16) fail("blocks", "must be a list of at most 16 blocks");
  let keys = 0;
  lv.blocks.forEach((b, i) => {
    const f = `blocks[${i}]`;
    if (!b || !KL[b.kind]) fail(f + ".kind", "must be one of key, crystal, sand, ice, rime");
    int(b.w, f + ".w", 1, W); int(b.h, f + ".h", 1, H);
    if (b.w === b.h) fail(f, `a ${b.w}x${b.h} square block has no axis`);
    if (b.kind === "key") keys++;
    for (let dy = 0; dy < b.h; dy++) for (let dx = 0; dx < b.w; dx++) claim(b.x + dx, b.y + dy, `block ${i}`, f);
  });
  if (keys !== 1) fail("blocks", `needs exactly one key, found ${keys}`);
  if (win === "beam") {
    const bm = lv.beam, key = lv.blocks.find((b) => b.kind === "key");
    if (!bm || !DIRS[bm.dir]) fail("beam", "a beam level needs beam {dir: N|E|S|W, offset}");
    int(bm.offset, "beam.offset", 0, (bm.dir === "E" || bm.dir === "W" ? key.h : key.w) - 1);
  }
  return lv;
}

const LK = { K: "key", C: "crystal", S: "sand", I: "ice", R: "rime" };
const LS = { L: "left", R: "right", T: "top", B: "bottom" };

/** The share-link text of a level (see lumina/desc.py). */
export function encodeDesc(lv) {
  let s = `${lv.width}x${lv.height}-${SL[lv.exit.side]}${lv.exit.index}-`
    + lv.blocks.map((b) => KL[b.kind] + b.x + b.y + b.w + b.h).join("");
  if (lv.walls && lv.walls.length) s += "-w" + lv.walls.map(([x, y]) => `${x}${y}`).join("");
  if (lv.mirrors && lv.mirrors.length) s += "-m" + lv.mirrors.map((m) => `${m.x}${m.y}${m.tilt === "/" ? "f" : "b"}`).join("");
  if (lv.win === "beam") s += `-b${lv.beam.dir}${lv.beam.offset}`;
  return s;
}

const DESC = /^(\d)x(\d)-([LRTB])(\d)-((?:[KCSIR]\d{4})+)(?:-w((?:\d\d)+))?(?:-m((?:\d\d[fb])+))?(?:-b([NESW])(\d))?$/;

/** Parse share-link text into a validated level object; throws a clear Error. */
export function decodeDesc(text, id = "custom") {
  const m = DESC.exec(String(text).trim());
  if (!m) throw new Error(`desc: cannot read ${JSON.stringify(String(text))} (expected e.g. 6x5-R2-K0221I2113)`);
  const d = (s, i) => +s[i];
  const lv = { id, width: +m[1], height: +m[2], exit: { side: LS[m[3]], index: +m[4]} };
  if (m[8]) { lv.win = "beam"; lv.beam = { dir: m[8], offset: +m[9] }; }
  if (m[6]) lv.walls = m[6].match(/\d\d/g).map((t) => [d(t, 0), d(t, 1)]);
  if (m[7]) lv.mirrors = m[7].match(/\d\d[fb]/g).map((t) => ({ x: d(t, 0), y: d(t, 1), tilt: t[2] === "f" ? "/" : "\\" }));
  lv.blocks = m[5].match(/[KCSIR]\d{4}/g).map((t) => ({ kind: LK[t[0]], x: d(t, 1), y: d(t, 2), w: d(t, 3), h: d(t, 4) }));
  return validate(lv);
}
