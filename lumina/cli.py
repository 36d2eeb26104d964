"""Shared command-line plumbing: the one error boundary of every Lumina CLI.

`run(main)` is every entry point's `__main__`: whatever goes wrong ends in ONE line
on stderr (under `MAX_LINE` characters, control characters escaped, long values
shortened) and exit 2; never a traceback. Exit 1 stays free for "levels failed"
(verify, publish). `ArgumentParser` makes a mistyped flag one line too, and
`int_in` range-checks integer options (so `--state-cap 1e20` is a message, not an
OverflowError). Ctrl-C is `prog: interrupted` and exit 130, also while a command is
still importing (`lumina._startup`). Set LUMINA_DEBUG=1 to see the traceback of an
internal error.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import traceback
from typing import Callable, NoReturn, Sequence

from lumina import _startup
from lumina.model import LevelError, escape_text
from lumina.packfile import PackError
from lumina.errors import LuminaError
from lumina.safeio import OutputError

MAX_LINE = 499
# A word is cut only past 200 characters, so a file's path (CI's deep pytest tmp paths run
# to ~100, a test's own folders under them to ~200) is always printed whole: an error that
# names a file names it exactly, and the line has room for the path and its sentence.
_LONG_WORD = re.compile(r"\S{201,}")


class UsageError(ValueError):
    """Bad command-line input (a message for the user, not a traceback)."""


INPUT_ERRORS: tuple[type[BaseException], ...] = (LevelError, PackError, UsageError, OutputError,
                                                 LuminaError)


def _cut_word(m: re.Match) -> str:
    return f"{m.group()[:140]}...{m.group()[-57:]}"


def one_line(text: str, limit: int = MAX_LINE) -> str:
    """`text` as one safe line: non-printable characters escaped (`escape_text`), any
    word over 200 characters cut in the middle, the whole at most `limit` characters."""
    text = _LONG_WORD.sub(_cut_word, str(text)[:100 * limit])
    text = _LONG_WORD.sub(_cut_word, escape_text(text))
    return text if len(text) <= limit else text[:limit - 3] + "..."


def describe(e: BaseException) -> str:
    """The one-line message for any exception reaching the boundary."""
    if isinstance(e, INPUT_ERRORS) or type(e).__name__ == "SiteError":
        return str(e) or type(e).__name__
    if isinstance(e, MemoryError):
        return "out of memory (is the input far larger than a real pack?)"
    if isinstance(e, RecursionError):
        return "input nested too deeply"
    if isinstance(e, OSError):
        where = f"{e.filename}: " if e.filename else ""
        return f"{where}{e.strerror or e}"
    if isinstance(e, (OverflowError, UnicodeError)):
        return f"bad input: {type(e).__name__}: {e}"
    return (f"internal error ({type(e).__name__}: {e}); please report it "
            "(LUMINA_DEBUG=1 shows the traceback)")


def fail(prog: str, e: BaseException) -> None:
    """Print the one line for `e` on stderr."""
    if os.environ.get("LUMINA_DEBUG"):
        traceback.print_exception(e)
    try:
        print(one_line(f"{prog}: error: {describe(e)}"), file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _safe_streams() -> None:
    """Unencodable text (a lone surrogate) is escaped rather than fatal when printed."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):
            pass


def _quiet_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the exit flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def guarded(main: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None = None,
            prog: str | None = None) -> int:
    """Call `main(argv)` behind the boundary and return the exit code (no sys.exit:
    tests and the fuzz test call this in-process)."""
    if prog is None:
        prog = main.__module__
        if prog == "__main__":          # python -m lumina.solve: argv[0] is .../lumina/solve.py
            stem = os.path.splitext(os.path.basename(sys.argv[0] or ""))[0]
            prog = "lumina" if stem in ("", "__main__", "-c") else f"lumina.{stem}"
    _safe_streams()
    _startup.restore()          # from here, Ctrl-C unwinds through the command
    try:
        code = main(argv)
        sys.stdout.flush()
        return code if isinstance(code, int) else 0
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except Exception as e:      # the boundary: every error is one line and exit 2
        fail(prog, e)
        return 2


def run(main: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None = None) -> NoReturn:
    """Run a CLI entry point and exit with its code (see `guarded`)."""
    sys.exit(guarded(main, argv))


class ArgumentParser(argparse.ArgumentParser):
    """argparse, except that a usage mistake is one line (UsageError), not usage + error."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def int_in(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: an integer in [lo, hi]. Accepts 1e6-style whole numbers."""
    def parse(text: str) -> int:
        t = text.strip().replace("_", "")
        try:
            if re.fullmatch(r"[+-]?[0-9]{1,30}", t, re.ASCII):
                value = int(t)
            elif re.fullmatch(r"[+-]?[0-9]{1,20}(\.[0-9]*)?[eE][+-]?[0-9]{1,4}", t, re.ASCII):
                f = float(t)
                if f != f or f in (float("inf"), float("-inf")) or f != int(f):
                    raise ValueError
                value = int(f)
            else:
                raise ValueError
        except (ValueError, OverflowError):
            raise argparse.ArgumentTypeError(f"{one_line(repr(text), 60)} is not a whole number") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{one_line(text, 60)} is out of range {lo}..{hi}")
        return value
    parse.__name__ = "integer"
    return parse
