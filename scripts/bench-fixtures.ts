import type postgres from "postgres";

/**
 * A benchmark league's season: 38 match days of 10 fixtures among 20 teams (an hour apart, a week between match
 * days, from 2026-08-01 14:00Z), every match day before `currentMatchDay` played with a result derived from the id.
 * Shared by bench:results and bench:live-projection.
 */
export async function insertPlayedSeason(sql: postgres.Sql, league: string, season: string, currentMatchDay: number) {
  await sql`
    insert into public.fixtures (league, season, match_day, kickoff_time, home_team, away_team)
    select ${league}, ${season}, d, timestamptz '2026-08-01 14:00Z' + (d - 1) * interval '7 days' + k * interval '1 hour',
           'Team ' || lpad((((k * 2 + d) % 20) + 1)::text, 2, '0'),
           'Team ' || lpad((((k * 2 + 1 + d) % 20) + 1)::text, 2, '0')
      from generate_series(1, 38) d, generate_series(0, 9) k`;
  await sql`
    update public.fixtures
       set home_score = (id * 7) % 4, away_score = (id * 3) % 3,
           result = case when (id * 7) % 4 > (id * 3) % 3 then 'home_win'
                         when (id * 7) % 4 < (id * 3) % 3 then 'away_win' else 'draw' end,
           status = 'complete'
     where league = ${league} and match_day < ${currentMatchDay}`;
}
