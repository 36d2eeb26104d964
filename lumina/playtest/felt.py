"""Felt difficulty: a seeded simulated player that knows only what a person sees.

Model `board-only/1`, after Jarušek and Pelánek ("Difficulty rating of Sokoban
puzzle", "Modeling and predicting the difficulty of Rush Hour"): par is the proof of
how short a solution can be, not what a player feels. This player never knows a
distance to the win (`lumina.playtest.simulate` does; this one must not). It plays
the real rules (the compiled `Board`'s moves: sand, ice, rime and the beam included)
and, at each position:

- scores what the board shows: on an exit level, 1 for the key's own slide plus, per
  piece on the key's path to the lantern, 1 and the pieces in its least way out of
  that path (a spent sand block, or one walled in both ways, counts FAR = 4; a frozen
  rime block one more: it waits for the key's touch); on a beam level, what stops
  the light (a block: 2 and its way out; a wall or the wrong edge: 2-3);
- judges each legal move by the position it leads to, looking `depth` moves ahead
  (the best score it can see within them, half a point more per move beyond the
  first; a win one move away is always taken);
- avoids the last `memory` positions (`revisit` half points more);
- picks among the moves at random, weighted `weights[d]` by how much worse (d half
  points) each looks than the best: a person mostly, not always, takes the move that
  looks best;
- starts again after `patience` actions without beating its best score.

A run ends at the win or after `budget` actions (moves and restarts). `effort` is
the actions spent per win over `runs` runs (all actions of all runs, winning or not,
over the wins; with no win, over half a win): the expected work to solve the level
for a player who keeps trying, which keeps ranking the levels a run rarely wins.
`success` is the share of runs that win. Seeded by `seed` and the level's desc (not its
id), so the same board gets the same figures in any pack; integer weights and a
splitmix64 stream make it byte-identical on every machine. The inner loop is Cython
(`lumina/engine/felt.pyx`): 14-26 ms a board on the committed packs
(docs/RULES-DECISIONS.md 50).
"""
from __future__ import annotations

import math
import zlib
from dataclasses import asdict, dataclass

MODEL = "board-only/1"


@dataclass(frozen=True, kw_only=True)
class Params:
    """The model's parameters (see the module docstring)."""
    runs: int = 8
    budget: int = 2000
    depth: int = 1
    memory: int = 64
    revisit: int = 12               # half points
    patience: int = 80
    temperature: float = 0.5        # points of score per e-fold of a move's weight


@dataclass(frozen=True)
class Felt:
    """A level's felt difficulty: `effort`, the board-only player's actions per win, and
    `success`, its share of runs that win."""
    effort: float
    success: float


def weights(prm: Params) -> list[int]:
    """Integer weights by how many half points worse a move looks than the best one."""
    return [max(1, round(1_000_000 * math.exp(-d / 2 / prm.temperature))) if d < 24 else 0
            for d in range(48)]


def felt(level, *, seed: int = 0, params: Params | None = None) -> Felt:
    """The felt difficulty of `level` (a Level, or a compiled Board): deterministic for
    a seed and the board's desc."""
    from lumina.engine import Board
    prm = params or Params()
    board = level if isinstance(level, Board) else Board(level)
    key = zlib.crc32(board.level.desc().encode()) ^ (seed * 0x9E3779B1 & 0xFFFFFFFF)
    from lumina.engine import felt as kernel
    actions, wins = kernel.play(board, key, prm.runs, prm.budget, prm.depth, prm.memory,
                                prm.revisit, prm.patience, weights(prm))
    return Felt(effort=round(sum(actions) / (wins or 0.5), 1), success=round(wins / prm.runs, 4))


def describe(params: Params | None = None) -> dict:
    """The model's name and parameters (for the playtest report and the docs)."""
    return {"model": MODEL, **asdict(params or Params())}
