/**
 * `npm run bench:live-projection` (tsx scripts/bench-live-projection.ts): the live match day's projection
 * ("if it ended now", decision 022) at scale, on a throwaway PostgreSQL (tests/support/pg.ts) with the real
 * migrations.
 *
 * Setup (set-based, as scripts/bench-results.ts): BENCH_PLAYERS players (default 100,000); a knockout and a season
 * competition of all of them in two leagues (38 match days of 10 fixtures; match days 1-4 played, current match
 * day 5; 40% of the knockout already out; season standings and ranks stored), picks for match day 5 (1 in 25
 * without one); a Scout competition on the season's league with one entry per player on match day 5 and a
 * prediction for each of its 10 fixtures (1,000,000 predictions). The clock is match day 5 at 17:30: deadline
 * passed, four matches kicked off and in play with a live score.
 *
 * Measured, as a member under row-level security: the database's own time of each call (EXPLAIN ANALYZE's
 * Execution Time, planning excluded: the statements are the pages' own), p50 and p95 over BENCH_RUNS (default
 * 20): public.if_it_ended_now (one competition, and all of the player's: the dashboard), the provisional tables
 * (public.live_knockout_table, public.live_season_table, page 1 and page 5,000), public.match_day_pick_shares,
 * public.knockout_route and public.live_scout_board (top 100 and the player's entries).
 * The provisional tables and the Scout board are cached per live version (decision 025): each is measured after a
 * score change before every call (the call computes and stores) and repeated without a change (the stored rows).
 *
 * Env: BENCH_PLAYERS, BENCH_RUNS, BENCH_EXPLAIN=1 (print the plan of each call's last run).
 */
import postgres from "postgres";
import { asUser, connect, createTestDatabase, startPostgres } from "../tests/support/pg";
import { insertPlayedSeason } from "./bench-fixtures";

const N = Number(process.env.BENCH_PLAYERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const EXPLAIN = process.env.BENCH_EXPLAIN === "1";
const SEASON = "2025/26";
const CURRENT = 5;
const KO_LEAGUE = "Bench Knockout League";
const SEASON_LEAGUE = "Bench Season League";
const HASH = "$2a$10$CwTycUXWue0Thq9StjUM0uJ8.X7VQ7Jp3zY1sQ1sFQ1sFQ1sFQ1sF"; // never used to log in
/** Match day 5's first kickoff is 2026-08-29 14:00Z (one an hour after it): at 17:30 four matches are in play. */
const NOW = new Date("2026-08-29T17:30:00Z");

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (t: number) => `${t.toFixed(1)} ms`;

async function fixtures(sql: postgres.Sql, league: string) {
  await insertPlayedSeason(sql, league, SEASON, CURRENT);
  // the first four matches of match day 5 are in play
  await sql`
    update public.fixtures f
       set live_status = 'IN_PLAY', live_home_score = (f.id % 3)::int, live_away_score = (f.id % 2)::int
      from (select id from public.fixtures where league = ${league} and match_day = ${CURRENT}
             order by kickoff_time limit 4) x
     where f.id = x.id`;
}

async function setup(sql: postgres.Sql) {
  await fixtures(sql, KO_LEAGUE);
  await fixtures(sql, SEASON_LEAGUE);
  await sql`
    insert into account.accounts (id, email, password_hash)
    select gen_random_uuid(), 'bench' || i || '@example.test', ${HASH} from generate_series(1, ${N}) i`;
  await sql`
    insert into public.profiles (id, username, date_of_birth, gender)
    select a.id, 'p' || lpad(substr(a.email, 6, position('@' in a.email) - 6), 6, '0'), '1990-01-01', 'male'
      from account.accounts a where a.email like 'bench%'`;
  const comp = async (league: string, type: string) =>
    (
      await sql<{ id: string }[]>`
        insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day,
                                         registration_status)
        values (${`Bench ${type}`}, ${type}, ${league}, ${SEASON}, '2026-07-30', 1, ${CURRENT}, 'closed') returning id`
    )[0].id;
  const ko = await comp(KO_LEAGUE, "knockout");
  const se = await comp(SEASON_LEAGUE, "season");
  const scout = await comp(SEASON_LEAGUE, "scout");
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    for (const [c, league, type] of [
      [ko, KO_LEAGUE, "knockout"],
      [se, SEASON_LEAGUE, "season"],
    ]) {
      await tx`
        insert into public.user_selections (user_id, competition_id, league, season, match_day, status, knocked_out_on, sort_name)
        select p.id, ${c}, ${league}, ${SEASON}, 1,
               case when ${type} = 'knockout' and n % 10 < 4 then 'eliminated' else 'active' end,
               case when ${type} = 'knockout' and n % 10 < 4 then (n % 4) + 1 end,
               lower(p.username)
          from (select p.*, row_number() over (order by p.id) as n
                  from public.profiles p where p.username like 'p%') p`;
      await tx`update public.competitions set player_count = ${N} where id = ${c}`;
      // every active member picks on match day 5 (1 in 25 without a pick), season members on every earlier one too;
      // knockout members on match days 1-4 as well (their route), a team of that match day each
      await tx`
        insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction)
        select h.user_id, h.competition_id, f.match_day, f.id,
               case when (h.n / 20) % 2 = 0 then f.home_team else f.away_team end,
               case when (h.n / 20) % 2 = 0 then 'home_win' else 'away_win' end
          from (select us.user_id, us.competition_id, us.status, row_number() over (order by us.user_id) as n
                  from public.user_selections us where us.competition_id = ${c}) h
          join public.matchdays m on m.league = ${league} and m.season = ${SEASON} and m.match_day <= ${CURRENT}
          join public.fixtures f
            on f.league = m.league and f.season = m.season and f.match_day = m.match_day
           and f.kickoff_time = m.first_kickoff_time + ((h.n + m.match_day) % 10) * interval '1 hour'
         where (h.status = 'active' or m.match_day < ${CURRENT}) and (m.match_day < ${CURRENT} or h.n % 25 <> 0)
        on conflict do nothing`;
    }
    await tx`
      insert into public.scout_entries (competition_id, user_id, match_day, league, season, entry_index, total_points, exact_count, created_at)
      select ${scout}, p.id, ${CURRENT}, ${SEASON_LEAGUE}, ${SEASON}, 0, 0, 0,
             timestamptz '2026-08-28 10:00Z' + (p.n % 86400) * interval '1 second'
        from (select id, row_number() over (order by id) as n from public.profiles where username like 'p%') p`;
    await tx`
      insert into public.scout_predictions (scout_entry_id, fixture_id, home_goals, away_goals)
      select e.id, f.id, (hashtext(e.id::text || f.id) & 7) % 4, (hashtext(f.id || e.id::text) & 7) % 3
        from public.scout_entries e
        join public.fixtures f on f.league = e.league and f.season = e.season and f.match_day = e.match_day
       where e.competition_id = ${scout}`;
  });
  await sql`
    update public.user_selections us
       set wins = s.w, draws = s.d, losses = s.l, goals_for = s.gf, goals_against = s.ga, points = 3 * s.w + s.d
      from (
        select r.user_id, r.competition_id,
               count(*) filter (where r.gf > r.ga)::int as w, count(*) filter (where r.gf = r.ga)::int as d,
               count(*) filter (where r.gf < r.ga)::int as l, sum(r.gf)::int as gf, sum(r.ga)::int as ga
          from (select ts.user_id, ts.competition_id,
                       case when ts.selected_team = f.home_team then f.home_score else f.away_score end as gf,
                       case when ts.selected_team = f.home_team then f.away_score else f.home_score end as ga
                  from public.team_selections ts join public.fixtures f on f.id = ts.fixture_id
                 where f.status = 'complete' and ts.competition_id = ${se}) r
         group by r.user_id, r.competition_id) s
     where us.user_id = s.user_id and us.competition_id = s.competition_id`;
  await sql`select private.rerank_competition(${se})`;
  await sql`vacuum analyze`;
  return { ko, se, scout };
}

async function main() {
  const server = await startPostgres();
  const url = await createTestDatabase(server.url);
  const sql = connect(url, { max: 2 });
  try {
    console.log(`bench-live-projection: ${N.toLocaleString("en")} players per competition, ${RUNS} runs per call`);
    const t0 = performance.now();
    const { ko, se } = await setup(sql);
    console.log(`setup: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    // a player active in the knockout (so a member of both)
    const [{ player }] = await sql<{ player: string }[]>`
      select user_id as player from public.user_selections where competition_id = ${ko} and status = 'active'
       order by sort_name offset 777 limit 1`;

    // The provisional tables are cached per live version (decision 025): measured twice, "after a change" (a live
    // score of the competition's league changes before every call: the call computes and stores the table) and
    // "repeated" (no change between calls: the stored table is read).
    const cachedIn: Record<string, string> = {
      "live_knockout_table page 1": KO_LEAGUE,
      "live_knockout_table page 5,000": KO_LEAGUE,
      "live_season_table page 1": SEASON_LEAGUE,
      "live_season_table page 5,000": SEASON_LEAGUE,
      "live_scout_board (top 100 + own)": SEASON_LEAGUE,
    };
    let goals = 0;
    const scoreChange = async (league: string) => {
      goals = (goals + 1) % 4;
      await sql`
        update public.fixtures set live_home_score = ${goals}
         where id = (select id from public.fixtures where league = ${league} and match_day = ${CURRENT}
                        and live_status is not null order by kickoff_time limit 1)`;
    };
    const calls: [string, string, unknown[]][] = [
      ["if_it_ended_now (knockout)", "select * from public.if_it_ended_now($1::uuid)", [ko]],
      ["if_it_ended_now (season)", "select * from public.if_it_ended_now($1::uuid)", [se]],
      ["if_it_ended_now (all: the dashboard)", "select * from public.if_it_ended_now(null)", []],
      ["live_knockout_table page 1", "select * from public.live_knockout_table($1, 0, 10)", [ko]],
      ["live_knockout_table page 5,000", "select * from public.live_knockout_table($1, 49990, 10)", [ko]],
      ["live_season_table page 1", "select * from public.live_season_table($1, 0, 10)", [se]],
      ["live_season_table page 5,000", "select * from public.live_season_table($1, 49990, 10)", [se]],
      ["match_day_pick_shares (knockout)", "select * from public.match_day_pick_shares($1)", [ko]],
      ["match_day_pick_shares (season)", "select * from public.match_day_pick_shares($1)", [se]],
      ["knockout_route (own)", "select * from public.knockout_route($1, $2)", [ko, player]],
      ["live_scout_board (top 100 + own)", "select * from public.live_scout_board($1, $2, $3, 100)", [SEASON_LEAGUE, SEASON, CURRENT]],
    ];
    const series = calls.flatMap(([name, query, params]) =>
      cachedIn[name]
        ? [
            { name: `${name}, after a score change`, query, params, change: cachedIn[name] },
            { name: `${name}, repeated`, query, params, change: null },
          ]
        : [{ name, query, params, change: null }],
    );
    for (const { name, query, params, change } of series) {
      const times: number[] = [];
      let rows = 0;
      let plan = "";
      for (let i = 0; i < RUNS; i++) {
        if (change) await scoreChange(change);
        const out = await asUser(
          sql,
          player,
          async (tx) => {
            const [r] = await tx.unsafe(`explain (analyze, format json) ${query}`, params as postgres.ParameterOrJSON<never>[]);
            const p = (r as unknown as { "QUERY PLAN": { "Execution Time": number; Plan: { "Actual Rows": number } }[] })["QUERY PLAN"][0];
            if (EXPLAIN && i === RUNS - 1) {
              plan = (await tx.unsafe(`explain (analyze, buffers) ${query}`, params as postgres.ParameterOrJSON<never>[]))
                .map((x) => (x as Record<string, string>)["QUERY PLAN"])
                .join("\n");
            }
            return p;
          },
          { now: NOW },
        );
        times.push(out["Execution Time"]);
        rows = out.Plan["Actual Rows"];
      }
      console.log(`${name}: p50 ${ms(pct(times, 0.5))}, p95 ${ms(pct(times, 0.95))} (${rows} rows)`);
      if (plan) console.log(plan);
    }
  } finally {
    await sql.end({ timeout: 5 });
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
