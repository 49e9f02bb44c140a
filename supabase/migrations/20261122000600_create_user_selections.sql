-- Memberships (a player's registration in a competition) and the player_count invariant.
--
-- The join rules (registration open, private key, username present) belong to a join function added later;
-- this table only guarantees one membership per player and competition, consistent league/season, and that
-- competitions.player_count always equals the number of memberships.

create table public.user_selections (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  competition_id uuid not null references public.competitions (id) on delete cascade,
  league text not null,
  season text not null,
  match_day integer not null,  -- the competition's match day when the player joined
  status text not null default 'active',
  knocked_out_on integer,
  joined_at timestamptz not null default public.app_now(),
  constraint user_selections_user_competition_key unique (user_id, competition_id),
  constraint user_selections_match_day_check check (match_day >= 1),
  constraint user_selections_status_check check (status in ('active', 'completed', 'eliminated')),
  constraint user_selections_knocked_out_on_check check (knocked_out_on >= 1),
  constraint user_selections_knocked_out_iff_eliminated check (
    (status = 'eliminated') = (knocked_out_on is not null)
  )
);

-- Lookups by user are served by the unique (user_id, competition_id) index.
create index user_selections_competition_id_idx on public.user_selections (competition_id);

-- league and season always come from the competition; match_day defaults to its current match day.
create function private.user_selections_before_write() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_league text;
  v_season text;
  v_current integer;
begin
  select c.league, c.season, c.current_match_day into v_league, v_season, v_current
  from public.competitions c
  where c.id = new.competition_id;
  if found then
    new.league := v_league;
    new.season := v_season;
    new.match_day := coalesce(new.match_day, v_current);
  end if;
  return new;
end
$$;

create trigger user_selections_before_write
  before insert or update of competition_id on public.user_selections
  for each row execute function private.user_selections_before_write();

-- player_count: relative updates take the competition's row lock, so concurrent joins and leaves never lose
-- a count. Security definer: the joining player cannot update competitions.
create function private.user_selections_player_count() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.competitions c set player_count = c.player_count + 1 where c.id = new.competition_id;
  elsif tg_op = 'DELETE' then
    update public.competitions c set player_count = c.player_count - 1 where c.id = old.competition_id;
  elsif new.competition_id is distinct from old.competition_id then
    update public.competitions c set player_count = c.player_count - 1 where c.id = old.competition_id;
    update public.competitions c set player_count = c.player_count + 1 where c.id = new.competition_id;
  end if;
  return null;
end
$$;

create trigger user_selections_player_count
  after insert or delete or update of competition_id on public.user_selections
  for each row execute function private.user_selections_player_count();

revoke all on function private.user_selections_before_write() from public;
revoke all on function private.user_selections_player_count() from public;

-- Row-level security: memberships are visible to every signed-in player (registered-player lists, standings).
alter table public.user_selections enable row level security;

create policy user_selections_select_authenticated on public.user_selections
  for select to authenticated
  using (true);

create policy user_selections_insert_own on public.user_selections
  for insert to authenticated
  with check (user_id = (select auth.uid()));

create policy user_selections_insert_admin on public.user_selections
  for insert to authenticated
  with check ((select private.is_admin()));

create policy user_selections_update_admin on public.user_selections
  for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy user_selections_delete_own on public.user_selections
  for delete to authenticated
  using (user_id = (select auth.uid()));

create policy user_selections_delete_admin on public.user_selections
  for delete to authenticated
  using ((select private.is_admin()));

revoke all on table public.user_selections from public, anon, authenticated;
grant select, delete on table public.user_selections to authenticated;
grant insert (user_id, competition_id, league, season, match_day) on table public.user_selections to authenticated;
grant update (status, knocked_out_on, match_day) on table public.user_selections to authenticated;
grant all on table public.user_selections to service_role;
