"""`python -m lumina`: list the commands (each one is `python -m lumina.<command>`)."""
from __future__ import annotations

from typing import Sequence

from lumina.bench import BENCHMARKS
from lumina.cli import ArgumentParser, run

COMMANDS = (
    ("publish", "[--packs packs] [--out site] [--campaign FILE]",
     "verify the packs, then build the static site"),
    ("verify", "[PACKS or FOLDERS...] [--campaign FILE]",
     "re-solve every level from disk; exit 1 if any fails"),
    ("mine", "[--campaign FILE] [--pool DIR] [--workers N | --scheduler ADDRESS] [--status]",
     "run the campaign's mining jobs into the board pool (resumable)"),
    ("compose", "[--campaign FILE] [--pool DIR] [--out DIR]",
     "pick every world, the daily pool and the practice pack from the pool"),
    ("generate", "[--all | --world N | --dailies] [--seed S] [--workers N] [--out DIR] "
     "[--campaign FILE] [--pool DIR]", "mine what the pool lacks, then compose (--all)"),
    ("solve", "FILE [--level ID] | DESC | BOARD | --rush FILE [--analyse]",
     "solve or measure a level, desc or Rush Hour board"),
    ("bench", " | ".join(name for name, _ in BENCHMARKS), "benchmarks that print their figures"),
    ("vectors", "[PACKS...] [--out FILE]", "emit the engine parity vectors for the JS tests"),
    ("playtest", "LOG... [--packs packs] [--out DIR] | simulate --levels PACKS --players N --seed S",
     "replay exported play logs and report what players met; or simulate playtesters"),
)


def main(argv: Sequence[str] | None = None) -> int:
    ap = ArgumentParser(prog="python -m lumina", description=__doc__.splitlines()[0])
    ap.parse_args(argv)
    print("Lumina: generate, prove, verify and publish sliding-block puzzles.\n")
    print("usage: python -m lumina.<command> [options]   (--help on any command)\n")
    for name, args, what in COMMANDS:
        print(f"  python -m lumina.{name} {args}".rstrip())
        print(f"      {what}")
    return 0


if __name__ == "__main__":
    run(main)
