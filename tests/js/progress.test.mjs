// Tests for templates/static/progress.js with a mock localStorage. Run: node --test tests/js/
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import * as P from "../../templates/static/progress.js";

class MockStorage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
}
beforeEach(() => { globalThis.localStorage = new MockStorage(); });

test("missing storage entry reads as empty progress", () => {
  assert.deepEqual(P.loadProgress(), { levels: {} });
  assert.equal(P.starsFor("w1-01"), 0);
});

test("corrupt JSON and wrong shapes read as empty, never throw", () => {
  for (const raw of ["{not json", "null", "[]", '{"levels": []}', '{"levels": 5}', '"x"', '{"levels": {"w1-01": "x"}}']) {
    localStorage.setItem(P.KEY, raw);
    assert.deepEqual(P.loadProgress(), { levels: {} }, raw);
  }
  localStorage.setItem(P.KEY, '{"levels": {"w1-01": {"stars": 9, "best": 4}, "w1-02": {"stars": "3"}}}');
  assert.deepEqual(P.loadProgress(), { levels: { "w1-01": { stars: 3, best: 4 } } });
});

test("storage that throws (blocked, private mode) still works in memory", () => {
  globalThis.localStorage = { getItem() { throw new Error("SecurityError"); }, setItem() { throw new Error("QuotaExceeded"); } };
  assert.deepEqual(P.loadProgress().levels["w9-99"], undefined);
  assert.deepEqual(P.recordResult("w9-99", 5, 5), { stars: 3, best: 5 });
  assert.equal(P.starsFor("w9-99"), 3);
  Object.defineProperty(globalThis, "localStorage", { configurable: true, get() { throw new Error("denied"); } });
  assert.doesNotThrow(() => P.loadProgress());
  delete globalThis.localStorage;
});

test("recordResult keeps the most stars and the fewest moves, in the documented shape", () => {
  assert.deepEqual(P.recordResult("w1-03", 9, 7), { stars: 2, best: 9 });
  assert.deepEqual(P.recordResult("w1-03", 12, 7), { stars: 2, best: 9 });
  assert.deepEqual(P.recordResult("w1-03", 7, 7), { stars: 3, best: 7 });
  assert.deepEqual(P.recordResult("w1-03", 20, 7), { stars: 3, best: 7 });
  assert.deepEqual(JSON.parse(localStorage.getItem("lumina.progress.v1")), { levels: { "w1-03": { stars: 3, best: 7 } } });
  assert.equal(P.starsFor("w1-03"), 3);
});

test("totalStars with and without a prefix; gates", () => {
  P.recordResult("w1-01", 3, 3); P.recordResult("w1-02", 6, 3); P.recordResult("w2-01", 4, 3); P.recordResult("d-001", 3, 3);
  const p = P.loadProgress();
  assert.equal(P.totalStars(p), 3 + 1 + 2 + 3);
  assert.equal(P.totalStars(p, "w1-"), 4);
  assert.equal(P.totalStars(p, "w2-"), 2);
  assert.equal(P.totalStars(), 9);
  assert.deepEqual({ ...P.GATES }, { 1: 0, 2: 40, 3: 110, 4: 170, 5: 230 });
  assert.equal(P.isWorldUnlocked(1, 0), true);
  assert.equal(P.isWorldUnlocked(2, 39), false);
  assert.equal(P.isWorldUnlocked(2, 40), true);
  assert.equal(P.isWorldUnlocked(5, 229), false);
  assert.equal(P.isWorldUnlocked(5, 230), true);
  assert.equal(P.isWorldUnlocked(6, 999), false);
});
