"""The one kind of error a user can act on: its message is the whole story.

Modules that do the work (the campaign reader, the generator's jobs, the executor, the
engine's loader) raise subclasses of `LuminaError`, each message one line naming the
file, level or field at fault, or the fix; they never depend on the command line. The
command-line boundary (`lumina.cli`) prints such a message as it is and exits 2.
"""
from __future__ import annotations


class LuminaError(Exception):
    """A failure the user can fix (bad input, a missing file, an unbuilt engine, an
    unreachable cluster); `str(e)` is the one-line message."""
