"""`python -m lumina.solve`: solve any level with the BFS solver.

    python -m lumina.solve packs/world-1.json --level w1-07
    python -m lumina.solve level.json            # one level object or a whole pack
    python -m lumina.solve 6x6-R2-K0221C4112     # a level desc
    python -m lumina.solve ooooBoooooBoAAooBooooooooooooooooooo   # a Rush Hour board
    python -m lumina.solve --rush ../shared/reference/rush-sample.txt
    python -m lumina.solve packs/world-2.json --analyse [--json]
    python -m lumina.solve --rush ../shared/reference/rush-sample.txt --analyse --json

Per level it prints the outcome, the optimal move count, one optimal move list and
the states explored. `--rush FILE` prints one tab-separated line per board:
`board outcome optimal states`. Bad input: one line on stderr, exit 2.

`--analyse` prints the measures of difficulty of RULES.md "Quality" per level
(`lumina.engine.measure`): plans and raw optimal solutions (each exact up to its
cap), dead blocks, the chain, forced moves (along the stored solution, else the one
printed), crystal par, optional twist and dead twist blocks, the board's deepest
par, the label, optimal and legal first moves, component states and traps; with
`--json` one JSON line per level (keys: `ANALYSIS_KEYS`: every `Measures` field,
then the rest of the pack's analysis record, `lumina.model.Analysis`). Rush Hour
boards print moves and blocks with the board's own piece letters (`E+1 A+3`).
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
from typing import Sequence

from lumina.cli import ArgumentParser, UsageError, int_in, run
from lumina.desc import from_desc, from_rush_hour, rush_hour_letters
from lumina import schema
from lumina.engine import DEFAULT_STATE_CAP, Measures, Outcome, solve
from lumina.model import Analysis, Level, LevelError
from lumina.packfile import PackError, read_level_file, read_text

MAX_STATE_CAP = 2**31 - 1       # the engine's parent index is int32
#: What a Rush Hour board is written in (o or . empty, x a wall, letters the pieces): a text
#: of these, not a file, of the wrong length is named as a board of the wrong length.
RUSH_TEXT = re.compile(r"[o.xA-Z]+")
RUSH_MIN = 20


def legend(letters: Sequence[str] | None = None) -> str:
    """How to read the printed moves."""
    if letters is not None:
        return ("  (a move is the piece's letter and how far it slides: + right or down, "
                "- left or up; A+4 = piece A 4 cells right or down)")
    return ("  (a move is block:distance, blocks numbered from 0 in the level's list, the key "
            "among them: + right or down, - left or up; 1:-2 = block 1 two cells left or up)")


def read_rush_file(path: str) -> list[tuple[str, int | None, int | None]]:
    """(board, MM or None, CLUSTER or None) per non-blank line of a Rush Hour file."""
    text = read_text(path)
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        try:
            if len(parts) == 1:
                rows.append((parts[0], None, None))
            elif len(parts) == 3:
                rows.append((parts[1], int(parts[0]), int(parts[2])))
            else:
                raise ValueError
        except ValueError:
            raise PackError(f"{path}: line {n}: expected 'MM BOARD CLUSTER' or a bare "
                            "board") from None
    return rows


def _levels(source: str, level_id: str | None) -> list[Level]:
    if os.path.exists(source):
        return read_level_file(source, level_id)
    if len(source) == 36 and "A" in source:
        return [from_rush_hour(source)]
    if len(source) >= RUSH_MIN and RUSH_TEXT.fullmatch(source) and "A" in source:
        raise UsageError(f"{source}: a Rush Hour board is 36 characters (6 rows of 6), "
                         f"this one is {len(source)}")
    if source[:1].isdigit() and "x" in source[:3]:
        return [from_desc(source)]
    raise UsageError(f"{source}: no such file, and not a level desc or Rush Hour board")


def format_moves(moves: Sequence[tuple[int, int]], letters: Sequence[str] | None = None) -> str:
    """`0:+2 3:-1`, or with a Rush Hour board's piece letters `E+1 A+3`."""
    if letters is not None:
        return " ".join(f"{letters[b]}{d:+d}" for b, d in moves) or "(none: already solved)"
    return " ".join(f"{b}:{d:+d}" for b, d in moves) or "(none: already solved)"


def _analysis_keys() -> tuple[str, ...]:
    """The `--json` line's keys: the level's id, every `Measures` field, then every field
    of the pack's analysis record (`lumina.model.Analysis`, its one declaration) the
    engine does not measure itself (the label, the dead share, the family)."""
    measured = tuple(f.name for f in dataclasses.fields(Measures))
    return ("level", *measured, *(k for k in schema.names(Analysis) if k not in measured))


ANALYSIS_KEYS = _analysis_keys()


def analysis_record(level: Level, m, board: str | None = None) -> dict:
    """One `--analyse --json` line: `ANALYSIS_KEYS` from a `Measures` and the pack's
    record of it (`judge.analysis`), plus `board` and `pieces` (piece letter per block
    index) for a Rush Hour board."""
    from lumina.judge import analysis
    record = analysis(level, m)
    rec = {"level": level.id}
    for key in ANALYSIS_KEYS[1:]:
        rec[key] = schema.to_json(getattr(m, key) if hasattr(m, key) else getattr(record, key))
    if board is not None:
        rec["board"] = board
        rec["pieces"] = "".join(rush_hour_letters(board, id=level.id))
    return rec


def format_analysis(level: Level, m, moves: Sequence[tuple[int, int]] = (),
                    letters: Sequence[str] | None = None) -> str:
    """The measures of one level as readable text (`moves`: the optimal solution its
    forced moves are counted along)."""
    capped = lambda n, flag: f"more than {n:,}" if flag else f"{n:,}"  # noqa: E731
    name = (lambda b: letters[b]) if letters is not None else str
    out = [f"{level.id}: {m.outcome.value}" + (f" in {m.optimal} moves" if m.optimal is not None
                                                else "") + f"   ({' + '.join(level.mechanics)})"]
    if m.outcome is Outcome.EXHAUSTED:
        out.append("  state cap reached: nothing is known")
        return "\n".join(out)
    if m.optimal is not None:
        out.append(f"  moves: {format_moves(moves, letters)}")
    out.append(f"  plans: {capped(m.plans, m.plans_capped)}   "
               f"optimal solutions: {capped(m.solutions, m.solutions_capped)}")
    out.append("  dead blocks: " + (" ".join(name(b) for b in m.dead_blocks) or "none"))
    if m.optimal:
        out.append(f"  chain: {'at most ' if m.chain_capped else ''}{m.chain} of {m.optimal} "
                   f"moves ({m.chain / m.optimal:.2f})   forced: "
                   + ("-" if m.forced is None else f"{m.forced} of {m.optimal} moves"))
    out.append("  crystal par: " + ("no sand, ice or rime" if m.crystal_optimal is None
                                    else f"{m.crystal_optimal}   optional twist: "
                                    f"{'yes' if m.optional_twist else 'no'}   dead twists: "
                                    + (" ".join(name(b) for b in m.dead_twists) or "none")))
    out.append("  board's deepest: " + ("unknown (state cap)" if m.deepest is None
                                        else f"{m.deepest}"))
    out.append(f"  first moves: {m.first_moves_optimal} optimal of {m.first_moves_legal} legal"
               + (f" ({format_moves(m.first_moves, letters)})" if m.first_moves else ""))
    out.append(f"  component: {m.component_states:,} states, {m.traps:,} traps")
    return "\n".join(out)


def _analyse(lv: Level, args, board: str | None = None) -> object:
    """Measure one level and print it (text or a JSON line); returns the Measures."""
    from lumina.engine import measure
    moves = lv.solution
    if moves is None:
        moves = solve(lv, state_cap=args.state_cap).moves
    m = measure(lv, plan_cap=args.plan_cap, solution_cap=args.solution_cap,
                state_cap=args.state_cap, solution=moves)
    if args.json:
        print(json.dumps(analysis_record(lv, m, board)))
    else:
        letters = rush_hour_letters(board, id=lv.id) if board is not None else None
        print(format_analysis(lv, m, moves if m.optimal is not None else (), letters))
    return m


def _rush_board(source: str) -> str | None:
    """The source itself when it is a bare 36-character Rush Hour board."""
    return source if not os.path.exists(source) and len(source) == 36 and "A" in source else None


def main(argv: Sequence[str] | None = None) -> int:
    ap = ArgumentParser(prog="python -m lumina.solve", description=__doc__.split("\n")[0])
    ap.add_argument("source", nargs="?", help="level/pack JSON file, level desc, or Rush Hour board")
    ap.add_argument("--level", help="the level id inside a pack")
    ap.add_argument("--rush", metavar="FILE", help="file of Rush Hour boards (MM BOARD CLUSTER)")
    ap.add_argument("--state-cap", type=int_in(1, MAX_STATE_CAP), default=DEFAULT_STATE_CAP,
                    help=f"states explored before giving up (1..{MAX_STATE_CAP})")
    ap.add_argument("--json", action="store_true", help="print JSON lines instead of text")
    ap.add_argument("--analyse", action="store_true",
                    help="print the measures of difficulty (plans, dead blocks, traps, ...)")
    ap.add_argument("--plan-cap", type=int_in(1, 10**12), default=1_000_000,
                    help="--analyse: count plans exactly up to this many")
    ap.add_argument("--solution-cap", type=int_in(1, 10**12), default=1_000_000,
                    help="--analyse: count raw optimal solutions exactly up to this many")
    args = ap.parse_args(argv)
    if args.analyse:
        return _main_analyse(args)
    if args.rush:
        failed = 0
        for n, (board, mm, _cluster) in enumerate(read_rush_file(args.rush), 1):
            try:
                lv = from_rush_hour(board, id=f"rush-{n}")
            except LevelError as e:
                raise PackError(f"{args.rush}: line {n}: {e.field}: {e.message}") from None
            s = solve(lv, state_cap=args.state_cap)
            opt = "-" if s.optimal is None else str(s.optimal)
            print(f"{board}\t{s.outcome.value}\t{opt}\t{s.states}")
            failed += mm is not None and s.optimal != mm
        if failed:
            print(f"{failed} board(s) disagree with their published MM", file=sys.stderr)
        return 1 if failed else 0
    if not args.source:
        raise UsageError("give a level file, a desc or a board (or --rush FILE)")
    board = _rush_board(args.source)
    letters = rush_hour_letters(board) if board is not None else None
    for lv in _levels(args.source, args.level):
        s = solve(lv, state_cap=args.state_cap)
        if args.json:
            print(json.dumps({"level": lv.id, "outcome": s.outcome.value, "optimal": s.optimal,
                              "moves": [list(m) for m in s.moves], "states": s.states}))
            continue
        print(f"{lv.id}: {s.outcome.value}", end="")
        if s.outcome is Outcome.SOLVED:
            print(f" in {s.optimal} moves")
            print(f"  moves: {format_moves(s.moves, letters)}")
            if s.moves:
                print(legend(letters))
        else:
            print(" (the whole reachable space holds no win)" if s.outcome is Outcome.UNSOLVABLE
                  else f" (state cap {args.state_cap} reached: nothing is known)")
        print(f"  states explored: {s.states}")
    return 0


def _main_analyse(args) -> int:
    """`--analyse`: measures per level; with `--rush FILE`, exit 1 when a board's optimal
    or component disagrees with its published MM or CLUSTER."""
    if args.rush:
        rows = read_rush_file(args.rush)
        levels = []
        for n, (board, mm, cluster) in enumerate(rows, 1):
            try:
                levels.append((from_rush_hour(board, id=f"rush-{n}"), board, mm, cluster))
            except LevelError as e:
                raise PackError(f"{args.rush}: line {n}: {e.field}: {e.message}") from None
        failed = 0
        for lv, board, mm, cluster in levels:
            m = _analyse(lv, args, board)
            failed += ((mm is not None and m.optimal != mm)
                       or (cluster is not None and m.component_states != cluster))
        if failed:
            print(f"{failed} board(s) disagree with their published MM or CLUSTER",
                  file=sys.stderr)
        return 1 if failed else 0
    if not args.source:
        raise UsageError("give a level file, a desc or a board (or --rush FILE)")
    board = _rush_board(args.source)
    for lv in _levels(args.source, args.level):
        _analyse(lv, args, board)
    return 0


if __name__ == "__main__":
    run(main)
