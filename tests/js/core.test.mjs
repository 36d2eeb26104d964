// Tests for templates/static/core.js (the game core: history, undo, help and stars, hints,
// keyboard selection, the daily pick). Rule numbers and Python's answers come from
// tests/js/vectors.json (python -m lumina.vectors), which must exist. Run: node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import * as E from "../../templates/static/engine.js";
import { stateFromPython } from "./python-state.mjs";
import { decodeDesc, encodeDesc } from "../../templates/static/desc.js";
import * as C from "../../templates/static/core.js";
import { solveFrom } from "../../templates/static/search.js";

const VECTORS = new URL("vectors.json", import.meta.url);
assert.ok(existsSync(VECTORS), "tests/js/vectors.json is missing: run python -m lumina.vectors first");
const V = JSON.parse(readFileSync(VECTORS, "utf8"));
const RULE = V.site.stars;
const lvl = (desc, extra = {}) => ({ ...decodeDesc(desc, "t"), ...extra });

// y0 . . . .      key (0) at x 0..1 row 1, exit right of row 1;
// y1 K K C .  >   crystal (1) vertical at x 2 rows 1..2. Par 2: crystal down, key right.
// y2 . . C .
// y3 . . . .
const TINY = lvl("4x4-R1-K0121C2112", { optimal: 2, solution: [[1, 1], [0, 2]] });

test("star rule from site data, replayed from Python's vectors (help caps at two)", () => {
  assert.ok(V.stars.length > 0);
  for (const v of V.stars) assert.equal(C.starsFor(v.moves, v.par, v.helped, RULE), v.stars, JSON.stringify(v));
  assert.equal(C.starsFor(7, 7, true, RULE), RULE.help_cap);
});

test("day index from site data equals Python's for every date in the vectors", () => {
  assert.ok(V.days.length >= 10);
  for (const { date, index } of V.days) {
    const [y, m, d] = date.split("-").map(Number);
    for (const hour of [0, 12, 23]) {   // any time of the player's local day
      assert.equal(C.dayIndex(new Date(y, m - 1, d, hour, 30), V.site), index, `${date} ${hour}:30`);
    }
  }
});

test("history: play, refuse illegal moves, undo back to the start", () => {
  const g = C.createGame(TINY, RULE);
  assert.equal(g.moves, 0);
  assert.equal(g.play([0, 1]), null, "the key is blocked by the crystal");
  assert.ok(g.play([1, 1]));
  assert.ok(g.play([1, -2]));
  assert.deepEqual(g.played, [[1, 1], [1, -2]]);
  assert.equal(g.undo(), true);
  assert.deepEqual(g.state.pos, [0, 2]);
  assert.equal(g.undo(), true);
  assert.deepEqual(g.state.pos, [0, 1]);
  assert.equal(g.undo(), false);
  assert.equal(g.moves, 0);
});

test("redo: replays what undo took back, in order, until a new move forgets it", () => {
  const g = C.createGame(TINY, RULE);
  assert.equal(g.canRedo, false);
  assert.equal(g.redo(), null, "nothing to redo at the start");
  g.play([1, 1]); g.play([0, 2]);
  assert.ok(g.solved());
  g.undo(); g.undo();
  assert.equal(g.moves, 0);
  assert.equal(g.canRedo, true);
  const first = g.redo();
  assert.deepEqual(first.move, [1, 1], "the move undone last comes back first");
  assert.deepEqual(g.state.pos, [0, 2]);
  const second = g.redo();
  assert.deepEqual(second.move, [0, 2]);
  assert.deepEqual(g.played, [[1, 1], [0, 2]]);
  assert.ok(g.solved(), "redo reaches the win again");
  assert.equal(g.result().stars, 3, "a redone par win is still a par win");
  assert.equal(g.redo(), null);
  g.undo(); g.undo();
  g.redo();                                    // back one move, then a different move
  assert.ok(g.play([1, -2]));
  assert.equal(g.canRedo, false, "a new move forgets the undone moves");
  assert.equal(g.redo(), null);
});

test("redo: thawing is reported again, help is kept, reset forgets", () => {
  const g = C.createGame(lvl("5x4-R0-K0021R3012"), RULE);
  assert.deepEqual(g.play([0, 1]).thawed, [1]);
  g.undo();
  assert.equal(g.state.flags[1], 0, "undo refreezes the rime");
  assert.deepEqual(g.redo().thawed, [1], "redo thaws it again");
  g.help();
  g.undo(); g.redo();
  assert.equal(g.helped, true, "redo does not clear help");
  g.undo();
  g.reset();
  assert.equal(g.canRedo, false, "Reset starts a fresh attempt: nothing to redo");
  assert.equal(g.helped, false);
});

test("stars: par win 3, help caps at 2, Reset clears help so an honest par win is 3 again", () => {
  const g = C.createGame(TINY, RULE);
  g.play([1, 1]); g.play([0, 2]);
  assert.deepEqual(g.result(), { moves: 2, optimal: 2, stars: 3, helped: false });
  g.undo(); g.undo();
  g.help();                                    // a hint at the start
  g.play([1, 1]); g.play([0, 2]);
  assert.equal(g.result().stars, 2);
  g.undo();
  assert.equal(g.result(), null, "no win, no result");
  assert.equal(g.helped, true, "Undo does not clear help");
  g.reset();
  assert.equal(g.helped, false);
  for (const m of [[1, -1], [1, 1], [1, -1], [1, 2], [0, 2]]) assert.ok(g.play(m));
  assert.deepEqual(g.result(), { moves: 5, optimal: 2, stars: 1, helped: false });
});

test("rime thawing is reported by play()", () => {
  // key at x 0..1 row 0; frozen rime at x 3 rows 0..1: the key touches it after sliding 1
  const g = C.createGame(lvl("5x4-R0-K0021R3012"), RULE);
  assert.deepEqual(g.play([0, 1]).thawed, [1]);
  assert.deepEqual(g.play([0, -1]).thawed, []);
});

test("hints: the stored solution is known; a search teaches the core a line from anywhere", () => {
  const g = C.createGame(TINY, RULE);
  assert.deepEqual(g.known(), { move: [1, 1], left: 2 });
  g.play([1, -1]);                             // off the stored line: the crystal still blocks
  assert.equal(g.known(), null);
  const res = solveFrom(g.board, g.state);
  assert.equal(res.outcome, "solved");
  assert.equal(res.left, 2);
  assert.deepEqual(g.learnFrom(g.state, res), { move: res.moves[0], left: 2 });
  g.play(res.moves[0]);
  assert.equal(g.known().left, 1, "each suffix of a found line is known");
  g.play(g.known().move);
  assert.deepEqual(g.known(), { move: null, left: 0 });
  assert.equal(g.result().moves, 3);
  assert.equal(g.result().stars, 2, "one over par");
});

test("solveFrom: unsolvable and exhausted are told apart", () => {
  // the sand must move down out of the key's row, but slid up it is spent there for good
  const b = E.compile(lvl("4x4-R1-K0121S2112"));
  const up = E.applyMove(b, E.startState(b), [1, -1]);
  assert.equal(solveFrom(b, up).outcome, "unsolvable");
  assert.equal(solveFrom(b, E.startState(b)).outcome, "solved");
  const big = E.compile(decodeDesc("8x8-R3-K0321C2012C3012C4212C5312C6412C1512C2621C4721"));
  assert.equal(solveFrom(big, E.startState(big), 50).outcome, "exhausted");
});

test("hints against Python: left from the start is the stored optimal; fresh hints win in exactly optimal moves", () => {
  let n = 0;
  V.solutions.forEach((c, k) => {
    const g = C.createGame({ ...c.level, solution: undefined }, RULE);
    const first = solveFrom(g.board, g.state);
    assert.equal(first.outcome, "solved", c.level.id);
    assert.equal(first.left, c.optimal, `${c.level.id}: hint distance from the start`);
    if (k % 4) return;   // every fourth level: a fresh search at every step, no remembered line
    for (let left = c.optimal; left > 0; left--) {
      const h = solveFrom(g.board, g.state);
      assert.equal(h.left, left, `${c.level.id}: ${left} left`);
      assert.ok(g.play(h.moves[0]), `${c.level.id}: the hinted move is legal`);
    }
    assert.ok(g.solved(), `${c.level.id}: following hints wins in exactly ${c.optimal} moves`);
    n++;
  });
  assert.ok(n > 10);
});

test("hints against Python off the solution: distance from a random reachable position", () => {
  let solved = 0, stuck = 0;
  for (const c of V.cases) {
    const board = E.compile(c.level);
    for (const v of c.states) {
      if (!("left" in v)) continue;
      const res = solveFrom(board, stateFromPython(board, v.positions, v.flags));
      const where = `${c.level.id} at ${JSON.stringify(v.positions)} ${JSON.stringify(v.flags)}`;
      if (v.left === null) { assert.equal(res.outcome, "unsolvable", where); stuck++; }
      else { assert.equal(res.outcome, "solved", where); assert.equal(res.left, v.left, where); solved++; }
    }
  }
  assert.ok(solved > 100, `${solved} positions checked`);
});

/** The plain breadth-first search over engine.js that search.js replaced: its answer is the contract. */
function plainBfs(board, state, budget = C.SEARCH_BUDGET) {
  if (E.isSolved(board, state)) return { outcome: "solved", left: 0, moves: [], states: 1 };
  const seen = new Set([E.stateKey(state)]), queue = [state], parent = [-1], via = [null];
  for (let head = 0; head < queue.length; head++) {
    for (const m of E.legalMoves(board, queue[head])) {
      const t = E.applyLegal(board, queue[head], m), k = E.stateKey(t);
      if (seen.has(k)) continue;
      seen.add(k); queue.push(t); parent.push(head); via.push(m);
      if (E.isSolved(board, t)) {
        const moves = [];
        for (let i = queue.length - 1; i > 0; i = parent[i]) moves.push(via[i]);
        return { outcome: "solved", left: moves.length, moves: moves.reverse(), states: queue.length };
      }
      if (queue.length >= budget) return { outcome: "exhausted", states: queue.length };
    }
  }
  return { outcome: "unsolvable", states: queue.length };
}

test("solveFrom gives engine.js's answer: the same outcome, line and count of states as a plain BFS over legalMoves", () => {
  let n = 0;
  const kinds = new Set(), outcomes = new Set();
  V.cases.forEach((c, k) => {
    const board = E.compile(c.level);
    c.states.forEach((v, j) => {
      if ((j + k) % 40) return;
      const s = stateFromPython(board, v.positions, v.flags);
      for (const budget of [3000, 1 + ((j * 37) % 400), 1]) {   // whole components up to 3,000 states
        const res = solveFrom(board, s, budget);
        assert.deepEqual(res, plainBfs(board, s, budget), `${c.level.id} at ${JSON.stringify(v.positions)} budget ${budget}`);
        outcomes.add(res.outcome);
      }
      c.level.blocks.forEach((b) => kinds.add(b.kind));
      if (c.level.win === "beam") kinds.add("beam");
      n++;
    });
  });
  assert.ok(n > 150, `${n} positions`);
  assert.deepEqual([...kinds].sort(), ["beam", "crystal", "ice", "key", "rime", "sand"]);
  assert.deepEqual([...outcomes].sort(), ["exhausted", "solved", "unsolvable"]);
  // a frozen rime block touching the key (never met in play): engine.js thaws it on any first move
  const b = E.compile(lvl("5x4-R0-K0021R3012")), s = { pos: [1, 0], flags: [0, 0] };
  assert.deepEqual(solveFrom(b, s), plainBfs(b, s));
});

test("visited_table_leak: a search sees none of the states of the searches before it (the table is reused)", () => {
  // Bug class: search.js keeps one visited table across searches and clears it by a new
  // generation stamp; a stale entry would make a state look seen, so a later search would
  // miss lines (a longer answer) or call a solvable position unsolvable.
  const lv = V.solutions.reduce((a, c) => (c.optimal > a.optimal ? c : a)).level, board = E.compile(lv);
  const tiny = E.compile(TINY), big = E.compile(decodeDesc("8x8-R3-K0321C2012C3012C4212C5312C6412C1512C2621C4721"));
  let s = E.startState(board);
  const order = [];
  for (let k = 0; k < 3; k++) {   // the same level from positions along a line, each search after the last
    order.push([board, s]);
    s = E.applyLegal(board, s, solveFrom(board, s).moves[0] ?? E.legalMoves(board, s)[0]);
  }
  order.push([tiny, E.startState(tiny)], [big, E.startState(big)], [board, E.startState(board)], [tiny, E.startState(tiny)]);
  for (const [b, st] of order) {
    for (const budget of [C.SEARCH_BUDGET, 40]) {
      assert.deepEqual(solveFrom(b, st, budget), plainBfs(b, st, budget), `${b.level.id} at ${JSON.stringify(st)} budget ${budget}`);
    }
  }
});

test("keyboard: arrows reach every block from the key on every level (selection graph)", () => {
  for (const c of V.cases) {
    const board = E.compile(c.level), s = E.startState(board);
    const seen = new Set([board.key]), todo = [board.key];
    while (todo.length) {
      const i = todo.pop();
      for (const dir of Object.values(E.DIRS)) {
        const j = C.nearestBlock(board, s, i, dir);
        if (j >= 0 && !seen.has(j)) { seen.add(j); todo.push(j); }
      }
    }
    assert.equal(seen.size, board.n, `${c.level.id}: blocks ${[...Array(board.n).keys()].filter((i) => !seen.has(i))} unreachable`);
  }
});

test("keyboard: nearest block by centres, ties to the lower index", () => {
  // K K . C     key row 0; crystal 1 vertical at x 3 rows 0..1; crystal 2 vertical at x 0 rows 2..3;
  // . . . C     crystal 3 horizontal at x 2..3 row 3
  // C . . .
  // C . D D
  const b = E.compile(lvl("4x4-R0-K0021C3012C0212C2321")), s = E.startState(b);
  assert.equal(C.nearestBlock(b, s, 0, E.DIRS.E), 1);
  assert.equal(C.nearestBlock(b, s, 0, E.DIRS.S), 2);
  assert.equal(C.nearestBlock(b, s, 0, E.DIRS.N), -1);
  assert.equal(C.nearestBlock(b, s, 2, E.DIRS.E), 3);
  assert.equal(C.nearestBlock(b, s, 3, E.DIRS.N), 1);
});

test("keyboard_unreachable_block: a tie goes to the block nearer along the arrow (d-010)", () => {
  // d-010 of the lumina-gen/4 pool: from D (block 11) leftwards the rime block 6 and the
  // crystal 2 tie on along + 2 * across; with the lower index taking it, no arrow from any
  // block reached 6, so a keyboard player could not move it.
  const b = E.compile(lvl("6x6-T2-K2412C2021C0312C3421C5112C4212R1113C3121C3531I0012C5312C2321"));
  const s = E.startState(b);
  assert.equal(C.nearestBlock(b, s, 11, E.DIRS.W), 6);
  const seen = new Set([b.key]), todo = [b.key];
  while (todo.length) {
    const i = todo.pop();
    for (const dir of Object.values(E.DIRS)) {
      const j = C.nearestBlock(b, s, i, dir);
      if (j >= 0 && !seen.has(j)) { seen.add(j); todo.push(j); }
    }
  }
  assert.equal(seen.size, b.n);
});

test("a board past 53 key bits is searched (16 blocks, 6 of them sand): search.js keys it with two words", () => {
  // key row 0 with a vertical crystal at column 4 in its way; 14 blocks parked in rows 4..7
  const board = E.compile(decodeDesc("8x8-R0-K0021C4012S0421S2421S4421S6421S0521S2521C4521C6521C0621C2621C4621C6621C0721C2721"));
  const res = solveFrom(board, E.startState(board));
  assert.equal(res.outcome, "solved");
  assert.equal(res.left, 2);
  assert.deepEqual(res.moves[res.moves.length - 1], [0, 6]);
});

test("keyboard_corner_block_unreachable: a block in a corner behind closer off-axis blocks is reached (w3-16)", () => {
  // w3-16 of lumina-gen/2: crystal 11 stands alone at x 5 rows 0..1; with nearest by
  // along + 2 * |across| alone, every arrow from every block found a closer block first.
  const b = E.compile(lvl("6x6-B3-K3212I0521I2431C5412C1312C1131C4321C0021C0312C1221C0112C5012")), s = E.startState(b);
  const seen = new Set([b.key]), todo = [b.key];
  while (todo.length) {
    const i = todo.pop();
    for (const dir of Object.values(E.DIRS)) {
      const j = C.nearestBlock(b, s, i, dir);
      if (j >= 0 && !seen.has(j)) { seen.add(j); todo.push(j); }
    }
  }
  assert.ok(seen.has(11), "block 11 unreachable by arrows");
});
