"""`python -m lumina.playtest`: the report from play logs, and the simulated playtester.

    python -m lumina.playtest LOG... [--packs packs] [--out playtest-report]
    python -m lumina.playtest simulate --levels PACK_OR_FOLDER... --players N --seed S
                                       [--only GLOB] [--first-player K] [--out FILE]

The report goes to OUT/playtest.html and OUT/playtest.json, written as one unit.
Every line or attempt left out is one line on stderr naming the file and line (at
most MAX_PRINTED a file; the JSON keeps the first 200); the report is still written
from the rest. Unusable input (no log readable, bad packs, a bad flag) is one line
and exit 2.
"""
from __future__ import annotations

import fnmatch
import json
import sys
from typing import Sequence

from lumina.cli import ArgumentParser, UsageError, guarded, int_in, one_line
from lumina.packfile import dumps_json, pack_files
from lumina.safeio import check_output, check_writable_folder, write_unit

from . import schema
from .reader import Problem
from .replay import Book
from .report import build, collect, render_html
from .simulate import describe, least_bytes, simulate

MAX_PRINTED = 50
PROG = "lumina.playtest"


def report_main(argv: Sequence[str]) -> int:
    ap = ArgumentParser(prog="python -m lumina.playtest",
                        description="Replay exported play logs on the packs and report what players met.")
    ap.add_argument("logs", nargs="+", metavar="LOG", help="exported play logs (JSON lines)")
    ap.add_argument("--packs", nargs="+", default=["packs"], help="packs or folders of packs (default: packs)")
    ap.add_argument("--out", default="playtest-report", help="folder for playtest.html and playtest.json")
    args = ap.parse_args(argv)
    check_output(args.out, inputs=[*args.logs, *pack_files(args.packs)],
                 files=["playtest.html", "playtest.json"])       # before any work
    book = Book(args.packs)
    check_writable_folder(args.out)
    printed: dict[str, int] = {}

    def tell(p: Problem) -> None:
        n = printed.get(p.file, 0)
        printed[p.file] = n + 1
        if n < MAX_PRINTED:
            print(one_line(f"{PROG}: {p}"), file=sys.stderr)
        elif n == MAX_PRINTED:
            print(one_line(f"{PROG}: {p.file}: more problems; not printed (the report counts them)"),
                  file=sys.stderr)

    ev = collect(args.logs, book, tell)
    if not ev.logs:
        raise UsageError("no play log could be read")
    report = build(ev)
    write_unit(args.out, {"playtest.json": dumps_json(report), "playtest.html": render_html(report, book)})
    lo = report["left_out"]
    print(f"{report['players']} players, {report['attempts']} attempts on {report['levels_played']} levels; "
          f"left out: {lo['lines']} lines, {lo['attempts']} attempts; {lo['duplicates']} duplicates counted once")
    print(f"report: {args.out}/playtest.html and {args.out}/playtest.json")
    return 0


def simulate_main(argv: Sequence[str]) -> int:
    ap = ArgumentParser(prog="python -m lumina.playtest simulate",
                        description="Play levels with a seeded model of a human solver; write play logs.")
    ap.add_argument("--levels", nargs="+", required=True, metavar="PACK_OR_FOLDER",
                    help="packs or folders of packs to play, in order")
    ap.add_argument("--only", default="*", metavar="GLOB", help="level ids to play (e.g. 'w1-*')")
    ap.add_argument("--players", type=int_in(1, 100_000), required=True,
                    help="how many simulated players (1..100,000)")
    ap.add_argument("--seed", type=int_in(0, 2 ** 63 - 1), required=True,
                    help="seed of the model's choices: the same seed, the same logs")
    ap.add_argument("--first-player", type=int_in(1, 10 ** 9), default=1,
                    help="number of the first simulated player (split a big run into files)")
    ap.add_argument("--out", default="-", help="log file to write (default: stdout)")
    ap.add_argument("--describe", action="store_true",
                    help="print the model's parameters and stop (needs no other flag)")
    if "--describe" in argv and "--help" not in argv and "-h" not in argv:
        print(json.dumps(describe(), indent=2))
        return 0
    args = ap.parse_args(argv)
    out = None if args.out == "-" else check_output(args.out, inputs=pack_files(args.levels))
    book = Book(args.levels)
    entries = [e for lid, e in book.entries.items() if fnmatch.fnmatchcase(lid, args.only)]
    if not entries:
        raise UsageError(f"--only {one_line(args.only, 40)}: no level of the packs matches")
    bound = schema.MAX_LOG_BYTES
    lines = simulate(entries, players=args.players, seed=args.seed, first_player=args.first_player,
                     batch_bytes=max(1, bound // 8))  # played past the bound: at most an eighth of it
    if out is None:
        for line in lines:
            sys.stdout.write(line + "\n")
        return 0
    least = least_bytes(entries, players=args.players, seed=args.seed, first_player=args.first_player)
    if least > bound:
        raise UsageError(f"--players {args.players}: at least {least} bytes, more than a play log may "
                         f"hold ({bound}); simulate fewer players per file (--players, --first-player)")

    def bounded():                  # streamed to the file; stops the moment the bound is crossed
        size = 0
        for line in lines:
            size += len(line) + 1
            if size > bound:
                raise UsageError(f"{args.out}: more than {bound} bytes, the most a play log may hold; "
                                 "nothing written; simulate fewer players per file (--players, "
                                 "--first-player)")
            yield line + "\n"
    write_unit(out.parent, {out.name: bounded()})
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["simulate"]:
        return simulate_main(argv[1:])
    return report_main(argv)


if __name__ == "__main__":
    sys.exit(guarded(main, prog=PROG))
