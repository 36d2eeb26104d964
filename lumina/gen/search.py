"""Deep layout search: mutate a solved layout until its component holds a deep puzzle.

RULES.md (Generation): random layouts almost never hold 40-move puzzles; the best
Rush Hour generators reach them by searching over layouts. `search` does that with
late-acceptance hill climbing over the engine's exact real-rules sweep:

    layout (solved) --exact_sweep--> deepest real par of its component (the score)
       ^                                  |
       +--- mutate: add / remove / move / resize / turn a blocker, add / remove /
            move a wall, swap a twist's kind, after a short walk of crystal slides

The score of a layout is its component's deepest real par; for a spec with twists it
is the deepest BINDING par (a twist level must need its twist), so the search climbs
toward levels that can ship. Ties are broken toward more starts at that depth (a wider
plateau is a likelier step to the next depth). The key never leaves the lantern (beam
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
from typing import Any

from lumina.engine import Board, LayoutSweep, exact_sweep, level_at, solve
from lumina.engine import Outcome
from lumina.model import (BEAM_STEP, MAX_MOVABLE, SIDES, TWIST_KINDS, Beam, Block, Exit, Level,
                          LevelError, Mirror, beam_start, mirror_turn, random_light)

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
        ("wall", 2), ("kind", 2))


@dataclass(frozen=True)
class DeepResult:
    layout: Level                   # the best layout found (solved)
    sweep: LayoutSweep              # its exact sweep, with the harvest
    deepest: int                    # its score: deepest real par (binding par for twist specs)
    sweeps: int                     # exact sweeps run (the budget's unit), the last included
    work: int                       # states swept in all
    reached_at_sweep: int | None    # the sweep that first reached the target (None: never)
    trace: tuple[tuple[int, int], ...]   # (sweep number, new best score), in order
    binding: bool                   # True when `deepest` counts binding starts only


# ---------------------------------------------------------------------------
# Drafts: a layout under construction (key first, then blockers, then walls).

@dataclass
class _Frame:
    """What never changes during one search: grid, lantern, key, beam, mirrors."""
    spec: Any
    W: int
    H: int
    exit: Exit
    key: Block
    beam: Beam | None
    mirrors: tuple[Mirror, ...]
    reserved: frozenset          # cells nothing may cover in the layout (key, mirrors, light)
    lane: tuple[str, int]        # the key's lane: ("row", y) or ("col", x)


def _twist_counts(spec: Any) -> dict[str, int]:
    tw = dict(getattr(spec, "twists", None) or {})
    return {k: int(v) for k, v in sorted(tw.items()) if v}


def _check_spec(spec: Any) -> None:
    for name in ("width", "height", "blockers"):
        if not hasattr(spec, name):
            raise ValueError(f"deep search spec has no {name!r}")
    lo, hi = spec.blockers
    tw = _twist_counts(spec)
    if not 0 <= lo <= hi or hi > MAX_MOVABLE - 1:
        raise ValueError(f"blockers {spec.blockers} must be a range within 0..{MAX_MOVABLE - 1}")
    for k in tw:
        if k not in TWIST_KINDS:
            raise ValueError(f"unknown twist kind {k!r}")
    if sum(tw.values()) > hi:
        raise ValueError(f"twists {tw} need more blockers than {spec.blockers}")


def _level(frame: _Frame, blockers: list[Block], walls: list[tuple[int, int]],
           lid: str = "deep") -> Level | None:
    try:
        lv = Level(id=lid, width=frame.W, height=frame.H, exit=frame.exit,
                   blocks=(frame.key, *blockers), walls=tuple(sorted(walls)),
                   mirrors=frame.mirrors, win="beam" if frame.beam else "exit",
                   beam=frame.beam)
    except LevelError:
        return None
    if frame.beam is not None:
        board = Board(lv)
        if not board.is_solved(board.start):
            return None
    return lv


def _occupied(frame: _Frame, blockers: list[Block], walls: list[tuple[int, int]],
              skip: int = -1) -> set[tuple[int, int]]:
    taken = set(frame.reserved)
    taken.update(walls)
    for i, b in enumerate(blockers):
        if i != skip:
            taken.update(b.cells())
    return taken


def _fits(b: Block, taken: set, W: int, H: int) -> bool:
    if b.x < 0 or b.y < 0 or b.x + b.w > W or b.y + b.h > H:
        return False
    return not any(c in taken for c in b.cells())


def _random_block(rng: random.Random, frame: _Frame, taken: set, kind: str = "crystal",
                  shape: tuple[int, int] | None = None, tries: int = 40) -> Block | None:
    W, H = frame.W, frame.H
    for _ in range(tries):
        if shape is None:
            length = 3 if rng.random() < 0.3 else 2
            w, h = (length, 1) if rng.random() < 0.5 else (1, length)
        else:
            w, h = shape
        if w > W or h > H:
            continue
        b = Block(kind=kind, x=rng.randrange(W - w + 1), y=rng.randrange(H - h + 1), w=w, h=h)
        if _fits(b, taken, W, H):
            return b
    return None


def _crosser(rng: random.Random, frame: _Frame, taken: set) -> Block | None:
    """A blocker standing across the key's lane (where depth comes from)."""
    W, H = frame.W, frame.H
    axis, at = frame.lane
    for _ in range(30):
        length = 3 if rng.random() < 0.4 else 2
        if axis == "row":
            b = Block(kind="crystal", x=rng.randrange(W), y=at - rng.randrange(length), w=1, h=length)
        else:
            b = Block(kind="crystal", x=at - rng.randrange(length), y=rng.randrange(H), w=length, h=1)
        if _fits(b, taken, W, H):
            return b
    return None


# ---------------------------------------------------------------------------
# The start: a random solved layout.

def _beam_frame(rng: random.Random, spec: Any) -> _Frame | None:
    W, H = spec.width, spec.height
    kw, kh = (2, 1) if rng.random() < 0.5 else (1, 2)
    key = Block(kind="key", x=rng.randrange(W - kw + 1), y=rng.randrange(H - kh + 1), w=kw, h=kh)
    bdir = rng.choice(("N", "E", "S", "W"))
    beam = Beam(dir=bdir, offset=rng.randrange(kh if bdir in "EW" else kw))
    traced = random_light(rng, W, H, key, beam, getattr(spec, "mirrors", (0, 0)))
    if traced is None:
        return None
    path, mirrors, exit_ = traced
    keycells = set(key.cells())
    lane = ("row", key.y) if key.horizontal else ("col", key.x)
    return _Frame(spec=spec, W=W, H=H, exit=exit_, key=key, beam=beam, mirrors=tuple(mirrors),
                  reserved=frozenset(path) | frozenset(keycells), lane=lane)


def _exit_frame(rng: random.Random, spec: Any) -> _Frame:
    W, H = spec.width, spec.height
    side = rng.choice(SIDES)
    if side in ("left", "right"):
        index = rng.randrange(1, H - 1)
        key = Block(kind="key", x=0 if side == "left" else W - 2, y=index, w=2, h=1)
        lane = ("row", index)
    else:
        index = rng.randrange(1, W - 1)
        key = Block(kind="key", x=index, y=0 if side == "top" else H - 2, w=1, h=2)
        lane = ("col", index)
    return _Frame(spec=spec, W=W, H=H, exit=Exit(side=side, index=index), key=key, beam=None,
                  mirrors=(), reserved=frozenset(key.cells()), lane=lane)


def _frame_of(level: Level, spec: Any) -> _Frame:
    key = level.key
    reserved = set(key.cells()) | {(m.x, m.y) for m in level.mirrors}
    if level.win == "beam":
        reserved |= _light_path(level)
    lane = ("row", key.y) if key.horizontal else ("col", key.x)
    return _Frame(spec=spec, W=level.width, H=level.height, exit=level.exit, key=key,
                  beam=level.beam, mirrors=level.mirrors, reserved=frozenset(reserved), lane=lane)


def _light_path(level: Level) -> set[tuple[int, int]]:
    """The cells the light crosses in `level` as laid out (key where it stands)."""
    x, y = beam_start(level.key, level.beam)
    dx, dy = BEAM_STEP[level.beam.dir]
    tilt = {(m.x, m.y): m.tilt for m in level.mirrors}
    path: set[tuple[int, int]] = set()
    for _ in range(level.width * level.height * 4):
        if not (0 <= x < level.width and 0 <= y < level.height):
            break
        path.add((x, y))
        if (x, y) in tilt:
            dx, dy = mirror_turn(dx, dy, tilt[(x, y)])
        x, y = x + dx, y + dy
    return path


def random_layout(spec: Any, rng: random.Random, tries: int = 200) -> Level:
    """A random solved layout for `spec`: key on the lantern (beam: its light on it),
    walls, blockers scattered with a third of them across the key's lane, twists
    assigned to random blockers. ValueError when `tries` draws all fail."""
    _check_spec(spec)
    tw = _twist_counts(spec)
    for _ in range(tries):
        frame = _beam_frame(rng, spec) if getattr(spec, "beam", False) else _exit_frame(rng, spec)
        if frame is None:
            continue
        walls: list[tuple[int, int]] = []
        taken = set(frame.reserved)
        for _w in range(rng.randint(*getattr(spec, "walls", (0, 0)))):
            free = [(x, y) for y in range(frame.H) for x in range(frame.W) if (x, y) not in taken]
            if free:
                cell = rng.choice(free)
                taken.add(cell)
                walls.append(cell)
        count = rng.randint(*spec.blockers)
        blockers: list[Block] = []
        if not frame.beam:
            for _c in range(max(1, count // 3)):
                b = _crosser(rng, frame, taken)
                if b is not None and len(blockers) < count:
                    blockers.append(b)
                    taken.update(b.cells())
        while len(blockers) < count:
            b = _random_block(rng, frame, taken)
            if b is None:
                break
            blockers.append(b)
            taken.update(b.cells())
        if len(blockers) < max(spec.blockers[0], sum(tw.values())):
            continue
        order = list(range(len(blockers)))
        rng.shuffle(order)
        kinds = [k for k in sorted(tw) for _k in range(tw[k])]
        for kind, i in zip(kinds, order):
            blockers[i] = _with(blockers[i], kind=kind)
        lv = _level(frame, blockers, walls, "layout")
        if lv is not None:
            return lv
    raise ValueError(f"no solved {spec.width}x{spec.height} layout in {tries} draws")


def _with(b: Block, **kw: Any) -> Block:
    d = {"kind": b.kind, "x": b.x, "y": b.y, "w": b.w, "h": b.h}
    d.update(kw)
    return Block(**d)


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


MUTATIONS = {"add": _m_add, "remove": _m_remove, "move": _m_move, "nudge": _m_nudge,
             "resize": _m_resize, "turn": _m_turn, "wall": _m_wall, "kind": _m_kind}


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


def _score(sw: LayoutSweep, binding: bool, tie: str) -> float:
    """The search's objective: the metric, plus a tie-break in [0, 0.5). A twist spec
    whose layout has no binding start yet scores in [-1, 0) by its plain depth, a
    gradient toward layouts deep enough for a twist to matter."""
    m = _metric(sw, binding)
    if binding and m == 0:
        return -1.0 + 0.9 * sw.deepest / (sw.deepest + 10.0)
    if tie == "dense":
        n = (sw.binding if binding else sw.histogram.get(m, 0)) if m else 0
        return m + n / (n + 8.0) * 0.5
    if tie == "tight":
        return m + 0.5 / (1.0 + sw.positions / 1000.0)
    return float(m)


def search(spec: Any, seed: int, *, target: int, budget_sweeps: int, start: Level | None = None,
           tuning: Tuning = Tuning(), per_depth: int = 60,
           state_cap: int = SEARCH_STATE_CAP) -> DeepResult:
    """Late-acceptance hill climbing over solved layouts of `spec` (a DeepSpec or any
    object with its attribute names, e.g. a Bucket), scored by the exact sweep.

    Stops after `budget_sweeps` sweeps (the final harvesting sweep included) or as
    soon as the score reaches `target`. `start` (a solved layout) replaces the random
    one. Deterministic: same arguments, same result."""
    _check_spec(spec)
    if budget_sweeps < 1:
        raise ValueError("budget_sweeps must be at least 1")
    rng = random.Random(f"lumina-deep:{seed}")
    binding = bool(_twist_counts(spec))
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

    def evaluate(lv: Level) -> LayoutSweep | None:
        nonlocal sweeps, work
        sw = exact_sweep(lv, per_depth=0, state_cap=state_cap)
        sweeps += 1
        work += sw.work
        return sw if sw.complete else None

    best_level = start.replace(id="layout")
    best_metric, best_score = 0, -2.0
    trace: list[tuple[int, int]] = []
    reached = None
    cur_score = -2.0
    if search_budget > 0:
        sw = evaluate(best_level)
        if sw is not None:
            best_metric = _metric(sw, binding)
            cur_score = best_score = _score(sw, binding, tuning.tie)
            trace.append((sweeps, best_metric))
            if best_metric >= target:
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
        got = MUTATIONS[rng.choice(names)](rng, frame, blockers, walls)
        if got is not None and rng.random() < tuning.double:
            got = MUTATIONS[rng.choice(names)](rng, frame, *got) or got
        lv = _level(frame, *got) if got is not None else None
        if lv is None:
            idle += 1
            if idle > 1000 * (search_budget + 1):      # a spec with no legal mutation
                break
            continue
        sw = evaluate(lv)
        if sw is None:
            continue
        score = _score(sw, binding, tuning.tie)
        v = step % tuning.history
        step += 1
        if score >= cur_score or score >= history[v]:
            cur_blockers, cur_walls, cur_score = got[0], got[1], score
        history[v] = cur_score
        if score > best_score:
            best_score, best_level = score, lv.replace(id="layout")
            metric = _metric(sw, binding)
            if metric > best_metric:
                best_metric = metric
                trace.append((sweeps, metric))
                if metric >= target:
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

