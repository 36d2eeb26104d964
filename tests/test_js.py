"""The JS board's engine held to Python: parity vectors emitted here, replayed by
`node --test tests/js/` through the very module the site's pages import."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from clihelp import run_cli

ROOT = Path(__file__).resolve().parent.parent


def test_node_suite_with_fresh_parity_vectors():
    node = shutil.which("node")
    assert node, "node is required for the JS tests (it is on every CI machine)"
    packs = sorted((ROOT / "packs").glob("world-*.json")) + [ROOT / "packs" / "dailies.json"]
    assert all(p.exists() for p in packs), "the committed packs are missing"
    out = ROOT / "tests" / "js" / "vectors.json"
    made = run_cli("vectors", *packs, "--out", out)
    assert made.returncode == 0, made.stderr
    proc = subprocess.run([node, "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True)
    tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-40:])
    assert proc.returncode == 0, f"node --test failed:\n{tail}"
    assert "# fail 0" in proc.stdout and "# pass 0" not in proc.stdout, tail
