"""The demo campaign (tests/data/demo-campaign.toml) made end to end, as a studio would:
`generate --all`, `verify` and `publish`, each with `--campaign FILE`, through the
commands' own entry points (the same one-line error boundary as the shell)."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

from lumina import cli, generate, publish, verify

DEMO = Path(__file__).resolve().parent / "data" / "demo-campaign.toml"


def make(folder: Path) -> tuple[Path, Path, str]:
    """Generate, verify and publish the demo campaign under `folder`: (packs, site,
    the verifier's output). Raises AssertionError naming the step that failed."""
    packs, site = folder / "packs", folder / "site"
    packs.mkdir(parents=True)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        steps = (("generate", generate.main, ["--campaign", str(DEMO), "--all", "--out", str(packs)]),
                 ("verify", verify.main, ["--campaign", str(DEMO), str(packs)]),
                 ("publish", publish.main, ["--campaign", str(DEMO), "--packs", str(packs),
                                            "--out", str(site)]))
        for name, main, argv in steps:
            code = cli.guarded(main, argv, prog=f"lumina.{name}")
            assert code == 0, f"{name} exited {code}: {out.getvalue()[-2000:]}"
    return packs, site, out.getvalue()
