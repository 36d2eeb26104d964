"""Shared pytest configuration: hypothesis profiles, tests/ on the path for the helpers,
and the session fixtures that cost seconds, made once for the whole run.

The ``slow`` marker is declared in pyproject.toml. The suite runs on every core
(pytest-xdist, `addopts` in pyproject.toml: a worker per core and one more,
`pytest_xdist_auto_num_workers` below); `shared(...)` (tests/shared.py) makes a
fixture's result once for all workers.

    committed_publish   `python -m lumina.publish` of the committed packs (the real
                        site), run once: its exit code, output, verifier's report and
                        the site folder it wrote
    committed_verify    `python -m lumina.verify` (no arguments: the packs/ folder), once
    (both take the run's one verification of packs/, `verify_paths` on both cores:
    5,516 levels, about 90 s; each checks it read the same packs. Under xdist the
    controller starts that verification with the run, niced, in a process of its own:
    `pytest_xdist_node_collection_finished` below)

Profiles: ``default`` (random, modest, no deadline) and ``ci`` (derandomized, so a
CI run is reproducible); pick one with ``HYPOTHESIS_PROFILE=ci``.
"""

from __future__ import annotations

import functools
import os
import signal
import subprocess
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


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (pyproject's addopts) starts one worker more than this process may use
    cores: a browser test spends about a quarter of its time waiting on Chromium (a
    page's network going idle, a transition, a worker's message), and a third worker
    on 2 cores runs other tests in those waits (side by side on this machine: 8 min 4 s
    with three workers, 8 min 45 s with two; CPU 95% busy against 88%)."""
    return len(os.sched_getaffinity(0)) + 1


def pytest_sessionstart(session):
    """A checkout whose engine is not compiled fails the run at once, with the fix, instead
    of every engine test failing (slowly, under hypothesis) or skipping."""
    from lumina.engine import BUILT
    from lumina.engine.unbuilt import FIX
    if not BUILT:
        pytest.exit(FIX, returncode=pytest.ExitCode.USAGE_ERROR)


def _verify_committed_once(folder: Path):
    """The one verification of the committed packs this run (`verify_paths` of what
    `python -m lumina.verify` and `python -m lumina.publish` read from packs/: the worlds,
    the daily pool and the 5,000-level practice pack), on both cores."""
    from clihelp import PACKS
    from lumina.verify import verify_paths, with_practice
    from lumina.worlds import CAMPAIGN
    paths = with_practice([PACKS])
    return {"paths": [p.resolve() for p in paths], "report": verify_paths(paths, CAMPAIGN, [PACKS], 2)}


COMMITTED_REPORT = "committed-report"


def _committed_report(tmp_path_factory):
    return shared(tmp_path_factory, COMMITTED_REPORT, _verify_committed_once)[1]


@pytest.fixture(scope="session")
def committed_report(tmp_path_factory) -> dict:
    """The run's one verification of packs/: {"paths": what it read, "report": the
    verifier's report} (the browser tests' site is built with it too)."""
    return _committed_report(tmp_path_factory)


# The verification of the committed packs is the run's largest single piece of work (about
# 170 CPU seconds: 5,516 levels re-solved). Made when a test first asks, it ran last, on
# both cores, while the other worker waited for it. So the xdist controller starts it at
# once, in a process of its own at a lower priority (`nice`), when the run collected a test
# that reads it: it takes what CPU the tests leave, and a test that asks before it is done
# waits for it through the same lock (tests/shared.py). Its result is the same either way.
_BACKGROUND: list[subprocess.Popen] = []
_USERS = ("committed_publish", "committed_verify", "committed_report", "base_url", "site_root")


def _reads_committed(nodeid: str) -> bool:
    path = TESTS.parent / nodeid.split("::")[0]
    return path.suffix == ".py" and path.is_file() and any(u in path.read_text() for u in _USERS)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    if _BACKGROUND or not any(_reads_committed(f) for f in sorted({i.split("::")[0] for i in ids})):
        return
    factory = getattr(node.config, "_tmp_path_factory", None)
    if factory is None:         # no run root to share (pytest's tmp_path plugin is off)
        return
    root = factory.getbasetemp()                            # the run's root (tests/shared.py)
    code = ("import sys; from pathlib import Path; sys.path[:0] = [sys.argv[1], sys.argv[2]]; "
            "import conftest, shared; "
            "shared.shared_at(Path(sys.argv[3]), conftest.COMMITTED_REPORT, conftest._verify_committed_once)")
    (root / "shared").mkdir(parents=True, exist_ok=True)
    with open(root / "shared" / "committed-report.log", "w") as log:
        _BACKGROUND.append(subprocess.Popen(
            [sys.executable, "-c", code, str(TESTS), str(TESTS.parent), str(root)],
            cwd=TESTS.parent, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=lambda: os.nice(10)))


def pytest_unconfigure(config):
    """The background verification ends with the run (a run that never asked for it)."""
    for proc in _BACKGROUND:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()


def _publish_committed(folder: Path, made: dict) -> dict:
    from clihelp import PACKS, command_main, run_cli
    reports = []

    def keeping(read, campaign):                  # the run's one verification of packs/
        assert [p.path.resolve() for p in read] == made["paths"], "publish read what verify read"
        reports.append(made["report"])
        return reports[-1]
    ran = run_cli("publish", "--packs", PACKS, "--out", folder / "site",
                  main=functools.partial(command_main("publish"), verify=keeping))
    assert len(reports) == 1, ran.stderr[-2000:]
    return {"ran": ran, "report": reports[0]}


@pytest.fixture(scope="session")
def committed_publish(tmp_path_factory) -> dict:
    """`python -m lumina.publish --packs packs --out SITE` of the committed packs, run
    once for the run, its verifier the run's one verification of packs/: {"ran": exit
    code and output, "report": the verifier's report, "site": the folder it wrote}.
    Read it; never write into "site"."""
    made = _committed_report(tmp_path_factory)
    folder, out = shared(tmp_path_factory, "committed-publish",
                         functools.partial(_publish_committed, made=made))
    return {**out, "site": folder / "site"}


def _verify_committed(folder: Path, made: dict):
    from clihelp import command_main, run_cli

    def check(paths, campaign, folders, workers):   # the run's one verification of packs/
        assert [p.resolve() for p in paths] == made["paths"], "the command read what was verified"
        return made["report"]
    return run_cli("verify", main=functools.partial(command_main("verify"), check=check))


@pytest.fixture(scope="session")
def committed_verify(tmp_path_factory):
    """`python -m lumina.verify` with no arguments (the packs/ folder), run once, its
    verification the run's one of packs/ (what it read is checked to be the same)."""
    made = _committed_report(tmp_path_factory)
    return shared(tmp_path_factory, "committed-verify",
                  functools.partial(_verify_committed, made=made))[1]


def pytest_collection_modifyitems(config, items):
    """The slow tests first (otherwise in collection order), so both xdist workers start
    on the long generation checks and the run does not end on one worker still busy
    with one while the other idles."""
    items[:] = sorted(items, key=lambda item: item.get_closest_marker("slow") is None)
