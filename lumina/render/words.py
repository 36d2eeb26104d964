"""What makes a level hard and what makes it easier, in players' words, from its `Analysis`.

`why_hard(level)` returns `Why(hard=..., easier=...)`: one line each for the level page's
panel, built from the level's measured analysis (`lumina.engine.measure`, RULES.md
"Quality"), so regenerated packs read correctly without edits here. The words are the ones
the page's glossary explains: par, plans, chain, traps, twist margin.

    hard     chain            "a chain of 9 moves that must come in order"
             twist margin     "this sand adds 3 moves to plain crystal (twist margin 3)"
             one plan         "one plan: every answer in par is the same idea"
             first moves      "1 of 9 first moves is optimal"
             traps            "1,203 traps"
             deepest          "it starts at its board's deepest position"
    easier   plans            "16 plans reach par"
             decoys           "2 of 7 blocks never need to move"
             first moves      "any first move works"
             no traps         "no traps: you can always still win"
             short chain      "its longest chain is 3 of 12 moves: jobs that can come in any order"

Each line takes the first three that apply. `chain` and `deepest` arrive with packs of
generator `lumina-gen/4`; older packs lack them and read without those items.
"""
from __future__ import annotations

from dataclasses import dataclass

from lumina.model import TWIST_KINDS, Level

#: Items per line: one line each, so the panel stays short.
ITEMS = 3


@dataclass(frozen=True, kw_only=True)
class Why:
    hard: str
    easier: str


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


def twist_margin(level: Level) -> int | None:
    """par minus crystal par (RULES.md "Twists carry the puzzle"); None without twists."""
    a = level.analysis
    if a is None or a.crystal_optimal is None or level.optimal is None:
        return None
    return level.optimal - a.crystal_optimal


def why_hard(level: Level) -> Why | None:
    """One line of what makes the level hard and one of what makes it easier; None when the
    level has no analysis."""
    a = level.analysis
    if a is None or level.optimal is None:
        return None
    par = level.optimal
    chain = getattr(a, "chain", None)
    deepest = getattr(a, "deepest", None)
    margin = twist_margin(level)
    legal, good = a.first_moves_legal, a.first_moves_optimal
    hard: list[str] = []
    if chain is not None and chain >= 2:
        hard.append(f"a chain of {chain} moves that must come in order")
    if margin:
        twist = twist_words(level)
        hard.append(f"{twist} {'add' if twist.startswith('these') else 'adds'} {margin} "
                    f"{_plural(margin, 'move')} to plain crystal (twist margin {margin})")
    if a.plans == 1 and not a.plans_capped:
        hard.append("one plan: every answer in par is the same idea")
    if good < legal:
        hard.append(f"{_n(good)} of {_n(legal)} first {_plural(legal, 'move')} "
                    f"{'is' if good == 1 else 'are'} optimal")
    if a.traps:
        hard.append(f"{_n(a.traps)} {_plural(a.traps, 'trap')}")
    if deepest is not None and deepest == par:
        hard.append("it starts at its board's deepest position")
    easier: list[str] = []
    if a.plans > 1 or a.plans_capped:
        easier.append(f"{_n(a.plans)}{'+' if a.plans_capped else ''} plans reach par")
    movable, dead = len(level.blocks) - 1, len(a.dead_blocks)
    if dead and movable:
        easier.append(f"{dead} of {movable} {_plural(movable, 'block')} never "
                      f"{'needs' if dead == 1 else 'need'} to move")
    if good == legal:
        easier.append("any first move works")
    if not a.traps:
        easier.append("no traps: you can always still win")
    if chain is not None and 2 * chain <= par:
        easier.append(f"its longest chain is {chain} of {par} moves: jobs that can come in any order")
    return Why(hard="; ".join(hard[:ITEMS]) or f"par {par}",
               easier="; ".join(easier[:ITEMS]) or "Undo and Reset are free, and Hint shows a best next move")
