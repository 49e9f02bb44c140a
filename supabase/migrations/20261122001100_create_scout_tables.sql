-- The Scout: entries (one per redeemed ticket, entry_index 0..9 per player, competition and match day) and
-- their score predictions. Created, saved and scored by functions (later); players read their own.

create table public.scout_entries (
  id uuid primary key default gen_random_uuid(),
  competition_id uuid not null references public.competitions (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  match_day integer not null,
  league text not null,  -- from the competition (trigger)
  season text not null,
  entry_index integer not null,
  ticket_id uuid references public.tickets (id) on delete set null,  -- the ticket spent on it
  total_points integer not null default 0,
  exact_count integer not null default 0,
  locked boolean not null default false,
  created_at timestamptz not null default public.app_now(),
  updated_at timestamptz not null default public.app_now(),
  constraint scout_entries_entry_key unique (competition_id, user_id, match_day, entry_index),
  constraint scout_entries_ticket_id_key unique (ticket_id),
  constraint scout_entries_match_day_check check (match_day >= 1),
  constraint scout_entries_entry_index_range check (entry_index between 0 and 9),
  constraint scout_entries_total_points_check check (total_points >= 0),
  constraint scout_entries_exact_count_check check (exact_count >= 0)
);

create index scout_entries_leaderboard_idx
  on public.scout_entries (league, season, match_day, total_points desc, exact_count desc, created_at);
create index scout_entries_user_match_day_idx
  on public.scout_entries (user_id, league, season, match_day, entry_index);

create function private.scout_entries_before_write() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_type text;
begin
  select c.type, c.league, c.season into v_type, new.league, new.season
  from public.competitions c where c.id = new.competition_id;
  if v_type is distinct from 'scout' then
    raise exception using
      errcode = 'check_violation',
      constraint = 'scout_entries_scout_competition',
      message = 'Scout entries belong to a scout competition.';
  end if;
  return new;
end
$$;

create trigger scout_entries_before_write
  before insert or update of competition_id on public.scout_entries
  for each row execute function private.scout_entries_before_write();

create trigger scout_entries_set_updated_at
  before update on public.scout_entries
  for each row execute function private.set_updated_at();

create table public.scout_predictions (
  id uuid primary key default gen_random_uuid(),
  scout_entry_id uuid not null references public.scout_entries (id) on delete cascade,
  fixture_id bigint not null references public.fixtures (id),
  home_goals integer not null,
  away_goals integer not null,
  points_awarded integer not null default 0,
  exact boolean not null default false,
  created_at timestamptz not null default public.app_now(),
  updated_at timestamptz not null default public.app_now(),
  constraint scout_predictions_entry_fixture_key unique (scout_entry_id, fixture_id),
  constraint scout_predictions_home_goals_range check (home_goals between 0 and 9),
  constraint scout_predictions_away_goals_range check (away_goals between 0 and 9),
  constraint scout_predictions_points_check check (points_awarded in (0, 1, 2, 3, 5)),
  constraint scout_predictions_exact_means_five check (exact = (points_awarded = 5))
);

create index scout_predictions_fixture_id_idx on public.scout_predictions (fixture_id);

create trigger scout_predictions_set_updated_at
  before update on public.scout_predictions
  for each row execute function private.set_updated_at();

revoke all on function private.scout_entries_before_write() from public;

alter table public.scout_entries enable row level security;

create policy scout_entries_select_own on public.scout_entries
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy scout_entries_select_admin on public.scout_entries
  for select to authenticated
  using ((select private.is_admin()));

alter table public.scout_predictions enable row level security;

-- The subquery runs under scout_entries' own policies, so it only finds the caller's entries.
create policy scout_predictions_select_own on public.scout_predictions
  for select to authenticated
  using (exists (
    select 1 from public.scout_entries e
    where e.id = scout_entry_id and e.user_id = (select auth.uid())
  ));

create policy scout_predictions_select_admin on public.scout_predictions
  for select to authenticated
  using ((select private.is_admin()));

revoke all on table public.scout_entries from public, anon, authenticated;
revoke all on table public.scout_predictions from public, anon, authenticated;
grant select on table public.scout_entries to authenticated;
grant select on table public.scout_predictions to authenticated;
grant all on table public.scout_entries to service_role;
grant all on table public.scout_predictions to service_role;
