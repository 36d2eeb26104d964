"""Mining into the pool (lumina.mine, lumina.gen.mining, lumina.gen.pool): a killed
run (SIGKILL, SIGTERM) resumes to the same rows and packs as an unbroken one, a Dask
cluster mines the same rows, every kept board passes the judge, and bad input is one
line and exit 2. The campaign is tests/data/mine-campaign.toml (six small jobs)."""
from __future__ import annotations

import gzip
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lumina import cli, judge, mine
from lumina.engine import measure
from lumina.gen import pool as store
from lumina.gen.mining import run_job
from lumina.model import Level
from lumina.worlds import load

ROOT = Path(__file__).resolve().parent.parent
CAMPAIGN_FILE = ROOT / "tests" / "data" / "mine-campaign.toml"
CAMPAIGN = load(CAMPAIGN_FILE)
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


def _cli(module: str, *args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", module, "--campaign", str(CAMPAIGN_FILE), *args],
                            cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **kw)


def _run(module: str, *args: str) -> subprocess.CompletedProcess:
    p = _cli(module, *args)
    out, err = p.communicate(timeout=600)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def _shards(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.jsonl.gz"))}


def _jobs_done(folder: Path) -> int:
    path = folder / store.DB_NAME
    if not path.exists():
        return 0
    try:
        db = sqlite3.connect(path, timeout=1)
        try:
            return db.execute("SELECT count(*) FROM jobs").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def _compose(pool: Path, out: Path) -> dict[str, bytes]:
    proc = _run("lumina.compose", "--pool", str(pool), "--out", str(out), "--force")
    assert proc.returncode in (0, 1), proc.stderr
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


@pytest.fixture(scope="module")
def unbroken(tmp_path_factory):
    """The campaign mined in one go, and the packs composed from it."""
    base = tmp_path_factory.mktemp("unbroken")
    proc = _run("lumina.mine", "--pool", str(base / "pool"))
    assert proc.returncode == 0, proc.stderr
    return _shards(base / "pool"), _compose(base / "pool", base / "packs")


@pytest.mark.parametrize("sig,workers", [(signal.SIGKILL, "2"), (signal.SIGTERM, "1")])
def test_a_killed_run_resumes_to_the_same_rows_and_packs(unbroken, tmp_path, sig, workers):
    shards, packs = unbroken
    folder = tmp_path / "pool"
    p = _cli("lumina.mine", "--pool", str(folder), "--workers", workers)
    deadline = time.monotonic() + 300
    while _jobs_done(folder) < 1 and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    p.send_signal(sig)
    p.communicate(timeout=60)
    done = _jobs_done(folder)
    assert 1 <= done < len(CAMPAIGN.mine), f"the kill landed after {done} jobs"
    assert not _shards(folder), "a killed run exported a half pool"
    proc = _run("lumina.mine", "--pool", str(folder), "--workers", workers)
    assert proc.returncode == 0, proc.stderr
    assert f"mined {len(CAMPAIGN.mine) - done} jobs" in proc.stderr     # the rest only
    assert _shards(folder) == shards
    assert _compose(folder, tmp_path / "packs") == packs


def test_a_mined_job_is_skipped(tmp_path):
    folder = tmp_path / "pool"
    assert mine.mine(CAMPAIGN, folder, limit=1) == 1
    db = store.open_pool(folder)
    first = store.rows(db)
    db.close()
    assert mine.mine(CAMPAIGN, folder, limit=1) == 1       # the next missing job, not the same
    db = store.open_pool(folder)
    assert len(store.done_jobs(db)) == 2 and len(store.rows(db)) >= len(first)
    db.close()


def test_mining_on_a_dask_cluster_gives_the_same_rows(unbroken, tmp_path):
    import distributed          # the cluster extra; the test extra pulls it (test_cluster.py)
    shards, _ = unbroken
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=":0") as c:
        ran = mine.mine(CAMPAIGN, tmp_path / "pool", workers=2, scheduler=c.scheduler_address)
    assert ran == len(CAMPAIGN.mine)
    assert _shards(tmp_path / "pool") == shards


def test_shards_load_into_a_store_with_the_same_rows(unbroken, tmp_path):
    shards, _ = unbroken
    folder = tmp_path / "pool"
    folder.mkdir()
    for name, data in shards.items():
        (folder / name).write_bytes(data)
    db = store.open_pool(folder)            # no store yet: built from the shards
    store.export_shards(db, tmp_path / "again") if (tmp_path / "again").mkdir() is None else None
    db.close()
    assert _shards(tmp_path / "again") == shards
    for name, data in shards.items():       # gzip without a name or a time: byte-stable
        assert data[4:8] == b"\0\0\0\0", name
        lines = gzip.decompress(data).decode().splitlines()
        rows = [json.loads(line) for line in lines]
        if name.startswith(store.SHARD_PREFIX):
            assert [(r["par"], r["desc"]) for r in rows] == sorted((r["par"], r["desc"]) for r in rows)


def test_every_kept_board_passes_the_judge_at_its_hardest_start(unbroken):
    shards, _ = unbroken
    rows = [json.loads(line) for name, data in shards.items() if name.startswith(store.SHARD_PREFIX)
            for line in gzip.decompress(data).decode().splitlines()]
    assert len(rows) > 20 and {r["mechanic"] for r in rows} == {"crystal", "rime"}
    for r in rows[::7]:
        lv = Level.from_json({"id": "x", **r["level"]})
        m = measure(lv)
        assert m.optimal == lv.optimal == r["par"] and m.deepest == r["par"]
        assert judge.level_problems(lv, m) == [], r["desc"]
        assert r["margin"] == r["par"] - r["crystal_par"]
        assert r["job"] in {j.id for j in CAMPAIGN.mine}


def test_a_job_is_a_pure_function_of_its_fields():
    job = CAMPAIGN.mine[-1]
    a, b = run_job(job), run_job(job)
    assert a.boards == b.boards and a.work == b.work and a.boards


@pytest.mark.parametrize("args,needle", [
    (["--pool", "{file}"], "not a folder"),
    (["--workers", "0"], "--workers"),
    (["--status", "--limit", "3"], "--status"),
    (["--status", "--pool", "{missing}"], "no such folder"),
])
def test_bad_input_to_mine_is_one_line_exit_2(tmp_path, capsys, args, needle):
    (tmp_path / "file").write_text("x")
    args = [a.format(file=tmp_path / "file", missing=tmp_path / "missing") for a in args]
    assert cli.guarded(mine.main, ["--campaign", str(CAMPAIGN_FILE), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0], err


def test_a_bad_mine_table_names_the_file_and_field(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(CAMPAIGN_FILE.read_text().replace("layouts = 400", "layouts = -1"))
    assert cli.guarded(mine.main, ["--campaign", str(bad), "--pool", str(tmp_path / "p")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{bad}: mine[0]: layouts: -1 is out of range" in err[0], err
    assert not (tmp_path / "p").exists()



@pytest.mark.parametrize("old,new,needle", [
    # the campaign's grid-fit check holds for a mining job as for a bucket: 5x5 has 25
    # cells, the key and 12 blockers need 26 and one left free
    ("blockers = [3, 6]\nlayouts = 400", "blockers = [3, 12]\nlayouts = 400",
     "mine[0]: size: a 5x5 grid has 25 cells"),
    ("layouts = 400", "layouts = 400\ncolour = 1", "mine[0]: colour: unknown field"),
    ("layouts = 400", "layouts = 400\ndeep = 10", "mine[0]: deep: give a search budget"),
    ("twists = { rime = 1 }\ndeep = 400", "twists = { rime = 8 }\ndeep = 400",
     "mine[1]: twists: 8 twist blocks"),
])
def test_a_mine_table_is_read_by_the_campaign_schema(tmp_path, old, new, needle):
    """[[mine]] tables are declared in the campaign's one schema (lumina.worlds.MINE_SCHEMA)
    and their block mix is checked as a bucket's: one line naming the table and field."""
    from lumina.worlds import CampaignError
    text = CAMPAIGN_FILE.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(CampaignError) as e:
        load(bad)
    assert f"{bad}: {needle}" in str(e.value), str(e.value)
