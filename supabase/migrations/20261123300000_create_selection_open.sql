-- "Can a member pick for this match day now?" has one home: public.selection_open(league, season, match_day)
-- = the match day has fixtures (so it has a deadline, public.matchday_deadline: first kickoff minus one hour)
-- and that deadline has not passed on the request clock.
--
-- Decided here (docs/decisions/011-one-home-per-rule.md): a match day with no fixtures yet (deadline TBA) has
-- nothing to pick, so it is NOT open. Before, save_team_selection and eligible_teams treated it as closed while
-- user_competition_stats_view.selection_status and public.matchday_closed treated it as open, so the dashboard
-- said "Selection Closed" where the competition page and My Competitions offered "Select Team".
--
-- What else the deadline does (reveal other players' picks, close registration of a competition that starts
-- on that match day, let the match day be processed) happens when it has PASSED, which a match day without
-- fixtures never has: public.matchday_deadline_passed(league, season, match_day). A TBA match day is neither
-- open nor passed, so the two are separate functions, both built on matchday_deadline.
--
-- Changes (definitions copied from supabase/schema.sql, otherwise unchanged):
-- * new public.selection_open and public.matchday_deadline_passed;
-- * public.matchday_closed (20261122600000) becomes the complement of selection_open, as its name says: true
--   while the match day has no fixtures (it used to be false then); process_competition's use of it is
--   unaffected (its next check stops at a match day without fixtures);
-- * private.eligible_teams (20261122200100) and private.save_team_selection (20261122200300): selection_open;
-- * private.create_competition (20261122500000): "a match day that has not started yet" is selection_open;
-- * private.can_see_match_day_picks (20261122000700): matchday_deadline_passed;
-- * user_competition_stats_view (20261122200500): selection_status is 'closed' unless selection_open (and the
--   membership and competition are active); selection_hidden uses matchday_deadline_passed.
-- The registration and knockout-standings sites follow in 20261123300100 and 20261123300300.

create function public.selection_open(p_league text, p_season text, p_match_day integer) returns boolean
  language sql stable
  set search_path = ''
as $$
  select coalesce(public.matchday_deadline(p_league, p_season, p_match_day) > public.app_now(), false)
$$;

comment on function public.selection_open(text, text, integer) is
  'Picks may be made for this match day now: it has fixtures and its deadline (first kickoff - 1 h) has not passed on app_now(). The one home of the rule.';

create function public.matchday_deadline_passed(p_league text, p_season text, p_match_day integer) returns boolean
  language sql stable
  set search_path = ''
as $$
  select coalesce(public.matchday_deadline(p_league, p_season, p_match_day) <= public.app_now(), false)
$$;

comment on function public.matchday_deadline_passed(text, text, integer) is
  'The match day''s deadline has passed on app_now() (false while it has no fixtures): other players'' picks are revealed, registration of a competition starting on it closes, it may be processed.';

revoke all on function public.selection_open(text, text, integer) from public, anon;
grant execute on function public.selection_open(text, text, integer) to authenticated, service_role;
revoke all on function public.matchday_deadline_passed(text, text, integer) from public, anon;
grant execute on function public.matchday_deadline_passed(text, text, integer) to authenticated, service_role;

create or replace function public.matchday_closed(p_league text, p_season text, p_match_day integer) returns boolean
  language sql stable
  set search_path = ''
as $$
  select not public.selection_open(p_league, p_season, p_match_day)
$$;

comment on function public.matchday_closed(text, text, integer) is
  'not selection_open(): no pick may be made for this match day now (also while it has no fixtures).';

create or replace function private.can_see_match_day_picks(p_competition_id uuid, p_match_day integer) returns boolean
  language sql stable
  security definer
  set search_path = ''
as $$
  select exists (
    select 1
    from public.competitions c
    where c.id = p_competition_id
      and public.matchday_deadline_passed(c.league, c.season, p_match_day)
      and exists (
        select 1 from public.user_selections us
        where us.competition_id = c.id and us.user_id = (select auth.uid())
      )
  )
$$;

create or replace function private.eligible_teams(p_competition_id uuid, p_user_id uuid) returns table (team text)
  language sql stable
  security definer
  set search_path = ''
as $$
  select distinct t.team
    from public.competitions c
    join public.user_selections us
      on us.competition_id = c.id and us.user_id = p_user_id and us.status = 'active'
    join public.fixtures f
      on f.league = c.league and f.season = c.season and f.match_day = c.current_match_day
     and f.status <> 'postponed'
    cross join lateral (values (f.home_team), (f.away_team)) as t (team)
   where c.id = p_competition_id
     and c.status = 'active'
     and c.type in ('knockout', 'season')
     and (p_user_id = (select auth.uid()) or (select private.is_admin()))
     and public.selection_open(c.league, c.season, c.current_match_day)
     and (c.type <> 'knockout'
          or not exists (
            select 1
              from public.team_selections ts
             where ts.user_id = p_user_id
               and ts.competition_id = c.id
               and ts.match_day <> c.current_match_day
               and ts.selected_team = t.team))
   order by t.team
$$;

create or replace function private.save_team_selection(p_competition_id uuid, p_team text) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_competition record;
  v_status text;
  v_fixture_id bigint;
begin
  select c.id, c.league, c.season, c.current_match_day, c.status, c.registration_status
    into v_competition
    from public.competitions c
   where c.id = p_competition_id
     for no key update;
  if not found then
    return 'not_found';
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
  if v_status = 'eliminated' then
    return 'eliminated';
  end if;

  if v_status <> 'active'
     or v_competition.status <> 'active'
     or v_competition.registration_status = 'completed'
     or not public.selection_open(v_competition.league, v_competition.season, v_competition.current_match_day) then
    return 'selection_closed';
  end if;

  if p_team is null
     or not exists (select 1 from private.eligible_teams(p_competition_id, v_uid) e where e.team = p_team) then
    return 'not_eligible';
  end if;

  select f.id into v_fixture_id
    from public.fixtures f
   where f.league = v_competition.league and f.season = v_competition.season
     and f.match_day = v_competition.current_match_day
     and f.status <> 'postponed'
     and p_team in (f.home_team, f.away_team)
   order by f.kickoff_time, f.id
   limit 1;
  if v_fixture_id is null then
    return 'not_eligible';
  end if;

  -- prediction is derived by the team_selections trigger from the side of the team.
  insert into public.team_selections as ts
    (user_id, competition_id, match_day, fixture_id, selected_team, prediction, set_by, set_at)
  values (v_uid, p_competition_id, v_competition.current_match_day, v_fixture_id, p_team, 'home_win', null, null)
  on conflict (user_id, competition_id, match_day) do update
    set fixture_id = excluded.fixture_id,
        selected_team = excluded.selected_team,
        set_by = null,
        set_at = null;

  return 'saved';
end
$$;

create or replace function private.create_competition(
  p_name text, p_type text, p_league text, p_season text, p_start_date date, p_start_match_day integer,
  p_visibility text, p_prize text, p_created_by uuid
) returns table (id uuid, registration_key text)
  language plpgsql
  security definer
  set search_path = ''
as $$
#variable_conflict use_column
declare
  v_name text := pg_catalog.btrim(coalesce(p_name, ''));
  v_type text := pg_catalog.btrim(p_type);
  v_league text := pg_catalog.btrim(p_league);
  v_season text := pg_catalog.btrim(p_season);
  v_prize text := nullif(pg_catalog.btrim(coalesce(p_prize, '')), '');
  v_total integer := 38;  -- competitions.total_match_days default
  v_constraint text;
begin
  if v_name = '' or coalesce(v_type, '') = '' or coalesce(v_league, '') = '' or coalesce(v_season, '') = ''
     or p_start_date is null or p_start_match_day is null then
    raise exception using errcode = 'P0001', message = 'Please fill in all required fields.';
  end if;
  if v_type not in ('knockout', 'season') then
    raise exception using errcode = 'P0001', message = 'Type must be knockout or season.';
  end if;
  if v_league not in ('Premier League', 'La Liga', 'Serie A', 'Bundesliga', 'Ligue 1', 'Championship', 'MLS') then
    raise exception using errcode = 'P0001', message = 'Please choose a league from the list.';
  end if;
  if v_season not in ('2025/26', '2025', '2024/25') then
    raise exception using errcode = 'P0001', message = 'Please choose a season from the list.';
  end if;
  if pg_catalog.char_length(v_name) > 100 then
    raise exception using errcode = 'P0001', message = 'Competition name must be at most 100 characters.';
  end if;
  if pg_catalog.char_length(v_prize) > 500 then
    raise exception using errcode = 'P0001', message = 'Prize must be at most 500 characters.';
  end if;
  if p_start_match_day < 1 or p_start_match_day > v_total then
    raise exception using errcode = 'P0001', message = 'Start Match Day must be a positive whole number.';
  end if;
  if p_start_date < private.local_today(p_created_by) then
    raise exception using errcode = 'P0001', message = 'Start date must be today or a future date.';
  end if;
  if not public.selection_open(v_league, v_season, p_start_match_day) then
    raise exception using errcode = 'P0001', message = 'Start Match Day must be a match day that has not started yet.';
  end if;
  if exists (select 1 from public.competitions c
              where pg_catalog.lower(pg_catalog.btrim(c.name)) = pg_catalog.lower(v_name) and c.type = v_type) then
    raise exception using errcode = 'P0001', message = 'A competition with this name and type already exists.';
  end if;

  begin
    return query
      insert into public.competitions as c
        (name, type, league, season, start_date, total_match_days, start_match_day, current_match_day,
         status, registration_status, visibility, prize, created_by)
      values (v_name, v_type, v_league, v_season, p_start_date, v_total, p_start_match_day, p_start_match_day,
              'active', 'open', p_visibility, coalesce(v_prize, 'Bragging Rights!'), p_created_by)
      returning c.id, c.registration_key;
  exception when unique_violation then
    get stacked diagnostics v_constraint = constraint_name;
    if v_constraint = 'competitions_name_type_key' then
      raise exception using errcode = 'P0001', message = 'A competition with this name and type already exists.';
    end if;
    raise;
  end;
end
$$;

create or replace view public.user_competition_stats_view with (security_invoker = true) as
select
  c.id as competition_id,
  c.name as competition,
  c.type as competition_type,
  c.league,
  c.season,
  c.status as competition_status,
  c.registration_status,
  c.visibility,
  c.created_by,
  c.current_match_day,
  md.first_kickoff_time,
  dl.deadline as selection_deadline,
  us.user_id,
  pn.username,
  us.status as membership_status,
  us.knocked_out_on,
  us.match_day as joined_match_day,
  us.wins,
  us.draws,
  us.losses,
  us.goals_for,
  us.goals_against,
  us.points,
  case when c.type = 'season' then mr.rank end as rank,
  ts.selected_team is not null as has_selection,
  ts.selected_team as current_selection,
  (us.user_id is distinct from (select auth.uid())
     and not public.matchday_deadline_passed(c.league, c.season, c.current_match_day))
    as selection_hidden,
  -- 'active' = this member may pick now (the page shows Select Team / Edit Team); every page reads this.
  case
    when us.status = 'eliminated' then 'eliminated'
    when us.status <> 'active' or c.status <> 'active' or c.registration_status = 'completed'
      or not public.selection_open(c.league, c.season, c.current_match_day)
      then 'closed'
    else 'active'
  end as selection_status
from public.user_selections us
join public.competitions c on c.id = us.competition_id
left join public.player_names pn on pn.id = us.user_id
left join public.membership_ranks mr on mr.competition_id = us.competition_id and mr.user_id = us.user_id
left join public.matchdays md
  on md.league = c.league and md.season = c.season and md.match_day = c.current_match_day
cross join lateral (select public.matchday_deadline(c.league, c.season, c.current_match_day) as deadline) dl
left join public.team_selections ts
  on ts.user_id = us.user_id and ts.competition_id = us.competition_id and ts.match_day = c.current_match_day;
