/**
 * `npm run bench:feed` (tsx scripts/bench-feed.ts): the data feed and corrections at scale (decision 020).
 *
 * On a throwaway PostgreSQL (tests/support/pg.ts), against the local football-data.org v4 server
 * (scripts/feed/football-data-server.ts, the free plan's 10 requests a minute):
 *
 * 1. Import: five leagues' full seasons (20 teams, 38 match days: 5 x 380 = 1,900 fixtures, the first half of each
 *    season finished: 950 results) linked at once and imported in one tick of the scheduler's feed job (runFeed,
 *    the Worker's own code), then a re-sync 15 minutes later with nothing changed. Prints the tick's wall time,
 *    its database and HTTP time, and the requests made.
 * 2. A correction with 100,000 affected players: a knockout of BENCH_PLAYERS members who all picked one side or the
 *    other of one match; correcting its result eliminates one half and brings the other back, so every member gets
 *    a notice (10% of them have notifications on: one push delivery each). Prints the time to re-process and to
 *    create the notices (each step timed on its own, then rolled back), and the whole correction as an admin makes
 *    it (public.save_fixture_result, committed).
 *
 * Env: BENCH_PLAYERS (default 100000), BENCH_SKIP=import|correction, BENCH_EXPLAIN=<ms> (print auto_explain plans of
 * statements slower than that, nested ones included).
 */
import type postgres from "postgres";
import { asUser, connect, createTestDatabase, startPostgres } from "../tests/support/pg";
import { runFeed } from "../workers/scheduler/feed/job";
import { startFootballDataServer } from "./feed/football-data-server";
import { buildSeason, finishedScore } from "./feed/v4-matches";

const N = Number(process.env.BENCH_PLAYERS ?? 100_000);
const SKIP = process.env.BENCH_SKIP;
const EXPLAIN = process.env.BENCH_EXPLAIN;
const HASH = "$2a$10$CwTycUXWue0Thq9StjUM0uJ8.X7VQ7Jp3zY1sQ1sFQ1sFQ1sFQ1sF"; // never used to log in
const TOKEN = "bench-token";

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
}

const LEAGUES = [
  ["Premier League", "PL"],
  ["La Liga", "PD"],
  ["Serie A", "SA"],
  ["Bundesliga", "BL1"],
  ["Ligue 1", "FL1"],
] as const;

async function benchImport(sql: postgres.Sql) {
  const server = await startFootballDataServer({ token: TOKEN, limitPerMinute: 10 });
  try {
    const firstKickoff = new Date("2031-08-09T14:00:00Z");
    LEAGUES.forEach(([, code], l) => {
      const teams = Array.from({ length: 20 }, (_, i) => `${code} Club ${String(i + 1).padStart(2, "0")}`);
      const season = buildSeason({ teams, firstMatchId: (l + 1) * 1_000_000, firstTeamId: (l + 1) * 1_000, firstKickoff });
      server.setMatches(
        code,
        2031,
        season.map((m) => (m.matchday! <= 19 ? { ...m, status: "FINISHED", score: finishedScore(m.id % 4, m.id % 3) } : m)),
      );
    });
    for (const [league] of LEAGUES) {
      await sql`insert into public.feed_leagues (league, season, code, season_year, sync_requested_at)
                values (${league}, '2031/32', private.feed_competition_code(${league}), 2031, now())`;
    }
    const now = new Date("2031-12-24T12:00:00Z"); // after match day 19
    const settings = { url: server.url, token: TOKEN };
    const [importMs, first] = await timed(() => runFeed(sql, settings, now));
    const [{ fixtures, results }] = await sql<{ fixtures: number; results: number }[]>`
      select count(*)::int as fixtures, count(*) filter (where status = 'complete')::int as results
        from public.fixtures where season = '2031/32'`;
    console.log(
      `import, one tick: ${fixtures.toLocaleString("en")} fixtures, ${results} results in ${s(importMs)} ` +
        `(database ${s(first.db_ms)}, HTTP ${s(first.http_ms)}); requests made: ${first.requests} (${first.synced} leagues synced)`,
    );

    const [resyncMs, again] = await timed(() => runFeed(sql, settings, new Date(now.getTime() + 15 * 60_000)));
    console.log(
      `re-sync, nothing changed: ${s(resyncMs)} (database ${s(again.db_ms)}, HTTP ${s(again.http_ms)}); requests made: ${again.requests}; ` +
        `fixtures changed ${again.fixtures}, results changed ${again.results}`,
    );
    const requests = await fetch(`${server.origin}/__control/requests`).then((r) => r.json<unknown[]>());
    console.log(`requests the v4 server received: ${requests.length}`);
  } finally {
    await server.close();
  }
}

async function benchCorrection(sql: postgres.Sql) {
  const league = "Championship";
  const season = "2031/32";
  const kickoff = new Date("2031-08-09T14:00:00Z");
  const [setupMs] = await timed(async () => {
    await sql`
      insert into public.fixtures (league, season, match_day, kickoff_time, home_team, away_team)
      select ${league}, ${season}, 1, ${kickoff}::timestamptz + k * interval '1 hour', 'Home ' || k, 'Away ' || k
        from generate_series(0, 9) k`;
    await sql`
      insert into account.accounts (id, email, password_hash)
      select gen_random_uuid(), 'bench' || i || '@example.test', ${HASH} from generate_series(1, ${N}) i`;
    await sql`
      insert into public.profiles (id, username, date_of_birth, gender, notifications_enabled)
      select a.id, 'p' || lpad(substr(a.email, 6, position('@' in a.email) - 6), 6, '0'), '1990-01-01', 'male',
             substr(a.email, 6, position('@' in a.email) - 6)::int % 10 = 0
        from account.accounts a where a.email like 'bench%'`;
    await sql`
      insert into public.push_subscriptions (user_id, kind, endpoint, p256dh, auth)
      select p.id, 'webpush', 'https://fcm.googleapis.com/fcm/send/bench-' || p.username, 'BKey', 'auth'
        from public.profiles p where p.notifications_enabled and p.username like 'p%'`;
    await sql`insert into account.accounts (email, password_hash) values ('benchadmin@example.test', ${HASH})`;
    await sql`insert into public.profiles (id, username, date_of_birth, gender, role)
              select id, 'benchadmin', '1990-01-01', 'male', 'admin' from account.accounts where email = 'benchadmin@example.test'`;
    const [{ id: competition }] = await sql<{ id: string }[]>`
      insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day, registration_status)
      values ('Bench Correction Knockout', 'knockout', ${league}, ${season}, '2031-08-01', 1, 1, 'closed') returning id`;
    // memberships and picks in bulk with row triggers off (as bench-results does), the derived columns set after
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`
        insert into public.user_selections (user_id, competition_id, league, season, match_day, status, sort_name)
        select p.id, ${competition}, ${league}, ${season}, 1, 'active', lower(p.username)
          from public.profiles p where p.role = 'player' and p.username like 'p%'`;
      await tx`update public.competitions set player_count = ${N} where id = ${competition}`;
      // everyone picked a side of the first match: even members the home side, odd ones the away side
      await tx`
        insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction)
        select us.user_id, us.competition_id, 1, f.id,
               case when us.n % 2 = 0 then f.home_team else f.away_team end,
               case when us.n % 2 = 0 then 'home_win' else 'away_win' end
          from (select user_id, competition_id, row_number() over (order by user_id) as n
                  from public.user_selections where competition_id = ${competition}) us
          join public.fixtures f on f.league = ${league} and f.season = ${season} and f.match_day = 1 and f.home_team = 'Home 0'`;
    });
    await sql`select private.rerank_competition(${competition})`;
    await sql`vacuum analyze`;
  });
  console.log(`correction setup (${N.toLocaleString("en")} players): ${s(setupMs)}`);

  const [{ admin }] = await sql<{ admin: string }[]>`select id as admin from public.profiles where username = 'benchadmin'`;
  const fixtures = await sql<{ id: string; home_team: string }[]>`
    select id::text, home_team from public.fixtures where league = ${league} and season = ${season} order by kickoff_time`;
  const after = new Date(kickoff.getTime() + 12 * 3_600_000);
  // match day 1's results: the first match 1-0 (the away pickers go out), the others 2-2; the last one processes it
  for (const f of fixtures) {
    const [h, a] = f.home_team === "Home 0" ? [1, 0] : [2, 2];
    await asUser(sql, admin, (tx) => tx`select public.save_fixture_result(${f.id}, ${h}, ${a})`, { now: after });
  }
  const [before] = await sql<{ active: number; eliminated: number }[]>`
    select count(*) filter (where status = 'active')::int as active, count(*) filter (where status = 'eliminated')::int as eliminated
      from public.user_selections where league = ${league}`;
  console.log(`before the correction: ${before.active.toLocaleString("en")} still in, ${before.eliminated.toLocaleString("en")} out`);
  const first = fixtures[0].id;

  // the correction's steps one by one (the same SQL private.apply_fixture_result runs), rolled back afterwards
  const steps: Record<string, number> = {};
  await sql
    .begin(async (tx) => {
      await tx`select set_config('app.now', ${after.toISOString()}, true)`;
      await tx`select private.lock_competitions_of(${league}, ${season})`;
      [steps.snapshot] = await timed(() => tx`select private.snapshot_result_outcomes(${league}, ${season}, 1, ${first}::bigint)`);
      [steps.reprocess] = await timed(async () => {
        await tx`update public.fixtures set home_score = 0, away_score = 1, result = 'away_win' where id = ${first}`;
        await tx`select private.after_fixture_change(${league}, ${season}, 1, true)`;
      });
      [steps.notices] = await timed(async () => {
        const [{ id }] = await tx<{ id: string }[]>`
          insert into public.fixture_result_changes (fixture_id, source, old_status, old_home_score, old_away_score,
                                                     new_status, new_home_score, new_away_score, reason, is_correction)
          values (${first}, 'admin', 'complete', 1, 0, 'complete', 0, 1, 'bench', true) returning id`;
        await tx`select private.notify_result_correction(${id})`;
      });
      throw new Error("rollback");
    })
    .catch((error: Error) => {
      if (error.message !== "rollback") throw error;
    });
  console.log(
    `correction steps: snapshot ${s(steps.snapshot)}, re-process ${s(steps.reprocess)} (eliminations and re-instatements), ` +
      `notices ${s(steps.notices)}`,
  );

  const [totalMs] = await timed(() =>
    asUser(sql, admin, (tx) => tx`select public.save_fixture_result(${first}, 0, 1, 'Bench: the goal was the away side''s')`, {
      now: after,
    }),
  );
  const [made] = await sql<{ notices: number; deliveries: number; active: number; eliminated: number }[]>`
    select (select count(*)::int from public.notices) as notices,
           (select count(*)::int from private.push_deliveries where kind = 'notice') as deliveries,
           (select count(*) filter (where status = 'active')::int from public.user_selections where league = ${league}) as active,
           (select count(*) filter (where status = 'eliminated')::int from public.user_selections where league = ${league}) as eliminated`;
  console.log(
    `correction as an admin makes it (save_fixture_result, committed): ${s(totalMs)}; ${made.notices.toLocaleString("en")} notices, ` +
      `${made.deliveries.toLocaleString("en")} push deliveries; now ${made.active.toLocaleString("en")} still in, ` +
      `${made.eliminated.toLocaleString("en")} out`,
  );
}

async function main() {
  const server = await startPostgres();
  const url = await createTestDatabase(server.url);
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
    console.log(`bench-feed on ${server.kind}`);
    if (SKIP !== "import") await benchImport(sql);
    if (SKIP !== "correction") await benchCorrection(sql);
  } finally {
    await sql.end({ timeout: 5 });
    await server.stop();
  }
}

void main();
