"""Deep layout search: mutate a solved layout until its component holds a deep puzzle.

RULES.md (Generation): random layouts almost never hold 40-move puzzles; the best
Rush Hour generators reach them by searching over layouts. `search` does that with
late-acceptance hill climbing over the engine's exact real-rules sweep:

    layout (solved) --exact_sweep--> deepest real par of its component (the score)
       ^                                  |
       +--- mutate: add / remove / move / resize / turn a blocker, add / remove /
            move a wall, swap a twist's kind, retrace a beam's light through new
            mirrors, after a short walk of crystal slides

The score of a layout is its component's deepest real par; for a spec with twists it
is the deepest BINDING par (a twist level must need its twist), so the search climbs
toward levels that can ship. Ties are broken toward more starts at that depth (a wider
plateau is a likelier step to the next depth). The generator aims each search (`Aim`):
a level starts at its board's deepest start (RULES.md "The hardest start"), so a board
deeper than its slot's target is as useless as a shallower one (`exact`: depth above
the target is folded back below it), and a twist board scores its margin too (par
minus crystal par at that start): each move under the bucket's floor costs two moves of
depth, each move above it (up to four) is worth a fifth of one, so margin is searched
for, and breaks near-ties, instead of being hoped for. The key never leaves the lantern (beam
layouts: the light reaches it), so every layout searched is solved. A run that finds no
new best for `Tuning.stall` sweeps restarts from a fresh random layout (the best is
kept): depth comes in bursts from lucky lineages, and a stuck one rarely recovers
(measured in docs/DEEP.md).

Deterministic per seed: one `random.Random(f"lumina-deep:{seed}")` drives every choice,
the sweep is exact, and the budget counts sweeps (and reports states swept), never
seconds, so any machine returns the same bytes.

Insight: a mutation evaluated from a different member of the same component reaches
different neighbours. The walk (slide a few blockers, key fixed) moves the search to
another member of the component without changing its score, which is why a plateau
of equal depth is not a dead end.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from lumina.engine import Board, LayoutSweep, exact_sweep, level_at, solve
from lumina.engine import Outcome
from lumina.gen.layouts import (_Frame, _check_spec, _crosser, _fits, _frame_of, _level, _occupied,
                                _random_block, _twist_counts, _with, random_layout)
from lumina.model import Block, Level, random_light

SEARCH_STATE_CAP = 500_000       # a component past this is rejected (not scored)


@dataclass(frozen=True)
class DeepSpec:
    """What layouts the search may build. `lumina.worlds.Bucket` has the same attribute
    names, so `search` accepts either (any object with these attributes)."""
    width: int
    height: int
    blockers: tuple[int, int]                            # blocker count range (key excluded)
    twists: dict[str, int] = field(default_factory=dict)  # kind -> how many blockers
    walls: tuple[int, int] = (0, 0)
    beam: bool = False
    mirrors: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class Tuning:
    """The search's knobs (defaults measured by `python -m lumina.bench deep`)."""
    history: int = 50            # LAHC history length
    walk: float = 0.5            # chance of a walk of crystal slides before a mutation
    walk_steps: int = 3
    double: float = 0.25         # chance of a second mutation in the same step
    stall: int = 1000            # sweeps without a new run best -> restart
    restart: str = "fresh"       # "fresh": a new random layout; "best": the best so far
    tie: str = "dense"           # "dense": more starts at the deepest par; "tight": fewer positions; "none"
    weights: tuple[tuple[str, int], ...] = (
        ("add", 3), ("remove", 3), ("move", 4), ("nudge", 4), ("resize", 2), ("turn", 2),
        ("wall", 2), ("kind", 2), ("light", 2))


@dataclass(frozen=True)
class DeepResult:
    layout: Level                   # the best layout found (solved)
    sweep: LayoutSweep              # its exact sweep, with the harvest
    deepest: int                    # its score: deepest real par (binding par for twist specs)
    sweeps: int                     # exact sweeps run (the budget's unit), the last included
    work: int                       # states swept in all
    reached_at_sweep: int | None    # the sweep that first reached the target (None: never)
    trace: tuple[tuple[int, int], ...]   # (sweep number, metric of a new best score), in order
    binding: bool                   # True when `deepest` counts binding starts only


# ---------------------------------------------------------------------------
# Mutations. Each takes (rng, frame, blockers, walls) and returns new lists or None.

def _m_add(rng, frame, blockers, walls):
    if len(blockers) >= frame.spec.blockers[1]:
        return None
    taken = _occupied(frame, blockers, walls)
    b = _crosser(rng, frame, taken) if rng.random() < 0.3 and not frame.beam else None
    b = b or _random_block(rng, frame, taken)
    if b is None:
        return None
    return blockers + [b], walls


def _m_remove(rng, frame, blockers, walls):
    if len(blockers) <= frame.spec.blockers[0] or not blockers:
        return None
    i = rng.randrange(len(blockers))
    out = blockers[:i] + blockers[i + 1:]
    kind = blockers[i].kind
    if kind != "crystal":                 # keep the spec's twist count: hand the kind on
        plain = [j for j, b in enumerate(out) if b.kind == "crystal"]
        if not plain:
            return None
        j = rng.choice(plain)
        out[j] = _with(out[j], kind=kind)
    return out, walls


def _one_block(change):
    """A mutation that replaces one random blocker `b` by `change(rng, frame, b, taken)`
    (`taken`: every other occupied cell); None, the same block, or one that does not
    fit leaves the layout as it was (the mutation returns None)."""
    def mutate(rng, frame, blockers, walls):
        if not blockers:
            return None
        i = rng.randrange(len(blockers))
        b = blockers[i]
        taken = _occupied(frame, blockers, walls, skip=i)
        nb = change(rng, frame, b, taken)
        if nb is None or nb == b or not _fits(nb, taken, frame.W, frame.H):
            return None
        out = list(blockers)
        out[i] = nb
        return out, walls
    return mutate


@_one_block
def _m_move(rng, frame, b, taken):
    return _random_block(rng, frame, taken, kind=b.kind, shape=(b.w, b.h), tries=20)


@_one_block
def _m_nudge(rng, frame, b, taken):
    dx, dy = rng.choice(((1, 0), (-1, 0), (0, 1), (0, -1)))
    return _with(b, x=b.x + dx, y=b.y + dy)


@_one_block
def _m_resize(rng, frame, b, taken):
    long_ = max(b.w, b.h)
    grow = 3 if long_ == 2 else 2
    shift = rng.choice((0, -1)) if grow > long_ else rng.choice((0, 1))
    return _with(b, x=b.x + shift, w=grow) if b.horizontal else _with(b, y=b.y + shift, h=grow)


@_one_block
def _m_turn(rng, frame, b, taken):
    cx, cy = rng.choice(b.cells())                # pivot on one of its cells
    length = max(b.w, b.h)
    k = rng.randrange(length)
    return (_with(b, x=cx, y=cy - k, w=1, h=length) if b.horizontal
            else _with(b, x=cx - k, y=cy, w=length, h=1))


def _m_wall(rng, frame, blockers, walls):
    lo, hi = getattr(frame.spec, "walls", (0, 0))
    if hi == 0:
        return None
    ops = []
    if len(walls) < hi:
        ops.append("add")
    if len(walls) > lo:
        ops.append("remove")
    if walls:
        ops.append("move")
    op = rng.choice(ops)
    out = list(walls)
    if op in ("remove", "move"):
        out.pop(rng.randrange(len(out)))
    if op in ("add", "move"):
        taken = _occupied(frame, blockers, out)
        free = [(x, y) for y in range(frame.H) for x in range(frame.W) if (x, y) not in taken]
        if not free:
            return None
        out.append(rng.choice(free))
    return blockers, sorted(out)


def _m_kind(rng, frame, blockers, walls):
    twisted = [i for i, b in enumerate(blockers) if b.kind != "crystal"]
    if not twisted:
        return None
    i = rng.choice(twisted)
    others = [j for j, b in enumerate(blockers) if b.kind != blockers[i].kind]
    if not others:
        return None
    j = rng.choice(others)
    out = list(blockers)
    out[i], out[j] = _with(blockers[i], kind=blockers[j].kind), _with(blockers[j], kind=blockers[i].kind)
    return out, walls


def _m_light(rng, frame, blockers, walls):
    """Beam layouts: trace a new light from the key (new mirrors, so a new lantern), and
    lift the blockers and walls that stand in its way. Depth in a beam level comes from
    the light's path as much as from the blocks; a search whose mirrors are fixed for a
    whole run can only rearrange blocks around one path."""
    if not frame.beam:
        return None
    traced = random_light(rng, frame.W, frame.H, frame.key, frame.beam,
                          getattr(frame.spec, "mirrors", (0, 0)))
    if traced is None:
        return None
    path, mirrors, exit_ = traced
    reserved = frozenset(path) | frozenset(frame.key.cells())
    kept = [b for b in blockers if not reserved.intersection(b.cells())]
    if len(kept) < frame.spec.blockers[0]:
        return None
    new = _Frame(spec=frame.spec, W=frame.W, H=frame.H, exit=exit_, key=frame.key,
                 beam=frame.beam, mirrors=tuple(mirrors), reserved=reserved, lane=frame.lane)
    return kept, [w for w in walls if w not in reserved], new


MUTATIONS = {"add": _m_add, "remove": _m_remove, "move": _m_move, "nudge": _m_nudge,
             "resize": _m_resize, "turn": _m_turn, "wall": _m_wall, "kind": _m_kind,
             "light": _m_light}


def _mutate(name: str, rng: random.Random, frame: _Frame, blockers: list[Block], walls
            ) -> tuple[list[Block], list, _Frame] | None:
    """Mutation `name` applied: (blockers, walls, frame), the frame new only when the
    mutation retraced the light; None when it could not apply."""
    got = MUTATIONS[name](rng, frame, blockers, walls)
    if got is None:
        return None
    return (got[0], got[1], got[2] if len(got) == 3 else frame)


def _walk(rng: random.Random, frame: _Frame, blockers: list[Block], walls, steps: int
          ) -> list[Block]:
    """Slide `steps` random blockers to random free places along their axis (crystal
    slides, key fixed): another member of the same component."""
    out = list(blockers)
    for _ in range(steps):
        if not out:
            break
        i = rng.randrange(len(out))
        b = out[i]
        taken = _occupied(frame, out, walls, skip=i)
        spots = []
        for d in (-1, 1):
            k = d
            while True:
                nb = _with(b, x=b.x + k, y=b.y) if b.horizontal else _with(b, x=b.x, y=b.y + k)
                if not _fits(nb, taken, frame.W, frame.H):
                    break
                spots.append(nb)
                k += d
        if spots:
            out[i] = rng.choice(spots)
    return out


# ---------------------------------------------------------------------------
# The search.

def _metric(sw: LayoutSweep, binding: bool) -> int:
    return sw.deepest_binding if binding else sw.deepest


@dataclass(frozen=True)
class Aim:
    """What a search climbs toward: the board's deepest (binding) par at `target`
    (`exact`: a board deeper than the target is as far from it as one shallower, since
    a level starts at its board's deepest start and cannot be cut from a deeper one),
    with a twist margin (par - crystal par at that start) of at least `margin`."""
    target: int
    exact: bool = False
    margin: int = 0

    def depth(self, d: int) -> int:
        return 2 * self.target - d if self.exact and d > self.target else d

    def hit(self, sw: LayoutSweep, binding: bool) -> bool:
        d = _metric(sw, binding)
        if binding and sw.deepest_margin < self.margin:
            return False
        return d == self.target if self.exact else d >= self.target


MARGIN_STEP = 0.2        # a move of twist margin above the floor is worth this much depth
MARGIN_CAP = 4           # ... for at most this many moves of it
SHORT_MARGIN = 2.0       # a move of margin under the floor costs this much depth


def _score(sw: LayoutSweep, binding: bool, tie: str, aim: Aim | None = None) -> float:
    """The search's objective: the metric (folded at the target when the aim is
    exact; twist specs: plus margin above the aim's floor, minus margin under it), plus
    a tie-break in [0, 0.2). A twist spec whose layout has no binding start yet scores
    in [-1, 0) by its plain depth, a gradient toward layouts deep enough for a twist to
    matter."""
    m = _metric(sw, binding)
    if binding and m == 0:
        return -1.0 + 0.9 * sw.deepest / (sw.deepest + 10.0)
    base = float(m if aim is None else aim.depth(m))
    if binding and aim is not None:
        over = sw.deepest_margin - aim.margin
        base += MARGIN_STEP * min(over, MARGIN_CAP) if over >= 0 else SHORT_MARGIN * over
    if tie == "dense":
        n = (sw.binding if binding else sw.histogram.get(m, 0)) if m else 0
        return base + n / (n + 8.0) * 0.2
    if tie == "tight":
        return base + 0.2 / (1.0 + sw.positions / 1000.0)
    return base


def search(spec: Any, seed: int, *, target: int, budget_sweeps: int, start: Level | None = None,
           tuning: Tuning = Tuning(), per_depth: int = 60,
           state_cap: int = SEARCH_STATE_CAP, exact: bool = False, margin: int = 0,
           observe: Callable[[Level, LayoutSweep], None] | None = None) -> DeepResult:
    """Late-acceptance hill climbing over solved layouts of `spec` (a DeepSpec or any
    object with its attribute names, e.g. a Bucket), scored by the exact sweep.

    Stops after `budget_sweeps` sweeps (the final harvesting sweep included) or as
    soon as the score reaches `target` (`exact`: as soon as the board's deepest is the
    target, overshoot counting as far as undershoot; twist specs: with a twist margin
    of at least `margin` at that start, margin above it breaking near-ties). `start` (a solved layout) replaces the random
    one. Deterministic: same arguments, same result.

    `observe(layout, sweep)` is called with every layout the search sweeps completely
    (the miner keeps what passes on the way, not only what the search aimed at); it
    must not draw from the search's generator, so the search is the same with it."""
    _check_spec(spec)
    if budget_sweeps < 1:
        raise ValueError("budget_sweeps must be at least 1")
    rng = random.Random(f"lumina-deep:{seed}")
    binding = bool(_twist_counts(spec))
    aim = Aim(target, exact, margin) if (exact or margin) else None
    if start is None:
        start = random_layout(spec, rng)
    elif start.win == "beam" and not Board(start).is_solved(Board(start).start):
        raise ValueError("start layout is not solved (its light misses the lantern)")
    frame = _frame_of(start, spec)
    cur_blockers = [b for b in start.blocks if b.kind != "key"]
    cur_walls = sorted(start.walls)
    sweeps = work = 0
    # budget - 1 search sweeps; the last one re-sweeps the best with its harvest
    search_budget = budget_sweeps - 1

    def _hit(sw: LayoutSweep) -> bool:
        return aim.hit(sw, binding) if aim is not None else _metric(sw, binding) >= target

    def evaluate(lv: Level) -> LayoutSweep | None:
        nonlocal sweeps, work
        sw = exact_sweep(lv, per_depth=0, state_cap=state_cap)
        sweeps += 1
        work += sw.work
        if not sw.complete:
            return None
        if observe is not None:
            observe(lv, sw)
        return sw

    best_level = start.replace(id="layout")
    best_metric, best_score = 0, -2.0
    trace: list[tuple[int, int]] = []
    reached = None
    cur_score = -2.0
    if search_budget > 0:
        sw = evaluate(best_level)
        if sw is not None:
            best_metric = _metric(sw, binding)
            cur_score = best_score = _score(sw, binding, tuning.tie, aim)
            trace.append((sweeps, best_metric))
            if _hit(sw):
                reached = sweeps
    history = [cur_score] * tuning.history
    names = [n for n, w in tuning.weights for _ in range(w)]
    since_best = 0
    run_best = cur_score
    step = 0
    idle = 0
    while reached is None and sweeps < search_budget:
        blockers, walls = cur_blockers, cur_walls
        if rng.random() < tuning.walk:
            blockers = _walk(rng, frame, blockers, walls, tuning.walk_steps)
        got = _mutate(rng.choice(names), rng, frame, blockers, walls)
        if got is not None and rng.random() < tuning.double:
            got = _mutate(rng.choice(names), rng, got[2], got[0], got[1]) or got
        lv = _level(got[2], got[0], got[1]) if got is not None else None
        if lv is None:
            idle += 1
            if idle > 1000 * (search_budget + 1):      # a spec with no legal mutation
                break
            continue
        sw = evaluate(lv)
        if sw is None:
            continue
        score = _score(sw, binding, tuning.tie, aim)
        v = step % tuning.history
        step += 1
        if score >= cur_score or score >= history[v]:
            cur_blockers, cur_walls, frame, cur_score = got[0], got[1], got[2], score
        history[v] = cur_score
        if score > best_score:
            best_score, best_level = score, lv.replace(id="layout")
            metric = _metric(sw, binding)
            if metric != best_metric:
                best_metric = metric
                trace.append((sweeps, metric))
            if _hit(sw):
                reached = sweeps
        if score > run_best:
            run_best = score
            since_best = 0
        else:
            since_best += 1
            if since_best >= tuning.stall and sweeps < search_budget:
                since_best = 0
                if tuning.restart == "fresh":      # a new layout, a new lantern: a new run
                    lv = random_layout(spec, rng)
                    frame = _frame_of(lv, spec)
                    cur_blockers = [b for b in lv.blocks if b.kind != "key"]
                    cur_walls = sorted(lv.walls)
                    cur_score = -2.0                # its first neighbour is taken
                else:
                    frame = _frame_of(best_level, spec)
                    cur_blockers = [b for b in best_level.blocks if b.kind != "key"]
                    cur_walls = sorted(best_level.walls)
                    cur_score = best_score
                run_best = cur_score
                history = [cur_score] * tuning.history
    final = exact_sweep(best_level, per_depth=per_depth, seed=seed, state_cap=state_cap,
                        binding_only=binding)
    sweeps += 1
    work += final.work
    return DeepResult(layout=best_level, sweep=final, deepest=_metric(final, binding) if final.complete else 0,
                      sweeps=sweeps, work=work, reached_at_sweep=reached, trace=tuple(trace),
                      binding=binding)


def deepest_levels(result: DeepResult, count: int, min_par: int = 1, id_prefix: str = "deep"
                   ) -> list[Level]:
    """Up to `count` levels from the result's harvest, deepest par first (binding starts
    only when the result's score counts binding starts), each re-solved: `optimal`
    and `solution` are the solver's (it has the last word; a start it does not solve
    within its cap is skipped). Ids are `{id_prefix}-01`, `{id_prefix}-02`, ..."""
    out: list[Level] = []
    harvest = result.sweep.harvest
    for par in sorted(harvest, reverse=True):
        if par < min_par or len(out) >= count:
            break
        for cand in harvest[par]:
            if len(out) >= count:
                break
            if result.binding and cand.par <= cand.crystal_par:
                continue
            lv = level_at(result.layout, cand.state, f"{id_prefix}-{len(out) + 1:02d}")
            sol = solve(lv)
            if sol.outcome is not Outcome.SOLVED:
                continue
            out.append(lv.replace(optimal=sol.optimal, solution=sol.moves))
    return out

