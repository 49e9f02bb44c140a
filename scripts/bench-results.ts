/**
 * `npm run bench:results` (tsx scripts/bench-results.ts): result entry and leaderboard pages at scale.
 *
 * On a throwaway PostgreSQL (tests/support/pg.ts) it builds, with set-based inserts, 100,000 players (one shared
 * password hash), a knockout and a season competition of 100,000 members each in two leagues (38 match days of
 * 10 fixtures; match days 1-4 played, current match day 5), 40% of the knockout already out, past picks and
 * stored standings for the season, and picks for match day 5. Then it enters match day 5's results as an admin
 * through public.save_fixture_result and times the last one (which processes the match day), and times page 1
 * and page 5,000 (10 rows) of both leaderboards (public.knockout_leaderboard_page / season_leaderboard_page,
 * read as a player under RLS), p50 over 20 runs. Targets: processing <= 5 s, pages p50 <= 50 ms.
 * A third competition (scripts/bench-lives.ts, issue 32): a knockout with 3 lives and auto-pick where a third of
 * the members miss the pick: the deadline's auto-pick and the match day's processing, processing <= 5 s.
 *
 * Env: BENCH_PLAYERS (default 100000), BENCH_RUNS (default 20), BENCH_ONLY=knockout|season|lives (one competition),
 * BENCH_EXPLAIN=<ms> (print auto_explain plans of statements slower than that, nested ones included).
 */
import postgres from "postgres";
import { asUser, connect, createTestDatabase, startPostgres } from "../tests/support/pg";
import { insertPlayedSeason } from "./bench-fixtures";
import { benchLivesKnockout, setUpLivesKnockout } from "./bench-lives";

const N = Number(process.env.BENCH_PLAYERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const ONLY = process.env.BENCH_ONLY;
const EXPLAIN = process.env.BENCH_EXPLAIN;
const SEASON = "2025/26";
const CURRENT = 5;
const HASH = "$2a$10$CwTycUXWue0Thq9StjUM0uJ8.X7VQ7Jp3zY1sQ1sFQ1sFQ1sFQ1sF"; // never used to log in

const ms = (t: number) => `${t.toFixed(1)} ms`;
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
}

function fixtures(sql: postgres.Sql, league: string) {
  // Round robin-ish: match day d pairs team i with team (i + d) mod 20; match days before the current one are played.
  return insertPlayedSeason(sql, league, SEASON, CURRENT);
}

async function competition(sql: postgres.Sql, league: string, type: "knockout" | "season"): Promise<string> {
  const [{ id }] = await sql<{ id: string }[]>`
    insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day,
                                     registration_status)
    values (${`Bench ${type}`}, ${type}, ${league}, ${SEASON}, '2026-07-30', 1, ${CURRENT}, 'closed')
    returning id`;
  return id;
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
  let livesId: string | null = null;
  try {
    console.log(`bench-results: ${N.toLocaleString("en")} players per competition`);
    const [setupMs] = await timed(async () => {
      await fixtures(sql, "Bench Knockout League");
      await fixtures(sql, "Bench Season League");
      await sql`
        insert into account.accounts (id, email, password_hash)
        select gen_random_uuid(), 'bench' || i || '@example.test', ${HASH} from generate_series(1, ${N}) i`;
      await sql`
        insert into public.profiles (id, username, date_of_birth, gender)
        select a.id, 'p' || lpad(substr(a.email, 6, position('@' in a.email) - 6), 6, '0'), '1990-01-01', 'male'
          from account.accounts a where a.email like 'bench%'`;
      await sql`insert into account.accounts (email, password_hash) values ('benchadmin@example.test', ${HASH})`;
      await sql`insert into public.profiles (id, username, date_of_birth, gender, role)
                select id, 'benchadmin', '1990-01-01', 'male', 'admin' from account.accounts
                 where email = 'benchadmin@example.test'`;

      const ko = await competition(sql, "Bench Knockout League", "knockout");
      const se = await competition(sql, "Bench Season League", "season");
      // Memberships and picks in bulk with row triggers off (session_replication_role = replica), then the
      // derived columns the triggers would have kept (sort_name, player_count, stats, ranks) set in bulk.
      await sql.begin(async (tx) => {
        await tx`set local session_replication_role = replica`;
        const all = [
          [ko, "Bench Knockout League", "knockout"],
          [se, "Bench Season League", "season"],
        ];
        for (const [comp, league, type] of all.filter(([, , t]) => !ONLY || t === ONLY)) {
          await tx`
            insert into public.user_selections (user_id, competition_id, league, season, match_day, status,
                                                knocked_out_on, sort_name)
            select p.id, ${comp}, ${league}, ${SEASON}, 1,
                   case when ${type} = 'knockout' and n % 10 < 4 then 'eliminated' else 'active' end,
                   case when ${type} = 'knockout' and n % 10 < 4 then (n % 4) + 1 end,
                   lower(p.username)
              from (select p.*, row_number() over (order by p.id) as n
                      from public.profiles p where p.role = 'player' and p.username like 'p%') p`;
          await tx`update public.competitions set player_count = ${N} where id = ${comp}`;
          // Picks: every active member on the current match day (1 in 25 without a pick); season members also
          // on every earlier match day.
          await tx`
            insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction)
            select h.user_id, h.competition_id, f.match_day, f.id,
                   case when (h.n / 20) % 2 = 0 then f.home_team else f.away_team end,
                   case when (h.n / 20) % 2 = 0 then 'home_win' else 'away_win' end
              from (select us.user_id, us.competition_id, us.status, row_number() over (order by us.user_id) as n
                      from public.user_selections us where us.competition_id = ${comp}) h
              join public.matchdays m
                on m.league = ${league} and m.season = ${SEASON}
               and (m.match_day = ${CURRENT} or (${type} = 'season' and m.match_day < ${CURRENT}))
              join public.fixtures f
                on f.league = m.league and f.season = m.season and f.match_day = m.match_day
               and f.kickoff_time = m.first_kickoff_time + ((h.n + m.match_day) % 10) * interval '1 hour'
             where h.status = 'active' and (m.match_day < ${CURRENT} or h.n % 25 <> 0)`;
        }
      });
      if (!ONLY || ONLY === "lives") livesId = await setUpLivesKnockout(sql, SEASON, CURRENT);
      // Stored standings and ranks, set-based (as private.refresh_membership_stats would compute them).
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
                     where f.status = 'complete') r
             group by r.user_id, r.competition_id) s
         where us.user_id = s.user_id and us.competition_id = s.competition_id`;
      await sql`select private.rerank_competition(${ko}), private.rerank_competition(${se})`;
      await sql`vacuum analyze`;
    });
    console.log(`setup: ${(setupMs / 1000).toFixed(1)} s`);

    const [{ admin }] = await sql<{ admin: string }[]>`select id as admin from public.profiles where username = 'benchadmin'`;
    if (livesId) await benchLivesKnockout(sql, admin, livesId, CURRENT);
    const [{ player }] = await sql<{ player: string }[]>`select id as player from public.profiles where username = 'p000077'`;
    const comps = await sql<{ id: string; type: string; league: string }[]>`
      select id, type, league from public.competitions
       where name like 'Bench %' and (${ONLY ?? null}::text is null or type = ${ONLY ?? null}) order by type`;

    for (const c of comps) {
      const fixtureIds = await sql<{ id: string }[]>`
        select id from public.fixtures where league = ${c.league} and match_day = ${CURRENT} order by kickoff_time`;
      const save = (id: string, h: number, a: number) =>
        asUser(sql, admin, (tx) => tx`select public.save_fixture_result(${id}, ${h}, ${a})`);
      const each: number[] = [];
      for (const [i, f] of fixtureIds.slice(0, -1).entries()) {
        const [t] = await timed(() => save(f.id, i % 3, (i + 1) % 2));
        each.push(t);
      }
      const [lastMs] = await timed(() => save(fixtureIds[fixtureIds.length - 1].id, 2, 1));
      const [row] = await sql`
        select current_match_day, status,
               (select count(*) from public.user_selections us where us.competition_id = c.id and us.status = 'eliminated')::int as eliminated
          from public.competitions c where c.id = ${c.id}`;
      console.log(
        `${c.type}: result entry (no processing) p50 ${ms(p50(each))}; LAST result + processing ${ms(lastMs)}` +
          ` -> current_match_day ${row.current_match_day}, ${row.status}` +
          (c.type === "knockout" ? `, eliminated ${Number(row.eliminated).toLocaleString("en")}` : ""),
      );
    }

    // Pages right after processing (dead index entries and heap pages not yet all-visible), then as they are
    // once autovacuum has passed (VACUUM ANALYZE of the two tables).
    for (const phase of ["right after processing", "after vacuum"]) {
      if (phase === "after vacuum") await sql`vacuum analyze public.user_selections, public.membership_ranks`;
      else await sql`analyze`;
      console.log(`-- leaderboards, ${phase}`);
      for (const c of comps) {
        const fn = c.type === "knockout" ? "knockout_leaderboard_page" : "season_leaderboard_page";
        for (const page of [1, 5000]) {
          const times: number[] = [];
          let rows = 0;
          for (let i = 0; i < RUNS; i++) {
            const [t, r] = await timed(() =>
              asUser(sql, player, (tx) => tx.unsafe(`select * from public.${fn}($1, $2, 10)`, [c.id, (page - 1) * 10])),
            );
            times.push(t);
            rows = r.length;
          }
          console.log(
            `${c.type} leaderboard page ${page}: p50 ${ms(p50(times))} (${rows} rows, ${RUNS} runs, incl. transaction round trips)`,
          );
        }
        const posFn = c.type === "knockout" ? "knockout_leaderboard_position" : "season_leaderboard_position";
        const times: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const [t] = await timed(() => asUser(sql, player, (tx) => tx.unsafe(`select public.${posFn}($1, $2)`, [c.id, player])));
          times.push(t);
        }
        console.log(`${c.type} own position (${posFn}): p50 ${ms(p50(times))}`);
      }
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
