"""The words stay true: the README's Layout maps every module, the docs name only paths
that exist and no machine, and `python -m lumina` lists every command.

docs/INTERFACES.md documented a five-field Analysis, `level.movable` and
`generate.multi_source_sweep`, none of which existed; the Layout named three engine
files of six. These tests fail when a file is added, moved or deleted without its line.
"""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

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
    proc = subprocess.run([sys.executable, "-m", "lumina"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    listed = re.findall(r"python -m lumina\.(\w+)", proc.stdout)
    assert sorted(listed) == sorted(commands) and "bench" in listed and "vectors" in listed
