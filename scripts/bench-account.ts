/**
 * `npm run bench:account` (tsx scripts/bench-account.ts): the data download and the account deletion of a player
 * with a long history (decision 029), on a throwaway PostgreSQL (tests/support/pg.ts) with the real migrations, the
 * demo data and the benchmarks' scaled data (scripts/db/seed-scale.ts: BENCH_PLAYERS players, default 5,000, 200
 * competitions, 8 memberships each).
 *
 * The player measured is the demo player (player@footycoach.test), given on top of the scaled data: 5 seasons of a
 * league of their own (38 match days of 10 fixtures each, all played), one season competition per season with
 * BENCH_MEMBERS members (default 1,000) and a pick of theirs on every match day (190 picks), and a Scout competition
 * with 100 entries of 10 predictions (1,000 predictions).
 *
 * Measured, through the app's own code (app/db/request-db.server.ts and the models, as the Worker runs them):
 * - the download: the session check and public.my_data() in one transaction (the request's one round trip),
 *   p50 and p95 over BENCH_RUNS (default 20), and its size; target <= 500 ms;
 * - the deletion: private.delete_account alone, p50 over 5 runs each rolled back, then the real one through the
 *   Account section's model (session, throttle, bcrypt password check, deletion, COMMIT); target <= 1 s.
 */
import { createHash, randomBytes } from "node:crypto";
import postgres from "postgres";
import { createDb } from "../app/db/request-db.server";
import { deleteAccount } from "../app/models/account-settings.server";
import { myDataJson } from "../app/models/my-data.server";
import { connect, createTestDatabase, startPostgres } from "../tests/support/pg";
import { prepareDatabase } from "./app-server";
import { seedScale } from "./db/seed-scale";

const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 5000);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const LEAGUE = "Bench Account League";
const SEASONS = ["2021/22", "2022/23", "2023/24", "2024/25", "2025/26"];

const ms = (t: number) => `${t.toFixed(1)} ms`;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
}

/** The demo player's long history (set-based where the triggers allow). */
async function history(sql: postgres.Sql, userId: string) {
  await sql`
    insert into public.fixtures (league, season, match_day, kickoff_time, home_team, away_team)
    select ${LEAGUE}, s.season, d, timestamptz '2021-08-07 14:00Z' + (s.n - 1) * interval '1 year' + (d - 1) * interval '7 days' + k * interval '1 hour',
           'Team ' || lpad((((k * 2 + d) % 20) + 1)::text, 2, '0'), 'Team ' || lpad((((k * 2 + 1 + d) % 20) + 1)::text, 2, '0')
      from unnest(${SEASONS}::text[]) with ordinality as s (season, n), generate_series(1, 38) d, generate_series(0, 9) k`;
  for (const season of SEASONS) {
    const [{ id }] = await sql<{ id: string }[]>`
      insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day, registration_status)
      values (${`Bench Account ${season}`}, 'season', ${LEAGUE}, ${season}, '2021-08-01', 1, 38, 'closed') returning id`;
    await sql`
      insert into public.user_selections (user_id, competition_id, match_day)
      select p.id, ${id}, 1 from public.profiles p
       where p.id = ${userId} or p.id in (select id from public.profiles where username like 'bench\\_%' order by id limit ${MEMBERS - 1})`;
    await sql`
      insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team)
      select ${userId}, ${id}, f.match_day, f.id, f.home_team
        from public.fixtures f
       where f.league = ${LEAGUE} and f.season = ${season} and f.kickoff_time = (
               select min(g.kickoff_time) from public.fixtures g
                where g.league = f.league and g.season = f.season and g.match_day = f.match_day)`;
  }
  const [{ id: scout }] = await sql<{ id: string }[]>`
    insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day)
    values ('Bench Account Scout', 'scout', ${LEAGUE}, '2025/26', '2025-08-01', 1, 10) returning id`;
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`
      insert into public.scout_entries (competition_id, user_id, match_day, league, season, entry_index, total_points)
      select ${scout}, ${userId}, d, ${LEAGUE}, '2025/26', i, (d * 7 + i) % 20 from generate_series(1, 10) d, generate_series(0, 9) i`;
    await tx`
      insert into public.scout_predictions (scout_entry_id, fixture_id, home_goals, away_goals, points_awarded, exact)
      select e.id, f.id, (e.entry_index + f.id) % 4, f.id % 3, p.points, p.points = 5
        from public.scout_entries e
        join public.fixtures f on f.league = e.league and f.season = e.season and f.match_day = e.match_day
        cross join lateral (select (array[0, 2, 3, 5])[(e.entry_index + f.id) % 4 + 1] as points) p
       where e.competition_id = ${scout}`;
  });
  await sql`select private.refresh_scout_season_totals(${LEAGUE}, '2025/26', array[${userId}]::uuid[])`;
}

async function main() {
  const server = await startPostgres();
  const url = await createTestDatabase(server.url);
  const sql = connect(url, { max: 2 });
  try {
    const t0 = performance.now();
    await prepareDatabase(url, { seed: true });
    await seedScale(sql, { players: PLAYERS, competitions: 200, perPlayer: 8, demoPlayerJoins: 20 });
    const [{ id: userId }] = await sql<{ id: string }[]>`select id from account.accounts where email = 'player@footycoach.test'`;
    await history(sql, userId);
    await sql`vacuum analyze`;
    const [size] = await sql<{ picks: number; predictions: number; memberships: number; profiles: number }[]>`
      select (select count(*) from public.team_selections where user_id = ${userId})::int as picks,
             (select count(*) from public.scout_predictions p join public.scout_entries e on e.id = p.scout_entry_id
               where e.user_id = ${userId})::int as predictions,
             (select count(*) from public.user_selections where user_id = ${userId})::int as memberships,
             (select count(*) from public.profiles)::int as profiles`;
    console.log(
      `bench-account: ${size.profiles.toLocaleString("en")} players; the player: ${size.memberships} memberships, ${size.picks} picks over ${SEASONS.length} seasons, ${size.predictions.toLocaleString("en")} Scout predictions (setup ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );

    const token = randomBytes(32).toString("base64url");
    const sessionId = createHash("sha256").update(token).digest("hex");
    await sql`insert into account.sessions (id, user_id, expires_at) values (${sessionId}, ${userId}, now() + interval '1 day')`;

    const downloads: number[] = [];
    let bytes = 0;
    for (let run = 0; run <= RUNS; run++) {
      const [t, text] = await timed(async () => {
        const db = createDb(url, new Date());
        if ((await db.authenticate(sessionId))?.id !== userId) throw new Error("session check failed");
        const json = await myDataJson(db, userId);
        await db.finish();
        return json;
      });
      bytes = Buffer.byteLength(text);
      if (run > 0) downloads.push(t); // the first warms the connection's caches
    }
    console.log(
      `download (session check + public.my_data(), one transaction): p50 ${ms(pct(downloads, 0.5))}, p95 ${ms(pct(downloads, 0.95))} over ${RUNS} runs, ${(bytes / 1024).toFixed(0)} KB (target <= 500 ms)`,
    );

    const alone: number[] = [];
    for (let run = 0; run < 5; run++) {
      await sql
        .begin(async (tx) => {
          const [t] = await timed(() => tx`select private.delete_account(${userId})`);
          alone.push(t);
          throw new Error("rollback");
        })
        .catch((error: Error) => {
          if (error.message !== "rollback") throw error;
        });
    }
    console.log(`delete_account alone (rolled back): p50 ${ms(pct(alone, 0.5))} over 5 runs`);
    const [t, result] = await timed(() => deleteAccount(createDb(url, new Date()), { id: userId, sessionId }, "footycoach", "127.0.0.1"));
    if (!result.ok) throw new Error(`deletion refused: ${JSON.stringify(result)}`);
    const [kept] = await sql<{ username: string; picks: number }[]>`
      select p.username, (select count(*) from public.team_selections where user_id = p.id)::int as picks from public.profiles p where p.id = ${userId}`;
    console.log(
      `deletion through the Account section (session, throttle, bcrypt password check, delete_account, COMMIT): ${ms(t)} (target <= 1000 ms); kept ${kept.picks} picks as "${kept.username}"`,
    );
  } finally {
    await sql.end({ timeout: 5 });
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
