// Dames's service worker, written by the server for one build (the
// server fills BUILD, OFFLINE_PAGE and PRECACHE; see src/server/offline.rs).
// - On install it keeps what offline play needs: the offline page, the
//   build's whole bundle (every lazy chunk included: the offline games'
//   search and weights), the stylesheet, the manifest and the icons.
// - Pages come from the network whenever it answers (never a stale page);
//   without it, the page kept for that address, else the offline page.
// - The bundle's files are named by the build's hash: kept ones are served
//   as they are, and a new build gets a new cache, the old one deleted.
const BUILD = "__BUILD__";
const CACHE = "dames-" + BUILD;
const PRECACHE = __PRECACHE__;
const OFFLINE_PAGE = "__OFFLINE_PAGE__";
// Pages that work without the server, kept as last seen.
const KEPT_PAGES = [OFFLINE_PAGE, "/regles", "/reglages"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("dames-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  } else if (url.pathname.startsWith("/pkg/") || PRECACHE.includes(url.pathname)) {
    event.respondWith(kept(request));
  }
});

// The network's page; without it, the one kept for the address, else
// the offline page.
async function page(request, url) {
  try {
    const response = await fetch(request);
    if (response.ok && KEPT_PAGES.includes(url.pathname)) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
    }
    return response;
  } catch (offline) {
    const cache = await caches.open(CACHE);
    return (await cache.match(url.pathname)) || (await cache.match(OFFLINE_PAGE)) || Response.error();
  }
}

// A file of the bundle (immutable) or an icon: kept, else fetched and kept.
async function kept(request) {
  const cache = await caches.open(CACHE);
  const found = await cache.match(request, { ignoreSearch: true });
  if (found) return found;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}
