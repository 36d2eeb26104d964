"""lumina/playable.py: the rules of a playable level (par at least 1, a legal first
move), held by the verifier and, on its own, by the site's reader.

Each test guards one class found by the second outside attack (issue 20, classes 2
and 3); the comment above it names the test it was in tests/test_hardening_round2.py.
"""
from __future__ import annotations

import functools
import json
import shutil
from pathlib import Path

from clihelp import PACKS, command_main, exit_2, passing_verify, run_cli
from lumina import judge
from lumina.desc import from_desc
from lumina.engine import measure, solve


def level_json(desc: str, lid: str) -> dict:
    """A level with its proven par, a solution and its measures, as a pack holds it."""
    lv = from_desc(desc, id=lid)
    sol, m = solve(lv), measure(lv)
    return lv.replace(optimal=sol.optimal, solution=tuple(sol.moves),
                      analysis=judge.analysis(lv, m)).to_json()


def _pack_with(tmp_path: Path, level: dict) -> Path:
    path = tmp_path / "extra.json"
    path.write_text(json.dumps({"pack": "extra", "name": "Extra", "levels": [level]}))
    return path


# was test_hardening_round2.py::test_level_solved_at_its_start_is_not_playable (class 2)
def test_level_solved_at_its_start_is_not_playable(tmp_path):
    """A level solved at its start (par 0) passed verify, though the generator rejects
    it as already_solved and in the browser its best result was 2 moves, 2 stars."""
    lv = level_json("6x6-R2-K4221", "x-01")             # the key already at the lantern
    assert lv["optimal"] == 0 and lv["solution"] == []
    ran = run_cli("verify", _pack_with(tmp_path, lv))
    assert ran.returncode == 1, ran.stderr
    assert "FAIL x-01: optimal: 0: the level is solved at its start" in ran.stdout, ran.stdout
    assert ran.stdout.rstrip().splitlines()[-1].startswith("FAILED")


def _daily_pool_with(tmp_path: Path, level: dict) -> Path:
    """W: a packs folder of the committed worlds and daily pool, daily d-001 replaced by
    `level` (the worlds are there because publish refuses a folder without them before
    it verifies a level: the verifier's pack-set rule)."""
    w = tmp_path / "W"
    w.mkdir()
    for src in sorted(PACKS.glob("world-*.json")):
        shutil.copyfile(src, w / src.name)
    data = json.loads((PACKS / "dailies.json").read_text())
    data["levels"][0] = {**level, "id": "d-001"}
    (w / "dailies.json").write_text(json.dumps(data))
    return w


# was test_hardening_round2.py::test_level_with_nothing_movable_is_not_playable (class 3)
def test_level_with_nothing_movable_is_not_playable(tmp_path):
    """The same level with nothing movable: verify said OK, then publish exited 2 with
    `internal error (ZeroDivisionError)` in the generation-report page."""
    lv = level_json("6x6-R2-K4221-w32", "x-01")         # a wall holds the key at the lantern
    assert lv["analysis"]["first_moves_legal"] == 0
    ran = run_cli("verify", _pack_with(tmp_path, lv))   # (a level rule: one level is enough)
    assert ran.returncode == 1, ran.stderr
    assert "FAIL x-01: analysis.first_moves_legal: 0: no block can move" in ran.stdout, ran.stdout
    w = _daily_pool_with(tmp_path, lv)
    ran = run_cli("publish", "--packs", w, "--out", tmp_path / "site")
    assert ran.returncode == 1, ran.stderr[-2000:]
    assert "refused" in ran.stderr and "internal error" not in ran.stderr and "Traceback" not in ran.stderr
    assert not (tmp_path / "site").exists()
    # the site's reader holds the same rule on its own (lumina.playable), verified or not
    unverified = functools.partial(command_main("publish"), verify=passing_verify)
    exit_2(run_cli("publish", "--packs", w, "--out", tmp_path / "site", main=unverified),
           "dailies.json", "d-001", "solved at its start")
