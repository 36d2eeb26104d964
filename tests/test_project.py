"""The project around the package: what pyproject.toml declares is what the sources
import, and no test skips on a generator version or an unbuilt engine. The comment
above each test names the test it was in tests/test_hardening.py."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


# was test_hardening.py::test_dependencies_match_imports
def test_dependencies_match_imports():
    """numpy is imported nowhere, so it is no dependency; what is imported is declared."""
    import tomllib
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    deps = " ".join(meta["project"]["dependencies"] + meta["build-system"]["requires"])
    sources = "\n".join(p.read_text() for p in (ROOT / "lumina").rglob("*.py*"))
    assert "numpy" not in deps and "import numpy" not in sources and "cimport numpy" not in sources
    for module, dist in (("jinja2", "jinja2"), ("PIL", "pillow"), ("filelock", "filelock")):
        assert f"import {module}" in sources or f"from {module}" in sources
        assert dist in deps, dist


# A skip (or an early return) that depends on the packs' generator version, or an
# engine import that skips: an engine unbuilt, or a new generator, would pass silently.
# A version named as data (a table of versions and the verdicts expected for each) is
# not a skip and is allowed.
_SKIPS_ON_A_VERSION = (
    re.compile(r"importorskip\("),
    re.compile(r"skipif\([^)]*generator", re.S | re.I),
    re.compile(r"""[!=]=\s*["']lumina-gen/\d+["']|["']lumina-gen/\d+["']\s*[!=]="""),
    re.compile(r"""(?:startswith|in)\s*\(?\s*["']lumina-gen/\d+["']"""),
)


def _skips_on_a_version(text: str) -> bool:
    return any(r.search(text) for r in _SKIPS_ON_A_VERSION)


# was test_hardening.py::test_the_version_skip_finder_finds_skips
def test_the_version_skip_finder_finds_skips():
    assert _skips_on_a_version('if meta["generator"] != "lumina-gen/2":\n    pytest.skip("old")')
    assert _skips_on_a_version('@pytest.mark.skipif(GEN != CURRENT_GENERATOR, reason="x")')
    assert _skips_on_a_version('engine = pytest.importorskip("lumina.engine")')
    assert _skips_on_a_version('if "lumina-gen/3" == pack.meta["generator"]: return')
    assert not _skips_on_a_version('for generator, ok in (("lumina-gen/3", False), ("lumina-gen/4", False)):')


# was test_hardening.py::test_no_test_skips_on_a_generator_version_or_an_unbuilt_engine
def test_no_test_skips_on_a_generator_version_or_an_unbuilt_engine():
    """Tests of the committed packs were skipped unless the packs' generator was the
    literal "lumina-gen/2" (a new generator would silently skip them), and two engine
    modules used importorskip (an unbuilt engine skipped instead of failing)."""
    here = Path(__file__).resolve().parent
    offenders = [path.name for path in sorted(here.rglob("*.py"))
                 if path.name != Path(__file__).name and _skips_on_a_version(path.read_text(encoding="utf-8"))]
    assert offenders == [], offenders
