"""The campaign as data (lumina/campaign.toml, lumina.worlds): read, checked field by
field, and enough for a studio to make its own campaign without touching Python."""
from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

import demo_campaign
from clihelp import run_cli
from lumina import worlds
from lumina.packfile import read_pack
from lumina.worlds import CAMPAIGN, CampaignError, load

ROOT = Path(__file__).resolve().parents[1]
PACKS = ROOT / "packs"
DEMO_TEXT = demo_campaign.DEMO.read_text(encoding="utf-8")


def test_the_committed_campaign_is_the_product():
    assert worlds.CAMPAIGN_FILE == ROOT / "lumina" / "campaign.toml"
    assert [w.number for w in CAMPAIGN.worlds] == [1, 2, 3, 4, 5]
    assert [w.mechanic for w in CAMPAIGN.worlds] == ["crystal", "sand", "ice", "rime", "beam"]
    assert [w.levels for w in CAMPAIGN.worlds] == [30] * 5 and CAMPAIGN.stars == 450
    assert CAMPAIGN.gates == {1: 0, 2: 40, 3: 110, 4: 170, 5: 230}
    assert CAMPAIGN.daily_pool == 366 == sum(b.levels for b in CAMPAIGN.daily_buckets)
    assert [b.name for b in CAMPAIGN.worlds[1].buckets] == [f"w2-b{i}" for i in range(1, 7)]
    assert [b.name for b in CAMPAIGN.daily_buckets] == [f"d-b{i}" for i in range(1, 18)]
    assert (CAMPAIGN.first_peak, CAMPAIGN.final_peak) == (24, 48)
    tops = [max(b.band[1] for b in w.buckets) for w in CAMPAIGN.worlds]
    # issue 26's world tops; the finale's band reaches 49 (its peak ships at 48 or 49:
    # docs/RULES-DECISIONS.md 51)
    assert tops == [24, 30, 32, 38, 49]
    assert CAMPAIGN.practice == 5000 and CAMPAIGN.mine


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5])
def test_the_committed_packs_are_the_campaign_s(number):
    """Names, mechanics, seeds, sizes and tutorials of the packs are the file's."""
    w = CAMPAIGN.world(number)
    pack = read_pack(PACKS / f"{w.pack}.json")
    assert (pack.meta["name"], pack.meta["mechanic"], pack.meta["seed"]) == (w.name, w.mechanic, w.seed)
    assert len(pack.levels) == w.levels
    tut = pack.levels[0]
    assert tut.replace(optimal=None, solution=None, analysis=None) == w.tutorial


def test_the_campaign_is_package_data():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "campaign.toml" in project["tool"]["setuptools"]["package-data"]["lumina"]


def test_the_old_names_are_the_committed_campaign_s():
    assert worlds.WORLDS is CAMPAIGN.worlds and worlds.GATES == CAMPAIGN.gates
    assert worlds.DAILY_POOL == 366 and worlds.DAILY_BUCKETS is CAMPAIGN.daily_buckets
    assert worlds.world(3).name == "Glass Lake" and worlds.TUTORIALS[4].count("rime") == 1


def _bad(tmp_path: Path, text: str) -> str:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CampaignError) as e:
        load(path)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(f"{path}: "), msg
    return msg[len(str(path)) + 2:]


def _swap(old: str, new: str, count: int = 1) -> str:
    assert old in DEMO_TEXT, old
    return DEMO_TEXT.replace(old, new, count)


@pytest.mark.parametrize("text, where", [
    (_swap("band = [3, 5]", "band = [5, 3]"), "world 1: buckets[0].band: low 5 is above high 3"),
    (_swap("band = [3, 5]", "band = [3, 5]\n  peak = 6"), "world 1: buckets[0].peak: must be"),
    (_swap("band = [3, 5]", "band = [3, 5]\n  peak = 2"), "world 1: buckets[0].peak: 2 is under the band 3-5"),
    (_swap("band = [7, 10]", "band = [7, 10]\n  colour = \"red\""), "world 2: buckets[0].colour: unknown field"),
    (_swap("  levels = 4\n", ""), "world 1: buckets[0].levels: missing"),
    (_swap('size = "5x5"', 'size = "5x9"'), "world 1: buckets[0].size: must be"),
    (_swap('mechanic = "rime"', 'mechanic = "lava"'), "world 2: mechanic: must be one of"),
    (_swap("twists = { rime = 1 }", "twists = { lava = 1 }"), "world 2: buckets[0].twists.lava: unknown"),
    (_swap("twists = { rime = 1 }", "twists = { rime = 9 }"), "world 2: buckets[0].twists: 9 twist blocks"),
    (_swap("gate = 0", "gate = 3"), "world 1: gate: the first world is open"),
    (_swap("gate = 8", "gate = 0\n  seed2 = 1"), "world 2: seed2: unknown field"),
    (_swap('"AAB.",', '"AAB",'), "world 1: tutorial.grid: row 1 has 3 cells"),
    (_swap('kinds = { R = "rime" }', 'kinds = { A = "rime" }'), "world 2: tutorial.kinds.'A': must be"),
    (_swap('exit = { side = "right", index = 1 }', 'exit = { side = "up", index = 1 }'),
     "world 1: tutorial.exit.side: must be one of"),
    (_swap("  rows = [\n    \"....\",\n    \"AAB.\",", "  rows = [\n    \"....\",\n    \"..B.\","),
     "world 1: tutorial.blocks: no block has kind key"),
    (_swap("seed = 7", "seed = true"), "world 1: seed: must be an integer, got true"),
    (_swap("final_peak = 6\n", ""), "curve: final_peak: missing"),
    (_swap('name = "Demo Frost"', 'name = ""'), "world 2: name: must not be empty"),
    (_swap("  blockers = [4, 7]\n  twists", "  blockers = [4, 7]\n  mirrors = [1, 2]\n  twists"),
     "world 2: buckets[0].mirrors: mirrors belong to beam buckets"),
    (DEMO_TEXT + "\n[dailies]\nseed = 1\npool = 3\n\n  [[dailies.buckets]]\n  size = \"5x5\"\n"
     "  band = [4, 6]\n  levels = 2\n  blockers = [3, 6]\n", "dailies: pool: 3, but the buckets hold 2"),
    (_swap("[[worlds]]", "[[worlds]", 1), "not valid TOML"),
])
def test_every_field_is_checked_in_one_line_naming_file_world_and_field(tmp_path, text, where):
    assert _bad(tmp_path, text).startswith(where)


def test_the_demo_campaign_reads_and_a_studio_can_add_a_world(tmp_path):
    demo = load(demo_campaign.DEMO)
    assert [(w.name, w.gate, w.levels) for w in demo.worlds] == [("Demo Meadow", 0, 5),
                                                                 ("Demo Frost", 8, 5)]
    assert demo.daily_pool == 0 and demo.stars == 30
    third = DEMO_TEXT + ('\n[[worlds]]\nname = "Demo Dunes"\nmechanic = "sand"\nseed = 9\n'
                         'gate = 15\n\n  [worlds.tutorial]\n  name = "Sand slides once"\n'
                         '  exit = { side = "right", index = 2 }\n  kinds = { S = "sand" }\n'
                         '  rows = [".BDDE", ".B..E", "..AAG", "..S.G", "..SFF"]\n\n'
                         '  [[worlds.buckets]]\n  size = "6x5"\n  band = [7, 9]\n  levels = 3\n'
                         '  blockers = [6, 9]\n  twists = { sand = 2 }\n')
    (tmp_path / "three.toml").write_text(third, encoding="utf-8")
    three = load(tmp_path / "three.toml")
    assert [w.pack for w in three.worlds] == ["world-1", "world-2", "world-3"]
    assert three.gates == {1: 0, 2: 8, 3: 15} and three.world(3).buckets[0].name == "w3-b1"
    assert three.world(3).tutorial.id == "w3-01" and three.world(3).tutorial.count("sand") == 1


def test_the_demo_campaign_generates_verifies_and_publishes(tmp_path):
    packs, site, said = demo_campaign.make(tmp_path)
    assert sorted(p.name for p in packs.iterdir()) == ["report-world-1.json", "report-world-2.json",
                                                      "world-1.json", "world-2.json"]
    assert "OK: 10 levels re-solved from disk, 0 failure(s)" in said
    assert "Gates (two stars everywhere): W1:0/0 W2:10/8" in said
    levels = sorted(p.relative_to(site).as_posix() for p in site.glob("w*/[0-9]*.html"))
    assert levels == [f"w{w}/{n:02d}.html" for w in (1, 2) for n in range(1, 6)]
    assert not (site / "daily").exists() and not (site / "daily.html").exists()
    home = (site / "index.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="site-data">([^<]*)<', home)[1])
    assert data["gates"] == {"1": 0, "2": 8} and data["pool"] == 0
    meta = json.loads(re.search(r'id="site-meta">([^<]*)<', home)[1])
    assert [w["name"] for w in meta["worlds"]] == ["Demo Meadow", "Demo Frost"]
    assert "of 30 stars" in re.sub(r"<[^>]+>", "", home)
    assert 'data-gate="8"' in (site / "w2" / "index.html").read_text(encoding="utf-8")
    again = tmp_path / "again"
    packs2, _, _ = demo_campaign.make(again)
    for p in packs.iterdir():
        assert (packs2 / p.name).read_bytes() == p.read_bytes(), p.name


@pytest.mark.parametrize("command", ["generate", "verify", "publish"])
def test_a_bad_campaign_file_is_one_line_and_exit_2(tmp_path, command):
    bad = tmp_path / "bad.toml"
    bad.write_text(DEMO_TEXT.replace("band = [3, 5]", "band = [3, 2]"), encoding="utf-8")
    proc = run_cli(command, "--campaign", bad,
                   *(["--out", tmp_path / "out"] if command != "verify" else []))
    assert proc.returncode == 2, proc.stderr
    err = proc.stderr.strip().splitlines()
    assert err == [f"lumina.{command}: error: {bad}: world 1: buckets[0].band: "
                   "low 3 is above high 2"], proc.stderr
    assert not (tmp_path / "out").exists()
