"""`python -m lumina.vectors [--out tests/js/vectors.json]`: parity vectors for the JS board.

Python is the reference here: for every published level (and a set of hand-drawn
levels covering every kind) it records the legal moves and the solved flag at the
start and along seeded random walks of reachable states, plus every level's stored
solution and optimal count. `tests/js/parity.test.mjs` replays them through the very
module the site's pages import (`templates/static/engine.js`).

It also carries the site's rules as `lumina.sitedata` defines them: `site` (the #site-data
object every page embeds), `days` (calendar dates and their daily-pool index) and `stars`
(moves, par, helped -> stars), which `tests/js/core.test.mjs` replays through core.js;
and `descs`: share-link texts with Python's verdict (`lumina.desc.from_desc`: the level
it reads, or null when it refuses the text), which `tests/js/parity.test.mjs` replays
through desc.js, so a share link the Python reader refuses is refused in the browser.

For the level editor's measures (`templates/static/measure.js`, replayed by
`tests/js/measure.test.mjs`): `measures`, per level (seeded random small levels of every
kind, and a spread of the committed ones), what Python's engine says of it within
`budget` states (the solver's default cap, the editor's budget): outcome, par and the
solver's solution, plans, raw solutions, first moves, traps, crystal par, dead blocks, the
board's deepest start (`exact_sweep`: over binding starts on twist boards) with the sweep's
counts, its binding starts per par (`binding_only`: the `sweep` record) and every deepest start, the pack's
analysis record (`judge.analysis`) and the level page's "why it's hard" words. And `edits`:
the editor model's edits (`EDIT_CASES`) with the Python reader's one line on each result,
which `tests/js/editor-model.test.mjs` holds the model's refusals to; `rush`: Rush Hour
boards and what the reader makes of each (a desc, or its one line).
"""
from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Sequence

import datetime as _dt

from lumina import judge, sitedata
from lumina.cli import ArgumentParser, int_in, run
from lumina.desc import from_desc, from_rush_hour
from lumina.engine import DEFAULT_STATE_CAP, Board, Outcome, exact_sweep, level_at, measure, solve
from lumina.gen.layouts import random_layout
from lumina.model import FELT_MEASURES, TWIST_KINDS, Block, Level, LevelError
from lumina.render.editor import measure_limits
from lumina.render.words import why_hard
from lumina.packfile import atomic_write, pack_files, read_pack
from lumina.safeio import check_output
from lumina.verify import DEFAULT_PACKS
from lumina.worlds import DAILY_EPOCH, DAILY_POOL, TUTORIALS

WALK_STATES = 24


def level_at_state(level, positions, flags):
    """The level that plays exactly like `level` from (positions, flags): spent sand never
    moves again, so it becomes walls; thawed rime never freezes again, so it becomes crystal.
    Its par is the optimal number of moves left from that position."""
    blocks, walls = [], list(level.walls)
    for b, (x, y), f in zip(level.blocks, positions, flags):
        if b.kind == "sand" and f:
            walls.extend((x + dx, y + dy) for dy in range(b.h) for dx in range(b.w))
        else:
            blocks.append(Block(kind="crystal" if b.kind == "rime" and f else b.kind, x=x, y=y, w=b.w, h=b.h))
    return level.replace(id=f"{level.id}-at", blocks=tuple(blocks), walls=tuple(sorted(walls)), optimal=None,
                         solution=None, analysis=None, name=None, tutorial=False)


def moves_left(level, positions, flags) -> int | None:
    """Python's optimal count from a position (None: no win from there)."""
    sol = solve(level_at_state(level, positions, flags))
    if sol.outcome is Outcome.EXHAUSTED:
        raise ValueError(f"level {level.id}: the solver's state cap was hit")
    return sol.optimal if sol.outcome is Outcome.SOLVED else None


def state_vectors(level, rng: random.Random, count: int = WALK_STATES) -> list[dict]:
    """Legal moves and solved flag at `count` reachable states (random walks that
    restart from the start whenever they win or get stuck)."""
    board = Board(level)
    out = []
    s = board.start
    for _ in range(count):
        positions, flags = board.decode(s)
        moves = board.moves(s)
        out.append({"positions": [list(p) for p in positions], "flags": [int(f) for f in flags],
                    "moves": [list(m) for m in moves], "solved": board.is_solved(s)})
        if not moves or board.is_solved(s):
            s = board.start
        else:
            s = board.apply(s, rng.choice(moves))
    # one position off the start (the walk's last unsolved state) carries Python's distance to a win
    for v in reversed(out[1:]):
        if not v["solved"]:
            v["left"] = moves_left(level, v["positions"], v["flags"])
            break
    return out


def day_vectors() -> list[dict]:
    """Dates around the epoch, leap days, month and year ends, and the pool's wrap."""
    epoch, pool = DAILY_EPOCH, DAILY_POOL
    days = {epoch - _dt.timedelta(days=1), epoch, epoch + _dt.timedelta(days=pool - 1),
            epoch + _dt.timedelta(days=pool), _dt.date(2000, 2, 29), _dt.date(2024, 2, 29),
            _dt.date(2024, 3, 1), _dt.date(2025, 12, 31), _dt.date(2026, 1, 1), _dt.date(2026, 3, 29),
            _dt.date(2026, 10, 25), _dt.date(2026, 12, 3), _dt.date(2038, 1, 19), _dt.date(1969, 7, 20)}
    return [{"date": d.isoformat(), "index": sitedata.day_index(d)} for d in sorted(days)]


def star_vectors() -> list[dict]:
    return [{"moves": m, "par": par, "helped": h, "stars": sitedata.stars(m, par, h)}
            for par in (1, 7) for m in range(par, par + 5) for h in (False, True)]


# ---------------------------------------------------------------------- the editor's measures

#: Block kinds of each family of random levels (the key comes first, always).
MEASURE_FAMILIES = {"crystal": ("crystal",), "sand": ("crystal", "sand"), "ice": ("crystal", "ice"),
                    "rime": ("crystal", "rime"), "mixed": ("crystal", "sand", "ice", "rime"),
                    "beam": ("crystal", "crystal", "sand", "ice")}
RANDOM_PER_FAMILY = 8
RANDOM_COMPONENT = 20_000       # random levels are kept only when their component is this small
#: Boards whose component is far over a small cap (measured with cap SMALL_CAP): one that
#: exhausts it, and one whose win is met before the cap (a proved par, nothing measured).
SMALL_CAP = 20_000
OVER_CAP = ("8x8-R0-K0021C4221C4721C1412C6721C1321C7412C2112C6512C6121C4021C6312-w20",
            "8x8-R0-K0021C4221C4721C1412C6721C1321C7412C2112C6512C6121C6312")
#: Twist boards whose deepest start does not need its twists, so the sweep's binding branch
#: (`exact_sweep(binding_only=True)`, measure.js deepestStart over binding starts) answers
#: otherwise than the plain sweep: deepest over any start > deepest over binding ones > 0.
#: Committed levels with one block's kind changed (w4-10, w3-19, w3-26, d-012, d-048).
BINDING = ("5x5-R4-K0421C2312R1112C2221S2012C3021C4312",
           "6x6-B2-K2112R3112C0331I3521C1521C1012C4013C2021C3312C0412C1421C0221C5213",
           "6x6-T4-K4412C4221C1212C2312C3013C0112C3321R1412C2521C5312C4021I0313C2012",
           "6x6-B3-K5112C5312I4213C1212C2012C2421C1412C3531C0212C0021C2212S0412-m30f-bW0",
           "6x6-B5-K3212C4321C4221C4412R1412C0021C4121C2312C4021C2012C2521-m34b54b-bS0")
SWEEP_ALL = 1 << 40             # per_depth: every start of a par, none sampled out


def random_level(rng: random.Random, family: str, id: str, solved: bool = False) -> Level | None:
    """A small seeded random level of `family` on a 4-6 x 4-6 grid (up to 9 blockers of the
    family's kinds, up to 2 walls; beam levels with 1-3 mirrors), drawn by the generator's one
    layout drawer (`lumina.gen.layouts.random_layout`), so it is a layout already won (the key
    at the lantern, or its light leaving through it) for `exact_sweep` to start from. Not
    `solved`: the key then stands at a random free place along its axis (a raw draw: often
    unsolvable, or won in a move or two). None when the draw is not a level."""
    W, H = rng.randint(4, 6), rng.randint(4, 6)
    count = rng.randint(3, 9)
    kinds = [rng.choice(MEASURE_FAMILIES[family]) for _ in range(count)]
    twists = {k: kinds.count(k) for k in TWIST_KINDS if k in kinds}
    spec = SimpleNamespace(width=W, height=H, blockers=(max(1, sum(twists.values())), count), twists=twists,
                           walls=(0, 2), beam=family == "beam", mirrors=(1, 3))
    try:
        lv = random_layout(spec, rng, tries=20).replace(id=id)
    except (ValueError, LevelError):
        return None
    if solved:
        return lv
    k, key = lv.key_index, lv.key
    taken = set(lv.walls) | {(m.x, m.y) for m in lv.mirrors}
    for i, b in enumerate(lv.blocks):
        if i != k:
            taken.update(b.cells())
    room = W - key.w if key.horizontal else H - key.h
    places = [p for p in range(room + 1)
              if taken.isdisjoint(dataclasses.replace(key, **{"x" if key.horizontal else "y": p}).cells())]
    at = rng.choice(places)
    moved = dataclasses.replace(key, **{"x" if key.horizontal else "y": at})
    try:
        return lv.replace(blocks=lv.blocks[:k] + (moved,) + lv.blocks[k + 1:])
    except LevelError:
        return None


def random_levels(seed: int) -> list[Level]:
    """RANDOM_PER_FAMILY levels of each family whose components stay small: most are the
    deepest start of a random won layout (`exact_sweep`), the rest raw random draws (often
    unsolvable, or won in a move or two)."""
    rng = random.Random(f"measures:{seed}")
    out = []
    for family in MEASURE_FAMILIES:
        got = 0
        while got < RANDOM_PER_FAMILY:
            swept = got < RANDOM_PER_FAMILY - 2
            lv = random_level(rng, family, f"r-{family}-{got}", solved=swept)
            if lv is None:
                continue
            if swept:       # the deepest start, a binding one when the twists can bind
                sw = exact_sweep(lv, per_depth=1, seed=seed, state_cap=RANDOM_COMPONENT,
                                 binding_only=family in ("sand", "ice", "rime", "mixed"))
                if not sw.complete or not sw.harvest:
                    sw = exact_sweep(lv, per_depth=1, seed=seed, state_cap=RANDOM_COMPONENT)
                if not sw.complete or not sw.harvest:
                    continue
                lv = level_at(lv, sw.harvest[max(sw.harvest)][0].state, lv.id)
            if measure(lv, state_cap=RANDOM_COMPONENT).outcome is Outcome.EXHAUSTED:
                continue
            out.append(lv)
            got += 1
    return out


def committed_sample(levels: Sequence[Level]) -> list[Level]:
    """Committed levels for the measures vectors: every tutorial, and per pack its 2nd, 10th
    and 20th levels and its last (each pack's hardest)."""
    by_pack: dict[str, list[Level]] = {}
    for lv in levels:
        by_pack.setdefault(lv.id.split("-")[0], []).append(lv)
    out = []
    for pack in sorted(by_pack):
        lvs = by_pack[pack]
        picks = {1, 9, 19, len(lvs) - 1}
        out.extend(lvs[i] for i in sorted(picks) if i < len(lvs))
    return out


def measure_vector(lv: Level, cap: int = DEFAULT_STATE_CAP) -> dict:
    """What Python says of `lv` within `cap` states, in the editor's terms (measure.js)."""
    core = {k: v for k, v in lv.to_json().items() if k not in ("analysis", "optimal", "solution", "tutorial", "name")}
    sol = solve(lv, state_cap=cap)
    # forced moves counted along the solver's solution: the one the editor exports
    m = measure(lv, state_cap=cap, solution=sol.moves if sol.outcome is Outcome.SOLVED else None)
    out: dict = {"level": core, "cap": cap, "outcome": sol.outcome.value, "optimal": sol.optimal,
                 "moves": [list(mv) for mv in sol.moves], "measured": m.outcome is not Outcome.EXHAUSTED}
    if out["measured"]:
        out.update(plans=m.plans, plans_capped=m.plans_capped, solutions=m.solutions,
                   solutions_capped=m.solutions_capped, dead_blocks=list(m.dead_blocks),
                   first_moves=[list(mv) for mv in m.first_moves], first_moves_legal=m.first_moves_legal,
                   component_states=m.component_states, traps=m.traps, crystal_optimal=m.crystal_optimal,
                   chain=m.chain, chain_capped=m.chain_capped, forced=m.forced, optional_twist=m.optional_twist)
    twist = any(b.kind in TWIST_KINDS for b in lv.blocks)
    sw = exact_sweep(lv, per_depth=0, state_cap=cap)
    out["deepest"] = (sw.deepest_binding if twist else sw.deepest) if sw.complete else None
    if sw.complete:
        out["sweep"] = sweep_vector(lv, sw, cap)
    if m.outcome is Outcome.SOLVED:
        # the whole record, lumina-gen/4 measures included: what the editor exports. The
        # felt figures are the felt player's (Cython, `lumina.playtest.felt`) with no JS
        # twin: measure.js leaves their group out, and so do the vectors
        a = judge.analysis(lv, m, felt=_NO_FELT)
        solved = lv.replace(optimal=m.optimal, solution=None, analysis=a)
        out["analysis"] = solved.to_json()["analysis"]
        why = why_hard(solved)
        out["why"] = {"hard": why.hard, "easier": why.easier}
    return out


#: No felt figures (`judge.analysis`'s `felt`): the editor's record has none.
_NO_FELT = SimpleNamespace(**{f: None for f in FELT_MEASURES})


def sweep_vector(lv: Level, sw, cap: int) -> dict:
    """The board's sweep in measure.js deepestStart's terms: every count of `sw` (a complete
    `exact_sweep`), binding starts per par from the `binding_only` harvest (the JS sweep's
    binding branch), and `starts`: block positions of every start at the deepest par (the
    binding ones on twist boards; the JS `start` must be one of them; [] when none)."""
    twist = any(b.kind in TWIST_KINDS for b in lv.blocks)
    bound = exact_sweep(lv, per_depth=SWEEP_ALL, state_cap=cap, binding_only=True)
    top = sw.deepest_binding if twist else sw.deepest
    if twist:
        pool = bound.harvest.get(top, [])
    else:
        pool = exact_sweep(lv, min_depth=max(top, 1), per_depth=SWEEP_ALL, state_cap=cap).harvest.get(top, [])
    board = Board(lv)
    return {"positions": sw.positions, "deepest_any": sw.deepest, "deepest_binding": sw.deepest_binding,
            "binding": sw.binding, "deepest_margin": sw.deepest_margin, "solvable": sw.solvable,
            "histogram": {str(d): n for d, n in sorted(sw.histogram.items())},
            "binding_by_par": {str(d): len(c) for d, c in sorted(bound.harvest.items())},
            "starts": [[list(p) for p in board.decode(c.state)[0]] for c in pool]}


# ---------------------------------------------------------------------- the editor's edits

EDIT_BASES = {"exit": "6x6-R2-K0221C3113-w55", "beam": "6x6-R2-K0221C3113-m41f-bE0",
              "full": "8x8-R0-K0021C2021C4021C0121C2121C4121C0321C2321C4321C0521C2521C4521C0721C2721C4721C6721"}


def _place(lv: dict, kind: str, x: int, y: int, w: int, h: int) -> None:
    lv["blocks"].append({"kind": kind, "x": x, "y": y, "w": w, "h": h})


def _mirror(lv: dict, x: int, y: int, tilt: str) -> None:
    found = [m for m in lv.setdefault("mirrors", []) if (m["x"], m["y"]) == (x, y)]
    if found:
        found[0]["tilt"] = tilt
    else:
        lv["mirrors"].append({"x": x, "y": y, "tilt": tilt})


def _shift(lv: dict, x0: int, y0: int, x: int, y: int) -> None:
    for w in lv.get("walls", []):
        if w == [x0, y0]:
            w[:] = [x, y]
            return
    for m in lv.get("mirrors", []):
        if (m["x"], m["y"]) == (x0, y0):
            m.update(x=x, y=y)


def _win(lv: dict, win: str) -> None:
    if win == "beam":
        lv["win"] = "beam"
        lv.setdefault("beam", {"dir": "E", "offset": 0})
    else:
        lv.pop("win", None)
        lv.pop("beam", None)


#: The editor model's edits (templates/static/editor-model.js), each applied to a level's JSON
#: as the model applies it: name -> function(level dict, *args).
EDIT_OPS = {
    "place": _place,
    "move": lambda lv, i, x, y: lv["blocks"][i].update(x=x, y=y),
    "reshape": lambda lv, i, x, y, w, h: lv["blocks"][i].update(x=x, y=y, w=w, h=h),
    "turn": lambda lv, i: lv["blocks"][i].update(w=lv["blocks"][i]["h"], h=lv["blocks"][i]["w"]),
    "setKind": lambda lv, i, kind: lv["blocks"][i].update(kind=kind),
    "remove": lambda lv, i: lv["blocks"].pop(i),
    "wall": lambda lv, x, y: lv.setdefault("walls", []).append([x, y]),
    "shift": _shift,
    "mirror": _mirror,
    "lantern": lambda lv, side, index: lv.update(exit={"side": side, "index": index}),
    "setWin": _win,
    "emitter": lambda lv, d, offset: lv.update(beam={"dir": d, "offset": offset}),
    "resize": lambda lv, w, h: lv.update(width=w, height=h),
}

#: (base, edit, args): overlaps, blocks off the grid, square blocks, a second key, a 17th
#: block, mirrors on an exit level, lanterns off the boundary or out of the key's reach,
#: emitters off the key's edge, grids too small, and edits that are fine.
EDIT_CASES = (
    ("exit", "place", ["crystal", 1, 1, 1, 3]), ("exit", "place", ["crystal", 4, 4, 2, 2]),
    ("exit", "place", ["crystal", 5, 4, 2, 1]), ("exit", "place", ["key", 4, 0, 2, 1]),
    ("exit", "place", ["sand", 4, 0, 2, 1]), ("exit", "move", [1, 3, 4]), ("exit", "move", [1, 4, 1]),
    ("exit", "move", [1, 5, 3]), ("exit", "reshape", [1, 3, 1, 1, 1]), ("exit", "reshape", [1, 3, 0, 1, 4]),
    ("exit", "turn", [1]), ("exit", "turn", [0]), ("exit", "setKind", [1, "ice"]), ("exit", "setKind", [1, "key"]),
    ("exit", "remove", [0]), ("exit", "remove", [1]), ("exit", "wall", [0, 2]), ("exit", "wall", [4, 4]),
    ("exit", "mirror", [4, 4, "/"]), ("exit", "lantern", ["bottom", 0]), ("exit", "lantern", ["right", 4]),
    ("exit", "lantern", ["right", 6]), ("exit", "lantern", ["left", 2]), ("exit", "resize", [4, 4]),
    ("exit", "resize", [8, 7]), ("exit", "resize", [3, 6]), ("exit", "resize", [6, 9]), ("exit", "setWin", ["beam"]),
    ("exit", "shift", [5, 5, 4, 5]), ("exit", "shift", [5, 5, 3, 3]), ("exit", "shift", [5, 5, 6, 5]),
    ("beam", "shift", [4, 1, 4, 4]), ("beam", "shift", [4, 1, 0, 2]),
    ("beam", "mirror", [4, 1, "\\"]), ("beam", "mirror", [3, 2, "/"]), ("beam", "setWin", ["exit"]),
    ("beam", "emitter", ["N", 1]), ("beam", "emitter", ["E", 1]), ("beam", "emitter", ["S", 2]),
    ("beam", "turn", [0]), ("beam", "lantern", ["top", 5]), ("full", "place", ["crystal", 6, 0, 2, 1]),
    ("full", "remove", [15]),
)


def edit_vectors() -> list[dict]:
    """Each edit of EDIT_CASES: the level before and after it, and the Python reader's one
    line on the level after it (null: a valid level)."""
    out = []
    for base, op, args in EDIT_CASES:
        before = from_desc(EDIT_BASES[base]).to_json()
        after = json.loads(json.dumps(before))
        EDIT_OPS[op](after, *args)
        after = {k: v for k, v in after.items() if v != []}
        try:
            Level.from_json(after)
            message = None
        except LevelError as e:
            message = str(e)
        out.append({"before": before, "op": op, "args": args, "after": after, "message": message})
    return out


#: Rush Hour boards the editor imports (`o` or `.` empty, `x` a wall), good and bad.
RUSH_BOARDS = ("ooooBoooooBoAAooBooooooooooooooooooo", "....B.....B.AA..B...................",
               "ooooBoxoooBoAAooBooooooooooooooooooo", "BBoCCoDDEoFoAAEoFoGGGHHoIIoJoooKKJoo",
               "ooooBoooooBoAAooBoooooooooooooooooo", "ooooBBooooBoAAooBooooooooooooooooooo",
               "oooo#oooooBoAAooBooooooooooooooooooo", "ooooBoooooBoooooBooooooooooooooooooo")


def rush_vectors() -> list[dict]:
    """Each of RUSH_BOARDS: its level's desc, or the Python reader's one line."""
    out = []
    for board in RUSH_BOARDS:
        try:
            out.append({"board": board, "desc": from_rush_hour(board).desc(), "message": None})
        except LevelError as e:
            out.append({"board": board, "desc": None, "message": str(e)})
    return out


#: Share-link texts at the edges of the rules (docs/RULES-DECISIONS.md 9; RULES.md "Winning"):
#: each is read or refused by Python, and desc.js must agree.
EDGE_DESCS = (
    "6x6-R2-K0221C4112",                 # a plain level
    "6x6-R2-K0221C4112-m55f",            # mirrors on an exit level
    "6x6-R2-K0221C4112-w55-m44b",        # walls and mirrors on an exit level
    "6x6-R2-K0212C4112",                 # a vertical key and a right lantern
    "6x6-B2-K0221C4112",                 # a horizontal key and a bottom lantern
    "6x6-R3-K0221C4112",                 # the key's row is not the lantern's
    "6x6-B1-K3012",                      # the key's column is not the lantern's
    "6x6-T3-K3012",                      # a vertical key under a top lantern
    "5x5-R1-K0121-m31f-bE0",             # a beam level with a mirror
    "5x5-R1-K0121-bE1",                  # the beam off the key's edge
    "5x5-R1-K0121-bN1",                  # a beam from the key's top edge
    "6x6-R2-K0221C0221",                 # two blocks in one place
    "6x6-R2-K0221-w02",                  # a wall under the key
    "6x6-R2-K0221-m02f-bE0",             # a mirror under the key
    "6x6-R2-K0221-w5555",                # one wall twice
    "6x6-R2-K0222",                      # a square key
    "6x6-R2-K0201",                      # a key 0 cells wide
    "6x6-R2-C0221",                      # no key
    "6x6-R2-K0221K3221",                 # two keys
    "6x6-R6-K0221",                      # the lantern off the boundary
    "9x6-R2-K0221",                      # a grid wider than 8
    "3x6-R2-K0221",                      # a grid narrower than 4
    "6x6-R2-K5221",                      # the key past the right edge
    "8x8-R0-K0021" + "".join(f"C{x}{y}21" for y in (2, 4, 6) for x in (0, 2, 4, 6)) + "C0321C2321C4321",
    "8x8-R0-K0021" + "".join(f"C{x}{y}21" for y in (2, 4, 6) for x in (0, 2, 4, 6))
    + "C0321C2321C4321C6321",            # 17 blocks: one too many
    " 6x6-R2-K0221C4112\n",             # ASCII whitespace around a pasted link
    "6x6-R2-K0221C4112\x85",            # NEL: Python's strip() took it, JS's trim() did not
    "\ufeff6x6-R2-K0221C4112",           # BOM: JS's trim() took it, Python's strip() did not
    "6x6-R2-K0221C4112\x1f",            # a unit separator: Python's strip() took it
    "6x6-R2-K0221C4112\u2028",          # a line separator
    "6x6-R2-K0221C4112\n\n",
    "\u0666x6-R2-K0221C4112",           # an Arabic-Indic digit
    "6x6-R2-K0221C4112-",
    "6x6-R2-K0221C4112-w",
    "6x6-R2-K0221C4112-b",
    "",
)
DESC_ALPHABET = "0123456789xKCSIRLTBwmbfNESW- "


def desc_case(text: str) -> dict:
    """One share-link text with Python's verdict: the level's JSON, or None (refused)."""
    try:
        level = from_desc(text, id="custom").to_json()
    except LevelError:
        level = None
    return {"desc": text, "level": level}


def mutations(text: str, rng: random.Random, count: int) -> list[str]:
    """`count` seeded one-character edits of `text` (replace, delete, insert, swap)."""
    out = []
    for _ in range(count):
        t = list(text)
        i = rng.randrange(len(t))
        how = rng.choice(("replace", "delete", "insert", "swap"))
        if how == "replace":
            t[i] = rng.choice(DESC_ALPHABET)
        elif how == "delete":
            del t[i]
        elif how == "insert":
            t.insert(i, rng.choice(DESC_ALPHABET))
        else:
            j = rng.randrange(len(t))
            t[i], t[j] = t[j], t[i]
        out.append("".join(t))
    return out


def desc_vectors(levels, rng: random.Random, per_level: int = 2) -> list[dict]:
    """The edge texts, every level's desc, and `per_level` seeded mutations of each."""
    texts = list(EDGE_DESCS)
    for lv in levels:
        texts.append(lv.desc())
        texts.extend(mutations(lv.desc(), rng, per_level))
    return [desc_case(t) for t in dict.fromkeys(texts)]


def build_vectors(pack_paths: Sequence[Path], seed: int = 7) -> dict:
    rng = random.Random(seed)
    levels = list(TUTORIALS.values())
    for p in pack_paths:
        levels.extend(read_pack(p).levels)
    cases, solutions = [], []
    for lv in levels:
        core = {k: v for k, v in lv.to_json().items() if k not in ("analysis",)}
        cases.append({"level": core, "states": state_vectors(lv, rng)})
        if lv.solution is not None and lv.optimal is not None:
            solutions.append({"level": core, "optimal": lv.optimal,
                              "solution": [list(m) for m in lv.solution]})
    sample = list(TUTORIALS.values()) + committed_sample(levels[len(TUTORIALS):]) + random_levels(seed)
    return {"seed": seed, "cases": cases, "solutions": solutions, "site": sitedata.site_data(),
            "days": day_vectors(), "stars": star_vectors(),
            "budget": DEFAULT_STATE_CAP, "limits": measure_limits(),
            "measures": [measure_vector(lv) for lv in sample]
            + [measure_vector(from_desc(d, id=f"over-{i}"), SMALL_CAP) for i, d in enumerate(OVER_CAP)]
            + [measure_vector(from_desc(d, id=f"binding-{i}")) for i, d in enumerate(BINDING)],
            "edits": edit_vectors(), "rush": rush_vectors(),
            "descs": desc_vectors(levels, random.Random(seed))}


def main(argv: Sequence[str] | None = None) -> int:
    ap = ArgumentParser(prog="python -m lumina.vectors", description=__doc__.split("\n")[0])
    ap.add_argument("packs", nargs="*", type=Path, help="packs whose levels join the vectors (default: packs/'s worlds and "
                         "daily pool; the 5,000-level practice pack only when named)")
    ap.add_argument("--out", type=Path, default=Path("tests/js/vectors.json"),
                    help="file to write (default: tests/js/vectors.json)")
    ap.add_argument("--seed", type=int_in(0, 2**63 - 1), default=7, help="seed of the random cases (default: 7)")
    args = ap.parse_args(argv)
    packs = args.packs or pack_files([DEFAULT_PACKS])
    out = check_output(args.out, inputs=packs)      # before any work
    data = build_vectors(packs, args.seed)
    atomic_write(out, json.dumps(data, separators=(",", ":")) + "\n")
    n = sum(len(c["states"]) for c in data["cases"])
    print(f"{args.out}: {len(data['cases'])} levels, {n} states, {len(data['solutions'])} solutions, "
          f"{len(data['measures'])} measured levels, {len(data['descs'])} share-link texts")
    return 0


if __name__ == "__main__":
    run(main)
