"""An outside check: rush-sample.txt, published optimal counts and cluster sizes.

Every board of the sample (Fogleman's Rush Hour database via reasoning-gym; see
rush-sample.NOTE.md) is imported with ``lumina.desc.from_rush_hour`` and solved by the
compiled engine: ``lumina.solve`` must give exactly MM, its move list must replay
to a win, and a full component sweep must count exactly CLUSTER states.
"""

from __future__ import annotations

import reference as R

import lumina.engine as E  # noqa: E402  (an unbuilt engine fails here, never skips)
from lumina import Outcome  # noqa: E402
from lumina.desc import from_rush_hour  # noqa: E402
from lumina.engine import solve  # noqa: E402

LINES = R.rush_sample_lines()


def test_sample_is_complete():
    assert len(LINES) == 594
    assert max(mm for mm, _, _ in LINES) == 60


def test_every_board_solves_to_its_published_count():
    wrong = []
    for n, (mm, board, _cluster) in enumerate(LINES):
        level = from_rush_hour(board, id=f"rush-{n:03d}")
        sol = solve(level)
        if sol.outcome is not Outcome.SOLVED or sol.optimal != mm:
            wrong.append((board, mm, sol.outcome.value, sol.optimal))
            continue
        b = E.Board(level)
        s = b.start
        for m in sol.moves:
            s = b.apply(s, m)
        if not b.is_solved(s):
            wrong.append((board, mm, "moves do not reach the win", sol.moves))
    assert wrong == []


def test_from_rush_hour_matches_the_reference_reading():
    # The importer reads the board as the reference does: same cells, same key, same exit.
    for mm, board, _ in LINES[::25]:
        ref = R.rush_level(board)
        level = from_rush_hour(board)
        got = level.to_json()
        assert got["exit"] == {"side": "right", "index": 2}
        assert sorted(map(tuple, got.get("walls", []))) == sorted(map(tuple, ref.get("walls", [])))
        cells = lambda bs: sorted((b["kind"], b["x"], b["y"], b["w"], b["h"]) for b in bs)
        assert cells(got["blocks"]) == cells(ref["blocks"])


def test_every_component_counts_its_published_cluster():
    wrong = []
    for mm, board, cluster in LINES:
        n = E.component(from_rush_hour(board))
        if n != cluster:
            wrong.append((board, cluster, n))
    assert wrong == []
