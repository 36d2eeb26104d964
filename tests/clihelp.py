"""The one way a test runs a Lumina command, and the error contract it checks.

`run_cli("solve", "level.json")` runs `python -m lumina.solve level.json` in this
process, behind the same error boundary `python -m` uses (`lumina.cli.guarded`):
stdout and stderr captured, warnings shown on that stderr as a fresh interpreter
shows them (not swallowed by pytest), and the exit code returned. No interpreter
starts, so an error contract costs milliseconds instead of a second.

`run_process` is for the tests where a real process is the point: signals, a FIFO
or /dev/zero that a regression would block on or read forever (a time and memory
limit turn a hang into a failure), strace, Ctrl-C during the start-up imports, two
runs racing for a lock, Dask's own output on the real stderr.

`exit_2(result, *words)` is the contract of bad input: exit 2, one line on stderr
(progress lines of publish aside), under 300 characters, no traceback, no
"internal error", no warning, holding every word.
"""
from __future__ import annotations

import contextlib
import dataclasses
import importlib
import io
import os
import resource
import shutil
import signal
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Callable, Iterator, Sequence

from lumina import cli

ROOT = Path(__file__).resolve().parents[1]
PACKS = ROOT / "packs"
FIXTURES = ROOT / "tests" / "fixtures" / "packs"
MEMORY_LIMIT = 1 << 30            # 1 GB for a real process: the fixed code needs a fraction


@dataclasses.dataclass(frozen=True)
class Ran:
    """A command's exit code and output (the names of subprocess.CompletedProcess)."""
    returncode: int
    stdout: str
    stderr: str


def command_main(command: str) -> Callable[[Sequence[str] | None], int]:
    """`python -m lumina.COMMAND`'s main, as `python -m` finds it ("lumina" for the
    package's own `python -m lumina`)."""
    name = "lumina" if command == "lumina" else f"lumina.{command}"
    try:
        return importlib.import_module(f"{name}.__main__").main
    except ModuleNotFoundError:
        return importlib.import_module(name).main


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


@contextlib.contextmanager
def _as_a_fresh_interpreter(env: dict[str, str] | None, cwd: Path | None) -> Iterator[None]:
    """Warnings filtered and shown as `python -m` would (on sys.stderr), `env` set
    and `cwd` the working folder, all restored afterwards."""
    saved = dict(os.environ)
    here = os.getcwd()
    with warnings.catch_warnings():
        warnings.resetwarnings()                  # a fresh interpreter's default filters
        for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning,
                         ResourceWarning):
            warnings.simplefilter("ignore", category)
        warnings.showwarning = _show_warning
        try:
            os.environ.pop("LUMINA_DEBUG", None)
            os.environ.update(env or {})
            if cwd is not None:
                os.chdir(cwd)
            yield
        finally:
            os.chdir(here)
            os.environ.clear()
            os.environ.update(saved)


def run_cli(command: str, *args: str | Path, env: dict[str, str] | None = None,
            cwd: Path | None = ROOT, main: Callable | None = None) -> Ran:
    """`python -m lumina.COMMAND ARGS` in this process, through the CLI's one error
    boundary; `env` added to the environment, `cwd` the working folder. `main` is the
    command's main with its seams passed (`functools.partial(publish.main, verify=...)`)."""
    out, err = io.StringIO(), io.StringIO()
    with _as_a_fresh_interpreter(env, cwd), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        main = main or command_main(command)
        code = cli.guarded(main, [str(a) for a in args],
                           prog="lumina" if command == "lumina" else f"lumina.{command}")
    return Ran(code, out.getvalue(), err.getvalue())


def as_from_a_shell() -> None:
    """In a child before it runs: Ctrl-C at its default, as a shell's foreground command
    has it. A suite started in the background (`pytest &`, nohup) ignores SIGINT, and
    an ignored SIGINT is inherited: the Ctrl-C tests would then test nothing real."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _limit_memory() -> None:
    as_from_a_shell()
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_process(*args: str, timeout: float = 120, env: dict[str, str] | None = None,
                pythonpath: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`python -m ARGS` in a fresh interpreter with a time and a memory limit (a hang
    or a runaway read fails the test instead of the suite)."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    if pythonpath:
        full_env["PYTHONPATH"] = pythonpath
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env=full_env, preexec_fn=_limit_memory,
                          errors="backslashreplace")


def one_line(err: str, *words: str, skip: tuple[str, ...] = ("publish: verif",)) -> str:
    """The one error line of `err` (progress lines starting with `skip` aside), holding
    every word: no traceback, no warning, no internal error, under 300 characters."""
    assert "Traceback" not in err and "Warning" not in err, err[-3000:]
    lines = [ln for ln in err.splitlines() if ln and not ln.startswith(skip)]
    assert len(lines) == 1, err[-3000:]
    assert len(lines[0]) <= cli.MAX_LINE and "internal error" not in lines[0], lines[0][:400]
    for w in words:
        assert w.lower() in lines[0].lower(), (w, lines[0])
    return lines[0]


def exit_2(ran: Ran | subprocess.CompletedProcess, *words: str,
           skip: tuple[str, ...] = ("publish: verif",)) -> str:
    """Assert the contract of bad input on a finished command; return its line."""
    assert ran.returncode == 2, (ran.returncode, ran.stderr[-3000:])
    return one_line(ran.stderr, *words, skip=skip)


def copy_packs(src: Path, dst: Path) -> Path:
    """A copy of a packs folder (its generating scripts left out)."""
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*.py"))
    return dst


def tree(root: Path) -> dict[str, bytes]:
    """Every file under `root` by relative path: its bytes."""
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def passing_verify(packs, campaign=None):
    """A verifier (publish's `verify=` seam) that passes whatever it is given: for
    tests of what publish does after verifying, on packs too small for the campaign."""
    from lumina.verify import VerifyReport
    return VerifyReport(ok=True, lines=[], packs=[], gates={})


def publish_unverified_process(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """`python -m lumina.publish ARGS` in a real process, with a verifier that passes
    (publish's `verify=` seam; this module's `__main__`): for what publish reads after
    verifying (reports, strategies.json) on the small fixture packs, where a FIFO or
    /dev/zero must fail within a time and memory limit, or under strace."""
    return run_process("clihelp", *map(str, args), timeout=timeout,
                       pythonpath=os.pathsep.join([str(ROOT / "tests"), str(ROOT)]))


if __name__ == "__main__":                  # python -m clihelp ARGS: see publish_unverified_process
    import functools
    from lumina import publish
    sys.exit(cli.guarded(functools.partial(publish.main, verify=passing_verify), sys.argv[1:],
                         prog="lumina.publish"))
