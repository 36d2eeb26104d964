"""Shared pytest configuration: hypothesis profiles, tests/ on the path for the helpers,
and the session fixtures that cost seconds, made once for the whole run.

The ``slow`` marker is declared in pyproject.toml. The suite runs on every core
(pytest-xdist, `addopts` in pyproject.toml); `shared(...)` makes a fixture's result once
for all workers: the first worker to ask makes it, under a file lock, in a folder under
pytest's base temp root that every worker of the run shares; the others read it.

    committed_publish   `python -m lumina.publish` of the committed packs (the real
                        verifier, the real site), run once: its exit code, output,
                        verifier's report and the site folder it wrote
    committed_verify    `python -m lumina.verify` (no arguments: the packs/ folder), once

Profiles: ``default`` (random, modest, no deadline) and ``ci`` (derandomized, so a
CI run is reproducible); pick one with ``HYPOTHESIS_PROFILE=ci``.
"""

from __future__ import annotations

import functools
import os
import pickle
import shutil
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
from filelock import FileLock
from hypothesis import HealthCheck, settings

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))  # so tests can `import reference, strategies_hypothesis`
if str(TESTS.parent) not in sys.path:
    sys.path.append(str(TESTS.parent))  # the checkout, for a bare `pytest` without `pip install -e .`


settings.register_profile(
    "default", max_examples=100, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.register_profile(
    "ci", parent=settings.get_profile("default"), derandomize=True, print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default"))


def pytest_sessionstart(session):
    """A checkout whose engine is not compiled fails the run at once, with the fix, instead
    of every engine test failing (slowly, under hypothesis) or skipping."""
    from lumina.engine import BUILT
    from lumina.engine.unbuilt import FIX
    if not BUILT:
        pytest.exit(FIX, returncode=pytest.ExitCode.USAGE_ERROR)


def shared(tmp_path_factory: pytest.TempPathFactory, name: str,
           make: Callable[[Path], Any]) -> tuple[Path, Any]:
    """`make(folder)` run once for the whole run, whatever the number of xdist workers:
    its folder (under the root all workers share) and its result (pickled). A `make`
    that fails leaves nothing behind, so the next worker to ask fails the same way."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent                        # the run's root, above popen-gwN
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


def _publish_committed(folder: Path) -> dict:
    from clihelp import PACKS, command_main, run_cli
    from lumina import publish
    from lumina.verify import verify_packs
    reports = []

    def keeping(read, campaign):                  # the real verifier; its report kept
        reports.append(verify_packs(read, campaign))
        return reports[-1]
    ran = run_cli("publish", "--packs", PACKS, "--out", folder / "site",
                  main=functools.partial(command_main("publish"), verify=keeping))
    assert len(reports) == 1, ran.stderr[-2000:]
    return {"ran": ran, "report": reports[0]}


@pytest.fixture(scope="session")
def committed_publish(tmp_path_factory) -> dict:
    """`python -m lumina.publish --packs packs --out SITE` of the committed packs, run
    once for the run: {"ran": exit code and output, "report": the verifier's report,
    "site": the folder it wrote}. Read it; never write into "site"."""
    folder, made = shared(tmp_path_factory, "committed-publish", _publish_committed)
    return {**made, "site": folder / "site"}


def _verify_committed(folder: Path):
    from clihelp import run_cli
    return run_cli("verify")                      # the packs/ folder of the project


@pytest.fixture(scope="session")
def committed_verify(tmp_path_factory):
    """`python -m lumina.verify` with no arguments (the packs/ folder), run once."""
    return shared(tmp_path_factory, "committed-verify", _verify_committed)[1]
