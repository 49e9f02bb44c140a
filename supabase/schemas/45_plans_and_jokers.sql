-- Planning ahead and the organiser's rules that act on picks: the coming match days a player may pick for (a plan
-- is a pick of team_selections for a match day after the current one: 40_picks.sql saves it, hides it and checks
-- its eligibility), the season joker, the league's own table and the auto-pick of a missed pick.
-- Rules: docs/game-rules.md "The organiser's rules", "Planning ahead". Decision: 028-the-organisers-rules.md.
--
-- Elsewhere: the rules themselves are columns of public.competitions (30_competitions_and_membership.sql); what a
-- joker does to the standings is private.refresh_memberships (50_standings.sql, with the jokers' stats trigger);
-- match-day processing runs the auto-pick at the deadline and applies lives (60_results_and_processing.sql); a plan
-- whose match is postponed or moved is dropped with a notice (private.fixtures_drop_broken_plans,
-- 90_push_and_scheduler.sql, next to public.notices).

-- ---------------------------------------------------------------------------------------------------------
-- season_jokers: the season joker (rules file: once per competition, before that match day's deadline; that match
-- day's points count double; hidden from others until that deadline, like picks)
-- ---------------------------------------------------------------------------------------------------------

create table public.season_jokers (
  user_id uuid not null,
  competition_id uuid not null,
  match_day integer not null,
  created_at timestamptz not null default public.app_now(),
  updated_at timestamptz not null default public.app_now(),
  -- once per competition
  primary key (user_id, competition_id),
  constraint season_jokers_membership_fkey foreign key (user_id, competition_id)
    references public.user_selections (user_id, competition_id) on delete cascade,
  constraint season_jokers_match_day_check check (match_day >= 1)
);

create index season_jokers_competition_match_day_idx on public.season_jokers (competition_id, match_day);

create trigger season_jokers_set_updated_at
  before update on public.season_jokers
  for each row execute function private.set_updated_at();

-- The competition lock before a joker is written (lock order: 30_competitions_and_membership.sql).
create trigger season_jokers_lock_competition
  before insert or update or delete on public.season_jokers
  for each row execute function private.lock_competition_of_row();

-- Read like picks: a player's own joker always; other members' once that match day's deadline has passed
-- (private.can_see_match_day_picks); admins. Written only by private.play_joker (admins may write directly).
alter table public.season_jokers enable row level security;

create policy season_jokers_select_own on public.season_jokers
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy season_jokers_select_revealed on public.season_jokers
  for select to authenticated
  using (private.can_see_match_day_picks(competition_id, match_day));

create policy season_jokers_select_admin on public.season_jokers
  for select to authenticated
  using ((select private.is_admin()));

create policy season_jokers_write_admin on public.season_jokers
  for all to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

revoke all on table public.season_jokers from public, anon, authenticated;
grant select, insert, update, delete on table public.season_jokers to authenticated;
grant all on table public.season_jokers to service_role;

comment on table public.season_jokers is
  'The season joker of each member who played it (at most one per competition): that match day''s points count double.';

-- ---------------------------------------------------------------------------------------------------------
-- Coming match days
-- ---------------------------------------------------------------------------------------------------------

-- The caller's coming match days in a competition (a member's Team Selection page): each match day from the current
-- one to the last that has fixtures and is open for selection (selection_open: its deadline ahead), with the
-- caller's pick or plan for it, whether the server auto-picked it, and whether the caller's joker is on it.
-- Security invoker: the picks and jokers are read under row-level security (the caller's own rows).
create function public.coming_match_days(p_competition_id uuid)
  returns table (match_day integer, deadline timestamptz, team text, auto_picked boolean, joker boolean)
  language sql stable
  set search_path = ''
as $$
  select m.match_day, public.matchday_deadline(c.league, c.season, m.match_day), ts.selected_team,
         coalesce(ts.auto_picked, false), j.match_day is not null
    from public.competitions c
    join public.user_selections me on me.competition_id = c.id and me.user_id = (select auth.uid())
    join public.matchdays m
      on m.league = c.league and m.season = c.season and m.match_day between c.current_match_day and c.total_match_days
    left join public.team_selections ts
      on ts.competition_id = c.id and ts.user_id = me.user_id and ts.match_day = m.match_day
    left join public.season_jokers j
      on j.competition_id = c.id and j.user_id = me.user_id and j.match_day = m.match_day
   where c.id = p_competition_id
     and c.status = 'active'
     and c.type in ('knockout', 'season')
     and public.selection_open(c.league, c.season, m.match_day)
   order by m.match_day
$$;

-- Play (or move) the joker on a coming match day, or take it back (p_match_day null), in a season competition whose
-- organiser turned the joker on. It may move until the deadline of the match day it is on; from then on it is
-- spent. Locks the competition, then the membership (lock order).
-- Codes: played | removed | not_found | not_registered | not_season | joker_off | joker_spent | selection_closed.
create function private.play_joker(p_competition_id uuid, p_match_day integer) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_c public.competitions%rowtype;
  v_status text;
  v_current integer;
begin
  select * into v_c from public.competitions c where c.id = p_competition_id for no key update;
  if not found or v_c.type not in ('knockout', 'season') then
    return 'not_found';
  end if;
  if v_c.type <> 'season' then
    return 'not_season';
  end if;
  if not v_c.joker then
    return 'joker_off';
  end if;
  if v_uid is null then
    return 'not_registered';
  end if;
  select us.status into v_status
    from public.user_selections us
   where us.user_id = v_uid and us.competition_id = p_competition_id
     for update;
  if not found then
    return 'not_registered';
  end if;

  select j.match_day into v_current
    from public.season_jokers j
   where j.user_id = v_uid and j.competition_id = p_competition_id;
  if v_current is not null and public.matchday_deadline_passed(v_c.league, v_c.season, v_current) then
    return 'joker_spent';
  end if;

  if p_match_day is null then
    delete from public.season_jokers j where j.user_id = v_uid and j.competition_id = p_competition_id;
    return 'removed';
  end if;

  if v_status <> 'active' or v_c.status <> 'active' or v_c.registration_status = 'completed'
     or p_match_day not between v_c.current_match_day and v_c.total_match_days
     or not public.selection_open(v_c.league, v_c.season, p_match_day) then
    return 'selection_closed';
  end if;

  insert into public.season_jokers as j (user_id, competition_id, match_day)
  values (v_uid, p_competition_id, p_match_day)
  on conflict (user_id, competition_id) do update set match_day = excluded.match_day
    where j.match_day is distinct from excluded.match_day;
  return 'played';
end
$$;

create function public.play_joker(p_competition_id uuid, p_match_day integer) returns text
  language sql
  set search_path = ''
as $$
  select private.play_joker(p_competition_id, p_match_day)
$$;

revoke all on function private.play_joker(uuid, integer) from public, anon;
grant execute on function private.play_joker(uuid, integer) to authenticated, service_role;
revoke all on function public.play_joker(uuid, integer) from public, anon;
grant execute on function public.play_joker(uuid, integer) to authenticated, service_role;
revoke all on function public.coming_match_days(uuid) from public, anon;
grant execute on function public.coming_match_days(uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- Auto-pick (missed pick: "Auto-pick")
-- ---------------------------------------------------------------------------------------------------------

-- The league's own table at a moment: every team of the league and season, ranked by points (win 3, draw 1), goal
-- difference, goals for, then name, from the complete results of that league and season whose kickoff was before
-- p_before (the auto-pick asks at a match day's deadline, so re-processing after a correction reads the same
-- results the first time would have, with the corrected score).
create function private.league_table(p_league text, p_season text, p_before timestamptz)
  returns table (team text, "position" integer, points integer, goal_difference integer, goals_for integer)
  language sql stable
  security definer
  set search_path = ''
as $$
  with sides as (
    select t.team, t.gf, t.ga, f.status = 'complete' and f.kickoff_time < p_before as counts
      from public.fixtures f
      cross join lateral (values (f.home_team, f.home_score, f.away_score),
                                 (f.away_team, f.away_score, f.home_score)) t (team, gf, ga)
     where f.league = p_league and f.season = p_season
  ),
  totals as (
    select s.team,
           coalesce(sum(case when s.gf > s.ga then 3 when s.gf = s.ga then 1 else 0 end) filter (where s.counts), 0)::integer
             as points,
           coalesce(sum(s.gf - s.ga) filter (where s.counts), 0)::integer as goal_difference,
           coalesce(sum(s.gf) filter (where s.counts), 0)::integer as goals_for
      from sides s
     group by s.team
  )
  select t.team,
         pg_catalog.row_number() over (order by t.points desc, t.goal_difference desc, t.goals_for desc, t.team)::integer,
         t.points, t.goal_difference, t.goals_for
    from totals t
   order by 2
$$;

revoke all on function private.league_table(text, text, timestamptz) from public, anon, authenticated;
grant execute on function private.league_table(text, text, timestamptz) to service_role;

-- At a match day's deadline, the server picks for each active member without a pick (a plan still standing IS the
-- pick; a plan dropped because its match was postponed or moved leaves none): the eligible team highest in the
-- league's own table at that moment (private.league_table at the deadline). Eligible as for the player
-- (private.eligible_teams): a team with a fixture that match day that is not postponed; in a knockout, never one the
-- member picked or planned on another match day. Marked auto_picked; it counts as the member's pick (the team is
-- used). A member with no eligible team left gets none (a missed pick). Only for a competition whose organiser
-- chose "Auto-pick", only once the deadline has passed; running it again adds nothing. Returns how many it picked.
-- Called by match-day processing (private.process_competition, private.process_due_matchdays).
create function private.auto_pick(p_competition_id uuid, p_match_day integer) returns integer
  language plpgsql
  security definer
  set search_path = ''
  -- the per-member look-ups make the estimate large enough to JIT-compile, which took longer (0.6-0.9 s) than the
  -- whole query for 30,000 members
  set jit = off
as $$
declare
  v_c public.competitions%rowtype;
  v_deadline timestamptz;
  v_n integer;
begin
  perform private.lock_competition(p_competition_id);
  select * into v_c from public.competitions c where c.id = p_competition_id;
  if not found or v_c.type not in ('knockout', 'season') or v_c.missed_pick_rule <> 'auto' or v_c.status <> 'active' then
    return 0;
  end if;
  v_deadline := public.matchday_deadline(v_c.league, v_c.season, p_match_day);
  if v_deadline is null or v_deadline > public.app_now() then
    return 0;
  end if;

  insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction,
                                      set_by, set_at, auto_picked)
  with standing as materialized (
    select t.team, t."position" from private.league_table(v_c.league, v_c.season, v_deadline) t
  ),
  -- the match day's teams in table order (a team playing twice that match day: its first fixture), with the
  -- prediction the picks' trigger would derive (that trigger does not run for auto-picks)
  candidates as materialized (
    select distinct on (x.team) x.team, f.id as fixture_id, s."position",
           case when x.team = f.home_team then 'home_win' else 'away_win' end as prediction
      from public.fixtures f
      cross join lateral (values (f.home_team), (f.away_team)) x (team)
      join standing s on s.team = x.team
     where f.league = v_c.league and f.season = v_c.season and f.match_day = p_match_day and f.status <> 'postponed'
     order by x.team, f.kickoff_time, f.id
  )
  select us.user_id, us.competition_id, p_match_day, pick.fixture_id, pick.team, pick.prediction, null,
         public.app_now(), true
    from public.user_selections us
    cross join lateral (
      select c.team, c.fixture_id, c.prediction
        from candidates c
       where v_c.type <> 'knockout'
          or not exists (select 1 from public.team_selections u
                          where u.user_id = us.user_id and u.competition_id = us.competition_id
                            and u.selected_team = c.team)
       order by c."position"
       limit 1
    ) pick
   where us.competition_id = p_competition_id and us.status = 'active'
     and not exists (select 1 from public.team_selections ts
                      where ts.user_id = us.user_id and ts.competition_id = us.competition_id
                        and ts.match_day = p_match_day);
  get diagnostics v_n = row_count;
  return v_n;
end
$$;

revoke all on function private.auto_pick(uuid, integer) from public, anon, authenticated;
