import { Hono } from "hono";
import type { Db } from "../app/db.server";
import type { Env } from "../app/env.server";

/** Bindings the web Worker hands to the HTTP functions mounted under /functions/v1/*. */
export interface FunctionsBindings {
  env: Env;
  db: Db;
  now: Date;
}

export const functionsApp = new Hono<{ Bindings: FunctionsBindings }>().basePath("/functions/v1");

functionsApp.get("/health", async (c) => {
  const ok = await c.env.db.service(async (sql) => (await sql`select 1 as ok`)[0]?.ok === 1).catch(() => false);
  return c.json({ ok }, ok ? 200 : 503);
});

functionsApp.notFound((c) => c.json({ error: "Not found" }, 404));
