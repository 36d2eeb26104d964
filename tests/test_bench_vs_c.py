"""`python -m lumina.bench solver --vs-c`: the C BFS found by one rule, compiled, and
every answer checked on both sides (figures are printed, never asserted).

The C program here is a stand-in written for the test (it reads each board's
published MM and CLUSTER back from the file), so the benchmark's plumbing is tested
wherever a C compiler exists, with or without the shared folder.
"""
from __future__ import annotations

import shutil

import pytest

from lumina import bench
from lumina.bench.__main__ import main
from lumina.cli import guarded

BOARDS = ("2 ooooBoooooBoAAooBooooooooooooooooooo 14\n"
          "1 ooooooooooooAAoooooooooooooooooooooo 5\n")

# Prints "board<TAB>moves<TAB>states" per line as cbfs does: moves = the file's MM
# (+ OFF), states = its CLUSTER with -c; then cbfs's summary line on stderr.
STAND_IN = r"""
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
    char line[512], a[64], b[64], c[64];
    int full = argc > 2 && strcmp(argv[1], "-c") == 0;
    FILE *f = fopen(argv[argc - 1], "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "%63s %63s %63s", a, b, c) == 3)
            printf("%s\t%d\t%s\n", b, atoi(a) + OFF, full ? c : "1");
    fprintf(stderr, "boards=2 states=2 cpu_s=0.001 states_per_s=2000 mm_mismatch=0\n");
    return 0;
}
"""


def stand_in(folder, off: int):
    src = folder / "cbfs.c"
    src.write_text("#include <stdlib.h>\n#define OFF " + str(off) + "\n" + STAND_IN)
    return src


@pytest.fixture
def rush(tmp_path):
    path = tmp_path / "rush.txt"
    path.write_text(BOARDS)
    return path


def run(argv, capsys):
    code = guarded(main, argv, prog="lumina.bench")
    out, err = capsys.readouterr()
    return code, out, err.strip().splitlines()


needs_cc = pytest.mark.skipif(not any(shutil.which(c) for c in ("cc", "gcc", "clang")),
                              reason="no C compiler")


def test_without_cbfs_c_one_line(tmp_path, monkeypatch, capsys, rush):
    monkeypatch.setattr(bench, "DATA_DIRS", (tmp_path / "a", tmp_path / "b"))
    code, _, err = run(["solver", "--vs-c", "--rush", str(rush)], capsys)
    assert code == 2 and len(err) == 1 and "cbfs.c: not found in" in err[0]


def test_without_a_compiler_one_line(tmp_path, monkeypatch, capsys, rush):
    stand_in(tmp_path, 0)
    monkeypatch.setattr(bench, "DATA_DIRS", (tmp_path,))
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    code, _, err = run(["solver", "--vs-c", "--rush", str(rush)], capsys)
    assert code == 2 and len(err) == 1 and "no C compiler found" in err[0]


@needs_cc
def test_a_c_file_that_does_not_compile_one_line(tmp_path, monkeypatch, capsys, rush):
    (tmp_path / "cbfs.c").write_text("this is not C\n")
    monkeypatch.setattr(bench, "DATA_DIRS", (tmp_path,))
    code, _, err = run(["solver", "--vs-c", "--rush", str(rush)], capsys)
    assert code == 2 and len(err) == 1 and "failed" in err[0]


@needs_cc
def test_every_answer_is_checked(tmp_path, monkeypatch, capsys, rush):
    stand_in(tmp_path, 0)
    monkeypatch.setattr(bench, "DATA_DIRS", (tmp_path,))
    code, out, _ = run(["solver", "--vs-c", "--repeat", "1", "--rush", str(rush)], capsys)
    assert code == 0, out
    assert "2 boards' MM and CLUSTER checked on both sides: 0 wrong" in out
    for label in ("solve, inside the process", "whole components", "whole process, CPU"):
        assert label in out


@needs_cc
def test_a_wrong_c_answer_fails_the_run(tmp_path, monkeypatch, capsys, rush):
    stand_in(tmp_path, 1)               # every C count one too many
    monkeypatch.setattr(bench, "DATA_DIRS", (tmp_path,))
    code, out, err = run(["solver", "--vs-c", "--repeat", "1", "--rush", str(rush)], capsys)
    assert code == 1 and "2 wrong" in out
    assert any(line.startswith("C: ") for line in err)
