-- Planning ahead and the season joker (decision 028; rules file "Planning ahead", "The organiser's rules"): a plan
-- is a pick of a coming match day (save_team_selection and eligibility take the match day; knockout eligibility
-- counts used and planned teams), the coming match days of a member (coming_match_days), the joker
-- (season_jokers, play_joker), the league's own table and the auto-pick of a missed pick (league_table,
-- auto_pick), and the "Auto-picked" marker on picks (team_selections.auto_picked; Manage Selections shows it).

-- Only definer functions write it (no column grant to players or admins), so the per-row checks and the lock can
-- skip auto-picks, which processing writes and deletes by the tens of thousands while holding the lock.
alter table public.team_selections add column auto_picked boolean not null default false;

drop trigger team_selections_before_write on public.team_selections;
drop trigger team_selections_lock_competition on public.team_selections;

-- the auto-picks of a competition from a match day on (re-processing deletes them; a correction of an earlier
-- result asks whether there are any later ones)
create index team_selections_auto_picked_idx on public.team_selections (competition_id, match_day) where auto_picked;

-- Not for an auto-pick: private.auto_pick writes it on a fixture of the match day it chose, with its prediction
-- (only definer functions can write auto_picked: players and admins have no grant on the column), and at 33,000
-- auto-picks of a match day the per-row checks were most of its time.
create trigger team_selections_before_write
  before insert or update of fixture_id, selected_team, match_day, competition_id, prediction
  on public.team_selections
  for each row when (not new.auto_picked) execute function private.team_selections_before_write();

-- Auto-picks are written and deleted only by processing, which holds the competition lock already (and at 33,000
-- of them a lock per row cost about a second).
create trigger team_selections_lock_competition
  before insert or update on public.team_selections
  for each row when (not new.auto_picked) execute function private.lock_competition_of_row();

create trigger team_selections_lock_competition_delete
  before delete on public.team_selections
  for each row when (not old.auto_picked) execute function private.lock_competition_of_row();

drop function public.get_eligible_teams(uuid, uuid);
drop function private.eligible_teams(uuid, uuid);
drop function public.save_team_selection(uuid, text);
drop function private.save_team_selection(uuid, text);
drop function public.manage_selections(uuid);
drop function private.manage_selections(uuid);

create function private.eligible_teams(p_competition_id uuid, p_user_id uuid, p_match_day integer default null)
returns table (team text)
  language sql stable
  security definer
  set search_path = ''
as $$
  select distinct t.team
    from public.competitions c
    cross join lateral (select coalesce(p_match_day, c.current_match_day) as md) m
    join public.user_selections us
      on us.competition_id = c.id and us.user_id = p_user_id and us.status = 'active'
    join public.fixtures f
      on f.league = c.league and f.season = c.season and f.match_day = m.md
     and f.status <> 'postponed'
    cross join lateral (values (f.home_team), (f.away_team)) as t (team)
   where c.id = p_competition_id
     and c.status = 'active'
     and c.type in ('knockout', 'season')
     and m.md between c.current_match_day and c.total_match_days
     and (p_user_id = (select auth.uid()) or (select private.is_admin()))
     and public.selection_open(c.league, c.season, m.md)
     and (c.type <> 'knockout'
          or not exists (
            select 1
              from public.team_selections ts
             where ts.user_id = p_user_id
               and ts.competition_id = c.id
               and ts.match_day <> m.md
               and ts.selected_team = t.team))
   order by t.team
$$;

create function public.get_eligible_teams(p_competition_id uuid, p_user_id uuid, p_match_day integer default null)
returns table (team text)
  language sql stable
  set search_path = ''
as $$
  select e.team from private.eligible_teams(p_competition_id, p_user_id, p_match_day) as e order by e.team
$$;

revoke all on function private.eligible_teams(uuid, uuid, integer) from public, anon;
grant execute on function private.eligible_teams(uuid, uuid, integer) to authenticated, service_role;
revoke all on function public.get_eligible_teams(uuid, uuid, integer) from public, anon;
grant execute on function public.get_eligible_teams(uuid, uuid, integer) to authenticated, service_role;

create function private.save_team_selection(p_competition_id uuid, p_team text, p_match_day integer default null)
returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_competition record;
  v_status text;
  v_md integer;
  v_fixture_id bigint;
begin
  select c.id, c.league, c.season, c.current_match_day, c.total_match_days, c.status, c.registration_status
    into v_competition
    from public.competitions c
   where c.id = p_competition_id
     for no key update;
  if not found then
    return 'not_found';
  end if;
  v_md := coalesce(p_match_day, v_competition.current_match_day);

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
  if v_status = 'eliminated' then
    return 'eliminated';
  end if;

  if v_status <> 'active'
     or v_competition.status <> 'active'
     or v_competition.registration_status = 'completed'
     or v_md not between v_competition.current_match_day and v_competition.total_match_days
     or not public.selection_open(v_competition.league, v_competition.season, v_md) then
    return 'selection_closed';
  end if;

  if p_team is null
     or not exists (select 1 from private.eligible_teams(p_competition_id, v_uid, v_md) e where e.team = p_team) then
    return 'not_eligible';
  end if;

  select f.id into v_fixture_id
    from public.fixtures f
   where f.league = v_competition.league and f.season = v_competition.season
     and f.match_day = v_md
     and f.status <> 'postponed'
     and p_team in (f.home_team, f.away_team)
   order by f.kickoff_time, f.id
   limit 1;
  if v_fixture_id is null then
    return 'not_eligible';
  end if;

  -- prediction is derived by the team_selections trigger from the side of the team.
  insert into public.team_selections as ts
    (user_id, competition_id, match_day, fixture_id, selected_team, prediction, set_by, set_at, auto_picked)
  values (v_uid, p_competition_id, v_md, v_fixture_id, p_team, 'home_win', null, null, false)
  on conflict (user_id, competition_id, match_day) do update
    set fixture_id = excluded.fixture_id,
        selected_team = excluded.selected_team,
        set_by = null,
        set_at = null,
        auto_picked = false;

  return 'saved';
end
$$;

create or replace function private.set_player_selection(p_competition_id uuid, p_user_id uuid, p_team text) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_admin boolean := private.is_admin();
  v_competition record;
  v_fixture_id bigint;
begin
  select c.id, c.league, c.season, c.current_match_day, c.created_by
    into v_competition
    from public.competitions c
   where c.id = p_competition_id
     for no key update;
  if not found then
    return 'not_found';
  end if;

  if v_uid is null or (v_competition.created_by is distinct from v_uid and not v_admin) then
    return 'forbidden';
  end if;

  perform 1
     from public.user_selections us
    where us.user_id = p_user_id and us.competition_id = p_competition_id
      for update;
  if not found then
    return 'not_registered';
  end if;

  -- Hidden picks hold for the creator: before the deadline a member's own pick is theirs to change.
  if not v_admin
     and not public.matchday_deadline_passed(v_competition.league, v_competition.season, v_competition.current_match_day)
     and exists (select 1 from public.team_selections ts
                  where ts.user_id = p_user_id and ts.competition_id = p_competition_id
                    and ts.match_day = v_competition.current_match_day) then
    return 'already_picked';
  end if;

  -- A played fixture first; a postponed one still counts as a fixture of the match day.
  select f.id into v_fixture_id
    from public.fixtures f
   where f.league = v_competition.league and f.season = v_competition.season
     and f.match_day = v_competition.current_match_day
     and p_team in (f.home_team, f.away_team)
   order by (f.status = 'postponed'), f.kickoff_time, f.id
   limit 1;
  if v_fixture_id is null then
    return 'no_fixture';
  end if;

  insert into public.team_selections as ts
    (user_id, competition_id, match_day, fixture_id, selected_team, prediction, set_by, set_at, auto_picked)
  values (p_user_id, p_competition_id, v_competition.current_match_day, v_fixture_id, p_team, 'home_win',
          v_uid, public.app_now(), false)
  on conflict (user_id, competition_id, match_day) do update
    set fixture_id = excluded.fixture_id,
        selected_team = excluded.selected_team,
        set_by = excluded.set_by,
        set_at = excluded.set_at,
        auto_picked = false;

  return 'saved';
end
$$;

create function public.save_team_selection(p_competition_id uuid, p_team text, p_match_day integer default null)
returns text
  language sql
  set search_path = ''
as $$
  select private.save_team_selection(p_competition_id, p_team, p_match_day)
$$;

revoke all on function private.save_team_selection(uuid, text, integer) from public, anon;
grant execute on function private.save_team_selection(uuid, text, integer) to authenticated, service_role;
revoke all on function public.save_team_selection(uuid, text, integer) from public, anon;
grant execute on function public.save_team_selection(uuid, text, integer) to authenticated, service_role;

create function private.manage_selections(p_competition_id uuid)
  returns table (user_id uuid, username text, membership_status text, has_selection boolean, current_selection text,
                 auto_picked boolean)
  language sql stable security definer
  set search_path = ''
as $$
  select us.user_id, pn.username, us.status, ts.selected_team is not null,
         case when (select private.is_admin())
                or public.matchday_deadline_passed(c.league, c.season, c.current_match_day)
              then ts.selected_team end,
         coalesce(ts.auto_picked, false)
    from public.competitions c
    join public.user_selections us on us.competition_id = c.id
    left join public.player_names pn on pn.id = us.user_id
    left join public.team_selections ts
      on ts.user_id = us.user_id and ts.competition_id = c.id and ts.match_day = c.current_match_day
   where c.id = p_competition_id
     and (c.created_by = (select auth.uid()) or (select private.is_admin()))
   order by lower(pn.username), us.user_id
$$;

create function public.manage_selections(p_competition_id uuid)
  returns table (user_id uuid, username text, membership_status text, has_selection boolean, current_selection text,
                 auto_picked boolean)
  language sql stable
  set search_path = ''
as $$
  select * from private.manage_selections(p_competition_id)
$$;

revoke all on function private.manage_selections(uuid) from public, anon;
grant execute on function private.manage_selections(uuid) to authenticated, service_role;
revoke all on function public.manage_selections(uuid) from public, anon;
grant execute on function public.manage_selections(uuid) to authenticated, service_role;

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
