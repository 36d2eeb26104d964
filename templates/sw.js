// Lumina's service worker: after one visit to any page, every page of the site opens and
// plays with the network off. The build writes the line below: VERSION (the hash of every
// other file of the site, so a republish installs a new worker) and FILES (every file of
// the site, relative to this one).
// - Install fetches FILES with the HTTP cache bypassed (cache: "reload"), so a site served
//   with old Last-Modified headers (python -m http.server) never fills a new cache with the
//   old build's pages, into a cache named after this site's scope and VERSION
//   ("lumina:/a/:VERSION"): two Lumina sites on one origin (/a/ and /b/) keep their own.
// - Activation deletes this site's older caches only (and a pre-scope "lumina-HASH" cache
//   only when it holds this site's index.html), then takes over the open pages, which
//   reload (offline.js): no stale page survives a republish.
// - Fetch: same-scope GETs come from the cache first; a miss is fetched (HTTP cache
//   bypassed) and kept in this version's cache, so a file loaded lazily (JSON shards) plays
//   offline once visited. A navigation that misses (404 online, or not cached offline)
//   shows 404.html when the build has one.
/* @precache */
const SCOPE = self.registration.scope;                 // the site's root URL, ".../a/"
const PREFIX = "lumina:" + new URL(SCOPE).pathname + ":";
const CACHE = PREFIX + VERSION;
const NOT_FOUND = FILES.includes("404.html") ? new URL("404.html", SCOPE).href : null;

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE)
    .then((c) => c.addAll(FILES.map((f) => new Request(f, { cache: "reload" }))))
    .then(() => self.skipWaiting()));
});

// An old cache of this site: ours by prefix, or (named before caches were scoped) one that
// holds this site's own index.html.
async function ours(key) {
  if (key.startsWith(PREFIX)) return key !== CACHE;
  if (!/^lumina-[0-9a-f]{16}$/.test(key)) return false;
  return !!(await (await caches.open(key)).match(new URL("index.html", SCOPE).href));
}

self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.map(async (k) => { if (await ours(k)) await caches.delete(k); })))
    .then(() => self.clients.claim()));
});

async function notFound(c, res) {
  const page = NOT_FOUND && await c.match(NOT_FOUND);
  if (!page) return res;
  return new Response(page.body, { status: 404, statusText: "Not Found", headers: page.headers });
}

async function answer(req, url) {
  const c = await caches.open(CACHE);
  const nav = req.mode === "navigate";
  // a shared level (play.html?d=...) is one page whatever its query
  const hit = await c.match(url.href, { ignoreSearch: nav });
  if (hit) return hit;
  let res;
  try {
    res = await (nav ? fetch(req) : fetch(new Request(req, { cache: "reload" })));
  } catch (err) {
    if (nav) { const page = await notFound(c, null); if (page) return page; }
    throw err;
  }
  if (res.status === 200 && res.type === "basic" && !res.redirected) {
    try { await c.put(url.href, res.clone()); } catch { /* storage full: served, not kept */ }
  }
  if (nav && res.status === 404) return notFound(c, res);
  return res;
}

self.addEventListener("fetch", (e) => {
  const req = e.request, url = new URL(req.url);
  if (req.method !== "GET" || !url.href.startsWith(SCOPE)) return;   // another site's, or not a read
  if (url.pathname.endsWith("/")) url.pathname += "index.html";
  e.respondWith(answer(req, url));
});

// "status": how many of the site's files this worker holds (offline.js sets data-offline="ready").
self.addEventListener("message", (e) => {
  if (e.data !== "status") return;
  caches.open(CACHE).then((c) => c.keys()).then((keys) => {
    const held = new Set(keys.map((r) => r.url));
    const cached = FILES.filter((f) => held.has(new URL(f, SCOPE).href)).length;
    e.source.postMessage({ version: VERSION, cached, files: FILES.length });
  });
});
