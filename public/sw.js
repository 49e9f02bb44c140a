/* FootyCoach service worker (decision 014): installable app, push notifications, offline page.
 *
 * Caching rule: a signed-in page's HTML or data is NEVER stored. Only the offline page and its icon are
 * precached, and the build's content-hashed files (/assets/*, immutable by name) may be cached. Navigations go
 * to the network; only when the network is gone does the offline page answer. Everything else (single-fetch
 * data, functions, forms) is not touched by this worker at all.
 */
const VERSION = "v1";
const STATIC_CACHE = `footycoach-static-${VERSION}`;
const ASSET_CACHE = `footycoach-assets-${VERSION}`;
// Served from public/offline.html; the asset server answers it at /offline (an .html name redirects there).
const OFFLINE_URL = "/offline";
const PRECACHE = [OFFLINE_URL, "/icon-192.png"];

/** Push defaults (spec part 2 section 9). */
const DEFAULTS = { title: "FootyCoach", body: "New notification", icon: "/icon-192.png", tag: "footy-coach-fcm", link: "/dashboard" };

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(STATIC_CACHE)
      .then((cache) =>
        Promise.all(
          PRECACHE.map((url) =>
            fetch(new Request(url, { cache: "reload" })).then((response) => {
              if (!response.ok) throw new Error(`precache ${url}: ${response.status}`);
              // A redirected response cannot answer a navigation: store a plain copy.
              return cache.put(url, response.redirected ? new Response(response.body, { headers: response.headers }) : response);
            }),
          ),
        ),
      )
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith("footycoach-") && k !== STATIC_CACHE && k !== ASSET_CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  if (request.mode === "navigate") {
    // Network only for pages (never stored); the offline page when the network is gone.
    event.respondWith(
      fetch(request).catch(() => caches.match(OFFLINE_URL, { cacheName: STATIC_CACHE }).then((r) => r || Response.error())),
    );
    return;
  }
  if (PRECACHE.includes(url.pathname) && !url.search) {
    event.respondWith(
      fetch(request).catch(() => caches.match(url.pathname, { cacheName: STATIC_CACHE }).then((r) => r || Response.error())),
    );
    return;
  }
  if (url.pathname.startsWith("/assets/") && !url.search) {
    // Content-hashed build files: the same name is always the same bytes.
    event.respondWith(
      caches.open(ASSET_CACHE).then((cache) =>
        cache.match(request).then(
          (hit) =>
            hit ||
            fetch(request).then((response) => {
              if (response.ok && response.type === "basic") cache.put(request, response.clone());
              return response;
            }),
        ),
      ),
    );
  }
});

/** A push's payload: our own shape ({title, body, link}), FCM's ({notification, data, fcmOptions}), or text. */
function readPush(event) {
  let payload = {};
  if (event.data) {
    try {
      payload = event.data.json();
    } catch {
      payload = { body: event.data.text() };
    }
  }
  if (typeof payload !== "object" || payload === null) payload = { body: String(payload) };
  const notification = payload.notification || {};
  const data = payload.data || {};
  const fcmOptions = payload.fcmOptions || payload.fcm_options || {};
  const text = (v) => (typeof v === "string" && v.trim() ? v : undefined);
  const rawLink = text(payload.link) || text(fcmOptions.link) || text(data.link) || DEFAULTS.link;
  let link = DEFAULTS.link;
  try {
    // Only a page of this app opens from a notification.
    const target = new URL(rawLink, self.location.origin);
    if (target.origin === self.location.origin) link = target.pathname + target.search + target.hash;
  } catch {
    // keep the default
  }
  return {
    title: text(payload.title) || text(notification.title) || DEFAULTS.title,
    body: text(payload.body) || text(notification.body) || DEFAULTS.body,
    icon: text(payload.icon) || text(notification.icon) || DEFAULTS.icon,
    tag: text(payload.tag) || DEFAULTS.tag,
    link,
  };
}

self.addEventListener("push", (event) => {
  const message = readPush(event);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((clients) => {
      // A page in front gets the message as an info toast (the foreground message) instead.
      const front = clients.filter((c) => c.visibilityState === "visible");
      if (front.length > 0) {
        for (const client of front) client.postMessage({ type: "footycoach-push", notification: message });
        return undefined;
      }
      return self.registration.showNotification(message.title, {
        body: message.body,
        icon: message.icon,
        badge: DEFAULTS.icon,
        tag: message.tag,
        data: { link: message.link },
      });
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const link = (event.notification.data && event.notification.data.link) || DEFAULTS.link;
  const target = new URL(link, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(async (clients) => {
      const same = clients.find((c) => c.url === target);
      if (same) return same.focus();
      const open = clients.find((c) => new URL(c.url).origin === self.location.origin);
      if (open) {
        // Reuse an open FootyCoach window: move it to the link, then bring it forward.
        // (navigate works only for pages this worker controls; otherwise a new window.)
        const moved = await open.navigate(target).catch(() => null);
        if (!moved) return self.clients.openWindow(target);
        return moved.focus().catch(() => moved);
      }
      return self.clients.openWindow(target);
    }),
  );
});
