/**
 * Which Web Push subscriptions FootyCoach will store and contact (rules file, Reminders; decisions 013 and 014).
 * A subscription's endpoint is a URL our scheduler POSTs to, so accepting any https URL would let a player aim
 * the scheduler at internal addresses (SSRF). One module for both Workers: the save-subscription function
 * refuses anything else when it is saved, and the scheduler's Web Push sender checks again before every send,
 * because a row can reach the table another way (the database's RPC API, an older release, a restore).
 * Pure: no imports, runs in workerd and Node alike.
 */

/**
 * The push services browsers subscribe with. `subdomains: true` accepts only hosts under `host` (the services
 * hand out several, e.g. wns2-par02p.notify.windows.com), never `host` itself. The database's save function
 * repeats this list as a backstop for calls that skip the web function (migration 20261125120100);
 * tests/db/push-subscriptions.test.ts checks that the two agree.
 */
export const PUSH_SERVICES = [
  // Chrome, Chromium-based browsers and Android: https://fcm.googleapis.com/fcm/send/<token> (or /wp/<token>)
  { service: "Google FCM", host: "fcm.googleapis.com", subdomains: false },
  // The same service for every Chrome channel but Stable (Beta, Dev, Canary, and Chromium builds without one, such
  // as Debian's): Chromium's kPushMessagingStagingGcmEndpoint, chosen by GetGcmEndpointForChannel.
  { service: "Google FCM (non-Stable Chrome channels)", host: "jmt17.google.com", subdomains: false },
  // Firefox: https://updates.push.services.mozilla.com/wpush/v2/<token>
  { service: "Mozilla autopush", host: "push.services.mozilla.com", subdomains: true },
  // Safari (macOS 13+, iOS 16.4+): https://web.push.apple.com/<token>; Apple asks servers to allow *.push.apple.com
  { service: "Apple web push", host: "push.apple.com", subdomains: true },
  // Edge on Windows: https://<region>.notify.windows.com/w/?token=...
  { service: "Microsoft WNS", host: "notify.windows.com", subdomains: true },
] as const;

export const MAX_ENDPOINT_LENGTH = 2000;

// One DNS label: letters, digits and inner hyphens, at most 63 characters (lower case: the URL parser folds case).
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const SUBDOMAIN = new RegExp(`^(?:${LABEL}\\.)*${LABEL}$`);

/** True when `host` (as the URL parser gives it: lower case) belongs to a known push service. */
export function isPushServiceHost(host: string): boolean {
  return PUSH_SERVICES.some((s) =>
    s.subdomains ? host.endsWith(`.${s.host}`) && SUBDOMAIN.test(host.slice(0, -(s.host.length + 1))) : host === s.host,
  );
}

/**
 * Why this endpoint is refused, or null when it may be stored and contacted: an https URL of printable ASCII on a
 * known push service's host, port 443, no user name or password, no IP address. The host must be written as the
 * URL parser reads it (lower case, no percent-encoding, no trailing dot, no backslash, no IP number in decimal, hex
 * or octal), so every parser on the way (this one, the database's regex, the fetch) sees the same host.
 */
export function pushEndpointProblem(endpoint: string): string | null {
  if (endpoint.length > MAX_ENDPOINT_LENGTH) return "endpoint is longer than 2000 characters";
  if (!/^https:\/\/[\x21-\x7e]+$/.test(endpoint)) return "endpoint is not an https URL of printable characters";
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "endpoint is not a URL";
  }
  if (url.protocol !== "https:") return "endpoint is not https";
  if (url.username !== "" || url.password !== "") return "endpoint has a user name or password";
  // The parser drops https's default port, so an explicit :443 reads as "" too.
  if (url.port !== "") return `endpoint port ${url.port} is not 443`;
  const host = url.hostname;
  // After parsing, every IPv4 spelling (2130706433, 0x7f.1, 0177.0.0.1) is dotted decimal and IPv6 is bracketed.
  if (host.startsWith("[") || /^\d+(?:\.\d+){3}$/.test(host)) return "endpoint host is an IP address";
  const written = endpoint.slice("https://".length).split(/[/?#]/, 1)[0];
  if (written !== host && written !== `${host}:443`) return "endpoint host is not written as a plain host name";
  if (!isPushServiceHost(host)) return `endpoint host ${host} is not a known push service`;
  return null;
}

/** base64url (or base64: some browsers stored + and /), padding optional; null when it is neither. */
export function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  const normalised = text
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .replace(/={0,2}$/, "");
  if (!/^[A-Za-z0-9+/]*$/.test(normalised) || normalised.length % 4 === 1) return null;
  const binary = atob(normalised + "=".repeat((4 - (normalised.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Why these keys are refused, or null: p256dh must be the browser's 65-byte uncompressed P-256 public key (0x04,
 * x, y) on the curve, auth the 16-byte secret (RFC 8291). Anything else can never be encrypted to.
 */
export async function webPushKeysProblem(p256dh: string, auth: string): Promise<string | null> {
  const point = decodeBase64Url(p256dh);
  if (!point || point.length !== 65 || point[0] !== 0x04) return "p256dh is not a 65-byte uncompressed P-256 point";
  try {
    // WebCrypto refuses a point that is not on the curve.
    await crypto.subtle.importKey("raw", point, { name: "ECDH", namedCurve: "P-256" }, false, []);
  } catch {
    return "p256dh is not a point on P-256";
  }
  const secret = decodeBase64Url(auth);
  if (!secret || secret.length !== 16) return "auth is not a 16-byte secret";
  return null;
}

export interface WebPushSubscriptionFields {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Why this Web Push subscription is refused (its endpoint first, then its keys), or null when it is good. */
export async function webPushSubscriptionProblem(s: WebPushSubscriptionFields): Promise<string | null> {
  return pushEndpointProblem(s.endpoint) ?? (await webPushKeysProblem(s.p256dh, s.auth));
}
