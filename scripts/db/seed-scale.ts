/**
 * Scales the demo data up for benchmarks: extra players and competitions on the demo league, with
 * memberships, so list and dashboard pages are measured at a realistic size. Set-based SQL only.
 */
import type postgres from "postgres";

export interface ScaleOptions {
  players: number;
  competitions: number;
  /** Memberships per extra player. */
  perPlayer: number;
  /** Competitions the demo player (player@footycoach.test) joins. */
  demoPlayerJoins: number;
}

export async function seedScale(sql: postgres.Sql, opts: ScaleOptions): Promise<void> {
  await sql.begin(async (tx) => {
    const [{ hash }] = await tx<
      { hash: string }[]
    >`select password_hash as hash from account.accounts where email = 'player@footycoach.test'`;
    await tx`
      insert into account.accounts (email, password_hash)
      select 'bench' || g || '@footycoach.test', ${hash} from generate_series(1, ${opts.players}) g`;
    await tx`
      insert into public.profiles (id, email, username, date_of_birth, gender, time_zone)
      select a.id, a.email, 'bench_' || split_part(split_part(a.email, '@', 1), 'bench', 2), date '1990-01-01', 'prefer-not-to-say', 'Europe/London'
        from account.accounts a where a.email like 'bench%@footycoach.test'`;
    // Competitions spread over the open current match day and the match days around it.
    await tx`
      insert into public.competitions (name, type, league, season, start_date, start_match_day, current_match_day,
                                       registration_status, visibility, created_by)
      select 'Bench ' || case when g % 2 = 0 then 'Season ' else 'Knockout ' end || g,
             case when g % 2 = 0 then 'season' else 'knockout' end,
             'Premier League', '2025/26', current_date + (g % 20), cm.md, cm.md,
             'open', case when g % 10 = 0 then 'private' else 'public' end, null
        from generate_series(1, ${opts.competitions}) g
       cross join (select max(current_match_day) as md from public.competitions where type <> 'scout') cm`;
    await tx`
      insert into public.user_selections (user_id, competition_id, league, season, match_day)
      select p.id, c.id, c.league, c.season, c.current_match_day
        from (select id, row_number() over (order by id) as n from public.profiles where username like 'bench\\_%') p
        join lateral (
          select id, league, season, current_match_day from (
            select id, league, season, current_match_day, row_number() over (order by id) as k
              from public.competitions where name like 'Bench %') cc
           where (cc.k + p.n) % ${Math.max(1, Math.floor(opts.competitions / opts.perPlayer))} = 0
           limit ${opts.perPlayer}) c on true
      on conflict do nothing`;
    await tx`
      insert into public.user_selections (user_id, competition_id, league, season, match_day)
      select a.id, c.id, c.league, c.season, c.current_match_day
        from account.accounts a
        cross join (select id, league, season, current_match_day from public.competitions
                     where name like 'Bench %' order by name limit ${opts.demoPlayerJoins}) c
       where a.email = 'player@footycoach.test'
      on conflict do nothing`;
  });
  await sql`analyze`;
}
