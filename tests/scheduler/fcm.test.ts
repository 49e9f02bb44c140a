import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { createFcmSender, parseServiceAccount } from "../../workers/scheduler/push/fcm";
import { PUSH_DEFAULTS, type PushPayload } from "../../workers/scheduler/push/payload";
import type { FcmReceived } from "../support/local-fcm-service";

/**
 * The FCM HTTP v1 sender inside workerd against the local FCM server (tests/support/local-fcm-service.ts), which
 * checks the service account's RS256 assertion, the Bearer token and the message's shape. The service account
 * of the run (made by vitest.scheduler.config.ts) names the local token endpoint as its token_uri.
 */
const bindings = env as unknown as { FCM_SERVICE_ACCOUNT: string; FCM_API_URL: string };
const service = inject("fcmServiceUrl");

/** A sender whose fetch passes every request through unchanged, counting those to the token endpoint. */
function countingSender() {
  const serviceAccount = parseServiceAccount(bindings.FCM_SERVICE_ACCOUNT);
  const counts = { tokenRequests: 0 };
  const send = createFcmSender({
    serviceAccount,
    apiBase: bindings.FCM_API_URL,
    fetch: (input, init) => {
      if (String(input instanceof Request ? input.url : input) === serviceAccount.token_uri) counts.tokenRequests++;
      return fetch(input, init);
    },
  });
  return { send, counts };
}

async function control<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${service}/__control/${path}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) });
  expect(res.status, `control ${path}`).toBe(200);
  return await res.json();
}

const receivedFor = (token: string) => control<FcmReceived[]>(`received?token=${encodeURIComponent(token)}`);
const newToken = () => `fcm-${crypto.randomUUID()}`;

function payload(body: string, link = "https://footycoach.app/select-team?competition=7"): PushPayload {
  return { ...PUSH_DEFAULTS, body, link };
}

describe("parseServiceAccount", () => {
  it("keeps the fields the sender uses and refuses what is not a service account", () => {
    const account = parseServiceAccount(bindings.FCM_SERVICE_ACCOUNT);
    expect(account.project_id).toBe("footycoach-test");
    expect(account.token_uri).toBe(`${service}/token`);
    expect(Object.keys(account).sort()).toEqual(["client_email", "private_key", "project_id", "token_uri"]);
    expect(() => parseServiceAccount("not json")).toThrow(/not JSON/);
    expect(() => parseServiceAccount(JSON.stringify({ project_id: "p" }))).toThrow(/client_email/);
  });
});

describe("sending through the local FCM server", () => {
  it("delivers the v1 message with a valid OAuth token", async () => {
    const { send } = countingSender();
    const token = newToken();

    const outcome = await send(token, payload("Pick your team: deadline in 3 hours"));

    expect(outcome).toEqual({ status: 200, gone: false, retryable: false, retryAfterSeconds: null });
    const [got, ...more] = await receivedFor(token);
    expect(more).toEqual([]);
    expect(got.status).toBe(200);
    expect(got.accessToken).toMatch(/^ya29\.local-/);
    const link = "https://footycoach.app/select-team?competition=7";
    expect(got.message).toEqual({
      token,
      notification: { title: "FootyCoach", body: "Pick your team: deadline in 3 hours" },
      webpush: {
        notification: { title: "FootyCoach", body: "Pick your team: deadline in 3 hours", icon: "/icon-192.png", tag: "footy-coach-fcm" },
        fcm_options: { link },
      },
      data: { link },
    });
  });

  it("keeps a non-https development link out of fcm_options, which FCM would refuse", async () => {
    const { send } = countingSender();
    const token = newToken();
    expect((await send(token, payload("dev", "http://127.0.0.1:8788/dashboard"))).status).toBe(200);
    const [got] = await receivedFor(token);
    expect(got.message).toMatchObject({ data: { link: "http://127.0.0.1:8788/dashboard" } });
    expect((got.message as { webpush: Record<string, unknown> }).webpush.fcm_options).toBeUndefined();
  });

  it("requests one access token for many sends, concurrent or not", async () => {
    const { send, counts } = countingSender();
    const tokens = Array.from({ length: 8 }, newToken);
    const outcomes = await Promise.all(tokens.slice(0, 5).map((t) => send(t, payload("parallel"))));
    for (const t of tokens.slice(5)) outcomes.push(await send(t, payload("sequential")));

    expect(outcomes.map((o) => o.status)).toEqual(Array(8).fill(200));
    expect(counts.tokenRequests).toBe(1);
    const used = new Set<string | null>();
    for (const t of tokens) for (const r of await receivedFor(t)) used.add(r.accessToken);
    expect(used.size).toBe(1);
  });

  it("reports an UNREGISTERED token as gone", async () => {
    const { send } = countingSender();
    const token = newToken();
    await control("unregister", { token });
    expect(await send(token, payload("x"))).toEqual({ status: 404, gone: true, retryable: false, retryAfterSeconds: null });
  });

  it("drops a token the server no longer accepts (401) and retries once with a fresh one", async () => {
    const { send, counts } = countingSender();
    const first = newToken();
    expect((await send(first, payload("before"))).status).toBe(200);
    const [{ accessToken }] = await receivedFor(first);
    await control("revoke-tokens", { accessToken });

    const second = newToken();
    expect(await send(second, payload("after"))).toEqual({ status: 200, gone: false, retryable: false, retryAfterSeconds: null });

    expect(counts.tokenRequests).toBe(2);
    const attempts = await receivedFor(second);
    expect(attempts.map((a) => a.status)).toEqual([401, 200]);
    expect(attempts[0].accessToken).toBe(accessToken);
    expect(attempts[1].accessToken).not.toBe(accessToken);
  });

  it("does not retry a 401 more than once", async () => {
    const { send, counts } = countingSender();
    const token = newToken();
    await send(newToken(), payload("warm up"));
    await control("respond", { token, statuses: [401, 401] });
    expect(await send(token, payload("x"))).toMatchObject({ status: 401, gone: false, retryable: false });
    expect((await receivedFor(token)).map((a) => a.status)).toEqual([401, 401]);
    expect(counts.tokenRequests).toBe(2);
  });

  it("reports 500 and 429 as retryable", async () => {
    const { send } = countingSender();
    const token = newToken();
    await control("respond", { token, statuses: [500, 429] });
    expect(await send(token, payload("a"))).toMatchObject({ status: 500, gone: false, retryable: true });
    expect(await send(token, payload("b"))).toMatchObject({ status: 429, gone: false, retryable: true });
  });

  it("cannot send with a service account whose key the token endpoint does not know", async () => {
    const pair = await crypto.subtle.generateKey(
      { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
      true,
      ["sign"],
    );
    const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
    const pem = `-----BEGIN PRIVATE KEY-----\n${btoa(String.fromCharCode(...pkcs8))}\n-----END PRIVATE KEY-----\n`;
    const account = { ...parseServiceAccount(bindings.FCM_SERVICE_ACCOUNT), private_key: pem };
    const send = createFcmSender({ serviceAccount: account, apiBase: bindings.FCM_API_URL });
    const token = newToken();
    // The token endpoint refuses the assertion (400 invalid_grant): no message goes out, and retrying will not help.
    expect(await send(token, payload("x"))).toEqual({ status: 400, gone: false, retryable: false, retryAfterSeconds: null });
    expect(await receivedFor(token)).toEqual([]);
  });
});
