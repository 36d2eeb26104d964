"""Files written together stay together through any kill (issue 28).

A pack and its report (and any pair written together) commit through one journal
(`lumina.safeio.write_unit`). SIGKILL can land between any two renames; the next Lumina
command in that folder, reader or writer, completes the unit or rolls it back before it
reads or refuses anything (`safeio.settle`), so the pack and the report it sees always
come from the same run. strace kills the writer at every rename syscall, from outside.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lumina import safeio
from lumina.packfile import pack_files, write_pack_and_report

ROOT = Path(__file__).resolve().parents[1]
WORLD1 = ROOT / "tests" / "fixtures" / "packs" / "world-1.json"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}

_WRITER = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from lumina.packfile import write_pack_and_report
    folder, seed = Path(sys.argv[1]), int(sys.argv[2])
    pack = json.loads(Path(sys.argv[3]).read_text())
    meta = {k: v for k, v in pack.items() if k != "levels"}
    from lumina.packfile import read_pack
    write_pack_and_report(folder, "world-1", {**meta, "seed": seed}, read_pack(sys.argv[3]).levels,
                          {"pack": "world-1", "seed": seed})
""")

NEXT = {
    # a reader: verify the folder (whatever its verdict)
    "verify": lambda folder: [sys.executable, "-m", "lumina.verify", str(folder)],
    # a writer there that fails before writing anything of its own
    "simulate": lambda folder: [sys.executable, "-m", "lumina.playtest", "simulate", "--levels",
                                str(folder / "world-1.json"), "--players", "1", "--seed", "1",
                                "--only", "no-such-level", "--out", str(folder / "log.jsonl")],
}


def _strace_ok() -> None:
    if not shutil.which("strace"):
        pytest.skip("strace not installed")
    if subprocess.run(["strace", "-f", "-o", "/dev/null", "true"], capture_output=True).returncode:
        pytest.skip("strace cannot trace here (no ptrace)")


def _seeds(folder: Path) -> tuple[int, int]:
    return (json.loads((folder / "world-1.json").read_text())["seed"],
            json.loads((folder / "report-world-1.json").read_text())["seed"])


@pytest.mark.parametrize("next_command", sorted(NEXT))
def test_pack_and_report_from_one_run_after_sigkill_at_every_rename(tmp_path, next_command):
    """Kill the writer of run k at its k-th rename, then run the next command in the
    folder: the pack and the report are both run k's or both the run before's, and no
    journal or temporary is left (before: the reader saw run k's report beside the old
    pack, the journal still there)."""
    _strace_ok()
    folder = tmp_path / "packs"
    folder.mkdir()
    script = tmp_path / "writer.py"
    script.write_text(_WRITER)
    subprocess.run([sys.executable, str(script), str(folder), "0", str(WORLD1)], env=ENV, check=True)
    assert _seeds(folder) == (0, 0)
    killed, done = 0, False
    for k in range(1, 8):
        proc = subprocess.run(["strace", "-f", "-qq", "-o", "/dev/null", "-e",
                               f"inject=rename,renameat,renameat2:signal=SIGKILL:when={k}",
                               sys.executable, str(script), str(folder), str(k), str(WORLD1)],
                              capture_output=True, text=True, env=ENV, timeout=120)
        subprocess.run(NEXT[next_command](folder), capture_output=True, env=ENV, timeout=300)
        pack, report = _seeds(folder)
        assert pack == report, f"killed at rename {k}: pack of run {pack}, report of run {report}"
        assert pack in (k, k - 1) or proc.returncode != 0 and pack <= k
        assert not [p.name for p in folder.iterdir() if p.name.startswith(".")], f"rename {k}"
        if proc.returncode == 0:
            done = True
            break
        killed += 1
    assert done and killed >= 3, f"the unit has a journal and two renames; killed at {killed}"


def _kill_at(step_no: int, fn) -> int:
    """`fn` in a forked child that dies (os._exit, no cleanup) at its `step_no`-th fault point."""
    pid = os.fork()
    if pid == 0:
        try:
            seen = [0]

            def die(step):
                seen[0] += 1
                if seen[0] == step_no:
                    os._exit(137)
            safeio.fault_point = die
            fn()
            os._exit(0)
        except BaseException:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def test_a_reader_settles_a_unit_killed_at_every_step(tmp_path):
    """In-process, at every fault point of the unit: `pack_files` (every reader of a
    packs folder) settles it first."""
    write_pack_and_report(tmp_path, "world-1", {"pack": "world-1", "seed": 0}, [], {"seed": 0})
    for k in range(1, 10):
        status = _kill_at(k, lambda: write_pack_and_report(tmp_path, "world-1", {"pack": "world-1", "seed": k},
                                                           [], {"seed": k}))
        pack_files([tmp_path])
        assert _seeds(tmp_path)[0] == _seeds(tmp_path)[1], f"kill at step {k}"
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
        if status == 0:
            break
    else:
        pytest.fail("the writer never finished")
