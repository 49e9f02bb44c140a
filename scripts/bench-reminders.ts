/**
 * `npm run bench:reminders` (tsx scripts/bench-reminders.ts): the reminder fan-out at scale through the real
 * path. A throwaway PostgreSQL (tests/support/pg.ts) with the real migrations; BENCH_PLAYERS players (default
 * 100,000) active in one knockout competition without a pick, notifications on, each with a Web Push
 * subscription at a local push service (tests/support/local-push-service.ts) that decrypts every message and
 * checks its VAPID token. The scheduler Worker runs under `wrangler dev` (workerd, its local queue) with
 * PUSH_ENDPOINT_OVERRIDE pointing at that service; one tick is run through /cdn-cgi/handler/scheduled?time= 5 h 59 min before the
 * deadline.
 *
 * BENCH_EXPLAIN=1 first prints the reminders statement's plan (auto_explain, in a rolled-back transaction).
 *
 * Printed: the tick's wall time and its reminders job's database time (target <= 2 s), seconds from the tick to
 * the last delivery (target <= 300 s) and deliveries per second, and the deliveries' final states.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startSchedulerWorker, type Worker } from "./app-server";
import { generateVapidKeys } from "./vapid-keys";
import { connect, createTestDatabase, startPostgres } from "../tests/support/pg";
import { startLocalPushService } from "../tests/support/local-push-service";

const N = Number(process.env.BENCH_PLAYERS ?? 100_000);
const LEAGUE = "Bench Reminders League";
const SEASON = "2025/26";
const HASH = "$2a$10$CwTycUXWue0Thq9StjUM0uJ8.X7VQ7Jp3zY1sQ1sFQ1sFQ1sFQ1sF"; // never used to log in
const KICKOFF = new Date("2031-03-08T15:00:00Z");
const DEADLINE = new Date(KICKOFF.getTime() - 3_600_000);

const seconds = (ms: number) => (ms / 1000).toFixed(1);

async function main() {
  const server = await startPostgres();
  if (server.kind !== "postgres") {
    console.log("bench:reminders needs PostgreSQL (Debian's postgresql package); PGlite serves one session at a time");
    await server.stop();
    process.exit(1);
  }
  const url = await createTestDatabase(server.url);
  const sql = connect(url, { max: 4 });
  const stateDir = mkdtempSync(path.join(os.tmpdir(), "footy-bench-reminders-"));
  const vapid = generateVapidKeys();
  const push = await startLocalPushService({ expectedVapidPublicKey: vapid.publicKey });
  let scheduler: Worker | undefined;
  try {
    let t = performance.now();
    const subscriptions: { endpoint: string; p256dh: string; auth: string }[] = [];
    for (let done = 0; done < N; done += 10_000) {
      const res = await fetch(`${push.url}/__control/subscriptions`, {
        method: "POST",
        body: JSON.stringify({ count: Math.min(10_000, N - done) }),
      });
      subscriptions.push(...(await res.json<typeof subscriptions>()));
    }
    console.log(`[bench] ${N} subscriptions at the local push service in ${seconds(performance.now() - t)} s`);

    t = performance.now();
    await sql`
      insert into public.fixtures (league, season, match_day, kickoff_time, home_team, away_team)
      values (${LEAGUE}, ${SEASON}, 1, ${KICKOFF}, 'Arsenal', 'Chelsea'), (${LEAGUE}, ${SEASON}, 1, ${new Date(KICKOFF.getTime() + 3_600_000)}, 'Everton', 'Fulham')`;
    const [{ id: competitionId }] = await sql<{ id: string }[]>`
      insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day, registration_status)
      values ('Bench Knockout', 'knockout', ${LEAGUE}, ${SEASON}, '2031-03-08', 1, 1, 'open') returning id`;
    await sql`
      insert into account.accounts (id, email, password_hash)
      select gen_random_uuid(), 'rem' || i || '@example.test', ${HASH} from generate_series(1, ${N}) i`;
    await sql`
      insert into public.profiles (id, username, date_of_birth, gender, notifications_enabled, time_zone)
      select a.id, 'r' || lpad(substr(a.email, 4, position('@' in a.email) - 4), 6, '0'), '1990-01-01', 'male', true,
             (array['UTC', 'Europe/London', 'America/New_York', 'Asia/Tokyo'])[1 + (row_number() over (order by a.id)) % 4]
        from account.accounts a where a.email like 'rem%'`;
    await sql`
      insert into public.push_subscriptions (user_id, kind, endpoint, p256dh, auth)
      select p.id, 'webpush', s.endpoint, s.p256dh, s.auth
        from (select id, row_number() over (order by id) as n from public.profiles where username like 'r%') p
        join (select e.endpoint, k.p256dh, a.auth, e.n
                from unnest(${subscriptions.map((s) => s.endpoint)}::text[]) with ordinality as e(endpoint, n)
                join unnest(${subscriptions.map((s) => s.p256dh)}::text[]) with ordinality as k(p256dh, n) using (n)
                join unnest(${subscriptions.map((s) => s.auth)}::text[]) with ordinality as a(auth, n) using (n)) s
          on s.n = p.n`;
    await sql.begin(async (tx) => {
      // memberships in bulk with row triggers off (league, season and sort name written directly)
      await tx`set local session_replication_role = replica`;
      await tx`
        insert into public.user_selections (user_id, competition_id, league, season, match_day, status, sort_name)
        select p.id, ${competitionId}, ${LEAGUE}, ${SEASON}, 1, 'active', lower(p.username)
          from public.profiles p where p.username like 'r%'`;
      await tx`update public.competitions set player_count = ${N} where id = ${competitionId}`;
    });
    await sql`analyze`;
    console.log(`[bench] ${N} players, memberships and subscriptions in ${seconds(performance.now() - t)} s`);

    if (process.env.BENCH_EXPLAIN) {
      // The reminders statement's plan at this size, in a transaction rolled back (the tick below does the real run).
      const explain = connect(url, {
        max: 1,
        onnotice: (n) => console.log(n.message),
        connection: {
          session_preload_libraries: "auto_explain",
          "auto_explain.log_min_duration": "0",
          "auto_explain.log_analyze": "on",
          "auto_explain.log_nested_statements": "on",
          "auto_explain.log_level": "notice",
        },
      });
      await explain
        .begin(async (tx) => {
          await tx`select count(*) from private.queue_reminders(${new Date(DEADLINE.getTime() - (5 * 60 + 59) * 60_000)})`;
          throw new Error("rollback");
        })
        .catch(() => {});
      await explain.end({ timeout: 5 });
    }

    scheduler = await startSchedulerWorker({
      port: await freePort(),
      databaseUrl: url,
      quiet: true,
      stateDir,
      vars: {
        ENVIRONMENT: "development",
        PUSH_PROVIDER: "live",
        APP_URL: "http://127.0.0.1:8787",
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        PUSH_ENDPOINT_OVERRIDE: push.url,
      },
    });

    const tickAt = DEADLINE.getTime() - (5 * 60 + 59) * 60_000;
    const started = performance.now();
    const startedWall = Date.now();
    const res = await fetch(`${scheduler.url}/cdn-cgi/handler/scheduled?cron=*/15+*+*+*+*&time=${tickAt}`);
    const tickMs = performance.now() - started;
    if (!res.ok) throw new Error(`tick failed: ${res.status} ${await res.text()}`);
    const [job] = await sql<{ ms: number; result: { deliveries: number } }[]>`
      select extract(epoch from finished_at - started_at) * 1000 as ms, result from private.job_runs
       where job = 'reminders' and scheduled_at = ${new Date(tickAt)}`;
    console.log(
      `[bench] tick: ${seconds(tickMs)} s wall (jobs + enqueue); reminders job in the database: ${(job.ms / 1000).toFixed(2)} s for ${job.result.deliveries} deliveries`,
    );

    type Stats = { accepted: number; refused: number; firstReceivedAt: number | null; lastReceivedAt: number | null };
    let stats: Stats = { accepted: 0, refused: 0, firstReceivedAt: null, lastReceivedAt: null };
    let progress = { count: 0, at: Date.now() };
    while (Date.now() < startedWall + 15 * 60_000) {
      stats = await (await fetch(`${push.url}/__control/stats`)).json<Stats>();
      const count = stats.accepted + stats.refused;
      if (count !== progress.count) progress = { count, at: Date.now() };
      if (count >= N) break;
      if (Date.now() - progress.at > 120_000) break; // no progress for two minutes
      await new Promise((r) => setTimeout(r, 500));
    }
    const states = await sql<{ state: string; n: number }[]>`
      select state, count(*)::int as n from private.push_deliveries group by state order by state`;
    const toLast = (stats.lastReceivedAt ?? Date.now()) - startedWall;
    const spread = (stats.lastReceivedAt ?? 0) - (stats.firstReceivedAt ?? 0);
    console.log(
      `[bench] pushes at the push service: ${stats.accepted} accepted (decrypted, VAPID valid), ${stats.refused} refused, of ${N}`,
    );
    console.log(
      `[bench] tick to last delivery: ${seconds(toLast)} s (target <= 300 s); first to last delivery ${seconds(spread)} s: ${Math.round(stats.accepted / Math.max(spread / 1000, 0.001))} deliveries/s`,
    );
    console.log(`[bench] delivery states: ${states.map((s) => `${s.state} ${s.n}`).join(", ")}`);
  } finally {
    await scheduler?.stop();
    await push.close();
    await sql.end({ timeout: 5 });
    await server.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
