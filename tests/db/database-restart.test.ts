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
      // A knockout of the demo league's open match day with the demo player in it, and a team of that match day.
      const [open] = await sql<{ id: string; league: string; season: string; match_day: number }[]>`
        insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day,
                                         registration_status, visibility, created_by)
        select 'Restart Knockout', 'knockout', c.league, c.season, current_date, c.current_match_day, c.current_match_day,
               'open', 'public', null
          from public.competitions c
         where c.type = 'knockout' and c.status = 'active' and public.selection_open(c.league, c.season, c.current_match_day)
         order by c.created_at limit 1
        returning id, league, season, current_match_day as match_day`;
      await sql`insert into public.user_selections (user_id, competition_id, league, season, match_day)
                values (${me.id}, ${open.id}, ${open.league}, ${open.season}, ${open.match_day})`;
      const [fixture] = await sql<{ home_team: string }[]>`
        select home_team from public.fixtures where league = ${open.league} and season = ${open.season} and match_day = ${open.match_day}
         order by kickoff_time, id limit 1`;
      competitionId = open.id;
      team = fixture.home_team;
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
    // The pick's Yes as a browser without JavaScript posts it: nothing saved, and the page after the action cannot be
    // read either: a 503 page, "Not saved" or "Temporarily unavailable" (with JavaScript the form answers "Failed to save team selection." and keeps the team:
    // tests/e2e/commit-failure.spec.ts).
    const page = await pick();
    expect(page.status).toBe(503);
    expect(page.body).toMatch(/Not saved|Temporarily unavailable/);
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
