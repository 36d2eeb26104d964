"""The rules of a playable level: what a shipped level holds beyond being well formed.

`lumina.model` checks that a level is a board every engine can load (RULES.md, "The
level as a file"); the generator builds such boards that are already solved on
purpose. A level that ships (a pack level that `verify` checks, `publish` renders
and a player opens) must also be a puzzle: it carries its proven par, one optimal
solution and its measures, and those say it can be played:

    par >= 1            solved at its start, a level has nothing to play (and the
                        star rule gives its best result two stars)
    a first move        some block can move at the start (first_moves_legal >= 1),
                        and an optimal first move is one of them
    a solution          plans and raw solutions are at least 1; the component holds
                        the start and a win; the start is not a trap

`problems(level)` is the one place these are written: the verifier fails a level on
them, the site's reader (`lumina.render.inputs`) refuses to render one that breaks
them, and the share page (`templates/static/pages-more.js`) refuses a shared board
whose par, found in the browser, is 0.
"""
from __future__ import annotations

from lumina.model import Level, LevelError


def problems(lv: Level) -> list[tuple[str, str]]:
    """(field, why) for every rule of a playable level that `lv`'s stored facts break;
    empty when it can ship."""
    out: list[tuple[str, str]] = []
    if lv.optimal is None:
        out.append(("optimal", "missing (a shipped level carries its proven par)"))
    elif lv.optimal < 1:
        out.append(("optimal", f"{lv.optimal}: the level is solved at its start (a playable "
                    "level needs at least one move)"))
    if lv.solution is None:
        out.append(("solution", "missing (a shipped level carries one optimal solution)"))
    a = lv.analysis
    if a is None:
        out.append(("analysis", "missing (a shipped level carries its measures)"))
        return out
    if a.first_moves_legal < 1:
        out.append(("analysis.first_moves_legal", "0: no block can move at the start"))
    elif not 1 <= a.first_moves_optimal <= a.first_moves_legal:
        out.append(("analysis.first_moves_optimal", f"must be 1..{a.first_moves_legal} (an "
                    f"optimal first move is a legal one), got {a.first_moves_optimal}"))
    for f in ("plans", "solutions"):
        if getattr(a, f) < 1:
            out.append((f"analysis.{f}", f"{getattr(a, f)}: a playable level has a solution"))
    if a.component_states < 2:
        out.append(("analysis.component_states", f"{a.component_states}: the start and a win "
                    "are two positions"))
    elif a.traps >= a.component_states:
        out.append(("analysis.traps", f"{a.traps} of {a.component_states} positions: the start "
                    "cannot be a trap"))
    return out


def check(lv: Level) -> Level:
    """`lv`, or `LevelError` naming the level and the field of its first problem."""
    found = problems(lv)
    if found:
        raise LevelError(lv.id, *found[0])
    return lv
