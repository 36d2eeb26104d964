// Lumina measures in JavaScript: the Cython engine's graph measures (lumina/engine/graph.pyx)
// ported for the level editor's worker. Pure logic, no DOM: it runs in editor-worker.js and
// under node --test, held to Python by parity vectors (lumina/vectors.py "measures").
//
// The rules here are engine.js's kernel: the one move generator, thaw and
// win test the board and the hint search play by, held to Python by the parity vectors;
// states are keyed as engine.js draws them.
//
// The component is enumerated once with its edges (CSR arrays), a breadth-first sweep
// runs back from every goal (dist = moves to the nearest win), and everything else
// (par, plans, raw solutions, dead blocks, first moves, traps, chain) is read off the
// optimal DAG: states with depth + dist = par, edges one layer on.

import { SAND, ICE, RIME, LOW_BLOCKS, KINDS, compileCore, startOf, thaw, genMoves, doMove, solved } from "./engine.js";


export const TWIST_KINDS = KINDS.slice(2);   // sand, ice, rime

// ------------------------------------------------------------------ the graph

const mix = (lo, hi) => {
  let h = Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1);
  h ^= h >>> 15; h = Math.imul(h, 0x2c1b3c6d); h ^= h >>> 12;
  return h;
};

/** Starts for buildGraph from [{pos, fl}]: {count, P (positions, flat), FL}. */
export function seeds(list, nb) {
  const P = new Uint8Array(list.length * nb), FL = new Int32Array(list.length);
  list.forEach((s, i) => { P.set(s.pos, i * nb); FL[i] = s.fl; });
  return { count: list.length, P, FL };
}

/**
 * Every state reachable from the starts (`seeds`: {count, P, FL}) under `c`'s rules, with
 * every edge kept (CSR: off, to, eb, ed), in breadth-first order from the starts (depth =
 * layer; start i is state i). At most `cap` states: past that `capped` is true.
 * `firstGoal` is the first winning state discovered (the nearest win of the first start), or
 * -1; with `stopAtGoal` the search ends there (lumina.engine.solve: the edges are then partial).
 */
export function buildGraph(c, starts, cap, stopAtGoal = false) {
  const nb = c.n, mult = c.mult, fm = c.flagMult;
  let alloc = 1024;
  while (alloc < starts.count * 2) alloc *= 2;
  let P = new Uint8Array(alloc * nb), FL = new Int32Array(alloc), KL = new Int32Array(alloc), KH = new Int32Array(alloc);
  let depth = new Int16Array(alloc), parent = new Int32Array(alloc), goal = new Uint8Array(alloc), off = new Int32Array(alloc + 1);
  let ealloc = 1 << 14, to = new Int32Array(ealloc), eb = new Int8Array(ealloc), ed = new Int8Array(ealloc);
  let tcap = 2048;
  while (tcap < alloc * 2) tcap *= 2;
  let tl = new Int32Array(tcap), th = new Int32Array(tcap), tv = new Int32Array(tcap).fill(-1);
  let n = 0, ne = 0, firstGoal = -1, capped = false;
  const cur = new Uint8Array(nb), row = new Uint8Array(nb), mb = new Int8Array(256), md = new Int8Array(256);

  /** The key of positions `p` (from `at`) with flags `fl`: [low word, high word]. */
  function keyOf(p, at, fl) {
    let lo = 0, hi = 0;
    for (let i = 0; i < nb; i++) if (i < LOW_BLOCKS) lo += p[at + i] * mult[i]; else hi += p[at + i] * mult[i];
    return [lo | 0, (hi + fl * fm) | 0];
  }
  function grow() {
    const na = alloc * 2, wider = (A, size) => { const b = new A.constructor(size); b.set(A); return b; };
    P = wider(P, na * nb); FL = wider(FL, na); KL = wider(KL, na); KH = wider(KH, na); depth = wider(depth, na);
    parent = wider(parent, na); goal = wider(goal, na); off = wider(off, na + 1);
    alloc = na;
  }
  function rehash() {
    const ol = tl, oh = th, ov = tv;
    tcap *= 2; tl = new Int32Array(tcap); th = new Int32Array(tcap); tv = new Int32Array(tcap).fill(-1);
    const m = tcap - 1;
    for (let i = 0; i < ov.length; i++) {
      if (ov[i] < 0) continue;
      let h = mix(ol[i], oh[i]) & m;
      while (tv[h] >= 0) h = (h + 1) & m;
      tl[h] = ol[i]; th[h] = oh[i]; tv[h] = ov[i];
    }
  }
  /** The slot of key (lo, hi): holding it, or the empty slot where it belongs. */
  function slot(lo, hi) {
    const m = tcap - 1;
    let h = mix(lo, hi) & m;
    while (tv[h] >= 0 && !(tl[h] === lo && th[h] === hi)) h = (h + 1) & m;
    return h;
  }
  /** Append a new state at slot h: the positions are `src` from `at` (block b moved d more). */
  function append(h, lo, hi, fl, src, at, b, d, par, dep) {
    if (n === alloc) grow();
    tl[h] = lo; th[h] = hi; tv[h] = n;
    const o = n * nb;
    for (let i = 0; i < nb; i++) P[o + i] = row[i] = src[at + i];
    if (b >= 0) { P[o + b] += d; row[b] += d; }
    FL[n] = fl; KL[n] = lo; KH[n] = hi; depth[n] = dep; parent[n] = par;
    if (solved(c, row)) { goal[n] = 1; if (firstGoal < 0) firstGoal = n; }
    n++;
    if (n * 2 > tcap) rehash();
  }

  for (let i = 0; i < starts.count && !capped; i++) {
    const [lo, hi] = keyOf(starts.P, i * nb, starts.FL[i]), h = slot(lo, hi);
    if (tv[h] >= 0) continue;
    if (n >= cap) capped = true;
    else append(h, lo, hi, starts.FL[i], starts.P, i * nb, -1, 0, -1, 0);
  }
  let head = 0;
  if (!(stopAtGoal && firstGoal >= 0)) {
    for (; head < n && !capped; head++) {
      const base = head * nb, fl = FL[head], hl = KL[head], hh = KH[head], dep = depth[head] + 1;
      for (let i = 0; i < nb; i++) cur[i] = P[base + i];
      const cnt = genMoves(c, cur, fl, mb, md);
      if (ne + cnt > ealloc) {
        while (ne + cnt > ealloc) ealloc *= 2;
        const t2 = new Int32Array(ealloc); t2.set(to); to = t2;
        const b2 = new Int8Array(ealloc); b2.set(eb); eb = b2;
        const d2 = new Int8Array(ealloc); d2.set(ed); ed = d2;
      }
      off[head] = ne;
      for (let j = 0; j < cnt; j++) {
        const b = mb[j], d = md[j];
        const nf = doMove(c, cur, fl, b, d);
        cur[b] -= d;
        let nl = hl, nh = hh;
        if (b < LOW_BLOCKS) nl = (hl + d * mult[b]) | 0; else nh = ((hh >>> 0) + d * mult[b]) | 0;
        if (nf !== fl) nh = ((nh >>> 0) + (nf - fl) * fm) | 0;
        const h = slot(nl, nh);
        let r = tv[h];
        if (r < 0) {
          if (n >= cap) { capped = true; break; }
          r = n;
          append(h, nl, nh, nf, cur, 0, b, d, head, dep);
        }
        to[ne] = r; eb[ne] = b; ed[ne] = d; ne++;
        if (stopAtGoal && firstGoal >= 0) break;
      }
      if (stopAtGoal && firstGoal >= 0) { head++; break; }
    }
  }
  off[head] = ne;
  return {
    c, n, ne, P, FL, depth, parent, goal, off, to, eb, ed, capped, firstGoal,
    /** Index of a state (positions, flags), or -1. */
    find(p, fl) { const [lo, hi] = keyOf(p, 0, fl); return tv[slot(lo, hi)]; },
    posOf: (i) => P.subarray(i * nb, i * nb + nb),
  };
}

/** dist[i] = moves from state i to the nearest win (-1: none): one sweep back from every goal
 * along reversed edges (`undirected`: crystal graphs are symmetric, so forward edges serve). */
export function distToGoal(g, undirected) {
  const n = g.n, dist = new Int32Array(n).fill(-1), queue = new Int32Array(n);
  let tail = 0;
  for (let i = 0; i < n; i++) if (g.goal[i]) { dist[i] = 0; queue[tail++] = i; }
  let roff = g.off, rto = g.to;
  if (!undirected) {
    roff = new Int32Array(n + 1); rto = new Int32Array(g.ne);
    for (let e = 0; e < g.ne; e++) roff[g.to[e] + 1]++;
    for (let i = 0; i < n; i++) roff[i + 1] += roff[i];
    const fill = roff.slice(0, n);
    for (let i = 0; i < n; i++) for (let e = g.off[i]; e < g.off[i + 1]; e++) rto[fill[g.to[e]]++] = i;
  }
  for (let head = 0; head < tail; head++) {
    const u = queue[head];
    for (let e = roff[u]; e < roff[u + 1]; e++) {
      const v = rto[e];
      if (dist[v] < 0) { dist[v] = dist[u] + 1; queue[tail++] = v; }
    }
  }
  return dist;
}

/** The optimal DAG over a complete graph whose start is state 0: for each on-path state (depth +
 * dist = best, not a goal) its out-edges one layer on. {best, doff, dedge} or null (unsolvable). */
export function optimalDag(g, dist) {
  const n = g.n, best = dist[0];
  if (best < 0) return null;
  const doff = new Int32Array(n + 1), dedge = new Int32Array(g.ne);
  let nd = 0;
  for (let i = 0; i < n; i++) {
    doff[i] = nd;
    if (g.depth[i] + dist[i] !== best || dist[i] === 0) continue;
    for (let e = g.off[i]; e < g.off[i + 1]; e++) {
      const v = g.to[e];
      if (dist[v] === dist[i] - 1 && g.depth[v] === g.depth[i] + 1) dedge[nd++] = e;
    }
  }
  doff[n] = nd;
  return { best, doff, dedge };
}

function isLegal(c, pos, fl, b, d, mb, md) {
  const cnt = genMoves(c, pos, fl, mb, md);
  for (let k = 0; k < cnt; k++) if (mb[k] === b && md[k] === d) return true;
  return false;
}

/** A (state, mask) -> count map for one layer of the plans automaton; counts saturate at cap. */
function planMap() {
  let cap = 64, u = new Int32Array(cap).fill(-1), flo = new Int32Array(cap), fhi = new Int32Array(cap), cnt = new Float64Array(cap), size = 0;
  const slot = (a, lo, hi) => {
    let h = Math.imul(a ^ Math.imul(lo, 0x85ebca6b) ^ Math.imul(hi, 0xc2b2ae35), 0x9e3779b1);
    h ^= h >>> 15;
    for (h &= cap - 1; u[h] >= 0 && !(u[h] === a && flo[h] === lo && fhi[h] === hi); h = (h + 1) & (cap - 1));
    return h;
  };
  const m = {
    add(a, lo, hi, c, limit) {
      if ((size + 1) * 2 > cap) {
        const ou = u, ol = flo, oh = fhi, oc = cnt;
        cap *= 2; u = new Int32Array(cap).fill(-1); flo = new Int32Array(cap); fhi = new Int32Array(cap); cnt = new Float64Array(cap);
        for (let i = 0; i < ou.length; i++) if (ou[i] >= 0) { const h = slot(ou[i], ol[i], oh[i]); u[h] = ou[i]; flo[h] = ol[i]; fhi[h] = oh[i]; cnt[h] = oc[i]; }
      }
      const h = slot(a, lo, hi);
      if (u[h] < 0) { u[h] = a; flo[h] = lo; fhi[h] = hi; cnt[h] = 0; size++; }
      cnt[h] = Math.min(limit, cnt[h] + c);
    },
    forEach(f) { for (let i = 0; i < cap; i++) if (u[i] >= 0) f(u[i], flo[i], fhi[i], cnt[i]); },
  };
  return m;
}

const lessMove = (b1, d1, b2, d2) => b1 < b2 || (b1 === b2 && d1 < d2);
const bitOf = (lo, hi, j) => (j < 32 ? (lo >>> j) & 1 : (hi >>> (j - 32)) & 1);

/**
 * The lexicographic-normal-form automaton over the optimal DAG (graph.pyx's plan_step): its
 * states are (u, F), F the moves that could still bubble left, a bitmask over u's DAG
 * out-edges (lo: edges 0-31, hi: 32-63). step(u, lo, hi, j) follows u's out-edge j (not in
 * F) and returns v, with F' in out.lo / out.hi; -1 when v has more than 64 DAG out-edges.
 */
function automaton(g, dist, dag) {
  const c = g.c, nb = c.n, { doff, dedge } = dag;
  const s = new Uint8Array(nb), sa = new Uint8Array(nb), t1 = new Uint8Array(nb), mb = new Int8Array(256), md = new Int8Array(256);
  const out = { lo: 0, hi: 0 };
  const same = (a, b) => { for (let i = 0; i < nb; i++) if (a[i] !== b[i]) return false; return true; };
  function step(u, flo, fhi, j) {
    const du = doff[u + 1] - doff[u], e = dedge[doff[u] + j], v = g.to[e], mbj = g.eb[e], mdj = g.ed[e];
    let nlo = 0, nhi = 0;
    out.lo = 0; out.hi = 0;
    if (dist[v] === 0) return v;
    const dv = doff[v + 1] - doff[v];
    if (dv > 64) return -1;
    s.set(g.posOf(u));
    const fu = g.FL[u], sv = g.posOf(v), fv = g.FL[v];
    for (let t = 0; t < dv; t++) {
      const e2 = dedge[doff[v] + t], ab = g.eb[e2], ad = g.ed[e2];
      if (ab === mbj) continue;
      // a may bubble left past m when it is smaller, or when it could already bubble
      // further (it is in F at u)
      if (!lessMove(ab, ad, mbj, mdj)) {
        let inherit = false;
        for (let q = 0; q < du && !inherit; q++) {
          if (!bitOf(flo, fhi, q)) continue;
          const e3 = dedge[doff[u] + q];
          inherit = g.eb[e3] === ab && g.ed[e3] === ad;
        }
        if (!inherit) continue;
      }
      // commute at u: a legal at u, m legal after a, same position
      if (!isLegal(c, s, fu, ab, ad, mb, md)) continue;
      sa.set(s); const fa = doMove(c, sa, fu, ab, ad);
      if (!isLegal(c, sa, fa, mbj, mdj, mb, md)) continue;
      const fam = doMove(c, sa, fa, mbj, mdj);
      t1.set(sv); const fva = doMove(c, t1, fv, ab, ad);
      if (fam !== fva || !same(sa, t1)) continue;
      if (t < 32) nlo |= 1 << t; else nhi |= 1 << (t - 32);
    }
    out.lo = nlo; out.hi = nhi;
    return v;
  }
  return { step, out };
}

/**
 * Plans (RULES.md Quality): optimal solutions up to swapping adjacent commuting moves, counted
 * as lexicographic normal forms by graph.pyx's automaton (docs/RULES-DECISIONS.md 24): layer
 * by layer, each (u, F) with the number of normal-form prefixes reaching it. Returns the count
 * saturated at `cap`, or -1 when some state has more than 64 DAG out-edges (unknown).
 */
export function countPlans(g, dist, dag, cap) {
  const { best, doff } = dag, { step, out } = automaton(g, dist, dag);
  let cur = planMap();
  cur.add(0, 0, 0, 1, cap);
  for (let k = 0; k < best; k++) {
    const nxt = planMap();
    let unknown = false;
    cur.forEach((u, flo, fhi, cu) => {
      if (unknown) return;
      const du = doff[u + 1] - doff[u];
      if (du > 64) { unknown = true; return; }
      for (let j = 0; j < du && !unknown; j++) {
        if (bitOf(flo, fhi, j)) continue;
        const v = step(u, flo, fhi, j);
        if (v < 0) unknown = true;
        else nxt.add(v, out.lo, out.hi, cu, cap);
      }
    });
    if (unknown) return -1;
    cur = nxt;
  }
  let total = 0;
  cur.forEach((u, lo, hi, cu) => { total = Math.min(cap, total + cu); });
  return total;
}

// ------------------------------------------------------------------ the chain
//
// Every sequence of one plan holds the same moves, each a block's k-th move with the same
// (block, distance). Whether two such moves x (block X) and y (block Y) may swap when
// adjacent reads only where X and Y stand before and after them (docs/RULES-DECISIONS.md 29):
//
//     . . Y . .     x: X slides right 2; y: Y slides down 2 through column 2.
//     X X Y . .     X before x stands in y's path: y cannot come first,
//     . . . . .     so y depends on x, in every sequence of the plan.
//
// So a plan is a trace with that fixed dependence, and its chain is the longest path through
// the conflicts of any one of its sequences (graph.pyx's chain_search, ported).

/** The moves along a path of the optimal DAG, as the chain needs them: per move, the cells of
 * its block before and after, the cells it sweeps, an ice block's stopping front, and for a
 * rime block's first move the index of the key move that thawed it. */
function occurrences(g, best) {
  const c = g.c, nb = c.n, n = best + 1;
  const o = { b: new Int8Array(n), a0: new Int32Array(2 * n), a1: new Int32Array(2 * n), sw: new Int32Array(2 * n), fr: new Int32Array(2 * n), thawer: new Int32Array(n) };
  /** Move k of the path, block b, from state su to sv; `states` holds the path's states. */
  o.fill = (k, b, su, sv, states) => {
    const p0 = g.P[su * nb + b], p1 = g.P[sv * nb + b], m = b * 8;
    o.b[k] = b;
    o.a0[2 * k] = c.mlo[m + p0]; o.a0[2 * k + 1] = c.mhi[m + p0];
    o.a1[2 * k] = c.mlo[m + p1]; o.a1[2 * k + 1] = c.mhi[m + p1];
    let lo = 0, hi = 0;
    for (let p = Math.min(p0, p1); p <= Math.max(p0, p1); p++) { lo |= c.mlo[m + p]; hi |= c.mhi[m + p]; }
    o.sw[2 * k] = lo; o.sw[2 * k + 1] = hi;
    let flo = 0, fhi = 0;
    if (c.kind[b] === ICE) {
      const step = p1 > p0 ? 1 : -1, q = p1 + step;
      if (q >= 0 && q < c.npos[b]) {
        flo = c.mlo[m + q] & ~c.mlo[m + p1]; fhi = c.mhi[m + q] & ~c.mhi[m + p1];
        if ((flo & c.fixlo) | (fhi & c.fixhi)) { flo = 0; fhi = 0; }   // a wall stops it whatever the blocks do
      }
    }
    o.fr[2 * k] = flo; o.fr[2 * k + 1] = fhi;
    o.thawer[k] = -1;
    if (c.kind[b] === RIME) {
      for (let i = 0; i < k; i++) if (o.b[i] === b) return;   // not its first move
      const bit = 1 << c.flagbit[b];
      for (let i = 0; i < k; i++) if (o.b[i] === c.keyi && !(g.FL[states[i]] & bit) && g.FL[states[i + 1]] & bit) o.thawer[k] = i;
    }
  };
  const meets = (A, i, B, j) => (A[2 * i] & B[2 * j]) | (A[2 * i + 1] & B[2 * j + 1]);
  const stops = (x, y) => {   // y is ice whose front x enters or leaves
    if (!(o.fr[2 * y] | o.fr[2 * y + 1])) return false;
    return !meets(o.a0, x, o.fr, y) !== !meets(o.a1, x, o.fr, y);
  };
  /** True when x (path index x) and the later y never swap: y depends on x. */
  o.conflict = (x, y) => {
    if (o.b[x] === o.b[y]) return true;
    if (meets(o.a0, x, o.sw, y) || meets(o.a1, x, o.sw, y) || meets(o.a0, y, o.sw, x) || meets(o.a1, y, o.sw, x)) return true;
    if (stops(x, y) || stops(y, x)) return true;
    return o.thawer[y] === x;
  };
  return o;
}

/**
 * The least chain over the plans (docs/RULES-DECISIONS.md 29): a depth-first walk of the
 * normal forms (one per plan), each one's chain computed as it grows, a branch dropped once
 * it cannot beat the least found, and branches no normal form completes known from a memo.
 * At most `work` automaton steps; past that `capped`, and the chain is the least found (an
 * upper bound, at most par). With `members` (a cap), nothing is dropped and each plan's normal
 * form is kept (moves), for boards whose dependence is not fixed (thick ice).
 * {chain, capped, members}.
 */
export function chainSearch(g, dist, dag, work, memberCap = 0) {
  const { best, doff, dedge } = dag, { step, out } = automaton(g, dist, dag), keep = memberCap > 0;
  const memo = new Map();
  let steps = 0, capped = false, r = 0;
  function completes(u, flo, fhi) {   // 1: some normal form runs on from (u, F) to a win, 0 none, -1 unknown
    if (dist[u] === 0) return 1;
    const key = `${u},${flo},${fhi}`, known = memo.get(key);
    if (known) return known === 2 ? 1 : 0;
    const du = doff[u + 1] - doff[u];
    if (du > 64) return -1;
    let res = 0;
    for (let j = 0; j < du; j++) {
      if (bitOf(flo, fhi, j)) continue;
      steps++;
      const v = step(u, flo, fhi, j);
      if (v < 0) return -1;
      res = completes(v, out.lo, out.hi);
      if (res !== 0) break;
    }
    if (res < 0) return res;
    memo.set(key, res ? 2 : 1);
    return res;
  }
  const n = best + 1, su = new Int32Array(n), slo = new Int32Array(n), shi = new Int32Array(n), sj = new Int32Array(n);
  const sst = new Int32Array(n), height = new Int32Array(n), cmax = new Int32Array(n), pe = new Int32Array(n);
  const occ = occurrences(g, best), members = [];
  let k = 0, least = best + 1;
  r = completes(0, 0, 0);
  if (r < 0) { k = -1; capped = true; }
  while (k >= 0) {
    const u = su[k];
    if (dist[u] === 0) {
      least = Math.min(least, cmax[k]);
      if (keep) {
        if (members.length >= memberCap) { capped = true; break; }
        members.push(Array.from(pe.subarray(0, k), (e) => [g.eb[e], g.ed[e]]));
      } else if (least <= 1) break;
      k--;
      continue;
    }
    if (steps > work) { capped = true; break; }
    const du = doff[u + 1] - doff[u];
    let advanced = false;
    while (sj[k] < du) {
      const j = sj[k]++;
      if (bitOf(slo[k], shi[k], j)) continue;
      steps++;
      const v = step(u, slo[k], shi[k], j);
      if (v < 0) { r = -1; break; }
      const nlo = out.lo, nhi = out.hi;
      r = completes(v, nlo, nhi);
      if (r < 0) break;
      if (r === 0) continue;
      const e = dedge[doff[u] + j];
      pe[k] = e; sst[k + 1] = v;
      occ.fill(k, g.eb[e], sst[k], sst[k + 1], sst);
      let h = 1;
      for (let i = 0; i < k; i++) if (height[i] >= h && occ.conflict(i, k)) h = height[i] + 1;
      height[k] = h;
      const top = Math.max(cmax[k], h);
      if (top >= least && !keep) continue;
      cmax[k + 1] = top; su[k + 1] = v; slo[k + 1] = nlo; shi[k + 1] = nhi; sj[k + 1] = 0;
      k++;
      advanced = true;
      break;
    }
    if (r < 0) { capped = true; break; }
    if (!advanced) k--;
  }
  return { chain: least <= best ? least : best, capped, members: keep ? members : null };
}

/** One plan's chain from its normal form `seq`, every sequence of the plan walked (adjacent
 * commuting moves swapped): occurrence i precedes j when it does in all of them (lumina.engine's
 * _plan_chain, for boards whose dependence is not fixed). null past `cap` sequences. */
export function planChainByMembers(level, seq, cap) {
  const c = compileCore(level), st = startOf(c, level), mb = new Int8Array(256), md = new Int8Array(256);
  const states = (s) => {
    const out = [{ pos: st.pos.slice(), fl: st.fl }];
    for (const [b, d] of s) { const last = out[out.length - 1], pos = last.pos.slice(); out.push({ pos, fl: doMove(c, pos, last.fl, b, d) }); }
    return out;
  };
  const same = (x, y) => x.fl === y.fl && x.pos.every((p, i) => p === y.pos[i]);
  const key = (s) => s.map((m) => m.join(":")).join(" ");
  const seen = new Map([[key(seq), seq]]), todo = [seq];
  while (todo.length) {
    const s = todo.pop(), ss = states(s);
    for (let i = 0; i + 1 < s.length; i++) {
      const [a, b] = [s[i], s[i + 1]];
      if (a[0] === b[0] || !isLegal(c, ss[i].pos, ss[i].fl, b[0], b[1], mb, md)) continue;
      const mid = ss[i].pos.slice(), fm = doMove(c, mid, ss[i].fl, b[0], b[1]);
      if (!isLegal(c, mid, fm, a[0], a[1], mb, md)) continue;
      const end = mid.slice(), fe = doMove(c, end, fm, a[0], a[1]);
      if (!same({ pos: end, fl: fe }, ss[i + 2])) continue;
      const t = [...s.slice(0, i), b, a, ...s.slice(i + 2)], kt = key(t);
      if (seen.has(kt)) continue;
      if (seen.size >= cap) return null;
      seen.set(kt, t); todo.push(t);
    }
  }
  const index = (s) => { const count = {}, at = new Map(); s.forEach(([b], i) => { count[b] = (count[b] || 0) + 1; at.set(`${b}:${count[b]}`, i); }); return at; };
  const where = [...seen.values()].map(index), order = [...index(seq).keys()], height = new Map();
  order.forEach((o, j) => {
    let h = 0;
    for (const p of order.slice(0, j)) if (where.every((w) => w.get(p) < w.get(o))) h = Math.max(h, height.get(p));
    height.set(o, h + 1);
  });
  return Math.max(0, ...height.values());
}

/** Breadth-first search from the level's start that stops at the first win (lumina.engine.solve):
 * {outcome, optimal, moves, states}. */
export function solveLevel(level, cap) {
  const c = compileCore(level), g = buildGraph(c, seeds([startOf(c, level)], c.n), cap, true);
  return solutionOf(g);
}

function solutionOf(g) {
  if (g.firstGoal < 0) return { outcome: g.capped ? "exhausted" : "unsolvable", optimal: null, moves: [], states: g.n };
  const moves = [];
  for (let i = g.firstGoal; g.parent[i] >= 0; i = g.parent[i]) {
    const p = g.parent[i], a = g.posOf(p), b = g.posOf(i);
    let k = 0;
    while (a[k] === b[k]) k++;
    moves.push([k, b[k] - a[k]]);
  }
  moves.reverse();
  return { outcome: "solved", optimal: moves.length, moves, states: g.n };
}

/** The same board with sand, ice and rime as crystal of the same shape and place. */
export function crystalLevel(level) {
  return { ...level, blocks: level.blocks.map((b) => (TWIST_KINDS.includes(b.kind) ? { ...b, kind: "crystal" } : b)) };
}

const hasTwist = (level) => level.blocks.some((b) => TWIST_KINDS.includes(b.kind));

/**
 * The measures of one level (lumina.engine.measure), from one enumeration of its component:
 * {outcome, optimal, moves (one optimal solution: the solver's), plans, plans_capped, solutions,
 * solutions_capped, dead_blocks, first_moves, first_moves_optimal, first_moves_legal,
 * component_states, traps, forced, optional_twist, chain, chain_capped, states}. Outcome
 * "exhausted" when the component has more than `cap` states; then nothing but `optimal` and
 * `moves` may be known (a win met before the cap: `solved_only` is true). The limits are
 * lumina.engine's, handed over by the page (#editor-data) or the vectors: `cap` states,
 * plans and raw solutions exact up to `planCap` and `solutionCap`, the chain's search at
 * most `chainWork` steps (and `memberCap` sequences a plan on thick-ice boards); without
 * `chainWork` no chain is searched.
 */
export function measureLevel(level, { cap, planCap, solutionCap, chainWork = 0, memberCap = 0 }) {
  const c = compileCore(level), start = startOf(c, level);
  const g = buildGraph(c, seeds([start], c.n), cap);
  const sol = solutionOf(g);
  const legal = genMoves(c, start.pos, start.fl, new Int8Array(256), new Int8Array(256));
  if (g.capped) {
    return { outcome: sol.outcome === "solved" ? "solved" : "exhausted", solved_only: sol.outcome === "solved",
      optimal: sol.optimal, moves: sol.moves, states: g.n, component_states: null, first_moves_legal: legal, graph: null };
  }
  const dist = distToGoal(g, !hasTwist(level));
  let traps = 0;
  for (let i = 0; i < g.n; i++) if (dist[i] < 0) traps++;
  const common = { component_states: g.n, traps, first_moves_legal: legal, states: g.n, graph: { g, dist } };
  const dag = optimalDag(g, dist);
  if (!dag) {
    return { outcome: "unsolvable", optimal: null, moves: [], plans: 0, plans_capped: false, solutions: 0,
      solutions_capped: false, dead_blocks: level.blocks.map((_, i) => i), first_moves: [], first_moves_optimal: 0,
      forced: null, optional_twist: false, ...(chainWork ? { chain: null, chain_capped: false } : {}), ...common };
  }
  const { best, doff, dedge } = dag, moved = new Uint8Array(c.n), count = new Float64Array(g.n), scap = solutionCap + 1;
  for (let k = 0; k < doff[g.n]; k++) moved[g.eb[dedge[k]]] = 1;
  for (let i = g.n - 1; i >= 0; i--) {   // raw count, deepest layer first
    if (g.depth[i] + dist[i] !== best) continue;
    if (dist[i] === 0) { count[i] = 1; continue; }
    let total = 0;
    for (let e = doff[i]; e < doff[i + 1]; e++) total = Math.min(scap, total + count[g.to[dedge[e]]]);
    count[i] = total;
  }
  const plansRaw = countPlans(g, dist, dag, planCap + 1);
  const first = [];
  for (let e = doff[0]; e < doff[1]; e++) {
    const m = [g.eb[dedge[e]], g.ed[dedge[e]]];
    if (!first.some((f) => f[0] === m[0] && f[1] === m[1])) first.push(m);
  }
  first.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return {
    outcome: "solved", optimal: best, moves: sol.moves,
    plans: plansRaw < 0 ? planCap : Math.min(plansRaw, planCap), plans_capped: plansRaw < 0 || plansRaw > planCap,
    solutions: Math.min(count[0], solutionCap), solutions_capped: count[0] > solutionCap,
    dead_blocks: level.blocks.map((_, i) => i).filter((i) => !moved[i]),
    first_moves: first, first_moves_optimal: first.length, ...common, dag,
    forced: forcedMoves(g, dist, dag, sol.moves), optional_twist: optionalTwist(g, dist, dag),
    ...(chainWork ? levelChain(level, g, dist, dag, chainWork, memberCap) : {}),
  };
}

/** The level's chain: the automaton's walk where the dependence is fixed; where a thick ice
 * block's front may rest on two blocks (a third block decides whether two moves swap), every
 * sequence of each plan walked instead ({chain, chain_capped}). */
function levelChain(level, g, dist, dag, work, memberCap) {
  const thick = level.blocks.some((b) => b.kind === "ice" && Math.min(b.w, b.h) > 1);
  const r = chainSearch(g, dist, dag, work, thick ? memberCap : 0);
  if (!thick) return { chain: r.chain, chain_capped: r.capped };
  let least = null, capped = r.capped;
  for (const seq of r.members) {
    let got = planChainByMembers(level, seq, memberCap);
    if (got === null) { capped = true; got = seq.length; }
    least = least === null ? got : Math.min(least, got);
  }
  return { chain: least === null ? 0 : least, chain_capped: capped };
}

/** Moves of `moves` made from a position with exactly one optimal move: one out-edge in the
 * optimal DAG (docs/RULES-DECISIONS.md 30); null when `moves` is not an optimal solution. */
export function forcedMoves(g, dist, dag, moves) {
  const { doff, dedge } = dag;
  let u = 0, out = 0;
  if (moves.length !== dag.best) return null;
  for (const [b, d] of moves) {
    out += doff[u + 1] - doff[u] === 1;
    let next = -1;
    for (let e = doff[u]; e < doff[u + 1]; e++) if (g.eb[dedge[e]] === b && g.ed[dedge[e]] === d) next = g.to[dedge[e]];
    if (next < 0) return null;   // not an optimal solution
    u = next;
  }
  return dist[u] === 0 ? out : null;
}

/** Some optimal solution moves no sand, ice or rime block: a win reached from the start along
 * optimal-DAG edges of other blocks (docs/RULES-DECISIONS.md 31); false without twists. */
export function optionalTwist(g, dist, dag) {
  const c = g.c, { doff, dedge } = dag, reach = new Uint8Array(g.n);
  if (!c.kind.some((k) => k > 1)) return false;   // no sand, ice or rime
  reach[0] = 1;
  for (let u = 0; u < g.n; u++) {     // breadth-first order: every edge runs one layer on
    if (!reach[u]) continue;
    if (dist[u] === 0) return true;
    for (let e = doff[u]; e < doff[u + 1]; e++) {
      const k = c.kind[g.eb[dedge[e]]];
      if (k !== SAND && k !== ICE && k !== RIME) reach[g.to[dedge[e]]] = 1;
    }
  }
  return false;
}

/** The level's label (lumina.model.Level.mechanics): every twist kind on the board in the order
 * sand, ice, rime, then "beam" on a beam level; ["crystal"] when neither. */
export function mechanics(level) {
  const out = TWIST_KINDS.filter((k) => level.blocks.some((b) => b.kind === k));
  if (level.win === "beam") out.push("beam");
  return out.length ? out : ["crystal"];
}

/** Crystal par (lumina.engine's _crystal_optimal): null when the level has no sand, ice or rime,
 * or when the crystal board is unsolvable or over `cap`. {crystal_optimal, states}. */
export function crystalPar(level, cap) {
  if (!hasTwist(level)) return { crystal_optimal: null, states: 0 };
  const s = solveLevel(crystalLevel(level), cap);
  return { crystal_optimal: s.optimal, states: s.states };
}

/**
 * The board's deepest start (RULES.md "The hardest start"; lumina.engine.exact_sweep): every
 * arrangement reachable from the level's by crystal slides, each with the fresh twist state
 * (sand unspent, rime frozen unless the key touches it), filed by its exact real par.
 * {complete, positions, states, deepest (over binding starts on twist boards, as the level's
 * `deepest`), deepest_any, deepest_binding, binding, deepest_margin (the best twist margin among
 * the binding starts at deepest_binding), solvable, histogram ({par: starts}, par >= 1),
 * binding_by_par ({par: binding starts}: exact_sweep's binding_only harvest), start: block
 * positions [[x, y], ...] of the first deepest start met (null when none)}.
 */
export function deepestStart(level, cap, measured = null) {
  const twist = hasTwist(level), flat = crystalLevel(level), fc = compileCore(flat);
  // a crystal board's crystal component is its own component: reuse the measured graph
  const reuse = !twist && measured && measured.graph;
  const cg = reuse ? measured.graph.g : buildGraph(fc, seeds([startOf(fc, flat)], fc.n), cap);
  if (cg.capped) return { complete: false, positions: cg.n, states: 0, deepest: null, start: null };
  const cdist = reuse ? measured.graph.dist : distToGoal(cg, true);
  let rg = null, rdist = null;
  const npos = cg.n;
  if (twist) {
    const rc = compileCore(level), FL = new Int32Array(npos);
    for (let i = 0; i < npos; i++) FL[i] = thaw(rc, cg.posOf(i), 0);
    rg = buildGraph(rc, { count: npos, P: cg.P, FL }, cap);
    if (rg.capped) return { complete: false, positions: npos, states: rg.n, deepest: null, start: null };
    rdist = distToGoal(rg, false);
  }
  let deepest = 0, binding = 0, deepestBinding = 0, margin = 0, solvable = 0, at = -1, atBinding = -1;
  const histogram = {}, bindingByPar = {};
  for (let i = 0; i < npos; i++) {
    const cpar = cdist[i];
    // the real graph was seeded with the starts in this order, so start i is state i there
    const par = twist ? rdist[i] : cpar;
    if (par < 0) continue;
    solvable++;
    if (par > deepest) { deepest = par; at = i; }
    if (par > cpar) {
      binding++;
      if (par > deepestBinding) { deepestBinding = par; atBinding = i; margin = par - cpar; }
      else if (par === deepestBinding && par - cpar > margin) margin = par - cpar;
      if (par >= 1) bindingByPar[par] = (bindingByPar[par] || 0) + 1;
    }
    if (par >= 1) histogram[par] = (histogram[par] || 0) + 1;
  }
  const pick = twist ? atBinding : at;
  const where = (i) => level.blocks.map((b, k) => {
    const p = cg.posOf(i)[k];
    return fc.horiz[k] ? [p, b.y] : [b.x, p];
  });
  return {
    complete: true, positions: npos, states: reuse ? 0 : twist ? npos + rg.n : npos,
    deepest: twist ? deepestBinding : deepest, deepest_any: deepest, deepest_binding: deepestBinding, binding,
    deepest_margin: margin, solvable, histogram, binding_by_par: bindingByPar,
    start: pick >= 0 ? where(pick) : null,
  };
}

/** The level's `analysis` record as a pack stores it (lumina.judge.analysis) from measureLevel's
 * result `m`, the crystal par and the board's deepest par (deepestStart's `deepest`); null
 * unless the level was solved and measured. `fields` is the record's one declaration
 * (lumina.model.Analysis as lumina.schema.describe hands it over: #editor-data's `analysis`,
 * the vectors' `limits.analysis`): [{key, optional, group}] in the key order of
 * lumina.model.Level.to_json. A field is the measure of its name unless derived below; an
 * optional field is left out while null, and a group (the lumina-gen/4 measures) is written
 * all or none: with the chain measured (`chainWork`) and the deepest known, all, as
 * lumina.verify requires of a pack written now. A required field this file does not
 * compute is an error naming it, and so is a missing field list. */
export function analysisRecord(level, m, crystal, deepest, fields) {
  if (!Array.isArray(fields)) throw new Error("analysisRecord: no field list (#editor-data's analysis)");
  if (m.outcome !== "solved" || m.component_states == null) return null;
  const derived = {
    dead_share: () => deadShare(level, m.dead_blocks), crystal_optimal: () => crystal, deepest: () => deepest,
    mechanics: () => mechanics(level), family: () => familyKey(level),
  };
  const value = (k) => (k in derived ? derived[k]() : m[k]);
  const whole = {};
  for (const f of fields) if (f.group) whole[f.group] = (whole[f.group] ?? true) && value(f.key) != null;
  const a = {};
  for (const f of fields) {
    const v = value(f.key);
    if (f.group ? !whole[f.group] : f.optional && v == null) continue;
    if (v === undefined) throw new Error(`analysis.${f.key}: measure.js does not compute this measure`);
    a[f.key] = v;
  }
  return a;
}

// ------------------------------------------------------------------ the family key (judge.family_key)

const SYMS = [];
for (const t of [false, true]) for (const fx of [false, true]) for (const fy of [false, true]) SYMS.push([t, fx, fy]);
const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const cmpTuple = (a, b) => { for (let i = 0; i < a.length; i++) { const r = cmp(a[i], b[i]); if (r) return r; } return 0; };

/** The board's canonical text, the same under every symmetry of the grid and translation
 * (lumina.judge.family_key, held to it by the parity vectors): a pack level's `family`. */
export function familyKey(level) {
  const W = level.width, H = level.height, key = level.blocks.find((b) => b.kind === "key");
  const ex = { left: [-1, level.exit.index], right: [W, level.exit.index], top: [level.exit.index, -1], bottom: [level.exit.index, H] }[level.exit.side];
  let bestText = null;
  for (const [t, fx, fy] of SYMS) {
    const w = t ? H : W, h = t ? W : H;
    const point = (x, y) => { if (t) [x, y] = [y, x]; return [fx ? w - 1 - x : x, fy ? h - 1 - y : y]; };
    const vec = (dx, dy) => { if (t) [dx, dy] = [dy, dx]; return [fx ? -dx : dx, fy ? -dy : dy]; };
    const unvec = (dx, dy) => { dx = fx ? -dx : dx; dy = fy ? -dy : dy; return t ? [dy, dx] : [dx, dy]; };
    const rect = (x, y, bw, bh) => { const [ax, ay] = point(x, y), [bx, by] = point(x + bw - 1, y + bh - 1); return [Math.min(ax, bx), Math.min(ay, by), Math.abs(bx - ax) + 1, Math.abs(by - ay) + 1]; };
    const tilt = (tl) => { let [dx, dy] = unvec(1, 0); [dx, dy] = tl === "/" ? [-dy, -dx] : [dy, dx]; const [vx, vy] = vec(dx, dy); return vx === 0 && vy === -1 ? "/" : "\\"; };
    let beam = null;
    if (level.beam) {
      const [sx, sy] = { E: [key.x + key.w, key.y + level.beam.offset], W: [key.x - 1, key.y + level.beam.offset],
        S: [key.x + level.beam.offset, key.y + key.h], N: [key.x + level.beam.offset, key.y - 1] }[level.beam.dir];
      const v = vec(...STEP[level.beam.dir]), dir = Object.keys(STEP).find((d) => STEP[d][0] === v[0] && STEP[d][1] === v[1]);
      beam = [dir, ...point(sx, sy)];
    }
    const blocks = level.blocks.map((b) => [b.kind, ...rect(b.x, b.y, b.w, b.h)]);
    const walls = (level.walls || []).map(([x, y]) => point(x, y));
    const mirrors = (level.mirrors || []).map((m) => [...point(m.x, m.y), tilt(m.tilt)]);
    const xs = [...blocks.map((b) => b[1]), ...walls.map((p) => p[0]), ...mirrors.map((m) => m[0])];
    const ys = [...blocks.map((b) => b[2]), ...walls.map((p) => p[1]), ...mirrors.map((m) => m[1])];
    const ox = xs.length ? Math.min(...xs) : 0, oy = ys.length ? Math.min(...ys) : 0;
    const [exx, exy] = point(...ex);
    const parts = [`${w}x${h}:${level.win || "exit"}`, `e${exx - ox},${exy - oy}`];
    if (beam) parts.push(`b${beam[0]}${beam[1] - ox},${beam[2] - oy}`);
    parts.push([...blocks].sort(cmpTuple).map(([k, x, y, bw, bh]) => `${k[0]}${x - ox},${y - oy},${bw},${bh}`).join("."));
    parts.push("w" + [...walls].sort(cmpTuple).map(([x, y]) => `${x - ox},${y - oy}`).join("."));
    parts.push("m" + [...mirrors].sort(cmpTuple).map(([x, y, tl]) => `${x - ox},${y - oy}${tl === "/" ? "f" : "b"}`).join("."));
    const text = parts.join(":");
    if (bestText === null || text < bestText) bestText = text;
  }
  return bestText;
}

/** judge.dead_share: dead non-key blocks / non-key blocks, rounded to 4 places (0 when none). */
export function deadShare(level, dead) {
  const others = level.blocks.filter((b) => b.kind !== "key").length;
  const n = new Set(dead.filter((i) => level.blocks[i].kind !== "key")).size;
  return others ? Math.round((n / others) * 10000) / 10000 : 0;
}
