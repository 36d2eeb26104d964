// Lumina share-link text (lumina/desc.py's twin): {w}x{h}-{side}{index}-{blocks}[-w..][-m..][-b..].
// Only the daily and share pages need it, so it is not part of engine.js.
import { validate, KL, SL } from "./engine.js";

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
