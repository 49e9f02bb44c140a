import { Hono } from "hono";
import type { Db } from "../app/db/types";
import type { Env } from "../app/env.server";
import type { SessionUser } from "../app/db/types";
import { pushFunctions } from "./push";

/** Bindings the web Worker hands to the HTTP functions mounted under /functions/v1/*. */
export interface FunctionsBindings {
  env: Env;
  db: Db;
  now: Date;
  /** The request's session, read from the signed cookie as the app reads it (app/session.server.ts). */
  session: { user(): Promise<SessionUser | null>; userId(): Promise<string | null> };
}

export const functionsApp = new Hono<{ Bindings: FunctionsBindings }>().basePath("/functions/v1");

functionsApp.get("/health", async (c) => {
  // The configuration was validated before this runs (an invalid one answers 503 with its problems in
  // workers/web/index.ts); what is left to check is the database behind Hyperdrive.
  const database = await c.env.db.serviceStatement(async (sql) => (await sql`select 1 as ok`)[0]?.ok === 1).catch(() => false);
  return c.json({ ok: database, config: "valid", database: database ? "reachable" : "unreachable" }, database ? 200 : 503);
});

functionsApp.route("/", pushFunctions);

functionsApp.onError((error, c) => {
  console.error("function failed:", error instanceof Error ? error.message : error);
  return c.json({ error: "Something went wrong." }, 500);
});

functionsApp.notFound((c) => c.json({ error: "Not found" }, 404));
