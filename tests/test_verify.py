"""The verifier: small self-contained packs built in tmp_path (each drawn as ASCII,
solved and measured here), then corrupted one way at a time; and the committed packs."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from clihelp import Ran, exit_2, run_cli
from lumina import judge
from lumina.desc import from_grid
from lumina.engine import Board, level_at, measure, solve
from lumina.judge import analysis, family_key
from lumina.model import Beam, Exit, Level
from lumina.packfile import write_pack
from lumina.model import GEN4_MEASURES
from lumina.verify import default_paths, verify_paths
from lumina.worlds import CAMPAIGN, world

ROOT = Path(__file__).resolve().parent.parent
PACKS = ROOT / "packs"



def run_verify(*paths) -> Ran:
    """`python -m lumina.verify PATHS`, in this process (tests/clihelp.py)."""
    return run_cli("verify", *paths)


# ---------------------------------------------------------------------------
# Fixture levels: each passes every judge rule on its own (boards of the lumina-gen/3
# dailies and worlds that meet the issue-17 rules: deepest starts, twist margins of 2).

def grid(rows, side="right", index=2, **kw) -> Level:
    return from_grid(rows, exit=Exit(side=side, index=index), **kw)


CRYSTAL_A = [".FF..",              # exit left of row 4; par 6, 11 plans
             ".DD..",
             "GGBC.",
             "E.BC.",
             "E..AA"]
CRYSTAL_B = ["FHCCC",              # exit top of column 4; par 6
             "FHD.A",
             "BBD.A",
             "....E",
             "..GGE"]
CRYSTAL_C = ["A..GG",              # exit bottom of column 0; par 7, chain 7
             "ACCE.",
             "BBDE.",
             "..DH.",
             ".FFH."]
SAND_BINDS = [".GGII.",            # exit left of row 4; par 8, crystal par 6
              ".FFFBD",
              "EEC.BD",
              "H.C...",
              "H..AA."]
RIME_BINDS = ["...C.",             # exit left of row 3; par 6, crystal par 4
              "...C.",
              ".EEC.",
              "D.BAA",
              "D.B.."]
RIME_THIN = ["....",               # rime binds by one move only: par 3, crystal par 2
             "AA.R",
             "...R",
             "...."]
SAND_LOOSE = ["..S.",              # the sand's one slide is all the best line needs
              "AAS.",
              "....",
              "...."]


def crystal_a() -> Level:
    return grid(CRYSTAL_A, side="left", index=4)


def crystal_b() -> Level:
    return grid(CRYSTAL_B, side="top", index=4)


def crystal_c() -> Level:
    return grid(CRYSTAL_C, side="bottom", index=0)


def sand_binds() -> Level:
    return grid(SAND_BINDS, side="left", index=4, kinds={"D": "sand", "E": "sand"})


def rime_binds() -> Level:
    return grid(RIME_BINDS, side="left", index=3, kinds={"D": "rime"})


def finished(lv: Level, lid: str, **changes) -> Level:
    """`lv` as a pack holds it: proven optimal, solution and measures."""
    sol = solve(lv)
    lv = lv.replace(id=lid, optimal=sol.optimal, solution=sol.moves, **changes)
    return lv.replace(analysis=analysis(lv, measure(lv)))


def fixture_levels() -> list[Level]:
    return [finished(crystal_a(), "d-001"), finished(crystal_b(), "d-002"),
            finished(sand_binds(), "d-003"), finished(rime_binds(), "d-004"),
            finished(crystal_c(), "d-005")]


def write(tmp_path: Path, levels, pack="dailies", **meta) -> Path:
    meta = {"pack": pack, "name": "Fixture pool", "world": None, "mechanic": "mixed",
            "seed": 1, "generator": "test", **meta}
    path = tmp_path / f"{pack}.json"
    write_pack(path, meta, levels)
    return path


def edit_json(path: Path, edit) -> Path:
    data = json.loads(path.read_text())
    edit(data["levels"])
    path.write_text(json.dumps(data))
    return path


def test_clean_fixture_pack_passes(tmp_path):
    proc = run_verify(write(tmp_path, fixture_levels()))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ("Fixture pool: 5/5 solvable · 5/5 optimal counts confirmed · "
            "2/2 twist levels bind · par 6-8 · twist margin min 2 median 2 · "
            "5/5 start at their board's deepest · chain/par 0.67-1.00") in proc.stdout
    assert "FAIL" not in proc.stdout


def test_unbound_twist_level_is_caught(tmp_path):
    loose = finished(grid(SAND_LOOSE, index=1, kinds={"S": "sand"}), "d-006")
    proc = run_verify(write(tmp_path, fixture_levels() + [loose]))
    assert proc.returncode == 1
    assert "FAIL d-006: twist does not bind: par 2, crystal par 2" in proc.stdout
    assert "2/3 twist levels bind" in proc.stdout


def _flip_x(rows):
    return [r[::-1] for r in rows]


# CRYSTAL_A mirrored left-right, with F moved left a cell
NEAR_A = [".FF..",
          "..DD.",
          ".CBGG",
          ".CB.E",
          "AA..E"]


def near_a(lid: str) -> Level:
    return finished(grid(NEAR_A, side="right", index=4), lid)


def test_near_duplicate_mirrored_shifted_one_block_moved_is_caught(tmp_path):
    assert family_key(near_a("x")) != family_key(crystal_a())        # not the same board
    proc = run_verify(write(tmp_path, fixture_levels() + [near_a("d-006")]))
    assert proc.returncode == 1
    assert "FAIL d-006: near duplicate of d-001" in proc.stdout
    assert proc.stdout.count("  FAIL ") == 1


def test_exact_copy_under_symmetry_is_caught(tmp_path):
    copy = finished(grid(_flip_x(CRYSTAL_B), side="top", index=0), "d-006")
    proc = run_verify(write(tmp_path, fixture_levels() + [copy]))
    assert proc.returncode == 1
    assert "FAIL d-006: same puzzle as d-002" in proc.stdout


def test_near_duplicate_across_packs_is_caught(tmp_path):
    first = write(tmp_path, fixture_levels())
    other = tmp_path / "other"
    other.mkdir()
    second = write(other, [near_a("x-001")], pack="extra")
    assert run_verify(second).returncode == 0          # alone, it is fine
    proc = run_verify(first, second)
    assert proc.returncode == 1
    assert "FAIL x-001: near duplicate of d-001" in proc.stdout


def test_plans_count_off_by_one_is_caught(tmp_path):
    path = write(tmp_path, fixture_levels())
    assert run_verify(path).returncode == 0
    plans = measure(crystal_a()).plans

    def edit(levels):
        levels[0]["analysis"]["plans"] += 1
    proc = run_verify(edit_json(path, edit))
    assert proc.returncode == 1
    assert f"FAIL d-001: analysis.plans stored {plans + 1}, measured {plans}" in proc.stdout


def test_chain_and_label_recorded_wrong_are_caught(tmp_path):
    path = write(tmp_path, fixture_levels())
    chain = measure(crystal_a()).chain

    def edit(levels):
        levels[0]["analysis"]["chain"] += 1
        levels[2]["analysis"]["mechanics"] = ["crystal"]     # d-003 carries sand
    proc = run_verify(edit_json(path, edit))
    assert proc.returncode == 1
    assert f"FAIL d-001: analysis.chain stored {chain + 1}, measured {chain}" in proc.stdout
    assert ("FAIL d-003: analysis.mechanics stored ('crystal',), measured ('sand',)"
            in proc.stdout)


def _without_gen4_measures(levels):
    for lv in levels:
        for f in GEN4_MEASURES:
            del lv["analysis"][f]


OLD_GENERATORS = ("lumina-gen/3", "lumina-fixtures/2", "lumina-gen/4")   # data, not a skip


def test_a_pack_without_the_gen4_measures_fails_whatever_its_generator(tmp_path):
    """No version gate: every pack must record the chain, forced moves, the board's
    deepest, the optional twist and the label (the fixtures were regenerated)."""
    chain = measure(crystal_a()).chain
    for generator in OLD_GENERATORS:
        old = edit_json(write(tmp_path, fixture_levels(), generator=generator),
                        _without_gen4_measures)
        proc = run_verify(old)
        assert proc.returncode == 1
        assert f"FAIL d-001: analysis.chain missing (measured {chain})" in proc.stdout


def test_a_pack_without_the_felt_figures_fails(tmp_path):
    def strip(levels):
        for lv in levels:
            del lv["analysis"]["effort"], lv["analysis"]["success"]
    proc = run_verify(edit_json(write(tmp_path, fixture_levels()), strip))
    assert proc.returncode == 1
    assert "FAIL d-001: analysis.effort missing (measured " in proc.stdout

    def wrong(levels):
        levels[0]["analysis"]["effort"] += 1
    proc = run_verify(edit_json(write(tmp_path, fixture_levels()), wrong))
    assert "FAIL d-001: analysis.effort stored " in proc.stdout


def test_optimal_off_by_one_is_caught(tmp_path):
    path = write(tmp_path, fixture_levels())

    def edit(levels):
        levels[2]["optimal"] += 1
        levels[2]["solution"].append(levels[2]["solution"][-1])
    proc = run_verify(edit_json(path, edit))
    assert proc.returncode == 1
    assert "FAIL d-003: stored optimal 9 but the solver proves 8" in proc.stdout


def test_solution_that_no_longer_wins_is_caught(tmp_path):
    path = write(tmp_path, fixture_levels())

    def edit(levels):
        b, d = levels[1]["solution"][-1]
        levels[1]["solution"][-1] = [b, -d]
    proc = run_verify(edit_json(path, edit))
    assert proc.returncode == 1
    assert "FAIL d-002:" in proc.stdout


def test_tutorial_flag_outside_a_world_is_caught(tmp_path):
    """A tutorial is exempt from the filters, so only a world's level 1 may be one."""
    loose = finished(grid(SAND_LOOSE, index=1, kinds={"S": "sand"}), "d-006", tutorial=True)
    report = verify_paths([write(tmp_path, fixture_levels() + [loose])])
    assert "  FAIL d-006: only level 1 of a world is a tutorial" in report.lines


def test_too_many_plans_is_caught(tmp_path, monkeypatch):
    from lumina import judge
    monkeypatch.setattr(judge, "MAX_PLANS", 1)
    report = verify_paths([write(tmp_path, fixture_levels())])
    assert not report.ok
    assert "  FAIL d-001: 11 plans (at most 1)" in report.lines


def test_chain_under_the_floor_is_caught(tmp_path, monkeypatch):
    from lumina import judge as j
    monkeypatch.setattr(j, "MIN_CHAIN_SHARE", 0.7)
    monkeypatch.setattr(j, "MIN_CHAIN_SHARE_FROM", 6)
    report = verify_paths([write(tmp_path, fixture_levels())])
    # d-001: chain 4 of par 6 (0.67); d-004: 5 of 6 and the others keep 0.75 or more
    assert fails(report) == ["  FAIL d-001: chain 4 of par 6 is under 0.70 of par (from par 6)"]


def test_dropped_win_field_is_caught(tmp_path):
    beam = from_grid(["...\\",
                      "....",
                      "A...",
                      "A..."], exit=Exit(side="bottom", index=3), beam=Beam(dir="E", offset=0))
    path = write(tmp_path, [finished(beam, "d-001")])

    def edit(levels):
        del levels[0]["win"]
    proc = run_verify(edit_json(path, edit))
    assert proc.returncode == 2
    assert "d-001" in proc.stderr and "beam" in proc.stderr


def test_truncated_file_is_exit_2_with_one_line(tmp_path):
    path = write(tmp_path, fixture_levels())
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    proc = run_verify(path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "dailies.json" in proc.stderr


# ---------------------------------------------------------------------------
# World packs: tutorials and curves.

ICE_NUDGE = ["..I.",             # the ice only needs to slide out of the key's row
             "AAI.",
             "....",
             "...."]


def world_pack(tmp_path: Path, number: int, tutorial: Level, levels: list[Level]) -> Path:
    w = world(number)
    tut = finished(tutorial, f"w{number}-01", tutorial=True, name="Tutorial")
    body = [lv.replace(id=f"w{number}-{i:02d}") for i, lv in enumerate(levels, 2)]
    return write(tmp_path, [tut] + body, pack=w.pack, name=w.name, world=number,
                 mechanic=w.mechanic)


def test_tutorial_that_teaches_nothing_is_caught(tmp_path):
    tut = grid(ICE_NUDGE, index=1, kinds={"I": "ice"})
    m = measure(tut)
    assert m.crystal_optimal == m.optimal            # the fixture really teaches nothing
    path = world_pack(tmp_path, 3, tut, fixture_levels()[:2])
    proc = run_verify(path)
    assert proc.returncode == 1
    assert ("FAIL w3-01: ice tutorial teaches nothing: crystal par 2 is not below par 2"
            in proc.stdout)


# A rime tutorial that passes every tutorial rule (w4-12 of the lumina-gen/3 packs):
# one plan, par 10 against crystal par 7, and its board's deepest start.
RIME_TUTORIAL = [".DCC",          # tiny: par 6, crystal par 4, one plan, its board's deepest
                 ".DA.",
                 ".DA.",
                 "BB.."]


def rime_tutorial() -> Level:
    return grid(RIME_TUTORIAL, side="top", index=2, kinds={"B": "rime"})


def test_tutorial_that_teaches_passes_the_tutorial_rules(tmp_path):
    path = world_pack(tmp_path, 4, rime_tutorial(), [finished(rime_binds(), "x")])
    report = verify_paths([path])
    fails = [ln for ln in report.lines if "FAIL w4-01" in ln]
    assert fails == [], fails
    # the pack fails only for its size and its campaign shape, which the fixture cannot meet
    assert "  FAIL world-4.json: a world has 30 levels, this one 2" in report.lines


def test_tutorial_cut_from_a_deeper_board_or_binding_by_one_is_caught(tmp_path):
    thin = grid(RIME_THIN, index=1, kinds={"R": "rime"})
    report = verify_paths([world_pack(tmp_path, 4, thin, [finished(rime_binds(), "x")])])
    assert "  FAIL w4-01: rime tutorial's twist margin 1 is under 2" in report.lines
    cut = cut_level(rime_tutorial())
    report = verify_paths([world_pack(tmp_path, 4, cut, [finished(rime_binds(), "x")])])
    assert ("  FAIL w4-01: tutorial does not start at its board's deepest: par 5, the "
            "board's deepest 6") in report.lines


CRYSTAL_TUTORIAL = ["..B.",
                    "AAB.",
                    "....",
                    "...."]


def test_curve_dip_is_caught(tmp_path):
    tut = grid(CRYSTAL_TUTORIAL, index=1)
    levels = fixture_levels()
    a, b, c = levels[0], levels[4], levels[1]                      # pars 6, 7, 6
    cut = finished(cut_level(cut_level(crystal_a())), "x")
    path = world_pack(tmp_path, 1, tut, [b, cut])                                     # 7 then 4
    report = verify_paths([path])
    assert ("  FAIL world-1.json: world 1: level 2 dips to 4 after 7 (at most 2 below)"
            in report.lines)
    path = world_pack(tmp_path, 1, tut, [a, b, c])                                    # 6, 7, 6
    assert not any("dips" in ln for ln in verify_paths([path]).lines)


def test_campaign_peak_rule_is_caught(tmp_path):
    path = world_pack(tmp_path, 1, grid(CRYSTAL_TUTORIAL, index=1), fixture_levels()[:1])
    report = verify_paths([path])
    assert ("  FAIL campaign: world 1's hardest level has 6 moves (at least "
            f"{CAMPAIGN.first_peak})") in report.lines


# ---------------------------------------------------------------------------
# The designed-puzzle rules (issue 17): each fault crafted into a level that is
# otherwise fine, and caught from disk.

def cut_level(lv: Level) -> Level:
    """`lv` after its first optimal move: the same board, one move shallower."""
    board = Board(lv)
    first = solve(lv).moves[0]
    return level_at(board, board.apply(board.start, first), lv.id)


def fails(report) -> list[str]:
    return [ln for ln in report.lines if ln.startswith("  FAIL ")]


def test_level_cut_from_a_deeper_board_is_caught(tmp_path):
    cut = finished(cut_level(crystal_a()), "x-001")
    assert measure(cut).optimal == 5
    report = verify_paths([write(tmp_path, [cut], pack="extra")])
    assert fails(report) == ["  FAIL x-001: does not start at its board's deepest: par 5, "
                             "the board's deepest 6"]
    assert "0/1 start at their board's deepest" in report.lines[0]


# An ice level (w3-11 of the lumina-gen/3 packs) whose ice block J never moves in an
# optimal solution; every other rule holds.
ICE_DEAD = ["...HFF",
            "MG.H.C",
            "MG.EEC",
            ".LL.DB",
            "AAI.DB",
            "KKIJJ#"]
# An ice level (w3-08) one optimal solution of which moves no ice block: the ice is
# optional; every other rule holds.
ICE_OPTIONAL = [".DDD.G",
                ".....G",
                ".BCFF.",
                "EBCHI.",
                "EAAHI."]


def test_dead_twist_block_is_caught(tmp_path):
    lv = finished(grid(ICE_DEAD, side="right", index=4, kinds={"H": "ice", "J": "ice"}), "x-001")
    m = measure(lv)
    ice = [i for i, b in enumerate(lv.blocks) if b.kind == "ice"]
    assert m.dead_twists == (ice[1],) and m.optional_twist is False
    report = verify_paths([write(tmp_path, [lv], pack="extra")])
    assert (f"  FAIL x-001: twist block {ice[1]} (ice) never moves in an optimal solution"
            in fails(report))


def test_optional_twist_is_caught(tmp_path):
    lv = finished(grid(ICE_OPTIONAL, side="right", index=4, kinds={"B": "ice", "G": "ice"}),
                  "x-001")
    m = measure(lv)
    assert m.optional_twist and m.dead_twists == ()
    report = verify_paths([write(tmp_path, [lv], pack="extra")])
    assert ("  FAIL x-001: an optimal solution moves no sand, ice or rime block (the twist "
            "is optional)" in fails(report))


def test_twist_margin_under_its_kinds_floor_is_caught(tmp_path):
    thin = finished(grid(RIME_THIN, index=1, kinds={"R": "rime"}), "x-001")
    report = verify_paths([write(tmp_path, [thin], pack="extra")])
    assert fails(report) == ["  FAIL x-001: twist margin 1 (par 3, crystal par 2) is under 2 "
                             "(rime)"]


def test_twist_margin_under_its_worlds_targets_is_caught(tmp_path):
    path = world_pack(tmp_path, 4, rime_tutorial(), [finished(rime_binds(), "x")])  # margin 2
    w4 = dataclasses.replace(CAMPAIGN.world(4), margin_median=3, margin_last=2)
    campaign = dataclasses.replace(CAMPAIGN, worlds=tuple(
        w4 if w.number == 4 else w for w in CAMPAIGN.worlds))
    report = verify_paths([path], campaign)
    assert "  FAIL world-4.json: world 4: twist margin median 2 is under 3" in report.lines
    assert not any("last" in ln for ln in fails(report))
    w4 = dataclasses.replace(w4, margin_median=2, margin_last=3)
    campaign = dataclasses.replace(CAMPAIGN, worlds=tuple(
        w4 if w.number == 4 else w for w in CAMPAIGN.worlds))
    report = verify_paths([path], campaign)
    assert ("  FAIL world-4.json: world 4: twist margins of the last 1 levels 2: 1 under 3"
            in report.lines)
    assert not any("median" in ln for ln in fails(report))


# RIME_BINDS with its decoy C moved right a cell and a second decoy F in its place:
# two blocks apart on the whole board, the same live blocks.
RIME_DECOYS = ["...FC",
               "...FC",
               ".EE.C",
               "D.BAA",
               "D.B.."]


def test_near_duplicate_that_differs_only_in_decoys_is_caught(tmp_path):
    base = rime_binds()
    decoyed = grid(RIME_DECOYS, side="left", index=3, kinds={"D": "rime"})
    assert judge.Seen([base]).find(decoyed) is None          # not near on the whole boards
    m = measure(decoyed)
    assert judge.judge_level(decoyed, m) is None   # a good level on its own
    report = verify_paths([write(tmp_path, fixture_levels() + [finished(decoyed, "d-006")])])
    assert fails(report) == ["  FAIL d-006: near duplicate of d-004 (its live blocks identical "
                             "or one block apart, decoys aside, up to symmetry and translation)"]


def test_wrong_labels_are_caught(tmp_path):
    # a level that carries rime and ice recorded as rime only (w4-16 of lumina-gen/3)
    both = finished(grid(RIME_BINDS, side="left", index=3, kinds={"D": "rime", "C": "ice"}),
                    "x-001")
    assert both.mechanics == ("ice", "rime")
    path = write(tmp_path, [both], pack="extra")

    def edit(levels):
        levels[0]["analysis"]["mechanics"] = ["rime"]
    report = verify_paths([edit_json(path, edit)])
    assert "  FAIL x-001: analysis.mechanics stored ('rime',), measured ('ice', 'rime')" in report.lines
    # a crystal level in the beam world, and a level without rime in the rime world
    beam_tut = from_grid(["...\\",
                          "....",
                          "A...",
                          "A..."], exit=Exit(side="bottom", index=3), beam=Beam(dir="E", offset=0))
    report = verify_paths([world_pack(tmp_path, 5, beam_tut, [fixture_levels()[4]])])
    assert "  FAIL w5-02: a beam world's level, but its board is crystal" in report.lines
    report = verify_paths([world_pack(tmp_path, 4, rime_tutorial(),
                                      [finished(rime_binds(), "x"), fixture_levels()[2]])])
    assert "  FAIL w4-03: a rime world's level, but its board is sand" in report.lines
    assert not any("w4-02" in ln for ln in fails(report))


# ---------------------------------------------------------------------------
# The committed packs.

def test_committed_packs_verify(committed_publish):
    """The committed packs pass the verifier (its report from the one publish of them
    this run makes: tests/conftest.py, `committed_publish`)."""
    report = committed_publish["report"]
    assert report.ok, "\n".join(report.lines)
    by = {p["pack"]: p for p in report.packs}
    for n in range(1, 6):
        p = by[f"world-{n}"]
        assert p["levels"] == p["solvable"] == p["confirmed"] == 30
        assert p["binding"] == p["twist_levels"]
    assert by["dailies"]["levels"] == by["dailies"]["confirmed"] == CAMPAIGN.daily_pool
    assert all(g["reachable"] for g in report.gates.values()) and len(report.gates) == 5


def test_cli_prints_counts_and_histograms(committed_verify):
    proc = committed_verify                 # `python -m lumina.verify`, run once this run
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "World 1 (Willow Hollow): 30/30 solvable · 30/30 optimal counts confirmed · " in proc.stdout
    assert "twist levels bind · par " in proc.stdout
    assert proc.stdout.count("moves→levels") == 7            # five worlds, the dailies, practice


def test_committed_packs_are_read_and_judged(committed_publish):
    """The committed packs are read, and every level is re-solved and confirmed."""
    report = committed_publish["report"]
    assert [p["pack"] for p in report.packs] == [p.stem for p in default_paths(PACKS)]
    by = {p["pack"]: p for p in report.packs}
    practice = ["practice"] if (PACKS / "practice.json").exists() else []
    assert sorted(by) == ["dailies"] + practice + [f"world-{n}" for n in range(1, 6)]
    for p in by.values():
        assert p["levels"] == p["solvable"] == p["confirmed"]


# ---------------------------------------------------------------------------
# The command line (the first outside attack, issue 10).

# was test_hardening.py::test_verify_packs_folder
def test_cli_reads_a_packs_folder(committed_verify):
    """A folder stands for its world-*.json and dailies.json (`python -m lumina.verify`
    with no argument reads the folder packs/: run once this run, `committed_verify`)."""
    assert committed_verify.returncode == 0, committed_verify.stderr[-2000:]
    out = committed_verify.stdout
    for n in range(1, 6):
        assert f"World {n} (" in out
    total = sum(w.levels for w in CAMPAIGN.worlds) + CAMPAIGN.daily_pool + CAMPAIGN.practice
    assert "Daily pool" in out and "Practice" in out
    assert out.rstrip().splitlines()[-1].startswith(f"OK: {total} levels"), out[-500:]


# was test_hardening.py::test_verify_empty_folder_is_one_line
def test_cli_empty_folder_is_one_line(tmp_path):
    line = exit_2(run_cli("verify", tmp_path))
    assert "no world-*.json" in line


# was test_hardening.py::test_tutorial_with_illegal_stored_move
def test_tutorial_with_illegal_stored_move_fails_not_crashes(tmp_path):
    data = json.loads((PACKS / "world-5.json").read_text())
    tut = data["levels"][0]
    assert tut["tutorial"] and len(tut["solution"]) >= 1
    tut["solution"][0] = [tut["solution"][0][0], 40]          # far off the board
    p = tmp_path / "world-5.json"
    p.write_text(json.dumps(data))
    ran = run_verify(p)
    assert "Traceback" not in ran.stderr, ran.stderr[-2000:]
    assert ran.returncode == 1, ran.stderr[-2000:]
    assert "FAIL w5-01: stored move 1" in ran.stdout


def test_verify_on_worker_processes_reports_the_same(monkeypatch):
    """`--workers N` (verify and publish; the practice pack made a full verify 3 minutes on
    one core) re-solves the levels in chunks on local processes: the same report, failures
    and their order included, as one process."""
    from lumina import verify
    fixtures = ROOT / "tests" / "fixtures" / "packs"
    paths = [fixtures / f"world-{n}.json" for n in (2, 3, 5)]
    one = verify_paths(paths)
    monkeypatch.setattr(verify, "PARALLEL_FROM", 0)
    monkeypatch.setattr(verify, "CHUNK", 4)
    two = verify_paths(paths, workers=2)
    assert (two.ok, two.lines, two.packs, two.gates) == (one.ok, one.lines, one.packs, one.gates)
    assert sum(p["levels"] for p in two.packs) > 4 * 2, "more than one chunk per worker"


def test_an_exported_level_without_felt_figures_verifies(tmp_path):
    """Bug class: the editor exports every measure but the felt player's (it is Python only)
    and verify refused its file ('analysis.effort missing'). A pack the product does not
    ship may leave the felt figures out whole; a daily pool may not
    (test_a_pack_without_the_felt_figures_fails), and a half-recorded group is unreadable."""
    from lumina.packfile import read_pack
    lv = read_pack(PACKS / "dailies.json").levels[0]
    bare = lv.replace(id="c-1", analysis=dataclasses.replace(lv.analysis, effort=None, success=None))
    path = tmp_path / "custom.json"
    write_pack(path, {"pack": "custom", "name": "Custom", "world": None}, [bare])
    ran = run_cli("verify", path)
    assert ran.returncode == 0, ran.stdout[-2000:]
    write_pack(path, {"pack": "dailies", "name": "Custom", "world": None}, [bare.replace(id="d-001")])
    ran = run_cli("verify", path)
    assert ran.returncode == 1 and "analysis.effort missing" in ran.stdout, ran.stdout[-2000:]
