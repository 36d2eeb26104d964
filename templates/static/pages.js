// Lumina's page entry: every page loads this module, and <body data-page> picks what runs:
// level, daily and share pages the board panel (panel.js), every other page kind its code in
// pages-more.js, both fetched only by the pages that need them; links into a shut world get
// their lock words (locks.js) only when there is one. Shared helpers live in common.js; no
// page script imports this one. It also applies the player's motion setting, opens the settings panel
// (settings.js) from the header's gear, loads a day page's date code (day.js) and, over
// http(s), installs the service worker that keeps the site playable offline (offline.js).
import { $$, paintTotals, applyMotion, worldLock } from "./common.js";

applyMotion();
const { p, total } = paintTotals();
if ($$("a[data-world]").some((a) => !worldLock(+a.dataset.world, total).open)) import("./locks.js").then((m) => m.lockLinks(p, total));
const page = document.body.dataset.page;
if (page === "level") import("./panel.js").then((m) => m.level());
else if (page === "practice") import("./practice.js").then((m) => m.practice());
else if (["home", "world", "today", "archive", "play", "howto", "progress", "making"].includes(page)) import("./pages-more.js").then((m) => m.run(page));
if (document.body.dataset.day) import("./day.js");
const gear = document.querySelector("[data-settings]");
if (gear) gear.addEventListener("click", () => import("./settings.js").then((m) => m.open(gear)));
if (/^https?:$/.test(location.protocol)) import("./offline.js").then((m) => m.offline());
