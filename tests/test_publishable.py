"""One rule, "this pack set is publishable", owned by the verifier (issue 28).

`lumina.verify.pack_set_problems` is what publish refuses by (before re-solving a level)
and what `python -m lumina.verify FOLDER` fails on: whatever publish refuses, verify of
the same folder fails first. Before, a daily pool of 10 levels where the campaign wants
174, or a campaign with no daily pool at all, passed verify (exit 0) and publish refused
it (exit 2).

A demo campaign with a two-level daily pool is generated once (seconds).
"""
from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import pytest

from lumina import cli, generate, publish, verify

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "tests" / "data" / "demo-campaign.toml"
DAILIES = """
[dailies]
seed = 9
pool = 2

  [[dailies.buckets]]
  size = "5x5"
  band = [3, 6]
  levels = 2
  blockers = [3, 6]
"""


def _run(main, argv, prog):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.guarded(main, argv, prog=prog)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """(campaign with a daily pool of 2, its packs): generated and verified."""
    tmp = tmp_path_factory.mktemp("publishable")
    campaign = tmp / "campaign.toml"
    campaign.write_text(DEMO.read_text(encoding="utf-8") + DAILIES, encoding="utf-8")
    packs = tmp / "packs"
    code, out, err = _run(generate.main, ["--campaign", str(campaign), "--all", "--out", str(packs)],
                          "lumina.generate")
    assert code == 0, err[-2000:]
    code, out, _ = _run(verify.main, ["--campaign", str(campaign), str(packs)], "lumina.verify")
    assert code == 0, out[-2000:]
    return campaign, packs


def _both(tmp_path, campaign: Path, packs: Path) -> tuple[tuple, tuple]:
    v = _run(verify.main, ["--campaign", str(campaign), str(packs)], "lumina.verify")
    p = _run(publish.main, ["--campaign", str(campaign), "--packs", str(packs), "--out",
                            str(tmp_path / "site")], "lumina.publish")
    return v, p


def test_daily_pool_smaller_than_the_campaign_fails_verify_first(made, tmp_path):
    campaign, packs = made
    bigger = tmp_path / "campaign.toml"
    bigger.write_text(campaign.read_text().replace("pool = 2", "pool = 3").replace("levels = 2\n", "levels = 3\n"))
    (vcode, vout, _), (pcode, _, perr) = _both(tmp_path, bigger, packs)
    assert vcode == 1 and "FAIL publishable" in vout and "daily pool is 3 levels, found 2" in vout, vout[-1500:]
    assert pcode == 2 and "daily pool is 3 levels, found 2" in perr, perr
    assert not (tmp_path / "site").exists()


def test_campaign_with_no_daily_pool_fails_verify_first(made, tmp_path):
    _, packs = made
    (vcode, vout, _), (pcode, _, perr) = _both(tmp_path, DEMO, packs)
    assert vcode == 1 and "has no daily pool" in vout, vout[-1500:]
    assert pcode == 2 and "has no daily pool" in perr, perr


@pytest.mark.parametrize("change", ["world-out-of-campaign", "two-packs-one-world", "id-out-of-place",
                                    "bad-report"])
def test_whatever_publish_refuses_verify_fails(made, tmp_path, change):
    """Each refusal of publish's, on a copy of the packs: verify of the folder fails too."""
    campaign, src = made
    packs = tmp_path / "packs"
    shutil.copytree(src, packs)
    w2 = json.loads((packs / "world-2.json").read_text())
    if change == "world-out-of-campaign":
        w2["world"] = 7
    elif change == "two-packs-one-world":
        w2["world"] = 1
    elif change == "id-out-of-place":
        w2["levels"][1]["id"], w2["levels"][2]["id"] = w2["levels"][2]["id"], w2["levels"][1]["id"]
    else:
        (packs / "report-world-1.json").write_text('{"pack": 1}\n')
    (packs / "world-2.json").write_text(json.dumps(w2))
    (vcode, vout, verr), (pcode, _, perr) = _both(tmp_path, campaign, packs)
    assert pcode == 2, perr
    assert vcode != 0, vout[-1500:]
    first = perr.strip().splitlines()[-1][-40:]      # (a long path is shortened in the middle)
    assert first in vout or first in verr, (first, vout[-1500:], verr)


def test_verify_of_pack_files_is_not_a_publish_check(made):
    """Files named one by one are levels to check, not a site to publish: the set rule
    applies to a folder (what publish reads)."""
    campaign, packs = made
    code, out, _ = _run(verify.main, ["--campaign", str(campaign), str(packs / "dailies.json")], "lumina.verify")
    assert code == 0 and "publishable" not in out, out[-1500:]
