import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { fromBase64Url, toBase64Url } from "../../workers/scheduler/push/base64url";
import { PUSH_DEFAULTS, type PushPayload, type WebPushTarget } from "../../workers/scheduler/push/payload";
import { createWebPushSender, encryptPayload } from "../../workers/scheduler/push/webpush";
import type { ReceivedPush } from "../support/local-push-service";

/**
 * The Web Push sender inside workerd: RFC 8291's own test vector, then real sends to the local push service
 * (tests/support/local-push-service.ts), which decrypts with the subscription's keys on node:crypto and checks
 * the VAPID JWT.
 */
const keys = env as unknown as { VAPID_PUBLIC_KEY: string; VAPID_PRIVATE_KEY: string; VAPID_SUBJECT: string };
const service = inject("webPushServiceUrl");

function sender(endpointOverride = service) {
  return createWebPushSender({
    publicKey: keys.VAPID_PUBLIC_KEY,
    privateKey: keys.VAPID_PRIVATE_KEY,
    subject: keys.VAPID_SUBJECT,
    endpointOverride,
  });
}

async function control<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${service}/__control/${path}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) });
  expect(res.status, `control ${path}`).toBe(200);
  return await res.json();
}

const subscribe = (count = 1) => control<WebPushTarget[]>("subscriptions", { count });
const receivedAt = (endpoint: string) => control<ReceivedPush[]>(`received?endpoint=${encodeURIComponent(endpoint)}`);

function payload(body: string): PushPayload {
  return { ...PUSH_DEFAULTS, body, link: "https://footycoach.app/select-team?competition=42" };
}

describe("RFC 8291 Appendix A", () => {
  it("encrypts the watermelon message to the RFC's exact body", async () => {
    const body = await encryptPayload(
      "When I grow up, I want to be a watermelon",
      fromBase64Url("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"),
      fromBase64Url("BTBZMqHH6r4Tts7J_aSIgg"),
      {
        salt: fromBase64Url("DGv6ra1nlYgDCS1FRnbzlw"),
        asKeyPair: {
          publicKey: fromBase64Url("BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"),
          privateKey: fromBase64Url("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"),
        },
      },
    );
    expect(toBase64Url(body)).toBe(
      "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
    );
  });

  it("uses a fresh salt and key pair per message by default", async () => {
    const [target] = await subscribe();
    const a = await encryptPayload("same", fromBase64Url(target.p256dh), fromBase64Url(target.auth));
    const b = await encryptPayload("same", fromBase64Url(target.p256dh), fromBase64Url(target.auth));
    expect(toBase64Url(a.subarray(0, 16))).not.toBe(toBase64Url(b.subarray(0, 16)));
    expect(toBase64Url(a.subarray(21, 86))).not.toBe(toBase64Url(b.subarray(21, 86)));
  });
});

describe("sending to the local push service", () => {
  it("delivers a payload the service decrypts, with TTL, Urgency and a valid VAPID JWT", async () => {
    const [target] = await subscribe();
    expect(target.endpoint).toMatch(/^https:\/\/updates\.push\.services\.mozilla\.com\/wp\//);
    const sent = payload("Pick your team for Matchday 3: deadline Sat 15:00");
    const before = Math.floor(Date.now() / 1000);

    const outcome = await sender()(target, sent, { ttlSeconds: 10_800, urgency: "high" });

    expect(outcome).toEqual({ status: 201, gone: false, retryable: false, retryAfterSeconds: null });
    const [got, ...more] = await receivedAt(target.endpoint);
    expect(more).toEqual([]);
    expect(got.status).toBe(201);
    expect(got.reason).toBeNull();
    expect(got.payload).toEqual(sent);
    expect(got.ttl).toBe("10800");
    expect(got.urgency).toBe("high");
    expect(got.contentEncoding).toBe("aes128gcm");
    expect(got.vapid).toMatchObject({
      valid: true,
      aud: "https://updates.push.services.mozilla.com",
      sub: "mailto:ops@footycoach.test",
      k: keys.VAPID_PUBLIC_KEY,
    });
    // 12 hours ahead: inside RFC 8292's 24-hour limit with room for clock skew.
    expect(got.vapid!.exp! - before).toBeGreaterThanOrEqual(12 * 3600 - 5);
    expect(got.vapid!.exp! - before).toBeLessThanOrEqual(12 * 3600 + 5);
  });

  it("defaults to a one-day TTL and normal urgency", async () => {
    const [target] = await subscribe();
    expect((await sender()(target, payload("defaults"))).status).toBe(201);
    const [got] = await receivedAt(target.endpoint);
    expect([got.ttl, got.urgency]).toEqual(["86400", "normal"]);
  });

  it("signs the VAPID JWT once per origin across many sends, and a new sender signs its own", async () => {
    const targets = await subscribe(12);
    const send = sender();
    const outcomes = await Promise.all(targets.slice(0, 8).map((t, i) => send(t, payload(`parallel ${i}`))));
    for (const t of targets.slice(8)) outcomes.push(await send(t, payload("sequential")));
    expect(outcomes.map((o) => o.status)).toEqual(Array(12).fill(201));
    const tokens = new Set<string | null>();
    for (const t of targets) for (const r of await receivedAt(t.endpoint)) tokens.add(r.vapid?.token ?? null);
    expect(tokens.size).toBe(1);

    const [other] = await subscribe();
    await sender()(other, payload("another sender"));
    const [fromOther] = await receivedAt(other.endpoint);
    expect(fromOther.vapid?.valid).toBe(true);
    expect(tokens.has(fromOther.vapid!.token)).toBe(false);
  });

  it("reports 404 and 410 as gone", async () => {
    const [target] = await subscribe();
    await control("respond", { endpoint: target.endpoint, statuses: [404, 410] });
    const send = sender();
    expect(await send(target, payload("a"))).toEqual({ status: 404, gone: true, retryable: false, retryAfterSeconds: null });
    expect(await send(target, payload("b"))).toEqual({ status: 410, gone: true, retryable: false, retryAfterSeconds: null });
    // The scripted answers are used up: the subscription works again.
    expect((await send(target, payload("c"))).status).toBe(201);
  });

  it("gets a real 404 for an endpoint the service does not know", async () => {
    const outcome = await sender()(
      { ...(await subscribe())[0], endpoint: "https://updates.push.services.mozilla.com/wp/no-such-subscription" },
      payload("x"),
    );
    expect(outcome).toMatchObject({ status: 404, gone: true });
  });

  it("reports 429 with Retry-After and 500 as retryable", async () => {
    const [target] = await subscribe();
    await control("respond", { endpoint: target.endpoint, statuses: [429], retryAfter: 120 });
    await control("respond", { endpoint: target.endpoint, statuses: [500] });
    const send = sender();
    expect(await send(target, payload("a"))).toEqual({ status: 429, gone: false, retryable: true, retryAfterSeconds: 120 });
    expect(await send(target, payload("b"))).toEqual({ status: 500, gone: false, retryable: true, retryAfterSeconds: null });
  });

  it("is refused with 403 when signed with another application server key", async () => {
    const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]);
    const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    const publicKey = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
    const [target] = await subscribe();
    const stranger = createWebPushSender({
      publicKey: toBase64Url(publicKey),
      privateKey: jwk.d!,
      subject: keys.VAPID_SUBJECT,
      endpointOverride: service,
    });

    expect(await stranger(target, payload("x"))).toEqual({ status: 403, gone: false, retryable: false, retryAfterSeconds: null });
    const [got] = await receivedAt(target.endpoint);
    // The signature itself was fine: the refusal is the key, which proves the service checks k against the subscription.
    expect(got.reason).toMatch(/application server key/);
  });

  it("is refused when the body was encrypted for another subscription's keys", async () => {
    const [target, other] = await subscribe(2);
    const outcome = await sender()({ endpoint: target.endpoint, p256dh: other.p256dh, auth: other.auth }, payload("x"));
    expect(outcome).toMatchObject({ status: 400, gone: false, retryable: false });
    expect((await receivedAt(target.endpoint))[0].reason).toMatch(/decryption failed/);
  });

  it("answers status 0, retryable, when the push service cannot be reached", async () => {
    const [target] = await subscribe();
    expect(await sender("http://127.0.0.1:1")(target, payload("x"))).toEqual({
      status: 0,
      gone: false,
      retryable: true,
      retryAfterSeconds: null,
    });
  });

  it("never fetches an endpoint off the known push services (nor one of their hosts spelt as an IP address)", async () => {
    const [target] = await subscribe();
    const fetched: string[] = [];
    const send = createWebPushSender({
      publicKey: keys.VAPID_PUBLIC_KEY,
      privateKey: keys.VAPID_PRIVATE_KEY,
      subject: keys.VAPID_SUBJECT,
      fetch: (input) => {
        fetched.push(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
        return Promise.resolve(new Response(null, { status: 201 }));
      },
    });
    for (const endpoint of [
      "https://169.254.169.254/latest/meta-data/",
      "https://127.0.0.1/wp/x",
      "https://[::1]/wp/x",
      "https://2130706433/wp/x",
      "https://10.0.0.1/wp/x",
      "https://evil.example/wp/x",
      "https://fcm.googleapis.com.evil.example/fcm/send/x",
      "https://user@fcm.googleapis.com/fcm/send/x",
      "https://fcm.googleapis.com:8443/fcm/send/x",
    ]) {
      const outcome = await send({ ...target, endpoint }, payload("x"));
      expect(outcome, endpoint).toMatchObject({ status: 0, gone: true, retryable: false });
      expect(outcome.refused, endpoint).toMatch(/^endpoint /);
    }
    expect(fetched).toEqual([]);
  });

  it("treats a subscription whose keys are not a P-256 point and a 16-byte secret as gone, sending nothing", async () => {
    const [target] = await subscribe();
    const outcome = await sender()({ ...target, p256dh: toBase64Url(new Uint8Array(65).fill(7)) }, payload("x"));
    expect(outcome).toEqual({
      status: 0,
      gone: true,
      retryable: false,
      retryAfterSeconds: null,
      refused: "p256dh is not a 65-byte uncompressed P-256 point",
    });
    expect(await receivedAt(target.endpoint)).toEqual([]);
  });
});
