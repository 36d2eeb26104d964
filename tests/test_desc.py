"""lumina/desc.py, the text forms (the desc, ASCII rows, Rush Hour boards), where the
outside attack of issue 10 found holes; the round trips are in tests/test_model.py.
The comment above each test names the test it was in tests/test_hardening.py."""
from __future__ import annotations

import pytest

from clihelp import exit_2, run_cli
from lumina.desc import from_desc, from_rush_hour
from lumina.model import LevelError


# was test_hardening.py::test_non_ascii_digits_in_desc
@pytest.mark.parametrize("desc", ["٦x٦-R2-K0221C4112", "6x6-R٢-K0221C4112", "6x6-R2-K０221C4112"])
def test_desc_refuses_non_ascii_digits(desc):
    with pytest.raises(LevelError, match="desc"):
        from_desc(desc)
    exit_2(run_cli("solve", desc), "")


# was test_hardening.py::test_dots_in_rush_boards
def test_rush_board_reads_dots_as_empty():
    dots = from_rush_hour("....B.....B.AA..B...................")
    ohs = from_rush_hour("ooooBoooooBoAAooBooooooooooooooooooo")
    assert dots.to_json() == {**ohs.to_json(), "id": dots.id}
    ran = run_cli("solve", "....B.....B.AA..B...................")
    assert ran.returncode == 0 and "solved in 2 moves" in ran.stdout, ran.stderr
