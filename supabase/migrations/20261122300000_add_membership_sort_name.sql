-- Leaderboard sort key on memberships: user_selections.sort_name = lower(username) of the member, kept by
-- triggers (set on insert, followed when a player renames). With it, both leaderboard orders are plain index
-- orders on user_selections, so a page of a 100,000-member competition is an ordered index scan (with an
-- offset) rather than a sort of the whole competition joined to player_names.
--
-- Usernames are unique case-insensitively (profiles_username_lower_key), so (sort_name) alone already orders
-- members totally within a competition; user_id is the last key only for safety.
--
-- Indexes (see 20261122300500_create_leaderboard_pages.sql for the readers):
--   knockout: (competition_id, status = 'eliminated', knocked_out_on desc nulls first, sort_name, user_id)
--   season:   (competition_id, points desc, goal_difference desc, goals_for desc, wins desc, sort_name, user_id)

alter table public.user_selections add column sort_name text not null default '';

update public.user_selections us
   set sort_name = pg_catalog.lower(pn.username)
  from public.player_names pn
 where pn.id = us.user_id and us.sort_name is distinct from pg_catalog.lower(pn.username);

create function private.user_selections_set_sort_name() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  select pg_catalog.lower(pn.username) into new.sort_name from public.player_names pn where pn.id = new.user_id;
  new.sort_name := coalesce(new.sort_name, '');
  return new;
end
$$;

create trigger user_selections_set_sort_name
  before insert or update of user_id on public.user_selections
  for each row execute function private.user_selections_set_sort_name();

-- A rename re-sorts the player's memberships. Competitions are locked first, in id order (the lock order of
-- 20261122200000_add_membership_stats.sql), then the membership rows are updated.
create function private.player_names_sync_sort_name() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  perform private.lock_competition(us.competition_id)
     from public.user_selections us
    where us.user_id = new.id
    order by us.competition_id;
  update public.user_selections us
     set sort_name = pg_catalog.lower(new.username)
   where us.user_id = new.id and us.sort_name is distinct from pg_catalog.lower(new.username);
  return null;
end
$$;

create trigger player_names_sync_sort_name
  after insert or update of username on public.player_names
  for each row execute function private.player_names_sync_sort_name();

revoke all on function private.user_selections_set_sort_name() from public;
revoke all on function private.player_names_sync_sort_name() from public;

create index user_selections_knockout_order_idx on public.user_selections
  (competition_id, (status = 'eliminated'), knocked_out_on desc nulls first, sort_name, user_id)
  include (status);

create index user_selections_season_order_idx on public.user_selections
  (competition_id, points desc, goal_difference desc, goals_for desc, wins desc, sort_name, user_id);
