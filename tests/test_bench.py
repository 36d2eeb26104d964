"""The benchmarks' house: one package, one entry, one rule for data (figures never asserted).

Each benchmark's own smoke test sits with the code it measures (test_analyse_cli,
test_deep, test_strategies, test_cluster, test_publish); these check the shape.
"""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clihelp import run_cli
from lumina import bench
from lumina.cli import UsageError

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "lumina"
BENCH = PACKAGE / "bench"
HELPERS = {"__init__", "__main__", "pybfs"}      # the package face, its entry, a baseline


def _python(*args: str) -> subprocess.CompletedProcess:
    """A fresh interpreter: for what a benchmark imports, seen from an empty sys.modules."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120)


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def test_help_lists_every_benchmark_and_every_module_is_listed():
    proc = run_cli("bench", "--help")
    assert proc.returncode == 0, proc.stderr
    names = [name for name, _ in bench.BENCHMARKS]
    assert names == ["solver", "analyse", "sweep", "deep", "strategies", "generate", "mine",
                     "compose", "cluster",
                     "site", "playtest", "editor", "hint"]
    listed = [ln.split()[0] for ln in proc.stdout.splitlines()
              if ln.startswith("    ") and ln.split()[0] in names]
    assert listed == names, proc.stdout
    modules = {p.stem for p in BENCH.glob("*.py")} - HELPERS
    assert modules == set(names), "one module per benchmark, each listed in BENCHMARKS"


@pytest.mark.parametrize("name", [name for name, _ in bench.BENCHMARKS])
def test_each_benchmark_module_has_the_one_interface(name):
    tree = _tree(BENCH / f"{name}.py")
    assert ast.get_docstring(tree), f"{name}.py opens with a docstring"
    defs = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert {"arguments", "run"} <= defs, name


def test_benchmark_help_shows_its_options():
    proc = run_cli("bench", "deep", "--help")
    assert proc.returncode == 0 and "--target" in proc.stdout and "--budget" in proc.stdout


def test_unknown_benchmark_is_one_line_exit_2():
    proc = run_cli("bench", "nope")
    assert proc.returncode == 2
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("lumina.bench: error:") and "solver" in err[0]


def test_no_benchmark_code_outside_the_bench_package():
    """bench_generate, bench_strategies, bench_site and deep.bench_spec lived in the job
    modules; nothing named bench_* (or BENCH_*) is defined outside lumina/bench now."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if BENCH in path.parents:
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name.lower().startswith("bench"):
                found.append(f"{path.relative_to(ROOT)}: {node.name}")
            if isinstance(node, ast.Assign):
                found += [f"{path.relative_to(ROOT)}: {t.id}" for t in node.targets
                          if isinstance(t, ast.Name) and t.id.startswith("BENCH")]
    assert found == []


def test_benchmarks_import_at_module_top_and_nothing_private():
    """bench.py had 28 imports inside functions and reached into generate._dailies_pack."""
    problems = []
    for path in sorted(BENCH.glob("*.py")):
        tree = _tree(path)
        top = set(map(id, tree.body)) | {id(n) for t in tree.body if isinstance(t, ast.Try)
                                           for n in t.body}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                if id(node) not in top:
                    problems.append(f"{path.name}:{node.lineno}: import inside a function")
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("lumina"):
                    problems += [f"{path.name}:{node.lineno}: {a.name}" for a in node.names
                                 if a.name.startswith("_") and a.name != "__main__"]
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                problems.append(f"{path.name}:{node.lineno}: .{node.attr}")
    assert problems == []


def test_data_is_found_in_the_repository_first(tmp_path, monkeypatch):
    assert bench.data_file("rush-sample.txt") == ROOT / "tests" / "data" / "rush-sample.txt"
    inside, shared = tmp_path / "repo" / "tests" / "data", tmp_path / "shared" / "bench"
    for d in (inside, shared):
        d.mkdir(parents=True)
    (shared / "cbfs.c").write_text("int main(void) { return 0; }\n")
    (shared / "both.txt").write_text("shared\n")
    (inside / "both.txt").write_text("inside\n")
    monkeypatch.setattr(bench, "DATA_DIRS", (inside, tmp_path / "shared" / "reference", shared))
    assert bench.data_file("cbfs.c") == shared / "cbfs.c"
    assert bench.data_file("both.txt") == inside / "both.txt"
    with pytest.raises(UsageError, match="missing.txt: not found in"):
        bench.data_file("missing.txt")


def test_a_benchmark_loads_only_itself(tmp_path):
    """Only the benchmark named is imported: the solver's peak memory never includes the
    generator, the site renderer or Dask."""
    rush = tmp_path / "rush.txt"
    rush.write_text("2 ooooBoooooBoAAooBooooooooooooooooooo 8\n")
    code = ("import sys; from lumina.bench.__main__ import main; "
            f"main(['solver', '--rush', {str(rush)!r}]); "
            "print(sorted(m for m in ('lumina.generate', 'lumina.render.site', 'distributed', "
            "'lumina.strategies') if m in sys.modules))")
    proc = _python("-c", code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]"


def test_python_m_lumina_lists_every_benchmark():
    proc = run_cli("lumina")
    assert proc.returncode == 0, proc.stderr
    line = next(ln for ln in proc.stdout.splitlines() if "python -m lumina.bench" in ln)
    assert line.split("lumina.bench", 1)[1].split(" | ") == [
        f" {name}" if i == 0 else name for i, (name, _) in enumerate(bench.BENCHMARKS)]


# was test_hardening.py::test_bench_site_exits_0
def test_bench_site_exits_0(capsys, monkeypatch):
    from lumina import cli
    from lumina.bench import __main__ as bench_main, site as bench_site
    monkeypatch.setattr(bench_site, "bench_site", lambda *a, **k: print("site: 3 files") or {"seconds": 1})
    assert cli.guarded(bench_main.main, ["site"]) == 0
    assert "site: 3 files" in capsys.readouterr().out


# was test_hardening.py::test_quick_bench_does_not_overwrite_committed_file
def test_quick_strategies_bench_does_not_overwrite_the_committed_table(monkeypatch, tmp_path):
    from lumina.bench import __main__ as bench_main, strategies as bench_strategies
    seen = []
    monkeypatch.setattr(bench_strategies, "bench_strategies", lambda quick, out: seen.append((quick, out)) or 0)
    committed = Path("packs/strategies.json")
    assert bench_main.main(["strategies", "--quick"]) == 0
    assert seen[-1][0] and seen[-1][1] is not None and seen[-1][1].resolve() != committed.resolve()
    assert bench_main.main(["strategies", "--quick", "--out", str(tmp_path / "s.json")]) == 0
    assert seen[-1][1] == tmp_path / "s.json"
    assert bench_main.main(["strategies"]) == 0
    assert seen[-1] == (False, committed)
