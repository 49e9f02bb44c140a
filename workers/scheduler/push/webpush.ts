import { webPushSubscriptionProblem } from "../../../app/lib/push-services";
import { fromBase64Url } from "./base64url";
import { encryptPayload } from "./ece";
import { outcomeOf, type PushPayload, type SendOutcome, type WebPushTarget } from "./payload";
import { createVapidSigner } from "./vapid";

export { encryptPayload, type EncryptOptions } from "./ece";

/** Standard Web Push (RFC 8030 delivery, RFC 8291 encryption, RFC 8292 VAPID) on WebCrypto, inside workerd. */

export interface WebPushSenderConfig {
  /** VAPID public key: 65-byte P-256 point, base64url. */
  publicKey: string;
  /** VAPID private key: 32-byte scalar d, base64url. */
  privateKey: string;
  /** mailto: or https: contact (the JWT's sub). */
  subject: string;
  /**
   * Development and tests only (workers/scheduler/env.ts refuses it in production and off this machine): send
   * to this origin (plus the endpoint's path and query) instead of the endpoint's own, while the JWT's audience
   * stays the endpoint's origin. Lets stored endpoints on a push service's host reach a local push service; the
   * endpoint itself must still pass the push-service rules.
   */
  endpointOverride?: string | null;
  fetch?: typeof fetch;
}

export interface WebPushSendOptions {
  /** Seconds the push service keeps an undelivered message (RFC 8030 TTL header); default one day. */
  ttlSeconds?: number;
  urgency?: "normal" | "high";
}

export type WebPushSender = (target: WebPushTarget, payload: PushPayload, options?: WebPushSendOptions) => Promise<SendOutcome>;

const DEFAULT_TTL_SECONDS = 24 * 3600;
const UNUSABLE_SUBSCRIPTION: SendOutcome = { status: 0, gone: true, retryable: false, retryAfterSeconds: null };

export function createWebPushSender(config: WebPushSenderConfig): WebPushSender {
  const authorizationFor = createVapidSigner(config);
  // Bound call: workerd's fetch refuses to be called with another `this`.
  const send = config.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const overrideOrigin = config.endpointOverride ? new URL(config.endpointOverride).origin : null;

  return async function sendWebPush(target, payload, options = {}) {
    // Checked before anything else, whatever the override: a row can reach the table without passing
    // save-subscription, and an endpoint off the known push services must never be contacted (SSRF).
    const refused = await webPushSubscriptionProblem(target);
    if (refused) return { ...UNUSABLE_SUBSCRIPTION, refused };
    let endpoint: URL;
    let body: Uint8Array<ArrayBuffer>;
    try {
      endpoint = new URL(target.endpoint);
      body = await encryptPayload(JSON.stringify(payload), fromBase64Url(target.p256dh), fromBase64Url(target.auth));
    } catch (error) {
      // Our payload too large is our bug: let it surface.
      if (error instanceof RangeError) throw error;
      // An endpoint that is no URL, or keys that are not a P-256 point and a 16-byte secret, can never receive
      // a message: nothing was sent and the subscription is as good as gone.
      return UNUSABLE_SUBSCRIPTION;
    }
    const url = overrideOrigin ? `${overrideOrigin}${endpoint.pathname}${endpoint.search}` : endpoint.href;
    const headers = {
      Authorization: await authorizationFor(endpoint.origin),
      TTL: String(Math.max(0, Math.floor(options.ttlSeconds ?? DEFAULT_TTL_SECONDS))),
      Urgency: options.urgency ?? "normal",
      "Content-Encoding": "aes128gcm",
      "Content-Type": "application/octet-stream",
    };
    let response: Response;
    try {
      response = await send(url, { method: "POST", headers, body });
    } catch {
      return outcomeOf(0);
    }
    // Drain the answer so the connection can be reused; its text is of no use to the caller.
    await response.body?.cancel().catch(() => undefined);
    return outcomeOf(response.status, response.headers.get("Retry-After"));
  };
}
