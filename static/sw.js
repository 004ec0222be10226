// The service worker (served at /sw.js with VERSION and PRECACHE put in front, see app/web/pwa.py).
// It keeps the static files for offline use, shows /offline for a page while the network is
// gone, and turns a push (app/notify) into a notification that opens its table.
/* global VERSION, PRECACHE */
const CACHE = `mu-${VERSION}`;
const OFFLINE = "/offline";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([...PRECACHE, OFFLINE]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  if (request.mode === "navigate") {
    // Pages are live (the table's state): the network first, the offline page without it.
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
    return;
  }
  if (url.pathname.startsWith("/static/")) {
    // Static files: the cached copy (a new worker version brings new ones), else the network.
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
  }
});

function readPush(event) {
  try {
    return event.data ? event.data.json() : {};
  } catch {
    return {};
  }
}

self.addEventListener("push", (event) => {
  const push = readPush(event);
  const title = push.title || "Mü Online";
  const options = {
    body: push.body || "",
    icon: "/static/icons/icon-192.png",
    badge: "/static/icons/maskable-192.png",
    // One notification per table and kind: a newer turn replaces the older one.
    tag: `${push.table || ""}:${push.kind || ""}`,
    renotify: true,
    data: { url: push.url || "/" },
  };
  // Open pages hear of it too (the table page may refresh); then the notification.
  const told = self.clients
    .matchAll({ type: "window", includeUncontrolled: true })
    .then((windows) => windows.forEach((client) => client.postMessage({ type: "push", push })));
  event.waitUntil(Promise.all([told, self.registration.showNotification(title, options)]));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/", location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === target);
      return open ? open.focus() : self.clients.openWindow(target);
    }),
  );
});
