"""Every attempt replayed on its level with the real rules, before it counts.

A log is the player's word; the packs are the truth. `Book` holds the levels of
the packs (and each pack's generator version). `replay(attempt, book)` plays the
attempt's records on the compiled engine's `Board`, from the level's start (or
the start's `from` line), the way the site's board keeps its history:

    move      must be legal here (Board.apply); clears the redo stack
    undo      steps back one move (there must be one); the move goes on the redo stack
    redo      plays the last undone move again (there must be one)
    reset     back to the level's start; history, redo stack and help cleared
    hint      help: this attempt's win earns at most the help cap
    solution  help, and the solution's move follows as a `move` record
    win       the position must be solved, `moves` the board's count, `stars` the
              star rule's (lumina.sitedata.stars) for that count, `helped` as played
    leave     the player left the page unfinished

A move that reaches the win must be followed by the `win` record. Anything else is
a `Problem` naming the file and line, and the attempt is left out of the report:
a log whose moves are illegal for its level is reported, not trusted. Attempts
recorded on another generator version or board than the packs hold are left out
the same way (their level ids name different puzzles).

While replaying, each record's `ms` (time since the previous action) is charged to
the position the player was looking at, and each undo to the position undone from:
`Played.positions` holds (state, ms, undos) per position met.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable

from lumina import sitedata
from lumina.engine import Board
from lumina.model import Level
from lumina.packfile import pack_files, read_pack

from .reader import Problem, RawAttempt

OUTCOMES = ("win", "leave", "open")


@dataclass(frozen=True, kw_only=True)
class Entry:
    """A level of the packs, as the report needs it."""
    level: Level
    board: Board
    desc: str
    generator: str
    pack: str                      # the pack's name (World 1's "Willow Hollow", "Daily pool")
    world: int | None              # the pack's world number; None for the daily pool
    number: int                    # its place in the pack, from 1


class Book:
    """The levels of some packs by id (`pack_files` order; a later pack never replaces
    an earlier level)."""

    def __init__(self, paths: Iterable[str | os.PathLike]):
        self.entries: dict[str, Entry] = {}
        self.packs: list[str] = []
        for path in pack_files(paths):
            pack = read_pack(path)
            self.packs.append(str(path))
            world = pack.meta.get("world")
            for i, lv in enumerate(pack.levels, 1):
                if lv.id not in self.entries:
                    self.entries[lv.id] = Entry(
                        level=lv, board=Board(lv), desc=lv.desc(), pack=pack.name,
                        generator=str(pack.meta.get("generator", "")),
                        world=world if isinstance(world, int) and not isinstance(world, bool) else None,
                        number=i)

    def get(self, level_id: str) -> Entry | None:
        return self.entries.get(level_id)


@dataclass(frozen=True, kw_only=True, slots=True)
class Played:
    """One attempt that replayed cleanly."""
    player: str
    attempt: int
    level: str
    source: str
    outcome: str                   # win, leave or open (the log ends before either)
    moves: int                     # the board's move count at the end (at the win: its score)
    stars: int                     # 0 unless won
    helped: bool                   # help used since the last reset, at the end
    ms: int                        # the attempt's time, every record's ms summed
    counts: tuple[int, int, int, int, int, int]   # moves, undos, redos, resets, hints, solution steps
    positions: tuple[tuple[int, int, int], ...]   # (state, ms there, undos from there)


COUNTED = ("move", "undo", "redo", "reset", "hint", "solution")


def replay(att: RawAttempt, book: Book) -> Played | Problem:
    """`att` played on its level; a `Problem` (file, line, why) when it does not play."""
    st = att.start
    where = f"attempt {st.attempt} ({st.level})"

    def bad(line: int, what: str) -> Problem:
        return Problem(file=att.file, line=line, message=f"{where}: {what}")

    entry = book.get(st.level)
    if entry is None:
        return bad(att.line, "no level with this id in the packs; attempt left out")
    if st.generator != entry.generator:
        return bad(att.line, f"recorded on {st.generator or 'an unnamed generator'}, the packs are "
                   f"{entry.generator}: a different puzzle; attempt left out")
    if st.board != entry.desc:
        return bad(att.line, "its board is not the packs' board for this level; attempt left out")
    board, par = entry.board, entry.level.optimal
    s = board.start
    hist = [s]
    for k, m in enumerate(st.start_from):
        try:
            s = board.apply(s, m)
        except ValueError:
            return bad(att.line, f"from[{k}]: move {list(m)} is illegal in that position")
        hist.append(s)
    redo: list[int] = []
    helped = st.helped
    counts = dict.fromkeys(COUNTED, 0)
    ms_at: dict[int, int] = {}
    undo_at: dict[int, int] = {}
    total = stars = 0
    outcome = "open"
    pending_win = 0               # the line of a move that reached the win, until its win record
    for ev, line in zip(att.events, att.lines):
        here = hist[-1]
        ms_at[here] = ms_at.get(here, 0) + ev.ms
        total += ev.ms
        kind = ev.type
        if pending_win and kind != "win":
            return bad(line, f"a {kind} record after the move on line {pending_win} won, "
                       "instead of its win")
        if kind in counts:
            counts[kind] += 1
        if kind == "move":
            if board.is_solved(here):
                return bad(line, "a move in a position already won")
            try:
                nxt = board.apply(here, (ev.block, ev.distance))
            except ValueError:
                return bad(line, f"move [{ev.block}, {ev.distance}] is illegal in this position "
                           f"(move {len(hist)} of the board's count)")
            hist.append(nxt)
            redo.clear()
            if board.is_solved(nxt):
                pending_win = line
        elif kind == "undo":
            if len(hist) == 1:
                return bad(line, "an undo with no move to undo")
            undo_at[here] = undo_at.get(here, 0) + 1
            redo.append(hist.pop())
        elif kind == "redo":
            if not redo:
                return bad(line, "a redo with no undone move to play again")
            hist.append(redo.pop())
            if board.is_solved(hist[-1]):
                pending_win = line
        elif kind == "reset":
            hist = [board.start]
            redo.clear()
            helped = False
        elif kind in ("hint", "solution"):
            helped = True
        elif kind == "win":
            moves = len(hist) - 1
            if not board.is_solved(here):
                return bad(line, "a win in a position that is not solved")
            if ev.moves != moves:
                return bad(line, f"a win in {ev.moves} moves, but the board's count is {moves}")
            if ev.helped != helped:
                return bad(line, f"a win with helped {str(ev.helped).lower()}, but help was "
                           f"{'' if helped else 'not '}used since the last reset")
            earned = sitedata.stars(moves, par, helped) if par is not None else ev.stars
            if ev.stars != earned:
                return bad(line, f"a win claiming {ev.stars} stars; {moves} moves on par {par}"
                           f"{' with help' if helped else ''} earn {earned}")
            outcome, stars = "win", ev.stars
            pending_win = 0
        else:
            outcome = "leave"
    positions = tuple((p, ms_at.get(p, 0), undo_at.get(p, 0)) for p in sorted(ms_at))
    return Played(player=att.player, attempt=st.attempt, level=st.level, source=att.source,
                  outcome=outcome, moves=len(hist) - 1, stars=stars,
                  helped=helped, ms=total, counts=tuple(counts[k] for k in COUNTED),
                  positions=positions)

