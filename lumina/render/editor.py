"""The level editor's page builder: `editor.html`.

The page is static; everything it knows comes from here as data, defined once in Python:
the grid sizes the reader allows (`lumina.model.MIN_GRID`..`MAX_GRID`), the tools and their
keys, and the verdicts' limits (`#editor-data`): the budget in states is
`lumina.engine.DEFAULT_STATE_CAP`, the solver's default cap, so "exhausted" in the editor
means what it means to `python -m lumina.solve`, and the plan caps, the chain's work and the
member cap are `lumina.engine.measure`'s (so the exported record is the one verify measures),
and the exported record's fields are the pack's (`lumina.model.Analysis` as `lumina.schema.describe`
gives it: `measure.js` keeps no list of them).
Its scripts (`static/editor*.js`, `measure.js`) load only here: no level page downloads them.
"""
from __future__ import annotations

from typing import Any, Protocol

from lumina import schema
from lumina.model import MAX_GRID, MIN_GRID, Analysis


class Site(Protocol):
    """What this builder uses of `pages.Site` (named here, not imported: pages imports us)."""
    data: Any
    og_default: str

    def page(self, rel: str, template: str, **ctx: Any) -> None: ...

#: (tool, label, keyboard key) in the toolbar's order; editor.js reads the tool names.
TOOLS = (("move", "Move", "M"), ("key", "Key", "K"), ("crystal", "Crystal", "C"), ("sand", "Sand", "S"),
         ("ice", "Ice", "I"), ("rime", "Rime", "R"), ("wall", "Wall", "W"), ("mirror-f", "Mirror /", "/"),
         ("mirror-b", "Mirror \\", "\\"), ("light", "Light", "L"), ("erase", "Erase", "Delete"))


def measure_limits() -> dict[str, Any]:
    """What `measure.js` is handed (`#editor-data`, and the parity vectors' `limits`): the
    engine's limits and the analysis record's declared fields."""
    from lumina.engine import DEFAULT_CHAIN_WORK, DEFAULT_PLAN_CAP, DEFAULT_STATE_CAP, MEMBER_CAP   # the compiled engine only here
    return {"budget": DEFAULT_STATE_CAP, "plan_cap": DEFAULT_PLAN_CAP, "solution_cap": DEFAULT_PLAN_CAP,
            "chain_work": DEFAULT_CHAIN_WORK, "member_cap": MEMBER_CAP,
            "analysis": schema.describe(Analysis)}


def editor(s: Site) -> None:
    """editor.html: the level editor (docs/EDITOR.md)."""
    limits = measure_limits()
    example = s.data.worlds[0].published[min(1, len(s.data.worlds[0].published) - 1)].desc()
    s.page("editor.html", "editor.html", title="Level editor · Lumina", og_image=s.og_default,
           description="Draw a Lumina level and see at once whether it is a puzzle, and why it is hard.",
           tools=TOOLS, sizes=list(range(MIN_GRID, MAX_GRID + 1)), budget=limits["budget"],
           example=example, editor_data=limits)
