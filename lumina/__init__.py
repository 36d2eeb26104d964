"""Lumina: generate, prove, verify and publish sliding-block puzzles."""
from __future__ import annotations

from lumina.model import Analysis, Beam, Block, Exit, Level, LevelError, Mirror
from lumina.engine import Board, Outcome, Solution, analyse, solve

__version__ = "1.0.0"
__all__ = ["Analysis", "Beam", "Block", "Board", "Exit", "Level", "LevelError", "Mirror",
           "Outcome", "Solution", "analyse", "solve"]
