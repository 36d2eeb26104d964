"""Bad input, one case per validation error: each raises ``LevelError`` naming the level and field.

The table starts from two valid levels (an exit level and a beam level, drawn
below) and breaks exactly one thing per row.  A CLI test checks that a bad level
file gives exit code 2 and one line on stderr, never a traceback.

    exit level v-01 (6x5)            beam level v-02 (6x5)
      . . . . . .                      . . . . . .
      . . . B . .                      . . . B . .
      A A . B . . >  lantern           A A . B / .      light E from the key,
      . . . . . .                      . . . . . .      / at (4, 2) sends it north
      . . . . . .                      . . . . . .      out of the top of column 4
"""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path

import pytest

from clihelp import run_cli
from lumina import model
from lumina.model import GEN4_MEASURES, Level, LevelError

EXIT = {"id": "v-01", "width": 6, "height": 5, "exit": {"side": "right", "index": 2},
        "blocks": [{"kind": "key", "x": 0, "y": 2, "w": 2, "h": 1},
                   {"kind": "crystal", "x": 3, "y": 1, "w": 1, "h": 2}]}
BEAM = {"id": "v-02", "width": 6, "height": 5, "exit": {"side": "top", "index": 4},
        "win": "beam", "beam": {"dir": "E", "offset": 0},
        "mirrors": [{"x": 4, "y": 2, "tilt": "/"}],
        "blocks": [{"kind": "key", "x": 0, "y": 2, "w": 2, "h": 1},
                   {"kind": "crystal", "x": 3, "y": 1, "w": 1, "h": 2}]}


def crowded(n: int, kind: str = "crystal") -> dict:
    """An 8x8 level with the key and n more horizontal length-2 blocks."""
    blocks = [{"kind": "key", "x": 0, "y": 0, "w": 2, "h": 1}]
    cells = [(x, y) for y in range(1, 8) for x in (0, 2, 4, 6)] + [(2, 0), (4, 0), (6, 0)]
    for x, y in cells[:n]:
        blocks.append({"kind": kind, "x": x, "y": y, "w": 2, "h": 1})
    return {"id": "v-03", "width": 8, "height": 8, "exit": {"side": "right", "index": 0},
            "blocks": blocks}


def edit(base: dict, **paths):
    """A deep copy of ``base`` with ``path=value`` edits; path parts split on '__'."""
    d = copy.deepcopy(base)
    for path, value in paths.items():
        *head, last = path.split("__")
        target = d
        for part in head:
            target = target[int(part)] if isinstance(target, list) else target[part]
        if isinstance(target, list):
            target[int(last)] = value
        elif value is DELETE:
            del target[last]
        else:
            target[last] = value
    return d


DELETE = object()

# (case name, bad level, field the message must name, another word it must contain)
ANALYSIS = {"plans": 1, "plans_capped": False, "solutions": 1, "solutions_capped": False,
            "dead_blocks": [], "dead_share": 0.0, "first_moves_optimal": 1,
            "first_moves_legal": 1, "component_states": 2, "traps": 0, "chain": 1, "forced": 1,
            "deepest": 1, "optional_twist": False, "mechanics": ["crystal"], "family": "f"}

CASES = [
    ("overlapping blocks", edit(EXIT, blocks__1__x=1, blocks__1__y=2), "blocks[1]", "overlaps"),
    ("block out of bounds", edit(EXIT, blocks__1__x=5, blocks__1__y=4), "blocks[1]", "outside"),
    ("block out of bounds (right edge)", edit(EXIT, blocks__0__x=5), "blocks[0]", "outside"),
    ("wall out of bounds", edit(EXIT, walls=[[6, 0]]), "walls[0]", "outside"),
    ("wall on a block", edit(EXIT, walls=[[0, 2]]), "blocks[0]", "overlaps"),
    ("mirror out of bounds", edit(BEAM, mirrors=[{"x": 4, "y": 5, "tilt": "/"}]), "mirrors[0]", "outside"),
    ("square movable block", edit(EXIT, blocks__1__w=2, blocks__1__h=2), "blocks[1]", "square"),
    ("square key", edit(EXIT, blocks__0__w=1), "blocks[0]", "square"),
    ("no key", edit(EXIT, blocks__0__kind="crystal"), "blocks", "key"),
    ("two keys", edit(EXIT, blocks__1__kind="key"), "blocks[1].kind", "key"),
    ("unknown kind", edit(EXIT, blocks__1__kind="stone"), "blocks[1].kind", "stone"),
    ("unknown field (optimum typo)", edit(EXIT, optimum=3), "optimum", "unknown"),
    ("unknown block field", edit(EXIT, blocks__1__colour="red"), "blocks[1].colour", "unknown"),
    ("unknown exit field", edit(EXIT, exit={"side": "right", "index": 2, "idx": 2}), "exit.idx", "unknown"),
    ("missing field", edit(EXIT, exit=DELETE), "exit", "missing"),
    ("exit side not a side", edit(EXIT, exit={"side": "north", "index": 2}), "exit.side", "north"),
    ("exit index off the boundary", edit(EXIT, exit={"side": "right", "index": 5}), "exit.index", "boundary"),
    ("exit index off the top boundary", edit(BEAM, exit={"side": "top", "index": 6}), "exit.index", "boundary"),
    ("key axis never reaches the lantern", edit(EXIT, exit={"side": "top", "index": 0}), "exit.side", "key"),
    ("vertical key, side lantern", edit(EXIT, blocks__0__w=1, blocks__0__h=2, blocks__0__y=1,
                                        exit={"side": "left", "index": 2}), "exit.side", "key"),
    ("key span never covers the index", edit(EXIT, exit={"side": "right", "index": 1}), "exit.index", "key"),
    ("beam offset off the key's edge", edit(BEAM, beam={"dir": "E", "offset": 1}), "beam.offset", "edge"),
    ("beam offset off a N edge", edit(BEAM, beam={"dir": "N", "offset": 2}), "beam.offset", "edge"),
    ("beam dir unknown", edit(BEAM, beam={"dir": "NE", "offset": 0}), "beam.dir", "NE"),
    ("beam fields on an exit level", edit(EXIT, beam={"dir": "E", "offset": 0}), "beam", "beam"),
    ("mirrors on an exit level", edit(EXIT, mirrors=[{"x": 5, "y": 0, "tilt": "/"}]), "mirrors", "beam"),
    ("beam missing on a beam level", edit(BEAM, beam=DELETE), "beam", "missing"),
    ("unknown win", edit(EXIT, win="escape"), "win", "escape"),
    ("mirror tilt unknown", edit(BEAM, mirrors=[{"x": 4, "y": 2, "tilt": "|"}]), "mirrors[0].tilt", "|"),
    ("more than 16 movable blocks", crowded(16), "blocks", "16"),
    ("non-integer number (float)", edit(EXIT, width=6.0), "width", "integer"),
    ("non-integer number (string)", edit(EXIT, blocks__1__x="3"), "blocks[1].x", "integer"),
    ("non-integer exit index", edit(EXIT, exit={"side": "right", "index": 2.5}), "exit.index", "integer"),
    ("negative number", edit(EXIT, blocks__1__x=-1), "blocks[1].x", "-1"),
    ("negative wall", edit(EXIT, walls=[[-1, 0]]), "walls[0][0]", "-1"),
    ("grid 3 wide", edit(EXIT, width=3, blocks__1__x=2), "width", "3"),
    ("grid 9 wide", edit(EXIT, width=9), "width", "9"),
    ("grid 9 high", edit(EXIT, height=9), "height", "9"),
    ("bool passed as int (width)", edit(EXIT, width=True), "width", "True"),
    ("bool passed as int (index)", edit(EXIT, exit={"side": "right", "index": True}), "exit.index", "True"),
    ("bool passed as int (block)", edit(EXIT, blocks__1__h=True), "blocks[1].h", "True"),
    ("solution names no block", edit(EXIT, solution=[[7, 1]]), "solution[0][0]", "7"),
    ("solution zero slide", edit(EXIT, solution=[[0, 0]]), "solution[0][1]", "zero"),
    ("solution length vs optimal", edit(EXIT, optimal=2, solution=[[1, 2]]), "solution", "optimal"),
    ("analysis unknown field", edit(EXIT, analysis={"plans": 1, "plans_capped": False, "solutions": 1,
                                                   "solutions_capped": False, "dead_blocks": [],
                                                   "dead_share": 0.0, "first_moves_optimal": 1,
                                                   "first_moves_legal": 1, "component_states": 2,
                                                   "traps": 0, "family": "f", "extra": 1}),
     "analysis.extra", "unknown"),
    ("tutorial not a bool", edit(EXIT, tutorial=1), "tutorial", "true"),
    ("chain not an integer", edit(EXIT, analysis=dict(ANALYSIS, chain="7")), "analysis.chain",
     "integer"),
    ("chain negative", edit(EXIT, analysis=dict(ANALYSIS, chain=-1)), "analysis.chain", "-1"),
    ("forced a float", edit(EXIT, analysis=dict(ANALYSIS, forced=1.5)), "analysis.forced",
     "integer"),
    ("deepest a bool", edit(EXIT, analysis=dict(ANALYSIS, deepest=True)), "analysis.deepest",
     "integer"),
    ("optional twist not a bool", edit(EXIT, analysis=dict(ANALYSIS, optional_twist=0)),
     "analysis.optional_twist", "true or false"),
    ("mechanics not a list", edit(EXIT, analysis=dict(ANALYSIS, mechanics="crystal")),
     "analysis.mechanics", "list"),
    ("mechanics unknown", edit(EXIT, analysis=dict(ANALYSIS, mechanics=["lava"])),
     "analysis.mechanics[0]", "one of"),
    ("mechanics out of order", edit(EXIT, analysis=dict(ANALYSIS, mechanics=["rime", "ice"])),
     "analysis.mechanics", "order"),
    ("mechanics twice", edit(EXIT, analysis=dict(ANALYSIS, mechanics=["ice", "ice"])),
     "analysis.mechanics", "once"),
    ("mechanics empty", edit(EXIT, analysis=dict(ANALYSIS, mechanics=[])),
     "analysis.mechanics", "once"),
    ("one gen/4 measure without the rest",
     edit(EXIT, analysis={k: v for k, v in ANALYSIS.items() if k != "deepest"}),
     "analysis.deepest", "missing"),
]


@pytest.mark.parametrize("name,data,field,word", CASES, ids=[c[0] for c in CASES])
def test_bad_level_is_rejected_naming_level_and_field(name, data, field, word):
    with pytest.raises(LevelError) as err:
        Level.from_json(data)
    msg = str(err.value)
    assert data["id"] in msg, msg
    assert field in msg, msg
    assert word.lower() in msg.lower(), msg
    assert isinstance(err.value, ValueError)


def test_the_valid_bases_are_valid():
    for d in (EXIT, BEAM, crowded(15), crowded(15, "sand")):
        assert Level.from_json(d).to_json() == d


def test_more_than_64_key_bits(monkeypatch):
    # 16 movable blocks give at most 16*3 + 16 = 64 bits, so with the shipped limit
    # the block count trips first; lift it to reach the bit check on its own.
    monkeypatch.setattr(model, "MAX_MOVABLE", 20)
    bad = crowded(16, "sand")        # 17 blocks: 51 coordinate bits + 16 spent bits
    with pytest.raises(LevelError) as err:
        Level.from_json(bad)
    assert "v-03" in str(err.value) and "blocks" in str(err.value) and "64" in str(err.value)


def test_not_an_object():
    with pytest.raises(LevelError):
        Level.from_json([1, 2])
    with pytest.raises(LevelError) as err:
        Level.from_json({"id": "v-09", "width": 6})
    assert "v-09" in str(err.value)


def test_cli_bad_level_file_exits_2_with_one_line(tmp_path: Path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(edit(EXIT, optimum=3)))
    proc = run_cli("solve", path)
    assert proc.returncode == 2, proc
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "v-01" in lines[0] and "optimum" in lines[0]


def test_cli_square_block_file_exits_2(tmp_path: Path):
    path = tmp_path / "square.json"
    path.write_text(json.dumps(edit(EXIT, blocks__1__w=2, blocks__1__h=2)))
    proc = run_cli("solve", path)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc
    assert "Traceback" not in proc.stderr and "blocks[1]" in proc.stderr


def test_the_gen4_measures_round_trip_and_may_be_absent():
    # Packs before lumina-gen/4 carry none of them; newer packs all of them.
    full = edit(EXIT, analysis=ANALYSIS)
    assert Level.from_json(full).to_json() == full
    old = edit(EXIT, analysis={k: v for k, v in ANALYSIS.items() if k not in GEN4_MEASURES})
    level = Level.from_json(old)
    assert level.analysis.chain is None and level.to_json() == old


def test_a_level_written_with_some_gen4_measures_does_not_read_back():
    # A writer never drops a recorded field: a partial record is written as it is, and
    # reading it names the first one missing.
    level = Level.from_json(edit(EXIT, analysis=ANALYSIS))
    partial = level.replace(analysis=dataclasses.replace(level.analysis, forced=None)).to_json()
    assert partial["analysis"]["chain"] == 1 and "forced" not in partial["analysis"]
    with pytest.raises(LevelError, match=r"analysis\.forced: missing"):
        Level.from_json(partial)
