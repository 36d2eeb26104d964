"""Lumina: generate, prove, verify and publish sliding-block puzzles.

The solver and the measures live in `lumina.engine` (`from lumina.engine import solve,
measure`). They are not re-exported here: `lumina.solve` is the solver's command-line
module (`python -m lumina.solve`), and importing it would shadow a `lumina.solve` function.
"""
from __future__ import annotations

from lumina.model import Analysis, Beam, Block, Exit, Level, LevelError, Mirror
from lumina.engine import Board, Outcome, Solution

__version__ = "1.0.0"
__all__ = ["Analysis", "Beam", "Block", "Board", "Exit", "Level", "LevelError", "Mirror",
           "Outcome", "Solution"]
