/**
 * `npm run bench:scout` (tsx scripts/bench-scout.ts): Scout scoring and leaderboards at scale, on a throwaway
 * PostgreSQL server (tests/support/pg.ts) with the real migrations.
 *
 * Setup (set-based): BENCH_PLAYERS players (default 100,000), one Scout competition, 10 match days of 10 fixtures.
 * Match days 1-9 are played, with one entry per player each (points already stored, as scoring left them) and the
 * season totals built by private.refresh_scout_season_totals; match day 10 has one entry per player with a
 * prediction for each of its 10 fixtures (1,000,000 predictions), fixtures not yet played.
 *
 * Measured:
 * - scoring match day 10: all 10 results in one admin upload (public.upsert_fixtures, one transaction; scoring
 *   runs at its commit): seconds from the call to the commit (target <= 10 s);
 * - a correction of one result through public.save_fixture_result (re-scores that fixture's 100,000 predictions);
 * - as a player under RLS, p50 over BENCH_RUNS (default 20): match day 10's top 100, the season's top 100
 *   (target <= 100 ms each), and one player's pinned row on each board (target <= 50 ms).
 */
import postgres from "postgres";
import { asUser, connect, createTestDatabase, startPostgres } from "../tests/support/pg";

const N = Number(process.env.BENCH_PLAYERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const LEAGUE = "Bench Scout League";
const SEASON = "2025/26";
const MD = 10;
const HASH = "$2a$10$CwTycUXWue0Thq9StjUM0uJ8.X7VQ7Jp3zY1sQ1sFQ1sFQ1sFQ1sF"; // never used to log in

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
}

async function setup(sql: postgres.Sql): Promise<string> {
  let t = performance.now();
  const step = (name: string) => {
    if (process.env.BENCH_VERBOSE) console.log(`  ${name}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
  };
  await sql`
    insert into public.fixtures (league, season, match_day, kickoff_time, home_team, away_team)
    select ${LEAGUE}, ${SEASON}, d, timestamptz '2026-08-01 14:00Z' + (d - 1) * interval '7 days' + k * interval '1 hour',
           'Team ' || lpad((((k * 2 + d) % 20) + 1)::text, 2, '0'), 'Team ' || lpad((((k * 2 + 1 + d) % 20) + 1)::text, 2, '0')
      from generate_series(1, 10) d, generate_series(0, 9) k`;
  await sql`
    update public.fixtures
       set home_score = (id * 7) % 4, away_score = (id * 3) % 3, status = 'complete',
           result = case when (id * 7) % 4 > (id * 3) % 3 then 'home_win' when (id * 7) % 4 < (id * 3) % 3 then 'away_win' else 'draw' end
     where league = ${LEAGUE} and match_day < ${MD}`;
  await sql`
    insert into account.accounts (id, email, password_hash)
    select gen_random_uuid(), 'scout' || i || '@example.test', ${HASH} from generate_series(1, ${N}) i`;
  await sql`
    insert into public.profiles (id, username, date_of_birth, gender)
    select a.id, 's' || lpad(substr(a.email, 6, position('@' in a.email) - 6), 6, '0'), '1990-01-01', 'male'
      from account.accounts a where a.email like 'scout%'`;
  step("players");
  await sql`insert into account.accounts (email, password_hash) values ('scoutadmin@example.test', ${HASH})`;
  await sql`insert into public.profiles (id, username, date_of_birth, gender, role)
            select id, 'scoutadmin', '1990-01-01', 'male', 'admin' from account.accounts where email = 'scoutadmin@example.test'`;
  const [{ id }] = await sql<{ id: string }[]>`
    insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day, total_match_days)
    values ('Bench Scout', 'scout', ${LEAGUE}, ${SEASON}, '2026-07-30', 1, ${MD}, 38) returning id`;
  step("competition");
  // Entries and predictions in bulk with row triggers off (league and season written directly).
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`
      insert into public.scout_entries (competition_id, user_id, match_day, league, season, entry_index, total_points, exact_count, created_at)
      select ${id}, p.id, d, ${LEAGUE}, ${SEASON}, 0,
             case when d < ${MD} then (p.n * 7 + d * 13) % 31 else 0 end,
             case when d < ${MD} then (p.n + d) % 4 else 0 end,
             timestamptz '2026-07-31 10:00Z' + (d - 1) * interval '7 days' + (p.n % 86400) * interval '1 second'
        from (select id, row_number() over (order by id) as n from public.profiles where username like 's%') p,
             generate_series(1, ${MD}) d`;
    await tx`
      insert into public.scout_predictions (scout_entry_id, fixture_id, home_goals, away_goals)
      select e.id, f.id, (hashtext(e.id::text || f.id) & 7) % 4, (hashtext(f.id || e.id::text) & 7) % 3
        from public.scout_entries e
        join public.fixtures f on f.league = e.league and f.season = e.season and f.match_day = e.match_day
       where e.match_day = ${MD}`;
  });
  step("entries");
  await sql`analyze`;
  await sql`
    select private.refresh_scout_season_totals(${LEAGUE}, ${SEASON},
             array(select id from public.profiles where username like 's%'))`;
  step("season totals");
  await sql`vacuum analyze`;
  return id;
}

async function main() {
  const server = await startPostgres();
  const url = await createTestDatabase(server.url);
  const EXPLAIN = process.env.BENCH_EXPLAIN; // print auto_explain plans of statements slower than this many ms
  const sql = connect(url, {
    max: 4,
    onnotice: (n) => {
      if (EXPLAIN) console.log(n.message);
    },
    ...(EXPLAIN
      ? {
          connection: {
            session_preload_libraries: "auto_explain",
            "auto_explain.log_min_duration": EXPLAIN,
            "auto_explain.log_analyze": "on",
            "auto_explain.log_nested_statements": "on",
            "auto_explain.log_level": "notice",
          },
        }
      : {}),
  });
  try {
    console.log(`bench-scout: ${N.toLocaleString("en")} players, ${(N * 10).toLocaleString("en")} predictions on match day ${MD}`);
    const [setupMs] = await timed(() => setup(sql));
    console.log(`setup: ${(setupMs / 1000).toFixed(1)} s`);
    const [{ admin }] = await sql<{ admin: string }[]>`select id as admin from public.profiles where username = 'scoutadmin'`;
    const [{ player }] = await sql<
      { player: string }[]
    >`select id as player from public.profiles where username = ${"s" + String(Math.ceil(N / 2)).padStart(6, "0")}`;
    const fixtures = await sql<{ id: string; home_team: string; away_team: string; kickoff_time: Date }[]>`
      select id, home_team, away_team, kickoff_time from public.fixtures where league = ${LEAGUE} and match_day = ${MD} order by kickoff_time`;
    const after = new Date(fixtures[fixtures.length - 1].kickoff_time.getTime() + 3 * 3_600_000);

    const rows = fixtures.map((f, i) => ({
      line: i + 2,
      league: LEAGUE,
      season: SEASON,
      match_day: String(MD),
      home_team: f.home_team,
      away_team: f.away_team,
      kickoff_time: f.kickoff_time.toISOString(),
      status: "complete",
      home_score: String(i % 4),
      away_score: String(i % 3),
    }));
    const [uploadMs] = await timed(() => asUser(sql, admin, (tx) => tx`select public.upsert_fixtures(${tx.json(rows)})`, { now: after }));
    const [check] = await sql<{ scored: number; points: number }[]>`
      select count(*) filter (where points_awarded > 0)::int as scored, sum(points_awarded)::int as points
        from public.scout_predictions p join public.fixtures f on f.id = p.fixture_id where f.match_day = ${MD} and f.league = ${LEAGUE}`;
    const [entries] = await sql<{ points: number }[]>`
      select sum(total_points)::int as points from public.scout_entries where match_day = ${MD} and league = ${LEAGUE}`;
    console.log(
      `scoring match day ${MD} (10 results in one upload, scored at commit): ${(uploadMs / 1000).toFixed(2)} s` +
        ` (target <= 10 s); ${check.scored.toLocaleString("en")} predictions scored, entry totals ${entries.points === check.points ? "agree" : "DISAGREE"}`,
    );
    const [fixMs] = await timed(() =>
      asUser(sql, admin, (tx) => tx`select public.save_fixture_result(${fixtures[0].id}, 3, 3)`, { now: after }),
    );
    console.log(`correcting one result (re-scores ${N.toLocaleString("en")} predictions): ${(fixMs / 1000).toFixed(2)} s`);
    await sql`analyze`;

    const measure = async (label: string, target: number, query: (tx: postgres.TransactionSql) => Promise<readonly unknown[]>) => {
      const times: number[] = [];
      let n = 0;
      for (let i = 0; i < RUNS; i++) {
        const [t, r] = await timed(() => asUser(sql, player, query, { now: after }));
        times.push(t);
        n = r.length;
      }
      console.log(`${label}: p50 ${p50(times).toFixed(1)} ms (target <= ${target} ms), ${n} rows`);
    };
    await measure(
      "match-day leaderboard top 100",
      100,
      (tx) => tx`select * from public.get_scout_leaderboard_matchday(${LEAGUE}, ${SEASON}, ${MD})`,
    );
    await measure("season leaderboard top 100", 100, (tx) => tx`select * from public.get_scout_leaderboard_season(${LEAGUE}, ${SEASON})`);
    await measure(
      "pinned row, match day",
      50,
      (tx) => tx`select * from public.get_scout_leaderboard_matchday_player(${LEAGUE}, ${SEASON}, ${MD}, ${player})`,
    );
    await measure(
      "pinned row, season",
      50,
      (tx) => tx`select * from public.get_scout_leaderboard_season_player(${LEAGUE}, ${SEASON}, ${player})`,
    );
  } finally {
    await sql.end({ timeout: 5 });
    await server.stop();
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
