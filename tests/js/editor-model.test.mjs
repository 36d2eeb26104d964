// The level editor's model (templates/static/editor-model.js): edits, undo and redo, imports,
// and legality held to the Python reader. The "edits" vectors (lumina/vectors.py EDIT_CASES)
// give, for each edit, the level it makes and the reader's one line on it: the model must
// refuse exactly the edits that break the board, with that line, and keep (with that line as
// its problem) a board that is only not a level yet.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createModel, emptyLevel, cleanLevel, parseImport, fromRushHour, notYet } from "../../templates/static/editor-model.js";
import { encodeDesc } from "../../templates/static/desc.js";

const VECTORS = new URL("vectors.json", import.meta.url);
const load = () => {
  assert.ok(existsSync(VECTORS), "tests/js/vectors.json is missing: python -m lumina.vectors --out tests/js/vectors.json");
  return JSON.parse(readFileSync(VECTORS, "utf8"));
};
const desc = (m) => encodeDesc(m.level);

function checkEdits(edits) {
  for (const e of edits) {
    const where = `${e.op}(${JSON.stringify(e.args).slice(1, -1)}) on ${encodeDesc(e.before)}`;
    const m = createModel(e.before), r = m[e.op](...e.args);
    const refuse = e.message !== null && !notYet(e.message);
    if (refuse) {
      assert.equal(r.ok, false, `${where}: the reader refuses it (${e.message}), the model took it`);
      assert.equal(r.reason, e.message, `${where}: reason`);
      assert.deepEqual(m.level, cleanLevel(e.before), `${where}: a refused edit changed the board`);
      assert.equal(m.canUndo, false, `${where}: a refused edit entered the history`);
    } else {
      assert.equal(r.ok, true, `${where}: refused (${r.reason}), the reader says ${e.message}`);
      assert.deepEqual(m.level, cleanLevel(e.after), `${where}: the board after it`);
      assert.equal(m.problem, e.message, `${where}: problem`);
    }
  }
}

test("edits: refused exactly when the Python reader refuses the board, with its one line", () => {
  const { edits } = load();
  assert.ok(edits.length >= 30);
  // every kind of refusal is in the vectors, and every kind of "not a level yet"
  for (const re of [/overlaps block/, /overlaps wall/, /overlaps mirror/, /outside the/, /square block/, /second key/,
    /at most 16/, /mirrors belong/, /not on the right boundary/, /must be between 4 and 8/]) {
    const e = edits.find((x) => re.test(x.message || ""));
    assert.ok(e, `no edit in the vectors is refused for ${re}`);
    assert.equal(notYet(e.message), false, `${re} must be refused, not kept`);
  }
  for (const re of [/no block has kind key/, /can never reach/, /can never cover/, /off the key's/]) {
    const e = edits.find((x) => re.test(x.message || ""));
    assert.ok(e, `no edit in the vectors leaves a board that ${re}`);
    assert.equal(notYet(e.message), true, `${re} is a board not finished yet: kept`);
  }
  checkEdits(edits);
});

test("the edits checker catches a model that disagrees", () => {
  const { edits } = load();
  const one = edits.find((e) => /overlaps block/.test(e.message || ""));
  assert.throws(() => checkEdits([{ ...one, message: one.message.replace("block 0", "block 9") }]), /reason/);
  const fine = edits.find((e) => e.message === null);
  assert.throws(() => checkEdits([{ ...fine, message: "level custom: blocks[1]: block 1 overlaps block 0 at (0, 0)" }]));
});

test("undo and redo walk the history of accepted edits; a new edit forgets what was undone", () => {
  const m = createModel(emptyLevel(6, 6));
  assert.match(m.problem, /no block has kind key/);
  assert.equal(m.canUndo, false);
  assert.ok(m.place("key", 0, 2, 2, 1).ok);
  assert.ok(m.place("crystal", 3, 1, 1, 3).ok);
  assert.ok(m.move(1, 4, 1).ok);
  assert.equal(desc(m), "6x6-R2-K0221C4113");
  assert.equal(m.problem, null);
  assert.ok(m.undo());
  assert.equal(desc(m), "6x6-R2-K0221C3113");
  assert.ok(m.undo());
  assert.ok(m.canRedo);
  assert.ok(m.redo());
  assert.equal(desc(m), "6x6-R2-K0221C3113");
  assert.ok(m.wall(5, 5).ok);                  // a new edit: the undone move is gone
  assert.equal(m.canRedo, false);
  assert.equal(m.redo(), false);
  assert.ok(m.undo() && m.undo() && m.undo());
  assert.equal(m.level.blocks.length, 0);
  assert.equal(m.undo(), false);
});

test("refused edits leave the history alone", () => {
  const m = createModel(parseImport("6x6-R2-K0221C3113"));
  assert.equal(m.place("crystal", 1, 1, 1, 3).ok, false);
  assert.equal(m.canUndo, false);
  assert.ok(m.turn(1).ok);
  assert.equal(m.reshape(1, 3, 1, 1, 1).ok, false);
  assert.ok(m.undo());
  assert.equal(m.canUndo, false);
});

test("cells, walls and mirrors: what stands where, and clearing it", () => {
  const m = createModel(parseImport("6x6-R2-K0221C3113-m41f-bE0"));
  assert.deepEqual(m.at(1, 2), { type: "block", index: 0 });
  assert.deepEqual(m.at(4, 1), { type: "mirror", tilt: "/" });
  assert.equal(m.at(5, 5), null);
  assert.ok(m.wall(5, 5).ok);
  assert.deepEqual(m.at(5, 5), { type: "wall" });
  assert.ok(m.mirror(4, 1, "\\").ok);
  assert.deepEqual(m.at(4, 1), { type: "mirror", tilt: "\\" });
  assert.ok(m.clear(4, 1).ok && m.clear(5, 5).ok && m.clear(3, 2).ok);
  assert.equal(desc(m), "6x6-R2-K0221-bE0");
  assert.equal(m.clear(3, 2).ok, false);
  assert.ok(m.setWin("exit").ok);
  assert.equal(desc(m), "6x6-R2-K0221");
});

test("renaming names the level and gives it a safe id", () => {
  const m = createModel(parseImport("6x6-R2-K0221C3113"));
  assert.ok(m.rename("  The Long Way Round!  ").ok);
  assert.equal(m.level.name, "The Long Way Round!");
  assert.equal(m.level.id, "the-long-way-round");
  assert.ok(m.rename("\u0007").ok);
  assert.equal(m.level.name, undefined);
  assert.equal(m.level.id, "custom");
});

test("imports: a desc, a level JSON, a pack (by id) and Rush Hour boards read as Python reads them", () => {
  const data = load();
  const sol = data.solutions.find((s) => s.level.id === "w1-05") || data.solutions[0];
  assert.deepEqual(parseImport(JSON.stringify(sol.level)).blocks, sol.level.blocks);
  const pack = JSON.stringify({ pack: "p", levels: [{ ...sol.level, id: "a" }, { ...sol.level, id: "b", width: sol.level.width }] });
  assert.equal(parseImport(pack, "b").id, "b");
  assert.equal(parseImport(pack).id, "a");
  assert.ok(data.rush.some((r) => r.desc) && data.rush.some((r) => r.message));
  for (const r of data.rush) {
    if (r.desc) {
      assert.equal(encodeDesc(fromRushHour(r.board)), r.desc, r.board);
      if (r.board.length === 36) assert.equal(encodeDesc(parseImport(r.board)), r.desc, r.board);
    } else {
      assert.throws(() => fromRushHour(r.board), (e) => e.message === r.message, `${r.board}: ${r.message}`);
    }
  }
  assert.throws(() => parseImport("ooooBoooooBoAAooBoooooooooooooooooo"), /desc/);        // 35 cells: read as a desc
  assert.throws(() => parseImport("{not json"), /not valid JSON/);
  assert.throws(() => parseImport('{"levels": []}'), /holds no levels/);
});
