"""The level model: lossless JSON and desc round trips, the one copy path, Rush Hour import.

- ``from_json(to_json(L)) == L`` and ``to_json(from_json(d)) == d`` (same keys in the
  same canonical order) for canonical dicts of every kind, beam/mirrors/walls and
  the generator's metadata (optimal, solution, name, tutorial, analysis) included.
- ``from_desc(desc(L))`` is the same puzzle; ``desc(from_desc(t)) == t``.
- ``replace`` carries every field it is not told to change, and ``to_json`` of a
  fully populated level writes every field (a writer never drops one).
"""

from __future__ import annotations

import dataclasses
import json

from hypothesis import given, settings
from hypothesis import strategies as st

import reference as R
import strategies_hypothesis as S
from lumina.desc import from_desc, from_rush_hour
from lumina.model import Analysis, Block, Exit, Level

PUZZLE_FIELDS = ("id", "width", "height", "exit", "win", "beam", "walls", "mirrors", "blocks")


@st.composite
def full_levels(draw):
    """A canonical level dict, sometimes with every optional metadata field."""
    d = draw(S.levels())
    if draw(st.booleans()):
        n = len(d["blocks"])
        solution = draw(st.lists(st.tuples(st.integers(0, n - 1),
                                           st.integers(-5, 5).filter(bool)), max_size=6))
        d["optimal"] = len(solution)
        d["solution"] = [list(m) for m in solution]
    if draw(st.booleans()):
        d["name"] = draw(st.text(st.characters(whitelist_categories=("L", "N", "P", "S", "Zs")),
                                    min_size=1, max_size=12).filter(str.isprintable))  # display text
    if draw(st.booleans()):
        d["tutorial"] = True
    if draw(st.booleans()):
        n = len(d["blocks"])
        dead = sorted(draw(st.sets(st.integers(0, n - 1))))
        d["analysis"] = {"plans": draw(st.integers(0, 20)), "plans_capped": draw(st.booleans()),
                         "solutions": draw(st.integers(0, 20)), "solutions_capped": draw(st.booleans()),
                         "dead_blocks": dead, "dead_share": draw(st.sampled_from([0.0, 0.25, 0.5, 1.0])),
                         **({"crystal_optimal": draw(st.integers(0, 30))} if draw(st.booleans()) else {}),
                         "first_moves_optimal": draw(st.integers(0, 9)),
                         "first_moves_legal": draw(st.integers(0, 30)),
                         "component_states": draw(st.integers(1, 10**6)),
                         "traps": draw(st.integers(0, 100)),
                         **({"chain": draw(st.integers(0, 40)), "forced": draw(st.integers(0, 40)),
                             "deepest": draw(st.integers(0, 60)),
                             "optional_twist": draw(st.booleans()),
                             "mechanics": draw(st.sampled_from([["crystal"], ["sand"], ["beam"],
                                                                ["ice", "rime"], ["sand", "beam"]]))}
                            if draw(st.booleans()) else {}),
                         "family": draw(st.text(alphabet="abcdefghij-0123456789", max_size=16))}
    return d


@settings(max_examples=S.examples(150))
@given(full_levels())
def test_json_round_trip_both_ways(d):
    level = Level.from_json(d)
    out = level.to_json()
    assert out == d
    assert list(out) == list(d), "canonical key order"
    assert json.dumps(out) == json.dumps(d)
    assert Level.from_json(out) == level
    # And through text, as a pack on disk holds it.
    assert Level.from_json(json.loads(json.dumps(out))) == level


def test_round_trip_hand_written_beam_level():
    d = {"id": "w5-07", "width": 6, "height": 5, "exit": {"side": "top", "index": 4},
         "win": "beam", "beam": {"dir": "E", "offset": 0}, "walls": [[0, 0], [5, 4]],
         "mirrors": [{"x": 4, "y": 2, "tilt": "/"}, {"x": 1, "y": 4, "tilt": "\\"}],
         "blocks": [{"kind": "crystal", "x": 3, "y": 1, "w": 1, "h": 2},
                    {"kind": "key", "x": 0, "y": 2, "w": 2, "h": 1},
                    {"kind": "rime", "x": 2, "y": 3, "w": 2, "h": 1}],
         "optimal": 1, "solution": [[0, -1]], "name": "First Light", "tutorial": True,
         "analysis": {"plans": 1, "plans_capped": False, "solutions": 1,
                      "solutions_capped": False, "dead_blocks": [1, 2], "dead_share": 1.0,
                      "crystal_optimal": 1, "first_moves_optimal": 1, "first_moves_legal": 3,
                      "component_states": 12, "traps": 0, "family": "beam-c1-r1"}}
    level = Level.from_json(d)
    assert level.win == "beam" and level.beam.dir == "E" and len(level.mirrors) == 2
    assert isinstance(level.blocks, tuple) and isinstance(level.walls, tuple)
    assert level.to_json() == d and list(level.to_json()) == list(d)


def test_defaults_are_omitted_and_empties_not_written():
    d = {"id": "w1-01", "width": 4, "height": 4, "exit": {"side": "right", "index": 0},
         "win": "exit", "walls": [], "mirrors": [], "tutorial": False,
         "blocks": [{"kind": "key", "x": 0, "y": 0, "w": 2, "h": 1}]}
    out = Level.from_json(d).to_json()
    assert out == {"id": "w1-01", "width": 4, "height": 4, "exit": {"side": "right", "index": 0},
                   "blocks": [{"kind": "key", "x": 0, "y": 0, "w": 2, "h": 1}]}


def _full_level() -> Level:
    return Level.from_json({
        "id": "w5-03", "width": 6, "height": 5, "exit": {"side": "top", "index": 4},
        "win": "beam", "beam": {"dir": "E", "offset": 0}, "walls": [[0, 0]],
        "mirrors": [{"x": 4, "y": 2, "tilt": "/"}],
        "blocks": [{"kind": "key", "x": 0, "y": 2, "w": 2, "h": 1},
                   {"kind": "sand", "x": 3, "y": 1, "w": 1, "h": 2}],
        "optimal": 1, "solution": [[1, 1]], "name": "n", "tutorial": True,
        "analysis": {"plans": 1, "plans_capped": False, "solutions": 1,
                     "solutions_capped": False, "dead_blocks": [0], "dead_share": 1.0,
                     "crystal_optimal": 1, "first_moves_optimal": 1, "first_moves_legal": 2,
                     "component_states": 6, "traps": 1, "family": "f"}})


def test_a_full_level_writes_every_field():
    level = _full_level()
    assert set(level.to_json()) == {f.name for f in dataclasses.fields(Level)}


def test_replace_keeps_every_field():
    level = _full_level()
    names = [f.name for f in dataclasses.fields(Level)]
    changes = {
        "id": "w5-04", "name": "other", "tutorial": False, "optimal": None, "solution": None,
        "analysis": Analysis(plans=1, plans_capped=False, solutions=2, solutions_capped=True,
                             dead_blocks=(), dead_share=0.0, crystal_optimal=None,
                             first_moves_optimal=1, first_moves_legal=2, component_states=9,
                             traps=0, family="g"),
        "walls": ((5, 4),), "exit": Exit(side="top", index=4),
        "blocks": level.blocks[:1] + (Block(kind="ice", x=3, y=1, w=1, h=2),),
    }
    for field, value in changes.items():
        copy = level.replace(**{field: value})
        assert getattr(copy, field) == value
        for other in names:
            if other != field:
                assert getattr(copy, other) == getattr(level, other), (field, other)
    assert level.replace() == level


@settings(max_examples=S.examples(100))
@given(S.levels())
def test_desc_round_trip(d):
    level = Level.from_json(d)
    text = level.desc()
    back = from_desc(text, id=d["id"])
    assert back.to_json() == {k: v for k, v in d.items() if k in PUZZLE_FIELDS}
    assert back.desc() == text


def test_desc_example_from_the_docs():
    text = "6x5-R2-K0221I2113-w30"
    level = from_desc(text)
    assert level.width == 6 and level.height == 5 and level.exit == Exit(side="right", index=2)
    assert level.blocks[1] == Block(kind="ice", x=2, y=1, w=1, h=3)
    assert level.walls == ((3, 0),)
    assert level.desc() == text


def test_from_rush_hour_on_a_sample_line():
    board = "ooBoooooBoooAABooooooooooooooooooooo"      # "02 ... 14" in rush-sample.txt
    level = from_rush_hour(board, id="rush-2")
    assert level.id == "rush-2"
    assert (level.width, level.height, level.exit) == (6, 6, Exit(side="right", index=2))
    assert level.key == Block(kind="key", x=0, y=2, w=2, h=1)
    others = [b for b in level.blocks if b.kind != "key"]
    assert others == [Block(kind="crystal", x=2, y=0, w=1, h=3)]
    ref = R.rush_level(board)
    assert sorted((b["x"], b["y"], b["w"], b["h"]) for b in ref["blocks"]) == \
        sorted((b.x, b.y, b.w, b.h) for b in level.blocks)


def test_from_rush_hour_with_walls():
    mm, board, cluster = next(l for l in R.rush_sample_lines() if "x" in l[1])
    level = from_rush_hour(board)
    assert sorted(level.walls) == sorted((i % 6, i // 6) for i, c in enumerate(board) if c == "x")
