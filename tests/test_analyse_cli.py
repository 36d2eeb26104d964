"""`python -m lumina.solve ... --analyse` and Rush Hour piece letters, run in-process.

The CLI's figures are the engine's (``measure``), checked here against a direct
call; its Rush Hour output names blocks by the board's own letters, checked by
replaying the printed moves; bad input exits 2 with one line and no stdout.
"""

from __future__ import annotations

import json

import pytest

import reference as R

import lumina.engine as E  # noqa: E402  (an unbuilt engine fails here, never skips)
from lumina.cli import run  # noqa: E402
from lumina.desc import from_rush_hour, rush_hour_letters  # noqa: E402
from lumina.solve import ANALYSIS_KEYS, main  # noqa: E402

LINES = R.rush_sample_lines()
REQUIRED = ("level", "outcome", "optimal", "plans", "plans_capped", "solutions",
            "solutions_capped", "dead_blocks", "crystal_optimal", "first_moves_optimal",
            "first_moves_legal", "component_states", "traps")


def _exit_code(argv, capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as e:
        run(main, argv)
    out, err = capsys.readouterr()
    return e.value.code, out, err


# ------------------------------------------------------------ piece letters

def test_rush_hour_letters_name_each_block_by_its_cells():
    # Letter i of the board covers exactly the cells of block i of from_rush_hour.
    for _mm, board, _ in LINES[::7]:
        letters = rush_hour_letters(board)
        level = from_rush_hour(board)
        assert len(letters) == len(level.blocks)
        for letter, block in zip(letters, level.blocks):
            cells = sorted((i % 6, i // 6) for i, ch in enumerate(board) if ch == letter)
            assert cells == sorted(block.cells()), (board, letter)
            assert (block.kind == "key") == (letter == "A")


def test_rush_hour_letters_reject_a_short_board():
    with pytest.raises(ValueError, match="36 cells"):
        rush_hour_letters("AAoo")


def _replay_letters(board: str, text: str) -> int:
    """Replay `E+1 A+3` on the board; the number of moves if it ends solved, else -1."""
    level = from_rush_hour(board)
    index = {ch: i for i, ch in enumerate(rush_hour_letters(board))}
    b = E.Board(level)
    s = b.start
    words = text.split()
    for w in words:
        s = b.apply(s, (index[w[0]], int(w[1:])))
    return len(words) if b.is_solved(s) else -1


def test_solve_prints_rush_moves_with_piece_letters(capsys):
    mm, board, _ = LINES[100]
    assert main([board]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("moves:"))
    assert _replay_letters(board, line.split(":", 1)[1]) == mm


# ------------------------------------------------------------ --analyse

def test_analyse_json_is_the_engines_measures(capsys):
    # A 20+-move board with a small component (quick even for a slow engine).
    mm, board, cluster = min((r for r in LINES if r[0] >= 20), key=lambda r: r[2])
    assert main([board, "--analyse", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    rec = json.loads(lines[0])
    assert set(REQUIRED) <= set(rec) and set(ANALYSIS_KEYS) <= set(rec)
    m = E.measure(from_rush_hour(board))
    assert rec["optimal"] == m.optimal == mm
    assert rec["component_states"] == m.component_states == cluster
    assert (rec["plans"], rec["plans_capped"]) == (m.plans, m.plans_capped)
    assert (rec["solutions"], rec["solutions_capped"]) == (m.solutions, m.solutions_capped)
    assert rec["dead_blocks"] == list(m.dead_blocks)
    assert rec["crystal_optimal"] is None
    assert rec["first_moves"] == [list(x) for x in m.first_moves]
    assert (rec["first_moves_optimal"], rec["first_moves_legal"]) == (
        m.first_moves_optimal, m.first_moves_legal)
    assert rec["traps"] == m.traps and rec["outcome"] == "solved"
    assert rec["pieces"] == "".join(rush_hour_letters(board))
    assert (rec["chain"], rec["chain_capped"], rec["forced"]) == (m.chain, False, m.forced)
    assert (rec["deepest"], rec["optional_twist"]) == (m.deepest, False) and m.deepest >= mm
    assert rec["dead_twists"] == [] and rec["mechanics"] == ["crystal"]


def test_analyse_text_names_rush_pieces(capsys):
    mm, board, cluster = LINES[200]
    assert main([board, "--analyse"]) == 0
    out = capsys.readouterr().out
    m = E.measure(from_rush_hour(board))
    assert f"solved in {mm} moves" in out
    moves = next(ln for ln in out.splitlines() if ln.strip().startswith("moves:"))
    assert _replay_letters(board, moves.split(":", 1)[1]) == mm
    first = next(ln for ln in out.splitlines() if ln.strip().startswith("first moves:"))
    letters = rush_hour_letters(board)
    for b, d in m.first_moves:
        assert f"{letters[b]}{d:+d}" in first
    assert f"{m.first_moves_optimal} optimal of {m.first_moves_legal} legal" in first
    assert f"{cluster:,} states" in out
    assert (f"  chain: {m.chain} of {mm} moves ({m.chain / mm:.2f})   forced: {m.forced} of "
            f"{mm} moves") in out
    assert f"  board's deepest: {m.deepest}" in out and "(crystal)" in out


def test_analyse_a_pack_file_one_json_line_per_level(capsys, tmp_path):
    # A sand level (crystal par is a number) and a crystal one (crystal par null).
    sand = R.ascii_level("""
        ......
        ..S...
        AAS...
        ......
        ......
    """, exit=("right", 2), kinds={"S": "sand"}, id="t-sand")
    plain = R.ascii_level("""
        ..B.C.
        AAB.C.
        ......
        ......
    """, exit=("right", 1), id="t-plain")
    path = tmp_path / "pack.json"
    path.write_text(json.dumps({"pack": "t", "levels": [sand, plain]}))
    assert main([str(path), "--analyse", "--json"]) == 0
    recs = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
    assert [r["level"] for r in recs] == ["t-sand", "t-plain"]
    assert recs[0]["crystal_optimal"] == 2 and recs[0]["traps"] == 1
    assert recs[1]["crystal_optimal"] is None
    assert (recs[1]["solutions"], recs[1]["plans"]) == (2, 1)
    assert "pieces" not in recs[0]
    assert main([str(path), "--analyse", "--level", "t-plain"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("t-plain: solved in 3 moves")
    assert "plans: 1" in out and "optimal solutions: 2" in out
    assert "crystal par: no sand, ice or rime" in out
    assert "chain: 2 of 3 moves (0.67)" in out
    # The sand level: its sand must move (no optional twist), its label says sand.
    assert (recs[0]["optional_twist"], recs[0]["dead_twists"]) == (False, [])
    assert recs[0]["mechanics"] == ["sand"] and recs[1]["mechanics"] == ["crystal"]


def test_analyse_rush_file_checks_mm_and_cluster(capsys, tmp_path):
    rows = LINES[:3]
    good = tmp_path / "good.txt"
    good.write_text("".join(f"{mm} {b} {c}\n" for mm, b, c in rows))
    assert main(["--rush", str(good), "--analyse", "--json"]) == 0
    recs = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
    assert [(r["optimal"], r["board"], r["component_states"]) for r in recs] == rows
    mm, b, c = rows[0]
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{mm} {b} {c + 1}\n")
    assert main(["--rush", str(bad), "--analyse"]) == 1
    assert "disagree" in capsys.readouterr().err


def test_analyse_plan_cap_is_reported_as_capped(capsys):
    # The deepest board has many raw optimal solutions: a cap of 1 must say so.
    mm, board, _ = max(LINES, key=lambda r: r[0])
    m = E.measure(from_rush_hour(board))
    assert m.solutions > 1
    assert main([board, "--analyse", "--json", "--solution-cap", "1"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["solutions_capped"] is True


@pytest.mark.parametrize("argv", [
    ["no-such-file.json", "--analyse"],
    ["--analyse"],
    ["ooooooooooooAAoooooooooooooooooooooo", "--analyse", "--plan-cap", "0"],
    ["ooooooooooooAAoooooooooooooooooooooo", "--analyse", "--solution-cap", "-3"],
    ["ooooooooooooAAoooooooooooooooooooooo", "--analyse", "--state-cap", "0"],
])
def test_analyse_bad_arguments_exit_2(argv, capsys):
    code, out, err = _exit_code(argv, capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_analyse_bad_rush_file_exits_2_before_printing(capsys, tmp_path):
    mm, b, c = LINES[0]
    path = tmp_path / "rush.txt"
    path.write_text(f"{mm} {b} {c}\n{mm} {b[:30]} {c}\n")     # line 2: a short board
    code, out, err = _exit_code(["--rush", str(path), "--analyse", "--json"], capsys)
    assert code == 2 and out == ""                            # line 1 not half-printed
    assert "line 2" in err and len(err.strip().splitlines()) == 1


def test_analyse_bad_level_file_names_level_and_field(capsys, tmp_path):
    lv = R.ascii_level("""
        ..B.C.
        AAB.C.
        ......
        ......
    """, exit=("right", 1), id="t-bad")
    lv["blocks"][0]["kind"] = "lava"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(lv))
    code, out, err = _exit_code([str(path), "--analyse"], capsys)
    assert code == 2 and out == ""
    assert "t-bad" in err and "kind" in err


# ------------------------------------------------------------ benchmarks (figures only)

def test_bench_analyse_prints_a_row_per_depth(capsys, tmp_path):
    from lumina.bench.__main__ import main as bench_main
    rows = [r for r in LINES if r[0] in (3, 5)][:4]
    path = tmp_path / "rush.txt"
    path.write_text("".join(f"{mm} {b} {c}\n" for mm, b, c in rows))
    assert bench_main(["analyse", "--rush", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"boards                 {len(rows)}  (0 disagree" in out
    table = {int(ln.split()[0]): ln.split() for ln in out.splitlines()
             if ln.split() and ln.split()[0].isdigit()}
    assert sorted(table) == sorted({mm for mm, _, _ in rows})
    for mm, cols in table.items():
        assert int(cols[1]) == sum(1 for r in rows if r[0] == mm)


def test_bench_bad_arguments_exit_2(capsys):
    from lumina.bench.__main__ import main as bench_main
    for argv in (["analyse", "--rush", "no-such.txt"], ["sweep", "--layouts", "0"]):
        with pytest.raises(SystemExit) as e:
            run(bench_main, argv)
        assert e.value.code == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_bench_sweep_runs_every_bucket(capsys):
    from lumina.bench.__main__ import main as bench_main
    from lumina.bench.sweep import SWEEP_BUCKETS
    assert bench_main(["sweep", "--layouts", "1"]) == 0
    out = capsys.readouterr().out
    assert all(any(ln.startswith(name) for ln in out.splitlines()) for name in SWEEP_BUCKETS)
    assert "ratio" in out.splitlines()[-2]
