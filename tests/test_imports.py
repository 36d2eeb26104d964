"""Dependencies run one way (docs: README "Layout"): no import circle among Lumina's
modules, the site never loads the generator, reading needs no compiled engine, and the
job machinery raises its own errors, which the command-line boundary prints."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lumina import cli, errors, executor, worlds
from lumina.gen import packs
from lumina.engine import EngineMissing

ROOT = Path(__file__).resolve().parents[1]
PACKS = ROOT / "packs"
FIXTURES = ROOT / "tests" / "fixtures" / "packs"
EXTENSIONS = ("board", "solve", "sweep", "graph", "felt")   # lumina/engine/*.pyx, compiled


def import_graph(root: Path, package: str = "lumina") -> dict[str, set[str]]:
    """Module -> the package's modules it imports (anywhere in its body, functions
    included), read from the sources."""
    files = {}
    for p in (root / package).rglob("*.py"):
        parts = list(p.relative_to(root).with_suffix("").parts)
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p

    def known(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for mod, path in files.items():
        here = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {known(a.name) for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = (".".join(here[:len(here) - node.level + 1] + [node.module or ""]).strip(".")
                        if node.level else node.module)
                found |= {known(f"{base}.{a.name}") if f"{base}.{a.name}" in files else known(base)
                          for a in node.names}
        graph[mod] = {m for m in found if m and m != mod}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def test_the_circle_finder_finds_a_circle(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.b import f\n")
    (pkg / "b.py").write_text("def f():\n    from pkg import a\n")   # inside a function too
    (pkg / "sub" / "__init__.py").write_text("from . import c\n")
    (pkg / "sub" / "c.py").write_text("from ..a import x\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.sub"] == {"pkg.sub.c"} and graph["pkg.sub.c"] == {"pkg.a"}
    assert circles(graph) == [["pkg.a", "pkg.b"]]


def test_no_import_circle_among_lumina_modules():
    """model.py imported desc.py (inside Level's methods) and desc.py imported model.py."""
    graph = import_graph(ROOT)
    assert {"lumina.model", "lumina.desc", "lumina.render.pages", "lumina.bench.solver"} <= set(graph)
    assert circles(graph) == []


def test_reading_modules_never_import_the_engine():
    graph = import_graph(ROOT)
    for mod in ("lumina.model", "lumina.desc", "lumina.packfile", "lumina.worlds", "lumina.errors"):
        assert "lumina.engine" not in graph[mod], mod


def _python(code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=300)


def test_building_the_site_loads_neither_the_generator_nor_the_strategy_bench(tmp_path):
    """render/pages.py imported lumina.strategies for two name lists, and strategies
    imports the generator: building the site loaded both."""
    proc = _python(f"""
        import sys
        from pathlib import Path
        from lumina.render import site
        site.build(Path({str(FIXTURES)!r}), Path({str(tmp_path / "site")!r}))
        print(sorted(m for m in sys.modules if m.startswith((
            "lumina.generate", "lumina.gen", "lumina.strategies", "lumina.bench"))))
    """)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "site" / "index.html").is_file()
    assert proc.stdout.strip().splitlines()[-1] == "[]"


HIDE_ENGINE = "import sys\n" + "".join(
    f"sys.modules['lumina.engine.{n}'] = None\n" for n in EXTENSIONS)


def test_reading_works_with_the_engine_s_extensions_hidden():
    """`import lumina` needed the compiled engine (ModuleNotFoundError: lumina.engine.board),
    so nothing could read a pack or print a level before a compiler had run."""
    proc = _python(HIDE_ENGINE + f"""
import lumina, lumina.model, lumina.desc, lumina.packfile, lumina.worlds, lumina.engine
from lumina.verify import read_pack, pack_files
assert lumina.engine.Board.__module__ == "lumina.engine.unbuilt", "the engine was not hidden"
assert all(sys.modules.get(f"lumina.engine.{{n}}") is None for n in {EXTENSIONS!r})
levels = 0
for path in pack_files([{str(PACKS)!r}]):
    pack = read_pack(path)
    levels += len(pack.levels)
first = lumina.desc.from_desc(pack.levels[0].desc(), id="again")
print(levels, pack.levels[0].id, first.desc())
try:
    lumina.engine.solve(first)
except lumina.engine.EngineMissing as e:
    print("solve:", e)
""")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.strip().splitlines()
    count, level_id, desc = out[0].split()
    from lumina.worlds import CAMPAIGN        # every world's levels and the daily pool
    assert int(count) == sum(w.levels for w in CAMPAIGN.worlds) + CAMPAIGN.daily_pool
    assert level_id == "d-001" and desc.startswith(("5x5-", "6x6-"))
    assert out[1].startswith("solve: the compiled engine is not built: run `python setup.py "
                             "build_ext --inplace`")


def test_solving_without_the_engine_is_one_line_naming_the_fix():
    proc = _python(HIDE_ENGINE + f"""
from lumina import cli, verify
sys.exit(cli.guarded(verify.main, [{str(PACKS / "world-1.json")!r}], prog="lumina.verify"))
""")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "lumina.verify: error: the compiled engine is not built: run `python setup.py build_ext "
        "--inplace` in the project folder (or `pip install -e .`)"]


def test_the_job_machinery_raises_its_own_errors():
    """generate and executor raised cli.UsageError: the job machinery depended on the
    command line. Their errors are LuminaErrors now, and the boundary prints them."""
    graph = import_graph(ROOT)
    for mod in ("lumina.executor", "lumina.worlds", "lumina.engine", "lumina.engine.unbuilt",
                "lumina.gen.packs", "lumina.gen.buckets", "lumina.gen.layouts", "lumina.gen.search"):
        assert "lumina.cli" not in graph[mod], mod
    for kind in (executor.ClusterError, packs.GenerateError, worlds.CampaignError, EngineMissing):
        assert issubclass(kind, errors.LuminaError) and not issubclass(kind, cli.UsageError)
        assert cli.describe(kind("x.json: level w1-02: blocks: one line")) == \
            "x.json: level w1-02: blocks: one line"


def test_a_missing_earlier_pack_is_a_generate_error(tmp_path):
    with pytest.raises(packs.GenerateError, match="world-1.json: missing"):
        packs.earlier_packs(tmp_path, ["world-1"])


# was test_hardening.py::test_engine_not_compiled_fails
def test_engine_tests_fail_not_skip_when_the_engine_is_not_compiled(tmp_path):
    """The engine tests must fail (not skip) in a checkout whose engine is not built. A
    real pytest in a copy of the checkout without the compiled engine."""
    import shutil
    shutil.copytree(ROOT / "lumina", tmp_path / "lumina",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__"))
    shutil.copytree(ROOT / "tests", tmp_path / "tests",
                    ignore=shutil.ignore_patterns("browser", "__pycache__"))
    # one pytest for the three files: a file that skipped would show in the last line
    names = ("test_engine_regressions.py", "test_rush_sample.py", "test_engine_parity.py")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *(f"tests/{name}" for name in names)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert proc.returncode not in (0, 5), proc.stdout[-2000:]
    assert "skipped" not in proc.stdout.splitlines()[-1], proc.stdout[-2000:]
