// Tests for templates/static/progress.js with a mock localStorage. Run: node --test tests/js/
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import * as P from "../../templates/static/progress.js";
import { summary, streak } from "../../templates/static/summary.js";

class MockStorage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
}
beforeEach(() => { globalThis.localStorage = new MockStorage(); });
// loadProgress's levels is a null-prototype object; compare its own entries
const plain = (p) => ({ ...p, levels: { ...p.levels } });

/** Stars earned on one level as the page reads them (0 if never finished). */
const starsOf = (id) => (P.loadProgress().levels[id] || { stars: 0 }).stars;

test("missing storage entry reads as empty progress", () => {
  assert.deepEqual(plain(P.loadProgress()), { levels: {}, days: [] });
  assert.equal(starsOf("w1-01"), 0);
});

test("corrupt JSON and wrong shapes read as empty, never throw", () => {
  for (const raw of ["{not json", "null", "[]", '{"levels": []}', '{"levels": 5}', '"x"', '{"levels": {"w1-01": "x"}}']) {
    localStorage.setItem(P.KEY, raw);
    assert.deepEqual(plain(P.loadProgress()), { levels: {}, days: [] }, raw);
  }
  localStorage.setItem(P.KEY, '{"levels": {"w1-01": {"stars": 9, "best": 4}, "w1-02": {"stars": "3"}}, "days": [5, "x", 3, 5]}');
  assert.deepEqual(plain(P.loadProgress()), { levels: { "w1-01": { stars: 3, best: 4 } }, days: [3, 5] });
});

test("storage that throws (blocked, private mode) still works in memory", () => {
  globalThis.localStorage = { getItem() { throw new Error("SecurityError"); }, setItem() { throw new Error("QuotaExceeded"); } };
  assert.deepEqual(P.loadProgress().levels["w9-99"], undefined);
  assert.deepEqual(P.recordResult("w9-99", { stars: 3, moves: 5 }), { stars: 3, best: 5 });
  assert.equal(starsOf("w9-99"), 3);
  Object.defineProperty(globalThis, "localStorage", { configurable: true, get() { throw new Error("denied"); } });
  assert.doesNotThrow(() => P.loadProgress());
  delete globalThis.localStorage;
});

test("recordResult keeps the most stars and the fewest unhelped moves, in the documented shape", () => {
  assert.deepEqual(P.recordResult("w1-03", { stars: 2, moves: 9 }), { stars: 2, best: 9 });
  assert.deepEqual(P.recordResult("w1-03", { stars: 1, moves: 12 }), { stars: 2, best: 9 });
  // a helped par run: its stars count (capped by core.starsFor), its moves are not a best
  assert.deepEqual(P.recordResult("w1-03", { stars: 2, moves: 7, helped: true }), { stars: 2, best: 9 });
  // a later honest par win after Reset still saves three stars
  assert.deepEqual(P.recordResult("w1-03", { stars: 3, moves: 7 }), { stars: 3, best: 7 });
  assert.deepEqual(P.recordResult("w1-03", { stars: 1, moves: 20 }), { stars: 3, best: 7 });
  assert.deepEqual(JSON.parse(localStorage.getItem("lumina.progress.v1")), { levels: { "w1-03": { stars: 3, best: 7 } }, days: [] });
  assert.equal(starsOf("w1-03"), 3);
  assert.deepEqual(P.recordResult("d-004", { stars: 1, moves: 3, helped: true }), { stars: 1, best: null });
  assert.equal(starsOf("d-004"), 1);
});

test("totalStars with and without a prefix; gates from site data", () => {
  for (const [id, st] of [["w1-01", 3], ["w1-02", 1], ["w2-01", 2], ["d-001", 3]]) P.recordResult(id, { stars: st, moves: 3 });
  const p = P.loadProgress();
  assert.equal(P.totalStars(p), 3 + 1 + 2 + 3);
  assert.equal(P.totalStars(p, "w1-"), 4);
  assert.equal(P.totalStars(p, "w2-"), 2);
  assert.equal(P.totalStars(), 9);
  const gates = { 1: 0, 2: 40, 3: 110 };
  assert.equal(P.isWorldUnlocked(1, 0, gates), true);
  assert.equal(P.isWorldUnlocked(2, 39, gates), false);
  assert.equal(P.isWorldUnlocked(2, 40, gates), true);
  assert.equal(P.isWorldUnlocked(3, 109, { ...gates, 3: 100 }), true);
  assert.equal(P.isWorldUnlocked(6, 999, gates), false);
});

test("daily streak: days in a row ending today or yesterday", () => {
  assert.equal(streak([], 100), 0);
  assert.equal(streak([98, 99, 100], 100), 3);
  assert.equal(streak([98, 99], 100), 2);          // today not played yet: the streak holds
  assert.equal(streak([97, 98], 100), 0);          // missed yesterday: broken
  assert.equal(streak([90, 95, 96, 100], 100), 1);
  P.recordResult("d-010", { stars: 3, moves: 4 }, 99);
  P.recordResult("d-011", { stars: 2, moves: 6 }, 100);
  P.recordResult("d-011", { stars: 3, moves: 4 }, 100);
  assert.deepEqual(P.loadProgress().days, [99, 100]);
});

test("summary: stars, solved and best-at-par per world, dailies and streak", () => {
  P.recordResult("w1-01", { stars: 3, moves: 2 });
  P.recordResult("w1-02", { stars: 2, moves: 6 });
  P.recordResult("w2-05", { stars: 2, moves: 5, helped: true });
  P.recordResult("d-001", { stars: 3, moves: 4 }, 50);
  const s = summary(P.loadProgress(), [{ n: 1, levels: 30 }, { n: 2, levels: 30 }], { "w1-01": 2, "w1-02": 4, "w2-05": 5 }, 50);
  assert.deepEqual(s.worlds, [{ n: 1, stars: 5, solved: 2, levels: 30, atPar: 1 }, { n: 2, stars: 2, solved: 1, levels: 30, atPar: 0 }]);
  assert.equal(s.stars, 7); assert.equal(s.solved, 3); assert.equal(s.dailies, 1); assert.equal(s.streak, 1);
});

test("a stored id named like an Object.prototype member is just an id (issue 20, class 19)", () => {
  const names = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"];
  const levels = Object.fromEntries(names.map((n) => [n, { stars: 3, best: 2 }]));
  localStorage.setItem(P.KEY, JSON.stringify({ levels: { ...levels, "w1-01": { stars: 2, best: 5 } } }));
  const p = P.loadProgress();
  assert.deepEqual(Object.keys(p.levels).sort(), [...names, "w1-01"].sort());
  assert.equal(Object.getPrototypeOf(p.levels), null);
  assert.equal(p.levels.stars, undefined, "no entry became the levels' prototype");
  assert.equal(starsOf("w1-02"), 0);
  assert.equal(P.totalStars(p, "w"), 2);
  assert.deepEqual(P.recordResult("w1-02", { stars: 3, moves: 4 }), { stars: 3, best: 4 });
  assert.equal(P.loadProgress().levels.constructor.stars, 3);
  const s = summary(p, [{ n: 1, levels: 30 }], { "w1-01": 5 }, 50);
  assert.equal(s.worlds[0].stars, 2);
  assert.equal(s.worlds[0].atPar, 1);
});
