/**
 * The direct path survives a database restart (decision 024): the app as `npm start` serves it with DATABASE_URL
 * (wrangler dev, its local Hyperdrive, scripts/db-relay.ts) on a PostgreSQL cluster of its own, which the test
 * stops and starts again with pg_ctl. While the database is down a signed-in page and a pick answer 503 (never a
 * 500) and the process stays up; after the database is back the page answers 200 again by itself.
 * Before the relay, miniflare's local Hyperdrive proxy threw an unhandled ECONNREFUSED and wrangler dev exited.
 * Needs the built app (`npx remix vite:build`, done by `npm test` first) and Debian's PostgreSQL binaries.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, freePort, prepareDatabase, startWorker, workerVars, type Worker } from "../../scripts/app-server";
import { insertSessions } from "../../scripts/db/sessions";
import { createTestDatabase, findPostgresBin, startPostgresCluster, type TestServer } from "../support/pg";

const built = existsSync(path.join(ROOT, "build/server/index.js"));
const bin = findPostgresBin();
if (!built) console.warn("[database-restart] skipped: no build/server (run `npx remix vite:build` first; npm test does)");
if (!bin) console.warn("[database-restart] skipped: no PostgreSQL binaries under /usr/lib/postgresql (this test stops and starts one)");

/** Back within this many seconds of the database accepting connections again. */
const RECOVERY_SECONDS = 10;

describe.skipIf(!built || !bin)("the app on a PostgreSQL that restarts (DATABASE_URL, no pooler)", () => {
  let pg: TestServer;
  let worker: Worker;
  let stateDir: string;
  let cookie: string;
  let competitionId: string;
  let team: string;

  beforeAll(async () => {
    pg = (await startPostgresCluster())!;
    const url = await createTestDatabase(pg.url);
    await prepareDatabase(url, { seed: true });
    stateDir = mkdtempSync(path.join(os.tmpdir(), "footycoach-restart-"));
    const vars = workerVars(stateDir, "test");
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const [me] = await sql<{ id: string }[]>`select id from account.accounts where email = 'player@footycoach.test'`;
      [cookie] = await insertSessions(sql, [me.id], vars.SESSION_SECRET);
      // The demo player's open knockout and a team they may pick there now.
      const [open] = await sql<{ id: string; team: string }[]>`
        select c.id, e.team from public.competitions c
          join public.user_selections us on us.competition_id = c.id and us.user_id = ${me.id}
          cross join lateral private.eligible_teams(c.id, ${me.id}) e
         where c.type = 'knockout' and public.selection_open(c.league, c.season, c.current_match_day)
         order by c.name, e.team limit 1`;
      ({ id: competitionId, team } = open);
    } finally {
      await sql.end({ timeout: 5 });
    }
    worker = await startWorker({ port: await freePort(), databaseUrl: url, vars, stateDir, quiet: true });
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
    await pg?.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  const dashboard = async () => {
    const res = await fetch(`${worker.url}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
    return { status: res.status, body: await res.text() };
  };
  const pick = async () => {
    const res = await fetch(`${worker.url}/select-team/${competitionId}`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: worker.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "select", team }).toString(),
      redirect: "manual",
    });
    return { status: res.status, body: await res.text() };
  };

  it("answers 503 while the database is down, stays up, and serves again on its own once it is back", async () => {
    expect((await dashboard()).status).toBe(200);

    await pg.halt!();
    for (let i = 0; i < 3; i++) {
      const page = await dashboard();
      expect(page.status).toBe(503);
      expect(page.body).toContain("Temporarily unavailable");
    }
    const refused = await pick();
    expect(refused.status).toBe(503);
    expect(refused.body).toContain("Failed to save team selection.");
    expect(worker.process.exitCode).toBeNull();

    await pg.resume!();
    const back = Date.now();
    let status = 0;
    while (Date.now() - back < RECOVERY_SECONDS * 1000) {
      status = (await dashboard()).status;
      if (status === 200) break;
      expect(status).toBe(503);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
    const saved = await pick();
    expect(saved.status).toBe(302);
    expect(worker.process.exitCode).toBeNull();
  }, 60_000);
});
