-- Picks: team_selections (one pick per player, competition and match day), the hidden-picks rule, eligibility
-- (which teams a player may pick now), saving a pick, the creator's Manage Selections, and "may this
-- competition's members pick now" (competition_picks_open).
-- Rules: docs/game-rules.md "Knockout", "Season", "Hidden picks", "Creator's Manage Selections".
-- Decisions: 001 ("Hidden picks"), 005-game-rules-in-sql.md ("Eligibility", "Saving picks"), 011.
--
-- Reading: a player always reads their own picks; other players' picks of a match day only once that match
-- day's deadline has passed and only as a member of the competition; the competition's creator and admins read
-- all. Writing: players have no direct insert/update/delete policy; picks are saved by the functions below,
-- which apply the selection rules; admins may write directly. What picks score is kept by 50_standings.sql
-- (team_selections_refresh_stats_*); what they do at the end of a match day is 60_results_and_processing.sql,
-- which also bumps the live version of a match day its picks change (team_selections_bump_live_version_*,
-- decision 025).

-- ---------------------------------------------------------------------------------------------------------
-- team_selections
-- ---------------------------------------------------------------------------------------------------------

create table public.team_selections (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  competition_id uuid not null,
  match_day integer not null,
  fixture_id bigint not null references public.fixtures (id),
  selected_team text not null,
  prediction text not null,  -- derived from the side of selected_team in the fixture
  created_at timestamptz not null default public.app_now(),
  updated_at timestamptz not null default public.app_now(),
  set_by uuid references public.profiles (id) on delete set null,  -- creator/admin who set it for the player
  set_at timestamptz,
  -- the server picked it at the deadline for a player without a pick (missed pick: auto-pick; decision 028):
  -- shown as "Auto-picked" wherever picks are shown; it counts as the player's pick (the team is used)
  auto_picked boolean not null default false,
  constraint team_selections_user_competition_match_day_key unique (user_id, competition_id, match_day),
  -- a pick needs a membership; leaving a competition removes its picks
  constraint team_selections_membership_fkey foreign key (user_id, competition_id)
    references public.user_selections (user_id, competition_id) on delete cascade,
  constraint team_selections_match_day_check check (match_day >= 1),
  constraint team_selections_prediction_check check (prediction in ('home_win', 'away_win'))
);

create index team_selections_competition_match_day_idx on public.team_selections (competition_id, match_day);
create index team_selections_fixture_id_idx on public.team_selections (fixture_id);
-- the auto-picks of a competition from a match day on (re-processing deletes them; a correction of an earlier
-- result asks whether there are any later ones)
create index team_selections_auto_picked_idx on public.team_selections (competition_id, match_day) where auto_picked;

-- The fixture must be of the competition's league and season and of the pick's match day, and the team must
-- play in it ("No fixture found for selected team on this matchday."); prediction follows the side.
create function private.team_selections_before_write() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_fixture public.fixtures%rowtype;
  v_league text;
  v_season text;
begin
  select * into v_fixture from public.fixtures f where f.id = new.fixture_id;
  select c.league, c.season into v_league, v_season from public.competitions c where c.id = new.competition_id;

  if v_fixture.id is null
     or v_fixture.league is distinct from v_league
     or v_fixture.season is distinct from v_season
     or v_fixture.match_day <> new.match_day
     or new.selected_team not in (v_fixture.home_team, v_fixture.away_team) then
    raise exception using
      errcode = 'check_violation',
      constraint = 'team_selections_fixture_matches',
      message = 'No fixture found for selected team on this matchday.';
  end if;

  new.prediction := case when new.selected_team = v_fixture.home_team then 'home_win' else 'away_win' end;
  return new;
end
$$;

-- Not for an auto-pick: private.auto_pick writes it on a fixture of the match day it chose, with its prediction
-- (only definer functions can write auto_picked: players and admins have no grant on the column), and at 33,000
-- auto-picks of a match day the per-row checks were most of its time.
create trigger team_selections_before_write
  before insert or update of fixture_id, selected_team, match_day, competition_id, prediction
  on public.team_selections
  for each row when (not new.auto_picked) execute function private.team_selections_before_write();

create trigger team_selections_set_updated_at
  before update on public.team_selections
  for each row execute function private.set_updated_at();

-- The competition lock before a pick is written (lock order: 30_competitions_and_membership.sql).
-- Auto-picks are written and deleted only by processing, which holds the competition lock already (and at 33,000
-- of them a lock per row cost about a second).
create trigger team_selections_lock_competition
  before insert or update on public.team_selections
  for each row when (not new.auto_picked) execute function private.lock_competition_of_row();

create trigger team_selections_lock_competition_delete
  before delete on public.team_selections
  for each row when (not old.auto_picked) execute function private.lock_competition_of_row();

revoke all on function private.team_selections_before_write() from public;

-- ---------------------------------------------------------------------------------------------------------
-- Hidden picks
-- ---------------------------------------------------------------------------------------------------------

-- May the caller see the picks of this competition's match day? A member once the match day's deadline has
-- passed (matchday_deadline_passed); the creator is a player too, so the same holds for them (Manage Selections
-- reads manage_selections below, which says only whether a member picked). Admins see every pick through
-- team_selections_select_admin. Security definer so the policy reads memberships/competitions/matchdays
-- without policy recursion.
create function private.can_see_match_day_picks(p_competition_id uuid, p_match_day integer) returns boolean
  language sql stable security definer
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

revoke all on function private.can_see_match_day_picks(uuid, integer) from public, anon;
grant execute on function private.can_see_match_day_picks(uuid, integer) to authenticated, service_role;

alter table public.team_selections enable row level security;

create policy team_selections_select_own on public.team_selections
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy team_selections_select_revealed on public.team_selections
  for select to authenticated
  using (private.can_see_match_day_picks(competition_id, match_day));

create policy team_selections_select_admin on public.team_selections
  for select to authenticated
  using ((select private.is_admin()));

create policy team_selections_insert_admin on public.team_selections
  for insert to authenticated
  with check ((select private.is_admin()));

create policy team_selections_update_admin on public.team_selections
  for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy team_selections_delete_admin on public.team_selections
  for delete to authenticated
  using ((select private.is_admin()));

revoke all on table public.team_selections from public, anon, authenticated;
grant select, delete on table public.team_selections to authenticated;
grant insert (user_id, competition_id, match_day, fixture_id, selected_team, prediction, set_by, set_at)
  on table public.team_selections to authenticated;
grant update (fixture_id, selected_team, prediction, set_by, set_at)
  on table public.team_selections to authenticated;
grant all on table public.team_selections to service_role;

-- ---------------------------------------------------------------------------------------------------------
-- May members pick now?
-- ---------------------------------------------------------------------------------------------------------

-- The competition is active, not completed, and its current match day is open for selection (selection_open).
-- The membership view's selection_status (what every page shows, 50_standings.sql) and the scheduler's
-- reminders (private.queue_reminders, which asks it once per competition rather than once per member) both
-- read it.
create function public.competition_picks_open(
  p_status text, p_registration_status text, p_league text, p_season text, p_current_match_day integer
) returns boolean
  language sql stable
  set search_path = ''
as $$
  select p_status = 'active' and p_registration_status <> 'completed'
         and public.selection_open(p_league, p_season, p_current_match_day)
$$;

comment on function public.competition_picks_open(text, text, text, text, integer) is
  'A competition''s active members may pick now: the competition is active, not completed, and selection_open() for its current match day. The one home of the rule.';

revoke all on function public.competition_picks_open(text, text, text, text, integer) from public, anon;
grant execute on function public.competition_picks_open(text, text, text, text, integer) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- Eligibility: one home
-- ---------------------------------------------------------------------------------------------------------

-- The teams a player may pick now in a competition for a match day (p_match_day; null = the current one): teams
-- with a (not postponed) fixture on that match day, only while it is a coming match day of the competition (from
-- the current match day to the last) open for selection (selection_open: fixtures, deadline ahead), only for an
-- active member of an active season/knockout competition. Knockout: minus the teams the player picked or planned
-- on any other match day of this competition (a team appears at most once in a player's picks and plans
-- together; that match day's own pick stays eligible, so it can be changed back; the page disables it). Season:
-- no reuse rule. Empty for anyone asking about another player unless an admin. The definer reads the player's
-- picks whatever the caller's row-level view; save_team_selection and the auto-pick (private.auto_pick) apply the
-- same rule.
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

-- ---------------------------------------------------------------------------------------------------------
-- Saving picks
-- ---------------------------------------------------------------------------------------------------------

-- The player's own pick for a match day (p_match_day; null = the current one), or a plan for a coming one
-- (rules file "Planning ahead": a plan is a pick; it counts at its deadline). Re-checks everything in its own
-- transaction: the competition row is locked first (FOR NO KEY UPDATE: the lock order, the same order as a
-- match-day advance: competition, then memberships), so the current match day cannot move under a save and a
-- pick that changes the standings can re-rank without deadlocking against other saves; then the caller's
-- membership FOR UPDATE, so two concurrent saves of one player serialise and cannot both pass the knockout reuse
-- rule; then status, the match day (a coming one: from the current to the last, open for selection) and
-- eligibility through private.eligible_teams. It upserts the one row for (player, competition, match day) on the
-- first non-postponed fixture of the team; a player's own save clears set_by/set_at and the auto-pick marker.
-- Codes: saved | not_found | not_registered | eliminated | selection_closed | not_eligible.
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

-- Manage Selections: the competition's creator or an admin sets a member's pick for the current match day, also
-- after the deadline and whatever the member's status, with any team that has a fixture that match day (a
-- postponed fixture still counts, a played one is preferred); set_by/set_at record who and when. Before the
-- deadline a creator who is not an admin may set a pick only for a member without one (hidden picks).
-- Codes: saved | not_found | forbidden | not_registered | no_fixture | already_picked.
create function private.set_player_selection(p_competition_id uuid, p_user_id uuid, p_team text) returns text
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

create function public.set_player_selection(p_competition_id uuid, p_user_id uuid, p_team text) returns text
  language sql
  set search_path = ''
as $$
  select private.set_player_selection(p_competition_id, p_user_id, p_team)
$$;

revoke all on function private.save_team_selection(uuid, text, integer) from public, anon;
revoke all on function private.set_player_selection(uuid, uuid, text) from public, anon;
grant execute on function private.save_team_selection(uuid, text, integer) to authenticated, service_role;
grant execute on function private.set_player_selection(uuid, uuid, text) to authenticated, service_role;
revoke all on function public.save_team_selection(uuid, text, integer) from public, anon;
revoke all on function public.set_player_selection(uuid, uuid, text) from public, anon;
grant execute on function public.save_team_selection(uuid, text, integer) to authenticated, service_role;
grant execute on function public.set_player_selection(uuid, uuid, text) to authenticated, service_role;

-- The Manage Selections list: rows only for the competition's creator and admins; each member, whether they
-- picked for the current match day, and the team only once the deadline has passed (or for an admin), with
-- whether the server auto-picked it.
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
