"""Pure-Python first version of measure() and exact_sweep() (to be replaced by kernels)."""
from __future__ import annotations

import random
from collections import deque

from lumina.engine.board import Board

INF = 1 << 30


def flatten(level):
    from lumina.model import Block
    return level.replace(blocks=tuple(
        b if b.kind in ("key", "crystal") else Block(kind="crystal", x=b.x, y=b.y, w=b.w, h=b.h)
        for b in level.blocks))


def _enumerate(board: Board, starts, cap):
    """Forward BFS from every start: (states, index, succ[(move, j)], complete)."""
    states, index = [], {}
    for s in starts:
        if s not in index:
            index[s] = len(states)
            states.append(s)
    succ = []
    head = 0
    while head < len(states):
        s = states[head]
        out = []
        for m in board.moves(s):
            t = board.apply(s, m)
            j = index.get(t)
            if j is None:
                if len(states) >= cap:
                    return states, index, succ, False
                j = index[t] = len(states)
                states.append(t)
            out.append((m, j))
        succ.append(out)
        head += 1
    return states, index, succ, True


def _dist_to_goal(board, states, succ):
    n = len(states)
    pred = [[] for _ in range(n)]
    for i, out in enumerate(succ):
        for _m, j in out:
            pred[j].append(i)
    dist = [INF] * n
    q = deque()
    for i, s in enumerate(states):
        if board.is_solved(s):
            dist[i] = 0
            q.append(i)
    while q:
        j = q.popleft()
        for i in pred[j]:
            if dist[i] == INF:
                dist[i] = dist[j] + 1
                q.append(i)
    return dist


def measure(level, plan_cap, solution_cap, state_cap):
    from lumina.engine import solve as _solve
    board = level if isinstance(level, Board) else Board(level)
    lv = board.level
    start = board.start
    states, index, succ, complete = _enumerate(board, [start], state_cap)
    out = dict(states=len(states))
    if not complete:
        return dict(outcome=2, **out)
    dist = _dist_to_goal(board, states, succ)
    traps = sum(1 for d in dist if d == INF)
    crystal = None
    if any(b.kind in ("sand", "ice", "rime") for b in lv.blocks):
        cs = _solve(flatten(lv), state_cap=state_cap)
        crystal = cs.optimal
    legal = len(board.moves(start))
    common = dict(component_states=len(states), traps=traps, crystal_optimal=crystal,
                  first_moves_legal=legal)
    opt = dist[0]
    if opt == INF:
        return dict(outcome=1, optimal=None, plans=0, plans_capped=False, solutions=0,
                    solutions_capped=False, dead_blocks=tuple(range(len(lv.blocks))),
                    first_moves=(), **common)
    # depth from start
    depth = [INF] * len(states)
    depth[0] = 0
    q = deque([0])
    while q:
        i = q.popleft()
        if dist[i] == 0:
            continue
        for _m, j in succ[i]:
            if depth[j] == INF:
                depth[j] = depth[i] + 1
                q.append(j)

    def on(i):
        return depth[i] + dist[i] == opt

    dag = {}
    for i in range(len(states)):
        if on(i) and dist[i] > 0:
            dag[i] = [(m, j) for m, j in succ[i] if on(j) and dist[j] == dist[i] - 1
                      and depth[j] == depth[i] + 1]
    moved = sorted({m[0] for edges in dag.values() for m, _ in edges})
    dead = tuple(b for b in range(len(lv.blocks)) if b not in moved)
    first = tuple(sorted(m for m, _ in dag.get(0, [])))
    # raw count
    order = sorted(dag, key=lambda i: -depth[i])
    cnt = {}

    def c(i):
        return 1 if dist[i] == 0 else cnt.get(i, 0)
    capped = False
    for i in order:
        t = sum(c(j) for _m, j in dag[i])
        if t >= solution_cap:
            t, capped = solution_cap, True
        cnt[i] = t
    raw = 1 if opt == 0 else cnt[0]
    # plans: lexicographic normal forms
    plans, pcapped = 1, False
    if opt > 0:
        layer = {(0, frozenset()): 1}
        for _k in range(opt):
            nxt = {}
            for (i, F), n in layer.items():
                s = states[i]
                for m, j in dag[i]:
                    if m in F:
                        continue
                    Fn = set()
                    if dist[j] > 0:
                        v = states[j]
                        for a, _ in dag[j]:
                            if a[0] == m[0]:
                                continue
                            if not (a < m or a in F):
                                continue
                            # commute at s: a legal at s, m legal at s+a, same result
                            if a not in board.moves(s):
                                continue
                            sa = board.apply(s, a)
                            if m not in board.moves(sa):
                                continue
                            if board.apply(sa, m) != board.apply(v, a):
                                continue
                            Fn.add(a)
                    key = (j, frozenset(Fn))
                    nxt[key] = min(plan_cap, nxt.get(key, 0) + n)
            layer = nxt
        plans = sum(layer.values())
        if plans >= plan_cap:
            plans, pcapped = plan_cap, True
    return dict(outcome=0, optimal=opt, plans=plans, plans_capped=pcapped, solutions=raw,
                solutions_capped=capped, dead_blocks=dead, first_moves=first, **common)


def exact_sweep(layout, min_depth, per_depth, seed, state_cap, binding_only):
    board = layout if isinstance(layout, Board) else Board(layout)
    lv = board.level
    flat = Board(flatten(lv))
    # crystal component: positions only (the flat board has no flag bits)
    pos, pidx, psucc, complete = _enumerate(flat, [flat.start], state_cap)
    if not complete:
        return dict(complete=False, positions=len(pos), states=len(pos))
    cdist = _dist_to_goal(flat, pos, psucc)
    starts = [board.thawed(p) for p in pos]
    states, index, succ, complete = _enumerate(board, starts, state_cap)
    if not complete:
        return dict(complete=False, positions=len(pos), states=len(pos) + len(states))
    dist = _dist_to_goal(board, states, succ)
    cands = []
    for p, s in zip(pos, starts):
        d = dist[index[s]]
        if d != INF:
            cands.append((s, d, cdist[pidx[p]]))
    goals = sum(1 for d in dist if d == 0)
    traps = sum(1 for d in dist if d == INF)
    return dict(complete=True, positions=len(pos), states=len(pos) + len(states), goals=goals,
                starts=len(pos), traps=traps, cands=cands)
