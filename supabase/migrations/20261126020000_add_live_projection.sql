-- Live match day, the whole provisional view (decision 022, addendum): the knockout's provisional leaderboard
-- (who would go through, who would be out, roll-over included), the season's provisional table with rank
-- changes, provisional Scout points per entry and the provisional Scout match-day board, and a knockout player's
-- route (teams used, teams still available). One home per rule: the knockout outcome and the season points of a
-- pick "if it ended now" are the small functions below, used by if_it_ended_now and the tables alike; Scout's
-- points are private.scout_points, asked with the live score as if the match had ended.

-- A knockout pick's outcome if the match day ended now, from the pick's outcome (private.pick_outcome_now) and
-- how many of the players still in would go out: process_competition's rules. No SET clause so the planner
-- inlines it (built-in operators only).
create function private.knockout_outcome_now(p_pick_outcome text, p_out_count integer, p_remaining integer) returns text
  language sql immutable
as $$
  select case
    when p_pick_outcome in ('win', 'postponed') then 'through'
    when p_pick_outcome = 'not_started' then 'waiting'
    when p_out_count = p_remaining then 'rolled_over'
    else 'out'
  end
$$;
revoke all on function private.knockout_outcome_now(text, integer, integer) from public, anon;
grant execute on function private.knockout_outcome_now(text, integer, integer) to authenticated, service_role;

-- A season pick's points if it ended now: win 3, draw 1, loss 0; nothing otherwise (no pick, postponed, not started).
create function private.season_points_now(p_pick_outcome text) returns integer
  language sql immutable
as $$
  select case p_pick_outcome when 'win' then 3 when 'draw' then 1 when 'loss' then 0 end
$$;
revoke all on function private.season_points_now(text) from public, anon;
grant execute on function private.season_points_now(text) to authenticated, service_role;

-- Is this competition's current match day being played, so that its provisional view shows? Active, its deadline
-- passed, not processed yet, and one of its fixtures in play or complete (the same test as if_it_ended_now).
create function private.match_day_in_play(p_competition_id uuid) returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (
    select 1 from public.competitions c
     where c.id = p_competition_id and c.status = 'active'
       and public.matchday_deadline_passed(c.league, c.season, c.current_match_day)
       and not exists (select 1 from public.competition_matchday_results r
                        where r.competition_id = c.id and r.match_day = c.current_match_day)
       and exists (select 1 from public.fixtures f
                    where f.league = c.league and f.season = c.season and f.match_day = c.current_match_day
                      and (f.live_status is not null or f.status = 'complete')))
$$;
revoke all on function private.match_day_in_play(uuid) from public, anon;
grant execute on function private.match_day_in_play(uuid) to authenticated, service_role;

-- Each team of a match day's fixtures with its outcome if the match ended now (private.pick_outcome_now) and its
-- score (final, else live): at most two rows per fixture. The provisional views join picks to it on (fixture,
-- team), so the outcome rule runs once per team, not once per player.
create function private.match_day_outcomes_now(p_league text, p_season text, p_match_day integer)
  returns table (fixture_id bigint, team text, outcome text, team_goals integer, opponent_goals integer,
                 fixture_state text)
  language sql stable security definer
  set search_path = ''
as $$
  select f.id, t.team, private.pick_outcome_now(t.team, f),
         case when f.status = 'complete' then case when t.home then f.home_score else f.away_score end
              else case when t.home then f.live_home_score else f.live_away_score end end,
         case when f.status = 'complete' then case when t.home then f.away_score else f.home_score end
              else case when t.home then f.live_away_score else f.live_home_score end end,
         case when f.status in ('complete', 'postponed') then f.status
              when f.live_status = 'IN_PLAY' then 'in_play'
              when f.live_status = 'PAUSED' then 'paused'
              else 'not_started' end
    from public.fixtures f
    cross join lateral (values (f.home_team, true), (f.away_team, false)) t (team, home)
   where f.league = p_league and f.season = p_season and f.match_day = p_match_day
$$;
revoke all on function private.match_day_outcomes_now(text, text, integer) from public, anon, authenticated;
grant execute on function private.match_day_outcomes_now(text, text, integer) to service_role;

-- A knockout match day if it ended now: how many of the players still in would go out (a draw, a loss or no pick)
-- and how many are still in before it.
create function private.knockout_counts_now(p_competition_id uuid, p_match_day integer)
  returns table (out_count integer, remaining integer)
  language sql stable security definer
  set search_path = ''
  set work_mem = '64MB'  -- the whole competition (100,000 rows) is hashed and sorted in memory, not on disk
as $$
  with c as (select c.id, c.league, c.season from public.competitions c where c.id = p_competition_id),
  o as (select o.* from c cross join lateral private.match_day_outcomes_now(c.league, c.season, p_match_day) o)
  select (count(*) filter (where ts.selected_team is null or o.outcome in ('draw', 'loss')))::integer,
         count(*)::integer
    from c
    join public.user_selections us on us.competition_id = c.id and us.status = 'active'
    left join public.team_selections ts
      on ts.competition_id = c.id and ts.user_id = us.user_id and ts.match_day = p_match_day
    left join o on o.fixture_id = ts.fixture_id and o.team = ts.selected_team
$$;
revoke all on function private.knockout_counts_now(uuid, integer) from public, anon, authenticated;
grant execute on function private.knockout_counts_now(uuid, integer) to service_role;

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
                case when k.out_count = k.remaining then k.remaining else k.remaining - k.out_count end end,
         case when c.type = 'knockout' then k.remaining end
    from c
    join p on p.competition_id = c.id
    left join k on k.competition_id = c.id
$$;

-- The knockout's provisional leaderboard if the match day ended now: every member, in the leaderboard's order as
-- it would be after processing: still in (through, waiting for a match not started, or everybody on a
-- roll-over) first, alphabetical; then out on this match day; then the players eliminated before, latest first.
-- Only while the match day is played (private.match_day_in_play) and only to whoever may see its picks (members
-- after the deadline, private.can_see_match_day_picks: the hidden-picks rule); no row otherwise. One page
-- (offset, limit at most 100); still_in / remaining on every row.
create function private.live_knockout_table(p_competition_id uuid, p_offset integer, p_limit integer)
  returns table (user_id uuid, username text, knocked_out_on integer, team text, team_goals integer,
                 opponent_goals integer, fixture_state text, outcome text, "position" integer,
                 still_in integer, remaining integer)
  language sql stable security definer
  set search_path = ''
  set work_mem = '64MB'  -- the whole competition (100,000 rows) is hashed and sorted in memory, not on disk
as $$
  with c as (
    select c.id, c.league, c.season, c.current_match_day as md
      from public.competitions c
     where c.id = p_competition_id and c.type = 'knockout'
       and private.match_day_in_play(c.id)
       and private.can_see_match_day_picks(c.id, c.current_match_day)
  ),
  o as (select o.* from c cross join lateral private.match_day_outcomes_now(c.league, c.season, c.md) o),
  p as (
    select us.user_id, us.status, us.knocked_out_on, us.sort_name, ts.selected_team as team, ts.fixture_id,
           case when us.status <> 'active' then null
                when ts.selected_team is null then 'no_pick'
                else coalesce(o.outcome, 'not_started') end as o
      from c
      join public.user_selections us on us.competition_id = c.id
      left join public.team_selections ts
        on ts.competition_id = c.id and ts.user_id = us.user_id and ts.match_day = c.md and us.status = 'active'
      left join o on o.fixture_id = ts.fixture_id and o.team = ts.selected_team
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
  page as (
    select r.*, pg_catalog.row_number() over (
             order by r.outcome in ('out', 'eliminated'),
                      case when r.outcome = 'out' then 2147483647 else r.knocked_out_on end desc nulls first,
                      r.sort_name, r.user_id) as n
      from r
     order by n
    offset greatest(coalesce(p_offset, 0), 0)
     limit greatest(least(coalesce(p_limit, 10), 100), 0)
  )
  select g.user_id, pn.username,
         case when g.outcome = 'out' then (select c.md from c) else g.knocked_out_on end,
         g.team, o.team_goals, o.opponent_goals, o.fixture_state, g.outcome, g.n::integer,
         case when g.out_count = g.remaining then g.remaining else g.remaining - g.out_count end,
         g.remaining
    from page g
    left join o on o.fixture_id = g.fixture_id and o.team = g.team
    left join public.player_names pn on pn.id = g.user_id
   order by g.n
$$;
revoke all on function private.live_knockout_table(uuid, integer, integer) from public, anon, authenticated;
grant execute on function private.live_knockout_table(uuid, integer, integer) to authenticated, service_role;

create function public.live_knockout_table(p_competition_id uuid, p_offset integer default 0, p_limit integer default 10)
  returns table (user_id uuid, username text, knocked_out_on integer, team text, team_goals integer,
                 opponent_goals integer, fixture_state text, outcome text, "position" integer,
                 still_in integer, remaining integer)
  language sql stable
  set search_path = ''
as $$
  select * from private.live_knockout_table(p_competition_id, p_offset, p_limit)
$$;
revoke all on function public.live_knockout_table(uuid, integer, integer) from public, anon, authenticated;
grant execute on function public.live_knockout_table(uuid, integer, integer) to authenticated, service_role;

-- The season's provisional table if the match day ended now: the stored standings (complete fixtures, the
-- match day's finished ones included) plus each pick on a match in play scored on its live score (3 / 1 / 0,
-- goals for and against), ranked by the season's order (points, goal difference, goals for, wins; equal on all
-- four share a rank); rank_before is the stored rank, so the page shows the change. Same visibility as the
-- knockout's: while the match day is played, to members after the deadline. One page (at most 100 rows).
create function private.live_season_table(p_competition_id uuid, p_offset integer, p_limit integer)
  returns table (user_id uuid, username text, team text, team_goals integer, opponent_goals integer,
                 fixture_state text, live_points integer, points integer, goal_difference integer,
                 goals_for integer, wins integer, draws integer, losses integer, rank integer,
                 rank_before integer, "position" integer)
  language sql stable security definer
  set search_path = ''
  set work_mem = '64MB'  -- the whole competition (100,000 rows) is hashed and sorted in memory, not on disk
as $$
  with c as (
    select c.id, c.league, c.season, c.current_match_day as md
      from public.competitions c
     where c.id = p_competition_id and c.type = 'season'
       and private.match_day_in_play(c.id)
       and private.can_see_match_day_picks(c.id, c.current_match_day)
  ),
  o as (select o.* from c cross join lateral private.match_day_outcomes_now(c.league, c.season, c.md) o),
  p as (
    select us.user_id, us.sort_name, us.points, us.goal_difference, us.goals_for, us.wins, us.draws, us.losses,
           ts.selected_team as team, ts.fixture_id, o.outcome as o_all, o.fixture_state,
           -- a complete match is already in the stored standings: only a match in play adds to them
           case when o.fixture_state in ('in_play', 'paused') then o.outcome end as o,
           o.team_goals as gf, o.opponent_goals as ga
      from c
      join public.user_selections us on us.competition_id = c.id
      left join public.team_selections ts
        on ts.competition_id = c.id and ts.user_id = us.user_id and ts.match_day = c.md
      left join o on o.fixture_id = ts.fixture_id and o.team = ts.selected_team
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
  page as (
    select n.*,
           pg_catalog.rank() over (order by n.points_now desc, n.gd_now desc, n.gf_now desc, n.wins_now desc) as rank_now,
           pg_catalog.row_number() over (order by n.points_now desc, n.gd_now desc, n.gf_now desc, n.wins_now desc,
                                                  n.sort_name, n.user_id) as pos
      from n
     order by pos
    offset greatest(coalesce(p_offset, 0), 0)
     limit greatest(least(coalesce(p_limit, 10), 100), 0)
  )
  select g.user_id, pn.username, g.team, g.gf, g.ga, g.fixture_state,
         private.season_points_now(case when g.fixture_state in ('complete', 'in_play', 'paused') then g.o_all end),
         g.points_now, g.gd_now, g.gf_now, g.wins_now,
         g.draws + (g.o = 'draw')::integer, g.losses + (g.o = 'loss')::integer,
         g.rank_now::integer, mr.rank, g.pos::integer
    from page g
    left join public.membership_ranks mr on mr.competition_id = p_competition_id and mr.user_id = g.user_id
    left join public.player_names pn on pn.id = g.user_id
   order by g.pos
$$;
revoke all on function private.live_season_table(uuid, integer, integer) from public, anon, authenticated;
grant execute on function private.live_season_table(uuid, integer, integer) to authenticated, service_role;

create function public.live_season_table(p_competition_id uuid, p_offset integer default 0, p_limit integer default 10)
  returns table (user_id uuid, username text, team text, team_goals integer, opponent_goals integer,
                 fixture_state text, live_points integer, points integer, goal_difference integer,
                 goals_for integer, wins integer, draws integer, losses integer, rank integer,
                 rank_before integer, "position" integer)
  language sql stable
  set search_path = ''
as $$
  select * from private.live_season_table(p_competition_id, p_offset, p_limit)
$$;
revoke all on function public.live_season_table(uuid, integer, integer) from public, anon, authenticated;
grant execute on function public.live_season_table(uuid, integer, integer) to authenticated, service_role;

-- Runs as its owner so that row-level security is not asked once per pick (at 100,000 players the policy's
-- private.can_see_match_day_picks per row took most of the time): the same rule is checked once, for the
-- competition's current match day.
create function private.match_day_pick_shares(p_competition_id uuid)
  returns table (team text, picks integer, share integer, total integer)
  language sql stable security definer
  set search_path = ''
as $$
  select ts.selected_team, count(*)::integer,
         round(100.0 * count(*) / sum(count(*)) over ())::integer,
         (sum(count(*)) over ())::integer
    from public.competitions c
    join public.team_selections ts on ts.competition_id = c.id and ts.match_day = c.current_match_day
   where c.id = p_competition_id
     and private.can_see_match_day_picks(c.id, c.current_match_day)
   group by ts.selected_team
   order by count(*) desc, ts.selected_team
$$;
revoke all on function private.match_day_pick_shares(uuid) from public, anon, authenticated;
grant execute on function private.match_day_pick_shares(uuid) to authenticated, service_role;

create or replace function public.match_day_pick_shares(p_competition_id uuid)
  returns table (team text, picks integer, share integer, total integer)
  language sql stable
  set search_path = ''
as $$
  select * from private.match_day_pick_shares(p_competition_id)
$$;

-- A knockout player's route: the teams they used (with the match day) and, while they are still in, the teams
-- still available for the rest of the season (a fixture from the next match day open for picks to the
-- competition's last one, never used before). Security invoker: team_selections is read under row-level security,
-- so another player's pick of a match day shows only once its deadline has passed, and only to members (the
-- hidden-picks rule); the caller's own picks always. A caller who is not a member gets no row.
create function public.knockout_route(p_competition_id uuid, p_user_id uuid)
  returns table (team text, match_day integer, used boolean)
  language sql stable
  set search_path = ''
as $$
  with c as (
    select c.id, c.league, c.season, c.total_match_days, us.status,
           c.current_match_day
             + case when public.matchday_deadline_passed(c.league, c.season, c.current_match_day) then 1 else 0 end
             as first_open
      from public.competitions c
      join public.user_selections us on us.competition_id = c.id and us.user_id = p_user_id
     where c.id = p_competition_id and c.type = 'knockout'
       and exists (select 1 from public.user_selections me
                    where me.competition_id = c.id and me.user_id = (select auth.uid()))
  ),
  used as (
    select ts.selected_team, ts.match_day
      from c join public.team_selections ts on ts.competition_id = c.id and ts.user_id = p_user_id
  )
  select u.selected_team, u.match_day, true from used u
  union all
  select t.team, null::integer, false
    from c
    cross join lateral (
      select distinct x.team
        from public.fixtures f
        cross join lateral (values (f.home_team), (f.away_team)) x (team)
       where f.league = c.league and f.season = c.season
         and f.match_day between c.first_open and c.total_match_days
    ) t
   where c.status = 'active'
     and not exists (select 1 from used u where u.selected_team = t.team)
   order by 3 desc, 2, 1
$$;
revoke all on function public.knockout_route(uuid, uuid) from public, anon, authenticated;
grant execute on function public.knockout_route(uuid, uuid) to authenticated, service_role;

-- Scout "if it ended now": each entry of a match day with its stored points (complete fixtures) plus its
-- predictions of matches in play scored by private.scout_points on the live score as if the match had ended
-- (the one home of Scout's points). Only while a fixture of that match day is in play and after its lock (when
-- entries are revealed to every player); no row otherwise. Returns the top p_limit entries (at most 100) in the
-- board's order and every entry of the caller (mine), each with its provisional rank (equal points and exact
-- count share a rank) and its live points.
create function private.live_scout_board(p_league text, p_season text, p_match_day integer, p_limit integer)
  returns table (rank integer, entry_id uuid, user_id uuid, display_name text, entry_index integer,
                 total_points integer, exact_count integer, live_points integer, mine boolean)
  language sql stable security definer
  set search_path = ''
as $$
  with live as (
    select f.id, f.live_home_score, f.live_away_score
      from public.fixtures f
     where f.league = p_league and f.season = p_season and f.match_day = p_match_day
       and f.status = 'pending' and f.live_status is not null
       and public.matchday_deadline_passed(p_league, p_season, p_match_day)
  ),
  add as (
    select q.scout_entry_id,
           sum(private.scout_points(q.home_goals, q.away_goals, 'complete', l.live_home_score, l.live_away_score))::integer as pts,
           count(*) filter (where private.scout_points(q.home_goals, q.away_goals, 'complete', l.live_home_score,
                                                       l.live_away_score) = 5)::integer as exact
      from live l
      join public.scout_predictions q on q.fixture_id = l.id
     group by q.scout_entry_id
  ),
  e as (
    select e.id, e.user_id, e.entry_index, e.created_at,
           e.total_points + coalesce(a.pts, 0) as total_now, e.exact_count + coalesce(a.exact, 0) as exact_now,
           coalesce(a.pts, 0) as live_pts
      from public.scout_entries e
      left join add a on a.scout_entry_id = e.id
     where e.league = p_league and e.season = p_season and e.match_day = p_match_day
       and exists (select 1 from live)
  ),
  ranked as (
    select e.*, pg_catalog.rank() over (order by e.total_now desc, e.exact_now desc) as rank_now,
           pg_catalog.row_number() over (order by e.total_now desc, e.exact_now desc, e.created_at, e.id) as n
      from e
  )
  select r.rank_now::integer, r.id, r.user_id, coalesce(p.display_name, p.username), r.entry_index,
         r.total_now, r.exact_now, r.live_pts, r.user_id = (select auth.uid())
    from ranked r
    join public.profiles p on p.id = r.user_id
   where r.n <= least(greatest(coalesce(p_limit, 100), 1), 100) or r.user_id = (select auth.uid())
   order by r.n
$$;
revoke all on function private.live_scout_board(text, text, integer, integer) from public, anon, authenticated;
grant execute on function private.live_scout_board(text, text, integer, integer) to authenticated, service_role;

create function public.live_scout_board(p_league text, p_season text, p_match_day integer, p_limit integer default 100)
  returns table (rank integer, entry_id uuid, user_id uuid, display_name text, entry_index integer,
                 total_points integer, exact_count integer, live_points integer, mine boolean)
  language sql stable
  set search_path = ''
as $$
  select * from private.live_scout_board(p_league, p_season, p_match_day, p_limit)
$$;
revoke all on function public.live_scout_board(text, text, integer, integer) from public, anon, authenticated;
grant execute on function public.live_scout_board(text, text, integer, integer) to authenticated, service_role;
