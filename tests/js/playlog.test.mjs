// Tests for templates/static/playlog.js: recording, attempts after a win, bounding, the export's
// schema (docs/PLAYLOG.md) and storage that fails. Run: node --test tests/js/
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import * as L from "../../templates/static/playlog.js";

const META = { level: "w1-07", generator: "lumina-gen/3", board: "4x4-R1-K0121C3112" };
const fresh = () => ({ player: "p-0123456789abcdef", next: 1, attempts: [] });

/** Feed events [type, t, extra] to one recorder; returns the log. */
function play(events, log = fresh(), note = L.recorder(META)) {
  for (const [type, t, extra] of events) note(log, { type, ...(extra || {}) }, t);
  return log;
}

const mv = (t, block, distance) => ["move", t, { block, distance }];
const win = (t, moves, stars, helped = false) => ["win", t, { moves, stars, helped }];

test("an attempt keeps every action with the time since the one before", () => {
  const log = play([["start", 1000], mv(3500, 1, 1), ["undo", 4000], mv(4500.4, 1, 1), ["hint", 9000],
    mv(9100, 0, 2), win(9101, 2, 2, true)]);
  assert.equal(log.next, 2);
  assert.deepEqual(log.attempts, [{ n: 1, ...META, events: [["move", 2500, 1, 1], ["undo", 500], ["move", 500, 1, 1],
    ["hint", 4500], ["move", 100, 0, 2], ["win", 1, 2, 2, 1]] }]);
});

test("leaving ends an attempt; events with no attempt open are not kept", () => {
  const log = play([["leave", 0], ["start", 0], mv(10, 1, 1), ["leave", 20], ["leave", 30]]);
  assert.deepEqual(log.attempts.map((a) => a.events.map((e) => e[0])), [["move", "leave"]]);
});

test("after a win, Reset (Try again) starts a fresh attempt without the reset", () => {
  const log = play([["start", 0], mv(10, 1, 1), mv(20, 0, 2), win(20, 2, 3), ["reset", 500], mv(900, 1, 1)]);
  assert.equal(log.attempts.length, 2);
  assert.deepEqual(log.attempts[1], { n: 2, ...META, events: [["move", 400, 1, 1]] });
});

test("after a win, Undo starts an attempt from where the board stands, help carried", () => {
  const log = play([["start", 0], ["solution", 5], mv(6, 1, 1), mv(20, 0, 2), win(20, 2, 2, true),
    ["undo", 700], mv(800, 0, 1)]);
  assert.deepEqual(log.attempts[1], { n: 2, ...META, from: [[1, 1], [0, 2]], helped: true,
    events: [["undo", 0], ["move", 100, 0, 1]] });
});

test("the board's history is followed through undo, redo and reset", () => {
  const log = play([["start", 0], mv(1, 1, 1), mv(2, 0, 1), ["undo", 3], ["undo", 4], ["redo", 5], mv(6, 0, 2),
    win(7, 2, 3), ["undo", 8]]);
  assert.deepEqual(log.attempts[1].from, [[1, 1], [0, 2]]);
  const again = play([["start", 0], ["hint", 1], mv(2, 1, 1), ["reset", 3], mv(4, 1, 1), mv(5, 0, 2), win(6, 2, 3), ["undo", 7]]);
  assert.deepEqual(again.attempts[1].from, [[1, 1], [0, 2]]);
  assert.equal(again.attempts[1].helped, undefined, "reset clears help");
});

test("pauses are clamped to a day and never negative", () => {
  const log = play([["start", 5000], ["hint", 1000], ["undo", 1000 + 3 * L.MAX_MS]]);
  assert.deepEqual(log.attempts[0].events.map((e) => e[1]), [0, L.MAX_MS]);
});

test("an attempt stops keeping records at MAX_EVENTS", () => {
  const evs = [["start", 0]];
  for (let i = 0; i < L.MAX_EVENTS + 10; i++) evs.push(mv(i, 1, i % 2 ? -1 : 1));
  assert.equal(play(evs).attempts[0].events.length, L.MAX_EVENTS);
});

test("bounding drops the oldest attempts first and never the one being played", () => {
  const log = fresh(), note = L.recorder(META);
  for (let k = 0; k < 50; k++) play([["start", 0], ...Array.from({ length: 40 }, (_, i) => mv(i, 1, 1)), ["leave", 99]], log, note);
  const text = L.bound(log, 20000);
  assert.ok(text.length <= 20000, text.length);
  assert.deepEqual(JSON.parse(text), log);
  const kept = log.attempts.map((a) => a.n);
  assert.equal(kept.at(-1), 50);
  assert.deepEqual(kept, Array.from({ length: kept.length }, (_, i) => 51 - kept.length + i), "a run of the newest");
  const one = fresh();
  play([["start", 0], ...Array.from({ length: 1500 }, (_, i) => mv(i, 1, 1))], one);
  L.bound(one, 1000);
  assert.equal(one.attempts.length, 1, "the attempt being played stays, whatever its size");
});

test("the export is the file format: a header, then each attempt's start and records", () => {
  const log = play([["start", 0], mv(10, 1, 1), ["undo", 20], ["redo", 25], ["hint", 30], ["solution", 31],
    mv(32, 0, 2), win(32, 2, 2, true), ["undo", 40], ["reset", 50], ["leave", 60]]);
  const lines = L.toJsonl(log).split("\n");
  assert.equal(lines.pop(), "", "ends with a newline");
  const recs = lines.map((l) => JSON.parse(l));
  assert.deepEqual(recs[0], { log: "lumina-play", version: 1, player: "p-0123456789abcdef", source: "browser" });
  const FIELDS = {
    start: ["attempt", "type", "level", "generator", "board", "from", "helped"], move: ["attempt", "type", "block", "distance", "ms"],
    win: ["attempt", "type", "moves", "stars", "helped", "ms"],
  };
  for (const r of recs.slice(1)) {
    const allowed = FIELDS[r.type] || ["attempt", "type", "ms"];
    for (const k of Object.keys(r)) assert.ok(allowed.includes(k), `${r.type}.${k}`);
    if (r.type !== "start") assert.ok(Number.isInteger(r.ms) && r.ms >= 0 && r.ms <= L.MAX_MS);
  }
  assert.deepEqual(recs.slice(1).map((r) => `${r.attempt}:${r.type}`), ["1:start", "1:move", "1:undo", "1:redo", "1:hint",
    "1:solution", "1:move", "1:win", "2:start", "2:undo", "2:reset", "2:leave"]);
  assert.deepEqual(recs[9], { attempt: 2, type: "start", ...META, from: [[1, 1], [0, 2]], helped: true });
  assert.deepEqual(recs[8], { attempt: 1, type: "win", moves: 2, stars: 2, helped: true, ms: 0 });
});

test("player ids are random hex; a stored log that is not one reads as a fresh log", () => {
  assert.match(L.playerId(), /^p-[0-9a-f]{16}$/);
  assert.notEqual(L.playerId(), L.playerId());
  for (const raw of [null, "{", "[]", '{"player": "x", "next": 1, "attempts": []}']) {
    const log = L.parseLog(raw, () => "p-ffffffffffffffff");
    assert.deepEqual(log, { player: "p-ffffffffffffffff", next: 1, attempts: [] }, String(raw));
  }
  const kept = L.parseLog(JSON.stringify({ player: "p-0123456789abcdef", next: 7,
    attempts: [{ n: 6, ...META, events: [null, ["undo", 5], 3] }, { n: "x" }, { n: 5, events: [] }, null] }));
  assert.deepEqual(kept, { player: "p-0123456789abcdef", next: 7, attempts: [{ n: 6, ...META, events: [["undo", 5]] }] });
  assert.doesNotThrow(() => L.toJsonl(kept));
});

test("a stored log is held to the play-log schema's ranges (issue 28)", () => {
  const P = "p-0123456789abcdef";
  for (const next of [0, -1, 2 ** 53, 1.5, "7", null]) {    // the counter restarts after the kept
    assert.deepEqual(L.parseLog(JSON.stringify({ player: P, next, attempts: [{ n: 3, ...META, events: [] }] })),
      { player: P, next: 4, attempts: [{ n: 3, ...META, events: [] }] }, String(next));
  }
  const log = L.parseLog(JSON.stringify({ player: P, next: 9, attempts: [
    { n: 2 ** 53, ...META, events: [] }, { n: 1, ...META, level: "../x", events: [] },
    { n: 2, ...META, board: "a\u2028b", events: [] }, { n: 3, ...META, from: [[99, 1]], events: [] },
    { n: 4, ...META, events: [["move", 1e20, 1, 1], ["move", -5, 99, 1], ["move", 5, 1, 0], ["win", 5, 3, 7, 1],
      ["win", 5, 3, 2, 0], ["nap", 5], ["undo", "x"]] }] }));
  assert.deepEqual(log.attempts, [{ n: 4, ...META, events: [["move", L.MAX_MS, 1, 1], ["win", 5, 3, 2, 0], ["undo", 0]] }]);
  assert.equal(log.next, 9);
  const top = L.parseLog(JSON.stringify({ player: P, next: 5, attempts: [{ n: L.MAX_ATTEMPT, ...META, events: [] }] }));
  assert.deepEqual([top.attempts[0].n, top.next], [1, 2], "renumbered below the schema's top");
});

class MockStorage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { if (String(v).length > 5000) throw new Error("QuotaExceededError"); this.items.set(k, String(v)); }
}
beforeEach(() => { globalThis.localStorage = new MockStorage(); });

test("attach records a board's events in storage, queued ones first, and survives failing storage", () => {
  const el = new EventTarget();
  const queued = [];
  const keep = (e) => queued.push(e);
  el.addEventListener("lumina-play", keep);
  const send = (detail) => el.dispatchEvent(new CustomEvent("lumina-play", { detail }));
  send({ type: "start" });
  L.attach(el, { id: META.level }, META.generator, META.board, queued, keep);
  send({ type: "move", block: 1, distance: 1 });
  assert.equal(queued.length, 1, "the queueing listener is gone");
  const log = L.load();
  assert.equal(log.attempts.length, 1);
  assert.deepEqual(log.attempts[0].events.map((e) => e[0]), ["move"]);
  for (let i = 0; i < 400; i++) send({ type: "move", block: 1, distance: i % 2 ? 1 : -1 });   // storage now refuses: no throw
  globalThis.localStorage = { getItem() { throw new Error("SecurityError"); }, setItem() { throw new Error("SecurityError"); } };
  assert.doesNotThrow(() => send({ type: "undo" }));
  delete globalThis.localStorage;
  assert.doesNotThrow(() => send({ type: "undo" }));
});
