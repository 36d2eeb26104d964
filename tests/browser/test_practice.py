"""The practice page (issue 27, data from issue 26): practice.html?mechanic=M&tier=T&n=K opens
the K-th level (from 1) of that set; #board carries data-desc and data-par, and
[data-practice-count] the size of the set. It plays as every level page: par, stars, progress
under the level's id. The session's site is built with a practice pack made from the daily
pool (conftest.site_packs)."""
from __future__ import annotations

from helpers import progress, watch
from lumina import sitedata
from lumina.model import Level


def _sets(packs) -> dict[tuple[str, str], list[Level]]:
    out: dict[tuple[str, str], list[Level]] = {}
    for lid in sorted(i for i in packs if i.startswith("p-")):
        lv = Level.from_json(packs[lid])
        out.setdefault((sitedata.practice_mechanic(lv.mechanics), sitedata.practice_tier(lv.optimal)), []).append(lv)
    return out


def test_practice_contract_opens_the_kth_level_of_a_set(page, base_url, packs):
    sets = _sets(packs)
    assert {m for m, _ in sets} == set(sitedata.PRACTICE_MECHANICS) - ({"crystal"} - {m for m, _ in sets})
    found = watch(page)
    for (m, t), lvs in sorted(sets.items())[:6] + [max(sets.items(), key=lambda kv: len(kv[1]))]:
        for k in sorted({1, len(lvs)}):
            page.goto(f"{base_url}practice.html?mechanic={m}&tier={t}&n={k}")
            page.wait_for_selector("#board[data-desc] [data-block]")
            board = page.locator("#board")
            assert board.get_attribute("data-desc") == lvs[k - 1].desc(), (m, t, k)
            assert board.get_attribute("data-par") == str(lvs[k - 1].optimal)
            assert page.locator("[data-practice-count]").inner_text() == str(len(lvs))
            assert page.locator("#par").inner_text() == str(lvs[k - 1].optimal)
    # the tiers' bands are shown on their picks, from sitedata
    for name, lo, hi in sitedata.PRACTICE_TIERS:
        pick = page.locator(f'[data-pick-tier="{name}"]').inner_text()
        assert name.capitalize() in pick and (f"par {lo}–{hi}" if hi else f"par {lo} and up") in pick, pick
    assert not found, found


def test_a_practice_win_earns_stars_and_is_stored(page, base_url, packs):
    sets = _sets(packs)
    (m, t), lvs = min(sets.items(), key=lambda kv: (kv[1][0].optimal, kv[0]))
    lv = lvs[0]
    page.goto(f"{base_url}practice.html?mechanic={m}&tier={t}&n=1")
    page.wait_for_selector("#board[data-desc] [data-block]")
    for mv in lv.solution:
        page.evaluate("m => window.luminaBoard.move(m)", list(mv))
    page.wait_for_selector("#result[data-filled]")
    assert page.locator("#result .result-stars").inner_text() == "★★★"
    assert progress(page)["levels"][lv.id]["stars"] == 3
    nxt = page.locator("#result a.button.primary")
    if len(lvs) > 1:
        assert nxt.get_attribute("href").endswith(f"mechanic={m}&tier={t}&n=2")


def test_a_practice_level_past_the_end_says_so(page, base_url, packs):
    (m, t), lvs = sorted(_sets(packs).items())[0]
    page.goto(f"{base_url}practice.html?mechanic={m}&tier={t}&n={len(lvs) + 1}")
    page.wait_for_selector("#play-error:not([hidden])")
    assert str(len(lvs)) in page.locator("#play-error").inner_text()


