"""Issue 20 in the browser: corrupted storage and crafted share links.

- class 19: a stored progress entry whose id is "constructor" (any Object.prototype
  name) threw on progress.html, and the best-against-par table showed no rows;
- class 20: `play.html?d=6x6-R2-K0221C4112-m55f` (mirrors on an exit level) was
  played, though `python -m lumina.solve` refuses that desc: the JS reader refuses
  exactly what the Python reader refuses. A fuzz test feeds the same hypothesis
  strings to the page's desc.js (the minified file the site ships) and to
  `lumina.desc.from_desc`, and wants the same verdict and the same level.
"""
from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import PROGRESS_KEY
from lumina.desc import from_desc
from lumina.model import Level, LevelError
from lumina.vectors import DESC_ALPHABET, EDGE_DESCS

PROTO_NAMES = ("constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf")
EXAMPLES = int(os.environ.get("LUMINA_FUZZ_EXAMPLES", "60"))


def python_reads(text: str) -> dict | None:
    """The level Python reads from a share-link text (as desc.js builds it), or None."""
    try:
        return from_desc(text, id="shared").to_json()
    except LevelError:
        return None


# ------------------------------------------------------------------ class 19

def test_progress_entry_named_constructor_keeps_the_progress_page(page, base_url, packs, errors):
    won = sorted(i for i in packs if i.startswith("w1-"))[1]
    store = {"levels": {**{n: {"stars": 3, "best": 1} for n in PROTO_NAMES},
                        won: {"stars": 3, "best": packs[won]["optimal"]}}, "days": []}
    page.add_init_script(f"localStorage.setItem({json.dumps(PROGRESS_KEY)}, {json.dumps(json.dumps(store))})")
    page.goto(base_url + "progress.html")
    page.wait_for_load_state("networkidle")
    assert not errors, errors
    assert page.locator("[data-best-table]").is_visible()
    rows = page.locator("[data-best-table] tbody tr")
    assert rows.count() == 1, rows.all_inner_texts()
    w, n = won[1:].split("-")
    assert rows.first.locator(f'a[href="w{w}/{n}.html"]').count() == 1
    assert rows.first.locator("td").all_inner_texts()[2:] == ["at par", "★★★"]
    assert page.locator("[data-progress-stars]").first.inner_text() == "3"


def test_prototype_ids_never_break_a_level_page(page, base_url, packs, errors):
    """The same storage on the pages that read progress while playing: home, a world,
    a level (its best and stars), the archive."""
    store = {"levels": {n: {"stars": 3, "best": 2} for n in PROTO_NAMES}, "days": [1, 2]}
    page.add_init_script(f"localStorage.setItem({json.dumps(PROGRESS_KEY)}, {json.dumps(json.dumps(store))})")
    for path in ("index.html", "w1/index.html", "w1/03.html", "daily/index.html"):
        page.goto(base_url + path)
        page.wait_for_load_state("networkidle")
    assert not errors, errors


# ------------------------------------------------------------------ class 20

@pytest.mark.parametrize("desc", ["6x6-R2-K0221C4112-m55f", "6x6-R2-K0212C4112", "6x6-R3-K0221C4112"],
                         ids=["mirrors-on-an-exit-level", "key-across-the-lantern", "key-off-the-lantern-row"])
def test_share_link_refused_as_python_refuses_it(page, base_url, errors, desc):
    with pytest.raises(LevelError):
        from_desc(desc)
    page.goto(f"{base_url}play.html?d={desc}")
    page.locator("#play-error-text").wait_for(state="visible")
    assert page.locator("#play-area").is_hidden()
    assert page.locator("#board [data-block]").count() == 0
    assert not errors, errors


def test_share_link_solved_at_its_start_is_refused(page, base_url, errors):
    """lumina.playable: a board solved at its start has nothing to play (par 0)."""
    page.goto(f"{base_url}play.html?d=6x6-R2-K4221C1012")
    page.locator("#play-error-text").wait_for(state="visible", timeout=30000)
    assert "already solved" in page.locator("#play-error-text").inner_text()
    assert not errors, errors


@pytest.fixture(scope="module")
def desc_page(browser, base_url):
    """One page that imports the site's own desc.js and reads a batch of texts."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(base_url + "play.html")
    yield page
    ctx.close()


READ_ALL = """async ([url, texts]) => {
  const m = await import(url);
  return texts.map((t) => { try { return m.decodeDesc(t, "shared"); } catch (e) { return null; } });
}"""


def js_reads(page, base_url: str, texts: list[str]) -> list[dict | None]:
    return page.evaluate(READ_ALL, [base_url + "static/desc.js", texts])


def assert_same(texts: list[str], got: list[dict | None]) -> None:
    for text, js in zip(texts, got):
        py = python_reads(text)
        assert (js is None) == (py is None), (
            f"{text!r}: Python {'refuses' if py is None else 'reads'} it, desc.js "
            f"{'refuses' if js is None else 'reads'} it")
        assert js == py, f"{text!r}: the two readers read different levels"


def test_edge_descs_read_alike_in_the_browser(desc_page, base_url):
    texts = list(EDGE_DESCS)
    assert_same(texts, js_reads(desc_page, base_url, texts))


DIGIT = st.sampled_from("0123456789")
SECTIONS = {"w": st.tuples(DIGIT, DIGIT).map("".join),
            "m": st.tuples(DIGIT, DIGIT, st.sampled_from("fb")).map("".join)}


def _mostly(draw, good, bad):
    """A draw from `good`, or one time in ten from `bad` (an edge case)."""
    return draw(bad) if draw(st.integers(0, 9)) == 7 else draw(good)


@st.composite
def drawn_desc(draw) -> str:
    """A desc drawn from the grammar, mostly inside the rules' bounds (grid sizes, places,
    no overlaps, one key), so the rules that remain decide: the key and its lantern,
    mirrors only with a beam, squares, the beam's edge; one draw in ten breaks a bound."""
    w = _mostly(draw, st.integers(4, 8), st.sampled_from([3, 9]))
    h = _mostly(draw, st.integers(4, 8), st.sampled_from([3, 9]))
    taken: set[tuple[int, int]] = set()
    blocks = []
    for n in range(draw(st.integers(1, 6))):
        kind = "K" if n == 0 else _mostly(draw, st.sampled_from("CCSIR"), st.just("K"))
        bw, bh = _mostly(draw, st.sampled_from([(2, 1), (1, 2), (3, 1), (1, 3)]),
                         st.sampled_from([(2, 2), (1, 1), (0, 2)]))
        x = _mostly(draw, st.integers(0, max(0, min(w, 9) - bw)), st.integers(0, 9))
        y = _mostly(draw, st.integers(0, max(0, min(h, 9) - bh)), st.integers(0, 9))
        cells = {(x + i, y + j) for i in range(bw) for j in range(bh)}
        if cells & taken and draw(st.integers(0, 9)):
            continue                                   # mostly no overlaps
        taken |= cells
        blocks.append(f"{kind}{x}{y}{bw}{bh}")
    side = draw(st.sampled_from("LRTB"))
    text = f"{w}x{h}-{side}{_mostly(draw, st.integers(0, min(h if side in 'LR' else w, 9) - 1), st.integers(0, 9))}-"
    text += "".join(blocks)
    for key in ("w", "m"):
        if draw(st.integers(0, 2)) == 0:
            free = [f"{x}{y}" for x in range(min(w, 10)) for y in range(min(h, 10)) if (x, y) not in taken]
            if free:
                cells = draw(st.lists(st.sampled_from(free), min_size=1, max_size=2, unique=True))
                taken |= {(int(c[0]), int(c[1])) for c in cells}
                text += f"-{key}" + "".join(c + (draw(st.sampled_from("fb")) if key == "m" else "")
                                            for c in cells)
    if draw(st.booleans()):
        text += f"-b{draw(st.sampled_from('NESW'))}{draw(st.sampled_from('0012'))}"
    return text


@st.composite
def edited_desc(draw, seeds: tuple[str, ...]) -> str:
    """A real desc with a few edits that keep its shape (a digit, a side, a kind, a
    section added) or break it (any character, whitespace of any script)."""
    text = list(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text) - 1))
        how = draw(st.sampled_from(["exit", "digit", "letter", "section", "beam", "char", "space"]))
        if how == "exit":                              # the lantern's side or index
            text[draw(st.sampled_from([4, 5]))] = draw(st.sampled_from("LRTB") if i % 2 else DIGIT)
        elif how == "digit" and text[i].isdigit():
            text[i] = draw(DIGIT)
        elif how == "letter" and text[i] in "LRTBKCSIR":
            text[i] = draw(st.sampled_from("LRTB" if text[i - 1] == "-" and i > 3 else "KCSIR"))
        elif how == "section":
            key = draw(st.sampled_from(sorted(SECTIONS)))
            text += list(f"-{key}{draw(SECTIONS[key])}")
        elif how == "beam":
            text += list(f"-b{draw(st.sampled_from('NESW'))}{draw(st.sampled_from('012'))}")
        elif how == "space":
            text.insert(draw(st.sampled_from([0, len(text)])), draw(st.sampled_from(
                [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\xa0", "\u2028",
                 "\u3000", "\ufeff", "\u200b"])))
        else:
            text.insert(i, draw(st.one_of(st.sampled_from(DESC_ALPHABET), st.characters(max_codepoint=0x3000))))
    return "".join(text)


def desc_texts(seeds: tuple[str, ...]):
    return st.one_of(drawn_desc(), edited_desc(seeds), st.text(DESC_ALPHABET, max_size=30))


@pytest.fixture(scope="module")
def real_descs(packs) -> tuple[str, ...]:
    return tuple(sorted({Level.from_json(lv).desc() for lv in packs.values()}))


def test_fuzz_share_link_descs_match_python(desc_page, base_url, real_descs):
    """Hypothesis strings, read by the page's desc.js and by lumina.desc.from_desc: the
    same verdict and the same level, every time."""
    @settings(max_examples=max(10, EXAMPLES // 3), deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.lists(desc_texts(real_descs), min_size=20, max_size=80))
    def check(texts):
        assert_same(texts, js_reads(desc_page, base_url, texts))
    check()
