-- One home for the knockout roll-over count ("N still in if it ends now"): private.knockout_still_in_now, next to
-- knockout_outcome_now; private.if_it_ended_now and private.ensure_live_table wrote the same CASE each.

-- How many players would still be in if the match day ended now: those not out, or all of them on a roll-over
-- (every remaining player out: nobody is; process_competition's rule, as in knockout_outcome_now). No SET clause
-- so the planner inlines it.
create function private.knockout_still_in_now(p_out_count integer, p_remaining integer) returns integer
  language sql immutable
as $$
  select case when p_out_count = p_remaining then p_remaining else p_remaining - p_out_count end
$$;
revoke all on function private.knockout_still_in_now(integer, integer) from public, anon;
grant execute on function private.knockout_still_in_now(integer, integer) to authenticated, service_role;

create or replace function private.if_it_ended_now(p_competition_id uuid default null)
  returns table (competition_id uuid, competition_type text, league text, season text, match_day integer,
                 in_play boolean, team text, opponent text, team_goals integer, opponent_goals integer,
                 fixture_state text, outcome text, points integer, still_in integer, remaining integer)
  language sql stable security definer
  set search_path = ''
as $$
  with c as (
    select c.id, c.type, c.league, c.season, c.current_match_day as md, me.status as my_status,
           exists (select 1 from public.fixtures f
                    where f.league = c.league and f.season = c.season and f.match_day = c.current_match_day
                      and (f.live_status is not null or f.status = 'complete')) as in_play
      from public.competitions c
      join public.user_selections me on me.competition_id = c.id and me.user_id = (select auth.uid())
     where (p_competition_id is null or c.id = p_competition_id)
       and c.status = 'active' and c.type in ('knockout', 'season')
       and public.matchday_deadline_passed(c.league, c.season, c.current_match_day)
       and not exists (select 1 from public.competition_matchday_results r
                        where r.competition_id = c.id and r.match_day = c.current_match_day)
  ),
  -- the caller's own pick
  p as (
    select c.id as competition_id, ts.selected_team as team, f as fx, private.pick_outcome_now(ts.selected_team, f) as o
      from c
      left join public.team_selections ts
        on ts.competition_id = c.id and ts.user_id = (select auth.uid()) and ts.match_day = c.md
      left join public.fixtures f on f.id = ts.fixture_id
  ),
  -- knockout: every player still in and how many would go out; an outcome belongs to a (fixture, team), so it is
  -- read once per team picked, not once per player (private.knockout_counts_now)
  k as (
    select c.id as competition_id, n.out_count, n.remaining
      from c cross join lateral private.knockout_counts_now(c.id, c.md) n
     where c.type = 'knockout'
  )
  select c.id, c.type, c.league, c.season, c.md, c.in_play, p.team,
         case when p.team = (p.fx).home_team then (p.fx).away_team else (p.fx).home_team end,
         case when (p.fx).status = 'complete' then
                case when p.team = (p.fx).home_team then (p.fx).home_score else (p.fx).away_score end
              else case when p.team = (p.fx).home_team then (p.fx).live_home_score else (p.fx).live_away_score end end,
         case when (p.fx).status = 'complete' then
                case when p.team = (p.fx).home_team then (p.fx).away_score else (p.fx).home_score end
              else case when p.team = (p.fx).home_team then (p.fx).live_away_score else (p.fx).live_home_score end end,
         case when p.team is null then null
              when (p.fx).status in ('complete', 'postponed') then (p.fx).status
              when (p.fx).live_status = 'IN_PLAY' then 'in_play'
              when (p.fx).live_status = 'PAUSED' then 'paused'
              else 'not_started' end,
         case when c.type = 'season' then p.o
              when c.my_status <> 'active' then 'not_playing'
              else private.knockout_outcome_now(p.o, k.out_count, k.remaining) end,
         case when c.type = 'season' then private.season_points_now(p.o) end,
         case when c.type = 'knockout' then
                private.knockout_still_in_now(k.out_count, k.remaining) end,
         case when c.type = 'knockout' then k.remaining end
    from c
    join p on p.competition_id = c.id
    left join k on k.competition_id = c.id
$$;

create or replace function private.ensure_live_table(p_competition_id uuid) returns void
  language plpgsql
  security definer
  set search_path = ''
  set work_mem = '64MB'  -- the whole competition (100,000 rows) is hashed and sorted in memory, not on disk
as $$
declare
  v_type text;
  v_league text;
  v_season text;
  v_md integer;
  v_version bigint;
begin
  select c.type, c.league, c.season, c.current_match_day into v_type, v_league, v_season, v_md
    from public.competitions c where c.id = p_competition_id;
  if v_type is null or v_type not in ('knockout', 'season') then
    return;
  end if;
  v_version := private.live_version(v_league, v_season, v_md);
  if exists (select 1 from private.live_table_cache k
              where k.competition_id = p_competition_id and k.match_day = v_md and k.version = v_version) then
    return;
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('live_table:' || p_competition_id::text, 0));
  -- a new statement, a new snapshot: what another reader stored while this one waited; the version is read before
  -- the rows, so rows stored under it are never older than it
  v_version := private.live_version(v_league, v_season, v_md);
  if exists (select 1 from private.live_table_cache k
              where k.competition_id = p_competition_id and k.match_day = v_md and k.version = v_version) then
    return;
  end if;
  delete from private.live_knockout_rows r where r.competition_id = p_competition_id;
  delete from private.live_season_rows r where r.competition_id = p_competition_id;
  if v_type = 'knockout' then
    insert into private.live_knockout_rows (competition_id, "position", user_id, knocked_out_on, team, team_goals,
                                            opponent_goals, fixture_state, outcome, still_in, remaining)
    with o as (select o.* from private.match_day_outcomes_now(v_league, v_season, v_md) o),
    p as (
      select us.user_id, us.status, us.knocked_out_on, us.sort_name, ts.selected_team as team, ts.fixture_id,
             case when us.status <> 'active' then null
                  when ts.selected_team is null then 'no_pick'
                  else coalesce(o.outcome, 'not_started') end as o
        from public.user_selections us
        left join public.team_selections ts
          on ts.competition_id = us.competition_id and ts.user_id = us.user_id and ts.match_day = v_md
         and us.status = 'active'
        left join o on o.fixture_id = ts.fixture_id and o.team = ts.selected_team
       where us.competition_id = p_competition_id
    ),
    k as (
      select count(*) filter (where p.o in ('draw', 'loss', 'no_pick'))::integer as out_count,
             count(*) filter (where p.status = 'active')::integer as remaining
        from p
    ),
    r as (
      select p.*, case when p.status = 'active' then private.knockout_outcome_now(p.o, k.out_count, k.remaining)
                       else 'eliminated' end as outcome,
             k.out_count, k.remaining
        from p cross join k
    ),
    -- the order processing would give: still in (alphabetical), then out now, then out before (latest first)
    n as (
      select r.*, pg_catalog.row_number() over (
               order by r.outcome in ('out', 'eliminated'),
                        case when r.outcome = 'out' then 2147483647 else r.knocked_out_on end desc nulls first,
                        r.sort_name, r.user_id) as n
        from r
    )
    select p_competition_id, g.n, g.user_id,
           case when g.outcome = 'out' then v_md else g.knocked_out_on end,
           g.team, o.team_goals, o.opponent_goals, o.fixture_state, g.outcome,
           private.knockout_still_in_now(g.out_count, g.remaining),
           g.remaining
      from n g
      left join o on o.fixture_id = g.fixture_id and o.team = g.team;
  else
    insert into private.live_season_rows (competition_id, "position", user_id, team, team_goals, opponent_goals,
                                          fixture_state, live_points, points, goal_difference, goals_for, wins,
                                          draws, losses, rank)
    with o as (select o.* from private.match_day_outcomes_now(v_league, v_season, v_md) o),
    p as (
      select us.user_id, us.sort_name, us.points, us.goal_difference, us.goals_for, us.wins, us.draws, us.losses,
             ts.selected_team as team, ts.fixture_id, o.outcome as o_all, o.fixture_state,
             -- a complete match is already in the stored standings: only a match in play adds to them
             case when o.fixture_state in ('in_play', 'paused') then o.outcome end as o,
             o.team_goals as gf, o.opponent_goals as ga
        from public.user_selections us
        left join public.team_selections ts
          on ts.competition_id = us.competition_id and ts.user_id = us.user_id and ts.match_day = v_md
        left join o on o.fixture_id = ts.fixture_id and o.team = ts.selected_team
       where us.competition_id = p_competition_id
    ),
    n as (
      select p.*,
             p.points + coalesce(private.season_points_now(p.o), 0) as points_now,
             p.goal_difference + case when p.o is null then 0 else p.gf - p.ga end as gd_now,
             p.goals_for + case when p.o is null then 0 else p.gf end as gf_now,
             p.wins + (p.o = 'win')::integer as wins_now
        from p
    ),
    -- the season's order (points, goal difference, goals for, wins; equal on all four share a rank), then name
    g as (
      select n.*,
             pg_catalog.rank() over (order by n.points_now desc, n.gd_now desc, n.gf_now desc, n.wins_now desc) as rank_now,
             pg_catalog.row_number() over (order by n.points_now desc, n.gd_now desc, n.gf_now desc, n.wins_now desc,
                                                    n.sort_name, n.user_id) as pos
        from n
    )
    select p_competition_id, g.pos, g.user_id, g.team, g.gf, g.ga, g.fixture_state,
           private.season_points_now(case when g.fixture_state in ('complete', 'in_play', 'paused') then g.o_all end),
           g.points_now, g.gd_now, g.gf_now, g.wins_now,
           g.draws + (g.o = 'draw')::integer, g.losses + (g.o = 'loss')::integer, g.rank_now
      from g;
  end if;
  insert into private.live_table_cache (competition_id, match_day, version)
  values (p_competition_id, v_md, v_version)
  on conflict (competition_id) do update set match_day = excluded.match_day, version = excluded.version;
end
$$;
