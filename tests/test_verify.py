"""The verifier: small self-contained packs built in tmp_path (each drawn as ASCII,
solved and measured here), then corrupted one way at a time; and the committed packs."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


from lumina.desc import from_grid
from lumina.engine import measure, solve
from lumina.judge import analysis, family_key
from lumina.model import Beam, Exit, Level
from lumina.packfile import write_pack
from lumina.model import GEN4_MEASURES
from lumina.verify import MEASURED_SINCE, default_paths, records_gen4_measures, verify_paths
from lumina.worlds import world

ROOT = Path(__file__).resolve().parent.parent
PACKS = ROOT / "packs"



def run_verify(*paths) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lumina.verify", *map(str, paths)], cwd=ROOT,
                          capture_output=True, text=True)


# ---------------------------------------------------------------------------
# Fixture levels: each passes every judge rule on its own.

def grid(rows, side="right", index=2, **kw) -> Level:
    return from_grid(rows, exit=Exit(side=side, index=index), **kw)


CRYSTAL_A = ["..D..",
             "..DC.",
             "AAECF",
             "..E.F",
             "....."]
CRYSTAL_B = [".DDD.",
             "GGG..",
             "AAEFC",
             "..EFC",
             "....."]
CRYSTAL_C = [".FCCC",
             ".F..D",
             "AA..D",
             "EEE.G",
             "....G"]
SAND_BINDS = [".HHGG",
              ".DD..",
              "AA.E.",
              "..SE.",
              "..SFF"]
RIME_BINDS = ["....",
              "AA.R",
              "...R",
              "...."]
SAND_LOOSE = ["..S.",              # the sand's one slide is all the best line needs
              "AAS.",
              "....",
              "...."]


def finished(lv: Level, lid: str, **changes) -> Level:
    """`lv` as a pack holds it: proven optimal, solution and measures."""
    sol = solve(lv)
    lv = lv.replace(id=lid, optimal=sol.optimal, solution=sol.moves, **changes)
    return lv.replace(analysis=analysis(lv, measure(lv)))


def fixture_levels() -> list[Level]:
    return [finished(grid(CRYSTAL_A), "d-001"), finished(grid(CRYSTAL_B), "d-002"),
            finished(grid(SAND_BINDS, kinds={"S": "sand"}), "d-003"),
            finished(grid(RIME_BINDS, index=1, kinds={"R": "rime"}), "d-004"),
            finished(grid(CRYSTAL_C), "d-005")]


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
            "2/2 twist levels bind · par 3-6") in proc.stdout
    assert "FAIL" not in proc.stdout


def test_unbound_twist_level_is_caught(tmp_path):
    loose = finished(grid(SAND_LOOSE, index=1, kinds={"S": "sand"}), "d-006")
    proc = run_verify(write(tmp_path, fixture_levels() + [loose]))
    assert proc.returncode == 1
    assert "FAIL d-006: twist does not bind: par 2, crystal par 2" in proc.stdout
    assert "2/3 twist levels bind" in proc.stdout


def _flip_x(rows):
    return [r[::-1] for r in rows]


# CRYSTAL_A with D moved left a cell, mirrored left-right, and moved down a row
NEAR_A = [".....",
          "...D.",
          ".C.D.",
          "FCEAA",
          "F.E.."]


def near_a(lid: str) -> Level:
    return finished(grid(NEAR_A, side="left", index=3), lid)


def test_near_duplicate_mirrored_shifted_one_block_moved_is_caught(tmp_path):
    assert family_key(near_a("x")) != family_key(grid(CRYSTAL_A))    # not the same board
    proc = run_verify(write(tmp_path, fixture_levels() + [near_a("d-006")]))
    assert proc.returncode == 1
    assert "FAIL d-006: near duplicate of d-001" in proc.stdout
    assert proc.stdout.count("  FAIL ") == 1


def test_exact_copy_under_symmetry_is_caught(tmp_path):
    copy = finished(grid(_flip_x(CRYSTAL_B), side="left"), "d-006")
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
    plans = measure(grid(CRYSTAL_A)).plans

    def edit(levels):
        levels[0]["analysis"]["plans"] += 1
    proc = run_verify(edit_json(path, edit))
    assert proc.returncode == 1
    assert f"FAIL d-001: analysis.plans stored {plans + 1}, measured {plans}" in proc.stdout


def test_chain_and_label_recorded_wrong_are_caught(tmp_path):
    path = write(tmp_path, fixture_levels())
    chain = measure(grid(CRYSTAL_A)).chain

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


def _generator(name: str, before: int = 0) -> str:
    """`name/N` for N the first version recording the gen/4 measures, minus `before`."""
    return f"{name}/{MEASURED_SINCE[name] - before}"


def test_packs_before_lumina_gen4_verify_without_the_new_measures(tmp_path):
    # The committed lumina-gen/3 packs record no chain, forced moves, deepest, optional
    # twist or label: they still verify. A pack of any later generator must record them.
    old = edit_json(write(tmp_path, fixture_levels(), generator=_generator("lumina-gen", 1)),
                    _without_gen4_measures)
    assert run_verify(old).returncode == 0
    new = edit_json(write(tmp_path, fixture_levels(), generator=_generator("lumina-gen")),
                    _without_gen4_measures)
    proc = run_verify(new)
    assert proc.returncode == 1
    chain = measure(grid(CRYSTAL_A)).chain
    assert f"FAIL d-001: analysis.chain missing (measured {chain})" in proc.stdout
    assert proc.stdout.count("  FAIL ") == 5 * len(GEN4_MEASURES)


def test_which_generators_may_leave_the_gen4_measures_out():
    assert MEASURED_SINCE == {"lumina-gen": 4, "lumina-fixtures": 3}
    for name in MEASURED_SINCE:
        assert not records_gen4_measures({"generator": _generator(name, 1)})
        assert not records_gen4_measures({"generator": _generator(name, 2)})
        assert records_gen4_measures({"generator": _generator(name)})
        assert records_gen4_measures({"generator": _generator(name, -6)})
    for gen in ("test", None, "lumina-gen/x"):
        assert records_gen4_measures({"generator": gen})
    assert records_gen4_measures({})


def test_optimal_off_by_one_is_caught(tmp_path):
    path = write(tmp_path, fixture_levels())

    def edit(levels):
        levels[2]["optimal"] += 1
        levels[2]["solution"].append(levels[2]["solution"][-1])
    proc = run_verify(edit_json(path, edit))
    assert proc.returncode == 1
    assert "FAIL d-003: stored optimal 7 but the solver proves 6" in proc.stdout


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
    assert "  FAIL d-001: 4 plans (at most 1)" in report.lines


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


def test_tutorial_that_teaches_passes_the_tutorial_rules(tmp_path):
    tut = grid(RIME_BINDS, index=1, kinds={"R": "rime"})
    path = world_pack(tmp_path, 4, tut, fixture_levels()[:2])
    report = verify_paths([path])
    fails = [ln for ln in report.lines if "FAIL w4-01" in ln]
    assert fails == [], fails
    # the pack fails only for its size and its campaign shape, which the fixture cannot meet
    assert "  FAIL world-4.json: a world has 30 levels, this one 3" in report.lines


CRYSTAL_TUTORIAL = ["..B.",
                    "AAB.",
                    "....",
                    "...."]


def test_curve_dip_is_caught(tmp_path):
    tut = grid(CRYSTAL_TUTORIAL, index=1)
    levels = fixture_levels()
    path = world_pack(tmp_path, 1, tut, [levels[2], levels[3]])         # pars 6 then 3
    report = verify_paths([path])
    assert ("  FAIL world-1.json: world 1: level 2 dips to 3 after 6 (at most 2 below)"
            in report.lines)
    path = world_pack(tmp_path, 1, tut, [levels[3], levels[4], levels[2]])  # pars 3, 5, 6
    assert not any("dips" in ln for ln in verify_paths([path]).lines)


def test_campaign_peak_rule_is_caught(tmp_path):
    path = world_pack(tmp_path, 1, grid(CRYSTAL_TUTORIAL, index=1), fixture_levels()[:1])
    report = verify_paths([path])
    assert "  FAIL campaign: world 1's hardest level has 4 moves (at least 20)" in report.lines


# ---------------------------------------------------------------------------
# The committed packs.

def test_committed_packs_verify():
    report = verify_paths(default_paths(PACKS))
    assert report.ok, "\n".join(report.lines)
    by = {p["pack"]: p for p in report.packs}
    for n in range(1, 6):
        p = by[f"world-{n}"]
        assert p["levels"] == p["solvable"] == p["confirmed"] == 30
        assert p["binding"] == p["twist_levels"]
    assert by["dailies"]["levels"] == by["dailies"]["confirmed"] == 174
    assert all(g["reachable"] for g in report.gates.values()) and len(report.gates) == 5


def test_cli_prints_counts_and_histograms():
    proc = run_verify()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "World 1 (Willow Hollow): 30/30 solvable · 30/30 optimal counts confirmed · " in proc.stdout
    assert "twist levels bind · par " in proc.stdout
    assert proc.stdout.count("moves→levels") == 6


def test_committed_packs_are_read_and_judged():
    """The committed packs are read, and every level is re-solved and confirmed."""
    report = verify_paths(default_paths(PACKS))
    by = {p["pack"]: p for p in report.packs}
    assert sorted(by) == ["dailies"] + [f"world-{n}" for n in range(1, 6)]
    for p in by.values():
        assert p["levels"] == p["solvable"] == p["confirmed"]
