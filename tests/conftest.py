"""Shared pytest configuration: hypothesis profiles, and tests/ on the path for the helpers.

The ``slow`` marker is declared in pyproject.toml.

Profiles: ``default`` (random, modest, no deadline) and ``ci`` (derandomized, so a
CI run is reproducible); pick one with ``HYPOTHESIS_PROFILE=ci``.
"""

from __future__ import annotations

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
