"""The light, always (issue 27): every beam board draws the light's whole path, at load and
after every move, undo and redo; bright where it reaches the lantern, dimmed where a block
stops it. Contract: #board [data-beam-path] with data-lit "true" | "false" (tests/js/README)."""
from __future__ import annotations

import dataclasses

from helpers import open_everything, watch
from lumina.engine import Board
from lumina.model import Level, light_path


def _beam(page) -> dict:
    return page.evaluate("""() => { const s = document.querySelector('#board [data-beam-path]');
        const stop = document.querySelector('#board .lb-beam-stop');
        return {lit: s.dataset.lit, stop: s.dataset.stop, cells: s.dataset.beamPath,
                marked: !!stop && !stop.hidden}; }""")


def _blocked_at_start(lv: Level) -> bool:
    """Does a block or wall stand on the light's way at the start?"""
    taken = {c for b in lv.blocks if b.kind != "key" for c in b.cells()} | set(lv.walls)
    return bool(light_path(lv) & taken)


def test_a_beam_path_blocked_then_lit(page, base_url, packs):
    lid = min((i for i in packs if i.startswith("w5-") and _blocked_at_start(Level.from_json(packs[i]))),
              key=lambda i: (packs[i]["optimal"], i))
    lv = Level.from_json(packs[lid])
    assert lv.win == "beam"
    open_everything(page, packs, but=(lid,))
    found = watch(page)
    page.goto(f"{base_url}w5/{lid[3:]}.html")
    page.wait_for_selector("#board [data-block]")
    page.locator("#board").click(position={"x": 2, "y": 2})   # take over from the tutorial
    page.evaluate("() => window.luminaBoard.reset()")
    start = _beam(page)
    assert start["lit"] == "false" and start["stop"] == "blocked" and start["marked"], start
    board, s = Board(lv), None
    s = board.start
    for i, m in enumerate(lv.solution):
        page.evaluate("m => window.luminaBoard.move(m)", list(m))
        s = board.apply(s, tuple(m))
        now = _beam(page)
        last = i + 1 == len(lv.solution)
        assert now["lit"] == ("true" if last else "false"), (i, now)
        assert now["marked"] == (now["stop"] == "blocked")
        if last:   # the cells Python's trace lights, exactly
            pos, _ = board.decode(s)
            cells = light_path(lv.replace(blocks=tuple(dataclasses.replace(b, x=x, y=y)
                                                       for b, (x, y) in zip(lv.blocks, pos))))
            assert {tuple(map(int, c.split(","))) for c in now["cells"].split()} == set(cells)
    page.evaluate("() => window.luminaBoard.undo()")
    assert _beam(page)["lit"] == "false", "undo takes the light back"
    page.evaluate("() => window.luminaBoard.redo()")
    assert _beam(page)["lit"] == "true", "redo lights it again"
    assert not found, found


def test_every_beam_board_shows_its_path_at_load(page, base_url, packs):
    """A level whose key is walled in at the start (the emitter's first cell taken) still shows
    where the light stops: the stop mark, not just the emitter."""
    open_everything(page, packs)
    for lid in sorted(i for i in packs if i.startswith("w5-"))[:6]:
        page.goto(f"{base_url}w5/{lid[3:]}.html")
        page.wait_for_selector("#board [data-beam-path]", state="attached")
        b = _beam(page)
        assert b["lit"] in ("true", "false") and (b["cells"] or b["marked"]), (lid, b)
