// The level editor's measures (templates/static/measure.js) held to Python's engine: every
// level of the "measures" vectors (lumina/vectors.py: seeded random levels of every kind and
// a spread of the committed ones) must get Python's outcome, par and solution, plans, raw
// solutions, first moves, traps, crystal par, dead blocks, deepest start, the pack's analysis
// record and the "why it's hard" words, within the same budget of states; and the sweep behind
// the deepest start count for count (exact_sweep, its binding_only branch on twist boards). The
// rules under it are engine.js's kernel, which parity.test.mjs replays over every state of the
// rules vectors.
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
  const m = M.measureLevel(level, { cap: budget, planCap: limits.plan_cap, solutionCap: limits.solution_cap,
    chainWork: limits.chain_work, memberCap: limits.member_cap });
  const d = M.deepestStart(level, budget, m);
  const out = { outcome: m.outcome, optimal: m.optimal, moves: m.moves, measured: m.component_states != null };
  if (out.measured) {
    const cp = M.crystalPar(level, budget);
    Object.assign(out, {
      plans: m.plans, plans_capped: m.plans_capped, solutions: m.solutions, solutions_capped: m.solutions_capped,
      dead_blocks: m.dead_blocks, first_moves: m.first_moves, first_moves_legal: m.first_moves_legal,
      component_states: m.component_states, traps: m.traps, crystal_optimal: cp.crystal_optimal,
      chain: m.chain, chain_capped: m.chain_capped, forced: m.forced, optional_twist: m.optional_twist,
    });
    const a = M.analysisRecord(level, m, cp.crystal_optimal, d.complete ? d.deepest : null, limits.analysis);
    if (a) { out.analysis = a; out.why = whyHard(level, m.optimal, a); }
  }
  out.deepest = d.complete ? d.deepest : null;
  if (d.complete) {
    out.sweep = {
      positions: d.positions, deepest_any: d.deepest_any, deepest_binding: d.deepest_binding, binding: d.binding,
      deepest_margin: d.deepest_margin, solvable: d.solvable, histogram: d.histogram, binding_by_par: d.binding_by_par,
      start: d.start,
    };
  }
  return out;
}

/** The JS sweep against Python's (lumina.vectors sweep_vector): every count equal, and the
 * deepest start JS jumps to one of Python's deepest starts (binding ones on twist boards). */
function checkSweep(id, got, want) {
  assert.ok(got, `level ${id}: sweep: JS did not complete the sweep Python completed`);
  const { start, ...counts } = got, { starts, ...wanted } = want;
  for (const k of Object.keys(wanted)) {
    assert.deepEqual(counts[k], wanted[k], `level ${id}: sweep.${k}: JS ${JSON.stringify(counts[k])}, Python ${JSON.stringify(wanted[k])}`);
  }
  const key = JSON.stringify(start);
  assert.ok(starts.length === 0 ? start === null : starts.some((s) => JSON.stringify(s) === key),
    `level ${id}: sweep.start: JS ${key} is not one of Python's ${starts.length} deepest starts`);
}

function checkMeasures(data) {
  assert.ok(Array.isArray(data.measures) && data.measures.length > 0, "the vectors hold no measures");
  assert.ok(data.measures.every((v) => Number.isInteger(v.cap)), "every measured level names its cap");
  for (const v of data.measures) {
    const got = verdicts(v.level, v.cap, data.limits);
    for (const k of Object.keys(v)) {
      if (k === "level" || k === "cap") continue;
      if (k === "sweep") { checkSweep(v.level.id, got.sweep, v.sweep); continue; }
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
  // the record the editor exports holds the lumina-gen/4 measures, as lumina.verify requires
  const gen4 = ["chain", "forced", "deepest", "optional_twist", "mechanics"];
  assert.ok(data.measures.filter((v) => v.analysis).every((v) => gen4.every((k) => k in v.analysis)), "a record without the lumina-gen/4 measures");
  assert.ok(data.measures.some((v) => v.analysis && v.analysis.optional_twist), "no level with an optional twist");
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
  one("chain", (v) => { v.chain += 1; });
  one("analysis", (v) => { v.analysis.forced += 1; });
  one("analysis", (v) => { v.analysis.mechanics.push("beam"); });
});

test("the sweep's binding branch: binding starts per par, the deepest binding start, as exact_sweep(binding_only)", () => {
  const data = load();
  const swept = data.measures.filter((v) => v.sweep);
  const twist = (v) => v.level.blocks.some((b) => ["sand", "ice", "rime"].includes(b.kind));
  // the branch answers otherwise than the plain sweep on these: the deepest start needs no twist
  const apart = swept.filter((v) => twist(v) && v.sweep.deepest_any > v.sweep.deepest_binding && v.sweep.deepest_binding > 0);
  assert.ok(apart.length >= 3, "too few twist boards whose deepest start is not binding");
  assert.ok(apart.some((v) => v.level.win === "beam"), "no beam board whose deepest start is not binding");
  assert.ok(swept.some((v) => twist(v) && v.sweep.binding === 0 && v.sweep.deepest_any > 0), "no twist board without a binding start");
  assert.ok(swept.some((v) => twist(v) && Object.keys(v.sweep.binding_by_par).length > 5), "no twist board binding at many pars");
  const limits = { cap: data.budget, planCap: data.limits.plan_cap, solutionCap: data.limits.solution_cap };
  for (const v of apart) {
    const m = M.measureLevel(v.level, limits), d = M.deepestStart(v.level, v.cap, m);
    checkSweep(v.level.id, verdicts(v.level, v.cap, data.limits).sweep, v.sweep);
    assert.equal(d.deepest, v.sweep.deepest_binding, `level ${v.level.id}: deepest is over binding starts`);
    // the start jumped to is binding: its par over the crystal par of the same blocks
    const jumped = { ...v.level, blocks: v.level.blocks.map((b, i) => ({ ...b, x: d.start[i][0], y: d.start[i][1] })) };
    const par = M.solveLevel(jumped, v.cap).optimal, cpar = M.solveLevel(M.crystalLevel(jumped), v.cap).optimal;
    assert.equal(par, v.sweep.deepest_binding, `level ${v.level.id}: the start's par`);
    assert.ok(cpar == null || cpar < par, `level ${v.level.id}: the start binds (crystal par ${cpar}, par ${par})`);
  }
  // and the checker catches a disagreement in any of it
  const v = apart[0];
  const bad = (f) => { const w = structuredClone(v.sweep); f(w); return w; };
  const got = verdicts(v.level, v.cap, data.limits).sweep;
  assert.throws(() => checkSweep("x", got, bad((w) => { w.binding += 1; })), /sweep\.binding: /);
  assert.throws(() => checkSweep("x", got, bad((w) => { w.deepest_binding += 1; })), /sweep\.deepest_binding: /);
  assert.throws(() => checkSweep("x", got, bad((w) => { w.deepest_margin += 1; })), /sweep\.deepest_margin: /);
  assert.throws(() => checkSweep("x", got, bad((w) => { const k = Object.keys(w.binding_by_par)[0]; w.binding_by_par[k] += 1; })), /sweep\.binding_by_par: /);
  assert.throws(() => checkSweep("x", got, bad((w) => { w.histogram["1"] = (w.histogram["1"] || 0) + 1; })), /sweep\.histogram: /);
  assert.throws(() => checkSweep("x", got, bad((w) => { w.starts = [w.starts[0].map(([x, y]) => [y, x])]; })), /sweep\.start: /);
  assert.throws(() => checkSweep("x", null, v.sweep), /did not complete/);
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
