"""Every command-line flag of lumina has help text, and a required flag shows as required
(issue 27: `playtest simulate --help` left --players and --seed unexplained and showed the
required --levels as optional). Every argparse parser in lumina/ is caught as its command
parses `--help`, so a new command is checked without being listed here by hand, as long as
it is in COMMANDS below or the bench's BENCHMARKS."""
from __future__ import annotations

import argparse
import importlib

import pytest

from lumina.bench.__main__ import BENCHMARKS

COMMANDS = [("lumina.__main__", []), ("lumina.generate", []), ("lumina.solve", []), ("lumina.verify", []),
            ("lumina.publish", []), ("lumina.vectors", []), ("lumina.playtest.__main__", []),
            ("lumina.playtest.__main__", ["simulate"]), ("lumina.mine", []), ("lumina.compose", [])]
COMMANDS += [("lumina.bench.__main__", [name]) for name, _ in BENCHMARKS]


class _Caught(Exception):
    pass


def parser_of(module: str, argv: list[str], monkeypatch) -> argparse.ArgumentParser:
    caught = []

    def grab(self, args=None, namespace=None):
        caught.append(self)
        raise _Caught

    monkeypatch.setattr(argparse.ArgumentParser, "parse_known_args", grab)
    with pytest.raises(_Caught):
        importlib.import_module(module).main([*argv, "--help"])
    return caught[0]


def flags(ap: argparse.ArgumentParser):
    for a in ap._actions:
        if isinstance(a, argparse._SubParsersAction):
            for sub in a.choices.values():
                yield from flags(sub)
        elif not isinstance(a, argparse._HelpAction):
            yield ap.prog, a


@pytest.mark.parametrize("module,argv", COMMANDS, ids=[f"{m} {' '.join(a)}".strip() for m, a in COMMANDS])
def test_every_flag_has_help_text(module, argv, monkeypatch):
    ap = parser_of(module, argv, monkeypatch)
    missing = [f"{prog}: {'/'.join(a.option_strings) or a.dest}" for prog, a in flags(ap)
               if not a.help or a.help == argparse.SUPPRESS or not a.help.strip()]
    assert not missing, missing


def test_simulates_required_flags_show_as_required(monkeypatch, capsys):
    ap = parser_of("lumina.playtest.__main__", ["simulate"], monkeypatch)
    req = {a.option_strings[0] for a in ap._actions if a.option_strings and a.required}
    assert req >= {"--levels", "--players", "--seed"}
    monkeypatch.undo()
    usage = ap.format_usage()
    for flag in ("--levels", "--players", "--seed"):
        assert f"[{flag}" not in usage, usage
    # --describe still needs none of them
    from lumina.playtest.__main__ import main
    assert main(["simulate", "--describe"]) == 0
    assert capsys.readouterr().out.strip().startswith("{")
