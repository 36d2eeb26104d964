// The progress page's "best against par" table (progress.html): every level won in this
// browser with its par, the fewest moves of a win without help, and the stars. The totals,
// per-world rows and streak above it are pages-more.js's (summary.js). The play log's Export and
// Clear buttons are playlog.js's; export and import of the progress itself transfer.js's.
import { loadProgress } from "./progress.js";
import { $, json, worldName } from "./common.js";
import { setupPage as playLog } from "./playlog.js";
import { setupTransfer } from "./transfer.js";

const LEVEL_ID = /^(?:w\d+-\d+|d-\d+)$/;   // the rows link to campaign and daily pages

function bestTable() {
  const p = loadProgress(), pars = json("progress-data", { pars: {} }).pars;
  // own properties only: a stored id such as "constructor" is no level of this site
  const ids = Object.keys(p.levels).filter((id) => Object.hasOwn(pars, id) && LEVEL_ID.test(id) && p.levels[id].stars).sort();
  const table = $("[data-best-table]");
  $("[data-best-empty]").hidden = ids.length > 0;
  table.hidden = ids.length === 0;
  const body = $("tbody", table);
  body.replaceChildren();
  for (const id of ids) {
    const e = p.levels[id], tr = document.createElement("tr");
    const w = /^w(\d+)-(\d+)$/.exec(id), d = /^d-(\d+)$/.exec(id);
    const a = document.createElement("a");
    a.href = w ? `w${w[1]}/${w[2]}.html` : `daily/${d[1]}.html`;
    a.textContent = w ? `${worldName(+w[1])} ${+w[2]}` : `Daily #${+d[1]}`;
    const th = document.createElement("th"); th.scope = "row"; th.append(a); tr.append(th);
    const over = e.best != null ? e.best - pars[id] : null;
    const cells = [[pars[id], true], [e.best ?? "–", true],
      [over == null ? "with help only" : over > 0 ? `+${over}` : "at par", true],
      ["★".repeat(e.stars) + "☆".repeat(3 - e.stars), false]];
    for (const [v, num] of cells) {
      const td = document.createElement("td"); if (num) td.className = "num"; td.textContent = v; tr.append(td);
    }
    body.append(tr);
  }
}

bestTable();
// progress from another device (transfer.js): merged, then every number here repainted
setupTransfer(() => { bestTable(); dispatchEvent(new Event("lumina-progress")); });
playLog();   // Export play log / Clear play log (playlog.js)
