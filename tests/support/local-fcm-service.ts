import { createPublicKey, randomBytes, verify, type KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for Google's OAuth token endpoint and FCM HTTP v1, speaking their protocols: POST /token takes
 * a service account's RS256 jwt-bearer assertion (checked with node:crypto against the account's public key) and
 * issues an access token; POST /v1/projects/<project>/messages:send checks the Bearer token and the message's
 * shape, records it, and answers like FCM (404 NOT_FOUND with errorCode UNREGISTERED for a token marked gone).
 *
 * Control API (JSON, under /__control): GET received?token=, GET stats, POST unregister {token},
 * POST revoke-tokens {accessToken?} (that token, or every issued one, answers 401 from now on), POST respond {token, statuses},
 * POST reset.
 */

const SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
const GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";

export interface FcmReceived {
  token: string | null;
  status: number;
  reason: string | null;
  /** The request body's `message` as sent. */
  message: unknown;
  accessToken: string | null;
  receivedAt: number;
}

export interface FcmServiceStats {
  tokenRequests: number;
  tokensIssued: number;
  messages: number;
  accepted: number;
}

export interface LocalFcmService {
  url: string;
  port: number;
  /** The token_uri the service account must name (the assertion's aud). */
  tokenUri: string;
  close(): Promise<void>;
}

export interface LocalFcmOptions {
  port?: number;
  /** SPKI PEM of the service account's key. */
  publicKeyPem: string;
  /** When given, the assertion's iss and sub must be this. */
  clientEmail?: string;
  /** When given, messages for another project answer 404 like FCM's unknown project. */
  project?: string;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
  }
}

function fcmError(code: number, status: string, message: string, errorCode?: string) {
  return {
    error: {
      code,
      message,
      status,
      ...(errorCode ? { details: [{ "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", errorCode }] } : {}),
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The assertion of RFC 7523 as Google checks it: RS256 by the account's key, iss/sub, scope, aud, at most 1 h. */
function checkAssertion(assertion: string, key: KeyObject, tokenUri: string, clientEmail: string | undefined): void {
  const parts = assertion.split(".");
  if (parts.length !== 3) throw new Error("assertion is not a JWT");
  const header = JSON.parse(Buffer.from(parts[0], "base64url").toString("utf8")) as Record<string, unknown>;
  const claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8")) as Record<string, unknown>;
  if (header.alg !== "RS256") throw new Error("assertion alg is not RS256");
  if (!verify("sha256", Buffer.from(`${parts[0]}.${parts[1]}`), key, Buffer.from(parts[2], "base64url"))) {
    throw new Error("assertion signature invalid");
  }
  if (typeof claims.iss !== "string" || (clientEmail && claims.iss !== clientEmail)) throw new Error("iss is not the service account");
  if (claims.sub !== undefined && claims.sub !== claims.iss) throw new Error("sub differs from iss");
  if (typeof claims.scope !== "string" || !claims.scope.split(" ").includes(SCOPE)) throw new Error("scope lacks firebase.messaging");
  if (claims.aud !== tokenUri) throw new Error(`aud is not ${tokenUri}`);
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.iat !== "number" || typeof claims.exp !== "number") throw new Error("iat and exp are required");
  if (claims.exp <= now || claims.iat > now + 60 || claims.exp - claims.iat > 3600) throw new Error("exp/iat outside one hour from now");
}

/** What FCM would refuse in our message (fields FCM does not know are refused too: JSON mapping is strict). */
function checkMessage(body: unknown): { message: Record<string, unknown>; token: string } {
  const bad = (why: string) => new Refusal(400, fcmError(400, "INVALID_ARGUMENT", why, "INVALID_ARGUMENT"), why);
  if (!isRecord(body) || !isRecord(body.message)) throw bad("body must be {message}");
  const message = body.message;
  for (const key of Object.keys(message)) {
    if (!["token", "notification", "webpush", "data", "android", "apns", "fcm_options"].includes(key)) throw bad(`Unknown name "${key}"`);
  }
  if (typeof message.token !== "string" || message.token.length === 0) throw bad("message.token is required");
  const notification = message.notification;
  if (!isRecord(notification) || typeof notification.title !== "string" || typeof notification.body !== "string") {
    throw bad("message.notification needs title and body");
  }
  if (message.data !== undefined) {
    if (!isRecord(message.data) || !Object.values(message.data).every((v) => typeof v === "string"))
      throw bad("data values must be strings");
  }
  if (message.webpush !== undefined) {
    const webpush = message.webpush;
    if (!isRecord(webpush)) throw bad("webpush must be an object");
    if (webpush.notification !== undefined && !isRecord(webpush.notification)) throw bad("webpush.notification must be an object");
    const link = isRecord(webpush.fcm_options) ? webpush.fcm_options.link : undefined;
    if (link !== undefined && (typeof link !== "string" || !link.startsWith("https://")))
      throw bad("fcm_options.link must be an HTTPS URL");
  }
  return { message, token: message.token };
}

export async function startLocalFcmService(options: LocalFcmOptions): Promise<LocalFcmService> {
  const key = createPublicKey(options.publicKeyPem);
  const accessTokens = new Map<string, number>();
  const unregistered = new Set<string>();
  const scripted = new Map<string, number[]>();
  let received: FcmReceived[] = [];
  const stats: FcmServiceStats = { tokenRequests: 0, tokensIssued: 0, messages: 0, accepted: 0 };
  let tokenUri = "";

  async function issueToken(req: IncomingMessage, res: ServerResponse): Promise<void> {
    stats.tokenRequests++;
    const form = new URLSearchParams(await readBody(req));
    if (form.get("grant_type") !== GRANT_TYPE) return sendJson(res, 400, { error: "unsupported_grant_type" });
    try {
      checkAssertion(form.get("assertion") ?? "", key, tokenUri, options.clientEmail);
    } catch (error) {
      return sendJson(res, 400, { error: "invalid_grant", error_description: (error as Error).message });
    }
    const accessToken = `ya29.local-${randomBytes(24).toString("base64url")}`;
    accessTokens.set(accessToken, Date.now() + 3600_000);
    stats.tokensIssued++;
    sendJson(res, 200, { access_token: accessToken, expires_in: 3600, token_type: "Bearer" });
  }

  async function send(req: IncomingMessage, res: ServerResponse, project: string): Promise<void> {
    stats.messages++;
    const text = await readBody(req);
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1] ?? null;
    const entry: FcmReceived = { token: null, status: 200, reason: null, message: null, accessToken: bearer, receivedAt: Date.now() };
    let body: unknown = undefined;
    try {
      body = JSON.parse(text);
    } catch {
      // Refused below, after the credentials (FCM checks those first).
    }
    // Recorded whatever the answer, so a test can find its refused attempts by FCM token.
    if (isRecord(body) && isRecord(body.message)) {
      entry.message = body.message;
      if (typeof body.message.token === "string") entry.token = body.message.token;
    }
    try {
      const expires = bearer === null ? undefined : accessTokens.get(bearer);
      if (expires === undefined || expires <= Date.now()) {
        throw new Refusal(401, fcmError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials."), "bad access token");
      }
      if (options.project && project !== options.project) {
        throw new Refusal(404, fcmError(404, "NOT_FOUND", "Requested entity was not found."), `unknown project ${project}`);
      }
      if (body === undefined)
        throw new Refusal(400, fcmError(400, "INVALID_ARGUMENT", "Invalid JSON payload received."), "body is not JSON");
      const { token } = checkMessage(body);
      const next = scripted.get(token)?.shift();
      if (next !== undefined) throw new Refusal(next, fcmError(next, "INTERNAL", "scripted"), "scripted");
      if (unregistered.has(token)) {
        throw new Refusal(404, fcmError(404, "NOT_FOUND", "Requested entity was not found.", "UNREGISTERED"), "unregistered");
      }
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      received.push({ ...entry, status: error.status, reason: error.message });
      return sendJson(res, error.status, error.body);
    }
    stats.accepted++;
    received.push(entry);
    sendJson(res, 200, { name: `projects/${project}/messages/${randomBytes(8).toString("hex")}` });
  }

  async function control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const route = `${req.method} ${url.pathname}`;
    const text = req.method === "POST" ? await readBody(req) : "";
    const json = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    switch (route) {
      case "GET /__control/received": {
        const token = url.searchParams.get("token");
        return sendJson(res, 200, token === null ? received : received.filter((r) => r.token === token));
      }
      case "GET /__control/stats":
        return sendJson(res, 200, stats);
      case "POST /__control/unregister":
        if (typeof json.token !== "string") return sendJson(res, 400, { reason: "token required" });
        unregistered.add(json.token);
        return sendJson(res, 200, { unregistered: unregistered.size });
      case "POST /__control/revoke-tokens":
        // One access token when named (tests running side by side keep theirs), else all.
        if (typeof json.accessToken === "string") accessTokens.delete(json.accessToken);
        else accessTokens.clear();
        return sendJson(res, 200, { revoked: true });
      case "POST /__control/respond": {
        const statuses = json.statuses;
        if (
          typeof json.token !== "string" ||
          !Array.isArray(statuses) ||
          !statuses.every((s) => Number.isInteger(s) && s >= 400 && s <= 599)
        ) {
          return sendJson(res, 400, { reason: "token and statuses (400..599) required" });
        }
        scripted.set(json.token, [...(scripted.get(json.token) ?? []), ...(statuses as number[])]);
        return sendJson(res, 200, { scripted: scripted.get(json.token)!.length });
      }
      case "POST /__control/reset":
        accessTokens.clear();
        unregistered.clear();
        scripted.clear();
        received = [];
        Object.assign(stats, { tokenRequests: 0, tokensIssued: 0, messages: 0, accepted: 0 });
        return sendJson(res, 200, { reset: true });
      default:
        return sendJson(res, 404, { reason: `no control route ${route}` });
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://local");
    const project = req.method === "POST" ? /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(url.pathname)?.[1] : undefined;
    const handled =
      req.method === "POST" && url.pathname === "/token"
        ? issueToken(req, res)
        : project !== undefined
          ? send(req, res, decodeURIComponent(project))
          : url.pathname.startsWith("/__control/")
            ? control(req, res, url)
            : Promise.resolve(sendJson(res, 404, fcmError(404, "NOT_FOUND", "not found")));
    handled.catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 400, { reason: error instanceof Error ? error.message : String(error) });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const port = (server.address() as AddressInfo).port;
  tokenUri = `http://127.0.0.1:${port}/token`;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    tokenUri,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
