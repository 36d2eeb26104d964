"""The generator's one executor seam: independent tasks, results in job order.

    run_ordered(fn, jobs)                                   # in this process
    run_ordered(fn, jobs, workers=4)                        # a local process pool (fork)
    run_ordered(fn, jobs, scheduler="tcp://host:8786")      # a Dask distributed cluster

The task function, its inputs and the ordered gathering are the same for every
backend, so the results (and the packs built from them) are the same bytes whichever
runs them: each task is seeded by its inputs alone and nothing depends on which
worker, or in which order, it finishes.

Progress goes to stderr as tasks finish (in any order): a tqdm bar on a terminal, one
plain line per finished task otherwise (a log or CI keeps every line).

Local pool workers never outlive the command: each asks the kernel to kill it when
its parent dies (Linux `PR_SET_PDEATHSIG`, so SIGKILL of the parent takes them
along), ignores Ctrl-C (the parent handles it), and the pool is torn down, its
processes terminated, on every way out of `run_ordered` (an error, Ctrl-C, SIGTERM).
`workers` is 1..MAX_WORKERS.

On a cluster (`pip install -e '.[cluster]'`): a worker lost mid-run has its task
rerun elsewhere by Dask (the scheduler's `allowed-failures`; `retries` reruns a task
that raised), and results are only returned once all have arrived, so a caller writing
a pack never writes half of one. Only `tcp://HOST:PORT` addresses are taken. Before
any task, the address must answer as a Dask scheduler within the connect timeout,
whatever listens there (a web server, a silent port): Dask's own connect can wait on
a handshake for minutes. A scheduler that cannot be reached or does not answer, that
has no workers, whose workers run a different Lumina, or that is lost mid-run is one
`ClusterError` line (exit 2 at the CLI boundary); Dask's own log lines and warnings
are kept off stderr. The connect timeout is Dask's `distributed.comm.timeouts.connect`
when set (for example `DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=3s`), else
CONNECT_TIMEOUT.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ctypes
import ctypes.util
import hashlib
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
import uuid
import warnings
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

from tqdm import tqdm

from lumina.errors import LuminaError

T = TypeVar("T")
R = TypeVar("R")

CONNECT_TIMEOUT = "10s"     # to reach the scheduler and hear it answer
WORKER_WAIT = 120           # seconds to wait for the first (or --workers) workers to join
MAX_WORKERS = 64            # --workers: local pool processes, or cluster workers to wait for
PR_SET_PDEATHSIG = 1        # linux/prctl.h
_PKG = Path(__file__).resolve().parent


def default_workers() -> int:
    """A command's default --workers where it has one: this machine's usable cores, at
    most 8."""
    return max(1, min(8, len(os.sched_getaffinity(0))))


class ClusterError(LuminaError):
    """The cluster cannot run the job: unreachable, no workers, different code, or a
    task that keeps killing its workers. Nothing is written."""


# ---------------------------------------------------------------------------
# Progress.

class _Progress:
    """Finished tasks on stderr: tqdm's bar on a terminal, else one line per task."""

    def __init__(self, label: str, total: int, where: str):
        self.label, self.total, self.done = label, total, 0
        self.t0 = time.perf_counter()
        self.bar = None
        if sys.stderr.isatty():
            self.bar = tqdm(total=total, desc=label or "tasks", unit="task", file=sys.stderr,
                            dynamic_ncols=True, leave=True, postfix=where)
        else:
            print(f"{label or 'tasks'}: {total} tasks {where}", file=sys.stderr, flush=True)

    def step(self, note: str) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.set_postfix_str(note, refresh=False)
            self.bar.update(1)
        else:
            print(f"{self.label or 'tasks'}: {self.done}/{self.total} {note} "
                  f"({time.perf_counter() - self.t0:.1f}s)", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _note(names: Sequence[str] | None, i: int) -> str:
    return names[i] if names is not None else f"#{i + 1}"


# ---------------------------------------------------------------------------
# The seam.

def run_ordered(fn: Callable[[T], R], jobs: Iterable[T], *, workers: int = 1,
                scheduler: str | None = None, label: str = "", retries: int = 2,
                names: Sequence[str] | None = None,
                on_result: Callable[[int, R], None] | None = None) -> list[R]:
    """`[fn(job) for job in jobs]`, run in this process (workers 1), on a local pool of
    `workers` processes, or on the Dask cluster at `scheduler` (then `workers` is how
    many cluster workers to wait for before sending tasks). `fn` must be a module-level
    function (pickled by reference). `names[i]` labels job i in the progress lines.
    `on_result(i, result)` is called in this process as each task finishes (in any
    order): the miner stores each finished job at once, so a killed run keeps them."""
    jobs = list(jobs)
    if names is not None and len(names) != len(jobs):
        raise ValueError("one name per job")
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be 1..{MAX_WORKERS}, got {workers!r}")
    if scheduler:
        return _run_on_cluster(fn, jobs, scheduler, workers, label, retries, names, on_result)
    where = "in this process" if workers <= 1 or len(jobs) <= 1 else f"on {workers} local workers"
    prog = _Progress(label, len(jobs), where)
    try:
        if workers <= 1 or len(jobs) <= 1:
            results = []
            for i, job in enumerate(jobs):
                results.append(fn(job))
                if on_result is not None:
                    on_result(i, results[-1])
                prog.step(_note(names, i))
            return results
        return _run_on_pool(fn, jobs, workers, prog, names, on_result)
    finally:
        prog.close()


def _die_with_parent(parent: int) -> None:
    """A pool worker's start: killed by the kernel when its parent dies (Linux), Ctrl-C
    left to the parent, and gone at once if the parent died before this ran."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _tear_down(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Stop a pool now: queued tasks cancelled, worker processes terminated and reaped."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.terminate()
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join(5)


def _run_on_pool(fn: Callable[[T], R], jobs: list[T], workers: int, prog: _Progress,
                 names: Sequence[str] | None,
                 on_result: Callable[[int, R], None] | None = None) -> list[R]:
    """A fork-context process pool; a worker that dies is an error, not a hang, and
    no worker outlives this call however it ends."""
    out: list[Any] = [None] * len(jobs)
    ctx = multiprocessing.get_context("fork")
    pool = concurrent.futures.ProcessPoolExecutor(min(workers, len(jobs)), mp_context=ctx,
                                                  initializer=_die_with_parent,
                                                  initargs=(os.getpid(),))
    try:
        index = {pool.submit(fn, job): i for i, job in enumerate(jobs)}
        for fut in concurrent.futures.as_completed(index):
            i = index[fut]
            out[i] = fut.result()
            if on_result is not None:
                on_result(i, out[i])
            prog.step(_note(names, i))
    except concurrent.futures.process.BrokenProcessPool:
        _tear_down(pool)
        raise ClusterError("a local worker process died (killed, or out of memory?); "
                           "nothing written") from None
    except BaseException:
        _tear_down(pool)
        raise
    pool.shutdown(wait=True)
    return out


# ---------------------------------------------------------------------------
# Dask.

def code_fingerprint() -> str:
    """A digest of this Lumina's sources (Python and Cython): two processes with the
    same fingerprint generate the same bytes."""
    h = hashlib.sha256()
    for p in sorted(list(_PKG.rglob("*.py")) + list(_PKG.rglob("*.pyx")) + list(_PKG.rglob("*.pxd"))):
        h.update(p.relative_to(_PKG).as_posix().encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]


@contextlib.contextmanager
def _dask_quiet() -> Iterator[None]:
    """Dask's log lines (tracebacks of lost connections) and its warnings stay off
    stderr while this module talks to a cluster: what went wrong is one ClusterError.
    After a failed run they stay off: a client whose scheduler is gone still logs the
    cancelled reconnect from its own thread while it closes."""
    with contextlib.suppress(ImportError):      # its import sets its loggers' levels
        import distributed  # noqa: F401
    names = ["distributed", "tornado", "asyncio"]
    names += [n for n in logging.root.manager.loggerDict if n.startswith(("distributed.", "tornado."))]
    loggers = [logging.getLogger(n) for n in names]
    levels = [lg.level for lg in loggers]
    for lg in loggers:                  # Dask's config sets levels on child loggers too
        lg.setLevel(logging.CRITICAL + 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield
    for lg, level in zip(loggers, levels):      # only after a run that ended well
        lg.setLevel(level)


def _check_address(address: str) -> None:
    """Only tcp://HOST:PORT (or HOST:PORT): inproc:// is this process's own memory,
    tls:// needs certificates this command cannot take, ucx:// a special network."""
    scheme = address.split("://", 1)[0].lower() if "://" in address else "tcp"
    if scheme != "tcp":
        raise ClusterError(f"--scheduler {address}: {scheme}:// is not supported; "
                           "give the scheduler's tcp://HOST:PORT address")


async def _identity(address: str, seconds: float) -> Any:
    from distributed.comm import connect
    comm = await connect(address, timeout=seconds)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        with contextlib.suppress(Exception):
            comm.abort()


def _in_own_loop(coro_fn: Callable[[], Any], seconds: float) -> Any:
    """`asyncio.run(coro_fn())` on a thread of its own, so it works whether or not
    the caller's thread already runs an event loop (a notebook, Playwright's sync
    API): asyncio.run there is a RuntimeError. The coroutine bounds itself; the
    join is bounded too, with a margin, so nothing here can wait forever."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro_fn())
        except BaseException as e:      # handed to the caller's thread
            box["error"] = e
    thread = threading.Thread(target=target, name="lumina-scheduler-probe", daemon=True)
    thread.start()
    thread.join(seconds + 5)
    if thread.is_alive():
        raise TimeoutError
    if "error" in box:
        raise box["error"]
    return box["value"]


def _probe(address: str, seconds: float) -> None:
    """The address answers as a Dask scheduler within `seconds`, whatever listens
    there (Dask's connect bounds the TCP connect, not the handshake after it)."""
    async def bounded() -> Any:
        return await asyncio.wait_for(_identity(address, seconds), seconds)
    try:
        reply = _in_own_loop(bounded, seconds)
    except (asyncio.TimeoutError, TimeoutError):
        raise ClusterError(f"--scheduler {address}: no Dask scheduler answered within "
                           f"{seconds:g} s") from None
    except Exception as e:              # refused, reset, garbage instead of a handshake
        raise ClusterError(f"--scheduler {address}: cannot reach the Dask scheduler "
                           f"({type(e).__name__}: {e})") from None
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        raise ClusterError(f"--scheduler {address}: what answers there is not a Dask scheduler")


def _connect(address: str, wait_for: int):
    """A Client on `address` with at least `wait_for` workers running this code."""
    _check_address(address)
    try:
        import dask
        from dask.distributed import Client
        from dask.utils import parse_timedelta
        from distributed.comm import resolve_address
    except ImportError:
        raise ClusterError("--scheduler needs Dask: pip install -e '.[cluster]'") from None
    try:                                # checked first: a Client on a bad address hangs on exit
        resolve_address(address)
    except (ValueError, OSError) as e:
        raise ClusterError(f"--scheduler {address}: not a scheduler address ({e}); "
                           "expected tcp://HOST:PORT") from None
    timeout = dask.config.get("distributed.comm.timeouts.connect", None) or CONNECT_TIMEOUT
    if str(timeout) == "30s":            # Dask's own default: too long to wait on a typo
        timeout = CONNECT_TIMEOUT
    seconds = parse_timedelta(timeout, "s")
    _probe(address, seconds)
    try:
        client = Client(address, timeout=seconds, set_as_default=False)
    except Exception as e:              # OSError, TimeoutError, ValueError for a bad address
        raise ClusterError(f"--scheduler {address}: cannot reach the Dask scheduler ({e})") from None
    try:
        try:
            client.wait_for_workers(max(1, wait_for), timeout=WORKER_WAIT)
        except Exception:
            have = len(client.nthreads())
            raise ClusterError(f"--scheduler {address}: {have} worker(s) joined in {WORKER_WAIT} s, "
                               f"waiting for {max(1, wait_for)} (start some: dask worker {address})"
                               ) from None
        mine = code_fingerprint()
        theirs = client.run(code_fingerprint)
        odd = sorted(w for w, fp in theirs.items() if fp != mine)
        if odd:
            raise ClusterError(f"--scheduler {address}: worker {odd[0]} runs a different Lumina "
                               f"({len(odd)} of {len(theirs)} workers; install the same commit and "
                               "build the engine on every worker)")
    except BaseException:
        _close(client)
        raise
    return client


def _close(client) -> None:
    """Close a client without waiting on a scheduler that is gone."""
    with contextlib.suppress(Exception):
        client.close(timeout=2)


def _run_on_cluster(fn: Callable[[T], R], jobs: list[T], address: str, workers: int,
                    label: str, retries: int, names: Sequence[str] | None,
                    on_result: Callable[[int, R], None] | None = None) -> list[R]:
    with _dask_quiet():
        return _cluster_run(fn, jobs, address, workers, label, retries, names, on_result)


def _cluster_run(fn: Callable[[T], R], jobs: list[T], address: str, workers: int,
                 label: str, retries: int, names: Sequence[str] | None,
                 on_result: Callable[[int, R], None] | None = None) -> list[R]:
    from dask.distributed import as_completed
    from distributed.scheduler import KilledWorker

    client = _connect(address, workers)
    try:
        n = len(client.nthreads())
        prog = _Progress(label, len(jobs), f"on the cluster at {address} ({n} workers)")
        run = uuid.uuid4().hex[:8]
        tag = "".join(c if c.isalnum() else "-" for c in (label or "tasks"))
        keys = [f"{getattr(fn, '__name__', 'task')}-{tag}-{i:05d}-{run}" for i in range(len(jobs))]
        futures = client.map(fn, jobs, key=keys, retries=retries, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        out: list[Any] = [None] * len(jobs)
        try:
            for fut in as_completed(futures, loop=client.loop):
                i = index[fut.key]
                if fut.status != "error" and client.status != "running":
                    raise _lost(address)
                try:
                    out[i] = fut.result()
                except KilledWorker:
                    raise
                except Exception:
                    if fut.status != "error":          # not the task's own error: the cluster's
                        raise _lost(address) from None
                    raise
                if on_result is not None:
                    on_result(i, out[i])
                prog.step(_note(names, i))
        except KilledWorker as e:
            i = index.get(e.args[0] if e.args else None)
            tries = e.args[2] + 1 if len(e.args) > 2 and isinstance(e.args[2], int) else "several"
            raise ClusterError(f"task {_note(names, i) if i is not None else '?'} lost {tries} "
                               "workers in a row (killed, or out of memory?); nothing written"
                               ) from None
        finally:
            prog.close()
            with contextlib.suppress(Exception):
                client.cancel(futures)
        return out
    finally:
        _close(client)


def _lost(address: str) -> ClusterError:
    return ClusterError(f"--scheduler {address}: the Dask scheduler was lost mid-run "
                        "(stopped, killed or unreachable); nothing written")


__all__ = ["run_ordered", "ClusterError", "code_fingerprint", "CONNECT_TIMEOUT", "MAX_WORKERS"]
