"""lumina/executor.py, the jobs' one seam, where it meets the outside: pool workers die
with `generate` however it ends, a failing task tears the pool down, and a --scheduler
that is not a Dask scheduler (a web server, a silent port, another scheme, one lost
mid-run) is one line and exit 2 within the connect timeout. (tests/test_cluster.py
runs the jobs on a real local cluster.)

Each test guards one class found by the second outside attack (issue 20); the
comment above it names the test it was in tests/test_hardening_round2.py. These run
real processes: signals to `generate`, its pool's children, and Dask's own output on
the real stderr are the point.
"""
from __future__ import annotations

import contextlib
import http.server
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from clihelp import ROOT, as_from_a_shell, exit_2, one_line, run_process

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


# ------------------------------------------------------------------ pool workers

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


# was test_hardening_round2.py::test_pool_workers_die_with_generate (class 9)
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_pool_workers_die_with_generate(tmp_path, sig):
    """Killing `generate --workers 2` (SIGKILL or SIGTERM) left both pool workers alive,
    asleep forever on a pipe they held themselves; Ctrl-C waited for the whole run."""
    log = tmp_path / "stderr.txt"           # a file: orphaned workers would hold a pipe open
    with open(log, "w") as err_file:
        proc = subprocess.Popen([sys.executable, "-m", "lumina.generate", "--world", "1", "--workers", "2",
                                 "--out", str(tmp_path / "out")], cwd=ROOT, env=ENV,
                                stdout=subprocess.DEVNULL, stderr=err_file, preexec_fn=as_from_a_shell)
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


# was test_hardening_round2.py::test_workers_are_torn_down_when_a_task_fails
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


# ------------------------------------------------------------------ --scheduler

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
    return run_process("lumina.generate", "--world", "1", "--out", str(out), "--scheduler", address,
                       env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"}, timeout=timeout)


# was test_hardening_round2.py::test_scheduler_that_never_answers_is_one_line (class 12)
@pytest.mark.parametrize("listener", [_silent_listener, _web_server], ids=["silent-port", "web-server"])
def test_scheduler_that_never_answers_is_one_line(tmp_path, listener):
    """An address where a web server or a silent TCP listener answers: generate hung
    for more than 450 s with no output; the connect timeout was not applied."""
    with listener() as port:
        proc = _generate_on(f"tcp://127.0.0.1:{port}", tmp_path / "out")
    exit_2(proc, f"tcp://127.0.0.1:{port}", "no Dask scheduler answered within 2 s")
    assert not (tmp_path / "out" / "world-1.json").exists()


# was test_hardening_round2.py::test_scheduler_address_schemes_are_one_line (class 13)
@pytest.mark.parametrize("address", ["inproc://x", "tls://127.0.0.1:1", "ucx://127.0.0.1:1",
                                     "ws://127.0.0.1:1"])
def test_scheduler_address_schemes_are_one_line(tmp_path, address):
    """inproc:// and tls://: the one-line error, then a Dask traceback and a 20 s wait;
    ucx://: a FutureWarning, then an internal error."""
    proc = _generate_on(address, tmp_path / "out")
    line = exit_2(proc, address, "tcp://HOST:PORT")
    assert "not supported" in line
    assert "FutureWarning" not in proc.stderr


# was test_hardening_round2.py::test_scheduler_lost_mid_run_is_one_line (class 14)
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
