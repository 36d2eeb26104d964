"""The play log end to end: play levels in Chromium (wrong moves, undo, a hint, a win, a
level left unfinished), export the log from the progress page (a real download), and
`python -m lumina.playtest` on that file reports exactly those attempts, moves and hints.
"""
from __future__ import annotations

import json

from clihelp import run_cli
from helpers import drag

KEY = "lumina.playlog.v1"


def wrong_move(lv: dict) -> list[int]:
    """A legal first move that no optimal solution starts with."""
    from lumina.engine import Board, measure
    from lumina.model import Level
    level = Level.from_json(lv)
    board = Board(level)
    optimal = set(measure(level).first_moves)
    return list(next(m for m in board.moves(board.start) if m not in optimal))


def open_level(page, base_url: str, lid: str) -> None:
    w, n = lid[1:].split("-")
    page.goto(f"{base_url}w{w}/{n}.html")
    page.wait_for_selector(f'#board[data-level="{lid}"] [data-block]')
    page.wait_for_function(f"() => (JSON.parse(localStorage.getItem('{KEY}') || '{{}}').attempts || [])"
                           f".some((a) => a.level === '{lid}')")      # playlog.js loaded, start kept


def moves_shown(page) -> int:
    return int(page.locator("#moves").inner_text())


def test_exported_play_log_reports_exactly_what_was_played(page, base_url, packs, packs_dir, errors,
                                                            tmp_path):
    a, b = packs["w1-03"], packs["w1-04"]
    assert not a.get("tutorial") and not b.get("tutorial")
    # w1-03: two wrong moves, both undone, a hint, then the stored solution: a helped win
    open_level(page, base_url, a["id"])
    first = wrong_move(a)
    drag(page, a, first)
    drag(page, a, [first[0], -first[1]])          # and back again: a second (wrong) move
    assert moves_shown(page) == 2
    page.click("#undo")
    page.click("#undo")
    assert moves_shown(page) == 0
    page.click("#hint")
    page.wait_for_selector("#board[data-hint]", timeout=20000)
    for m in a["solution"]:
        drag(page, a, m)
    page.locator("#result").wait_for(state="visible")
    assert page.locator("#result").get_attribute("data-stars") == "2"      # help caps the win
    # w1-04: one wrong move, then the page is left unfinished
    open_level(page, base_url, b["id"])
    drag(page, b, wrong_move(b))
    page.goto(f"{base_url}progress.html")
    box = page.locator("[data-playlog]")
    assert "never leaves this device unless you export it" in box.inner_text()
    assert box.locator("[data-playlog-count]").inner_text() == "2 attempts kept."
    with page.expect_download() as dl:
        page.click("[data-playlog-export]")
    log = tmp_path / "exported.jsonl"
    dl.value.save_as(log)
    assert dl.value.suggested_filename == "lumina-playlog.jsonl"

    out = tmp_path / "report"
    proc = run_cli("playtest", log, "--packs", packs_dir, "--out", out)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    rep = json.loads((out / "playtest.json").read_text())
    assert (rep["players"], rep["attempts"], rep["levels_played"]) == (1, 2, 2)
    assert rep["sources"] == {"browser": 1} and rep["left_out"]["problems_total"] == 0
    la = next(r for r in rep["levels"] if r["id"] == a["id"])
    assert (la["attempts"], la["wins"], la["leaves"], la["solve_rate"]) == (1, 1, 0, 1.0)
    assert la["events"] == {"moves": 2 + len(a["solution"]), "undos": 2, "redos": 0, "resets": 0,
                            "hints": 1, "solutions": 0}
    assert (la["median_over_par"], la["hint_use"], la["stars"]) == (0.0, 1.0, {"1": 0, "2": 1, "3": 0})
    assert la["median_seconds"] > 0
    lb = next(r for r in rep["levels"] if r["id"] == b["id"])
    assert (lb["attempts"], lb["wins"], lb["leaves"], lb["abandon_rate"]) == (1, 0, 1, 1.0)
    assert lb["events"]["moves"] == 1 and lb["solve_rate"] == 0.0

    # Clear empties the log (the player id stays, so later exports are the same player)
    before = json.loads(page.evaluate(f"() => localStorage.getItem('{KEY}')"))
    page.click("[data-playlog-clear]")
    after = json.loads(page.evaluate(f"() => localStorage.getItem('{KEY}')"))
    assert after == {"player": before["player"], "next": before["next"], "attempts": []}
    assert box.locator("[data-playlog-count]").inner_text() == "Nothing kept yet."
    assert not errors


def test_tutorial_autoplay_and_shared_levels_are_not_logged(page, base_url, packs, errors):
    """A tutorial playing itself is not the player; a shared link is not a pack's level."""
    from lumina.model import Level
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(f"{base_url}w1/01.html")
    page.wait_for_selector('#board[data-autoplay="1"]')
    page.wait_for_function("() => +document.querySelector('#moves').textContent > 1", timeout=10000)
    assert any(u.endswith("/static/playlog.js") for u in fetched)
    log = page.evaluate(f"() => JSON.parse(localStorage.getItem('{KEY}') || 'null')")
    assert log is None or log["attempts"] == []
    fetched.clear()
    lv = packs["w1-05"]
    page.goto(f"{base_url}play.html?d={Level.from_json(lv).desc()}")
    page.wait_for_selector("#board [data-block]")
    drag(page, lv, lv["solution"][0])
    page.wait_for_function("() => +document.querySelector('#moves').textContent === 1")
    assert not any("playlog" in u for u in fetched)
    log = page.evaluate(f"() => JSON.parse(localStorage.getItem('{KEY}') || 'null')")
    assert log is None or log["attempts"] == []
    assert not errors
