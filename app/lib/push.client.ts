/**
 * Browser push (decision 014): the service workers, the permission, the subscription and the
 * save-subscription calls. Two paths: Firebase Cloud Messaging when the server has FIREBASE_* set (the SDK is
 * loaded only then), else standard Web Push with the VAPID public key. Both end in one saved subscription per
 * browser, bound on the server to whoever is signed in.
 */
import type { PushConfig } from "~/env.server";

export const PERMISSION_DENIED = "Notification permission denied";
export const BLOCKED_ALERT =
  "Notifications are blocked for FootyCoach. Please enable notifications in your browser settings to get team selection reminders.";

/** Token refresh (spec part 2 section 9). */
const REFRESH_MS = 7 * 24 * 3600 * 1000;
const RECORD_KEY = "footycoach.push";
const FCM_SCOPE = "/firebase-cloud-messaging-push-scope";

export class PushPermissionError extends Error {
  constructor() {
    super(PERMISSION_DENIED);
    this.name = "PushPermissionError";
  }
}

/** Service workers, push manager, notifications and fetch (spec part 2 section 5). */
export function pushSupported(): boolean {
  return (
    typeof window !== "undefined" &&
    "serviceWorker" in navigator &&
    "PushManager" in window &&
    "Notification" in window &&
    "fetch" in window
  );
}

/** The locally stored push record (spec part 2 section 3). */
export interface PushRecord {
  token: string;
  createTime: number;
  subscriptionOptions: { auth: string; p256dh: string; endpoint: string; swScope: string; vapidKey: string };
  kind: "webpush" | "fcm";
}

export function readRecord(): PushRecord | null {
  try {
    const raw = localStorage.getItem(RECORD_KEY);
    return raw ? (JSON.parse(raw) as PushRecord) : null;
  } catch {
    return null;
  }
}

function writeRecord(record: PushRecord | null) {
  try {
    if (record) localStorage.setItem(RECORD_KEY, JSON.stringify(record));
    else localStorage.removeItem(RECORD_KEY);
  } catch {
    // Storage can be unavailable (private modes): the next visit saves again, which is harmless.
  }
}

/** /sw.js: installable app, notifications, offline page (public/sw.js). */
export function registerAppServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return Promise.resolve(null);
  return navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error: unknown) => {
    console.warn("service worker registration failed:", error);
    return null;
  });
}

function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (value.length % 4)) % 4);
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function bytesToBase64Url(buffer: ArrayBuffer | null): string {
  if (!buffer) return "";
  let raw = "";
  for (const byte of new Uint8Array(buffer)) raw += String.fromCharCode(byte);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function callFunction(method: "POST" | "DELETE", name: string, body: unknown, keepalive = false): Promise<boolean> {
  try {
    const response = await fetch(`/functions/v1/${name}`, {
      method,
      headers: { "Content-Type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify(body),
      keepalive,
    });
    if (!response.ok) console.warn(`${name} answered ${response.status}`);
    return response.ok;
  } catch (error) {
    // save-subscription failure is tolerated and only logged (spec part 2 section 7).
    console.warn(`${name} failed:`, error);
    return false;
  }
}

/** Asks for permission when undecided; anything but granted is the spec's 'Notification permission denied'. */
async function ensurePermission(): Promise<void> {
  let permission = Notification.permission;
  if (permission === "default") permission = await Notification.requestPermission();
  if (permission !== "granted") throw new PushPermissionError();
}

/**
 * One push operation at a time in this browser. The layout's refresh (PushSetup) starts on every page load; a
 * profile toggle or a logout clicked while it is still on its way would otherwise clear the record and the
 * subscription under it, and the refresh, finding no record, would save a subscription again (which turns
 * notifications back on) after the toggle's action turned them off. Queued, the clear runs after the refresh.
 */
let pushQueue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = pushQueue.then(work, work);
  pushQueue = run.catch(() => {});
  return run;
}

export interface ServerPushState {
  notificationsEnabled: boolean;
  fcmToken: string | null;
  fcmTokenUpdatedAt: string | null;
}

/**
 * Registers this browser for push and saves it for the signed-in player. Saves only when something changed
 * (another endpoint or token), when the last save is older than 7 days, or when the server has notifications
 * off. Throws PushPermissionError when permission is not granted.
 */
export function setUpPush(config: PushConfig, server: ServerPushState, opts: { force?: boolean } = {}): Promise<PushRecord | null> {
  return oneAtATime(async () => {
    if (config.kind === "off" || !pushSupported()) return null;
    await ensurePermission();
    return config.kind === "fcm" ? setUpFcm(config, server, opts) : setUpWebPush(config, server, opts);
  });
}

function stale(record: PushRecord | null, now: number) {
  return !record || now - record.createTime > REFRESH_MS;
}

async function setUpWebPush(config: Extract<PushConfig, { kind: "webpush" }>, server: ServerPushState, opts: { force?: boolean }) {
  const registration = (await registerAppServiceWorker()) ?? (await navigator.serviceWorker.ready);
  await navigator.serviceWorker.ready;
  const key = base64UrlToBytes(config.vapidKey);
  let subscription = await registration.pushManager.getSubscription();
  const sameKey =
    subscription?.options.applicationServerKey &&
    bytesToBase64Url(subscription.options.applicationServerKey) === bytesToBase64Url(key.buffer);
  if (subscription && !sameKey) {
    await subscription.unsubscribe().catch(() => false);
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const json = subscription.toJSON();
  const record: PushRecord = {
    kind: "webpush",
    token: subscription.endpoint,
    createTime: Date.now(),
    subscriptionOptions: {
      endpoint: subscription.endpoint,
      auth: json.keys?.auth ?? "",
      p256dh: json.keys?.p256dh ?? "",
      swScope: registration.scope,
      vapidKey: config.vapidKey,
    },
  };
  const previous = readRecord();
  const changed = previous?.token !== record.token || stale(previous, record.createTime) || !server.notificationsEnabled;
  if (!changed && !opts.force) return previous;
  if (await callFunction("POST", "save-subscription", { subscription: json })) writeRecord(record);
  return record;
}

async function setUpFcm(config: Extract<PushConfig, { kind: "fcm" }>, server: ServerPushState, opts: { force?: boolean }) {
  // The SDK (about 100 kB) is fetched only on this path.
  const [{ initializeApp, getApps }, { getMessaging, getToken }] = await Promise.all([
    import("firebase/app"),
    import("firebase/messaging"),
  ]);
  const app = getApps()[0] ?? initializeApp(config.firebase);
  const registration = await navigator.serviceWorker.register("/firebase-messaging-sw.js", { scope: FCM_SCOPE });
  let token: string;
  try {
    token = await getToken(getMessaging(app), { vapidKey: config.vapidKey, serviceWorkerRegistration: registration });
  } catch (error) {
    console.error("Failed to get FCM token", error);
    throw new Error("Failed to get FCM token");
  }
  if (!token) return null;
  const now = Date.now();
  const savedAt = server.fcmTokenUpdatedAt ? Date.parse(server.fcmTokenUpdatedAt) : 0;
  const record: PushRecord = {
    kind: "fcm",
    token,
    createTime: now,
    subscriptionOptions: { endpoint: "", auth: "", p256dh: "", swScope: registration.scope, vapidKey: config.vapidKey },
  };
  // Saved only if changed, or refreshed after 7 days.
  const changed = token !== server.fcmToken || now - savedAt > REFRESH_MS || !server.notificationsEnabled;
  if (!changed && !opts.force) {
    writeRecord({ ...record, createTime: savedAt || now });
    return record;
  }
  if (await callFunction("POST", "save-subscription", { fcmToken: token, type: "fcm" })) writeRecord(record);
  return record;
}

/**
 * Drops this browser's push registration: the local subscription or token and its record, and (unless the
 * caller clears every subscription on the server itself) the saved subscription. Used by the profile toggle's
 * off and by logout.
 */
export function clearPush(config: PushConfig, opts: { server: boolean; keepalive?: boolean } = { server: true }): Promise<void> {
  return oneAtATime(() => clearPushNow(config, opts));
}

async function clearPushNow(config: PushConfig, opts: { server: boolean; keepalive?: boolean }): Promise<void> {
  if (!pushSupported()) return;
  const record = readRecord();
  writeRecord(null);
  const serverCall =
    opts.server && record
      ? callFunction(
          "DELETE",
          "save-subscription",
          record.kind === "fcm" ? { type: "fcm", fcmToken: record.token } : { endpoint: record.token },
          opts.keepalive,
        )
      : Promise.resolve(true);
  const local = (async () => {
    if (config.kind === "fcm" && record?.kind === "fcm") {
      const [{ initializeApp, getApps }, { getMessaging, deleteToken }] = await Promise.all([
        import("firebase/app"),
        import("firebase/messaging"),
      ]);
      const app = getApps()[0] ?? initializeApp(config.firebase);
      await deleteToken(getMessaging(app)).catch((error: unknown) => console.warn("deleteToken failed:", error));
      return;
    }
    const registration = await navigator.serviceWorker.getRegistration("/");
    const subscription = await registration?.pushManager.getSubscription();
    await subscription?.unsubscribe().catch(() => false);
  })();
  await Promise.all([serverCall, local.catch((error: unknown) => console.warn("unsubscribe failed:", error))]);
}

/** The prompt's "Maybe Later": not asked again for 7 days. */
const SNOOZE_KEY = "footycoach.pushPrompt.snoozedUntil";
export function promptSnoozed(now = Date.now()): boolean {
  try {
    return Number(localStorage.getItem(SNOOZE_KEY) ?? 0) > now;
  } catch {
    return false;
  }
}
export function snoozePrompt(now = Date.now()) {
  try {
    localStorage.setItem(SNOOZE_KEY, String(now + REFRESH_MS));
  } catch {
    // Without storage the prompt may come back next visit.
  }
}

/** A push that arrived while a page was in front: the service worker hands it to the page (public/sw.js). */
export interface ForegroundMessage {
  type: "footycoach-push";
  notification: { title: string; body: string; link: string };
}
export function isForegroundMessage(value: unknown): value is ForegroundMessage {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "footycoach-push";
}
