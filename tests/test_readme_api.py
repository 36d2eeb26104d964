"""The README's Python example runs as written, even after every CLI module is imported."""
from __future__ import annotations

import importlib
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_example_survives_cli_module_shadowing():
    # Regression: `lumina.solve` (the CLI module) replaced the re-exported `solve`
    # function on the package once any test imported the CLI, so `from lumina import
    # solve` returned a module and the README example raised "module is not callable".
    for name in ("solve", "verify", "generate", "publish", "bench"):
        importlib.import_module(f"lumina.{name}")
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "README has no Python example"
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {})
