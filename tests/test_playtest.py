"""lumina.playtest: the play log's reader, replay, report and simulated playtester.

The fixture is three tiny boards drawn as text and a log written by hand, whose
report numbers are worked out in the comments beside it (docs/PLAYLOG.md defines
each number). Bad logs are that log broken one way at a time.
"""
from __future__ import annotations

import dataclasses
import json
import os
import random
from pathlib import Path

import pytest

import reference
from lumina import judge
from lumina.cli import guarded
from lumina.engine import Board, distances, measure, solve
from lumina.model import GEN4_MEASURES, Level
from lumina.packfile import write_pack
from lumina.playtest import schema
from lumina.playtest.__main__ import main
from lumina.playtest.reader import LogReader
from lumina.playtest.replay import Book
from lumina.playtest.report import build, collect
from lumina.playtest.simulate import Params, simulate
from lumina.playtest.stats import ranks, spearman

ROOT = Path(__file__).resolve().parent.parent
GEN = "test-gen/1"

BOARDS = {
    # par 2: B down 1, the key right 2
    "t-01": """
        ....
        AA.B
        ...B
        ....""",
    # par 3: D left 2, C down 2, the key right 2
    "t-02": """
        ..C.
        AAC.
        ..DD
        ....""",
    # par 3: D left 1, C down 2, the key right 3
    "t-03": """
        ..C..
        AAC..
        .DD..
        .....""",
}


def drawn(lid: str) -> Level:
    """The board as drawn, exit right of row 1; block 0 is the key A, then B, C, D."""
    raw = reference.ascii_level("\n".join(r.strip() for r in BOARDS[lid].strip().splitlines()),
                                exit=("right", 1), id=lid)
    raw["blocks"].sort(key=lambda b: b["kind"] != "key")
    return Level.from_json(raw)


def fixture_level(lid: str) -> Level:
    lv = drawn(lid)
    s = solve(lv)
    lv = lv.replace(optimal=s.optimal, solution=s.moves)
    # as packs before lumina-gen/4 record it: without chain, forced moves and the rest
    return lv.replace(analysis=dataclasses.replace(
        judge.analysis(lv, measure(lv)), **dict.fromkeys(GEN4_MEASURES)))


@pytest.fixture(scope="module")
def packs(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("packs")
    write_pack(folder / "world-1.json", {"pack": "world-1", "name": "Test Hollow", "world": 1,
                                         "mechanic": "crystal", "generator": GEN},
               [fixture_level(lid) for lid in BOARDS])
    return folder


def header(player: str, source: str = "browser") -> dict:
    return schema.header_json(player, source)


def start(n: int, lid: str, **extra) -> dict:
    return {"attempt": n, "type": "start", "level": lid, "generator": GEN, "board": drawn(lid).desc(),
            **extra}


def mv(n: int, block: int, d: int, ms: int) -> dict:
    return {"attempt": n, "type": "move", "block": block, "distance": d, "ms": ms}


def ev(n: int, kind: str, ms: int, **extra) -> dict:
    return {"attempt": n, "type": kind, **extra, "ms": ms}


def win(n: int, moves: int, stars: int, helped: bool = False) -> dict:
    return {"attempt": n, "type": "win", "moves": moves, "stars": stars, "helped": helped, "ms": 0}


def hand_log() -> list[dict]:
    """Three players, nine attempts (pars: t-01 2, t-02 3, t-03 3)."""
    return [
        header("p1"),
        start(1, "t-01"), mv(1, 1, 1, 2000), mv(1, 0, 2, 3000), win(1, 2, 3),        # 5 s, par
        start(2, "t-02"), mv(2, 2, -1, 1000), ev(2, "undo", 500), mv(2, 2, -2, 1500),
        mv(2, 1, 2, 1000), ev(2, "hint", 4000), mv(2, 0, 2, 1000), win(2, 3, 2, True),  # 9 s
        start(3, "t-03"), mv(3, 2, -1, 6000), ev(3, "leave", 4000),                     # left
        header("p2"),
        start(1, "t-01"), mv(1, 1, 1, 4000), mv(1, 0, 1, 1000), mv(1, 0, 1, 1000),
        win(1, 3, 2),                                                                   # 6 s, +1
        start(2, "t-02"), mv(2, 2, -2, 2000), ev(2, "leave", 4000),                     # 6 s, left
        start(3, "t-02"), ev(3, "solution", 3000), mv(3, 2, -2, 500), mv(3, 1, 2, 2000),
        mv(3, 0, 2, 500), win(3, 3, 2, True),                                           # +6 s: 12 s
        start(4, "t-03"), mv(4, 2, -1, 1000), mv(4, 1, 2, 1000), mv(4, 0, 3, 1000),
        win(4, 3, 3),                                                                   # 3 s
        header("p3", "simulator"),
        start(1, "t-01"), mv(1, 1, 1, 1000), ev(1, "reset", 1000), mv(1, 1, 1, 1000),
        mv(1, 0, 2, 1000), win(1, 2, 3),                                                # 4 s
        start(2, "t-03"), mv(2, 2, -1, 2000), mv(2, 1, 2, 3000), ev(2, "undo", 1000),
        ev(2, "redo", 1000), mv(2, 0, 3, 1000), win(2, 3, 3),                           # 8 s
    ]


def write_log(path: Path, records: list, tail: str = "") -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + tail)
    return path


def cli(argv: list[str]) -> int:
    """`python -m lumina.playtest ARGV` in this process: its exit status."""
    return guarded(main, argv, prog="lumina.playtest")


def report_of(tmp_path: Path, packs: Path, *logs: Path) -> dict:
    return build(collect(logs, Book([packs])))


def level(rep: dict, lid: str) -> dict:
    return next(r for r in rep["levels"] if r["id"] == lid)


# ---------------------------------------------------------------------------- the numbers

def test_fixture_pars_are_as_drawn(packs):
    assert {lid: e.level.optimal for lid, e in Book([packs]).entries.items()} == \
        {"t-01": 2, "t-02": 3, "t-03": 3}


def test_report_numbers_match_the_hand_computed_fixture(tmp_path, packs):
    rep = report_of(tmp_path, packs, write_log(tmp_path / "hand.jsonl", hand_log()))
    assert (rep["players"], rep["attempts"], rep["levels_played"]) == (3, 9, 3)
    assert rep["sources"] == {"browser": 2, "simulator": 1}
    assert rep["left_out"] == {"lines": 0, "attempts": 0, "duplicates": 0, "problems": [],
                               "problems_total": 0}
    t1, t2, t3 = level(rep, "t-01"), level(rep, "t-02"), level(rep, "t-03")
    # t-01: three players, three wins; over par 0, +1, 0; 5, 6 and 4 seconds
    assert (t1["players"], t1["attempts"], t1["wins"], t1["solve_rate"]) == (3, 3, 3, 1.0)
    assert (t1["median_over_par"], t1["median_seconds"]) == (0.0, 5.0)
    assert (t1["hint_use"], t1["solution_use"], t1["abandon_rate"]) == (0.0, 0.0, 0.0)
    assert t1["events"] == {"moves": 8, "undos": 0, "redos": 0, "resets": 1, "hints": 0, "solutions": 0}
    assert t1["stars"] == {"1": 0, "2": 1, "3": 2}
    # t-02: p1 solves in 9 s with a hint; p2 leaves (6 s) then solves with a solution step (6 s)
    assert (t2["players"], t2["attempts"], t2["wins"], t2["leaves"]) == (2, 3, 2, 1)
    assert (t2["solve_rate"], t2["median_over_par"], t2["median_seconds"]) == (1.0, 0.0, 10.5)
    assert (t2["hint_use"], t2["solution_use"], t2["abandon_rate"]) == (0.5, 0.5, 0.3333)
    assert t2["events"] == {"moves": 8, "undos": 1, "redos": 0, "resets": 0, "hints": 1, "solutions": 1}
    # t-03: p1 leaves; p2 solves in 3 s, p3 in 8 s
    assert (t3["players"], t3["solve_rate"], t3["median_seconds"], t3["abandon_rate"]) == \
        (3, 0.6667, 5.5, 0.3333)
    assert t3["events"]["redos"] == 1 and t3["events"]["moves"] == 7
    # par [2, 3, 3] ranks [1, 2.5, 2.5]; time [5, 10.5, 5.5] ranks [1, 3, 2]:
    # rho = 1.5 / sqrt(1.5 * 2) = 0.866. Solve rate [1, 1, 2/3] ranks [2.5, 2.5, 1]: rho = -0.5
    par = next(c for c in rep["correlations"] if c["measure"] == "par")
    assert par["time"] == {"rho": 0.866, "n": 3, "note": ""}
    assert par["solve_rate"] == {"rho": -0.5, "n": 3, "note": ""}


def test_positions_where_players_spent_longest_and_undid(tmp_path, packs):
    rep = report_of(tmp_path, packs, write_log(tmp_path / "hand.jsonl", hand_log()))
    # t-01's start: 2 + 4 + 1 + 1 seconds over three attempts (p3 came back by Reset)
    top = level(rep, "t-01")["positions"]["longest"][0]
    assert (top["seconds"], top["attempts"], top["start"], top["moves_left"]) == (8.0, 3, True, 2)
    assert top["picture"] == ["....", "AA.B", "...B", "...."]
    # t-02's one undo: from D slid one cell left (D must go one more: 3 moves left)
    undone = level(rep, "t-02")["positions"]["undone"]
    assert len(undone) == 1
    assert (undone[0]["undos"], undone[0]["moves_left"]) == (1, 3)
    assert undone[0]["picture"] == ["..B.", "AAB.", ".CC.", "...."]     # blocks lettered in order


def test_chain_reads_not_recorded_when_the_packs_lack_it(tmp_path, packs):
    rep = report_of(tmp_path, packs, write_log(tmp_path / "hand.jsonl", hand_log()))
    by = {c["measure"]: c for c in rep["correlations"]}
    assert by["chain"]["recorded"] is False and by["chain"]["time"]["note"] == "not recorded"
    assert by["forced"]["solve_rate"]["note"] == "not recorded"
    assert by["twist margin"]["time"]["note"] == "no twist level among the levels played"
    assert by["traps"]["time"]["note"] == "the measure is the same on every level"


def test_chain_is_correlated_when_present(tmp_path, packs, monkeypatch):
    """Packs of lumina-gen/4 carry analysis.chain: the report uses it as it arrives."""
    book = Book([packs])
    chains = {"t-01": 1, "t-02": 2, "t-03": 3}
    for lid, e in book.entries.items():
        a = e.level.analysis
        object.__setattr__(e, "level", e.level.replace(analysis=_WithChain(a, chains[lid])))
    rep = build(collect([write_log(tmp_path / "hand.jsonl", hand_log())], book))
    chain = next(c for c in rep["correlations"] if c["measure"] == "chain")
    # chain [1, 2, 3]; time [5, 10.5, 5.5] ranks [1, 3, 2]: rho = 0.5
    assert chain["recorded"] and chain["time"] == {"rho": 0.5, "n": 3, "note": ""}


class _WithChain:
    """An Analysis with the chain field the lumina-gen/4 packs add."""
    def __init__(self, a, chain: int):
        self._a, self.chain = a, chain

    def __getattr__(self, name):
        return getattr(self._a, name)


def test_spearman_ties_and_constant_columns():
    assert ranks([10, 20, 20, 40]) == [1, 2.5, 2.5, 4]
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]).rho == 1.0
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]).rho == -1.0
    assert spearman([2, 3, 3], [5, 10.5, 5.5]).rho == 0.866
    c = spearman([1, 1, 1], [1, 2, 3])
    assert c.rho is None and "same on every level" in c.note
    assert spearman([1, 2], [2, 1]).rho is None


# ---------------------------------------------------------------------------- bad logs

def problems_of(tmp_path, packs, records, tail=""):
    ev_ = collect([write_log(tmp_path / "bad.jsonl", records, tail)], Book([packs]))
    return ev_, [str(p) for p in ev_.problems]


def test_illegal_move_is_reported_not_trusted(tmp_path, packs):
    recs = hand_log()
    i = recs.index(mv(1, 0, 2, 3000))
    recs[i] = mv(1, 0, 3, 3000)          # the key through block B
    ev_, probs = problems_of(tmp_path, packs, recs)
    assert probs == [f"{tmp_path / 'bad.jsonl'} line {i + 1}: attempt 1 (t-01): move [0, 3] is "
                     "illegal in this position (move 2 of the board's count)"]
    rep = build(ev_)
    assert rep["attempts"] == 8 and rep["left_out"]["attempts"] == 1
    assert level(rep, "t-01")["players"] == 2


@pytest.mark.parametrize("change, message", [
    (lambda r: r.__setitem__(4, win(1, 3, 3)), "a win in 3 moves, but the board's count is 2"),
    (lambda r: r.__setitem__(4, win(1, 2, 2)), "a win claiming 2 stars; 2 moves on par 2 earn 3"),
    (lambda r: r.__setitem__(4, win(1, 2, 2, True)), "a win with helped true, but help was not used"),
    (lambda r: r.__setitem__(3, ev(1, "undo", 1)), "a win in a position that is not solved"),
    (lambda r: r.insert(2, ev(1, "undo", 1)), "an undo with no move to undo"),
    (lambda r: r.insert(2, ev(1, "redo", 1)), "a redo with no undone move to play again"),
    (lambda r: r.insert(4, mv(1, 1, -1, 1)), "a move record after the move on line 4 won, instead of its win"),
    (lambda r: r.__setitem__(1, {**r[1], "generator": "test-gen/9"}), "recorded on test-gen/9"),
    (lambda r: r.__setitem__(1, {**r[1], "level": "t-09"}), "no level with this id in the packs"),
    (lambda r: r.__setitem__(1, {**r[1], "board": "4x4-R1-K0121C3012"}), "not the packs' board"),
    (lambda r: r.__setitem__(1, {**r[1], "from": [[0, 3]]}), "from[0]: move [0, 3] is illegal"),
])
def test_inconsistent_attempt_is_left_out_with_its_line(tmp_path, packs, change, message):
    recs = hand_log()
    change(recs)
    ev_, probs = problems_of(tmp_path, packs, recs)
    assert len(probs) == 1 and message in probs[0], probs
    assert probs[0].startswith(f"{tmp_path / 'bad.jsonl'} line ")
    assert build(ev_)["attempts"] == 8           # the other attempts still count


def test_continuation_after_a_win_starts_from_the_board(tmp_path, packs):
    """Undo after a win begins a new attempt whose start carries the board's moves."""
    recs = hand_log()[:5] + [start(9, "t-01", **{"from": [[1, 1], [0, 2]]}), ev(9, "undo", 700),
                             mv(9, 0, 1, 800), mv(9, 0, 1, 300), win(9, 3, 2)]
    ev_, probs = problems_of(tmp_path, packs, recs)
    assert probs == [] and build(ev_)["attempts"] == 2


def test_truncated_log_loses_only_its_cut_line(tmp_path, packs):
    recs = hand_log()
    text = "".join(json.dumps(r) + "\n" for r in recs)
    cut = text[:text.rindex('"type": "win", "moves": 3, "stars": 3') + 20]   # inside p3's last win
    path = tmp_path / "cut.jsonl"
    path.write_text(cut)
    ev_ = collect([path], Book([packs]))
    assert [p.line for p in ev_.problems] == [len(cut.splitlines())]
    assert "not valid JSON" in ev_.problems[0].message
    rep = build(ev_)
    assert rep["attempts"] == 9 and level(rep, "t-03")["open"] == 1


@pytest.mark.parametrize("line, message", [
    ('{"attempt": 1, "type": "move", "block": 1, "distance": 1}', "ms: missing"),
    ('{"attempt": 1, "type": "move", "block": 1, "distance": 0, "ms": 1}', "a slide of 0 cells"),
    ('{"attempt": 1, "type": "move", "block": 99, "distance": 1, "ms": 1}', "block: 99 is out of range"),
    ('{"attempt": 1, "type": "move", "block": 1, "distance": 1, "ms": -5}', "ms: -5 is out of range"),
    ('{"attempt": 1, "type": "move", "block": true, "distance": 1, "ms": 1}', "block: must be an integer"),
    ('{"attempt": 1, "type": "move", "block": 1, "distance": 1, "ms": 1, "x": 1}', "x: unknown field"),
    ('{"attempt": 1, "type": "jump", "ms": 1}', "type: must be one of"),
    ('{"attempt": 1, "type": "undo", "ms": NaN}', "NaN is not a JSON number"),
    ('{"attempt": 1, "type": "undo", "ms": 1' + "0" * 40 + "}", "an integer of 41 digits"),
    ("[" * 5000 + "]" * 5000, "nested deeper than 32"),
    ('{"attempt": 1, "type": "undo", "ms": 1', "not valid JSON"),
    ('"just a string"', "a record is a JSON object"),
    ('{"attempt": 1, "type": "start", "level": "t-01\\u202e", "generator": "g", "board": "b"}',
     "level: must be 1-64 letters"),
    ('{"log": "lumina-play", "version": 2, "player": "p9", "source": "browser"}',
     "version: 2 is newer than this reader"),
    ("x" * (schema.MAX_LINE_CHARS + 1), f"on one line; at most {schema.MAX_LINE_CHARS}"),
])
def test_hostile_line_is_one_problem_and_the_rest_is_read(tmp_path, packs, line, message):
    recs = hand_log()
    text = "".join(json.dumps(r) + "\n" for r in recs[:5]) + line + "\n" + \
        "".join(json.dumps(r) + "\n" for r in recs[5:])
    path = tmp_path / "hostile.jsonl"
    path.write_text(text)
    ev_ = collect([path], Book([packs]))
    assert len(ev_.problems) == 1 and message in ev_.problems[0].message, ev_.problems
    assert ev_.problems[0].line == 6
    assert build(ev_)["attempts"] == 9


def test_bad_bytes_cost_one_line(tmp_path, packs):
    recs = hand_log()
    raw = b"".join(json.dumps(r).encode() + b"\n" for r in recs)
    raw = raw.replace(b'"ms": 500}', b'"ms": 500, "\xff": 1}', 1)
    path = tmp_path / "bytes.jsonl"
    path.write_bytes(raw)
    ev_ = collect([path], Book([packs]))
    assert len(ev_.problems) == 2          # the bad line, and its attempt then fails to replay
    assert "not UTF-8 (byte 0xff" in ev_.problems[0].message
    assert build(ev_)["attempts"] == 8


def test_records_without_header_or_start_are_problems(tmp_path, packs):
    recs = [mv(1, 1, 1, 5)] + hand_log()[:5] + [mv(7, 0, 1, 1), ev(1, "undo", 1)]
    ev_, probs = problems_of(tmp_path, packs, recs)
    assert "line 1: a record before any header line" in probs[0]
    assert "line 7: attempt 7: a move record with no start line" in probs[1]
    assert "line 8: attempt 1: a undo record after the attempt's win" in probs[2]
    assert build(ev_)["attempts"] == 1


def test_oversized_fifo_and_device_logs_are_refused_without_hanging(tmp_path, packs):
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as f:
        f.truncate(schema.MAX_LOG_BYTES + 1)
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    good = write_log(tmp_path / "good.jsonl", hand_log())
    ev_ = collect([big, fifo, "/dev/zero", tmp_path, good], Book([packs]))
    msgs = [str(p) for p in ev_.problems]
    assert "at most 16777216 are read" in msgs[0]
    assert "not a regular file" in msgs[1] and "not a regular file" in msgs[2]
    assert "is a folder" in msgs[3]
    assert build(ev_)["attempts"] == 9


def test_too_many_records_in_one_attempt(tmp_path, packs):
    recs = hand_log()[:2] + [mv(1, 1, 1, 1), mv(1, 1, -1, 1)] * (schema.MAX_EVENTS // 2 + 5)
    ev_, probs = problems_of(tmp_path, packs, recs)
    assert len(probs) == 1 and f"more than {schema.MAX_EVENTS} records" in probs[0]
    assert level(build(ev_), "t-01")["open"] == 1


def test_same_attempt_in_two_exports_counts_once(tmp_path, packs):
    a = write_log(tmp_path / "a.jsonl", hand_log())
    b = write_log(tmp_path / "b.jsonl", hand_log()[:5])
    changed = hand_log()[:5]
    changed[2] = mv(1, 1, 1, 2001)
    c = write_log(tmp_path / "c.jsonl", changed)
    ev_ = collect([a, b, c], Book([packs]))
    rep = build(ev_)
    assert rep["attempts"] == 9 and rep["left_out"]["duplicates"] == 1
    assert [p.file for p in ev_.problems] == [str(c)]
    assert "met before with other records" in ev_.problems[0].message


# ---------------------------------------------------------------------------- the command

def test_cli_writes_both_files_and_prints_one_line_per_problem(tmp_path, packs, capsys):
    recs = hand_log()
    recs[3] = mv(1, 0, 3, 3000)
    log = write_log(tmp_path / "log.jsonl", recs, tail="{broken\n")
    out = tmp_path / "rep"
    assert cli([str(log), "--packs", str(packs), "--out", str(out)]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"lumina.playtest: {log} line 4: attempt 1 (t-01): move [0, 3] is illegal in this "
                   "position (move 2 of the board's count)",
                   f"lumina.playtest: {log} line {len(recs) + 1}: not valid JSON (line 1, column 2: "
                   "Expecting property name enclosed in double quotes)"]
    data = json.loads((out / "playtest.json").read_text())
    assert data["attempts"] == 8
    html = (out / "playtest.html").read_text()
    assert html.count("<svg") == 1 and "t-02" in html and "move [0, 3] is illegal" in html
    assert sorted(p.name for p in out.iterdir()) == ["playtest.html", "playtest.json"]


def test_cli_unreadable_logs_exit_2_in_one_line(tmp_path, packs, capsys):
    code = cli([str(tmp_path / "missing.jsonl"), "--packs", str(packs),
                          "--out", str(tmp_path / "rep")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 2 and err[-1] == "lumina.playtest: error: no play log could be read"
    assert not (tmp_path / "rep" / "playtest.json").exists()
    assert cli(["--packs", str(packs)]) == 2


def test_report_is_byte_identical_from_run_to_run(tmp_path, packs):
    log = write_log(tmp_path / "log.jsonl", hand_log())
    for out in ("one", "two"):
        assert cli([str(log), "--packs", str(packs), "--out", str(tmp_path / out)]) == 0
    for name in ("playtest.json", "playtest.html"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


# ---------------------------------------------------------------------------- the simulator

def test_simulated_campaign_runs_through_the_report(tmp_path):
    """Simulated logs of the committed campaign (two players a level): every attempt
    replays on the real rules, every level is played, the report is deterministic."""
    worlds = [str(p) for p in sorted((ROOT / "packs").glob("world-*.json"))]
    log = tmp_path / "sim.jsonl"
    assert cli(["simulate", "--levels", *worlds, "--players", "2", "--seed", "7",
                          "--out", str(log)]) == 0
    lines = log.read_text().splitlines()
    starts = sum(1 for line in lines if '"type":"start"' in line)
    assert cli([str(log), "--packs", str(ROOT / "packs"), "--out", str(tmp_path / "r")]) == 0
    rep = json.loads((tmp_path / "r" / "playtest.json").read_text())
    assert rep["left_out"] == {"lines": 0, "attempts": 0, "duplicates": 0, "problems": [],
                               "problems_total": 0}
    assert (rep["players"], rep["attempts"], rep["levels_played"]) == (2, starts, 150)
    assert rep["sources"] == {"simulator": 2}
    assert sum(r["events"]["moves"] for r in rep["levels"]) == \
        sum(1 for line in lines if '"type":"move"' in line)
    par = next(c for c in rep["correlations"] if c["measure"] == "par")
    assert par["time"]["n"] == sum(1 for r in rep["levels"] if r["median_seconds"] is not None) > 100
    assert par["time"]["rho"] > 0.3          # deeper levels take the model longer
    assert len(rep["curves"]) == 5 and (tmp_path / "r" / "playtest.html").read_text().count("<svg") == 5


def test_simulation_is_seeded_and_per_player(packs):
    entries = list(Book([packs]).entries.values())
    one = list(simulate(entries, players=3, seed=11))
    assert one == list(simulate(entries, players=3, seed=11))
    assert one != list(simulate(entries, players=3, seed=12))
    # player 2 plays the same whether or not player 1 was simulated
    alone = list(simulate(entries, players=1, seed=11, first_player=2))
    start_at = next(i for i, line in enumerate(one) if '"player":"sim-11-00002"' in line)
    assert alone == one[start_at:start_at + len(alone)]


def test_simulated_players_use_every_action():
    """The model undoes, redoes, resets, hints, plays solution steps, wins and leaves."""
    book = Book([ROOT / "packs" / "world-1.json"])
    entries = [book.entries["w1-02"], book.entries["w1-12"]]
    lines = list(simulate(entries, players=40, seed=3,
                          params=Params(skill=0.3, stuck_after=4, hint=0.1, solution=0.1, reset=0.4)))
    kinds = {json.loads(line).get("type") for line in lines}
    assert kinds >= {"start", "move", "undo", "redo", "reset", "hint", "solution", "win", "leave"}


# ---------------------------------------------------------------------------- engine.distances

@pytest.mark.parametrize("pack, step", [("world-2.json", 7), ("world-3.json", 7), ("world-4.json", 7),
                                        ("world-5.json", 7)])
def test_distances_are_the_moves_to_the_nearest_win(pack, step):
    """d(s) = 0 exactly on wins; otherwise 1 + the least d over its moves, ignoring traps;
    -1 exactly where no move leads to a non-trap. With a finite graph this fixes d."""
    from lumina.packfile import read_pack
    for lv in read_pack(ROOT / "packs" / pack).levels[::step]:
        board, d = Board(lv), distances(lv)
        assert d[board.start] == lv.optimal
        assert sum(1 for v in d.values() if v < 0) == lv.analysis.traps
        for s in random.Random(lv.id).sample(sorted(d), min(400, len(d))):
            nxt = [d[board.apply(s, m)] for m in board.moves(s)]
            if board.is_solved(s):
                assert d[s] == 0
            elif d[s] < 0:
                assert all(v < 0 for v in nxt)
            else:
                assert d[s] == 1 + min(v for v in nxt if v >= 0)


def test_reader_alone_reads_attempts_in_file_order(tmp_path):
    path = write_log(tmp_path / "log.jsonl", hand_log())
    atts = list(LogReader().attempts([path]))
    assert [(a.player, a.start.attempt, a.start.level, len(a.events)) for a in atts] == [
        ("p1", 1, "t-01", 3), ("p1", 2, "t-02", 7), ("p1", 3, "t-03", 2), ("p2", 1, "t-01", 4),
        ("p2", 2, "t-02", 2), ("p2", 3, "t-02", 5), ("p2", 4, "t-03", 4), ("p3", 1, "t-01", 5),
        ("p3", 2, "t-03", 6)]


def test_command_line_errors_name_the_command(tmp_path):
    from clihelp import run_cli
    proc = run_cli("playtest", tmp_path / "none.jsonl", "--out", tmp_path / "r")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines()[-1] == "lumina.playtest: error: no play log could be read"


def test_lines_chart_takes_fractional_values():
    """Observed medians are fractional (23.5 moves): the axis still gets whole ticks."""
    from lumina.render.charts import lines_svg
    svg = lines_svg([("par", [20, 41]), ("observed", [23.5, 101.5])], [1, 2], title="t", ylabel="moves")
    assert svg.startswith("<svg") and ">140<" in svg and "101.5" in svg


def test_bench_playtest_prints_time_and_memory(packs, capsys):
    from lumina.bench.__main__ import main as bench_main
    assert bench_main(["playtest", "--attempts", "40", "--packs", str(packs), "--players-per-file", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("simulated ") and " attempts, " in out[0]
    assert out[1].startswith("lumina.playtest ") and "(left out: 0)" in out[1]
    assert "s CPU" in out[1] and "peak RSS" in out[1]


def test_the_sites_export_reads_back_in_python(tmp_path, packs):
    """playlog.js (the site's recorder and export, under node) writes what the reader reads:
    a win, an Undo after it (an attempt starting from the board's moves), a left attempt."""
    import shutil
    import subprocess
    node = shutil.which("node")
    assert node, "node is required (it runs the JS tests in CI)"
    events = [["start", 0, {}], ["move", 900, {"block": 1, "distance": 1}], ["undo", 1500, {}],
              ["redo", 1700, {}], ["hint", 4000, {}], ["move", 4600, {"block": 0, "distance": 2}],
              ["win", 4601, {"moves": 2, "stars": 2, "helped": True}], ["undo", 9000, {}],
              ["move", 9400, {"block": 0, "distance": 1}], ["move", 9800, {"block": 0, "distance": 1}],
              ["win", 9800, {"moves": 3, "stars": 2, "helped": True}], ["leave", 12000, {}],
              ["start", 20000, {}], ["move", 21000, {"block": 1, "distance": 1}], ["leave", 30000, {}]]
    script = (f'import * as L from {json.dumps((ROOT / "templates/static/playlog.js").as_uri())};\n'
              'const log = {player: "p-0123456789abcdef", next: 1, attempts: []};\n'
              f'const note = L.recorder({{level: "t-01", generator: "{GEN}", board: "{drawn("t-01").desc()}"}});\n'
              f'for (const [type, t, extra] of {json.dumps(events)}) note(log, {{type, ...extra}}, t);\n'
              'process.stdout.write(L.toJsonl(log));\n')
    out = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    log = tmp_path / "export.jsonl"
    log.write_text(out.stdout)
    ev_ = collect([log], Book([packs]))
    assert [str(p) for p in ev_.problems] == []
    t1 = level(build(ev_), "t-01")
    assert (t1["attempts"], t1["wins"], t1["leaves"], t1["players"]) == (3, 2, 1, 1)
    assert t1["events"] == {"moves": 5, "undos": 2, "redos": 1, "resets": 0, "hints": 1, "solutions": 0}
    assert t1["median_seconds"] == 4.6 and t1["hint_use"] == 1.0


def test_a_log_of_many_bad_lines_is_counted_not_hoarded(tmp_path, packs):
    """A hostile file of 200,000 bad lines: every one counted, only the first kept and shown."""
    path = tmp_path / "junk.jsonl"
    path.write_text("{}\n" * 200_000)
    rep = build(collect([path], Book([packs])))
    lo = rep["left_out"]
    assert (lo["lines"], lo["problems_total"], len(lo["problems"])) == (200_000, 200_000, 200)
    assert lo["problems"][0].endswith("line 1: type: missing (a header needs log, version, player and source)")
