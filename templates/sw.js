// Lumina's service worker: after one visit to any page, every page of the site opens and
// plays with the network off. The build writes the line below: VERSION (the hash of every
// other file of the site, so a republish installs a new worker) and FILES (every file of
// the site, relative to this one). Install caches them all in "lumina-VERSION"; activation
// deletes every other Lumina cache and takes over the open pages, which reload (offline.js):
// no stale page survives a republish. Pages, scripts and images come from the cache first.
/* @precache */
const CACHE = "lumina-" + VERSION;

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("lumina-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (e) => {
  const req = e.request, url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.endsWith("/")) url.pathname += "index.html";
  // a shared level (play.html?d=...) is one page whatever its query
  e.respondWith(caches.open(CACHE)
    .then((c) => c.match(url.href, { ignoreSearch: req.mode === "navigate" }))
    .then((hit) => hit || fetch(req)));
});

// "status": how many of the site's files this worker holds (offline.js sets data-offline="ready").
self.addEventListener("message", (e) => {
  if (e.data !== "status") return;
  caches.open(CACHE).then((c) => c.keys()).then((keys) => {
    e.source.postMessage({ version: VERSION, cached: keys.length, files: FILES.length });
  });
});
