import { SignJWT, importPKCS8 } from "jose";
import { z } from "zod";
import { outcomeOf, type PushPayload, type SendOutcome } from "./payload";

/**
 * Firebase Cloud Messaging HTTP v1: a service account signs an RS256 assertion, Google's token endpoint trades it
 * for an hour-long access token, and each message is one POST. One sender keeps its access token (and shares a
 * token request in flight) so a batch of sends costs one token request, not one per message.
 */

const DEFAULT_TOKEN_URI = "https://oauth2.googleapis.com/token";
const DEFAULT_API_BASE = "https://fcm.googleapis.com";
const SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
/** A token is renewed this long before it expires, so no send carries one that lapses in flight. */
const RENEW_BEFORE_MS = 5 * 60 * 1000;

const serviceAccountSchema = z.object({
  project_id: z.string().min(1),
  client_email: z.string().min(3),
  private_key: z.string().includes("PRIVATE KEY"),
  token_uri: z.url().optional(),
});

export type ServiceAccount = z.infer<typeof serviceAccountSchema>;

/** Reads a service account's JSON (as downloaded from the Firebase console); throws on anything else. */
export function parseServiceAccount(json: string): ServiceAccount {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new TypeError("FCM service account is not JSON");
  }
  const parsed = serviceAccountSchema.safeParse(value);
  if (!parsed.success) throw new TypeError(`FCM service account is missing ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}`);
  // Only the fields we use are kept: the rest (private_key_id, client_id, ...) has no business travelling further.
  return parsed.data;
}

export interface FcmSenderConfig {
  serviceAccount: ServiceAccount;
  /** Default https://fcm.googleapis.com; a local FCM server in tests. */
  apiBase?: string;
  fetch?: typeof fetch;
}

export type FcmSender = (token: string, payload: PushPayload) => Promise<SendOutcome>;

interface AccessToken {
  value: string;
  renewAt: number;
}

/** The token endpoint refused (status 0: no answer); carries what the send's outcome needs. */
class TokenError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfter: string | null,
  ) {
    super(`FCM token endpoint answered ${status}`);
  }
}

/** An answer that is not the push service's word on the message: never makes the subscription gone. */
function failure(status: number, retryAfter: string | null = null): SendOutcome {
  return { ...outcomeOf(status, retryAfter), gone: false };
}

/** FCM v1 error bodies carry the reason in details[].errorCode (type google.firebase.fcm.v1.FcmError). */
function isUnregistered(body: unknown): boolean {
  const error = (body as { error?: { status?: unknown; details?: unknown } } | null)?.error;
  if (!error) return false;
  if (error.status === "UNREGISTERED") return true;
  return Array.isArray(error.details) && error.details.some((d) => (d as { errorCode?: unknown } | null)?.errorCode === "UNREGISTERED");
}

/** The v1 message: a notification for every platform, the web notification with our icon and tag, and the link. */
export function fcmMessage(token: string, payload: PushPayload) {
  return {
    message: {
      token,
      notification: { title: payload.title, body: payload.body },
      webpush: {
        notification: { title: payload.title, body: payload.body, icon: payload.icon, tag: payload.tag },
        // FCM refuses a non-https fcm_options.link (400): a development link travels in data only.
        ...(payload.link.startsWith("https://") ? { fcm_options: { link: payload.link } } : {}),
      },
      data: { link: payload.link },
    },
  };
}

export function createFcmSender(config: FcmSenderConfig): FcmSender {
  const account = config.serviceAccount;
  const tokenUri = account.token_uri ?? DEFAULT_TOKEN_URI;
  const apiBase = (config.apiBase || DEFAULT_API_BASE).replace(/\/+$/, "");
  const messagesUrl = `${apiBase}/v1/projects/${encodeURIComponent(account.project_id)}/messages:send`;
  const send = config.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  let signingKey: Promise<CryptoKey> | null = null;
  let current: AccessToken | null = null;
  let inFlight: Promise<AccessToken> | null = null;

  async function requestToken(): Promise<AccessToken> {
    signingKey ??= importPKCS8(account.private_key, "RS256");
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: "RS256", typ: "JWT" })
      .setIssuer(account.client_email)
      .setSubject(account.client_email)
      .setAudience(tokenUri)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(await signingKey);
    const response = await send(tokenUri, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }).toString(),
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new TokenError(response.status, response.headers.get("Retry-After"));
    }
    const body = await response.json<{ access_token?: unknown; expires_in?: unknown }>();
    if (typeof body.access_token !== "string" || typeof body.expires_in !== "number") throw new TokenError(502, null);
    return { value: body.access_token, renewAt: Date.now() + body.expires_in * 1000 - RENEW_BEFORE_MS };
  }

  async function accessToken(): Promise<AccessToken> {
    if (current && Date.now() < current.renewAt) return current;
    // Concurrent sends share one token request.
    inFlight ??= requestToken().finally(() => {
      inFlight = null;
    });
    current = await inFlight;
    return current;
  }

  async function post(token: string, message: string): Promise<{ response: Response; used: AccessToken } | SendOutcome> {
    let used: AccessToken;
    try {
      used = await accessToken();
    } catch (error) {
      // 5xx/429 at the token endpoint: try later; 4xx (a revoked key): retrying will not help.
      if (error instanceof TokenError) return failure(error.status, error.retryAfter);
      return failure(0);
    }
    try {
      const response = await send(messagesUrl, {
        method: "POST",
        headers: { Authorization: `Bearer ${used.value}`, "Content-Type": "application/json" },
        body: message,
      });
      return { response, used };
    } catch {
      return failure(0);
    }
  }

  return async function sendFcm(token, payload) {
    const message = JSON.stringify(fcmMessage(token, payload));
    let attempt = await post(token, message);
    if ("response" in attempt && attempt.response.status === 401) {
      // The token was revoked or expired early: drop it (unless another send already has) and try once more.
      await attempt.response.body?.cancel().catch(() => undefined);
      if (current === attempt.used) current = null;
      attempt = await post(token, message);
    }
    if (!("response" in attempt)) return attempt;
    const { response } = attempt;
    const retryAfter = response.headers.get("Retry-After");
    if (response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return outcomeOf(response.status, retryAfter);
    }
    const body: unknown = await response.json().catch(() => null);
    const outcome = outcomeOf(response.status, retryAfter);
    return { ...outcome, gone: outcome.gone || isUnregistered(body) };
  };
}
