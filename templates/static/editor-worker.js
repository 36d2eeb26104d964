// Lumina editor worker: the verdicts on the board being drawn, off the page's main thread.
// In: {id, level, limits: {budget, plan_cap, solution_cap[, chain_work, member_cap], analysis}}. Out, in stages as each is known (every message carries id, stage
// and ms since the request):
//   {stage: "measures", outcome, optimal, moves, plans, ..., states}   measure.measureLevel
//   {stage: "crystal", crystal_optimal}                                 twist boards only
//   {stage: "deepest", deepest, start, complete, ...}                   measure.deepestStart
//   {stage: "analysis", analysis}                                       the pack's record
//   {stage: "done", states}  or  {stage: "error", message}
// Every search is bounded by `budget` states (never by time); the limits are the page's
// #editor-data, lumina.engine's own (DEFAULT_STATE_CAP, DEFAULT_PLAN_CAP, ...); a new request while one runs
// is answered by the page terminating this worker and starting another.
import { measureLevel, crystalPar, deepestStart, analysisRecord } from "./measure.js";

self.onmessage = (e) => {
  const { id, level, limits } = e.data, budget = limits.budget, t0 = performance.now();
  const post = (stage, data = {}) => self.postMessage({ id, stage, ms: Math.round(performance.now() - t0), ...data });
  try {
    const m = measureLevel(level, { cap: budget, planCap: limits.plan_cap, solutionCap: limits.solution_cap,
      chainWork: limits.chain_work, memberCap: limits.member_cap });
    let states = m.states;
    const { graph, dag, ...shown } = m;
    post("measures", shown);
    if (m.outcome === "exhausted") { post("done", { states }); return; }
    const cp = crystalPar(level, budget);
    states += cp.states;
    if (cp.states) post("crystal", { crystal_optimal: cp.crystal_optimal });
    const d = deepestStart(level, budget, m);
    states += d.states;
    post("deepest", d);
    // the record holds the board's deepest (lumina-gen/4), so it follows the sweep
    const a = analysisRecord(level, m, cp.crystal_optimal, d.complete ? d.deepest : null, limits.analysis);
    if (a) post("analysis", { analysis: a });
    post("done", { states });
  } catch (err) {
    post("error", { message: String(err && err.message || err) });
  }
};
