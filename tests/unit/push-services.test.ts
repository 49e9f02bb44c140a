/**
 * Which push subscriptions may be stored and contacted (app/lib/push-services.ts, rules file Reminders): only https
 * endpoints on a known push service's host with valid keys. The save-subscription body (app/models/push.server.ts)
 * is what functions/push.ts parses, so a refused body there is the function's 400 "Invalid push subscription.".
 */
import { describe, expect, it } from "vitest";
import { DeleteSubscriptionBody, SaveSubscriptionBody } from "~/models/push.server";
import { isPushServiceHost, pushEndpointProblem, webPushKeysProblem, webPushSubscriptionProblem } from "~/lib/push-services";

const b64u = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

/** A real browser-like key pair: a fresh P-256 public key and a 16-byte auth secret. */
async function browserKeys() {
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
  const point = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  return { p256dh: b64u(point), auth: b64u(crypto.getRandomValues(new Uint8Array(16))) };
}

const GOOD_ENDPOINTS = [
  "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx",
  "https://fcm.googleapis.com/wp/dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx",
  "https://jmt17.google.com/fcm/send/e2e-gfko8t2kl1", // Chrome Beta, Dev, Canary; Debian's Chromium
  "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABh",
  "https://web.push.apple.com/QGuQyavXutnMH8nVGGbC8nrG1kJ0n3ZTuJbpU8s0AX4uM4P7ISjdBvvTZkTfd",
  "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD%2bAbC",
  "https://fcm.googleapis.com:443/fcm/send/explicit-default-port",
];

// Each one is refused; the comment says why it must be.
const BAD_ENDPOINTS = [
  "https://127.0.0.1/wp/x", // loopback
  "https://[::1]/wp/x", // IPv6 loopback
  "https://169.254.169.254/latest/meta-data/", // cloud metadata
  "https://10.0.0.1/push", // private network
  "https://2130706433/wp/x", // 127.0.0.1 as one decimal number
  "https://0x7f000001/wp/x", // ... in hex
  "https://0177.0.0.1/wp/x", // ... in octal
  "https://127.1/wp/x", // ... shortened
  "https://evil.example/push", // any other host
  "https://fcm.googleapis.com.evil.example/fcm/send/x", // a known host as a prefix
  "https://evilfcm.googleapis.com/fcm/send/x", // not a subdomain: exact host only for FCM
  "https://a.jmt17.google.com/fcm/send/x", // ... and for its staging host
  "https://google.com/fcm/send/x", // Google, but not the push service
  "https://notify.windows.com/w/", // the bare suffix of a subdomain-only service
  "https://evil.com\\@fcm.googleapis.com/fcm/send/x", // backslash: the parser reads host evil.com
  "https://user:pass@fcm.googleapis.com/fcm/send/x", // userinfo
  "https://fcm.googleapis.com@evil.example/x", // userinfo that looks like the host
  "https://fcm.googleapis.com:8443/fcm/send/x", // another port
  "https://FCM.googleapis.com/fcm/send/x", // not as the parser writes it
  "https://fcm%2Egoogleapis.com/fcm/send/x", // percent-encoded host
  "https://fcm.googleapis.com./fcm/send/x", // trailing dot
  "http://fcm.googleapis.com/fcm/send/x", // not https
  "https://fcm.googleapis.com/fcm/send/with space", // not printable ASCII
  `https://fcm.googleapis.com/fcm/send/${"x".repeat(2000)}`, // too long
];

describe("pushEndpointProblem", () => {
  it("accepts the push services' hosts", () => {
    for (const endpoint of GOOD_ENDPOINTS) expect(pushEndpointProblem(endpoint), endpoint).toBeNull();
    expect(isPushServiceHost("updates.push.services.mozilla.com")).toBe(true);
    expect(isPushServiceHost("web.push.apple.com")).toBe(true);
  });

  it("refuses IP literals in every spelling, other hosts, userinfo, other ports and odd spellings", () => {
    for (const endpoint of BAD_ENDPOINTS) expect(pushEndpointProblem(endpoint), endpoint).not.toBeNull();
    expect(pushEndpointProblem("https://2130706433/wp/x")).toBe("endpoint host is an IP address");
    expect(pushEndpointProblem("https://evil.example/push")).toBe("endpoint host evil.example is not a known push service");
  });
});

describe("webPushKeysProblem", () => {
  it("accepts a P-256 public key and a 16-byte secret", async () => {
    const keys = await browserKeys();
    expect(await webPushKeysProblem(keys.p256dh, keys.auth)).toBeNull();
  });

  it("refuses a short, compressed or off-curve key and a secret that is not 16 bytes", async () => {
    const { p256dh, auth } = await browserKeys();
    const point = Buffer.from(p256dh, "base64url");
    const offCurve = Buffer.from(point);
    offCurve[64] ^= 1; // y changed by one bit: no longer on the curve
    const compressed = Buffer.concat([Buffer.from([0x02 + (point[64] & 1)]), point.subarray(1, 33)]);
    expect(await webPushKeysProblem(b64u(point.subarray(0, 64)), auth)).toMatch(/65-byte/);
    expect(await webPushKeysProblem(b64u(compressed), auth)).toMatch(/65-byte/);
    expect(await webPushKeysProblem(b64u(offCurve), auth)).toBe("p256dh is not a point on P-256");
    expect(await webPushKeysProblem("not base64!", auth)).toMatch(/65-byte/);
    expect(await webPushKeysProblem(p256dh, b64u(new Uint8Array(15)))).toBe("auth is not a 16-byte secret");
    expect(await webPushKeysProblem(p256dh, b64u(new Uint8Array(17)))).toBe("auth is not a 16-byte secret");
  });

  it("checks a whole subscription, endpoint first", async () => {
    const keys = await browserKeys();
    expect(await webPushSubscriptionProblem({ endpoint: GOOD_ENDPOINTS[0], ...keys })).toBeNull();
    expect(await webPushSubscriptionProblem({ endpoint: "https://10.0.0.1/x", p256dh: "x", auth: "y" })).toBe(
      "endpoint host is an IP address",
    );
  });
});

describe("the save-subscription body", () => {
  it("takes a browser's subscription on a push service, and an FCM token", async () => {
    const keys = await browserKeys();
    for (const endpoint of GOOD_ENDPOINTS) {
      expect((await SaveSubscriptionBody.safeParseAsync({ subscription: { endpoint, keys } })).success, endpoint).toBe(true);
    }
    expect((await SaveSubscriptionBody.safeParseAsync({ type: "fcm", fcmToken: "dQw4w9WgXcQ:APA91bH-un_4M" })).success).toBe(true);
  });

  it("refuses every endpoint off the push services and keys that cannot be encrypted to", async () => {
    const keys = await browserKeys();
    for (const endpoint of BAD_ENDPOINTS) {
      expect((await SaveSubscriptionBody.safeParseAsync({ subscription: { endpoint, keys } })).success, endpoint).toBe(false);
    }
    const endpoint = GOOD_ENDPOINTS[0];
    for (const bad of [
      { ...keys, auth: b64u(new Uint8Array(8)) },
      { ...keys, p256dh: b64u(new Uint8Array(65)) },
      { ...keys, p256dh: "BKEY" },
    ]) {
      expect((await SaveSubscriptionBody.safeParseAsync({ subscription: { endpoint, keys: bad } })).success, JSON.stringify(bad)).toBe(
        false,
      );
    }
  });

  it("still lets a player delete a subscription saved before these rules (by its endpoint)", () => {
    expect(DeleteSubscriptionBody.safeParse({ endpoint: "https://push.example.test/old" }).success).toBe(true);
  });
});
