"""Shared command-line plumbing: bad input is one short line on stderr and exit 2."""
from __future__ import annotations

import sys
from typing import Callable, Sequence

from lumina.model import LevelError
from lumina.packfile import PackError


class UsageError(ValueError):
    """Bad command-line input (a message for the user, not a traceback)."""


def run(main: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None = None) -> None:
    """Run a CLI entry point; input errors exit 2 with one line and no traceback."""
    try:
        code = main(argv)
    except (LevelError, PackError, UsageError) as e:
        print(f"error: {e}", file=sys.stderr)
        code = 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        code = 130
    except BrokenPipeError:
        code = 0
    sys.exit(code)
