"""lumina/packfile.py and the bounded reader in front of it (lumina/safeio.py): every
file a command reads is bounded before it is trusted (a regular file of at most 8 MB,
strict UTF-8, JSON nested at most 32 deep, integers of at most 20 digits, safe ids),
then checked by an exact schema (a bool is never a number), and a bad one is one line
naming the file and the field, exit 2.

Each test here guards one class of bad input found by an outside attack (issues 10
and 20); the comment above it names the test it was in tests/test_hardening.py or
tests/test_hardening_round2.py. Commands run in this process (tests/clihelp.py), but
where a regression would block or read forever (a FIFO, /dev/zero, a 10^18-wide
block): those run in a real process with a time and memory limit.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from clihelp import (FIXTURES, PACKS, copy_packs, exit_2, passing_verify, publish_unverified_process,
                     run_cli, run_process)
from lumina import packfile
from lumina.judge import CLASSES, FILTERS
from lumina.model import Level, LevelError
from lumina.packfile import PackError, read_pack

LEVEL = {"id": "h-01", "width": 6, "height": 5, "exit": {"side": "right", "index": 2},
         "blocks": [{"kind": "key", "x": 0, "y": 2, "w": 2, "h": 1},
                    {"kind": "crystal", "x": 3, "y": 1, "w": 1, "h": 2}]}


def write_level(tmp_path: Path, data, name: str = "level.json") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


# ------------------------------------------------------------------ bounded before trusted

# was test_hardening.py::test_huge_block_dimension_returns_fast
@pytest.mark.parametrize("w", [100_000_000, 2**31, 10**18])
def test_level_block_far_outside_the_board_is_refused_fast(tmp_path, w):
    bad = json.loads(json.dumps(LEVEL))
    bad["blocks"][1]["w"] = w
    with pytest.raises(LevelError, match=r"blocks\[1\].*outside"):
        Level.from_json(bad)
    # a real process: a regression allocates a 10^18-cell board (the memory limit fails it)
    proc = run_process("lumina.solve", str(write_level(tmp_path, bad)), timeout=30)
    exit_2(proc, "h-01", "blocks[1]", "outside")


# was test_hardening.py::test_dev_zero_as_input_returns_fast
def test_reader_refuses_dev_zero():
    # real processes: a regression reads /dev/zero until memory runs out
    exit_2(run_process("lumina.solve", "/dev/zero", timeout=30), "/dev/zero", "regular file")
    exit_2(run_process("lumina.verify", "/dev/zero", timeout=30), "/dev/zero")
    exit_2(run_process("lumina.solve", "--rush", "/dev/zero", timeout=30), "/dev/zero")


# was test_hardening.py::test_fifo_as_input_returns_fast
def test_reader_refuses_a_fifo(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    # real processes: a regression blocks forever opening the FIFO
    exit_2(run_process("lumina.solve", str(fifo), timeout=30), "pipe.json", "regular file")
    exit_2(run_process("lumina.verify", str(fifo), timeout=30), "pipe.json")


# was test_hardening.py::test_oversized_file_is_refused_before_reading
def test_reader_refuses_an_oversized_file_before_reading(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(64 << 20)          # sparse: 64 MB of zeros costs no disk
    exit_2(run_cli("solve", big), "big.json", "at most")


# was test_hardening_round2.py::test_fifo_report_refused (class 5)
def test_reader_refuses_a_fifo_report(tmp_path):
    """A FIFO named report-world-1.json in --packs: publish hung forever."""
    w = copy_packs(FIXTURES, tmp_path / "W")
    (w / "report-world-1.json").unlink()
    os.mkfifo(w / "report-world-1.json")
    proc = publish_unverified_process("--packs", w, "--out", tmp_path / "site")
    exit_2(proc, "report-world-1.json", "regular file")
    assert not (tmp_path / "site").exists()


# was test_hardening_round2.py::test_report_symlink_to_dev_zero_refused (class 6)
@pytest.mark.parametrize("name", ["report-world-1.json", "strategies.json"])
def test_reader_refuses_a_report_linked_to_dev_zero(tmp_path, name):
    """report-world-1.json as a symlink to /dev/zero was read until memory ran out, and
    the message did not name the file: reports and strategies.json skipped the
    bounded reader that packs get."""
    w = copy_packs(FIXTURES, tmp_path / "W")
    (w / name).unlink()
    (w / name).symlink_to("/dev/zero")
    proc = publish_unverified_process("--packs", w, "--out", tmp_path / "site")
    exit_2(proc, name, "regular file")


# ------------------------------------------------------------------ text and JSON

# was test_hardening.py::test_non_utf8_file
def test_reader_refuses_non_utf8(tmp_path):
    p = tmp_path / "latin1.json"
    p.write_bytes(json.dumps({**LEVEL, "name": "café"}, ensure_ascii=False).encode("latin-1"))
    exit_2(run_cli("solve", p), "latin1.json", "UTF-8")
    exit_2(run_cli("verify", p), "latin1.json", "UTF-8")


# was test_hardening.py::test_utf16_file
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_reader_names_utf16(tmp_path, encoding):
    p = tmp_path / "wide.json"
    p.write_bytes(json.dumps(LEVEL).encode(encoding))
    exit_2(run_cli("solve", p), "wide.json", "UTF-16")
    rush = tmp_path / "boards.txt"
    rush.write_bytes("2 ooooBoooooBoAAooBooooooooooooooooooo 10\n".encode(encoding))
    exit_2(run_cli("solve", "--rush", rush), "boards.txt", "UTF-16")


# was test_hardening.py::test_deep_nesting
def test_reader_refuses_deep_nesting(tmp_path):
    for text in ("[" * 100_000 + "]" * 100_000, '{"levels": ' + "[" * 1000 + "]" * 1000 + "}"):
        p = tmp_path / "deep.json"
        p.write_text(text)
        exit_2(run_cli("solve", p), "deep.json", "nested")
        exit_2(run_cli("verify", p), "deep.json", "nested")


# was test_hardening.py::test_5000_digit_integers
def test_reader_refuses_5000_digit_integers(tmp_path):
    text = json.dumps(LEVEL).replace('"width": 6', '"width": ' + "7" * 5000)
    p = tmp_path / "digits.json"
    p.write_text(text)
    line = exit_2(run_cli("solve", p), "digits.json", "digits")
    assert "7777777777" not in line
    rush = tmp_path / "boards.txt"
    rush.write_text("9" * 5000 + " ooooBoooooBoAAooBooooooooooooooooooo 10\n")
    exit_2(run_cli("solve", "--rush", rush), "boards.txt", "line 1")


# was test_hardening.py::test_lone_surrogates
@pytest.mark.parametrize("field", ["id", "name"])
def test_reader_refuses_lone_surrogates(tmp_path, field):
    text = json.dumps({**LEVEL, "name": "ok"}).replace(f'"{field}": "', f'"{field}": "\\ud800', 1)
    p = tmp_path / "surrogate.json"
    p.write_text(text)
    exit_2(run_cli("solve", p), "surrogate.json", field)
    pack = tmp_path / "world-1.json"
    pack.write_text('{"pack": "x", "name": "\\udc80", "levels": [' + json.dumps(LEVEL) + "]}")
    exit_2(run_cli("verify", pack), "world-1.json", "name")


# was test_hardening.py::test_unsafe_ids
@pytest.mark.parametrize("bad_id", ["x" * (1 << 20), "a\nerror: forged second line", "w1 01",
                                    "../etc", "ü-1", ""],
                         ids=["1MB", "newline", "space", "dotdot", "non-ascii", "empty"])
def test_reader_refuses_unsafe_ids(tmp_path, bad_id):
    p = write_level(tmp_path, {**LEVEL, "id": bad_id})
    exit_2(run_cli("solve", p), "level.json", "id")
    pack = write_level(tmp_path, {"pack": "x", "levels": [{**LEVEL, "id": bad_id}]}, "world-1.json")
    exit_2(run_cli("verify", pack), "world-1.json", "levels[0]", "id")


# ------------------------------------------------------------------ exact types

def _world_pack(tmp_path: Path, **meta) -> Path:
    """W: the committed world-1.json with 3 levels, no tutorial, and `meta` changed."""
    data = json.loads((PACKS / "world-1.json").read_text())
    data["levels"] = data["levels"][1:4]
    data.update(meta)
    w = tmp_path / "W"
    w.mkdir()
    (w / "world-1.json").write_text(json.dumps(data))
    return w


# was test_hardening_round2.py::test_world_true_is_not_a_world_number (class 1)
@pytest.mark.parametrize("value", [True, False, 1.0, "1", [1]], ids=repr)
def test_pack_world_true_is_not_a_world_number(tmp_path, value):
    """`"world": true` passed verify (read as "not a world") and publish built it as
    world 1 (True == 1), every page locked at 0 stars. A bool is not a number."""
    w = _world_pack(tmp_path, world=value)
    with pytest.raises(PackError, match=r"world-1\.json: world: must be an integer"):
        read_pack(w / "world-1.json")
    exit_2(run_cli("verify", w), "world-1.json", "world")
    exit_2(run_cli("publish", "--packs", w, "--out", tmp_path / "site"), "world-1.json", "world")
    assert not (tmp_path / "site").exists()


# was test_hardening_round2.py::test_pack_metadata_types_are_exact
@pytest.mark.parametrize("meta, field", [({"seed": True}, "seed"), ({"seed": -1}, "seed"),
                                         ({"generator": 3}, "generator"), ({"wrold": 1}, "wrold"),
                                         ({"name": "a\nb"}, "name"), ({"world": 0}, "world")])
def test_pack_metadata_types_are_exact(tmp_path, meta, field):
    w = _world_pack(tmp_path, **meta)
    with pytest.raises(PackError, match=rf"world-1\.json: {field}: "):
        read_pack(w / "world-1.json")


def _publish_unverified(packs: Path, out: Path):
    """publish behind the CLI's boundary, its verifier passing (the fixture packs are too
    small for the campaign's shape): the side files are read after verifying."""
    import functools
    from clihelp import command_main
    return run_cli("publish", "--packs", packs, "--out", out,
                   main=functools.partial(command_main("publish"), verify=passing_verify))


# was test_hardening_round2.py::test_strategies_wrong_type_names_file_and_field (class 7)
@pytest.mark.parametrize("path, value, field", [
    (("filtered",), 5, "rows[0].filtered"),
    (("label_vs_real",), "x", "rows[0].label_vs_real"),
    (("candidates",), True, "rows[0].candidates"),
    (("filtered", "plans"), "3", "rows[0].filtered.plans"),
    (("label_vs_real", "exact"), 1.5, "rows[0].label_vs_real.exact"),
    (("under_band",), None, "rows[0].under_band"),
    (("strategy",), ["a"], "rows[0].strategy"),
], ids=lambda v: json.dumps(v) if not isinstance(v, str) else v)
def test_strategies_wrong_type_names_file_and_field(tmp_path, path, value, field):
    """strategies.json with a field of the wrong type: `internal error (TypeError ...)`
    instead of a line naming the file and the field."""
    packs = copy_packs(FIXTURES, tmp_path / "packs")
    doc = json.loads((packs / "strategies.json").read_text())
    target = doc["rows"][0]
    for p in path[:-1]:
        target = target[p]
    target[path[-1]] = value
    (packs / "strategies.json").write_text(json.dumps(doc))
    exit_2(_publish_unverified(packs, tmp_path / "site"), "strategies.json", f"{field}: ")


# was test_hardening_round2.py::test_report_wrong_type_names_file_and_field
@pytest.mark.parametrize("change, field", [
    (lambda r: r["buckets"][0].update(candidates=True), "buckets[0].candidates"),
    (lambda r: r["buckets"][0].update(band=[1]), "buckets[0].band"),
    (lambda r: r["buckets"][0]["rejections"].update(shallow="many"), "buckets[0].rejections.shallow"),
    (lambda r: r.update(buckets={}), "buckets"),
    (lambda r: r.update(seed=False), "seed"),
], ids=["candidates-true", "band-short", "rejection-text", "buckets-object", "seed-false"])
def test_report_wrong_type_names_file_and_field(tmp_path, change, field):
    packs = copy_packs(FIXTURES, tmp_path / "packs")
    rep = json.loads((packs / "report-world-2.json").read_text())
    change(rep)
    (packs / "report-world-2.json").write_text(json.dumps(rep))
    exit_2(_publish_unverified(packs, tmp_path / "site"), "report-world-2.json", f"{field}: ")


# was test_hardening_round2.py::test_strategies_schema_names_every_class_and_filter
def test_strategies_schema_names_every_class_and_filter():
    doc = json.loads((FIXTURES / "strategies.json").read_text())   # kept at today's filters
    schema = packfile.strategies_schema(CLASSES, FILTERS)
    assert packfile.check("strategies.json", doc, schema) == doc
    for name in (*CLASSES, "survivors"):
        bad = json.loads(json.dumps(doc))
        del bad["rows"][2][name]
        with pytest.raises(PackError, match=rf"strategies\.json: rows\[2\]\.{name}: missing"):
            packfile.check("strategies.json", bad, schema)


# ------------------------------------------------------------------ one glob

def _sources() -> list[Path]:
    return sorted((PACKS.parent / "lumina").rglob("*.py"))


# was test_hardening_round2.py::test_pack_files_are_found_by_one_glob_helper
def test_pack_files_are_found_by_one_glob_helper():
    """A packs folder's files are found by lumina.packfile's helpers alone (pack_files,
    world_files, report_files): bench playtest and the site's reports each had a glob
    of their own, which a change of the packs' names would have left behind."""
    import re
    pack_names = re.compile(r"""\.glob\(\s*["'](?:world-|report-|dailies)""")
    root = PACKS.parent
    found = [f"{p.relative_to(root)}:{n}" for p in _sources() if p.name != "packfile.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if pack_names.search(line)]
    assert found == []
    folder = PACKS
    assert packfile.world_files(folder) == [p for p in packfile.pack_files([folder])
                                            if p.name.startswith("world-")]
    assert [p.name for p in packfile.report_files(folder)] == sorted(
        p.name for p in folder.iterdir() if p.name.startswith("report-") and p.suffix == ".json")
