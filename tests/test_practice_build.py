"""The practice page's build (issue 27, docs/SITE.md "Practice"): from an optional
packs/practice.json in the format of dailies.json, publish renders practice.html with the
sets' sizes and writes small shards [{id, desc, par}] per (mechanic, tier); without it there
is no page and no link. Made from the fixture daily pool renamed, never the committed packs."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from lumina import sitedata
from lumina.model import Level
from lumina.packfile import read_pack
from lumina.render import pages, site
from lumina.render.writer import SiteError

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "packs"


def _packs(tmp_path: Path, edit=None) -> Path:
    out = tmp_path / "packs"
    shutil.copytree(FIXTURES, out, ignore=shutil.ignore_patterns("*.py"))
    doc = json.loads((FIXTURES / "dailies.json").read_text())
    doc.update(pack="practice", name="Practice")
    for i, lv in enumerate(doc["levels"]):
        lv["id"] = f"p-{i + 1:05d}"
    if edit:
        edit(doc)
    (out / "practice.json").write_text(json.dumps(doc))
    return out


def test_practice_page_and_shards(tmp_path):
    packs = _packs(tmp_path)
    files = site.render(site.gather(packs)).files
    levels = read_pack(packs / "practice.json").levels
    want: dict[str, list[Level]] = {}
    for lv in levels:
        want.setdefault(f"{sitedata.practice_mechanic(lv.mechanics)}-{sitedata.practice_tier(lv.optimal)}", []).append(lv)
    html = files["practice.html"].decode()
    data = json.loads(re.search(r'<script type="application/json" id="practice-data">(.*?)</script>', html).group(1))
    assert data["counts"] == {k: len(v) for k, v in want.items()}
    assert data["tiers"] == [t[0] for t in sitedata.PRACTICE_TIERS]
    for key, lvs in want.items():
        rows = []
        for k in range(1, (len(lvs) - 1) // pages.PRACTICE_SHARD + 2):
            shard = files[f"practice/{key}-{k}.json"]
            assert len(shard) < 8000, "each shard small"
            rows += json.loads(shard)
        assert rows == [{"id": lv.id, "desc": lv.desc(), "par": lv.optimal} for lv in lvs]
    assert 'href="practice.html"' in files["index.html"].decode(), "the nav links it"
    assert "practice.html" in json.dumps(sorted(files)), "in the file list the service worker precaches"
    assert "404.html" in files and b'"404.html"' in files["sw.js"] and b'"practice.html"' in files["sw.js"]


def test_no_practice_pack_no_practice_page():
    files = site.render(site.gather(FIXTURES)).files
    assert "practice.html" not in files and not any(p.startswith("practice/") for p in files)
    assert "practice.html" not in files["index.html"].decode()
    assert "404.html" in files


@pytest.mark.parametrize("edit,field", [
    (lambda d: d.update(pack="dailies"), "pack"),
    (lambda d: d["levels"][3].update(id="p-99999"), "id"),
])
def test_a_wrong_practice_pack_is_one_line_naming_the_field(tmp_path, edit, field):
    with pytest.raises(SiteError, match=rf"practice\.json: .*{field}"):
        site.gather(_packs(tmp_path, edit))


def test_tiers_cover_every_par_once():
    for par in range(1, 200):
        assert sum(1 for _, lo, hi in sitedata.PRACTICE_TIERS if par >= lo and (hi is None or par <= hi)) == 1
    assert sitedata.practice_mechanic(("ice", "rime")) == "rime"
    assert sitedata.practice_mechanic(("sand", "beam")) == "beam"
