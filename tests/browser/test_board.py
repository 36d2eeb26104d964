"""Playing levels in Chromium: drag and keyboard play, parity with the Python engine,
undo/reset, the solution step-through and saved progress."""
from __future__ import annotations

import pytest

from conftest import shoot
from helpers import (PROGRESS_KEY, dom_flags, dom_positions, drag, keyboard_move, progress,
                     python_states)


def open_level(page, base_url, level_id: str):
    w, n = level_id[1:].split("-")
    page.goto(f"{base_url}w{w}/{n}.html")
    page.wait_for_selector(f'#board[data-level="{level_id}"] [data-block]')
    page.evaluate(f"() => localStorage.removeItem('{PROGRESS_KEY}')")


def moves_shown(page) -> int:
    return int(page.locator("#moves").inner_text())


def test_solve_by_dragging_gives_three_stars_and_saves_progress(page, base_url, packs, errors, output_dir):
    lv = max((packs[f"w1-{i:02d}"] for i in range(2, 8)), key=lambda x: x["optimal"])
    open_level(page, base_url, lv["id"])
    for k, m in enumerate(lv["solution"]):
        drag(page, lv, m)
        assert moves_shown(page) == k + 1
    res = page.locator("#result")
    res.wait_for(state="visible")
    assert res.get_attribute("data-stars") == "3"
    assert progress(page)["levels"][lv["id"]] == {"stars": 3, "best": lv["optimal"]}
    assert page.locator("#best").inner_text().startswith(str(lv["optimal"]))
    assert "matched par" in res.inner_text()
    shoot(page, output_dir, "level-won-desktop")
    assert not errors


@pytest.mark.parametrize("world, kind", [(2, "sand"), (3, "ice"), (4, "rime"), (5, "beam")])
def test_mechanic_behaves_as_in_python(page, base_url, packs, errors, world, kind):
    """Drag the stored solution move by move; after each drag the blocks sit where
    lumina.engine's Board.apply puts them, with the same spent/thawed flags and win."""
    levels = [packs[f"w{world}-{i:02d}"] for i in range(2, 8)]
    if kind == "beam":
        lv = max(levels, key=lambda x: (x["optimal"], len(x.get("mirrors", []))))
    else:
        lv = max((x for x in levels if any(m[0] in {j for j, b in enumerate(x["blocks"]) if b["kind"] == kind}
                                            for m in x["solution"])), key=lambda x: x["optimal"])
    open_level(page, base_url, lv["id"])
    expect = python_states(lv, lv["solution"])
    for m, (pos, flags, solved) in zip(lv["solution"], expect):
        drag(page, lv, m)
        assert dom_positions(page) == pos, f"after {m}"
        assert dom_flags(page) == flags, f"flags after {m}"
        assert page.locator("#board").get_attribute("data-solved") == ("true" if solved else "false")
    assert expect[-1][2]
    if kind == "beam":
        assert "lb-lit" in page.locator("#board").get_attribute("class")
    assert page.locator("#result").get_attribute("data-stars") == "3"
    assert not errors


def test_spent_sand_refuses_a_second_slide(page, base_url, packs, errors):
    lv = next(packs[f"w2-{i:02d}"] for i in range(1, 8)
              if any(packs[f"w2-{i:02d}"]["blocks"][m[0]]["kind"] == "sand" for m in packs[f"w2-{i:02d}"]["solution"]))
    first = next(m for m in lv["solution"] if lv["blocks"][m[0]]["kind"] == "sand")
    k = lv["solution"].index(first)
    open_level(page, base_url, lv["id"])
    for m in lv["solution"][:k + 1]:
        drag(page, lv, m)
    before = dom_positions(page)
    drag(page, lv, [first[0], -first[1]])        # try to slide it back
    assert dom_positions(page) == before
    assert moves_shown(page) == k + 1
    assert dom_flags(page)[first[0]] is True
    assert not errors


def test_ice_slides_to_the_end_even_on_a_short_drag(page, base_url, packs, errors):
    lv = packs["w3-01"]                         # the tutorial: its ice glides first
    page.goto(f"{base_url}w3/01.html")
    page.wait_for_selector('#board [data-block]')
    page.locator("#board").click(position={"x": 2, "y": 2})   # take over from the autoplay
    page.wait_for_function("() => !document.querySelector('#board').dataset.autoplay")
    ice, glide = lv["solution"][0]
    assert lv["blocks"][ice]["kind"] == "ice" and abs(glide) >= 2
    drag(page, lv, [ice, 1 if glide > 0 else -1])   # a one-cell drag...
    pos, _, _ = python_states(lv, [lv["solution"][0]])[0]
    assert dom_positions(page) == pos            # ...lands where Python's ice move does
    b = lv["blocks"][ice]
    moved = pos[ice][0] - b["x"] if b["w"] > b["h"] else pos[ice][1] - b["y"]
    assert moved == glide
    assert not errors


def test_keyboard_play_solves_a_level(page, base_url, packs, errors):
    lv = packs["w3-07"]                          # ice and crystal: both keyboard paths
    open_level(page, base_url, lv["id"])
    expect = python_states(lv, lv["solution"])
    for m, (pos, _, _) in zip(lv["solution"], expect):
        keyboard_move(page, lv, m)
        assert dom_positions(page) == pos, f"after {m}"
    page.locator("#result").wait_for(state="visible")
    assert page.locator("#result").get_attribute("data-stars") == "3"
    assert progress(page)["levels"][lv["id"]]["stars"] == 3
    assert not errors


def test_undo_and_reset(page, base_url, packs, errors):
    lv = packs["w1-07"]
    open_level(page, base_url, lv["id"])
    start = dom_positions(page)
    drag(page, lv, lv["solution"][0])
    after_one = dom_positions(page)
    drag(page, lv, lv["solution"][1])
    assert moves_shown(page) == 2
    page.click("#undo")
    assert moves_shown(page) == 1 and dom_positions(page) == after_one
    drag(page, lv, lv["solution"][1])
    drag(page, lv, lv["solution"][2])
    page.click("#reset")
    assert moves_shown(page) == 0 and dom_positions(page) == start
    assert page.locator("#undo").is_disabled()
    page.locator(f'#board [data-block="0"]').focus()
    drag(page, lv, lv["solution"][0])
    page.keyboard.press("u")                     # U undoes from the keyboard
    assert moves_shown(page) == 0
    assert not errors


def test_solution_steps_through_and_is_not_recorded(page, base_url, packs, errors):
    lv = packs["w4-07"]
    open_level(page, base_url, lv["id"])
    expect = python_states(lv, lv["solution"])
    for pos, _, _ in expect:
        page.click("#solution")
        assert dom_positions(page) == pos
    res = page.locator("#result")
    res.wait_for(state="visible")
    assert res.get_attribute("data-assisted") == "true"
    assert lv["id"] not in progress(page).get("levels", {})
    assert not errors


def test_tutorial_plays_itself_until_touched(page, base_url, errors):
    page.goto(f"{base_url}w2/01.html")
    page.wait_for_selector('#board[data-autoplay="1"]')
    page.wait_for_function("() => +document.querySelector('#moves').textContent > 0", timeout=5000)
    page.locator("#board").click(position={"x": 2, "y": 2})
    page.wait_for_function("() => !document.querySelector('#board').dataset.autoplay")
    assert moves_shown(page) == 0
    assert not errors


def test_corrupt_progress_never_breaks_a_page(page, base_url, errors):
    page.goto(f"{base_url}index.html")
    page.evaluate(f"() => localStorage.setItem('{PROGRESS_KEY}', '{{not json')")
    for path in ("index.html", "w1/index.html", "w1/02.html"):
        page.goto(base_url + path)
        page.wait_for_load_state("networkidle")
        assert page.locator("[data-total-stars]").first.inner_text() == "0"
    assert not errors
