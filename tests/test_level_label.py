"""The level page shows the kinds on its board (RULES.md "Labels tell the truth"): a
rime level that also carries ice says both, whatever its world's label."""
from __future__ import annotations

import re
from pathlib import Path

from lumina.desc import from_grid
from lumina.model import Beam, Exit
from lumina.render import site
from lumina.render.pages import label_ctx

RIME_WITH_ICE = ["...C.",
                 "...C.",
                 ".EEC.",
                 "D.BAA",
                 "D.B.."]


def _render(level) -> str:
    env = site.environment(site.TEMPLATES)
    return env.get_template("_label.html").render(label=label_ctx(level))


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html).strip()


def test_a_rime_level_with_ice_says_both():
    lv = from_grid(RIME_WITH_ICE, exit=Exit(side="left", index=3), kinds={"D": "rime", "C": "ice"})
    html = _render(lv)
    assert _text(html) == "Ice + Rime"
    assert 'class="kind-chip kind-ice"' in html and 'class="kind-chip kind-rime"' in html
    assert 'data-mechanics="ice rime"' in html


def test_labels_of_one_kind_crystal_and_beam():
    rime = from_grid(RIME_WITH_ICE, exit=Exit(side="left", index=3), kinds={"D": "rime"})
    assert _text(_render(rime)) == "Rime"
    crystal = from_grid(RIME_WITH_ICE, exit=Exit(side="left", index=3))
    assert _text(_render(crystal)) == "Crystal"
    beam = from_grid(["...\\", "....", "A...", "A..."], exit=Exit(side="bottom", index=3),
                     beam=Beam(dir="E", offset=0))
    assert _text(_render(beam)) == "Beam &amp; mirrors"


def test_built_level_and_daily_pages_show_their_boards_label(tmp_path):
    from lumina.render.inputs import gather
    fixtures = Path(__file__).resolve().parent / "fixtures" / "packs"
    data = gather(fixtures)
    out = site.render(data)
    levels = [(f"w{w.number}/{int(lv.id.split('-')[1]):02d}.html", lv)
              for w in data.worlds for lv in w.published]
    levels += [(f"daily/{int(lv.id.split('-')[1]):03d}.html", lv) for lv in data.dailies]
    for rel, lv in levels:
        page = out.files[rel].decode()
        assert f'data-mechanics="{" ".join(lv.mechanics)}"' in page, rel
