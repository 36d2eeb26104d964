"""The words stay true: the README's Layout maps every module, the docs name only paths
(and test files) that exist and no machine, `python -m lumina` lists every command, and
the README's test command is the one CI runs and the one pytest is configured for.

docs/INTERFACES.md documented a five-field Analysis, `level.movable` and
`generate.multi_source_sweep`, none of which existed; the Layout named three engine
files of six. These tests fail when a file is added, moved or deleted without its line.
"""
from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from clihelp import run_cli

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
SOURCES = (".py", ".pyx", ".pxd", ".toml")
PATH = re.compile(r"`((?:lumina|tests|templates|docs|packs)/[^`\s]*)`")


def _layout() -> str:
    text = README.read_text(encoding="utf-8")
    return text[text.index("\n## Layout"):text.index("\n## ", text.index("\n## Layout") + 1)]


def _modules() -> list[str]:
    return sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "lumina").rglob("*")
                  if p.suffix in SOURCES and "__pycache__" not in p.parts)


def test_the_layout_has_one_line_for_every_module():
    rows = [ln for ln in _layout().splitlines() if ln.startswith("| `")]
    named = [PATH.match(ln[2:]).group(1) for ln in rows if PATH.match(ln[2:])]
    missing = [m for m in _modules() if m not in named]
    assert missing == [], "add a line to the README's Layout for each"
    assert len(named) == len(set(named)), "one line per path"


def test_the_docs_name_only_paths_that_exist():
    gone = []
    for doc in [README, *DOCS]:
        for path in PATH.findall(doc.read_text(encoding="utf-8")):
            path = path.rstrip(".,:;)")
            if any(c in path for c in "*<{") or path.endswith(".json"):
                if not any(ROOT.glob(re.sub(r"<[^>]*>|\{[^}]*\}", "*", path))):
                    gone.append(f"{doc.name}: {path}")
            elif not (ROOT / path).exists():
                gone.append(f"{doc.name}: {path}")
    assert gone == []


def test_the_docs_name_no_machine_and_no_session():
    for doc in [README, *DOCS]:
        text = doc.read_text(encoding="utf-8")
        for words in ("/work/", "/root/", "/home/", "this session", "being built"):
            assert words not in text, f"{doc.name}: {words}"
        assert text.startswith("# "), f"{doc.name} opens with its title"


def test_python_m_lumina_lists_every_command():
    commands = sorted(p.stem if p.name != "__main__.py" else p.parent.name
                      for p in (ROOT / "lumina").glob("*/__main__.py"))
    commands += sorted(p.stem for p in (ROOT / "lumina").glob("*.py")
                       if p.name != "__main__.py" and any(
                           isinstance(n, ast.If) and "__main__" in ast.unparse(n.test)
                           for n in ast.parse(p.read_text(encoding="utf-8")).body))
    proc = run_cli("lumina")
    assert proc.returncode == 0, proc.stderr
    listed = re.findall(r"python -m lumina\.(\w+)", proc.stdout)
    assert sorted(listed) == sorted(commands) and "bench" in listed and "vectors" in listed


# A test file named in prose, with or without its folder: `test_publish.py`, tests/browser/...
TEST_FILE = re.compile(r"\b((?:tests/(?:browser/)?)?test_\w+\.py)\b")


def test_every_test_file_named_in_the_docs_exists():
    """Docs name test files bare (`test_offline.py`) as often as by path; each must be a
    file under tests/ (the hardening files were split by module: names went stale)."""
    files = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("test_*.py")}
    names = {Path(f).name for f in files}
    gone = []
    for doc in [README, *DOCS]:
        for name in TEST_FILE.findall(doc.read_text(encoding="utf-8")):
            if not (name in files if "/" in name else name in names):
                gone.append(f"{doc.name}: {name}")
    assert gone == []


def _readme_commands() -> list[str]:
    readme = README.read_text(encoding="utf-8")
    return [ln.strip() for ln in readme.splitlines() if ln.startswith("    ") and "pip install" in ln]


# was test_hardening.py::test_readme_test_command_installs_node_and_ci_runs_it_exactly
def test_readme_test_command_installs_node_and_ci_runs_it_exactly():
    """The README's fresh-machine test command installs Node.js (the JS tests need it)
    and .ci/run runs exactly that command, after verifying the packs; it prints the
    25 slowest tests, so CI's log says where the time goes."""
    commands = _readme_commands()
    assert len(commands) == 2, commands          # publish, and the whole test suite
    test_cmd = next(c for c in commands if "pytest" in c)
    assert "nodejs" in test_cmd and "chromium" in test_cmd
    assert test_cmd.endswith("python -m pytest --durations=25"), test_cmd
    ci = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text().splitlines()
          if ln.strip() and not ln.lstrip().startswith("#")]
    assert ci[-1] == test_cmd
    assert any("lumina.verify" in ln for ln in ci[:-1])


def test_ci_fails_on_any_pytest_exit_but_0():
    """`set -e` with nothing after pytest: exit 5 (no test ran) fails CI like a failure,
    never passes silently, and no `|| true` or `|| [ $? = 5 ]` swallows a code."""
    ci = (ROOT / ".ci" / "run").read_text()
    assert "set -euo pipefail" in ci
    assert "||" not in ci.splitlines()[-1] and "; " not in ci.splitlines()[-1].split("pytest", 1)[1]


def test_pytest_runs_on_every_core_with_the_browser_tests_together():
    """pyproject's addopts run the README's bare `python -m pytest` on every core
    (pytest-xdist, in the test extra), grouping each xdist_group on one worker (each
    browser test file: one Chromium per worker)."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    addopts = meta["tool"]["pytest"]["ini_options"]["addopts"].split()
    assert addopts[addopts.index("-n") + 1] == "auto" and "loadgroup" in addopts
    assert any(d.startswith("pytest-xdist") for d in meta["project"]["optional-dependencies"]["test"])
    browser = (ROOT / "tests" / "browser" / "conftest.py").read_text(encoding="utf-8")
    assert 'xdist_group(f"browser-{path.stem}")' in browser


def test_the_quick_subset_names_markers_that_exist():
    """The README's quick subset (`-m "not slow and not browser"`) names declared markers."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = {m.split(":")[0] for m in meta["tool"]["pytest"]["ini_options"]["markers"]}
    quick = re.search(r'-m "([^"]+)"', README.read_text(encoding="utf-8")).group(1)
    assert set(re.findall(r"\bnot (\w+)", quick)) <= declared and quick.count("not ") == 2


def test_the_fuzz_examples_in_ci_are_the_readme_s():
    """README: the fuzz test runs 60 examples in CI (its LUMINA_FUZZ_EXAMPLES default)."""
    fuzz = (ROOT / "tests" / "test_fuzz_cli.py").read_text(encoding="utf-8")
    default = re.search(r'LUMINA_FUZZ_EXAMPLES", "(\d+)"', fuzz).group(1)
    assert f"{default} examples in CI" in README.read_text(encoding="utf-8")
