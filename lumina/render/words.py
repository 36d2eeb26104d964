"""What makes a level hard and what makes it easier, in players' words, from its `Analysis`.

`why_hard(level)` returns `Why(hard=..., easier=..., designer=...)`: one line each for the
level page's panel, built from the level's measured analysis (`lumina.engine.measure`,
RULES.md "Quality"), so regenerated packs read correctly without edits here. The two player
lines use plain words and give nothing away (no block that never moves, no first move);
the designer's figures (plans, chain, twist margin, forced and dead blocks, first moves)
are `designer`, shown in a closed "For designers" section and in the editor.

    hard     chain            "9 moves must come in one order"
             twist margin     "this sand adds 3 moves to the same board in plain crystal"
             one plan         "only one idea solves it in par"
             first moves      "only 1 of 9 first moves keeps par"
             traps            "some positions can never be won: Undo gets you out"
             deepest          "it starts as far from solved as its board can be"
    easier   plans            "16 different ideas reach par"
             first moves      "any first move can still make par"
             no traps         "no dead ends: you can always still win"
             short chain      "most moves can come in any order"

Each line takes the first three that apply. `chain` and `deepest` arrive with packs of
generator `lumina-gen/4`; older packs lack them and read without those items.
Words players never see outside a closed section (tests/browser/test_words.py): chain,
plans, margin, dead block, forced.
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
    designer: str = ""


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
    """One line of what makes the level hard and one of what makes it easier, in a player's
    words, and the designer's figures; None when the level has no analysis."""
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
        hard.append(f"{chain} moves must come in one order")
    if margin:
        twist = twist_words(level)
        hard.append(f"{twist} {'add' if twist.startswith('these') else 'adds'} {margin} "
                    f"{_plural(margin, 'move')} to the same board in plain crystal")
    if a.plans == 1 and not a.plans_capped:
        hard.append("only one idea solves it in par")
    if good < legal:
        hard.append(f"only {_n(good)} of {_n(legal)} first {_plural(legal, 'move')} "
                    f"{'keeps' if good == 1 else 'keep'} par")
    if a.traps:
        hard.append("some positions can never be won: Undo gets you out")
    if deepest is not None and deepest == par:
        hard.append("it starts as far from solved as its board can be")
    easier: list[str] = []
    if a.plans > 1 or a.plans_capped:
        easier.append(f"{_n(a.plans)}{'+' if a.plans_capped else ''} different ideas reach par")
    if good == legal:
        easier.append("any first move can still make par")
    if not a.traps:
        easier.append("no dead ends: you can always still win")
    if chain is not None and 2 * chain <= par:
        easier.append("most moves can come in any order")
    movable, dead = len(level.blocks) - 1, len(a.dead_blocks)
    figures = [f"plans {_n(a.plans)}{'+' if a.plans_capped else ''}",
               f"first moves {_n(good)} of {_n(legal)} optimal", f"traps {_n(a.traps)}",
               f"dead blocks {dead} of {movable}"]
    if chain is not None:
        figures.append(f"chain {chain}")
    if getattr(a, "forced", None) is not None:
        figures.append(f"forced moves {a.forced}")
    if margin is not None:
        figures.append(f"twist margin {margin}")
    return Why(hard="; ".join(hard[:ITEMS]) or f"par {par}",
               easier="; ".join(easier[:ITEMS]) or "Undo and Reset are free, and Hint shows a best next move",
               designer=" · ".join(figures))


#: Each twist mechanic in a player's words: (name, what it does, the one-line reminder).
#: The how-to page, the daily and practice pages' explainers (teach.json) read this table.
MECHANIC_WORDS = {
    "crystal": ("Crystal", "Plain, faceted blocks. They slide any distance along their axis through empty cells.",
                "Crystal slides any distance along its axis."),
    "sand": ("Sand", "Warm, grainy blocks that slide once. After their first move they are spent, and never "
             "move again, so choose the moment.", "Sand slides once, then stays put."),
    "ice": ("Ice", "Slippery. You choose a direction, not a destination: the block glides until something "
            "stops it.", "Ice glides until something stops it."),
    "rime": ("Rime", "Frozen blocks, marked with a snowflake. They do not move until the Light Key touches one "
             "edge to edge; then it thaws for good and slides like crystal.",
             "Rime thaws when the Light Key touches it, then slides like crystal."),
    "beam": ("Beam and mirrors", "In beam levels the Light Key shines. Clear a path so its beam leaves the board "
             "through the lantern. Silver mirrors turn the light by a right angle; any block or wall stops it.",
             "Clear the key's beam a path to the lantern; mirrors turn it."),
}
