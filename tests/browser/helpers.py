"""Drive the board the way a person does: the mouse along a block's axis, or the keyboard.

Positions come from the stable test contract of issue 4: `#board[data-cell]` is the
cell size in CSS pixels and each block is `[data-block=i]` with `data-x`/`data-y`.
"""
from __future__ import annotations

import json

from lumina.engine import Board
from lumina.model import Level

PROGRESS_KEY = "lumina.progress.v1"


def block_center(page, level: dict, i: int) -> tuple[float, float, float]:
    """(x, y, cell): the centre of block i in page pixels, from the board box and data-cell."""
    b = level["blocks"][i]
    box = page.evaluate("""i => {
        const el = document.querySelector('#board'), r = el.getBoundingClientRect();
        const n = el.querySelector(`[data-block="${i}"]`);
        return {left: r.left, top: r.top, cell: +el.dataset.cell, x: +n.dataset.x, y: +n.dataset.y};
    }""", i)
    c = box["cell"]
    return box["left"] + (box["x"] + b["w"] / 2) * c, box["top"] + (box["y"] + b["h"] / 2) * c, c


def drag(page, level: dict, move) -> None:
    """One whole drag: block `i` slid `d` cells along its axis with the mouse."""
    i, d = move
    b = level["blocks"][i]
    page.locator(f'#board [data-block="{i}"]').scroll_into_view_if_needed()   # a mouse cannot reach below the fold
    x, y, c = block_center(page, level, i)
    dx, dy = (d * c, 0) if b["w"] > b["h"] else (0, d * c)
    page.mouse.move(x, y)
    page.mouse.down()
    # two moves on the way (the board follows the pointer; where it is let go decides):
    # eight took 0.3 s a drag, and the campaign's last level is 49 drags
    page.mouse.move(x + dx, y + dy, steps=2)
    page.mouse.up()


def win_by_dragging(page, base_url: str, level: dict) -> str | None:
    """Open world level `level`'s page, drag its stored solution, wait for the result:
    the stars it shows."""
    w, n = level["id"][1:].split("-")
    page.goto(base_url + f"w{w}/{n}.html")
    page.wait_for_selector(f'#board[data-level="{level["id"]}"] [data-block]')
    for m in level["solution"]:
        drag(page, level, m)
    page.wait_for_selector("#result[data-filled]")
    return page.locator("#result").get_attribute("data-stars")


def keyboard_move(page, level: dict, move, grab: bool = False) -> None:
    """Select block i, press Shift+arrow |d| times (once for ice), then Enter. With grab:
    Enter picks the block up, plain arrows slide it, Enter drops it."""
    i, d = move
    b = level["blocks"][i]
    page.locator(f'#board [data-block="{i}"]').focus()
    key = ("ArrowRight" if d > 0 else "ArrowLeft") if b["w"] > b["h"] else ("ArrowDown" if d > 0 else "ArrowUp")
    if grab:
        page.keyboard.press("Enter")
    for _ in range(1 if b["kind"] == "ice" else abs(d)):
        page.keyboard.press(key if grab else "Shift+" + key)
    if b["kind"] != "ice":
        page.keyboard.press("Enter")


def dom_positions(page) -> list[tuple[int, int]]:
    return [tuple(p) for p in page.evaluate(
        "() => Array.from(document.querySelectorAll('#board [data-block]'))"
        ".sort((a, b) => a.dataset.block - b.dataset.block).map(n => [+n.dataset.x, +n.dataset.y])")]


def dom_flags(page) -> list[bool]:
    """Spent sand / thawed rime as the board shows them (classes lb-spent / not lb-frozen)."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('#board [data-block]'))
        .sort((a, b) => a.dataset.block - b.dataset.block)
        .map(n => n.dataset.kind === 'sand' ? n.classList.contains('lb-spent')
                : n.dataset.kind === 'rime' ? !n.classList.contains('lb-frozen') : false)""")


def python_left(level: dict, page) -> int | None:
    """Python's optimal moves left from the position the board shows (lumina.engine.solve)."""
    from lumina.vectors import moves_left
    return moves_left(Level.from_json(level), dom_positions(page), dom_flags(page))


def python_states(level: dict, moves) -> list[tuple[list, list, bool]]:
    """(positions, flags, solved) after each move, from the compiled Python engine."""
    lv = Level.from_json(level)
    board = Board(lv)
    s = board.start
    out = []
    for m in moves:
        s = board.apply(s, tuple(m))
        pos, flags = board.decode(s)
        out.append(([tuple(p) for p in pos], list(flags), board.is_solved(s)))
    return out


def progress(page) -> dict:
    raw = page.evaluate(f"() => localStorage.getItem({json.dumps(PROGRESS_KEY)})")
    return json.loads(raw) if raw else {}


def all_open_progress(levels, but=()) -> str:
    """Stored progress with three stars on every campaign level in `levels` (ids) except
    those in `but`: every world open, and the levels under test still unplayed. Level pages
    of shut worlds are locked (board inert under a lock card), so tests that play them
    set this first."""
    return json.dumps({"levels": {i: {"stars": 3, "best": 1} for i in sorted(levels)
                                  if i.startswith("w") and i not in but}})


def open_everything(page, levels, but=()) -> None:
    """Before any page script runs, on every navigation of `page`: every world open (see
    all_open_progress). Note it runs again on each navigation and reload."""
    page.add_init_script(f"localStorage.setItem({json.dumps(PROGRESS_KEY)}, "
                         f"{json.dumps(all_open_progress(levels, but))})")


def watch(page) -> list[str]:
    """Console errors, uncaught errors, failed requests and HTTP errors of `page`, as they come."""
    found: list[str] = []
    page.on("console", lambda m: found.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: found.append(f"pageerror: {e}"))
    # (a redirect page's own requests are cancelled when it moves on: ERR_ABORTED is not a failure)
    page.on("requestfailed", lambda r: None if "ERR_ABORTED" in (r.failure or "") else found.append(
        f"request failed: {r.url} {r.failure}"))
    page.on("response", lambda r: found.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
    return found
