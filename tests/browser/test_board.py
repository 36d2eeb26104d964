"""Playing levels in Chromium: drag and keyboard play, parity with the Python engine,
undo/reset, the solution step-through and saved progress."""
from __future__ import annotations

import json
import time

import pytest

from conftest import new_context, shoot
from helpers import (PROGRESS_KEY, dom_flags, dom_positions, drag, keyboard_move, progress,
                     python_left, python_states)


# Stars on levels no pack has ("w9-..." counts as campaign): every world open, so any level
# plays, while each test's own level starts with no progress.
UNLOCK_ALL = {"levels": {f"w9-{i:03d}": {"stars": 3, "best": 1} for i in range(100)}}


def unlock_all(page, base_url):
    page.goto(f"{base_url}index.html")
    page.evaluate(f"() => localStorage.setItem('{PROGRESS_KEY}', JSON.stringify({json.dumps(UNLOCK_ALL)}))")


def open_level(page, base_url, level_id: str):
    w, n = level_id[1:].split("-")
    unlock_all(page, base_url)
    page.goto(f"{base_url}w{w}/{n}.html")
    page.wait_for_selector(f'#board[data-level="{level_id}"] [data-block]')


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
    page.wait_for_selector("#result[data-filled]")   # result.js words the win once it has loaded
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
    unlock_all(page, base_url)
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
    page.locator('#board [data-block="0"]').focus()
    drag(page, lv, lv["solution"][0])
    page.keyboard.press("u")                     # U undoes from the keyboard
    assert moves_shown(page) == 0
    assert not errors


def test_solution_steps_through_with_help_capped_at_two_stars(page, base_url, packs, errors):
    lv = packs["w4-07"]
    open_level(page, base_url, lv["id"])
    expect = python_states(lv, lv["solution"])
    for k, (pos, _, _) in enumerate(expect):
        page.click("#solution")
        page.wait_for_function(f"() => document.querySelector('#board').dataset.moves === '{k + 1}'")
        assert dom_positions(page) == pos
    res = page.locator("#result")
    res.wait_for(state="visible")
    assert res.get_attribute("data-assisted") == "true"
    assert res.get_attribute("data-stars") == "2"
    assert progress(page)["levels"][lv["id"]] == {"stars": 2, "best": None}
    assert "at most" in page.locator("#help-note").inner_text()
    assert not errors


def test_tutorial_plays_itself_until_touched(page, base_url, errors):
    unlock_all(page, base_url)
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


# ---- hints, solution steps from where you stand, stars with help ------------------------------

def mechanic_levels(packs, world: int, kind: str) -> list[dict]:
    """The non-tutorial levels of a world whose stored solution moves a `kind` block
    (beam: the beam levels with room to leave the line), deepest first."""
    levels = [lv for lid, lv in sorted(packs.items()) if lid.startswith(f"w{world}-") and not lv.get("tutorial")]
    if kind == "beam":
        levels = [x for x in levels if x.get("win") == "beam" and x["analysis"]["first_moves_legal"] > 1]
    else:
        levels = [x for x in levels if any(x["blocks"][m[0]]["kind"] == kind for m in x["solution"])]
    return sorted(levels, key=lambda x: (x["optimal"], x["id"]), reverse=True)


def mechanic_level(packs, world: int, kind: str) -> dict:
    """The deepest of `mechanic_levels`."""
    return mechanic_levels(packs, world, kind)[0]


def ask_hint(page) -> tuple[int, tuple[int, int] | None]:
    """Click #hint and wait for the answer: (data-left, the hinted move or None)."""
    page.evaluate("() => { delete document.querySelector('#board').dataset.left; }")
    page.click("#hint")
    page.wait_for_function("() => document.querySelector('#board').dataset.left !== undefined", timeout=20000)
    b = page.locator("#board")
    left, h = b.get_attribute("data-left"), b.get_attribute("data-hint")
    return int(left), (tuple(int(x) for x in h.split(":")) if h else None)


def off_solution_move(lv: dict) -> list[int]:
    """A legal first move that is not the stored one and still leaves a win."""
    from lumina.engine import Board
    from lumina.model import Level
    from lumina.vectors import moves_left
    level = Level.from_json(lv)
    board = Board(level)
    for m in board.moves(board.start):
        if list(m) == lv["solution"][0]:
            continue
        pos, flags = board.decode(board.apply(board.start, m))
        if moves_left(level, pos, flags) is not None:
            return list(m)
    raise AssertionError(f"{lv['id']}: no winnable first move off the stored solution")


def off_line_start(packs, world: int, kind: str) -> tuple[dict, list[int]]:
    """The shallowest `kind` level that can be left and still won, with that first move: on
    some sand levels (w2-30 of lumina-gen/4) every other first move strands the key. The
    shallowest, because every step is checked against Python and each costs a hint and a
    drag (the deepest took 15-19 s a world); the JS solver on the deepest levels is held
    to Python by test_js's parity vectors."""
    for lv in reversed(mechanic_levels(packs, world, kind)):
        try:
            return lv, off_solution_move(lv)
        except AssertionError:
            continue
    raise AssertionError(f"world {world}: no {kind} level has a winnable first move off its solution")


@pytest.mark.parametrize("world, kind", [(1, "crystal"), (2, "sand"), (3, "ice"), (4, "rime"), (5, "beam")])
def test_hint_led_win_from_off_the_solution(page, base_url, packs, errors, world, kind):
    """Leave the stored line, then follow hints: at every step data-left is Python's optimal
    count from the position on the board, and the hinted move is drawn on the board."""
    lv, move = off_line_start(packs, world, kind)
    open_level(page, base_url, lv["id"])
    drag(page, lv, move)
    start_left = python_left(lv, page)
    played = 1
    while True:
        left, move = ask_hint(page)
        assert left == python_left(lv, page), f"{lv['id']} after {played} moves"
        if left == 0:
            break
        assert move is not None
        assert "lb-show" in page.locator("#board .lb-tip").get_attribute("class")
        assert f"{left} move" in page.locator("#hint-text").inner_text()
        drag(page, lv, list(move))
        played += 1
        page.wait_for_function(f"() => document.querySelector('#board').dataset.moves === '{played}'")
        if page.locator("#board").get_attribute("data-solved") == "true":
            break
    assert played == 1 + start_left
    res = page.locator("#result")
    res.wait_for(state="visible")
    assert res.get_attribute("data-assisted") == "true"
    assert int(res.get_attribute("data-stars")) <= 2
    assert not errors


def test_solution_starts_here_and_undo_returns_to_my_moves(page, base_url, packs, errors):
    lv = packs["w1-07"]
    open_level(page, base_url, lv["id"])
    first = off_solution_move(lv)
    drag(page, lv, first)
    mine = dom_positions(page)
    page.click("#solution")
    page.wait_for_function("() => document.querySelector('#board').dataset.moves === '2'")
    assert page.locator("#board").get_attribute("data-helped") == "true"
    page.click("#undo")
    assert dom_positions(page) == mine          # the player's own move is still there
    assert moves_shown(page) == 1
    # a later honest par win, after Reset, is saved as three stars
    page.click("#reset")
    assert page.locator("#board").get_attribute("data-helped") == "false"
    for m in lv["solution"]:
        drag(page, lv, m)
    res = page.locator("#result")
    res.wait_for(state="visible")
    assert res.get_attribute("data-stars") == "3"
    assert progress(page)["levels"][lv["id"]] == {"stars": 3, "best": lv["optimal"]}
    assert not errors


def test_a_helped_win_then_an_honest_one_keeps_three_stars(page, base_url, packs, errors):
    lv = packs["w1-05"]
    open_level(page, base_url, lv["id"])
    ask_hint(page)
    assert "at most ★★" in page.locator("#help-note").inner_text()
    for m in lv["solution"]:
        drag(page, lv, m)
    page.locator("#result").wait_for(state="visible")
    assert progress(page)["levels"][lv["id"]]["stars"] == 2
    page.click("#reset")
    for m in lv["solution"]:
        drag(page, lv, m)
    page.wait_for_function("() => document.querySelector('#result').dataset.stars === '3'")
    assert progress(page)["levels"][lv["id"]] == {"stars": 3, "best": lv["optimal"]}
    assert not errors


def test_hint_latency_on_the_largest_level(page, base_url, packs, errors):
    """Printed, not asserted (a benchmark): the first hint from the start of the level with
    the most positions, worker start-up included, and from one move off its solution."""
    lv = max((x for x in packs.values() if x.get("analysis")),
             key=lambda x: (x["analysis"].get("component_states", 0), x["id"]))
    if lv["id"].startswith("d-"):           # a daily: played from its share link
        from lumina.model import Level
        page.goto(f"{base_url}play.html?d={Level.from_json(lv).desc()}")
        page.wait_for_selector("#board [data-block]")
        page.wait_for_function("() => document.querySelector('#par').textContent.trim() !== '…'", timeout=30000)
    else:
        open_level(page, base_url, lv["id"])
    drag(page, lv, off_solution_move(lv))
    t0 = time.perf_counter()
    left, _ = ask_hint(page)
    ms = (time.perf_counter() - t0) * 1000
    search = page.locator("#board").get_attribute("data-search-ms")
    print(f"\nhint latency: {lv['id']} ({lv['width']}x{lv['height']}, {len(lv['blocks'])} blocks, "
          f"{lv['analysis'].get('component_states')} positions): {ms:.0f} ms from the click "
          f"({search} ms searching in the worker) for {left} moves left")
    assert left == python_left(lv, page)
    assert not errors


# ---- keyboard and the selection ring -------------------------------------------------------

def test_keyboard_arrows_reach_every_block(page, base_url, packs, errors):
    lv = max((x for lid, x in packs.items() if lid.startswith("w")), key=lambda x: (len(x["blocks"]), x["id"]))
    open_level(page, base_url, lv["id"])
    page.locator("#board").focus()
    page.keyboard.press("ArrowRight")             # from the board itself: the key
    active = "() => document.activeElement.dataset.block"
    key = next(i for i, b in enumerate(lv["blocks"]) if b["kind"] == "key")
    assert int(page.evaluate(active)) == key
    seen, todo = {key}, [key]
    while todo:
        i = todo.pop()
        for arrow in ("ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft"):
            page.locator(f'#board [data-block="{i}"]').focus()
            page.keyboard.press(arrow)
            j = int(page.evaluate(active))
            if j not in seen:
                seen.add(j)
                todo.append(j)
    assert seen == set(range(len(lv["blocks"]))), f"{lv['id']}: unreachable {set(range(len(lv['blocks']))) - seen}"
    assert moves_shown(page) == 0                 # selecting never moves anything
    # the board is a single Tab stop: Tab from a block leaves the board
    page.locator(f'#board [data-block="{key}"]').focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => !document.querySelector('#board').contains(document.activeElement)")
    assert not errors


def test_enter_then_arrows_slides_too(page, base_url, packs, errors):
    lv = packs["w1-07"]
    open_level(page, base_url, lv["id"])
    expect = python_states(lv, lv["solution"])
    for m, (pos, _, _) in zip(lv["solution"], expect):
        keyboard_move(page, lv, m, grab=True)
        assert dom_positions(page) == pos, f"after {m}"
    page.locator("#result").wait_for(state="visible")
    assert not errors


def ring_shown(page) -> bool:
    return page.evaluate("""() => { const n = document.activeElement;
        return !!n && !!n.dataset.block && getComputedStyle(n, '::before').outlineStyle !== 'none'; }""")


def test_selection_ring_only_for_keyboard_focus(page, base_url, packs, errors):
    lv = packs["w1-07"]
    open_level(page, base_url, lv["id"])
    drag(page, lv, lv["solution"][0])
    assert page.evaluate("() => document.activeElement.dataset.block") is not None
    assert not ring_shown(page), "a ring after a mouse drag"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    assert ring_shown(page), "no ring for keyboard focus"
    drag(page, lv, lv["solution"][1])
    assert not ring_shown(page), "a ring after a mouse drag that followed keyboard use"
    assert not errors


# ---- beam, win, demos, share links ------------------------------------------------------------

def test_beam_emitter_is_drawn_from_the_start(page, base_url, packs, errors):
    lv = mechanic_level(packs, 5, "beam")
    open_level(page, base_url, lv["id"])
    key = next(i for i, b in enumerate(lv["blocks"]) if b["kind"] == "key")
    em = page.locator(f'#board [data-block="{key}"] .lb-emitter')
    assert em.count() == 1
    assert f"lb-emit-{lv['beam']['dir'].lower()}" in em.get_attribute("class")
    box = em.bounding_box()
    assert box and box["width"] > 4 and box["height"] > 4
    assert not errors


def test_key_slides_out_on_a_win_except_under_reduced_motion(page, base_url, packs, errors):
    lv = packs["w1-05"]
    side = lv["exit"]["side"]
    open_level(page, base_url, lv["id"])
    key = next(i for i, b in enumerate(lv["blocks"]) if b["kind"] == "key")
    for m in lv["solution"]:
        drag(page, lv, m)
    node = page.locator(f'#board [data-block="{key}"]')
    assert f"lb-exit-{side}" in node.get_attribute("class")
    page.wait_for_timeout(1400)
    assert float(page.evaluate(f"() => getComputedStyle(document.querySelector('#board [data-block=\"{key}\"]')).opacity")) < 0.1
    page.emulate_media(reduced_motion="reduce")
    page.click("#reset")
    for m in lv["solution"]:
        drag(page, lv, m)
    assert float(page.evaluate(f"() => getComputedStyle(document.querySelector('#board [data-block=\"{key}\"]')).opacity")) == 1
    assert not errors


def test_howto_demos_loop(page, base_url, errors):
    page.goto(f"{base_url}how-to-play.html")
    demo = page.locator("[data-demo]").first
    demo.locator("[data-block]").first.wait_for()
    n = len(json.loads(page.locator("#demo-data").inner_text())[demo.get_attribute("data-demo")]["solution"])
    seen = []
    for _ in range(int((n + 4) * 1.2 / 0.25)):
        seen.append(int(demo.get_attribute("data-moves")))
        if len(seen) > 2 and seen[-1] == 0 and max(seen) == n:
            break
        page.wait_for_timeout(250)
    assert max(seen) == n and seen[-1] == 0, f"the demo did not start over: {seen}"
    assert not errors


@pytest.mark.parametrize("desc", ["6x5-R2-K0221I2113", "banana", "6x5-R2-K0221C0221", "4x4-R1-K0111"])
def test_share_link_errors_in_players_words(page, base_url, errors, desc):
    page.goto(f"{base_url}play.html?d={desc}")
    err = page.locator("#play-error-text")
    err.wait_for(state="visible")
    text = err.inner_text()
    for dev in ("desc:", "level ", "blocks[", "expected", "must be", "{", "Error"):
        assert dev not in text, f"developer words in {text!r}"
    assert not errors


def test_a_crafted_8x8_link_never_freezes_the_page(page, base_url, errors):
    desc = "8x8-R3-K0321C2012C3012C4212C5312C6412C1512C2621C4721C6012C7112C0012"
    page.goto(f"{base_url}play.html?d={desc}")
    t0 = time.perf_counter()
    assert page.evaluate("() => 1 + 1") == 2      # the main thread answers while par is worked out
    quick = (time.perf_counter() - t0) * 1000
    page.wait_for_function("() => document.querySelector('#board [data-block]') || !document.querySelector('#play-error').hidden",
                           timeout=60000)
    print(f"\nmain thread answered in {quick:.0f} ms during the 8x8 search")
    assert quick < 2000
    assert not errors


# ---- locks hold ----------------------------------------------------------------------------

def test_a_locked_world_shows_its_board_locked_and_its_links_locked(page, base_url, packs, errors):
    from lumina.sitedata import site_data
    gate = site_data()["gates"]["2"]
    lv = packs["w2-05"]
    page.goto(f"{base_url}w2/05.html")
    page.wait_for_selector("#board [data-block]")
    board = page.locator("#board")
    assert board.get_attribute("data-locked") == "true"
    before = dom_positions(page)
    move = lv["solution"][0]
    drag(page, lv, move)
    assert dom_positions(page) == before and moves_shown(page) == 0
    assert page.locator("#hint").is_disabled() and page.locator("#solution").is_disabled()
    note = page.locator("[data-lock-text], [data-lock-note], .lock-note").first
    assert f"opens at {gate} ★" in note.inner_text() and f"{gate} more" in note.inner_text()
    # the last level of world 1 shows the lock on its links into the locked world
    page.goto(f"{base_url}w1/30.html")
    page.wait_for_selector("a[rel=next].locked-link")
    assert page.evaluate("() => Array.from(document.querySelectorAll('a[href*=\"w2/\"]')).every(a => a.classList.contains('locked-link'))")
    # with the gate's stars (campaign levels of world 1), world 2 opens
    stars = {"levels": {f"w1-{i:02d}": {"stars": 3, "best": 9} for i in range(1, 1 + -(-gate // 3))}}
    page.evaluate(f"() => localStorage.setItem('{PROGRESS_KEY}', JSON.stringify({json.dumps(stars)}))")
    page.goto(f"{base_url}w2/05.html")
    page.wait_for_selector("#board [data-block]")
    assert page.locator("#board").get_attribute("data-locked") is None
    drag(page, lv, move)
    assert moves_shown(page) == 1
    assert not errors


# ---- redo, what the board tells, sound and motion --------------------------------------------

def test_redo_after_undo(page, base_url, packs, errors):
    lv = packs["w1-07"]
    open_level(page, base_url, lv["id"])
    states = python_states(lv, lv["solution"])
    assert page.locator("#redo").is_disabled()
    drag(page, lv, lv["solution"][0])
    drag(page, lv, lv["solution"][1])
    page.click("#undo")
    page.locator("#board").focus()
    page.keyboard.press("u")                      # U undoes
    assert moves_shown(page) == 0 and page.locator("#redo").is_enabled()
    page.click("#redo")                           # the button
    assert moves_shown(page) == 1 and dom_positions(page) == states[0][0]
    page.locator("#board").focus()
    page.keyboard.press("Shift+U")                # Shift+U
    assert moves_shown(page) == 2 and dom_positions(page) == states[1][0]
    assert page.locator("#redo").is_disabled()
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+y")              # Ctrl+Y
    assert moves_shown(page) == 2 and dom_positions(page) == states[1][0]
    page.click("#undo")
    for m in lv["solution"][1:]:                  # a new line from here forgets the undone move
        drag(page, lv, m)
    assert page.locator("#redo").is_disabled()
    page.locator("#result").wait_for(state="visible")
    page.click("#undo")                           # take back the winning move and redo it: a win again
    page.click("#redo")
    page.wait_for_selector("#result[data-filled]:not([hidden])")
    assert page.locator("#result").get_attribute("data-stars") == "3"
    assert not errors


PLAY_LOG = """window.__play = []; addEventListener('DOMContentLoaded', () => {
    const b = document.getElementById('board');
    if (b) b.addEventListener('lumina-play', (e) => window.__play.push(e.detail)); });"""


def test_the_board_tells_what_the_player_does(page, base_url, packs, errors):
    """lumina-play events on #board, exactly as the team's interface defines them."""
    lv = packs["w1-07"]
    page.add_init_script(PLAY_LOG)
    open_level(page, base_url, lv["id"])
    page.wait_for_function("() => window.__play.length > 0")
    drag(page, lv, lv["solution"][0])
    page.click("#undo")
    page.click("#redo")
    page.click("#reset")
    page.click("#solution")
    page.wait_for_function("() => window.__play.some(e => e.type === 'move' && window.__play.some(f => f.type === 'solution'))")
    page.click("#hint")
    page.wait_for_function("() => window.__play.some(e => e.type === 'hint')")
    page.click("#reset")
    for m in lv["solution"]:
        drag(page, lv, m)
    page.wait_for_function("() => window.__play.some(e => e.type === 'win')")
    got = page.evaluate("() => window.__play")
    i, d = lv["solution"][0]
    assert got[0] == {"type": "start"}
    assert got[1:6] == [{"type": "move", "block": i, "distance": d}, {"type": "undo"}, {"type": "redo"},
                        {"type": "reset"}, {"type": "solution"}]
    assert got[6]["type"] == "move" and got[7:9] == [{"type": "hint"}, {"type": "reset"}]
    assert got[-1] == {"type": "win", "moves": len(lv["solution"]), "stars": 3, "helped": False}
    assert sum(e["type"] == "move" for e in got) == 1 + 1 + len(lv["solution"])
    page.goto(f"{base_url}index.html")            # leaving the page
    assert not errors


def test_a_tutorial_playing_itself_tells_nothing_until_taken_over(page, base_url, errors):
    page.add_init_script(PLAY_LOG)
    unlock_all(page, base_url)
    page.goto(f"{base_url}w2/01.html")
    page.wait_for_function("() => +document.querySelector('#moves').textContent > 1", timeout=8000)
    assert page.evaluate("() => window.__play") == []
    page.locator("#board").click(position={"x": 2, "y": 2})
    page.wait_for_function("() => window.__play.length > 0")
    assert page.evaluate("() => window.__play") == [{"type": "start"}]
    assert not errors


AUDIO_PROBE = """window.__audio = {contexts: 0, sounds: 0};
(() => { const AC = window.AudioContext;
  window.AudioContext = class extends AC { constructor(...a) { super(...a); window.__audio.contexts++; } };
  for (const C of [OscillatorNode, AudioBufferSourceNode]) {
    const start = C.prototype.start;
    C.prototype.start = function (...a) { window.__audio.sounds++; return start.apply(this, a); };
  } })();"""


def test_sound_is_silent_before_a_gesture_then_toggles_and_is_remembered(page, base_url, packs, errors):
    lv = packs["w2-02"] if any(b["kind"] == "sand" for b in packs["w2-02"]["blocks"]) else packs["w1-07"]
    page.add_init_script(AUDIO_PROBE)
    unlock_all(page, base_url)
    page.goto(f"{base_url}w2/01.html")            # a tutorial plays itself: never a sound
    page.wait_for_function("() => +document.querySelector('#moves').textContent > 1", timeout=8000)
    snd = page.locator("#sound")
    assert snd.get_attribute("aria-pressed") == "false"
    assert page.evaluate("() => window.__audio") == {"contexts": 0, "sounds": 0}, "no audio before a gesture"
    page.goto(f"{base_url}w{lv['id'][1]}/{lv['id'][3:]}.html")
    page.wait_for_selector("#board [data-block]")
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.__audio") == {"contexts": 0, "sounds": 0}
    drag(page, lv, lv["solution"][0])             # the first interaction turns sound on
    page.wait_for_function("() => document.querySelector('#sound').getAttribute('aria-pressed') === 'true'")
    page.wait_for_function("() => window.__audio.contexts === 1")
    drag(page, lv, lv["solution"][1])
    page.wait_for_function("() => window.__audio.sounds > 0")
    snd.click()                                   # off, and remembered
    assert snd.get_attribute("aria-pressed") == "false"
    heard = page.evaluate("() => window.__audio.sounds")
    page.click("#undo")
    drag(page, lv, lv["solution"][1])
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.__audio.sounds") == heard, "no sound while off"
    page.reload()
    page.wait_for_selector("#board [data-block]")
    drag(page, lv, lv["solution"][0])
    page.wait_for_timeout(300)
    assert snd.get_attribute("aria-pressed") == "false", "turned off stays off"
    assert page.evaluate("() => window.__audio") == {"contexts": 0, "sounds": 0}
    snd.click()
    assert snd.get_attribute("aria-pressed") == "true"
    page.wait_for_function("() => window.__audio.contexts === 1")
    assert not errors


def test_motion_toggle_stops_the_games_motion_and_is_remembered(page, base_url, packs, errors):
    lv = packs["w1-05"]
    open_level(page, base_url, lv["id"])
    key = next(i for i, b in enumerate(lv["blocks"]) if b["kind"] == "key")
    dur = f"() => getComputedStyle(document.querySelector('#board [data-block=\"{key}\"]')).transitionDuration"
    mo = page.locator("#motion")
    assert mo.get_attribute("aria-pressed") == "true" and page.evaluate(dur) != "0s"
    mo.click()
    assert mo.get_attribute("aria-pressed") == "false"
    assert page.evaluate("() => document.documentElement.dataset.motion") == "off"
    assert page.evaluate(dur) == "0s"
    page.reload()
    page.wait_for_selector("#board [data-block]")
    assert page.locator("#motion").get_attribute("aria-pressed") == "false" and page.evaluate(dur) == "0s"
    for m in lv["solution"]:                      # no motion: the key stays where it won
        drag(page, lv, m)
    assert float(page.evaluate(f"() => getComputedStyle(document.querySelector('#board [data-block=\"{key}\"]')).opacity")) == 1
    page.locator("#motion").click()
    assert page.evaluate(dur) != "0s"
    assert not errors


def test_the_keyboard_tip_shows_only_where_there_is_a_keyboard(browser, base_url):
    for touch, shown in ((False, True), (True, False)):
        ctx = new_context(browser, viewport={"width": 390, "height": 844}, has_touch=touch, is_mobile=touch)
        page = ctx.new_page()
        page.goto(f"{base_url}w1/05.html")
        page.wait_for_selector("#board [data-block]")
        assert page.locator("#board-tip").is_visible()
        assert page.locator("#board-tip .kbd-tip").is_visible() == shown, f"touch={touch}"
        ctx.close()
