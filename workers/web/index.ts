import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/cloudflare";
import * as build from "../../build/server/index.js";
import { readEnv, type Bindings } from "../../app/env.server";
import { createDb } from "../../app/db.server";
import { readClock } from "../../app/clock.server";
import { requestSession } from "../../app/session.server";
import { isCrossSiteMutation } from "../../app/lib/origin";
import { functionsApp } from "../../functions/app";

const handleRemix = createRequestHandler(build as unknown as ServerBuild);

const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

export default {
  async fetch(request: Request, bindings: Bindings, ctx: ExecutionContext): Promise<Response> {
    // Every mutation must come from our own pages: a cross-site form post is refused before any work.
    if (isCrossSiteMutation(request)) {
      return new Response("Cross-site request refused.", { status: 403, headers: { "Content-Type": "text/plain" } });
    }
    const env = readEnv(bindings);
    const now = readClock(request, env);
    const db = createDb(env.DATABASE_URL, now, { serializeStatements: env.DB_EMBEDDED === "1" });

    const session = requestSession(request, env, db);
    const url = new URL(request.url);
    if (url.pathname.startsWith("/functions/v1/")) {
      try {
        return await functionsApp.fetch(request, { env, db, now, session }, ctx);
      } finally {
        // A function's write commits before its answer, as a page's does.
        await db.finish();
      }
    }

    const context: AppLoadContext = {
      env,
      db,
      now,
      user: session.user,
      userId: session.userId,
      clientAddress: request.headers.get("CF-Connecting-IP") ?? "unknown",
      waitUntil: (p) => ctx.waitUntil(p),
    };
    let response: Response;
    try {
      response = await handleRemix(request, context);
    } finally {
      // Reads may end their transaction after the answer is on its way; a write's COMMIT must be done
      // before its answer (the redirect's next page must see it).
      const ending = db.finish();
      if (request.method === "GET" || request.method === "HEAD") ctx.waitUntil(ending);
      else await ending;
    }
    const headers = new Headers(response.headers);
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!headers.has(k)) headers.set(k, v);
    if (env.ENVIRONMENT === "production") headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    // Statement counts are a development and test aid only: in production they would tell an attacker which
    // branch a request took (a known e-mail on /forgot-password sends more statements than an unknown one).
    if (env.ENVIRONMENT !== "production") headers.append("Server-Timing", `db;desc="statements";dur=${db.statementCount()}`);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  },
} satisfies ExportedHandler<Bindings>;
