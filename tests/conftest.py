"""Shared pytest configuration: hypothesis profiles, tests/ on the path for the helpers,
and the session fixtures that cost seconds, made once for the whole run.

The ``slow`` marker is declared in pyproject.toml. The suite runs on every core
(pytest-xdist, `addopts` in pyproject.toml); `shared(...)` (tests/shared.py) makes a
fixture's result once for all workers.

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
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))  # so tests can `import reference, strategies_hypothesis`
if str(TESTS.parent) not in sys.path:
    sys.path.append(str(TESTS.parent))  # the checkout, for a bare `pytest` without `pip install -e .`


from shared import shared  # noqa: E402  (tests/ is on the path from here)

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


def pytest_collection_modifyitems(config, items):
    """The slow tests first (otherwise in collection order), so both xdist workers start
    on the long generation checks and the run does not end on one worker still busy
    with one while the other idles."""
    items[:] = sorted(items, key=lambda item: item.get_closest_marker("slow") is None)
