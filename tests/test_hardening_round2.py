"""Issue 20, the second outside attack: one test per class, named after it.

Each test failed on the code before the fix: verify said OK to what the rules refuse,
publish rendered what it had not verified, hung on a FIFO or ran away on /dev/zero,
an interrupt split a pack from its report, pool workers outlived their parent, a
scheduler that never answers hung generate, a user's files were deleted, or a
mistake was a traceback or an internal error. Inputs that could hang or run away
run in a subprocess with a timeout and a memory limit, so a regression fails here
instead of hanging the suite. The browser classes (19, 20) are in
tests/browser/test_hostile_input.py; the fuzz test of reports and strategies.json in
tests/test_fuzz_cli.py.

    class                                            test
     1 "world": true read as world 1                  test_world_true_is_not_a_world_number
     2 a level solved at its start passes verify      test_level_solved_at_its_start_is_not_playable
     3 nothing movable: verify OK, publish crashes    test_level_with_nothing_movable_is_not_playable
     4 publish reads the packs twice                  test_publish_renders_the_packs_it_verified,
                                                      test_publish_reads_each_pack_once
     5 a FIFO report hangs publish                    test_fifo_report_refused
     6 a report linked to /dev/zero runs away         test_report_symlink_to_dev_zero_refused
     7 strategies.json of the wrong type              test_strategies_wrong_type_names_file_and_field
     8 SIGINT between a pack's and report's rename    test_sigint_between_pack_and_report_renames_keeps_the_unit
     9 pool workers outlive a killed generate         test_pool_workers_die_with_generate
    10 --workers 10000, 0, -5 accepted                test_workers_out_of_range_refused,
                                                      test_every_numeric_flag_is_range_checked
    11 Ctrl-C during start-up imports: a traceback    test_ctrl_c_during_start_up_imports_is_one_line
    12 a web server or silent port hangs generate     test_scheduler_that_never_answers_is_one_line
    13 inproc://, tls://, ucx:// addresses            test_scheduler_address_schemes_are_one_line
    14 a scheduler lost mid-run: tracebacks           test_scheduler_lost_mid_run_is_one_line
    15 a user's .site.old-2024_01_01 deleted          test_user_site_old_backup_survives_publish
    16 a user's .notes.20240101.tmp deleted           test_user_tmp_file_survives_a_write
    17 vectors --bogus: usage on two lines            test_vectors_bogus_flag_is_one_line
    18 publish --out on a symlink loop                test_publish_out_symlink_loop_is_one_line
"""
from __future__ import annotations

import argparse
import contextlib
import http.server
import importlib
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from lumina import cli, judge, packfile, publish, safeio, verify
from lumina.desc import from_desc
from lumina.engine import measure
from lumina.packfile import PackError, read_pack, write_pack_and_report
from lumina.render import site
from lumina.judge import CLASSES, FILTERS

ROOT = Path(__file__).resolve().parents[1]
REAL_PACKS = ROOT / "packs"
FIXTURES = ROOT / "tests" / "fixtures" / "packs"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
MEMORY_LIMIT = 1 << 30


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def cli_run(*args: str, timeout: float = 120, env: dict | None = None,
            pythonpath: str | None = None) -> subprocess.CompletedProcess:
    """`python -m ARGS` in a fresh interpreter with a time and memory limit."""
    full_env = {**ENV, **(env or {})}
    if pythonpath:
        full_env["PYTHONPATH"] = pythonpath
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=full_env, preexec_fn=_limit_memory,
                          errors="backslashreplace")


def one_line(err: str, *words: str, skip: tuple[str, ...] = ("publish: verif",)) -> str:
    """The one error line of `err` (progress lines skipped), holding every word."""
    assert "Traceback" not in err and "Warning" not in err, err[-3000:]
    lines = [ln for ln in err.splitlines() if ln and not ln.startswith(skip)]
    assert len(lines) == 1, err[-3000:]
    assert len(lines[0]) < 300 and "internal error" not in lines[0], lines[0]
    for w in words:
        assert w.lower() in lines[0].lower(), (w, lines[0])
    return lines[0]


def exit_2(proc: subprocess.CompletedProcess, *words: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-3000:])
    return one_line(proc.stderr, *words)


def copy_packs(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*.py"))
    return dst


def passing_verify(monkeypatch) -> None:
    monkeypatch.setattr(publish, "_verify", lambda packs, campaign: verify.VerifyReport(
        ok=True, lines=[], packs=[], gates={}))


def level_json(desc: str, lid: str) -> dict:
    """A level with its proven par, a solution and its measures, as a pack holds it."""
    from lumina.engine import solve
    lv = from_desc(desc, id=lid)
    sol, m = solve(lv), measure(lv)
    return lv.replace(optimal=sol.optimal, solution=tuple(sol.moves),
                      analysis=judge.analysis(lv, m)).to_json()


# ------------------------------------------------------------------ 1. types are exact

def _world_pack(tmp_path: Path, **meta) -> Path:
    """W: the committed world-1.json with 3 levels, no tutorial, and `meta` changed."""
    data = json.loads((REAL_PACKS / "world-1.json").read_text())
    data["levels"] = data["levels"][1:4]
    data.update(meta)
    w = tmp_path / "W"
    w.mkdir()
    (w / "world-1.json").write_text(json.dumps(data))
    return w


@pytest.mark.parametrize("value", [True, False, 1.0, "1", [1]], ids=repr)
def test_world_true_is_not_a_world_number(tmp_path, capsys, value):
    """`"world": true` passed verify (read as "not a world") and publish built it as
    world 1 (True == 1), every page locked at 0 stars. A bool is not a number."""
    w = _world_pack(tmp_path, world=value)
    with pytest.raises(PackError, match=r"world-1\.json: world: must be an integer"):
        read_pack(w / "world-1.json")
    assert cli.guarded(verify.main, [str(w)]) == 2
    one_line(capsys.readouterr().err, "world-1.json", "world")
    assert cli.guarded(publish.main, ["--packs", str(w), "--out", str(tmp_path / "site")]) == 2
    one_line(capsys.readouterr().err, "world-1.json", "world")
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("meta, field", [({"seed": True}, "seed"), ({"seed": -1}, "seed"),
                                         ({"generator": 3}, "generator"), ({"wrold": 1}, "wrold"),
                                         ({"name": "a\nb"}, "name"), ({"world": 0}, "world")])
def test_pack_metadata_types_are_exact(tmp_path, meta, field):
    w = _world_pack(tmp_path, **meta)
    with pytest.raises(PackError, match=rf"world-1\.json: {field}: "):
        read_pack(w / "world-1.json")


# ------------------------------------------------------------------ 2, 3. playable levels

def _pack_with(tmp_path: Path, level: dict) -> Path:
    path = tmp_path / "extra.json"
    path.write_text(json.dumps({"pack": "extra", "name": "Extra", "levels": [level]}))
    return path


def test_level_solved_at_its_start_is_not_playable(tmp_path, capsys):
    """A level solved at its start (par 0) passed verify, though the generator rejects
    it as already_solved and in the browser its best result was 2 moves, 2 stars."""
    lv = level_json("6x6-R2-K4221", "x-01")             # the key already at the lantern
    assert lv["optimal"] == 0 and lv["solution"] == []
    assert cli.guarded(verify.main, [str(_pack_with(tmp_path, lv))]) == 1
    out = capsys.readouterr().out
    assert "FAIL x-01: optimal: 0: the level is solved at its start" in out, out
    assert out.rstrip().splitlines()[-1].startswith("FAILED")


def _daily_pool_with(tmp_path: Path, level: dict) -> Path:
    """W: the committed packs with daily d-001 replaced by `level`."""
    w = copy_packs(REAL_PACKS, tmp_path / "W")
    data = json.loads((w / "dailies.json").read_text())
    data["levels"][0] = {**level, "id": "d-001"}
    (w / "dailies.json").write_text(json.dumps(data))
    return w


def test_level_with_nothing_movable_is_not_playable(tmp_path, capsys, monkeypatch):
    """The same level with nothing movable: verify said OK, then publish exited 2 with
    `internal error (ZeroDivisionError)` in the generation-report page."""
    lv = level_json("6x6-R2-K4221-w32", "x-01")         # a wall holds the key at the lantern
    assert lv["analysis"]["first_moves_legal"] == 0
    w = _daily_pool_with(tmp_path, lv)
    assert cli.guarded(verify.main, [str(w / "dailies.json")]) == 1
    out = capsys.readouterr().out
    assert "FAIL d-001: analysis.first_moves_legal: 0: no block can move" in out, out
    assert cli.guarded(publish.main, ["--packs", str(w), "--out", str(tmp_path / "site")]) == 1
    err = capsys.readouterr().err
    assert "refused" in err and "internal error" not in err and "Traceback" not in err
    assert not (tmp_path / "site").exists()
    # the site's reader holds the same rule on its own (lumina.playable), verified or not
    passing_verify(monkeypatch)
    assert cli.guarded(publish.main, ["--packs", str(w), "--out", str(tmp_path / "site")]) == 2
    one_line(capsys.readouterr().err, "dailies.json", "d-001", "solved at its start")


# ------------------------------------------------------------------ 4. read once

def test_publish_renders_the_packs_it_verified(tmp_path, monkeypatch):
    """Publish read the packs twice, once to verify and once to render: a pack
    replaced in between (a concurrent generate) was published unverified. The real
    verifier runs (its verdict on the small fixtures, too small for the campaign's
    shape, is replaced by a pass); the pack is replaced on disk the moment it returns."""
    packs = copy_packs(FIXTURES, tmp_path / "packs")
    swapped = json.loads((packs / "world-1.json").read_text())
    swapped["name"] = "Unverified Swap"
    real_verify = publish._verify

    def verify_then_swap(*args, **kwargs):
        real_verify(*args, **kwargs)
        (packs / "world-1.json").write_text(json.dumps(swapped))   # a generate lands now
        return verify.VerifyReport(ok=True, lines=[], packs=[], gates={})
    monkeypatch.setattr(publish, "_verify", verify_then_swap)
    assert publish.main(["--packs", str(packs), "--out", str(tmp_path / "site")]) == 0
    html = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site").rglob("*.html"))
    assert "Willow Hollow" in html and "Unverified Swap" not in html


def test_publish_reads_each_pack_once(tmp_path, monkeypatch):
    """The same class, at its root: the objects verified are the objects rendered, so
    every pack is read from disk exactly once."""
    packs = copy_packs(FIXTURES, tmp_path / "packs")
    reads: list[str] = []
    real_read = packfile.read_bounded

    def counting(path, *a, **k):
        reads.append(Path(path).name)
        return real_read(path, *a, **k)
    monkeypatch.setattr(packfile, "read_bounded", counting)
    monkeypatch.setattr(publish, "_verify", lambda read, campaign: verify.VerifyReport(
        ok=True, lines=[], packs=[], gates={}))
    assert publish.main(["--packs", str(packs), "--out", str(tmp_path / "site")]) == 0
    for name in ("world-1.json", "world-5.json", "dailies.json"):
        assert reads.count(name) == 1, (name, reads)


# ------------------------------------------------------------------ 5, 6, 7. every reader bounded

# `python -m` of a module that makes the verifier pass and runs publish's own entry
# point: the reports are read after a passing verification, so these tests must not
# depend on whether the committed packs pass today's rules (the reader is the class
# here). A subprocess, for the time and memory limits of `cli_run`.
_PUBLISH_UNVERIFIED = """\
from lumina import cli, publish, verify
publish._verify = lambda packs, campaign: verify.VerifyReport(ok=True, lines=[], packs=[], gates={})
cli.run(publish.main)
"""


def publish_unverified(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    runner = tmp_path / "runner"
    runner.mkdir(exist_ok=True)
    (runner / "publish_unverified.py").write_text(_PUBLISH_UNVERIFIED)
    return cli_run("publish_unverified", *args, pythonpath=f"{runner}{os.pathsep}{ROOT}")


def test_fifo_report_refused(tmp_path):
    """A FIFO named report-world-1.json in --packs: publish hung forever."""
    w = copy_packs(FIXTURES, tmp_path / "W")
    (w / "report-world-1.json").unlink()
    os.mkfifo(w / "report-world-1.json")
    proc = publish_unverified(tmp_path, "--packs", str(w), "--out", str(tmp_path / "site"))
    exit_2(proc, "report-world-1.json", "regular file")
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("name", ["report-world-1.json", "strategies.json"])
def test_report_symlink_to_dev_zero_refused(tmp_path, name):
    """report-world-1.json as a symlink to /dev/zero was read until memory ran out, and
    the message did not name the file: reports and strategies.json skipped the
    bounded reader that packs get."""
    w = copy_packs(FIXTURES, tmp_path / "W")
    (w / name).unlink()
    (w / name).symlink_to("/dev/zero")
    proc = publish_unverified(tmp_path, "--packs", str(w), "--out", str(tmp_path / "site"))
    exit_2(proc, name, "regular file")


@pytest.mark.parametrize("path, value, field", [
    (("filtered",), 5, "rows[0].filtered"),
    (("label_vs_real",), "x", "rows[0].label_vs_real"),
    (("candidates",), True, "rows[0].candidates"),
    (("filtered", "plans"), "3", "rows[0].filtered.plans"),
    (("label_vs_real", "exact"), 1.5, "rows[0].label_vs_real.exact"),
    (("under_band",), None, "rows[0].under_band"),
    (("strategy",), ["a"], "rows[0].strategy"),
], ids=lambda v: json.dumps(v) if not isinstance(v, str) else v)
def test_strategies_wrong_type_names_file_and_field(tmp_path, capsys, monkeypatch, path, value, field):
    """strategies.json with a field of the wrong type: `internal error (TypeError ...)`
    instead of a line naming the file and the field."""
    packs = copy_packs(FIXTURES, tmp_path / "packs")
    doc = json.loads((packs / "strategies.json").read_text())
    target = doc["rows"][0]
    for p in path[:-1]:
        target = target[p]
    target[path[-1]] = value
    (packs / "strategies.json").write_text(json.dumps(doc))
    passing_verify(monkeypatch)
    assert cli.guarded(publish.main, ["--packs", str(packs), "--out", str(tmp_path / "site")]) == 2
    one_line(capsys.readouterr().err, "strategies.json", f"{field}: ")


@pytest.mark.parametrize("change, field", [
    (lambda r: r["buckets"][0].update(candidates=True), "buckets[0].candidates"),
    (lambda r: r["buckets"][0].update(band=[1]), "buckets[0].band"),
    (lambda r: r["buckets"][0]["rejections"].update(shallow="many"), "buckets[0].rejections.shallow"),
    (lambda r: r.update(buckets={}), "buckets"),
    (lambda r: r.update(seed=False), "seed"),
], ids=["candidates-true", "band-short", "rejection-text", "buckets-object", "seed-false"])
def test_report_wrong_type_names_file_and_field(tmp_path, capsys, monkeypatch, change, field):
    packs = copy_packs(FIXTURES, tmp_path / "packs")
    rep = json.loads((packs / "report-world-2.json").read_text())
    change(rep)
    (packs / "report-world-2.json").write_text(json.dumps(rep))
    passing_verify(monkeypatch)
    assert cli.guarded(publish.main, ["--packs", str(packs), "--out", str(tmp_path / "site")]) == 2
    one_line(capsys.readouterr().err, "report-world-2.json", f"{field}: ")


def test_strategies_schema_names_every_class_and_filter():
    doc = json.loads((FIXTURES / "strategies.json").read_text())   # kept at today's filters
    schema = packfile.strategies_schema(CLASSES, FILTERS)
    assert packfile.check("strategies.json", doc, schema) == doc
    for name in (*CLASSES, "survivors"):
        bad = json.loads(json.dumps(doc))
        del bad["rows"][2][name]
        with pytest.raises(PackError, match=rf"strategies\.json: rows\[2\]\.{name}: missing"):
            packfile.check("strategies.json", bad, schema)


# ------------------------------------------------------------------ 8. interrupts

def test_sigint_between_pack_and_report_renames_keeps_the_unit(tmp_path, monkeypatch):
    """SIGINT between the pack's and the report's rename left a new pack beside the old
    report, and it stayed so after the next run: the interrupt handler deleted the
    temporary files the journal pointed to."""
    (tmp_path / "world-1.json").write_text("old pack\n")
    (tmp_path / "report-world-1.json").write_text("old report\n")

    def ctrl_c(step: str) -> None:
        if step == "unit-rename:world-1.json":        # after the report's rename, before the pack's
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.1)                            # let the handler run here if it will
    monkeypatch.setattr(safeio, "fault_point", ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        write_pack_and_report(tmp_path, "world-1", {"pack": "world-1", "seed": 7}, [], {"seed": 7})
    monkeypatch.setattr(safeio, "fault_point", lambda step: None)
    for _ in range(2):                                 # and the next runs keep it whole
        pack = json.loads((tmp_path / "world-1.json").read_text())
        rep = json.loads((tmp_path / "report-world-1.json").read_text())
        assert pack["seed"] == rep["seed"] == 7
        with safeio.lock(tmp_path):
            safeio.recover(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report-world-1.json", "world-1.json"]


def test_interrupt_before_a_unit_commits_leaves_the_old_unit(tmp_path, monkeypatch):
    (tmp_path / "world-1.json").write_text("old pack\n")
    (tmp_path / "report-world-1.json").write_text("old report\n")

    def ctrl_c(step: str) -> None:
        if step == "unit-journal":
            raise KeyboardInterrupt
    monkeypatch.setattr(safeio, "fault_point", ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        write_pack_and_report(tmp_path, "world-1", {"pack": "world-1"}, [], {"seed": 7})
    assert (tmp_path / "world-1.json").read_text() == "old pack\n"
    assert (tmp_path / "report-world-1.json").read_text() == "old report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report-world-1.json", "world-1.json"]


# ------------------------------------------------------------------ 9. pool workers

def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_pool_workers_die_with_generate(tmp_path, sig):
    """Killing `generate --workers 2` (SIGKILL or SIGTERM) left both pool workers alive,
    asleep forever on a pipe they held themselves; Ctrl-C waited for the whole run."""
    log = tmp_path / "stderr.txt"           # a file: orphaned workers would hold a pipe open
    with open(log, "w") as err_file:
        proc = subprocess.Popen([sys.executable, "-m", "lumina.generate", "--world", "1", "--workers", "2",
                                 "--out", str(tmp_path / "out")], cwd=ROOT, env=ENV,
                                stdout=subprocess.DEVNULL, stderr=err_file)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
            workers = _children(proc.pid)
        assert len(workers) == 2, "the pool never started"
        time.sleep(1)                                  # the workers are busy with their first jobs
        os.kill(proc.pid, sig)
        code = proc.wait(timeout=60)
        deadline = time.monotonic() + 30
        while any(map(_alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(map(_alive, workers)), f"pool workers outlived generate ({sig.name})"
        err = log.read_text()
        if sig == signal.SIGINT:
            assert code == 130, err[-2000:]
            assert err.strip().splitlines()[-1] == "lumina.generate: interrupted", err[-2000:]
            assert "Traceback" not in err, err[-2000:]
        assert not (tmp_path / "out" / "world-1.json").exists()
    finally:
        for pid in [proc.pid, *workers]:          # only what this test started, by pid
            if _alive(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=60)


def test_workers_are_torn_down_when_a_task_fails():
    from lumina.executor import run_ordered
    before = set(_children(os.getpid()))           # e.g. multiprocessing's resource tracker
    with pytest.raises(ZeroDivisionError):
        run_ordered(_fail_on_three, list(range(8)), workers=2)
    assert not [p for p in _children(os.getpid()) if _alive(p) and p not in before]


def _fail_on_three(x: int) -> int:
    if x == 3:
        raise ZeroDivisionError("job 3")
    time.sleep(0.2)
    return x


# ------------------------------------------------------------------ 10. numeric flags

@pytest.mark.parametrize("argv", [
    ["generate", "--workers", "10000"], ["generate", "--workers", "0"], ["generate", "--workers", "-5"],
    ["bench", "generate", "--workers", "10000"], ["bench", "generate", "--workers", "0"],
    ["bench", "generate", "--workers", "-5"], ["bench", "cluster", "--workers", "65"],
    ["bench", "sweep", "--layouts", "0"], ["bench", "solver", "--python-boards", "-1"],
    ["vectors", "--seed", "-1"], ["generate", "--world", "0"], ["generate", "--world", "100"],
], ids=" ".join)
def test_workers_out_of_range_refused(argv, capsys, monkeypatch):
    """`bench generate --workers 10000` started 228 processes (4.5 GB in 12 s) and
    `--workers 0` and `-5` were accepted silently."""
    from lumina import executor

    def no_work(*a, **k):
        raise AssertionError("work started on an out-of-range flag")
    monkeypatch.setattr(executor, "run_ordered", no_work)
    assert cli.guarded(command_main(argv[0]), argv[1:]) == 2
    one_line(capsys.readouterr().err, argv[-2], "out of range")


def command_main(command: str):
    """`python -m lumina.COMMAND`'s main, as `python -m` finds it."""
    try:
        return importlib.import_module(f"lumina.{command}.__main__").main
    except ModuleNotFoundError:
        return importlib.import_module(f"lumina.{command}").main


def commands() -> dict[str, list[str | None]]:
    """Every command, with the subcommands that add options of their own."""
    from lumina.bench import BENCHMARKS
    return {"publish": [None], "verify": [None], "generate": [None], "solve": [None],
            "vectors": [None], "playtest": [None, "simulate"],
            "bench": [name for name, _ in BENCHMARKS]}


def test_every_numeric_flag_is_range_checked(monkeypatch, capsys):
    """Every option of every command that takes a number parses it with `cli.int_in`
    (a range), never a bare int or float."""
    seen: list[tuple[str, str]] = []
    real = argparse.ArgumentParser.add_argument

    def recording(self, *names, **kw):
        t = kw.get("type")
        if t in (int, float):
            seen.append((self.prog, "/".join(names)))
        return real(self, *names, **kw)
    monkeypatch.setattr(argparse.ArgumentParser, "add_argument", recording)
    for command, subs in commands().items():
        for sub in subs:
            assert cli.guarded(command_main(command), ([sub] if sub else []) + ["--help"]) == 0
    capsys.readouterr()
    assert seen == [], f"numeric flags without a range: {seen}"


# ------------------------------------------------------------------ 11. Ctrl-C at start-up

# A `sitecustomize` on PYTHONPATH (the interpreter imports it before `-m` runs) puts a
# finder first on sys.meta_path: the first time module TRIGGER is looked for, it sends
# this process SIGINT and waits, so the interrupt lands inside that import, whatever
# the command imports lazily. Python's own handler there is a KeyboardInterrupt
# traceback; a lost interrupt is the SystemExit line. Nothing is read from `filelock`
# or any other module's import order: lumina.model is the package's first import
# (lumina/__init__.py), lumina.cli the command module's (every command's `run`).
_INTERRUPT_AT_IMPORT = """\
import os, signal, sys, time

class _InterruptAt:
    done = False

    def find_spec(self, name, path=None, target=None):
        if name == {trigger!r} and not self.done:
            self.done = True
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(10)
            raise SystemExit("the interrupt was lost")
        return None

sys.meta_path.insert(0, _InterruptAt())
"""


@pytest.mark.parametrize("trigger", ["lumina.model", "lumina.cli"])
@pytest.mark.parametrize("command", ["publish", "verify", "generate", "solve", "bench", "vectors", "playtest"])
def test_ctrl_c_during_start_up_imports_is_one_line(tmp_path, command, trigger):
    """Ctrl-C during the start-up imports printed a 15-25-line traceback. Here the
    interrupt lands deterministically inside the import of `trigger` (see
    `_INTERRUPT_AT_IMPORT`): in the package's imports and in the command's own."""
    (tmp_path / "sitecustomize.py").write_text(_INTERRUPT_AT_IMPORT.format(trigger=trigger))
    proc = cli_run(f"lumina.{command}", "--help", pythonpath=f"{tmp_path}{os.pathsep}{ROOT}", timeout=60)
    assert proc.returncode == 130, proc.stderr[-2000:]
    assert proc.stderr == f"lumina.{command}: interrupted\n", proc.stderr[-2000:]
    assert proc.stdout == ""


# ------------------------------------------------------------------ 12, 13, 14. --scheduler

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _silent_listener():
    """A TCP port that accepts connections and never says a word."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve():
        srv.settimeout(0.2)
        while not stop.is_set():
            with contextlib.suppress(OSError):
                held.append(srv.accept()[0])
    t = threading.Thread(target=serve, daemon=True)
    t.start()
    try:
        yield srv.getsockname()[1]
    finally:
        stop.set()
        t.join(5)
        for c in held:
            c.close()
        srv.close()


@contextlib.contextmanager
def _web_server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    try:
        yield httpd.server_address[1]
    finally:
        httpd.shutdown()
        httpd.server_close()


def _generate_on(address: str, out: Path, timeout: float = 90) -> subprocess.CompletedProcess:
    return cli_run("lumina.generate", "--world", "1", "--out", str(out), "--scheduler", address,
                   env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"}, timeout=timeout)


@pytest.mark.parametrize("listener", [_silent_listener, _web_server], ids=["silent-port", "web-server"])
def test_scheduler_that_never_answers_is_one_line(tmp_path, listener):
    """An address where a web server or a silent TCP listener answers: generate hung
    for more than 450 s with no output; the connect timeout was not applied."""
    with listener() as port:
        proc = _generate_on(f"tcp://127.0.0.1:{port}", tmp_path / "out")
    exit_2(proc, f"tcp://127.0.0.1:{port}", "no Dask scheduler answered within 2 s")
    assert not (tmp_path / "out" / "world-1.json").exists()


@pytest.mark.parametrize("address", ["inproc://x", "tls://127.0.0.1:1", "ucx://127.0.0.1:1",
                                     "ws://127.0.0.1:1"])
def test_scheduler_address_schemes_are_one_line(tmp_path, address):
    """inproc:// and tls://: the one-line error, then a Dask traceback and a 20 s wait;
    ucx://: a FutureWarning, then an internal error."""
    proc = _generate_on(address, tmp_path / "out")
    line = exit_2(proc, address, "tcp://HOST:PORT")
    assert "not supported" in line
    assert "FutureWarning" not in proc.stderr


@pytest.mark.slow
def test_scheduler_lost_mid_run_is_one_line(tmp_path):
    """A scheduler killed mid-run: exit 2 with two tracebacks, about 34 stderr lines,
    and `internal error (FutureCancelledError)`."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    logs = open(tmp_path / "dask.log", "w")
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                                  "127.0.0.1", "--port", str(port), "--no-dashboard"], env=ENV,
                                 stdout=logs, stderr=logs)
    worker = None
    try:
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                                   "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                                  env=ENV, stdout=logs, stderr=logs)
        gen = subprocess.Popen([sys.executable, "-m", "lumina.generate", "--world", "1", "--out",
                                str(tmp_path / "out"), "--scheduler", address], cwd=ROOT, env=ENV,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        lines = []
        for line in gen.stderr:                       # the first finished task: mid-run
            lines.append(line)
            if "1/" in line:
                break
        assert gen.poll() is None, "".join(lines)
        scheduler.kill()
        rest = gen.stderr.read()
        code = gen.wait(timeout=120)
        err = "".join(lines) + rest
        assert code == 2, err[-3000:]
        one_line(err, "scheduler was lost", "nothing written", skip=("world-1:",))
        assert not (tmp_path / "out" / "world-1.json").exists()
    finally:
        for p in (scheduler, worker):
            if p is not None:
                p.kill()
                p.wait(timeout=60)
        logs.close()


# ------------------------------------------------------------------ 15, 16. other people's files

def test_user_site_old_backup_survives_publish(tmp_path, monkeypatch):
    """Publish deleted any folder named .site.old-<alnum> or .site.build-<alnum> beside
    --out: a user's backup. Only what a journal of ours names is cleaned."""
    passing_verify(monkeypatch)
    packs = copy_packs(FIXTURES, tmp_path / "packs")
    out = tmp_path / "site"
    assert publish.publish(packs, out) == 0
    backups = [tmp_path / ".site.old-2024_01_01", tmp_path / ".site.build-mine", tmp_path / ".site.old-abc"]
    for b in backups:
        shutil.copytree(out, b)                         # marker and all: a copy of the site
    (tmp_path / ".lumina-swap.0123456789abcdef.json").write_text("my notes, not a journal\n")
    assert publish.publish(packs, out) == 0
    for b in backups:
        assert b.is_dir() and site.tree_hash(b) == site.tree_hash(out), b
    assert (tmp_path / ".lumina-swap.0123456789abcdef.json").read_text() == "my notes, not a journal\n"


def test_user_tmp_file_survives_a_write(tmp_path):
    """Any write into a folder deleted files named .<anything>.<8 alnum>.tmp there (a
    user's .notes.20240101.tmp, seen with generate --out)."""
    mine = {".notes.20240101.tmp": "notes", ".world-1.json.0123456789abcdef.tmp": "a draft",
            ".lumina-unit.0123456789abcdef.json": '{"files": {"x": "y"}}',
            ".lumina-unit.fedcba9876543210.pending": "not a journal"}
    for name, text in mine.items():
        (tmp_path / name).write_text(text)
    write_pack_and_report(tmp_path, "world-1", {"pack": "world-1"}, [], {"seed": 1})
    safeio.atomic_write(tmp_path / "notes.txt", "x")
    safeio.check_writable_folder(tmp_path)
    for name, text in mine.items():
        assert (tmp_path / name).read_text() == text, name
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [*mine, "notes.txt", "report-world-1.json", "world-1.json"])


def test_leftovers_of_a_killed_run_are_cleaned_by_their_journals(tmp_path):
    """What this program left when it was killed (journals naming their temps) is
    finished or deleted by the next run; nothing else is touched."""
    token = "0123456789abcdef"
    (tmp_path / f".world-1.json.{token}.tmp").write_text('{"new": "pack"}')
    (tmp_path / f".report-world-1.json.{token}.tmp").write_text('{"new": "report"}')
    (tmp_path / f".lumina-unit.{token}.json").write_text(json.dumps(
        {"lumina": "unit", "files": {"report-world-1.json": f".report-world-1.json.{token}.tmp",
                                     "world-1.json": f".world-1.json.{token}.tmp"}}))
    other = "fedcba9876543210"
    (tmp_path / f".dailies.json.{other}.tmp").write_text("half a pack")
    (tmp_path / f".lumina-unit.{other}.pending").write_text(json.dumps(
        {"lumina": "unit", "files": {"dailies.json": f".dailies.json.{other}.tmp"}}))
    safeio.atomic_write(tmp_path / "x.txt", "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report-world-1.json", "world-1.json", "x.txt"]
    assert json.loads((tmp_path / "world-1.json").read_text()) == {"new": "pack"}


# ------------------------------------------------------------------ 17, 18. one line

def test_vectors_bogus_flag_is_one_line():
    """`python -m lumina.vectors --bogus` printed usage and the error on two lines."""
    exit_2(cli_run("lumina.vectors", "--bogus"), "--bogus")


@pytest.mark.parametrize("command", ["publish", "generate"])
def test_publish_out_symlink_loop_is_one_line(tmp_path, command):
    """`publish --out` on a symlink loop: `internal error (RuntimeError: Symlink loop)`."""
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    args = ["--out", str(tmp_path / "loop")] + (["--packs", str(FIXTURES)] if command == "publish"
                                                else ["--world", "1"])
    exit_2(cli_run(f"lumina.{command}", *args), "loop", "symlink loop")


# ------------------------------------------------------------------ one writer, one glob

_FS_CHANGES = re.compile(r"\bos\.(?:replace|renames?|unlink|remove|rmdir)\(|\bshutil\.(?:rmtree|move)\(")
_PACK_NAMES = re.compile(r"""\.glob\(\s*["'](?:world-|report-|dailies)""")


def _sources() -> list[Path]:
    return sorted((ROOT / "lumina").rglob("*.py"))


def test_only_safeio_renames_or_deletes_files():
    """One writer: every rename and delete of an output (the site's swap, a pack and
    its report as one unit, the cleaning of a killed run's leftovers by its journal) is
    in lumina.safeio, so no second two-rename commit can skip its journal or marker."""
    found = [f"{p.relative_to(ROOT)}:{n}" for p in _sources() if p.name != "safeio.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if _FS_CHANGES.search(line)]
    assert found == []
    assert "safeio.replace_tree(writer.files, out" in (ROOT / "lumina" / "publish.py").read_text()


def test_pack_files_are_found_by_one_glob_helper():
    """A packs folder's files are found by lumina.packfile's helpers alone (pack_files,
    world_files, report_files): bench playtest and the site's reports each had a glob
    of their own, which a change of the packs' names would have left behind."""
    found = [f"{p.relative_to(ROOT)}:{n}" for p in _sources() if p.name != "packfile.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if _PACK_NAMES.search(line)]
    assert found == []
    folder = REAL_PACKS
    assert packfile.world_files(folder) == [p for p in packfile.pack_files([folder])
                                            if p.name.startswith("world-")]
    assert [p.name for p in packfile.report_files(folder)] == sorted(
        p.name for p in folder.iterdir() if p.name.startswith("report-") and p.suffix == ".json")
