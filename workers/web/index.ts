import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/cloudflare";
import * as build from "../../build/server/index.js";
import { InvalidConfiguration, readEnv, type Env, type Bindings } from "../../app/env.server";
import { createDb } from "../../app/db/request-db.server";
import { notSaved } from "../../app/db/errors.server";
import { readClock } from "../../app/clock.server";
import { requestSession } from "../../app/session.server";
import { isCrossSiteMutation } from "../../app/lib/origin";
import { functionsApp } from "../../functions/app";
import { liveObjectName, LIVE_USER_HEADER, LiveMatchDay, type LiveKey } from "./live";
import { liveNotifier } from "./live-notify";
import { feedSyncer } from "./feed-sync";

export { LiveMatchDay };

const handleRemix = createRequestHandler(build as unknown as ServerBuild);

const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

/** The page a write answers when its COMMIT failed after the action had answered (a safety net: see finish). */
function notSavedPage(): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not saved | FootyCoach</title></head><body><main><h1>Not saved</h1><p>Your change could not be saved. Please go back and try again.</p></main></body></html>`;
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8", "Retry-After": "5" } });
}

/**
 * A Worker deployed with a bad configuration answers 503 everywhere, loudly: /functions/v1/health lists the
 * problems (names and rules, never values) for the post-deploy smoke check (`npm run smoke`), pages say the
 * service is unavailable, and the log says why once per request.
 */
function misconfigured(request: Request, error: InvalidConfiguration): Response {
  console.error(error.message);
  if (new URL(request.url).pathname === "/functions/v1/health") {
    return Response.json(
      { ok: false, config: "invalid", problems: error.problems },
      { status: 503, headers: { "Cache-Control": "no-store" } },
    );
  }
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Unavailable | FootyCoach</title></head><body><main><h1>FootyCoach is unavailable</h1><p>The service is being set up. Please try again in a few minutes.</p></main></body></html>`;
  return new Response(html, {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8", "Retry-After": "60", "Cache-Control": "no-store" },
  });
}

/** GET /live?league=..&season=..&md=.. with Upgrade: websocket (decision 022): a signed-in player's socket. */
async function liveSocket(
  request: Request,
  bindings: Bindings,
  session: ReturnType<typeof requestSession>,
  db: ReturnType<typeof createDb>,
): Promise<Response> {
  const plain = (body: string, status: number) =>
    new Response(body, { status, headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
  if (request.method !== "GET") return plain("Method not allowed.", 405);
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return plain("Expected a WebSocket upgrade.", 426);
  // A page of another site must not open a socket on the player's cookie.
  const origin = request.headers.get("Origin");
  const url = new URL(request.url);
  if (origin !== null && origin !== url.origin) return plain("Cross-site request refused.", 403);
  const key = parseLiveKey(url.searchParams);
  if (!key) return plain("Unknown match day.", 400);
  let user: Awaited<ReturnType<typeof session.user>>;
  try {
    user = await session.user(); // no cookie: null without asking the database
  } catch {
    return plain("The service is temporarily unavailable.", 503);
  } finally {
    await db.finish().catch(() => {});
  }
  if (!user) return plain("Sign in first.", 401);
  if (!bindings.LIVE) return plain("Live updates are not available.", 503);
  const stub = bindings.LIVE.get(bindings.LIVE.idFromName(liveObjectName(key.league, key.season, key.matchDay)));
  const headers = new Headers(request.headers);
  headers.set(LIVE_USER_HEADER, user.id);
  return stub.fetch(new Request(request.url, { method: "GET", headers }));
}

function parseLiveKey(q: URLSearchParams): LiveKey | null {
  const league = (q.get("league") ?? "").trim();
  const season = q.get("season") ?? "";
  const md = Number(q.get("md"));
  if (!league || league.length > 60 || !/^[0-9A-Za-z/ -]{1,20}$/.test(season) || !Number.isInteger(md) || md < 1 || md > 99) return null;
  return { league, season, matchDay: md };
}

export default {
  async fetch(request: Request, bindings: Bindings, ctx: ExecutionContext): Promise<Response> {
    // Every mutation must come from our own pages: a cross-site form post is refused before any work.
    if (isCrossSiteMutation(request)) {
      return new Response("Cross-site request refused.", { status: 403, headers: { "Content-Type": "text/plain" } });
    }
    let env: Env;
    try {
      env = readEnv(bindings);
    } catch (error) {
      if (error instanceof InvalidConfiguration) return misconfigured(request, error);
      throw error;
    }
    const now = readClock(request, env);
    const db = createDb(env.DATABASE_URL, now, { serializeStatements: env.DB_EMBEDDED === "1" });

    const session = requestSession(request, env, db);
    const url = new URL(request.url);
    if (url.pathname === "/live") return liveSocket(request, bindings, session, db);
    if (url.pathname.startsWith("/functions/v1/")) {
      let answer: Response;
      try {
        answer = await functionsApp.fetch(request, { env, db, now, session }, ctx);
      } catch (error) {
        await db.finish().catch(() => {});
        throw error;
      }
      // A function commits before its success answer (db.commit()); this catches one that forgot: a write is
      // never answered as done when its COMMIT failed.
      const ended = await db.finish().then(
        () => null,
        (error: unknown) => notSaved(error),
      );
      return ended ? Response.json({ error: "The service is temporarily unavailable." }, { status: 503 }) : answer;
    }

    const notifyLive = liveNotifier(bindings.LIVE ?? null);
    const context: AppLoadContext = {
      env,
      db,
      now,
      user: session.user,
      userId: session.userId,
      hasSessionCookie: session.hasCookie,
      clientAddress: request.headers.get("CF-Connecting-IP") ?? "unknown",
      waitUntil: (p) => ctx.waitUntil(p),
      // after the answer: the pages learn of a committed change; a failed notify is logged (live-notify.ts)
      notifyLive: (keys: LiveKey[]) => ctx.waitUntil(notifyLive(keys)),
      syncFeedLeague: feedSyncer(bindings.FEED_SYNC),
    };
    let response: Response;
    try {
      response = await handleRemix(request, context);
    } catch (error) {
      ctx.waitUntil(db.finish().catch(() => {}));
      throw error;
    }
    if (request.method === "GET" || request.method === "HEAD") {
      // A read may end its transaction after the answer is on its way.
      ctx.waitUntil(db.finish().catch((error: unknown) => console.error("ending a read failed:", (error as Error)?.message ?? error)));
    } else {
      // An action commits before its success answer (db.commit(), visible in the action). Whatever is still
      // open commits here, before the answer: if that COMMIT fails, the answer is the 503 page, never the
      // action's success.
      const failed = await db.finish().then(
        () => null,
        (error: unknown) => notSaved(error),
      );
      if (failed) response = notSavedPage();
    }
    const headers = new Headers(response.headers);
    // A signed-in page is the player's own: never kept by a shared cache or the back/forward cache of a shared
    // device. Public pages (no session) keep their caching; static assets never reach this code.
    if ((await session.hasCookie()) || headers.has("Set-Cookie")) headers.set("Cache-Control", "private, no-store");
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!headers.has(k)) headers.set(k, v);
    if (env.ENVIRONMENT === "production") headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    // Statement counts are a development and test aid only: in production they would tell an attacker which
    // branch a request took (a known e-mail on /forgot-password sends more statements than an unknown one).
    if (env.ENVIRONMENT !== "production") headers.append("Server-Timing", `db;desc="statements";dur=${db.statementCount()}`);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  },
} satisfies ExportedHandler<Bindings>;
