"""A session fixture's result made once for the whole run, whatever the number of xdist
workers: the first worker to ask makes it, under a file lock, in a folder under
pytest's base temp root that every worker of the run shares; the others wait for the
lock and read it. (A module of its own: test files import it, and `conftest` is a
module name tests/browser/ has too.)
"""
from __future__ import annotations

import os
import pickle
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest
from filelock import FileLock


def run_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder every process of the run shares: the base temp of the run (a worker's
    own is popen-gwN under it)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    return root


def shared(tmp_path_factory: pytest.TempPathFactory, name: str,
           make: Callable[[Path], Any]) -> tuple[Path, Any]:
    """`make(folder)` run once for the whole run, whatever the number of xdist workers:
    its folder (under the root all workers share) and its result (pickled). A `make`
    that fails leaves nothing behind, so the next worker to ask fails the same way."""
    return shared_at(run_root(tmp_path_factory), name, make)


def shared_at(root: Path, name: str, make: Callable[[Path], Any]) -> tuple[Path, Any]:
    """`shared` under the run root `root` (a process outside pytest can make a result
    the workers then read: tests/conftest.py starts the committed packs' verification
    so, at the start of a run)."""
    folder = root / "shared" / name
    result = folder.with_name(name + ".pickle")
    folder.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(folder) + ".lock"):
        if not result.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            try:
                value = make(folder)
            except BaseException:
                shutil.rmtree(folder, ignore_errors=True)
                raise
            result.write_bytes(pickle.dumps(value))
        return folder, pickle.loads(result.read_bytes())
