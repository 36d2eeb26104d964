// The player's progress page (progress.html): stars per world, levels solved, best against
// par and the daily streak, from stored progress (progress.js) and the page's par table.
import { loadProgress, totalStars } from "./progress.js";
import { $, $$, SITE, dayIndex, json, pad3, shift, worldLock, worldName } from "./shell.js";

/** Consecutive days, back from today (or yesterday, while today is still open), whose daily was won. */
export function streak(progress, date = new Date(), site = SITE) {
  const won = (k) => { const e = progress.levels[`d-${pad3(dayIndex(shift(date, -k), site) + 1)}`]; return !!(e && e.stars); };
  let k = won(0) ? 0 : 1, n = 0;
  while (n < site.pool && won(k)) { n++; k++; }
  return n;
}

function progressPage() {
  const p = loadProgress(), pars = json("progress-data", { pars: {} }).pars, total = totalStars(p, "w");
  let solved = 0, atPar = 0;
  for (const row of $$("tr[data-world]")) {
    const n = row.dataset.world, prefix = `w${n}-`;
    const ids = Object.keys(p.levels).filter((id) => id.startsWith(prefix) && id in pars && p.levels[id].stars);
    const par = ids.filter((id) => p.levels[id].best != null && p.levels[id].best <= pars[id]).length;
    $("[data-w-stars]", row).textContent = totalStars(p, prefix);
    $("[data-w-solved]", row).textContent = ids.length;
    $("[data-w-par]", row).textContent = par;
    const lock = worldLock(+n, total);
    $("[data-w-gate]", row).textContent = lock.gate ? (lock.open ? `open (${lock.gate} ★)` : `locked: ${lock.need} more ★`) : "open";
    solved += ids.length; atPar += par;
  }
  $("[data-p-stars]").textContent = total;
  $("[data-p-solved]").textContent = solved;
  $("[data-p-par]").textContent = atPar;
  const st = $("[data-p-streak]");
  if (st) st.textContent = streak(p);
  const rows = Object.keys(p.levels).filter((id) => id in pars && p.levels[id].stars).sort();
  const table = $("[data-p-best]");
  $("[data-p-empty]").hidden = rows.length > 0;
  table.hidden = rows.length === 0;
  const body = $("tbody", table);
  for (const id of rows) {
    const e = p.levels[id], tr = document.createElement("tr");
    const m = /^w(\d)-(\d\d)$/.exec(id), d = /^d-(\d{3})$/.exec(id);
    const a = document.createElement("a");
    a.href = m ? `w${m[1]}/${m[2]}.html` : `daily/${d[1]}.html`;
    a.textContent = m ? `${worldName(+m[1])} ${+m[2]}` : `Daily #${+d[1]}`;
    const th = document.createElement("th"); th.scope = "row"; th.append(a); tr.append(th);
    const over = e.best != null ? e.best - pars[id] : null;
    for (const [v, num] of [[pars[id], 1], [e.best ?? "–", 1], [over == null ? "–" : over > 0 ? `+${over}` : "par", 1],
      ["★".repeat(e.stars) + "☆".repeat(3 - e.stars), 0]]) {
      const td = document.createElement("td"); if (num) td.className = "num"; td.textContent = v; tr.append(td);
    }
    body.append(tr);
  }
}

progressPage();
