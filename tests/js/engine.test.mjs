// Unit tests for templates/static/engine.js, written from RULES.md. Run: node --test tests/js/
// Fixtures are desc strings (see RULES/INTERFACES): {w}x{h}-{side}{index}-{blocks}[-w..][-m..][-b..]
import { test } from "node:test";
import assert from "node:assert/strict";
import * as E from "../../templates/static/engine.js";
import { stateFromPython, positions } from "./python-state.mjs";
import { decodeDesc, encodeDesc, validate } from "../../templates/static/desc.js";

const load = (desc) => { const b = E.compile(decodeDesc(desc)); return [b, E.startState(b)]; };
const movesOf = (b, s, i) => E.legalMoves(b, s).filter((m) => m[0] === i).map((m) => m[1]);
const play = (b, s, moves) => moves.reduce((st, m) => E.applyMove(b, st, m), s);

test("crystal and key slide any distance through free cells, sorted by block then distance", () => {
  // y0 . . . . . .
  // y1 . . . . . .
  // y2 . K K . C .  key 1..2, crystal vertical at x 4 rows 1..2
  // y3 . . . . C .
  const [b, s] = load("6x5-R2-K1221C4112");
  assert.deepEqual(E.legalMoves(b, s), [[0, -1], [0, 1], [1, -1], [1, 1], [1, 2]]);
});

test("a horizontal block never wraps across rows", () => {
  // key at the right edge of row 0: nothing to its right, row 1 start is not adjacent
  const [b, s] = load("4x4-R0-K2021");
  assert.deepEqual(movesOf(b, s, 0), [-2, -1]);
  const [b2, s2] = load("4x4-B0-K0212");   // vertical key at the bottom of column 0
  assert.deepEqual(movesOf(b2, s2, 0), [-2, -1]);
});

test("walls and mirrors block blocks", () => {
  const [b, s] = load("5x4-R1-K0121-w31");
  assert.deepEqual(movesOf(b, s, 0), [1]);
  const [bm, sm] = load("5x4-R1-K0121-m31f-bE0");
  assert.deepEqual(movesOf(bm, sm, 0), [1]);
});

test("sand slides once, sets its spent bit, then never moves again", () => {
  const [b, s] = load("5x4-R3-K0321S0121");
  assert.deepEqual(movesOf(b, s, 1), [1, 2, 3]);
  assert.equal(s.flags[1], 0);
  const t = E.applyMove(b, s, [1, 2]);
  assert.equal(t.flags[1], 1);
  assert.deepEqual(movesOf(b, t, 1), []);
  assert.throws(() => E.applyMove(b, t, [1, -1]), /illegal/);
  // the spent bit is state: same positions, different key
  const u = stateFromPython(b, positions(b, t), [0, 0]);
  assert.notEqual(E.stateKey(t), E.stateKey(u));
  assert.deepEqual(movesOf(b, u, 1), [-2, -1, 1]);
});

test("ice offers only the farthest free distance in each direction", () => {
  // vertical ice at column 2, rows 3..4: three free cells above, one below
  const [b, s] = load("6x6-R2-K0221I2312");
  assert.deepEqual(movesOf(b, s, 1), [-3, 1]);
  const [b2, s2] = load("6x6-R0-K0021I1121");   // horizontal ice x 1..2 in row 1
  assert.deepEqual(movesOf(b2, s2, 1), [-1, 3]);
  const t = E.applyMove(b2, s2, [1, 3]);
  assert.deepEqual(movesOf(b2, t, 1), [-4]);
  assert.throws(() => E.applyMove(b2, s2, [1, 1]), /illegal/);
});

test("rime is frozen until the key shares an edge with it, then moves as crystal", () => {
  // y0 K K . . R .   key 0..1 row 0, rime vertical at x 4 rows 0..1
  // y1 . . . . R .
  const [b, s] = load("6x4-R0-K0021R4012");
  assert.equal(s.flags[1], 0);
  assert.deepEqual(movesOf(b, s, 1), []);
  const near = E.applyMove(b, s, [0, 1]);          // key 1..2: not touching yet (gap at x 3)
  assert.equal(near.flags[1], 0);
  const touch = E.applyMove(b, s, [0, 2]);         // key 2..3: shares an edge with x 4
  assert.equal(touch.flags[1], 1);
  assert.deepEqual(movesOf(b, touch, 1), [1, 2]);
  const away = E.applyMove(b, touch, [0, -2]);     // thawing is permanent
  assert.equal(away.flags[1], 1);
});

test("rime diagonal to the key does not thaw; rime touching at load thaws at load", () => {
  const [b, s] = load("6x4-R0-K0021R2112");        // rime at (2,1): diagonal to key cell (1,0)
  assert.equal(s.flags[1], 0);
  const [b2, s2] = load("6x4-R0-K0021R1112");      // rime at (1,1): below key cell (1,0)
  assert.equal(s2.flags[1], 1);
  assert.deepEqual(movesOf(b2, s2, 1), [1]);
});

test("exit win: flush against the lantern side and covering the index", () => {
  const [b, s] = load("6x5-R2-K0221");
  assert.equal(E.isSolved(b, s), false);
  assert.equal(E.isSolved(b, E.applyMove(b, s, [0, 3])), false);
  assert.equal(E.isSolved(b, E.applyMove(b, s, [0, 4])), true);
  const [bl, sl] = load("6x5-L2-K3221");
  assert.equal(E.isSolved(bl, E.applyMove(bl, sl, [0, -3])), true);
  const [bt, st] = load("5x6-T3-K3212");
  assert.equal(E.isSolved(bt, E.applyMove(bt, st, [0, -2])), true);
  const [bb, sb] = load("5x6-B3-K3012");
  assert.equal(E.isSolved(bb, E.applyMove(bb, sb, [0, 4])), true);
  assert.equal(E.isSolved(bb, E.applyMove(bb, sb, [0, 3])), false);
});

test("beam travels, bends at mirrors and wins through the lantern's edge", () => {
  // y0 . . . . . .        beam E from key (0..1, row 2) at x 2, hits "/" at (4,2):
  // y1 . . . . . .        (1,0) -> (0,-1): up to (4,1), (4,0), leaves top at column 4
  // y2 K K . . / .
  const [b, s] = load("6x5-T4-K0221-m42f-bE0");
  const p = E.beamPath(b, s);
  assert.deepEqual(p.cells, [[2, 2], [3, 2], [4, 2], [4, 1], [4, 0]]);
  assert.equal(p.solved, true);
  assert.equal(E.isSolved(b, s), true);
  // "\" sends a rightward beam down: leaves the bottom at column 4
  const [b2, s2] = load("6x5-B4-K0221-m42b-bE0");
  assert.deepEqual(E.beamPath(b2, s2).cells, [[2, 2], [3, 2], [4, 2], [4, 3], [4, 4]]);
  assert.equal(E.isSolved(b2, s2), true);
  // leaving through another edge is not a win
  const [b3, s3] = load("6x5-T3-K0221-m42f-bE0");
  assert.equal(E.isSolved(b3, s3), false);
});

test("a block or wall stops the beam; moving it away lets the light through", () => {
  const [b, s] = load("6x5-R2-K0221C3112-bE0");
  const p = E.beamPath(b, s);
  assert.deepEqual([p.solved, p.stop, p.end, p.cells], [false, "blocked", [3, 2], [[2, 2]]]);
  const t = E.applyMove(b, s, [1, -1]);
  assert.equal(E.isSolved(b, t), true);
  const [bw, sw] = load("6x5-R2-K0221-w42-bE0");
  assert.equal(E.isSolved(bw, sw), false);
});

test("beam offset picks the key cell along the facing edge; a beam starting outside leaves at once", () => {
  const [b, s] = load("6x6-T3-K2312-bE1");          // vertical key rows 3..4, E from row 4
  assert.deepEqual(E.beamPath(b, s).cells[0], [3, 4]);
  const [bn, sn] = load("6x6-T2-K2012-bN0");        // key at the top edge, beam N starts outside
  const p = E.beamPath(bn, sn);
  assert.deepEqual([p.cells, p.solved, p.stop], [[], true, "edge"]);
  const [bo, so] = load("6x6-T3-K2012-bN0");
  assert.equal(E.isSolved(bo, so), false);
});

test("a closed mirror loop trace terminates unsolved", () => {
  // ring: / at (1,1) and (3,3), \ at (3,1) and (1,3); start at (2,1) moving east
  const [b, s] = load("6x6-R5-K4521-m11f33f31b13b-bW0");
  const t0 = Date.now();
  const r = E.trace(b, s, 2, 1, 1, 0);
  assert.equal(r.solved, false);
  assert.equal(r.stop, "loop");
  assert.equal(r.cells.length, 6 * 6 * 4);
  assert.ok(Date.now() - t0 < 100);
});

test("applyMove throws on illegal moves and never mutates its input", () => {
  const [b, s] = load("6x5-R2-K0221C3112");
  const before = E.stateKey(s);
  assert.throws(() => E.applyMove(b, s, [0, 2]), /illegal/);
  assert.throws(() => E.applyMove(b, s, [1, 0]), /illegal/);
  assert.throws(() => E.applyMove(b, s, [7, 1]), /illegal/);
  E.applyMove(b, s, [1, 2]);
  assert.equal(E.stateKey(s), before);
});

test("stateFromPython reads positions and flags; positions() is its inverse", () => {
  const [b] = load("6x4-R0-K0021R4012S0221");
  const s = stateFromPython(b, [[2, 0], [4, 1], [3, 2]], [0, 1, 1]);
  assert.deepEqual(Array.from(s.pos), [2, 1, 3]);
  assert.deepEqual(Array.from(s.flags), [0, 1, 1]);
  assert.deepEqual(positions(b, s), [[2, 0], [4, 1], [3, 2]]);
  assert.throws(() => stateFromPython(b, [[2, 1], [4, 1], [3, 2]], [0, 0, 0]), /axis/);
});

test("desc round trip, sections in order", () => {
  for (const d of ["6x5-R2-K0221I2113-w30-m41f-bE0", "4x4-L1-K2121", "5x6-B3-K3012S0021R0212C1312-w4041",
    "6x6-T3-K2312-m11b22f-bE1", "8x8-R7-K0721"]) {
    assert.equal(encodeDesc(decodeDesc(d)), d);
  }
  const lv = decodeDesc("6x5-R2-K0221I2113-w30-m41f-bE0", "w5-01");
  assert.deepEqual(lv, {
    id: "w5-01", width: 6, height: 5, exit: { side: "right", index: 2 }, win: "beam",
    beam: { dir: "E", offset: 0 }, walls: [[3, 0]], mirrors: [{ x: 4, y: 1, tilt: "/" }],
    blocks: [{ kind: "key", x: 0, y: 2, w: 2, h: 1 }, { kind: "ice", x: 2, y: 1, w: 1, h: 3 }],
  });
  const plain = decodeDesc("4x4-L1-K2121");
  assert.equal("win" in plain || "walls" in plain || "mirrors" in plain, false);
});

test("decodeDesc and validate reject bad input with a message naming the field", () => {
  assert.throws(() => decodeDesc("6x5-R2"), /desc: cannot read/);
  assert.throws(() => decodeDesc("6x5-R2-w30-K0221"), /desc: cannot read/);   // section order
  assert.throws(() => decodeDesc("6x5-R2-K0222"), /blocks\[0\]: a 2x2 square/);
  assert.throws(() => decodeDesc("6x5-R2-K0221C0112"), /overlaps block 0/);
  assert.throws(() => decodeDesc("6x5-R2-C0221"), /blocks: no block has kind key/);
  assert.throws(() => decodeDesc("6x5-R7-K0221"), /exit.index/);
  assert.throws(() => decodeDesc("6x5-R2-K5221"), /blocks\[0\]: block 0 at \(5, 2\) size 2x1 is outside the 6x5 grid/);
  assert.throws(() => validate({ id: "w1-01", width: 6, height: 5, exit: { side: "right", index: 2 },
    win: "beam", blocks: [{ kind: "key", x: 0, y: 2, w: 2, h: 1 }] }), /level w1-01: beam/);
});

test("a stored-style solution replays to a win", () => {
  // y0 . . C . .      crystal at x 2 rows 0..1 ... blocks the key in row 1
  // y1 K K C . .  >
  // y2 . . . . .
  const [b, s] = load("5x4-R1-K0121C2012");
  const end = play(b, s, [[1, 2], [0, 3]]);
  assert.equal(E.isSolved(b, end), true);
});

test("validation is on the share-link path only: compile trusts pack levels (checked in Python)", () => {
  // bug class: page weight. engine.js is on every level page; the checks live in desc.js.
  const lv = { id: "w1-01", width: 6, height: 5, exit: { side: "right", index: 2 },
    blocks: [{ kind: "key", x: 0, y: 2, w: 2, h: 1 }] };
  assert.equal(E.compile(lv).key, 0);
  assert.equal(E.validate, undefined, "engine.js ships no validator");
  assert.throws(() => decodeDesc("6x5-R2-K0221-bN5"), /beam.offset/);
});
