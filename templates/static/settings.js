// The settings panel (the header's gear, every page): theme (system, light, dark, high
// contrast), sound and motion, kept in this browser (common.js settings: lumina.settings.v1).
// The theme applies at once and, through base.html's head script, before the first paint of
// every later page. Sound and motion drive the level pages' own toggles when they are there.
import { $, settings, saveSetting, applyMotion } from "./common.js";
import { extraCss } from "./lazycss.js";

export const THEMES = [["system", "System"], ["light", "Light"], ["dark", "Dark"], ["contrast", "High contrast"]];

/** Apply theme `t` ("system" follows the system's light or dark). */
export function applyTheme(t) {
  document.documentElement.dataset.theme = t === "light" || t === "dark" || t === "contrast" ? t
    : matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";
}

let dialog = null;

function build() {
  const d = document.createElement("dialog");
  d.className = "settings"; d.setAttribute("aria-labelledby", "settings-title");
  const s = settings(), theme = s.theme || "system";
  const radios = THEMES.map(([v, name]) => '<label><input type="radio" name="theme" value="' + v + '"' + (v === theme ? " checked" : "") + "> " + name + "</label>").join("");
  d.innerHTML = '<form method="dialog"><h2 id="settings-title">Settings</h2><fieldset><legend>Theme</legend>' + radios + "</fieldset>"
    + '<fieldset><legend>Play</legend><label><input type="checkbox" name="sound"> Sound effects</label><label><input type="checkbox" name="motion"> Motion (slides and glows)</label></fieldset>'
    + '<p class="small">Kept in this browser only.</p><p><button class="button primary" value="close">Done</button></p></form>';
  d.addEventListener("change", (e) => {
    const t = e.target;
    if (t.name === "theme") { saveSetting("theme", t.value); applyTheme(t.value); }
    const toggle = $(`#${t.name}`);
    if (t.name === "sound" || t.name === "motion") {
      // a level page's own toggle does the rest (its sound loads, its state shows)
      if (toggle && (toggle.getAttribute("aria-pressed") === "true") !== t.checked) toggle.click();
      else if (!toggle) saveSetting(t.name, t.checked);
      if (t.name === "motion") applyMotion();
    }
  });
  document.body.append(d);
  return d;
}

/** Open the panel (built on first use), its boxes showing the settings now. */
export async function open(from) {
  await extraCss();
  dialog = dialog || build();
  const s = settings(), sound = $("#sound");
  dialog.querySelector("[name=sound]").checked = sound ? sound.getAttribute("aria-pressed") === "true" : s.sound === true;
  dialog.querySelector("[name=motion]").checked = applyMotion();
  dialog.addEventListener("close", () => from && from.focus(), { once: true });
  dialog.showModal();
}
