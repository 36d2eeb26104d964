"""Ctrl-C while a command starts: one line and exit 130, never an import traceback.

`python -m lumina.<command>` imports the package first (`sys.argv[0]` is "-m" while
it does), so `lumina/__init__.py` installs `interrupted` as the SIGINT handler before
any other import. The command's own error boundary (`lumina.cli.guarded`) puts
Python's handler back as soon as the command runs, so an interrupt from then on
unwinds normally (pools torn down, units finished) before the same line is printed.
Only the standard library is imported here: this must run before anything slow.
"""
from __future__ import annotations

import os
import signal
import sys


def command() -> str:
    """The running command's name, as `python -m` was given it (`lumina.generate`)."""
    argv = getattr(sys, "orig_argv", [])
    if "-m" in argv[:-1]:
        return argv[argv.index("-m") + 1]
    return "lumina"


def interrupted(signum: int, frame: object) -> None:
    """The start-up SIGINT handler: one line on stderr, exit 130 at once (nothing has
    been written yet)."""
    try:
        os.write(2, f"{command()}: interrupted\n".encode("utf-8", "backslashreplace"))
    finally:
        os._exit(130)


def quiet_interrupt() -> None:
    """Install `interrupted` unless a handler other than Python's default is set."""
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, interrupted)
    except (ValueError, OSError):      # not the main thread: nothing to do
        pass


def restore() -> None:
    """Python's own SIGINT handler again, if `interrupted` is installed."""
    try:
        if signal.getsignal(signal.SIGINT) is interrupted:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    except (ValueError, OSError):
        pass
