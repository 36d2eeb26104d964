"""A player's words (issue 27): the visible text of every level, daily, world and practice
page, outside closed <details>, holds none of the designer's words; the figures live in the
closed "For designers" section and in the editor, whose first moves read as moves."""
from __future__ import annotations

import re

from conftest import new_context
from helpers import open_everything

JARGON = ("chain", "plans", "margin", "dead block", "forced")

# innerText is what is rendered: hidden elements and a closed <details>' content are left out
VISIBLE = "() => document.body.innerText.toLowerCase()"


def _pages(packs) -> list[str]:
    worlds = sorted({i.split("-")[0] for i in packs if re.fullmatch(r"w\d+-\d+", i)})
    out = [f"{w}/index.html" for w in worlds]
    out += [f"{i.split('-')[0]}/{i.split('-')[1]}.html" for i in sorted(packs) if re.fullmatch(r"w\d+-\d+", i)]
    out += [f"daily/{i[2:]}.html" for i in sorted(packs) if re.fullmatch(r"d-\d+", i)]
    return out + ["practice.html?mechanic=rime&tier=medium&n=1", "daily/index.html", "index.html"]


# Each page's HTML as served, its <body> rendered inside one page (styles, scripts and images
# held back, as the HTML alone): its innerText, lowercased. One page renders them all, so
# the ~540 pages take seconds (a navigation each took 75 s).
AS_SERVED = """async (rels) => {
  const out = [];
  for (const rel of rels) {
    const res = await fetch(rel);
    if (!res.ok) { out.push(`HTTP ${res.status}`); continue; }
    const doc = new DOMParser().parseFromString(await res.text(), "text/html");
    const box = document.createElement("div");
    box.append(...[...doc.body.childNodes].map((n) => document.importNode(n, true)));
    document.body.replaceChildren(box);
    out.push(box.innerText.toLowerCase());
  }
  document.body.replaceChildren();
  return out;
}"""


def test_no_jargon_in_the_visible_text_of_any_level_page(browser, base_url, packs):
    """Every page as served (its HTML alone: the lines are in it), then a sample with its
    scripts run (the explainers, the lock card, the practice page's level are written by
    scripts)."""
    ctx = new_context(browser)
    page = ctx.new_page()
    page.route(re.compile(r".*\.(png|js|css|json)(\?.*)?$"), lambda r: r.abort())
    pages = _pages(packs)
    page.goto(base_url + "404.html", wait_until="domcontentloaded")
    texts = page.evaluate(AS_SERVED, [base_url + rel for rel in pages])
    bad = [f"{rel}: {t}" for rel, t in zip(pages, texts) if t.startswith("HTTP ")]
    bad += [f"{rel}: {w}" for rel, t in zip(pages, texts) for w in JARGON if w in t]
    assert len(pages) > 300 and not bad, bad[:20]
    assert all(len(t) > 40 for t in texts), "every page has words to read"
    ctx.close()
    ctx = new_context(browser)
    page = ctx.new_page()
    open_everything(page, packs)
    sample = [p for p in pages if "/index.html" in p or "practice" in p] + pages[5:len(pages):25]
    for rel in sample:
        page.goto(base_url + rel)
        if "html?" in rel or re.search(r"/\d+\.html$", rel):
            page.wait_for_selector("#board [data-block]")
            page.wait_for_timeout(200)
        text = page.evaluate(VISIBLE)
        bad += [f"{rel} (scripted): {w}" for w in JARGON if w in text]
    assert not bad, bad[:20]
    # the figures are there, for designers, once opened
    page.goto(base_url + "w2/05.html")
    page.locator(".designers summary").click()
    assert "plans" in page.evaluate(VISIBLE)
    ctx.close()


def test_the_editor_says_first_moves_in_words(page, base_url, packs):
    from lumina.model import Level
    desc = Level.from_json(packs["w1-02"]).desc()
    page.goto(f"{base_url}editor.html?d={desc}")
    first = page.locator("#ed-first")
    page.wait_for_function("() => /keep par/.test(document.querySelector('#ed-first').textContent)", timeout=20000)
    text = first.inner_text()
    assert re.fullmatch(r"\d+ of \d+ keep par(: .+)?", text), text
    assert not re.search(r"\d:[+-]?\d", text), "no 1:+2 notation"
    if ":" in text:
        assert re.search(r"(the key|crystal \d+|sand \d+|ice \d+|rime \d+) (left|right|up|down) \d", text), text
