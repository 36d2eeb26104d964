"""Why a level is hard, in players' words, from its stored `Analysis`.

`why_hard(level)` returns `(figure, words)` pairs for the level page's "Why it's hard"
box. Every figure comes from the level's measured analysis (`lumina.engine.measure`,
RULES.md "Quality"), so new packs with new measures read correctly without edits here.

    plans               "2 distinct plans" / "1 plan: one idea solves it"
    first moves         "1 of 9 first moves is optimal"
    component_states    "4,210 positions" reachable from the start
    traps               "1,203 trap positions (no way out)" / "no traps"
    crystal_optimal     "as plain crystal: 9 moves; with this sand: 12"
    dead blocks         "2 of 7 blocks are decoys: they never need to move"
"""
from __future__ import annotations

from lumina.model import TWIST_KINDS, Level


def _n(x: int) -> str:
    return f"{x:,}"


def _plural(n: int, one: str, many: str | None = None) -> str:
    return one if n == 1 else (many or one + "s")


def twist_words(level: Level) -> str:
    """'this sand', 'this ice', 'these twists' (sand and rime together) for the level."""
    kinds = [k for k in TWIST_KINDS if level.count(k)]
    if len(kinds) == 1:
        return f"this {kinds[0]}"
    return "these twists"


def why_hard(level: Level) -> list[tuple[str, str]]:
    """(figure, words) pairs; empty when the level has no analysis."""
    a = level.analysis
    if a is None:
        return []
    out: list[tuple[str, str]] = []
    if a.plans_capped:
        out.append((f"{_n(a.plans)}+", "distinct plans: many ways through, but few short ones"))
    elif a.plans == 1:
        out.append(("1 plan", "one idea solves it in par; every optimal answer is the same plan"))
    else:
        out.append((f"{_n(a.plans)} plans", "distinct plans reach par"))
    legal, good = a.first_moves_legal, a.first_moves_optimal
    out.append((f"{_n(good)} of {_n(legal)}",
                f"first {_plural(legal, 'move')} {'is' if good == 1 else 'are'} optimal"
                + (": any start works" if good == legal else "")))
    out.append((_n(a.component_states), f"{_plural(a.component_states, 'position')} you can reach"))
    if a.traps:
        out.append((_n(a.traps), f"trap {_plural(a.traps, 'position')} (no way out: Reset or Undo)"))
    else:
        out.append(("0 traps", "you can always still win from wherever you are"))
    if a.crystal_optimal is not None:
        twist = twist_words(level)
        if a.crystal_optimal == level.optimal:
            words = f"as plain crystal: {level.optimal} moves; with {twist}: {level.optimal} (the same par)"
        else:
            words = f"as plain crystal: {a.crystal_optimal} moves; with {twist}: {level.optimal}"
        out.append(("Twist:", words))
    movable = len(level.blocks) - 1
    dead = len(a.dead_blocks)
    if dead and movable:
        out.append((f"{dead} of {movable}", f"{_plural(movable, 'block')} never need to move: decoys"
                    if dead > 1 else f"{_plural(movable, 'block')}: one never needs to move, a decoy"))
    return out
