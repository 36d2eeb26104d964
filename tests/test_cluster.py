"""Generation on a Dask cluster: the same bytes as one process, whatever happens to
the workers; an unreachable cluster is one line and exit 2.

One local cluster (2 worker processes, one thread each) serves the whole module.
Task functions defined here reach the workers by reference (the workers are spawned
with this process's sys.path)."""
from __future__ import annotations

import dataclasses
import functools
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import distributed  # noqa: E402  (the cluster extra; the test extra pulls it, so CI runs these)

from lumina import cli, generate  # noqa: E402
from lumina.gen import packs  # noqa: E402
from lumina.executor import ClusterError, run_ordered  # noqa: E402
from lumina.packfile import read_pack  # noqa: E402
from lumina.worlds import DAILY_BUCKETS, DAILY_POOL, load, scaled_daily_buckets  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "tests" / "data" / "cluster-campaign.toml"   # the demo worlds, a 12-level daily pool
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=":0") as c:
        yield c


def _gen(out: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lumina.generate", "--out", str(out), *args],
                          cwd=ROOT, capture_output=True, text=True, env=ENV, timeout=900)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


# ---------------------------------------------------------------------------
# Task functions (module level: pickled by reference).

def _late_square(x: int) -> tuple[int, int]:
    """Early jobs finish last, so gathering in completion order would scramble them."""
    time.sleep(0.05 * (5 - x % 6))
    return x, x * x


def _die_once(marker: str, job):
    """Kill this worker process the first time any task runs (exactly once: the
    marker is created exclusively), then behave as the real bucket task."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return packs.run_job(job)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    os._exit(1)


def _always_die(_job):
    os._exit(1)


def _die_in_child(x: int) -> int:
    if x == 3:
        os._exit(1)
    return x


# ---------------------------------------------------------------------------
# The pool size.

@pytest.mark.parametrize("n", [1, 2, 9, 10, 11, 12, 100, 173, 174, 175, 349, 1000, 4321])
def test_scaled_daily_buckets_sum_to_the_pool(n):
    buckets = scaled_daily_buckets(n)
    assert sum(b.levels for b in buckets) == n
    assert all(b.levels >= 1 for b in buckets)
    names = [b.name for b in DAILY_BUCKETS]
    assert [b.name for b in buckets] == [x for x in names if x in {b.name for b in buckets}]
    by_name = {b.name: b for b in DAILY_BUCKETS}
    for b in buckets:     # largest remainder: every bucket within one level of its exact share
        assert abs(b.levels - by_name[b.name].levels * n / DAILY_POOL) < 1
        assert dataclasses.replace(b, levels=by_name[b.name].levels) == by_name[b.name]
    assert scaled_daily_buckets(n) == buckets          # a pure function of n


def test_scaled_daily_buckets_of_the_site_pool_is_the_pool():
    assert scaled_daily_buckets(DAILY_POOL) is DAILY_BUCKETS


def test_pool_needs_dailies_and_a_size(capsys):
    for argv in (["--world", "1", "--daily-size", "12"], ["--dailies", "--daily-size", "0"]):
        assert cli.guarded(generate.main, argv) == 2
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1 and "--daily-size" in err[0], err


def test_other_pool_sizes_never_replace_the_committed_pool():
    assert packs.dailies_pack_name(DAILY_POOL) == "dailies"
    assert packs.dailies_pack_name(12) == "dailies-pool-12"


# ---------------------------------------------------------------------------
# The seam.

@pytest.mark.parametrize("workers", [1, 2])
def test_run_ordered_keeps_job_order_locally(workers):
    jobs = list(range(8))
    assert run_ordered(_late_square, jobs, workers=workers) == [(x, x * x) for x in jobs]


def test_run_ordered_keeps_job_order_on_the_cluster(cluster):
    jobs = list(range(8))
    got = run_ordered(_late_square, jobs, workers=2, scheduler=cluster.scheduler_address)
    assert got == [(x, x * x) for x in jobs]


def test_scheduler_connection_inside_a_running_event_loop(cluster):
    """The bounded connection probe called asyncio.run, a RuntimeError where the
    caller's thread already runs an event loop (a notebook; in CI, Playwright's sync
    API from the browser tests): every --scheduler run after them was 'cannot reach'."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor
    jobs = list(range(4))

    async def caller():
        asyncio.get_running_loop()      # the loop runs in the caller's thread
        return run_ordered(_late_square, jobs, workers=2, scheduler=cluster.scheduler_address)
    # A thread of its own: after the browser tests this (the main) thread already runs
    # Playwright's loop, where the test's own asyncio.run would fail before the code
    # under test is reached.
    with ThreadPoolExecutor(1) as pool:
        got = pool.submit(asyncio.run, caller()).result()
    assert got == [(x, x * x) for x in jobs]


def test_progress_is_one_line_per_finished_task_off_a_terminal(capsys):
    run_ordered(_late_square, [0, 1, 2], label="demo", names=["a", "b", "c"])
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 4 and err[0].startswith("demo: 3 tasks")
    assert [line.split()[1:3] for line in err[1:]] == [["1/3", "a"], ["2/3", "b"], ["3/3", "c"]]


def test_local_worker_death_is_an_error_not_a_hang():
    # multiprocessing.Pool.imap waits forever for a task whose worker died
    with pytest.raises(ClusterError, match="died"):
        run_ordered(_die_in_child, list(range(6)), workers=2)


# ---------------------------------------------------------------------------
# Same bytes through --scheduler.

@pytest.mark.slow
def test_world_through_the_scheduler_is_byte_identical(cluster, tmp_path):
    local, remote = tmp_path / "local", tmp_path / "cluster"
    proc = _gen(local, "--campaign", str(SMALL), "--world", "1", "--workers", "1")
    assert proc.returncode == 0, proc.stderr[-2000:]
    proc = _gen(remote, "--campaign", str(SMALL), "--world", "1", "--scheduler",
                cluster.scheduler_address, "--workers", "2")
    assert proc.returncode == 0, proc.stderr[-2000:]
    w1 = load(SMALL).world(1)
    n = len(packs.jobs_of(w1.buckets, w1.seed))
    assert "on the cluster at" in proc.stderr and f"{n}/{n}" in proc.stderr
    assert _files(remote) == _files(local)
    assert set(_files(remote)) == {"world-1.json", "report-world-1.json"}


@pytest.fixture(scope="module")
def small_worlds(tmp_path_factory) -> Path:
    """The small campaign's world packs (a daily pool is judged against the worlds in
    its --out), generated once for the module: a few seconds."""
    out = tmp_path_factory.mktemp("small-worlds")
    for n in (1, 2):
        proc = _gen(out, "--campaign", str(SMALL), "--world", str(n), "--workers", "1")
        assert proc.returncode == 0, proc.stderr[-2000:]
    return out


@pytest.mark.slow
def test_small_daily_pool_through_the_scheduler_is_byte_identical(cluster, small_worlds, tmp_path):
    local, remote = tmp_path / "local", tmp_path / "cluster"
    worlds = sorted(small_worlds.glob("world-*.json"))
    for out in (local, remote):         # a pool is judged against the worlds in --out
        out.mkdir()
        for p in worlds:
            shutil.copy(p, out / p.name)
    args = ("--campaign", str(SMALL), "--dailies", "--daily-size", "10")
    proc = _gen(local, *args, "--workers", "1")
    assert proc.returncode == 0, proc.stderr[-2000:]
    proc = _gen(remote, *args, "--scheduler", cluster.scheduler_address)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "on the cluster at" in proc.stderr
    assert _files(remote) == _files(local)
    assert set(_files(remote)) - {p.name for p in worlds} == {
        "dailies-pool-10.json", "report-dailies-pool-10.json"}
    pack = read_pack(remote / "dailies-pool-10.json")
    assert [lv.id for lv in pack.levels] == [f"d-{i:03d}" for i in range(1, 11)]
    assert pack.meta["pack"] == "dailies-pool-10"


@pytest.mark.slow
def test_worker_killed_mid_run_still_gives_identical_bytes(cluster, small_worlds, tmp_path):
    marker = tmp_path / "killed"
    before = set(cluster.scheduler_info["workers"])
    out = tmp_path / "out"
    die_once = functools.partial(_die_once, str(marker))         # generate's `task` seam
    code = cli.guarded(functools.partial(generate.main, task=die_once),
                       ["--campaign", str(SMALL), "--world", "1", "--scheduler",
                        cluster.scheduler_address, "--out", str(out)],
                       prog="lumina.generate")
    assert code == 0
    pid = int(marker.read_text())                     # a worker did die mid-run
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert set(cluster.scheduler_info["workers"]) != before   # ... and was replaced
    for name in ("world-1.json", "report-world-1.json"):      # as one local process made them
        assert (out / name).read_bytes() == (small_worlds / name).read_bytes(), name


@pytest.mark.slow
def test_task_that_keeps_killing_workers_is_one_line_and_writes_nothing(cluster, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    code = cli.guarded(functools.partial(generate.main, task=_always_die),   # generate's `task` seam
                       ["--world", "1", "--scheduler", cluster.scheduler_address, "--out", str(out)],
                       prog="lumina.generate")
    assert code == 2
    err = [line for line in capsys.readouterr().err.splitlines() if "error:" in line]
    assert len(err) == 1 and "nothing written" in err[0], err
    assert list(out.iterdir()) == []


# ---------------------------------------------------------------------------
# No cluster.

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:{port}", "nonsense::", "tcp://no-such-host.invalid:8786"],
                         ids=["refused", "malformed", "unknown-host"])
def test_unreachable_scheduler_is_one_line_exit_2(tmp_path, address):
    address = address.format(port=_free_port())
    out = tmp_path / "out"
    out.mkdir()
    env = {**ENV, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"}
    proc = subprocess.run([sys.executable, "-m", "lumina.generate", "--world", "1", "--out", str(out),
                           "--scheduler", address], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=120)      # a hang fails here
    assert proc.returncode == 2, proc.stderr
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert err[0].startswith("lumina.generate: error: --scheduler ") and address in err[0]
    assert list(out.iterdir()) == []


# ---------------------------------------------------------------------------
# The benchmark.

@pytest.mark.slow
def test_bench_cluster_judges_the_pool_against_the_worlds(capsys, small_worlds, tmp_path):
    """The pool is judged against the five worlds in its --out: the bench ran it in
    an empty folder, so every run failed on the missing world packs."""
    from lumina.bench import __main__ as bench
    assert bench.main(["cluster", "--daily-size", "2", "--no-tuned", "--packs", str(small_worlds),
                       "--campaign", str(SMALL)]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith(("local pool", "local cluster"))]
    assert len(rows) == 2 and "FAILED" not in out, out
    assert rows[1].split()[-1] == "yes", out            # the same bytes on the cluster
    assert "tuned cluster" not in out
    assert cli.guarded(bench.main, ["cluster", "--daily-size", "2", "--packs", str(tmp_path)]) == 2
