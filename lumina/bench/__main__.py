"""`python -m lumina.bench BENCHMARK [options]`: the one entry to every benchmark.

`--help` lists them (`lumina.bench.BENCHMARKS`); `python -m lumina.bench NAME --help`
shows one benchmark's options. Only the benchmark named is imported, so its start-up
and peak memory are its own.
"""
from __future__ import annotations

import importlib
import sys
from typing import Sequence

from lumina.bench import BENCHMARKS
from lumina.cli import ArgumentParser, guarded


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = ArgumentParser(prog="python -m lumina.bench",
                        description="Benchmarks that print their figures (never pass/fail).")
    sub = ap.add_subparsers(dest="benchmark", required=True, metavar="BENCHMARK")
    parsers = {name: sub.add_parser(name, help=what, description=what)
               for name, what in BENCHMARKS}
    name = next((a for a in argv if not a.startswith("-")), None)
    module = None
    if name in parsers:
        module = importlib.import_module(f"lumina.bench.{name}")
        module.arguments(parsers[name])
    args = ap.parse_args(argv)
    assert module is not None       # parse_args refused any other first word
    return module.run(args)


if __name__ == "__main__":
    sys.exit(guarded(main, prog="lumina.bench"))
