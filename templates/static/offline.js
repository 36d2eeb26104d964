// Lumina offline: registers the site's service worker (sw.js at the site's root) and sets
// <html data-offline="ready" data-offline-version="HASH"> once the worker holds every file of
// the site (a contract the browser tests wait for). When a republished site's worker takes
// over an open page, the page reloads to show the new build, unless a game is in progress:
// then it says so and leaves the reload to the player.
import { toast } from "./toast.js";

export async function offline() {
  const sw = navigator.serviceWorker;
  if (!sw) return;
  const html = document.documentElement;
  const had = !!sw.controller;
  sw.addEventListener("message", (e) => {
    const d = e.data || {};
    if (d.version && d.cached >= d.files) Object.assign(html.dataset, { offline: "ready", offlineVersion: d.version });
  });
  sw.addEventListener("controllerchange", () => {
    if (!had) return ask();   // the first install took this page over: nothing to refresh
    const b = window.luminaBoard;
    if (b && b.moves > 0 && !b.solved) toast("Lumina was updated: reload the page for the new version.");
    else location.reload();
  });
  let reg;
  try { reg = await sw.register(new URL("../sw.js", import.meta.url)); } catch { return; }
  if (!reg) return;   // registration blocked (a test harness may do that)
  await sw.ready;
  ask();
  function ask() { const w = sw.controller || reg.active; if (w) w.postMessage("status"); }
}
