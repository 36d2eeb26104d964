"""The settings panel (issue 27): the header's gear on every page opens theme (system, light,
dark, high contrast), sound and motion; the theme applies at once and before the first paint
of every later page."""
from __future__ import annotations

from conftest import new_context

BG = "() => getComputedStyle(document.body).color"


def test_settings_themes_apply_at_once_and_are_remembered(browser, base_url):
    ctx = new_context(browser, color_scheme="dark")
    page = ctx.new_page()
    page.goto(base_url + "index.html")
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark", "system: dark"
    seen = {}
    for value in ("light", "dark", "contrast"):
        page.locator("[data-settings]").click()
        dialog = page.locator("dialog.settings")
        dialog.wait_for(state="visible")
        dialog.locator(f'input[name="theme"][value="{value}"]').check()
        assert page.evaluate("() => document.documentElement.dataset.theme") == value
        seen[value] = page.evaluate(BG)
        dialog.locator("button", has_text="Done").click()
        assert dialog.is_hidden()
    assert len(set(seen.values())) == 3, f"each theme has its own colours: {seen}"
    assert seen["contrast"] == "rgb(255, 255, 255)"
    # remembered: a new page opens in it before any module script runs
    page.goto(base_url + "w1/01.html")
    assert page.evaluate("() => document.documentElement.dataset.theme") == "contrast"
    page.locator("[data-settings]").click()
    page.locator('input[name="theme"][value="system"]').check()
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    # motion and sound from the panel drive the level page's own toggles
    motion = page.locator("dialog.settings input[name=motion]")
    was = motion.is_checked()
    motion.set_checked(not was)
    assert page.locator("#motion").get_attribute("aria-pressed") == str(not was).lower()
    page.locator("dialog.settings input[name=sound]").check()
    assert page.locator("#sound").get_attribute("aria-pressed") == "true"
    ctx.close()
