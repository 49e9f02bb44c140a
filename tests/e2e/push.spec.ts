import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "@playwright/test";
import { addMember, addPick, createCompetition, createPlayer } from "../support/factories";
import { db, expect, signIn, test, uniqueName } from "./fixtures";
import { startFakePushService, type FakePushService } from "./fake-push-service";
import { E2E } from "./env";

/**
 * Browser push and the service worker (decision 014), in real Chromium against the real Worker and database.
 *
 * Push needs a persistent (non-incognito) profile: Chromium refuses PushManager.subscribe in an incognito
 * context ("Registration failed - permission denied"), and Playwright's ordinary contexts are incognito. So the
 * browser tests launch their own persistent context, with Chromium's GCM switches pointed at a local stand-in
 * for the push service (tests/e2e/fake-push-service.ts) because the real one is unreachable offline. Pushes are
 * delivered to the service worker through CDP (ServiceWorker.deliverPushMessage), as a push service would.
 */

const SAVE = "/functions/v1/save-subscription";

/** A member of an active competition; with `pick` (default) one saved pick, the prompt's calm moment. */
async function activePlayer({ pick = true }: { pick?: boolean } = {}) {
  const player = await createPlayer(db(), { username: uniqueName() });
  const competition = await createCompetition(db(), { name: `Push ${uniqueName()}` });
  await addMember(db(), competition.id, player.id);
  if (pick) await pickFor(player.id, competition.id);
  return { player, competition };
}

async function pickFor(userId: string, competitionId: string) {
  const [f] = await db()<{ team: string; match_day: number }[]>`
    select f.home_team as team, f.match_day from public.competitions c
      join public.fixtures f on f.league = c.league and f.season = c.season and f.match_day = c.current_match_day
     where c.id = ${competitionId} order by f.kickoff_time limit 1`;
  await addPick(db(), { userId, competitionId, matchDay: f.match_day, team: f.team });
}

async function subscriptionsOf(userId: string) {
  return db()<{ endpoint: string | null; fcm_token: string | null; kind: string }[]>`
    select endpoint, fcm_token, kind from public.push_subscriptions where user_id = ${userId} order by created_at`;
}

async function notificationsEnabled(userId: string) {
  const [row] = await db()<{ enabled: boolean }[]>`select notifications_enabled as enabled from public.profiles where id = ${userId}`;
  return row.enabled;
}

// ---------------------------------------------------------------------------------------------------------
// save-subscription over HTTP

test.describe("save-subscription @desktop-only", () => {
  // An endpoint on a known push service's host (app/lib/push-services.ts), as Chromium's own would be.
  const subscription = (endpoint = `https://fcm.googleapis.com/fcm/send/${uniqueName()}`) => ({
    endpoint,
    keys: { p256dh: E2E.vapidPublicKey, auth: "c2VjcmV0LWF1dGgtMTIzNA" },
  });

  test("refuses signed-out (401), cross-site (403) and bad bodies (400)", async ({ request, page, loginAs, baseURL }) => {
    const signedOut = await request.post(SAVE, { data: { subscription: subscription() } });
    expect(signedOut.status()).toBe(401);

    const player = await loginAs();
    const crossSite = await page.request.post(SAVE, {
      data: { subscription: subscription() },
      headers: { Origin: "https://evil.example" },
    });
    expect(crossSite.status()).toBe(403);
    const crossSiteDelete = await page.request.delete(SAVE, {
      data: { endpoint: "https://push.example.test/x" },
      headers: { Origin: "https://evil.example" },
    });
    expect(crossSiteDelete.status()).toBe(403);

    const bad: unknown[] = [
      {},
      { subscription: { endpoint: "http://push.example.test/plain", keys: { p256dh: "a", auth: "b" } } },
      { subscription: { endpoint: "javascript:alert(1)", keys: { p256dh: "a", auth: "b" } } },
      { subscription: { endpoint: "https://push.example.test/x" } },
      { subscription: { endpoint: "https://push.example.test/x", keys: { p256dh: "", auth: "b" } } },
      { subscription: { endpoint: `https://push.example.test/${"x".repeat(3000)}`, keys: { p256dh: "a", auth: "b" } } },
      // Endpoints the scheduler must never POST to (SSRF): IP literals in any spelling, other hosts, userinfo, ports.
      ...[
        "https://127.0.0.1/x",
        "https://[::1]/x",
        "https://169.254.169.254/latest/meta-data/",
        "https://10.0.0.1/x",
        "https://2130706433/x",
        "https://evil.example/x",
        "https://fcm.googleapis.com.evil.example/fcm/send/x",
        "https://user@fcm.googleapis.com/fcm/send/x",
        "https://fcm.googleapis.com:8443/fcm/send/x",
      ].map((endpoint) => ({ subscription: subscription(endpoint) })),
      // Keys no push can be encrypted to: a p256dh that is no P-256 point, an auth that is not 16 bytes.
      { subscription: { ...subscription(), keys: { p256dh: "BKEY", auth: "c2VjcmV0LWF1dGgtMTIzNA" } } },
      { subscription: { ...subscription(), keys: { p256dh: E2E.vapidPublicKey, auth: "c2VjcmV0" } } },
      { type: "fcm" },
      { type: "fcm", fcmToken: "bad token with spaces" },
      [1, 2, 3],
      "text",
    ];
    for (const body of bad) {
      const response = await page.request.post(SAVE, { data: body, headers: { Origin: baseURL! } });
      expect(response.status(), JSON.stringify(body).slice(0, 80)).toBe(400);
      if (typeof body === "object" && body !== null && "subscription" in body) {
        expect(await response.json()).toEqual({ error: "Invalid push subscription." });
      }
    }
    const notJson = await page.request.post(SAVE, { data: "{not json", headers: { Origin: baseURL!, "Content-Type": "application/json" } });
    expect(notJson.status()).toBe(400);
    const withNul = await page.request.post(SAVE, {
      data: { subscription: subscription("https://push.example.test/\u0000") },
      headers: { Origin: baseURL! },
    });
    expect(withNul.status()).toBe(400);
    expect(await subscriptionsOf(player.id)).toEqual([]);
  });

  test("binds to the session: a userId in the body is ignored; idempotent; moves to the caller; delete", async ({
    page,
    loginAs,
    baseURL,
  }) => {
    const other = await createPlayer(db(), { username: uniqueName() });
    const player = await loginAs();
    const sub = subscription();
    const headers = { Origin: baseURL! };

    for (let i = 0; i < 2; i++) {
      const response = await page.request.post(SAVE, { data: { userId: other.id, subscription: sub }, headers });
      expect(response.status()).toBe(200);
    }
    expect(await subscriptionsOf(player.id)).toEqual([{ endpoint: sub.endpoint, fcm_token: null, kind: "webpush" }]);
    expect(await subscriptionsOf(other.id)).toEqual([]);
    expect(await notificationsEnabled(player.id)).toBe(true);
    expect(await notificationsEnabled(other.id)).toBe(false);

    // FCM: token kept on the profile with its time.
    const token = `fcm-${uniqueName()}:APA91b_e2e`;
    expect((await page.request.post(SAVE, { data: { userId: other.id, fcmToken: token, type: "fcm" }, headers })).status()).toBe(200);
    const [profile] = await db()<{ fcm_token: string; updated: Date | null }[]>`
      select fcm_token, fcm_token_updated_at as updated from public.profiles where id = ${player.id}`;
    expect(profile.fcm_token).toBe(token);
    expect(profile.updated).not.toBeNull();

    // The same browser signed in as someone else: the subscription moves to them.
    await page.context().clearCookies();
    const next = await loginAs();
    expect((await page.request.post(SAVE, { data: { subscription: sub }, headers })).status()).toBe(200);
    expect((await subscriptionsOf(next.id)).map((s) => s.endpoint)).toEqual([sub.endpoint]);
    expect((await subscriptionsOf(player.id)).map((s) => s.fcm_token)).toEqual([token]);

    // Delete removes only the caller's own.
    const deleteOthers = await page.request.delete(SAVE, { data: { type: "fcm", fcmToken: token }, headers });
    expect(await deleteOthers.json()).toMatchObject({ ok: true, result: "not_found" });
    expect(await subscriptionsOf(player.id)).toHaveLength(1);
    const deleted = await page.request.post("/functions/v1/delete-subscription", { data: { endpoint: sub.endpoint }, headers });
    expect(await deleted.json()).toMatchObject({ ok: true, result: "deleted" });
    expect(await subscriptionsOf(next.id)).toEqual([]);
  });
});

test("the profile toggle works without JavaScript: on sets the setting, off also removes the subscriptions @desktop-only", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const player = await signIn(context, baseURL!);
    const page = await context.newPage();
    await db()`insert into public.push_subscriptions (user_id, kind, endpoint, p256dh, auth)
               values (${player.id}, 'webpush', ${`https://push.example.test/nojs/${uniqueName()}`}, 'BKEY', 'YXV0aA')`;
    await page.goto("/profile");
    const toggle = notificationsSwitch(page);
    await expect(toggle).toHaveAttribute("aria-checked", "false");
    await toggle.click();
    await expect(page.getByText("Notifications turned on.")).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    expect(await notificationsEnabled(player.id)).toBe(true);
    await toggle.click();
    await expect(page.getByText("Notifications turned off.")).toBeVisible();
    expect(await notificationsEnabled(player.id)).toBe(false);
    expect(await subscriptionsOf(player.id)).toEqual([]);
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------------------------------------------------
// In the browser

let service: FakePushService;
test.beforeAll(async () => {
  service = await startFakePushService();
});
test.afterAll(async () => {
  await service?.stop();
});

/** A persistent Chromium profile (push needs one) with this project's device settings, signed in as `userId`. */
async function pushBrowser(
  baseURL: string,
  who: { email: string },
  grant = true,
  { consent = true }: { consent?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; close: () => Promise<void> }> {
  const use = test.info().project.use;
  const dir = mkdtempSync(path.join(os.tmpdir(), "footycoach-push-"));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: use.launchOptions?.executablePath,
    args: [...(use.launchOptions?.args ?? []), ...service.chromiumArgs],
    baseURL,
    viewport: use.viewport,
    userAgent: use.userAgent,
    deviceScaleFactor: use.deviceScaleFactor,
    isMobile: use.isMobile,
    hasTouch: use.hasTouch,
  });
  if (grant) await context.grantPermissions(["notifications"], { origin: baseURL });
  // The analytics-consent choice made, so its banner is closed (the prompt never shows over it).
  if (consent) await context.addInitScript(() => localStorage.setItem("footycoach_analytics_consent", "denied"));
  await signIn(context, baseURL, who, { pushPrompt: true });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until /sw.js controls the page (registered on load; clients.claim on activation). */
/** The profile's notifications switch. */
const notificationsSwitch = (page: Page) => page.getByRole("switch", { name: "Notifications (selection deadline reminders)" });

/** Opens the profile and turns notifications on there: this browser's subscription is saved. */
async function turnOnFromProfile(page: Page, userId: string) {
  await page.goto("/profile");
  const toggle = notificationsSwitch(page);
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await expect.poll(async () => (await subscriptionsOf(userId)).length).toBe(1);
  return toggle;
}

/** Notifications are off everywhere: no saved subscription, the profile's flag off, none in this browser. */
async function expectPushOff(page: Page, userId: string) {
  await expect.poll(() => subscriptionsOf(userId)).toEqual([]);
  expect(await notificationsEnabled(userId)).toBe(false);
  expect(await page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription()) === null)).toBe(true);
}

async function controlled(page: Page) {
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toMatch(/\/sw\.js$/);
}

test("the permission prompt: one overlay at a time, only after a saved pick, Maybe Later not asked again; none without an active competition", async ({
  baseURL,
}) => {
  const { player } = await activePlayer();
  const b = await pushBrowser(baseURL!, player, false, { consent: false });
  try {
    const { page } = b;
    const dialog = page.getByRole("dialog", { name: "Never Miss Team Selection Deadlines" });
    const banner = page.getByRole("region", { name: "Analytics consent" });

    // After the first saved pick: asked, but never while the consent banner is open.
    await page.goto("/dashboard");
    await expect(banner).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expect(dialog).toBeHidden();
    await banner.getByRole("button", { name: "Decline" }).click();
    await expect(dialog).toBeVisible();
    await expect(banner).toBeHidden();
    await expect(dialog).toContainText("6 hours and 3 hours (final) before the team selection deadline");
    await expect(dialog.getByRole("button", { name: "Enable Notifications" })).toBeVisible();
    await dialog.getByRole("button", { name: "Maybe Later" }).click();
    await expect(dialog).toBeHidden();
    const until = Number(await page.evaluate(() => localStorage.getItem("footycoach.pushPrompt.snoozedUntil")));
    expect(until - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    await page.goto("/competitions");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expect(dialog).toBeHidden();

    // A player who has registered but not saved a pick yet (first login, between Register and Select Team) is
    // not asked, nor one in no active competition.
    const fresh = await activePlayer({ pick: false });
    const idle = await createPlayer(db(), { username: uniqueName() });
    for (const who of [fresh.player, idle]) {
      await b.context.clearCookies();
      await signIn(b.context, baseURL!, who, { pushPrompt: true });
      await page.evaluate(() => {
        localStorage.clear();
        localStorage.setItem("footycoach_analytics_consent", "denied");
      });
      for (const path of who === idle ? ["/dashboard"] : ["/dashboard", `/select-team/${fresh.competition.id}`]) {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        await expect(banner).toBeHidden();
        await expect(dialog).toBeHidden();
      }
    }
    // No horizontal scroll at this viewport with the prompt's styles loaded.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  } finally {
    await b.close();
  }
});

test("denied: Enable shows the browser-settings alert and saves nothing @desktop-only", async ({ baseURL }) => {
  const { player } = await activePlayer();
  const b = await pushBrowser(baseURL!, player, false);
  try {
    const { page, context } = b;
    // Headless Chromium answers an undecided permission request with "denied" (no one to ask).
    const alert = new Promise<string>((resolve) => page.once("dialog", (d) => void d.dismiss().then(() => resolve(d.message()))));
    await page.goto("/dashboard");
    await page.getByRole("button", { name: "Enable Notifications" }).click();
    expect(await alert).toContain("enable notifications in your browser settings");
    expect(await subscriptionsOf(player.id)).toEqual([]);
    void context;
  } finally {
    await b.close();
  }
});

test("Enable subscribes and saves; the profile toggle clears it", async ({ baseURL }) => {
  const { player } = await activePlayer();
  const b = await pushBrowser(baseURL!, player);
  try {
    const { page } = b;
    // Granted beforehand, so the prompt is not shown: put the permission back to undecided for the prompt.
    await b.context.clearPermissions();
    await page.goto("/dashboard");
    const dialog = page.getByRole("dialog", { name: "Never Miss Team Selection Deadlines" });
    await expect(dialog).toBeVisible();
    await b.context.grantPermissions(["notifications"], { origin: baseURL! });
    // The push service answers slowly here, so the working state can be seen.
    service.registerDelayMs = 1500;
    try {
      await dialog.getByRole("button", { name: "Enable Notifications" }).click();
      await expect(dialog.getByRole("button", { name: "Enabling..." })).toBeDisabled();
      await expect(dialog).toBeHidden({ timeout: 20_000 });
    } finally {
      service.registerDelayMs = 0;
    }

    const endpoint = await page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.endpoint);
    expect(endpoint).toMatch(/^https:\/\/.+\/fcm\/send\/e2e-/);
    await expect.poll(() => subscriptionsOf(player.id)).toEqual([{ endpoint, fcm_token: null, kind: "webpush" }]);
    expect(service.registrations.some((t) => endpoint!.endsWith(t))).toBe(true);
    expect(await notificationsEnabled(player.id)).toBe(true);

    await page.goto("/profile");
    const toggle = notificationsSwitch(page);
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "false");
    await expectPushOff(page, player.id);

    // And on again from the profile: subscribes anew.
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    await expect.poll(async () => (await subscriptionsOf(player.id)).length).toBe(1);
  } finally {
    await b.close();
  }
});

test("turned off while the page's own refresh is still saving: stays off (the clear waits for the save)", async ({ baseURL }) => {
  const { player } = await activePlayer();
  const b = await pushBrowser(baseURL!, player);
  try {
    const { page } = b;
    const toggle = await turnOnFromProfile(page, player.id);

    // A week later (the saved record is stale), the layout's refresh saves this browser again on the next page
    // load; that save is held on its way, and the player turns notifications off meanwhile.
    await page.evaluate(() => {
      const record = JSON.parse(localStorage.getItem("footycoach.push")!) as { createTime: number };
      localStorage.setItem("footycoach.push", JSON.stringify({ ...record, createTime: Date.now() - 8 * 24 * 3600 * 1000 }));
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${SAVE}`, async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    const refreshing = page.waitForRequest((r) => r.url().endsWith(SAVE) && r.method() === "POST");
    await page.goto("/profile");
    const refresh = await refreshing;
    await toggle.click();
    // The held save goes on once the off is seen waiting for it (this browser's record still there) or, should the
    // off not wait, once the toggle's action has answered: the order that turned notifications back on.
    if ((await page.evaluate(() => localStorage.getItem("footycoach.push"))) === null)
      await page.waitForResponse((r) => r.request().method() === "POST" && /^\/profile(\.data)?$/.test(new URL(r.url()).pathname));
    release();
    await refresh.response();
    await expect(toggle).toHaveAttribute("aria-checked", "false");
    await expectPushOff(page, player.id);
  } finally {
    await b.close();
  }
});

test("logout clears this browser's subscription before signing out @desktop-only", async ({ baseURL }) => {
  const { player } = await activePlayer();
  const b = await pushBrowser(baseURL!, player);
  try {
    const { page } = b;
    await turnOnFromProfile(page, player.id);
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login/);
    expect(await subscriptionsOf(player.id)).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem("footycoach.push"))).toBeNull();
    expect(await page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription()) === null)).toBe(
      true,
    );
  } finally {
    await b.close();
  }
});

test("/sw.js controls the page, the app is installable, and offline navigations get the offline page", async ({ baseURL }) => {
  const { player } = await activePlayer();
  const b = await pushBrowser(baseURL!, player);
  try {
    const { page, context } = b;
    await page.goto("/dashboard");
    await controlled(page);

    const manifest = await (await page.request.get("/manifest.webmanifest")).json();
    expect(manifest).toMatchObject({ start_url: "/dashboard", display: "standalone", name: "FootyCoach" });
    expect(manifest.theme_color).toMatch(/^#/);
    for (const size of ["192x192", "512x512"]) {
      const icon = manifest.icons.find((i: { sizes: string }) => i.sizes === size);
      const response = await page.request.get(icon.src);
      expect(response.headers()["content-type"]).toContain("image/png");
      expect((await response.body()).subarray(1, 4).toString()).toBe("PNG");
    }
    expect((await page.request.get("/icon-192.png")).ok()).toBe(true);

    await page.goto("/competitions");
    await context.setOffline(true);
    await page.goto("/my-competitions");
    await expect(page.getByRole("heading", { name: "You are offline" })).toBeVisible();
    await context.setOffline(false);
    await page.getByRole("link", { name: "Try again" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // Nothing signed-in is stored: the caches hold the offline page, its icon and hashed build files only.
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) urls.push(new URL(r.url).pathname);
      return urls;
    });
    expect(cached).toContain("/offline");
    for (const url of cached) expect(url).toMatch(/^(\/offline|\/icon-192\.png|\/assets\/.+)$/);
  } finally {
    await b.close();
  }
});

test("a push shows a notification whose click opens its link; in front it is an info toast", async ({ baseURL }) => {
  const { player, competition } = await activePlayer();
  const b = await pushBrowser(baseURL!, player);
  try {
    const { page, context } = b;
    await page.goto("/dashboard");
    await controlled(page);
    const cdp = await context.newCDPSession(page);
    const registrations = new Promise<{ registrationId: string; scopeURL: string }[]>((resolve) =>
      cdp.on("ServiceWorker.workerRegistrationUpdated", (e) => resolve(e.registrations)),
    );
    await cdp.send("ServiceWorker.enable");
    const registration = (await registrations).find((r) => r.scopeURL === `${baseURL}/`)!;
    const deliver = (payload: object) =>
      cdp.send("ServiceWorker.deliverPushMessage", {
        origin: baseURL!,
        registrationId: registration.registrationId,
        data: JSON.stringify(payload),
      });

    // In front: the page shows it as an info toast, no notification.
    await deliver({ title: "FootyCoach", body: "Pick your team: 3 hours left", link: `/select-team/${competition.id}` });
    await expect(page.getByText("Pick your team: 3 hours left")).toBeVisible();

    // No FootyCoach page in front: a notification with the spec's defaults where the payload has none.
    await page.goto(`${service.url}/elsewhere`);
    await deliver({ body: "Team selection closes in 6 hours", fcmOptions: { link: `/select-team/${competition.id}` } });
    await page.waitForTimeout(500);
    await page.goto("/competitions");
    const shown = await page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        icon: n.icon,
        tag: n.tag,
        data: n.data,
      })),
    );
    expect(shown).toEqual([
      {
        title: "FootyCoach",
        body: "Team selection closes in 6 hours",
        icon: `${baseURL}/icon-192.png`,
        tag: "footy-coach-fcm",
        data: { link: `/select-team/${competition.id}` },
      },
    ]);

    // A notification's click is browser UI that no protocol can press; the worker's own notificationclick
    // handler is run with that notification (a NotificationEvent dispatched inside the service worker).
    const worker = context.serviceWorkers().find((w) => w.url().endsWith("/sw.js"))!;
    await controlled(page);
    await worker.evaluate(async () => {
      type Scope = {
        registration: { getNotifications(): Promise<unknown[]> };
        dispatchEvent(event: Event): boolean;
        NotificationEvent: new (type: string, init: { notification: unknown }) => Event;
      };
      const sw = self as unknown as Scope;
      const [notification] = await sw.registration.getNotifications();
      sw.dispatchEvent(new sw.NotificationEvent("notificationclick", { notification }));
    });
    await expect(page).toHaveURL(new RegExp(`/select-team/${competition.id}$`));
    expect(await page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length)).toBe(0);
  } finally {
    await b.close();
  }
});
