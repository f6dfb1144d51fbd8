/*
 * The portal's service worker (SPEC §7). It keeps the portal's own built files (/build/…, names carry a content
 * hash, so a cached copy never goes stale) and the icon, so a wallboard whose network drops can still load the
 * chunks it needs; every other request (pages, data, /api, camera streams) goes to the network as it would
 * without a worker. Old caches are dropped when a new worker takes over.
 */
const CACHE = "portal-static-v1";

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (!(url.pathname.startsWith("/build/") || url.pathname === "/favicon.svg")) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const hit = await cache.match(req);
      if (hit) return hit;
      const res = await fetch(req);
      if (res.ok) cache.put(req, res.clone()).catch(() => undefined);
      return res;
    }),
  );
});
