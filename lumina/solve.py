"""`python -m lumina.solve`: solve any level with the BFS solver.

    python -m lumina.solve packs/world-1.json --level w1-07
    python -m lumina.solve level.json            # one level object or a whole pack
    python -m lumina.solve 6x6-R2-K0221C4112     # a level desc
    python -m lumina.solve ooooBoooooBoAAooBooooooooooooooooooo   # a Rush Hour board
    python -m lumina.solve --rush ../shared/reference/rush-sample.txt

Per level it prints the outcome, the optimal move count, one optimal move list and
the states explored. `--rush FILE` prints one tab-separated line per board:
`board outcome optimal states`. Bad input: one line on stderr, exit 2.
"""
from __future__ import annotations

import json
import os
import sys
from typing import Sequence

from lumina.cli import ArgumentParser, UsageError, int_in, run
from lumina.desc import from_desc, from_rush_hour
from lumina.engine import DEFAULT_STATE_CAP, Outcome, solve
from lumina.model import Level, LevelError
from lumina.packfile import PackError, read_level_file, read_text

MAX_STATE_CAP = 2**31 - 1       # the engine's parent index is int32


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
    if source[:1].isdigit() and "x" in source[:3]:
        return [from_desc(source)]
    raise UsageError(f"{source}: no such file, and not a level desc or Rush Hour board")


def format_moves(moves: Sequence[tuple[int, int]]) -> str:
    return " ".join(f"{b}:{d:+d}" for b, d in moves) or "(none: already solved)"


def main(argv: Sequence[str] | None = None) -> int:
    ap = ArgumentParser(prog="python -m lumina.solve", description=__doc__.split("\n")[0])
    ap.add_argument("source", nargs="?", help="level/pack JSON file, level desc, or Rush Hour board")
    ap.add_argument("--level", help="the level id inside a pack")
    ap.add_argument("--rush", metavar="FILE", help="file of Rush Hour boards (MM BOARD CLUSTER)")
    ap.add_argument("--state-cap", type=int_in(1, MAX_STATE_CAP), default=DEFAULT_STATE_CAP,
                    help=f"states explored before giving up (1..{MAX_STATE_CAP})")
    ap.add_argument("--json", action="store_true", help="print JSON lines instead of text")
    args = ap.parse_args(argv)
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
    for lv in _levels(args.source, args.level):
        s = solve(lv, state_cap=args.state_cap)
        if args.json:
            print(json.dumps({"level": lv.id, "outcome": s.outcome.value, "optimal": s.optimal,
                              "moves": [list(m) for m in s.moves], "states": s.states}))
            continue
        print(f"{lv.id}: {s.outcome.value}", end="")
        if s.outcome is Outcome.SOLVED:
            print(f" in {s.optimal} moves")
            print(f"  moves: {format_moves(s.moves)}")
        else:
            print(" (the whole reachable space holds no win)" if s.outcome is Outcome.UNSOLVABLE
                  else f" (state cap {args.state_cap} reached: nothing is known)")
        print(f"  states explored: {s.states}")
    return 0


if __name__ == "__main__":
    run(main)
