"""The felt-difficulty player (lumina.playtest.felt): seeded, board-only, real rules."""
from __future__ import annotations

import dataclasses

import pytest

from lumina.desc import from_grid
from lumina.engine import measure
from lumina.model import Exit, Level
from lumina.playtest import felt as felt_mod
from lumina.playtest.felt import Felt, Params, felt


def lv(rows, side="right", index=None, **kw) -> Level:
    if index is None:
        index = next(y for y, r in enumerate(rows) if "A" in r)
    return from_grid(rows, exit=Exit(side=side, index=index), **kw)


EASY = ["....",
        "AAB.",
        "..B.",
        "...."]
# The same key, behind a blocker that is itself blocked both ways along its column.
HARDER = ["..C.",
          "..C.",
          "AAB.",
          "..B.",
          "..DD",
          "EE.."]


def test_same_board_same_figures_whatever_its_id():
    a = lv(EASY)
    assert felt(a) == felt(a.replace(id="other", name="Named"))
    assert felt(a, seed=0) == felt(a, seed=0)


def test_seed_changes_the_runs():
    board = lv(HARDER)
    runs = {felt(board, seed=s) for s in range(6)}
    assert len(runs) > 1


def test_a_win_in_sight_is_taken():
    # the key's path is clear: one move, every run
    clear = lv(["....", "AA..", "....", "...."])
    assert felt(clear) == Felt(effort=1.0, success=1.0)


def test_a_blocked_key_costs_more_than_a_free_one():
    easy, harder = felt(lv(EASY)), felt(lv(HARDER))
    assert easy.success == harder.success == 1.0
    assert harder.effort > easy.effort >= 2


def test_plays_the_real_rules_of_every_kind():
    """Sand, ice, rime and the beam: the player moves through the compiled Board's moves,
    so every run ends in a real win (success 1 on these small boards) and the effort is
    at least the proven par."""
    boards = [lv(EASY, kinds={"B": "sand"}), lv(EASY, kinds={"B": "ice"}),
              lv(["....", "AA.R", "...R", "CC.."], kinds={"R": "rime"}),
              from_grid(["...\\", "....", "A...", "A..."], exit=Exit(side="bottom", index=3),
                        beam=__import__("lumina.model", fromlist=["Beam"]).Beam(dir="E", offset=0))]
    for b in boards:
        f = felt(b)
        par = measure(b).optimal
        assert f.success == 1.0, b.desc()
        assert f.effort >= par, (b.desc(), f, par)


def test_unsolvable_board_never_wins_and_costs_its_whole_budget():
    walled = lv(["....", "AA#.", "....", "...."])
    prm = Params(runs=4, budget=50)
    got = felt(walled, params=prm)
    assert got.success == 0.0
    assert got.effort == 4 * 50 / 0.5          # every action of every run, over half a win


def test_knows_no_distances(monkeypatch):
    """The board-only player never asks the engine for distances to the win."""
    import lumina.engine as engine

    def forbidden(*a, **k):
        raise AssertionError("felt asked for true distances")
    monkeypatch.setattr(engine, "distances", forbidden)
    assert felt(lv(HARDER)).success == 1.0


def test_weights_are_integers_and_fall_with_the_score():
    w = felt_mod.weights(Params())
    assert all(isinstance(x, int) for x in w)
    assert w[0] == 1_000_000 and all(a >= b for a, b in zip(w, w[1:]))


def test_recorded_in_the_analysis_and_read_back():
    from lumina import judge
    board = lv(HARDER)
    m = measure(board)
    a = judge.analysis(board.replace(optimal=m.optimal), m)
    f = felt(board)
    assert (a.effort, a.success) == (f.effort, f.success)
    back = Level.from_json(board.replace(optimal=m.optimal, analysis=a).to_json())
    assert (back.analysis.effort, back.analysis.success) == (f.effort, f.success)


@pytest.mark.parametrize("field, value", [("effort", -1), ("success", 1.5), ("effort", True),
                                          ("success", "x")])
def test_bad_felt_figures_are_refused(field, value):
    from lumina import judge
    from lumina.model import LevelError
    board = lv(EASY)
    m = measure(board)
    raw = board.replace(optimal=m.optimal, analysis=judge.analysis(board, m)).to_json()
    raw["analysis"][field] = value
    with pytest.raises(LevelError, match=f"analysis.{field}"):
        Level.from_json(raw)
    del raw["analysis"]["success" if field == "effort" else "effort"]
    raw["analysis"][field] = 1.0 if field == "success" else 3.0
    with pytest.raises(LevelError, match="missing"):
        Level.from_json(raw)


def test_describe_names_the_model():
    d = felt_mod.describe()
    assert d["model"] == felt_mod.MODEL and d["runs"] == Params().runs
    assert dataclasses.asdict(Params())["budget"] == d["budget"]


def test_playtest_report_shows_the_felt_figures_beside_the_players():
    from lumina.playtest import report
    names = [name for name, _, _ in report.MEASURES]
    assert names[-2:] == ["felt effort", "felt success"]
    html = (report.Path(report.__file__).parent / "report.html").read_text()
    assert 'l.measures["felt effort"]' in html and 'l.measures["felt success"]' in html
