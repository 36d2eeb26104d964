// The level editor's measures (templates/static/measure.js) held to Python's engine: every
// level of the "measures" vectors (lumina/vectors.py: seeded random levels of every kind and
// a spread of the committed ones) must get Python's outcome, par and solution, plans, raw
// solutions, first moves, traps, crystal par, dead blocks, deepest start, the pack's analysis
// record and the "why it's hard" words, within the same budget of states. The bitboard
// kernel is also replayed over every state of the rules vectors (legal moves, solved flag).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import * as M from "../../templates/static/measure.js";
import { whyHard } from "../../templates/static/editor-why.js";

const VECTORS = new URL("vectors.json", import.meta.url);
const load = () => {
  assert.ok(existsSync(VECTORS), "tests/js/vectors.json is missing: python -m lumina.vectors --out tests/js/vectors.json");
  return JSON.parse(readFileSync(VECTORS, "utf8"));
};

/** The JS verdicts on a level, in the vectors' terms. */
function verdicts(level, budget, limits) {
  const m = M.measureLevel(level, { cap: budget, planCap: limits.plan_cap, solutionCap: limits.solution_cap });
  const out = { outcome: m.outcome, optimal: m.optimal, moves: m.moves, measured: m.component_states != null };
  if (out.measured) {
    const cp = M.crystalPar(level, budget);
    Object.assign(out, {
      plans: m.plans, plans_capped: m.plans_capped, solutions: m.solutions, solutions_capped: m.solutions_capped,
      dead_blocks: m.dead_blocks, first_moves: m.first_moves, first_moves_legal: m.first_moves_legal,
      component_states: m.component_states, traps: m.traps, crystal_optimal: cp.crystal_optimal,
    });
    const a = M.analysisRecord(level, m, cp.crystal_optimal);
    if (a) { out.analysis = a; out.why = whyHard(level, m.optimal, a); }
  }
  const d = M.deepestStart(level, budget, m);
  out.deepest = d.complete ? d.deepest : null;
  return out;
}

function checkMeasures(data) {
  assert.ok(Array.isArray(data.measures) && data.measures.length > 0, "the vectors hold no measures");
  assert.ok(data.measures.every((v) => Number.isInteger(v.cap)), "every measured level names its cap");
  for (const v of data.measures) {
    const got = verdicts(v.level, v.cap, data.limits);
    for (const k of Object.keys(v)) {
      if (k === "level" || k === "cap") continue;
      assert.deepEqual(got[k], v[k], `level ${v.level.id}: ${k}: JS ${JSON.stringify(got[k])}, Python ${JSON.stringify(v[k])}`);
    }
  }
  return data.measures.length;
}

test("measures: every level of the vectors as Python measures it", () => {
  const data = load();
  const kinds = new Set(data.measures.flatMap((v) => v.level.blocks.map((b) => b.kind)));
  for (const k of ["key", "crystal", "sand", "ice", "rime"]) assert.ok(kinds.has(k), `no ${k} block in the measures vectors`);
  assert.ok(data.measures.some((v) => v.level.win === "beam" && v.outcome === "solved"), "no solved beam level");
  assert.ok(data.measures.some((v) => v.outcome === "unsolvable"), "no unsolvable level");
  assert.ok(data.measures.some((v) => v.analysis && v.analysis.crystal_optimal < v.optimal), "no binding twist level");
  assert.ok(data.measures.some((v) => v.plans > 1 && v.deepest > 20), "no deep level with several plans");
  checkMeasures(data);
});

test("the measures checker catches a disagreement", () => {
  const data = load();
  const one = (k, f) => {
    const d = { ...data, measures: [structuredClone(data.measures.find((v) => v[k] != null && v.analysis))] };
    f(d.measures[0]);
    assert.throws(() => checkMeasures(d), new RegExp(`: ${k}: `));
  };
  one("plans", (v) => { v.plans += 1; });
  one("deepest", (v) => { v.deepest += 1; });
  one("first_moves", (v) => { v.first_moves.pop(); });
  one("why", (v) => { v.why.hard += "!"; });
});

test("the bitboard kernel: the legal moves and solved flag of every state of the rules vectors", () => {
  const data = load();
  const mb = new Int8Array(256), md = new Int8Array(256);
  let states = 0;
  for (const c of data.cases) {
    const core = M.compileCore(c.level);
    for (const v of c.states) {
      const pos = new Uint8Array(core.n);
      let fl = 0;
      c.level.blocks.forEach((b, i) => {
        pos[i] = core.horiz[i] ? v.positions[i][0] : v.positions[i][1];
        if (core.flagbit[i] >= 0 && v.flags[i]) fl |= 1 << core.flagbit[i];
      });
      const n = M.genMoves(core, pos, fl, mb, md), moves = [];
      for (let k = 0; k < n; k++) moves.push([mb[k], md[k]]);
      assert.deepEqual(moves, v.moves, `level ${c.level.id} at ${JSON.stringify(v.positions)}: legal moves`);
      assert.equal(M.solved(core, pos), v.solved, `level ${c.level.id} at ${JSON.stringify(v.positions)}: solved`);
      states++;
    }
  }
  assert.ok(states > 1000);
});

test("levels over their cap: exhausted with nothing known, or a win met before the cap", () => {
  const over = load().measures.filter((v) => v.cap < 100000);
  assert.deepEqual(over.map((v) => [v.outcome, v.measured]), [["exhausted", false], ["solved", false]]);
  for (const v of over) assert.equal(M.measureLevel(v.level, { cap: v.cap, planCap: 1, solutionCap: 1 }).states, v.cap);
});

test("the deepest start found is a start of that depth", () => {
  const data = load();
  const v = data.measures.find((x) => x.level.id === "w5-30") || data.measures.find((x) => x.deepest > x.optimal);
  const limits = { cap: data.budget, planCap: data.limits.plan_cap, solutionCap: data.limits.solution_cap };
  const d = M.deepestStart(v.level, data.budget, M.measureLevel(v.level, limits));
  const jumped = { ...v.level, blocks: v.level.blocks.map((b, i) => ({ ...b, x: d.start[i][0], y: d.start[i][1] })) };
  assert.equal(M.solveLevel(jumped, data.budget).optimal, d.deepest);
});
