/**
 * The scheduler Worker as `npm start` serves it: wrangler dev with workers/scheduler/wrangler.toml (bundled and
 * run in workerd, its local queue), PUSH_PROVIDER=outbox. One tick through wrangler's routes sends a reminder
 * into the development push outbox that /dev/outbox lists (readPushOutbox).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, localVapidKeys, startSchedulerWorker, type Worker } from "../../scripts/app-server";
import { addMember, createCompetition, createLeague, createPlayer } from "../support/factories";
import { eventually } from "../support/eventually";
import { useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
let scheduler: Worker;
let stateDir: string;

beforeAll(async () => {
  db = await useTestDatabase();
  stateDir = mkdtempSync(path.join(os.tmpdir(), "footy-scheduler-dev-"));
  const vapid = localVapidKeys(stateDir);
  scheduler = await startSchedulerWorker({
    port: await freePort(),
    databaseUrl: db.url,
    quiet: true,
    stateDir,
    vars: {
      ENVIRONMENT: "development",
      PUSH_PROVIDER: "outbox",
      APP_URL: "http://127.0.0.1:8787",
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
    },
  });
}, 120_000);

afterAll(async () => {
  await scheduler?.stop();
  await db?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

describe("the scheduler under wrangler dev", () => {
  it("answers on its URL and runs a tick from the test-scheduled route", async () => {
    expect(await (await fetch(`${scheduler.url}/`)).json()).toMatchObject({ service: "footycoach-scheduler" });
    const res = await fetch(`${scheduler.url}/__scheduled?cron=*/15+*+*+*+*`);
    expect(res.status).toBe(200);
    const [{ n }] = await db.sql<{ n: number }[]>`select count(*)::int as n from private.job_runs where job = 'reminders'`;
    expect(n).toBe(1);
  });

  it("keeps a due reminder in the development push outbox, through the local queue", async () => {
    const kickoff = new Date(Date.UTC(2032, 4, 9, 15, 0));
    const league = "Dev Outbox League";
    await createLeague(db.sql, { league, matchDays: 1, firstKickoff: kickoff, pairs: [["Arsenal", "Chelsea"]] });
    const competition = await createCompetition(db.sql, { league, name: "Outbox Cup" });
    const player = await createPlayer(db.sql, { username: "OutboxPlayer" });
    await db.sql`insert into public.push_subscriptions (user_id, kind, endpoint, p256dh, auth)
                 values (${player.id}, 'webpush', 'https://push.invalid/dev/1', 'BGsX0fLhLEJH', 'YXV0aA')`;
    await db.sql`update public.profiles set notifications_enabled = true where id = ${player.id}`;
    await addMember(db.sql, competition.id, player.id);

    const at = kickoff.getTime() - 4 * 3_600_000; // 3 hours before the deadline
    const res = await fetch(`${scheduler.url}/cdn-cgi/handler/scheduled?cron=*/15+*+*+*+*&time=${at}`);
    expect(res.status).toBe(200);

    const { readPushOutbox } = await import("../../app/mail.server");
    const outboxDb = { serviceStatement: (fn: (sql: typeof db.sql) => Promise<unknown>) => fn(db.sql) } as unknown as Parameters<
      typeof readPushOutbox
    >[0];
    const pushes = await eventually(async () => {
      const rows = await readPushOutbox(outboxDb);
      return rows.length > 0 ? rows : undefined;
    });
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({
      username: "OutboxPlayer",
      title: "FootyCoach",
      link: `/select-team/${competition.id}`,
      state: "sent",
    });
    expect(pushes[0].body).toMatch(/^Final reminder: team selection closes in 3 hours\. Pick your team for Outbox Cup/);
  });
});
