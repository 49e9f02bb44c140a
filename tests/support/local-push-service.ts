import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local Web Push service that speaks the real protocol (RFC 8030 delivery, RFC 8291/8188 aes128gcm, RFC 8292
 * VAPID), written on node:crypto independently of the Worker's sender: it keeps each subscription's ECDH key
 * pair and auth secret, checks the VAPID JWT of every push, decrypts the body and records what it read.
 * Built for scale too (the reminders benchmark's 100,000 subscriptions): key pairs are plain ECDH keys, and a
 * VAPID token's signature is verified once (a sender reuses one token per origin for an hour).
 *
 * Control API (JSON, under /__control): POST subscriptions {count?}, GET received?endpoint=, POST respond
 * {endpoint, statuses, retryAfter?}, GET stats, POST reset.
 */

/**
 * The origin stored in subscriptions (and the VAPID audience); senders reach this server by endpoint override
 * (PUSH_ENDPOINT_OVERRIDE). A real push service's host (Mozilla autopush), because the scheduler's sender
 * contacts no endpoint off the known push services (app/lib/push-services.ts), override or not.
 */
export const PUSH_SERVICE_ORIGIN = "https://updates.push.services.mozilla.com";
const MAX_BODY_BYTES = 4096;
const MAX_TOKEN_LIFETIME_SECONDS = 24 * 3600;

export interface CreatedSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface VapidCheck {
  valid: boolean;
  /** Why the token was refused; null when valid. */
  reason: string | null;
  token: string | null;
  k: string | null;
  aud: string | null;
  sub: string | null;
  exp: number | null;
}

export interface ReceivedPush {
  endpoint: string;
  /** What this service answered. */
  status: number;
  /** Why it refused (or "scripted" for an answer set by /__control/respond); null on success. */
  reason: string | null;
  /** The decrypted body parsed as JSON (the text when it is not JSON); null when not decrypted. */
  payload: unknown;
  ttl: string | null;
  urgency: string | null;
  contentEncoding: string | null;
  vapid: VapidCheck | null;
  receivedAt: number;
}

export interface PushServiceStats {
  subscriptions: number;
  requests: number;
  accepted: number;
  refused: number;
  unknown: number;
  firstReceivedAt: number | null;
  lastReceivedAt: number | null;
}

export interface LocalPushService {
  /** Base URL, e.g. http://127.0.0.1:54397 (a sender's endpointOverride). */
  url: string;
  port: number;
  close(): Promise<void>;
}

interface Subscription {
  endpoint: string;
  privateKey: Buffer;
  publicKey: Buffer;
  auth: Buffer;
  /** Answers to give before accepting again (set by /__control/respond). */
  scripted: { status: number; retryAfter: string | null }[];
}

interface VerifiedToken {
  signatureValid: boolean;
  reason: string | null;
  claims: { aud?: unknown; exp?: unknown; sub?: unknown } | null;
  check: VapidCheck;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function b64u(bytes: Buffer): string {
  return bytes.toString("base64url");
}

/** Parses `vapid t=<jwt>, k=<key>` (RFC 8292 section 3). */
function parseVapidHeader(header: string | undefined): { t: string; k: string } | null {
  if (!header) return null;
  const match = /^vapid\s+(.*)$/i.exec(header.trim());
  if (!match) return null;
  const params = new Map<string, string>();
  for (const part of match[1].split(",")) {
    const eq = part.indexOf("=");
    if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  const t = params.get("t");
  const k = params.get("k");
  return t && k ? { t, k } : null;
}

/** Signature and JSON of an ES256 JWT against the uncompressed P-256 point k. */
function verifyToken(t: string, k: string): Omit<VerifiedToken, "check"> {
  const parts = t.split(".");
  if (parts.length !== 3) return { signatureValid: false, reason: "token is not a JWT", claims: null };
  let header: { alg?: unknown };
  let claims: VerifiedToken["claims"];
  try {
    header = JSON.parse(Buffer.from(parts[0], "base64url").toString("utf8")) as { alg?: unknown };
    claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8")) as VerifiedToken["claims"];
  } catch {
    return { signatureValid: false, reason: "token header or claims are not JSON", claims: null };
  }
  if (header.alg !== "ES256") return { signatureValid: false, reason: "token alg is not ES256", claims };
  const point = Buffer.from(k, "base64url");
  if (point.length !== 65 || point[0] !== 4) return { signatureValid: false, reason: "k is not a P-256 point", claims };
  let key: KeyObject;
  try {
    key = createPublicKey({ key: { kty: "EC", crv: "P-256", x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) }, format: "jwk" });
  } catch {
    return { signatureValid: false, reason: "k is not on the curve", claims };
  }
  const signature = Buffer.from(parts[2], "base64url");
  const ok =
    signature.length === 64 && verify("sha256", Buffer.from(`${parts[0]}.${parts[1]}`), { key, dsaEncoding: "ieee-p1363" }, signature);
  return { signatureValid: ok, reason: ok ? null : "bad signature", claims };
}

/** RFC 8291 decryption of a one-record aes128gcm body with the subscription's keys. */
function decrypt(body: Buffer, subscription: Subscription): Buffer {
  if (body.length < 21 + 65 + 17) throw new Refusal(400, "body too short for aes128gcm");
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  if (idlen !== 65) throw new Refusal(400, `keyid length ${idlen}, expected a 65-byte P-256 point`);
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (rs < 18 || record.length > rs) throw new Refusal(400, "more than one record");
  let secret: Buffer;
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(subscription.privateKey);
    secret = ecdh.computeSecret(asPublic);
  } catch {
    throw new Refusal(400, "keyid is not a P-256 point");
  }
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), subscription.publicKey, asPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", secret, subscription.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  let plain: Buffer;
  try {
    const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  } catch {
    throw new Refusal(400, "decryption failed (wrong keys, auth secret or salt)");
  }
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (end < 0 || plain[end] !== 2) throw new Refusal(400, "last record lacks the 0x02 padding delimiter");
  return plain.subarray(0, end);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(tooLarge ? null : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

export async function startLocalPushService(options: { port?: number; expectedVapidPublicKey?: string } = {}): Promise<LocalPushService> {
  const subscriptions = new Map<string, Subscription>();
  let received: ReceivedPush[] = [];
  let byEndpoint = new Map<string, ReceivedPush[]>();
  // Keyed by the whole Authorization value: a sender reuses its token, so its signature is checked once.
  let tokens = new Map<string, VerifiedToken>();
  const stats = {
    requests: 0,
    accepted: 0,
    refused: 0,
    unknown: 0,
    firstReceivedAt: null as number | null,
    lastReceivedAt: null as number | null,
  };

  function createSubscriptions(count: number): CreatedSubscription[] {
    const created: CreatedSubscription[] = [];
    for (let i = 0; i < count; i++) {
      const ecdh = createECDH("prime256v1");
      const publicKey = ecdh.generateKeys();
      const id = randomBytes(12).toString("base64url");
      const endpoint = `${PUSH_SERVICE_ORIGIN}/wp/${id}`;
      const auth = randomBytes(16);
      subscriptions.set(id, { endpoint, privateKey: ecdh.getPrivateKey(), publicKey, auth, scripted: [] });
      created.push({ endpoint, p256dh: b64u(publicKey), auth: b64u(auth) });
    }
    return created;
  }

  function record(entry: ReceivedPush): void {
    received.push(entry);
    const list = byEndpoint.get(entry.endpoint);
    if (list) list.push(entry);
    else byEndpoint.set(entry.endpoint, [entry]);
    if (entry.status === 201) stats.accepted++;
    else stats.refused++;
    stats.firstReceivedAt ??= entry.receivedAt;
    stats.lastReceivedAt = entry.receivedAt;
  }

  function checkVapid(authorization: string | undefined): VapidCheck {
    const parsed = parseVapidHeader(authorization);
    if (!parsed) return { valid: false, reason: "no vapid Authorization", token: null, k: null, aud: null, sub: null, exp: null };
    let verified = tokens.get(authorization!);
    if (!verified) {
      const result = verifyToken(parsed.t, parsed.k);
      const c = result.claims;
      const check: VapidCheck = {
        valid: result.signatureValid,
        reason: result.reason,
        token: parsed.t,
        k: parsed.k,
        aud: typeof c?.aud === "string" ? c.aud : null,
        sub: typeof c?.sub === "string" ? c.sub : null,
        exp: typeof c?.exp === "number" ? c.exp : null,
      };
      verified = { ...result, check };
      tokens.set(authorization!, verified);
    }
    const check = verified.check;
    if (!check.valid) return check;
    // Claims are checked on every push: a token that was fine an hour ago may have expired since.
    const now = Math.floor(Date.now() / 1000);
    let reason: string | null = null;
    if (check.aud !== PUSH_SERVICE_ORIGIN) reason = `aud ${check.aud} is not ${PUSH_SERVICE_ORIGIN}`;
    else if (check.exp === null || check.exp <= now) reason = "token expired or without exp";
    else if (check.exp > now + MAX_TOKEN_LIFETIME_SECONDS) reason = "exp more than 24 hours ahead";
    else if (!check.sub || !/^(mailto:|https:)/.test(check.sub)) reason = "sub is not a mailto: or https: contact";
    return reason ? { ...check, valid: false, reason } : check;
  }

  async function push(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    stats.requests++;
    const body = await readBody(req, MAX_BODY_BYTES);
    const subscription = subscriptions.get(id);
    if (!subscription) {
      stats.unknown++;
      res.writeHead(404).end();
      return;
    }
    const entry: ReceivedPush = {
      endpoint: subscription.endpoint,
      status: 201,
      reason: null,
      payload: null,
      ttl: (req.headers["ttl"] as string | undefined) ?? null,
      urgency: (req.headers["urgency"] as string | undefined) ?? null,
      contentEncoding: req.headers["content-encoding"] ?? null,
      vapid: null,
      receivedAt: Date.now(),
    };
    const scripted = subscription.scripted.shift();
    if (scripted) {
      record({ ...entry, status: scripted.status, reason: "scripted" });
      res.writeHead(scripted.status, scripted.retryAfter ? { "Retry-After": scripted.retryAfter } : {}).end();
      return;
    }
    try {
      if (body === null) throw new Refusal(413, "body larger than 4096 bytes");
      if (entry.contentEncoding !== "aes128gcm") throw new Refusal(400, `Content-Encoding ${entry.contentEncoding} is not aes128gcm`);
      if (entry.ttl === null || !/^\d+$/.test(entry.ttl)) throw new Refusal(400, "TTL header missing or not a number");
      if (entry.urgency !== null && !["very-low", "low", "normal", "high"].includes(entry.urgency)) throw new Refusal(400, "bad Urgency");
      entry.vapid = checkVapid(req.headers.authorization);
      if (!entry.vapid.valid) throw new Refusal(401, `VAPID: ${entry.vapid.reason}`);
      if (options.expectedVapidPublicKey && entry.vapid.k !== options.expectedVapidPublicKey) {
        throw new Refusal(403, "VAPID: k is not the application server key of the subscription");
      }
      const text = decrypt(body, subscription).toString("utf8");
      try {
        entry.payload = JSON.parse(text);
      } catch {
        entry.payload = text;
      }
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      record({ ...entry, status: error.status, reason: error.message });
      sendJson(res, error.status, { reason: error.message });
      return;
    }
    record(entry);
    res.writeHead(201, { Location: `${PUSH_SERVICE_ORIGIN}/m/${randomBytes(8).toString("base64url")}` }).end();
  }

  async function control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const route = `${req.method} ${url.pathname}`;
    const input = req.method === "POST" ? await readBody(req, 1 << 20) : null;
    let json: Record<string, unknown> = {};
    if (input && input.length > 0) json = JSON.parse(input.toString("utf8")) as Record<string, unknown>;
    switch (route) {
      case "POST /__control/subscriptions": {
        const count = json.count === undefined ? 1 : Number(json.count);
        if (!Number.isInteger(count) || count < 1 || count > 1_000_000) return sendJson(res, 400, { reason: "count 1..1000000" });
        return sendJson(res, 200, createSubscriptions(count));
      }
      case "GET /__control/received": {
        const endpoint = url.searchParams.get("endpoint");
        return sendJson(res, 200, endpoint === null ? received : (byEndpoint.get(endpoint) ?? []));
      }
      case "POST /__control/respond": {
        const id = typeof json.endpoint === "string" ? json.endpoint.split("/wp/")[1] : undefined;
        const subscription = id === undefined ? undefined : subscriptions.get(id);
        const statuses = json.statuses;
        if (!subscription || !Array.isArray(statuses) || !statuses.every((s) => Number.isInteger(s) && s >= 200 && s <= 599)) {
          return sendJson(res, 400, { reason: "a known endpoint and statuses (200..599) are required" });
        }
        const retryAfter = typeof json.retryAfter === "number" || typeof json.retryAfter === "string" ? String(json.retryAfter) : null;
        subscription.scripted.push(...(statuses as number[]).map((status) => ({ status, retryAfter })));
        return sendJson(res, 200, { scripted: subscription.scripted.length });
      }
      case "GET /__control/stats": {
        const body: PushServiceStats = { subscriptions: subscriptions.size, ...stats };
        return sendJson(res, 200, body);
      }
      case "POST /__control/reset": {
        subscriptions.clear();
        received = [];
        byEndpoint = new Map();
        tokens = new Map();
        Object.assign(stats, { requests: 0, accepted: 0, refused: 0, unknown: 0, firstReceivedAt: null, lastReceivedAt: null });
        return sendJson(res, 200, { reset: true });
      }
      default:
        return sendJson(res, 404, { reason: `no control route ${route}` });
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://local");
    const pushId = req.method === "POST" ? /^\/wp\/([A-Za-z0-9_-]+)$/.exec(url.pathname)?.[1] : undefined;
    const handled = pushId
      ? push(req, res, pushId)
      : url.pathname.startsWith("/__control/")
        ? control(req, res, url)
        : Promise.resolve(sendJson(res, 404, { reason: "not found" }));
    handled.catch((error: unknown) => {
      // A broken control request is the caller's (a test's) mistake: say what it was.
      if (!res.headersSent) sendJson(res, 400, { reason: error instanceof Error ? error.message : String(error) });
      else res.destroy();
    });
  });
  // The benchmark pushes thousands of requests per second over kept-alive connections.
  server.keepAliveTimeout = 30_000;
  server.maxRequestsPerSocket = 0;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
