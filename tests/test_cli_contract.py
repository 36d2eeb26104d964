"""lumina/cli.py (the one error boundary of every command) and lumina/_startup.py:
whatever goes wrong is one line on stderr and exit 2 (130 for Ctrl-C, also while a
command still imports), never a traceback; every numeric flag has a range.

Each test guards one class found by an outside attack (issues 10 and 20); the comment
above it names the test it was in tests/test_hardening.py or
tests/test_hardening_round2.py. Commands run in this process through the boundary
(tests/clihelp.py), except where a real process is the point: a pipe closed by
`head`, and Ctrl-C during the start-up imports.
"""
from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys

import pytest

from clihelp import ROOT, command_main, exit_2, run_cli, run_process
from lumina import cli

SOLVABLE = "6x5-R2-K0221C3112"


# ------------------------------------------------------------------ the boundary

# was test_hardening.py::test_lone_surrogate_printed_to_stdout
def test_boundary_escapes_a_lone_surrogate_printed_to_stdout(capfd):
    def main(argv):
        print("level \udc80 solved")      # what an unchecked id used to do
        return 0
    assert cli.guarded(main, []) == 0
    assert "\\udc80" in capfd.readouterr().out


def test_deep_path_in_an_error_is_printed_whole(tmp_path):
    """Bug class: the boundary cut every word over 80 characters in the middle, so on CI
    (tmp paths like /tmp/pytest-of-root/pytest-124/popen-gw0/test_campaign_seed_of_50..)
    an error named `.../test_camp..._dig0/campaign.toml`, a file that does not exist."""
    deep = tmp_path / ("a-folder-with-a-long-name-" * 4) / "campaign.toml"
    deep.parent.mkdir(parents=True)
    deep.write_text("[[world]\n", encoding="utf-8")
    assert 150 < len(str(deep)) < 300
    ran = run_cli("verify", "--campaign", deep)
    line = exit_2(ran, str(deep))
    assert "..." not in line
    assert cli.one_line("x" * 5000).count("...") == 1 and len(cli.one_line("x" * 5000)) < 300


# was test_hardening.py::test_memory_error_is_one_line
def test_boundary_memory_error_is_one_line(monkeypatch, capsys):
    solve_cli = importlib.import_module("lumina.solve")   # `lumina.solve` is also a function

    def boom(*a, **k):
        raise MemoryError
    monkeypatch.setattr(solve_cli, "solve", boom)
    assert cli.guarded(solve_cli.main, [SOLVABLE]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "out of memory" in err[0]


# was test_hardening.py::test_any_exception_is_one_line_exit_2
@pytest.mark.parametrize("exc", [OverflowError("int too large"), RecursionError("deep"),
                                 UnicodeEncodeError("utf-8", "\udc80", 0, 1, "surrogates"),
                                 EOFError(), KeyError("x")])
def test_boundary_any_exception_is_one_line_exit_2(capsys, exc):
    def main(argv):
        raise exc
    assert cli.guarded(main, []) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


# was test_hardening.py::test_broken_pipe_is_quiet
def test_boundary_broken_pipe_is_quiet():
    """A real process whose stdout `head` closes: the exit flush must not fail."""
    code = ("import sys\nfrom lumina import cli\n"
            "def main(argv):\n    for i in range(100000):\n        print('x' * 100)\n    return 0\n"
            "cli.run(main)\n")
    proc = subprocess.run(f"{sys.executable} -c \"{code}\" | head -1", shell=True, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "Traceback" not in proc.stderr and "Error" not in proc.stderr, proc.stderr


# was test_hardening.py::test_one_line_escapes_and_shortens
def test_one_line_escapes_and_shortens():
    line = cli.one_line("file: \nerror: forged \x1b[31m level " + "x" * 100000)
    assert "\n" not in line and "\x1b" not in line and len(line) <= cli.MAX_LINE
    assert "\\n" in line and "\\x1b" in line


# ------------------------------------------------------------------ usage mistakes

# was test_hardening.py::test_mistyped_flag_is_one_line
def test_mistyped_flag_is_one_line():
    exit_2(run_cli("verify", "--no-such-flag"), "--no-such-flag")
    exit_2(run_cli("publish", "--ouf", "x"), "--ouf")


# was test_hardening_round2.py::test_vectors_bogus_flag_is_one_line (class 17)
def test_mistyped_flag_of_vectors_is_one_line():
    """`python -m lumina.vectors --bogus` printed usage and the error on two lines."""
    exit_2(run_cli("vectors", "--bogus"), "--bogus")


# was test_hardening.py::test_state_cap_out_of_range
@pytest.mark.parametrize("cap", ["1e20", "2147483648", str(2**64), "0", "-5", "1.5", "nan", "1e999"])
def test_int_in_refuses_a_state_cap_out_of_range(cap):
    exit_2(run_cli("solve", SOLVABLE, "--state-cap", cap), "--state-cap")


# was test_hardening.py::test_state_cap_in_range_accepted
def test_int_in_accepts_a_state_cap_in_range():
    for cap in ("2147483647", "1e6", "100"):
        ran = run_cli("solve", SOLVABLE, "--state-cap", cap)
        assert ran.returncode == 0 and "solved in" in ran.stdout, ran.stderr


# was test_hardening_round2.py::test_workers_out_of_range_refused (class 10)
@pytest.mark.parametrize("argv", [
    ["generate", "--workers", "10000"], ["generate", "--workers", "0"], ["generate", "--workers", "-5"],
    ["bench", "generate", "--workers", "10000"], ["bench", "generate", "--workers", "0"],
    ["bench", "generate", "--workers", "-5"], ["bench", "cluster", "--workers", "65"],
    ["bench", "sweep", "--layouts", "0"], ["bench", "solver", "--python-boards", "-1"],
    ["vectors", "--seed", "-1"], ["generate", "--world", "0"], ["generate", "--world", "100"],
], ids=" ".join)
def test_int_in_refuses_workers_out_of_range(argv, monkeypatch):
    """`bench generate --workers 10000` started 228 processes (4.5 GB in 12 s) and
    `--workers 0` and `-5` were accepted silently."""
    from lumina import executor

    def no_work(*a, **k):
        raise AssertionError("work started on an out-of-range flag")
    monkeypatch.setattr(executor, "run_ordered", no_work)
    exit_2(run_cli(*argv), argv[-2], "out of range")


def commands() -> dict[str, list[str | None]]:
    """Every command, with the subcommands that add options of their own."""
    from lumina.bench import BENCHMARKS
    return {"publish": [None], "verify": [None], "generate": [None], "solve": [None],
            "vectors": [None], "playtest": [None, "simulate"],
            "bench": [name for name, _ in BENCHMARKS]}


# was test_hardening_round2.py::test_every_numeric_flag_is_range_checked
def test_every_numeric_flag_is_range_checked(monkeypatch, capsys):
    """Every option of every command that takes a number parses it with `cli.int_in`
    (a range), never a bare int or float."""
    seen: list[tuple[str, str]] = []
    real = argparse.ArgumentParser.add_argument

    def recording(self, *names, **kw):
        t = kw.get("type")
        if t in (int, float):
            seen.append((self.prog, "/".join(names)))
        return real(self, *names, **kw)
    monkeypatch.setattr(argparse.ArgumentParser, "add_argument", recording)
    for command, subs in commands().items():
        for sub in subs:
            assert cli.guarded(command_main(command), ([sub] if sub else []) + ["--help"]) == 0
    capsys.readouterr()
    assert seen == [], f"numeric flags without a range: {seen}"


# ------------------------------------------------------------------ Ctrl-C at start-up

# A `sitecustomize` on PYTHONPATH (the interpreter imports it before `-m` runs) puts a
# finder first on sys.meta_path: the first time module TRIGGER is looked for, it sends
# this process SIGINT and waits, so the interrupt lands inside that import, whatever
# the command imports lazily. Python's own handler there is a KeyboardInterrupt
# traceback; a lost interrupt is the SystemExit line. Nothing is read from `filelock`
# or any other module's import order: lumina.model is the package's first import
# (lumina/__init__.py), lumina.cli the command module's (every command's `run`).
_INTERRUPT_AT_IMPORT = """\
import os, signal, sys, time

class _InterruptAt:
    done = False

    def find_spec(self, name, path=None, target=None):
        if name == {trigger!r} and not self.done:
            self.done = True
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(10)
            raise SystemExit("the interrupt was lost")
        return None

sys.meta_path.insert(0, _InterruptAt())
"""


# was test_hardening_round2.py::test_ctrl_c_during_start_up_imports_is_one_line (class 11)
@pytest.mark.parametrize("trigger", ["lumina.model", "lumina.cli"])
@pytest.mark.parametrize("command", ["publish", "verify", "generate", "solve", "bench", "vectors", "playtest"])
def test_ctrl_c_during_start_up_imports_is_one_line(tmp_path, command, trigger):
    """Ctrl-C during the start-up imports printed a 15-25-line traceback. Here the
    interrupt lands deterministically inside the import of `trigger` (see
    `_INTERRUPT_AT_IMPORT`): in the package's imports and in the command's own. A real
    process: the start-up of one is the point."""
    (tmp_path / "sitecustomize.py").write_text(_INTERRUPT_AT_IMPORT.format(trigger=trigger))
    proc = run_process(f"lumina.{command}", "--help", pythonpath=f"{tmp_path}{os.pathsep}{ROOT}", timeout=60)
    assert proc.returncode == 130, proc.stderr[-2000:]
    assert proc.stderr == f"lumina.{command}: interrupted\n", proc.stderr[-2000:]
    assert proc.stdout == ""
