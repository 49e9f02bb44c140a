-- Team selections (one pick per player, competition and match day) and the hidden-picks rule.
--
-- Reading: a player always reads their own picks; other players' picks of a match day only once that match
-- day's deadline has passed (public.matchday_deadline <= app_now()) and only as a member of the competition;
-- admins read all. Writing: players have no direct insert/update/delete policy — picks are saved by functions
-- that apply the selection rules (added later); admins may write directly.

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
  constraint team_selections_user_competition_match_day_key unique (user_id, competition_id, match_day),
  -- a pick needs a membership; leaving a competition removes its picks
  constraint team_selections_membership_fkey foreign key (user_id, competition_id)
    references public.user_selections (user_id, competition_id) on delete cascade,
  constraint team_selections_match_day_check check (match_day >= 1),
  constraint team_selections_prediction_check check (prediction in ('home_win', 'away_win'))
);

create index team_selections_competition_match_day_idx on public.team_selections (competition_id, match_day);
create index team_selections_fixture_id_idx on public.team_selections (fixture_id);

-- The fixture must be of the competition's league and season and of the pick's match day, and the team must
-- play in it; prediction follows the side.
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

create trigger team_selections_before_write
  before insert or update of fixture_id, selected_team, match_day, competition_id, prediction
  on public.team_selections
  for each row execute function private.team_selections_before_write();

create trigger team_selections_set_updated_at
  before update on public.team_selections
  for each row execute function private.set_updated_at();

-- True when the caller is a member of the competition and the match day's deadline has passed.
-- Security definer so the policy reads memberships/competitions/matchdays without policy recursion.
create function private.can_see_match_day_picks(p_competition_id uuid, p_match_day integer) returns boolean
  language sql stable
  security definer
  set search_path = ''
as $$
  select exists (
    select 1
    from public.competitions c
    where c.id = p_competition_id
      and public.matchday_deadline(c.league, c.season, p_match_day) <= public.app_now()
      and exists (
        select 1 from public.user_selections us
        where us.competition_id = c.id and us.user_id = (select auth.uid())
      )
  )
$$;

revoke all on function private.team_selections_before_write() from public;
revoke all on function private.can_see_match_day_picks(uuid, integer) from public, anon;
grant execute on function private.can_see_match_day_picks(uuid, integer) to authenticated, service_role;

-- Row-level security.
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
