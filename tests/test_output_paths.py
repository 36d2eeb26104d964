"""Every command that writes checks its output path first, the one way (issue 28).

`lumina.safeio.check_output` is called by generate, publish, playtest (report and
simulate), bench and vectors before any work: an existing folder, device, FIFO or socket
where a file goes (or a symlink to one) is refused, and so is an output that is one of
the command's inputs; the message names the path the user typed. A failed write never
leaves a journal behind that blocks the next one. A full disk or a missing permission
names the file.
"""
from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from lumina import cli, safeio
from lumina.packfile import write_pack_and_report

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "packs"
WORLD1 = FIXTURES / "world-1.json"


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, errors="backslashreplace")


def one_line(proc: subprocess.CompletedProcess, *words: str) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and len(lines[0]) <= cli.MAX_LINE, proc.stderr[:2000]
    for w in words:
        assert w in lines[0], (w, lines[0])
    assert ".tmp" not in lines[0] and ".lumina-unit" not in lines[0], lines[0]
    return lines[0]


def dotfiles(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


# ------------------------------------------------------------------ what may not be written

def _fifo(p: Path) -> None:
    os.mkfifo(p)


def _device(p: Path) -> None:
    try:
        os.mknod(p, stat.S_IFCHR | 0o666, os.makedev(1, 3))      # a /dev/null of our own
    except PermissionError:
        pytest.skip("mknod needs root")


def _folder(p: Path) -> None:
    p.mkdir()


def _link_to(make):
    def link(p: Path) -> None:
        target = p.with_name(p.name + ".target")
        make(target)
        p.symlink_to(target)
    return link


KINDS = {"folder": _folder, "fifo": _fifo, "device": _device, "symlink-to-folder": _link_to(_folder),
         "symlink-to-fifo": _link_to(_fifo), "symlink-to-device": _link_to(_device)}


def _same_kind(p: Path, kind: str) -> bool:
    st = os.stat(p)
    return {"folder": stat.S_ISDIR, "fifo": stat.S_ISFIFO, "device": stat.S_ISCHR}[kind.split("-")[-1]](st.st_mode)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_simulate_out_that_is_no_file_refused(tmp_path, kind):
    """`simulate --out X`: X a folder, FIFO or device (or a symlink to one) is refused by
    its typed name, and stays what it was (before: a rename replaced it, or the failure
    named a hidden temporary and left a journal that blocked every later write)."""
    out = tmp_path / "log.jsonl"
    KINDS[kind](out)
    one_line(run("lumina.playtest", "simulate", "--levels", str(WORLD1), "--players", "1", "--seed", "1",
                  "--out", str(out)), str(out))
    assert _same_kind(out, kind)
    assert os.path.islink(out) == kind.startswith("symlink")
    assert dotfiles(tmp_path) == []


def test_simulate_out_is_its_own_input_refused(tmp_path):
    """`simulate --levels P --out P` overwrote the very pack it read."""
    pack = tmp_path / "world-1.json"
    shutil.copy(WORLD1, pack)
    before = pack.read_bytes()
    for levels, out in ((pack, pack), (tmp_path, pack), (pack, tmp_path / "link.json")):
        if out.name == "link.json":
            out.symlink_to(pack)
        one_line(run("lumina.playtest", "simulate", "--levels", str(levels), "--players", "1", "--seed", "1",
                      "--out", str(out)), str(out), "input")
        assert pack.read_bytes() == before
    assert dotfiles(tmp_path) == []


def test_generate_out_with_a_folder_where_the_pack_goes_refused_before_work(tmp_path, monkeypatch, capsys):
    """`generate --out G` with G/world-1.json a folder generated for a minute, then wrote
    the report but not the pack: half a unit, and a journal that blocked the folder."""
    from lumina import generate
    (tmp_path / "world-1.json").mkdir()
    monkeypatch.setattr(generate, "generate_packs", lambda *a, **k: pytest.fail("generated before checking --out"))
    assert cli.guarded(generate.main, ["--world", "1", "--out", str(tmp_path)], prog="lumina.generate") == 2
    err = capsys.readouterr().err.strip()
    assert str(tmp_path / "world-1.json") in err and "folder" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["world-1.json"]


@pytest.mark.parametrize("command", ["generate", "publish", "playtest", "simulate", "vectors",
                                     "bench-deep", "bench-strategies"])
def test_every_writer_refuses_a_fifo_or_folder_before_work(tmp_path, command):
    """One check, every command: the output named as typed, exit 2, before any work (each
    of these would otherwise run for seconds to minutes first)."""
    fifo = tmp_path / "out-fifo"
    os.mkfifo(fifo)
    folder = tmp_path / "a-folder"
    folder.mkdir()
    (folder / "x").write_text("keep\n")
    argv = {
        "generate": ["lumina.generate", "--world", "1", "--out", str(fifo)],
        "publish": ["lumina.publish", "--packs", str(FIXTURES), "--out", str(fifo)],
        "playtest": ["lumina.playtest", str(tmp_path / "missing.jsonl"), "--packs", str(WORLD1),
                     "--out", str(fifo)],
        "simulate": ["lumina.playtest", "simulate", "--levels", str(WORLD1), "--players", "1", "--seed", "1",
                     "--out", str(folder)],
        "vectors": ["lumina.vectors", str(WORLD1), "--out", str(folder)],
        "bench-deep": ["lumina.bench", "deep", "--target", "5", "--seeds", "1", "--out", str(folder)],
        "bench-strategies": ["lumina.bench", "strategies", "--quick", "--out", str(fifo)],
    }[command]
    typed = argv[-1]
    one_line(run(*argv, timeout=60), typed)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and (folder / "x").read_text() == "keep\n"
    assert dotfiles(tmp_path) == [] and dotfiles(folder) == []


def test_publish_out_holding_the_campaign_refused(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / safeio.MARKER).write_text(safeio.MARKER_TEXT)      # as an earlier publish left it
    camp = site / "campaign.toml"
    shutil.copy(ROOT / "lumina" / "campaign.toml", camp)
    one_line(run("lumina.publish", "--packs", str(FIXTURES), "--out", str(site), "--campaign", str(camp)),
             str(site))
    assert camp.read_bytes() == (ROOT / "lumina" / "campaign.toml").read_bytes()


def test_check_output_is_one_call_for_a_file_or_a_folder(tmp_path):
    """The documented call, as a new command (mine, compose) makes it."""
    inp = tmp_path / "in.json"
    inp.write_text("{}")
    assert safeio.check_output(tmp_path / "new" / "out.json", inputs=[inp]) == tmp_path / "new" / "out.json"
    assert safeio.check_output(tmp_path / "o", inputs=[inp], files=["a.json", "b.json"]) == tmp_path / "o"
    with pytest.raises(safeio.OutputError, match="one of this command's inputs"):
        safeio.check_output(str(inp), inputs=[inp])
    with pytest.raises(safeio.OutputError, match="one of this command's inputs"):
        safeio.check_output(tmp_path, inputs=[inp], files=["in.json"])
    (tmp_path / "f").write_text("a file")
    with pytest.raises(safeio.OutputError, match="f/x.json: refusing --out: a folder on its way is a file|is a file"):
        safeio.check_output(tmp_path / "f" / "x.json")


# ------------------------------------------------------------------ journals

def test_stale_journal_never_blocks_the_next_write(tmp_path):
    """A committed journal whose target is now a folder (what a failed write into an
    existing folder left): before, every later write into the folder failed until the
    user deleted dot-files by hand; now the next command clears it and writes."""
    token = "0123456789abcdef"
    (tmp_path / "world-1.json").mkdir()
    (tmp_path / f".world-1.json.{token}.tmp").write_text("half a unit\n")
    (tmp_path / f".lumina-unit.{token}.json").write_text(json.dumps(
        {"lumina": "unit", "files": {"world-1.json": f".world-1.json.{token}.tmp"}}))
    write_pack_and_report(tmp_path, "world-2", {"pack": "world-2"}, [], {"seed": 2})
    assert json.loads((tmp_path / "report-world-2.json").read_text()) == {"seed": 2}
    assert dotfiles(tmp_path) == []
    assert (tmp_path / "world-1.json").is_dir()


def test_a_refused_write_leaves_no_journal(tmp_path):
    """The unit itself refuses a target that is a folder before it commits: nothing
    renamed (no report without its pack), nothing left behind, the next write works."""
    (tmp_path / "world-1.json").mkdir()
    (tmp_path / "report-world-1.json").write_text("old report\n")
    with pytest.raises(safeio.OutputError, match="world-1.json: refusing to write: it is a folder"):
        write_pack_and_report(tmp_path, "world-1", {"pack": "world-1"}, [], {"seed": 1})
    assert (tmp_path / "report-world-1.json").read_text() == "old report\n"
    assert dotfiles(tmp_path) == []
    write_pack_and_report(tmp_path, "world-2", {"pack": "world-2"}, [], {"seed": 2})
    assert dotfiles(tmp_path) == []


def test_the_output_check_settles_the_folder(tmp_path):
    """A stale pending journal (a run killed before it committed) is cleared by the next
    command's output check, before any work; a stale journal is never a reason to refuse."""
    token = "fedcba9876543210"
    (tmp_path / f".log.jsonl.{token}.tmp").write_text("half\n")
    (tmp_path / f".lumina-unit.{token}.pending").write_text(json.dumps(
        {"lumina": "unit", "files": {"log.jsonl": f".log.jsonl.{token}.tmp"}}))
    safeio.check_output(tmp_path / "log.jsonl")
    assert dotfiles(tmp_path) == []


# ------------------------------------------------------------------ disk full, no permission

@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EACCES, errno.EDQUOT])
def test_full_disk_or_no_permission_names_the_file(tmp_path, monkeypatch, capsys, err):
    """"No space left on device" with no file named: now the file the user asked for."""
    from lumina.playtest import __main__ as playtest
    out = tmp_path / "sim.jsonl"
    real = os.write

    def failing(fd, data):
        if os.fstat(fd).st_size > 100:       # after the journal: the log itself
            raise OSError(err, os.strerror(err))
        return real(fd, data)
    monkeypatch.setattr(os, "write", failing)
    code = cli.guarded(playtest.main, ["simulate", "--levels", str(WORLD1), "--players", "2", "--seed", "1",
                                       "--out", str(out)], prog="lumina.playtest")
    monkeypatch.setattr(os, "write", real)
    assert code == 2
    line = capsys.readouterr().err.strip()
    assert str(out) in line and os.strerror(err) in line, line
    assert not out.exists() and dotfiles(tmp_path) == []
