"""Lumina: generate, prove, verify and publish sliding-block puzzles.

The solver and the measures live in `lumina.engine` (`from lumina.engine import solve,
measure`). They are not re-exported here: `lumina.solve` is the solver's command-line
module (`python -m lumina.solve`), and importing it would shadow a `lumina.solve` function.
"""
from __future__ import annotations

import sys as _sys

if _sys.argv[:1] == ["-m"]:     # `python -m lumina.<command>` is importing its package:
    from lumina._startup import quiet_interrupt as _quiet_interrupt
    _quiet_interrupt()           # Ctrl-C during the imports is one line, exit 130

from lumina.model import Analysis, Beam, Block, Exit, Level, LevelError, Mirror
from lumina.engine import Board, Outcome, Solution

__version__ = "1.0.0"
__all__ = ["Analysis", "Beam", "Block", "Board", "Exit", "Level", "LevelError", "Mirror",
           "Outcome", "Solution"]
