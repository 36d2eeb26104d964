"""A simulated playtester: a seeded model of a human solver, playing through the real rules.

Model `biased-walk/1`, after Jarušek and Pelánek's models of human problem solving
(a random walk over the state space, biased toward the goal): the player does not
search; at each position they pick one of the legal moves at random, each weighted
by how much closer it looks to a win. "Closer" is the position's true moves to the
nearest win (`lumina.engine.distances`), which stands for the player's sense of
progress; their skill is how strongly they follow it.

    weight(move) = exp(skill * clip(d(here) - d(there), -2, 2)) * (revisit if remembered)

    d(there) = 3 -> weight e^(+skill)      the move that gets closer
    d(there) = 4 -> weight 1               a sideways move
    d(there) = 5 -> weight e^(-skill)      a move away (d(here) = 4)

- A trap (no win reachable) looks like a position two moves further away, so
  players do fall in; inside one, every move looks alike.
- Memory: the last `memory` positions are remembered, and a move back to one is
  weighted by `revisit` (forgetting: older positions are not avoided).
- Undo: after a move away from the win the player undoes it with chance `undo_bad`;
  in a trap, with chance `undo_trap` per action; an undo is redone (second thoughts)
  with chance `redo`.
- Stuck: `stuck_after` actions without reaching a position closer to the win than
  any before. A stuck player asks for a hint (chance `hint` per action; the hint's
  optimal move is then played), plays a solution step after twice as long (chance
  `solution`), or, when lost (in a trap, or LOST moves further from the win than the
  closest position it reached), resets (chance `reset`).
- Patience: an attempt ends by leaving after a budget of actions (every move, undo,
  redo, reset and hint counts): (`patience_moves` + `patience_per_par` * par) * the
  player's patience * a lognormal factor per attempt. A player who left retries with
  chance `retry_after_leave`, one who won with fewer than three stars with chance
  `retry_for_stars`, at most `max_attempts` attempts a level.
- Time: each action takes a lognormal time whose median follows the Hick-Hyman law,
  `think_ms + think_per_bit * log2(legal moves)`, times the player's speed; the first
  look at a level adds `first_look_ms`; undo, redo and a hinted move take half.
- Players differ: skill, speed and patience are lognormal per player around the
  medians below. Every random draw comes from `random.Random` seeded with the seed,
  the player and the level, so one player's play does not depend on which other
  players or levels were simulated.
"""
from __future__ import annotations

import json
import math
import random
from collections import deque
from dataclasses import asdict, dataclass
from typing import Iterable, Iterator

from lumina import sitedata
from lumina.engine import distances

from . import schema
from .replay import Entry

MODEL = "biased-walk/1"
LOST = 3


@dataclass(frozen=True, kw_only=True)
class Params:
    """The model's parameters (see the module docstring)."""
    skill: float = 1.1               # median skill over players
    skill_spread: float = 0.45       # sigma of log skill
    speed_spread: float = 0.3        # sigma of log speed (1 = the median player)
    patience_spread: float = 0.35    # sigma of log patience, per player
    memory: int = 6
    revisit: float = 0.35
    undo_bad: float = 0.3
    undo_trap: float = 0.6
    redo: float = 0.08
    stuck_after: int = 12
    hint: float = 0.05
    solution: float = 0.015
    reset: float = 0.03
    patience_moves: int = 30
    patience_per_par: float = 3.5
    patience_attempt_spread: float = 0.3
    retry_after_leave: float = 0.3
    retry_for_stars: float = 0.25
    max_attempts: int = 3
    think_ms: float = 1500.0
    think_per_bit: float = 500.0
    think_spread: float = 0.6
    first_look_ms: float = 4000.0


@dataclass(frozen=True, kw_only=True)
class Player:
    id: str
    skill: float
    speed: float
    patience: float


def player_id(seed: int, n: int) -> str:
    return f"sim-{seed}-{n:05d}"


def player(seed: int, n: int, prm: Params) -> Player:
    """Simulated player number `n` (its traits drawn from the seed and n alone)."""
    rng = random.Random(f"player:{seed}:{n}")
    return Player(id=player_id(seed, n), skill=prm.skill * rng.lognormvariate(0, prm.skill_spread),
                  speed=rng.lognormvariate(0, prm.speed_spread),
                  patience=rng.lognormvariate(0, prm.patience_spread))


class _Level:
    """A level's distances and the legal moves of positions met, shared by all players."""

    def __init__(self, entry: Entry):
        self.entry = entry
        self.board = entry.board
        self.dist = distances(entry.board)
        self.far = max(self.dist.values()) + 1
        self.succ: dict[int, tuple[list, list, list]] = {}

    def d(self, state: int) -> int:
        v = self.dist[state]
        return self.far if v < 0 else v

    def options(self, s: int) -> tuple[list, list, list]:
        """(legal moves, resulting positions, their true distances; -1 for traps)."""
        o = self.succ.get(s)
        if o is None:
            if len(self.succ) > 200_000:
                self.succ.clear()
            moves = self.board.moves(s)
            nxt = [self.board.apply(s, m) for m in moves]
            o = (moves, nxt, [self.dist[t] for t in nxt])
            self.succ[s] = o
        return o


def _attempt(lm: _Level, rng: random.Random, pl: Player, n: int, prm: Params,
             out: list[dict]) -> tuple[str, int]:
    """One attempt, its records appended to `out`; returns (outcome, stars)."""
    e = lm.entry
    par = e.level.optimal or 0
    out.append({"attempt": n, "type": "start", "level": e.level.id, "generator": e.generator,
                "board": e.desc})
    s0 = lm.board.start
    hist, redo = [s0], []
    recent: deque[int] = deque(maxlen=prm.memory)
    helped = False
    best, stuck, actions = lm.d(s0), 0, 0
    budget = max(1, round((prm.patience_moves + prm.patience_per_par * par) * pl.patience
                          * rng.lognormvariate(0, prm.patience_attempt_spread)))
    wait = prm.first_look_ms * pl.speed
    last_worse = False

    def think(choices: int, factor: float = 1.0) -> int:
        nonlocal wait
        median = (prm.think_ms + prm.think_per_bit * math.log2(max(choices, 1))) * pl.speed
        ms = wait + factor * median * rng.lognormvariate(0, prm.think_spread)
        wait = 0.0
        return min(schema.MAX_MS, round(ms))

    def move(m: tuple[int, int], nxt: int, ms: int) -> None:
        nonlocal best, stuck, last_worse
        out.append({"attempt": n, "type": "move", "block": m[0], "distance": m[1], "ms": ms})
        last_worse = lm.d(nxt) > lm.d(hist[-1])
        recent.append(hist[-1])
        hist.append(nxt)
        redo.clear()
        if lm.d(nxt) < best:
            best, stuck = lm.d(nxt), 0

    while True:
        here = hist[-1]
        if lm.dist[here] == 0:
            moves = len(hist) - 1
            stars = sitedata.stars(moves, par, helped)
            out.append({"attempt": n, "type": "win", "moves": moves, "stars": stars,
                        "helped": helped, "ms": think(1, 0.2)})
            return "win", stars
        moves, nxt, ds = lm.options(here)
        if actions >= budget or (not moves and len(hist) == 1):
            out.append({"attempt": n, "type": "leave", "ms": think(len(moves))})
            return "leave", 0
        actions += 1
        stuck += 1
        r = rng.random()
        trapped = lm.dist[here] < 0
        if len(hist) > 1 and (not moves or (trapped and r < prm.undo_trap)
                              or (last_worse and r < prm.undo_bad)):
            out.append({"attempt": n, "type": "undo", "ms": think(len(moves), 0.5)})
            redo.append(hist.pop())
            last_worse = False
            if rng.random() < prm.redo:
                hist.append(redo.pop())
                out.append({"attempt": n, "type": "redo", "ms": think(1, 0.5)})
            continue
        if stuck >= prm.stuck_after and not trapped:
            if stuck >= 2 * prm.stuck_after and r < prm.solution:
                kind = "solution"
            elif r < prm.hint:
                kind = "hint"
            else:
                kind = ""
            if kind:
                best_i = min(range(len(moves)), key=lambda i: (ds[i] < 0, ds[i], moves[i]))
                out.append({"attempt": n, "type": kind, "ms": think(len(moves))})
                helped = True
                move(moves[best_i], nxt[best_i], think(1, 0.5))
                continue
        if stuck >= prm.stuck_after and lm.d(here) >= best + LOST and len(hist) > 1 and r < prm.reset:
            out.append({"attempt": n, "type": "reset", "ms": think(len(moves))})
            hist, helped, last_worse = [s0], False, False
            redo.clear()
            continue
        dh = lm.d(here)
        weights = [math.exp(pl.skill * max(-2, min(2, dh - (lm.far if d < 0 else d))))
                   * (prm.revisit if t in recent else 1.0) for t, d in zip(nxt, ds)]
        i = rng.choices(range(len(moves)), weights)[0]
        move(moves[i], nxt[i], think(len(moves)))


def play(lm: _Level, pl: Player, seed: int, first_attempt: int, prm: Params) -> list[dict]:
    """A player's attempts at one level (numbered from `first_attempt`)."""
    rng = random.Random(f"play:{seed}:{pl.id}:{lm.entry.level.id}")
    out: list[dict] = []
    n = first_attempt
    for k in range(prm.max_attempts):
        outcome, stars = _attempt(lm, rng, pl, n, prm, out)
        n += 1
        again = prm.retry_after_leave if outcome == "leave" else prm.retry_for_stars if stars < 3 else 0.0
        if k + 1 == prm.max_attempts or rng.random() >= again:
            break
    return out


BATCH_BYTES = 4 << 20         # the log text a batch of players holds in memory, about
FIRST_BATCH = 8               # players in the first batch, which measures a player's bytes


def simulate(entries: Iterable[Entry], *, players: int, seed: int, first_player: int = 1,
             params: Params | None = None, batch_bytes: int = BATCH_BYTES) -> Iterator[str]:
    """Play every level of `entries` (in order) with players first_player ..
    first_player + players - 1; yield the log's lines, one section per player.

    Streamed in batches of players: a batch plays level after level (one level's
    distances in memory at a time), then its sections are yielded; the first batch
    (FIRST_BATCH players) measures a player's bytes, and later batches hold about
    `batch_bytes` of log. So memory is bounded whatever `players` is, and a consumer
    that stops (the play-log bound) stops the simulation within one batch. Every
    player's lines depend on the seed, the player and the level alone, so batching
    never changes the log."""
    prm = params or Params()
    entries = list(entries)
    note = f"model {MODEL}, seed {seed}"
    n, end, per_player = first_player, first_player + players, 0
    while n < end:
        k = min(end - n, FIRST_BATCH if not per_player else max(1, batch_bytes // per_player))
        team = [player(seed, i, prm) for i in range(n, n + k)]
        logs: list[list[str]] = [[] for _ in team]
        counts = [1] * k
        for entry in entries:
            lm = _Level(entry)
            for j, pl in enumerate(team):
                recs = play(lm, pl, seed, counts[j], prm)
                counts[j] = recs[-1]["attempt"] + 1
                logs[j].extend(json.dumps(r, separators=(",", ":")) for r in recs)
            del lm
        per_player = max(per_player, 1, sum(len(x) + 1 for lines in logs for x in lines) // k)
        for pl, lines in zip(team, logs):
            yield json.dumps(schema.header_json(pl.id, "simulator", note), separators=(",", ":"))
            yield from lines
        n += k


def least_bytes(entries: Iterable[Entry], *, players: int, seed: int, first_player: int = 1) -> int:
    """A lower bound on the bytes of `simulate`'s log: every player's header, and per
    level at least a start and one end (a leave). `simulate --out` refuses at once a
    request whose least size is over the play-log bound."""
    note = f"model {MODEL}, seed {seed}"
    head = len(json.dumps(schema.header_json(player_id(seed, first_player), "simulator", note),
                          separators=(",", ":"))) + 1
    per_level = sum(len(json.dumps({"attempt": 1, "type": "start", "level": e.level.id,
                                    "generator": e.generator, "board": e.desc},
                                   separators=(",", ":"))) + 1
                    + len('{"attempt":1,"type":"leave","ms":0}') + 1 for e in entries)
    return players * (head + per_level)


def describe(params: Params | None = None) -> dict:
    """The model's name and parameters (for `simulate --describe` and the docs)."""
    return {"model": MODEL, **asdict(params or Params())}
