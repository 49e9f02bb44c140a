-- The Scout game: FootyCoach tickets, redeeming tickets into entries, score predictions, scoring (hooked into
-- every fixture change, run once per transaction at commit), match-day advance, season totals and both
-- leaderboards. Rules: docs/game-rules.md "Scout" (from the rules file). One home each:
--   lock ............ public.selection_open(league, season, current_match_day) (false = locked)
--   points .......... private.scout_points
--   ticket use ...... private.redeem_ticket_for_entry
--   scoring ......... private.score_scout_fixtures (idempotent: only changed predictions are written)

-- ---------------------------------------------------------------------------------------------------------
-- Columns
-- ---------------------------------------------------------------------------------------------------------

-- The name Scout leaderboards show instead of the username when set.
alter table public.profiles
  add column display_name text,
  add constraint profiles_display_name_length check (
    char_length(display_name) between 1 and 40 and btrim(display_name) = display_name
  );
grant insert (display_name), update (display_name) on table public.profiles to authenticated;

-- A FootyCoach ticket is usable from this match day of its competition on: the fresh ticket granted after a
-- redeem is valid from the next match day, so a player gets one free entry per match day.
alter table public.tickets
  add column valid_from_match_day integer,
  add constraint tickets_valid_from_only_footycoach check (valid_from_match_day is null or ticket_type = 'footycoach'),
  add constraint tickets_valid_from_range check (valid_from_match_day >= 1);

create index tickets_user_unused_referral_idx on public.tickets (user_id) where ticket_type = 'referral' and not used;

-- Scoring rewrites points in bulk: leave room on each page so those updates stay HOT (no index writes), and keep
-- updated_at for the player's own changes (scores), not the scorer's.
alter table public.scout_predictions set (fillfactor = 85);
drop trigger scout_predictions_set_updated_at on public.scout_predictions;
create trigger scout_predictions_set_updated_at
  before update of home_goals, away_goals on public.scout_predictions
  for each row execute function private.set_updated_at();

-- ---------------------------------------------------------------------------------------------------------
-- Points
-- ---------------------------------------------------------------------------------------------------------

-- Points of one prediction: 5 for the exact score; else 2 when either team's goal count is right plus 1 when the
-- result is right (at most 3). Only a complete fixture scores; pending and postponed give 0.
-- No SET clause, so the planner inlines it into set-based scoring (a SET makes every call a function call, which
-- tripled the time to score a million predictions); every name in it is schema-qualified or a built-in operator
-- on integers.
create function private.scout_points(
  p_home_goals integer, p_away_goals integer, p_status text, p_home_score integer, p_away_score integer
) returns integer
  language sql
  immutable
as $$
  select case
    when p_status is distinct from 'complete' or p_home_score is null or p_away_score is null then 0
    when p_home_goals = p_home_score and p_away_goals = p_away_score then 5
    else (case when p_home_goals = p_home_score or p_away_goals = p_away_score then 2 else 0 end)
       + (case when pg_catalog.sign(p_home_goals - p_away_goals) = pg_catalog.sign(p_home_score - p_away_score)
               then 1 else 0 end)
  end
$$;

-- ---------------------------------------------------------------------------------------------------------
-- Season totals: per player and (league, season), the sum over match days of the best entry of each match day
-- ---------------------------------------------------------------------------------------------------------

create table public.scout_season_totals (
  league text not null,
  season text not null,
  user_id uuid not null references public.profiles (id) on delete cascade,
  total_points integer not null,
  exact_count integer not null,
  best_entry_index integer not null,  -- of the best entry of the player's latest match day
  latest_match_day integer not null,
  first_entry_at timestamptz not null,  -- tie-break: earliest first
  primary key (league, season, user_id)
);

create index scout_season_totals_board_idx
  on public.scout_season_totals (league, season, total_points desc, exact_count desc, first_entry_at, user_id);

alter table public.scout_season_totals enable row level security;

create policy scout_season_totals_select_own on public.scout_season_totals
  for select to authenticated
  using (user_id = (select auth.uid()));

revoke all on table public.scout_season_totals from public, anon, authenticated;
grant select on table public.scout_season_totals to authenticated;
grant all on table public.scout_season_totals to service_role;

-- Rebuild the season rows of these players (league, season) from their entries; only changed rows are written.
create function private.refresh_scout_season_totals(p_league text, p_season text, p_user_ids uuid[]) returns void
  language sql
  security definer
  set search_path = ''
as $$
  with best as (
    select distinct on (e.user_id, e.match_day)
           e.user_id, e.match_day, e.total_points, e.exact_count, e.entry_index
      from public.scout_entries e
      join (select distinct u.id from unnest(p_user_ids) as u (id)) u on u.id = e.user_id  -- a join, not = any: O(n)
     where e.league = p_league and e.season = p_season
     order by e.user_id, e.match_day, e.total_points desc, e.exact_count desc, e.created_at, e.id
  ), firsts as (
    select e.user_id, min(e.created_at) as first_entry_at
      from public.scout_entries e
      join (select distinct u.id from unnest(p_user_ids) as u (id)) u on u.id = e.user_id
     where e.league = p_league and e.season = p_season
     group by e.user_id
  ), totals as (
    select b.user_id,
           sum(b.total_points)::integer as total_points,
           sum(b.exact_count)::integer as exact_count,
           (pg_catalog.array_agg(b.entry_index order by b.match_day desc))[1] as best_entry_index,
           max(b.match_day) as latest_match_day
      from best b
     group by b.user_id
  )
  insert into public.scout_season_totals as s
    (league, season, user_id, total_points, exact_count, best_entry_index, latest_match_day, first_entry_at)
  select p_league, p_season, t.user_id, t.total_points, t.exact_count, t.best_entry_index, t.latest_match_day,
         f.first_entry_at
    from totals t join firsts f using (user_id)
  on conflict (league, season, user_id) do update
     set total_points = excluded.total_points, exact_count = excluded.exact_count,
         best_entry_index = excluded.best_entry_index, latest_match_day = excluded.latest_match_day,
         first_entry_at = excluded.first_entry_at
   where (s.total_points, s.exact_count, s.best_entry_index, s.latest_match_day, s.first_entry_at)
         is distinct from (excluded.total_points, excluded.exact_count, excluded.best_entry_index,
                           excluded.latest_match_day, excluded.first_entry_at)
$$;

-- ---------------------------------------------------------------------------------------------------------
-- Scoring
-- ---------------------------------------------------------------------------------------------------------

-- Lock the Scout competitions of these (league, season) keys in id order, so scorings of one league and season
-- run one after another (each statement after the lock sees the other's committed points).
create function private.lock_scout_competitions(p_leagues text[], p_seasons text[]) returns void
  language sql
  security definer
  set search_path = ''
as $$
  select null::void from (
    select c.id from public.competitions c
      join unnest(p_leagues, p_seasons) as k (league, season)  -- multi-argument unnest is syntax, not schema-qualified
        on k.league = c.league and k.season = c.season
     where c.type = 'scout'
     order by c.id
       for no key update of c
  ) x
$$;

-- Score every prediction of these fixtures from the fixtures' current results, adjust the entries' totals by the
-- change, move the affected players' season totals by the change of their best entries and advance Scout
-- competitions whose match day finished.
-- Set-based and idempotent: a prediction whose points are already right is not written. Returns the number of
-- entries whose points changed.
create function private.score_scout_fixtures(p_fixture_ids bigint[]) returns integer
  language plpgsql
  security definer
  set search_path = ''
  set work_mem = '64MB'  -- a match day's entries (100,000) are sorted and hashed in memory, not on disk
as $$
declare
  v_leagues text[];
  v_seasons text[];
  v_changed integer;
  v_k record;
begin
  if p_fixture_ids is null or pg_catalog.cardinality(p_fixture_ids) = 0 then
    return 0;
  end if;
  select pg_catalog.array_agg(k.league order by k.league, k.season), pg_catalog.array_agg(k.season order by k.league, k.season)
    into v_leagues, v_seasons
    from (select distinct f.league, f.season from public.fixtures f where f.id = any (p_fixture_ids)) k;
  perform private.lock_scout_competitions(v_leagues, v_seasons);

  -- 1. Re-score (only predictions whose points change are written), then each touched entry's new sums next to
  -- its stored ones: the change drives the season totals below.
  create temporary table if not exists scout_entry_changes (
    entry_id uuid primary key, d_points integer not null, d_exact integer not null
  ) on commit drop;
  delete from pg_temp.scout_entry_changes;
  with changed as (
    update public.scout_predictions p
       set points_awarded = private.scout_points(p.home_goals, p.away_goals, f.status, f.home_score, f.away_score),
           exact = private.scout_points(p.home_goals, p.away_goals, f.status, f.home_score, f.away_score) = 5
      from public.fixtures f
     where f.id = p.fixture_id and p.fixture_id = any (p_fixture_ids)
       and p.points_awarded <> private.scout_points(p.home_goals, p.away_goals, f.status, f.home_score, f.away_score)
    returning p.scout_entry_id
  )
  insert into pg_temp.scout_entry_changes (entry_id, d_points, d_exact)
  select distinct c.scout_entry_id, 0, 0 from changed c;
  get diagnostics v_changed = row_count;
  analyze pg_temp.scout_entry_changes;  -- a new temporary table has no statistics: plan the joins below on real counts
  -- (the update's new points are visible from the next statement on)
  update pg_temp.scout_entry_changes c
     set d_points = s.points - e.total_points, d_exact = s.exact - e.exact_count
    from public.scout_entries e,
         lateral (select coalesce(sum(p.points_awarded), 0)::integer as points,
                         (count(*) filter (where p.exact))::integer as exact
                    from public.scout_predictions p where p.scout_entry_id = e.id) s
   where e.id = c.entry_id;

  if v_changed > 0 then
    -- 2. Season totals: players without a row yet (entries not made through redeem) get one built in full.
    for v_k in
      select e.league, e.season, pg_catalog.array_agg(distinct e.user_id) as users
        from pg_temp.scout_entry_changes c
        join public.scout_entries e on e.id = c.entry_id
       where not exists (select 1 from public.scout_season_totals s
                          where s.league = e.league and s.season = e.season and s.user_id = e.user_id)
       group by e.league, e.season
    loop
      perform private.refresh_scout_season_totals(v_k.league, v_k.season, v_k.users);
    end loop;

    -- 3. Then move every touched player's season total by the change of the best entry of each touched match
    -- day: the best before (entries still hold the old totals) and after (old totals + change). Only the touched
    -- (player, match day) groups are read, never the player's whole season.
    with touched as (
      select distinct e.league, e.season, e.match_day, e.user_id
        from pg_temp.scout_entry_changes c join public.scout_entries e on e.id = c.entry_id
    ), cand as (
      select e.league, e.season, e.match_day, e.user_id, e.id, e.entry_index, e.created_at,
             e.total_points as old_p, e.exact_count as old_e,
             e.total_points + coalesce(c.d_points, 0) as new_p, e.exact_count + coalesce(c.d_exact, 0) as new_e
        from touched t
        join public.scout_entries e
          on e.user_id = t.user_id and e.league = t.league and e.season = t.season and e.match_day = t.match_day
        left join pg_temp.scout_entry_changes c on c.entry_id = e.id
    ), old_best as (
      select distinct on (league, season, match_day, user_id) league, season, match_day, user_id, old_p, old_e
        from cand order by league, season, match_day, user_id, old_p desc, old_e desc, created_at, id
    ), new_best as (
      select distinct on (league, season, match_day, user_id) league, season, match_day, user_id, new_p, new_e, entry_index
        from cand order by league, season, match_day, user_id, new_p desc, new_e desc, created_at, id
    ), delta as (
      select n.league, n.season, n.user_id,
             sum(n.new_p - o.old_p)::integer as d_points, sum(n.new_e - o.old_e)::integer as d_exact,
             max(n.match_day) as match_day,
             (pg_catalog.array_agg(n.entry_index order by n.match_day desc))[1] as entry_index
        from new_best n join old_best o using (league, season, match_day, user_id)
       group by n.league, n.season, n.user_id
    )
    update public.scout_season_totals s
       set total_points = s.total_points + d.d_points,
           exact_count = s.exact_count + d.d_exact,
           best_entry_index = case when d.match_day >= s.latest_match_day then d.entry_index else s.best_entry_index end,
           latest_match_day = greatest(s.latest_match_day, d.match_day)
      from delta d
     where s.league = d.league and s.season = d.season and s.user_id = d.user_id
       and (d.d_points <> 0 or d.d_exact <> 0
            or (d.match_day >= s.latest_match_day and d.entry_index <> s.best_entry_index));

    -- 4. The entries themselves.
    update public.scout_entries e
       set total_points = e.total_points + c.d_points, exact_count = e.exact_count + c.d_exact
      from pg_temp.scout_entry_changes c
     where e.id = c.entry_id and (c.d_points <> 0 or c.d_exact <> 0);
  end if;

  for i in 1 .. coalesce(pg_catalog.cardinality(v_leagues), 0) loop
    perform private.advance_scout_competitions(v_leagues[i], v_seasons[i]);
  end loop;
  return v_changed;
end
$$;

-- A Scout competition moves to its next match day when the current one is finished (deadline passed, has
-- fixtures, none pending); after its last match day it closes (status inactive), which expires its unused
-- FootyCoach tickets. Returns the number of competitions that moved.
create function private.advance_scout_competitions(p_league text, p_season text) returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_c public.competitions%rowtype;
  v_moved integer := 0;
begin
  for v_c in
    select * from public.competitions c
     where c.type = 'scout' and c.status = 'active' and c.league = p_league and c.season = p_season
     order by c.id
       for no key update
  loop
    loop
      exit when not public.matchday_deadline_passed(v_c.league, v_c.season, v_c.current_match_day)
             or exists (select 1 from public.fixtures f
                         where f.league = v_c.league and f.season = v_c.season
                           and f.match_day = v_c.current_match_day and f.status = 'pending');
      if v_c.current_match_day >= v_c.total_match_days then
        update public.competitions c set status = 'inactive', registration_status = 'completed'
         where c.id = v_c.id returning * into v_c;
        v_moved := v_moved + 1;
        exit;
      end if;
      update public.competitions c set current_match_day = c.current_match_day + 1
       where c.id = v_c.id returning * into v_c;
      v_moved := v_moved + 1;
    end loop;
  end loop;
  return v_moved;
end
$$;

-- Fixtures whose result or status changed wait here until the transaction commits; the deferred trigger below
-- then scores them all in one pass (a CSV upload of 380 rows scores once, not 380 times).
create table private.scout_scoring_queue (
  fixture_id bigint primary key
);

create function private.fixtures_queue_scout_scoring() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into private.scout_scoring_queue (fixture_id)
    select n.id from new_rows n where n.status <> 'pending'
    on conflict do nothing;
  else
    insert into private.scout_scoring_queue (fixture_id)
    select n.id from new_rows n join old_rows o on o.id = n.id
     where (n.status, n.home_score, n.away_score) is distinct from (o.status, o.home_score, o.away_score)
    on conflict do nothing;
  end if;
  return null;
end
$$;

create trigger fixtures_queue_scout_scoring_insert
  after insert on public.fixtures
  referencing new table as new_rows
  for each statement execute function private.fixtures_queue_scout_scoring();

create trigger fixtures_queue_scout_scoring_update
  after update on public.fixtures
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.fixtures_queue_scout_scoring();

create function private.drain_scout_scoring_queue() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_ids bigint[];
begin
  with taken as (delete from private.scout_scoring_queue returning fixture_id)
  select pg_catalog.array_agg(t.fixture_id) into v_ids from taken t;
  perform private.score_scout_fixtures(v_ids);  -- the first row's firing takes the whole queue
  return null;
end
$$;

create constraint trigger scout_scoring_queue_drain
  after insert on private.scout_scoring_queue
  deferrable initially deferred
  for each row execute function private.drain_scout_scoring_queue();

-- Safety net for the scheduler: score every prediction whose points disagree with its fixture, and advance every
-- active Scout competition whose match day finished. Returns the number of entries re-scored.
create function private.score_scout_sweep() returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_n integer;
  v_k record;
begin
  if pg_catalog.current_setting('role', true) in ('authenticated', 'anon') and not private.is_admin() then
    raise exception using errcode = '42501', message = 'Access denied. Admins only.';
  end if;
  v_n := private.score_scout_fixtures(array(
    select distinct p.fixture_id
      from public.scout_predictions p
      join public.fixtures f on f.id = p.fixture_id
     where p.points_awarded
           <> private.scout_points(p.home_goals, p.away_goals, f.status, f.home_score, f.away_score)));
  for v_k in select distinct c.league, c.season from public.competitions c where c.type = 'scout' and c.status = 'active' loop
    perform private.advance_scout_competitions(v_k.league, v_k.season);
  end loop;
  return v_n;
end
$$;

create function public.score_scout_sweep() returns integer
  language sql
  set search_path = ''
as $$
  select private.score_scout_sweep()
$$;

-- ---------------------------------------------------------------------------------------------------------
-- FootyCoach tickets: one per player and active Scout competition, granted by the database
-- ---------------------------------------------------------------------------------------------------------

create function private.grant_footycoach_tickets_for_competition() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if new.type = 'scout' and new.status = 'active' then
    insert into public.tickets (user_id, ticket_type, target_competition_id, valid_from_match_day)
    select p.id, 'footycoach', new.id, new.current_match_day from public.profiles p
    on conflict do nothing;
  elsif new.type = 'scout' and tg_op = 'UPDATE' and old.status = 'active' then
    -- closed: unused FootyCoach tickets expire
    delete from public.tickets t
     where t.target_competition_id = new.id and t.ticket_type = 'footycoach' and not t.used;
  end if;
  return null;
end
$$;

create trigger competitions_grant_footycoach_tickets_insert
  after insert on public.competitions
  for each row execute function private.grant_footycoach_tickets_for_competition();

create trigger competitions_grant_footycoach_tickets_status
  after update of status on public.competitions
  for each row when (old.status is distinct from new.status)
  execute function private.grant_footycoach_tickets_for_competition();

create function private.grant_footycoach_tickets_for_profile() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  insert into public.tickets (user_id, ticket_type, target_competition_id, valid_from_match_day)
  select new.id, 'footycoach', c.id, c.current_match_day
    from public.competitions c where c.type = 'scout' and c.status = 'active'
  on conflict do nothing;
  return null;
end
$$;

create trigger profiles_grant_footycoach_tickets
  after insert on public.profiles
  for each row execute function private.grant_footycoach_tickets_for_profile();

-- Players who existed before this migration.
insert into public.tickets (user_id, ticket_type, target_competition_id, valid_from_match_day)
select p.id, 'footycoach', c.id, c.current_match_day
  from public.profiles p cross join public.competitions c
 where c.type = 'scout' and c.status = 'active'
on conflict do nothing;

-- ---------------------------------------------------------------------------------------------------------
-- Reads for the Scout page
-- ---------------------------------------------------------------------------------------------------------

-- The Scout page header for the caller: lock time and state, fixtures present, the caller's usable tickets, the
-- prize. No row when the competition is not an active Scout competition.
create function public.get_scout_state(p_competition_id uuid)
returns table (
  competition_id uuid, name text, league text, season text, current_match_day integer,
  lock_time timestamptz, locked boolean, has_fixtures boolean,
  footycoach_tickets integer, referral_tickets integer,
  prize_title text, prize_description text, prize_terms_url text, prize_image_url text
)
  language sql
  stable
  set search_path = ''
as $$
  select c.id, c.name, c.league, c.season, c.current_match_day,
         public.matchday_deadline(c.league, c.season, c.current_match_day),
         public.matchday_deadline_passed(c.league, c.season, c.current_match_day),
         exists (select 1 from public.fixtures f
                  where f.league = c.league and f.season = c.season and f.match_day = c.current_match_day),
         (select count(*)::integer from public.tickets t
           where t.user_id = (select auth.uid()) and t.ticket_type = 'footycoach' and not t.used
             and t.target_competition_id = c.id
             and coalesce(t.valid_from_match_day, 1) <= c.current_match_day),
         (select count(*)::integer from public.tickets t
           where t.user_id = (select auth.uid()) and t.ticket_type = 'referral' and not t.used),
         c.prize_title, c.prize_description, c.prize_terms_url, c.prize_image_url
    from public.competitions c
   where c.id = p_competition_id and c.type = 'scout' and c.status = 'active'
$$;

-- ---------------------------------------------------------------------------------------------------------
-- Redeem a ticket into an entry
-- ---------------------------------------------------------------------------------------------------------

-- Spend one ticket of the caller for a new entry on the competition's current match day: FootyCoach first, then
-- referral (or only the type asked for). Codes: created, no_tickets, max_entries, locked, not_found. Atomic and
-- serialised per player (profile row lock), so concurrent redeems never spend a ticket twice or exceed 10.
create function private.redeem_ticket_for_entry(p_user_id uuid, p_competition_id uuid, p_ticket_type text)
returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_c public.competitions%rowtype;
  v_count integer;
  v_ticket public.tickets%rowtype;
begin
  if p_user_id is null or p_user_id is distinct from (select auth.uid()) then
    raise exception using errcode = '42501', message = 'Entries can only be created for yourself.';
  end if;
  if p_ticket_type is not null and p_ticket_type not in ('footycoach', 'referral') then
    raise exception using errcode = '22023', message = 'Unknown ticket type.';
  end if;
  perform 1 from public.profiles p where p.id = p_user_id for no key update;
  if not found then
    return 'not_found';
  end if;
  select * into v_c from public.competitions c
   where c.id = p_competition_id and c.type = 'scout' and c.status = 'active';
  if not found then
    return 'not_found';
  end if;
  if not public.selection_open(v_c.league, v_c.season, v_c.current_match_day) then
    return 'locked';
  end if;
  select count(*)::integer into v_count from public.scout_entries e
   where e.competition_id = v_c.id and e.user_id = p_user_id and e.match_day = v_c.current_match_day;
  if v_count >= 10 then
    return 'max_entries';
  end if;

  select * into v_ticket from public.tickets t
   where t.user_id = p_user_id and not t.used
     and ((t.ticket_type = 'footycoach' and t.target_competition_id = v_c.id
           and coalesce(t.valid_from_match_day, 1) <= v_c.current_match_day
           and coalesce(p_ticket_type, 'footycoach') = 'footycoach')
          or (t.ticket_type = 'referral' and coalesce(p_ticket_type, 'referral') = 'referral'))
   order by (t.ticket_type = 'footycoach') desc, t.created_at, t.id
   limit 1
     for update;
  if not found then
    return 'no_tickets';
  end if;

  update public.tickets t set used = true, used_at = public.app_now() where t.id = v_ticket.id;
  insert into public.scout_entries (competition_id, user_id, match_day, entry_index, ticket_id)
  values (v_c.id, p_user_id, v_c.current_match_day,
          coalesce((select max(e.entry_index) + 1 from public.scout_entries e
                     where e.competition_id = v_c.id and e.user_id = p_user_id
                       and e.match_day = v_c.current_match_day), 0),
          v_ticket.id);
  -- the player's season row (so a player with no points yet is on the season board too)
  insert into public.scout_season_totals as s
    (league, season, user_id, total_points, exact_count, best_entry_index, latest_match_day, first_entry_at)
  values (v_c.league, v_c.season, p_user_id, 0, 0, 0, v_c.current_match_day, public.app_now())
  on conflict (league, season, user_id) do update
     set latest_match_day = excluded.latest_match_day, best_entry_index = 0
   where s.latest_match_day < excluded.latest_match_day;
  if v_ticket.ticket_type = 'footycoach' then
    -- the free entry of this match day is used; the next one comes with the next match day
    insert into public.tickets (user_id, ticket_type, target_competition_id, valid_from_match_day)
    values (p_user_id, 'footycoach', v_c.id, v_c.current_match_day + 1)
    on conflict do nothing;
  end if;
  return 'created';
end
$$;

create function public.redeem_ticket_for_entry(p_user_id uuid, p_competition_id uuid, p_ticket_type text default null)
returns text
  language sql
  set search_path = ''
as $$
  select private.redeem_ticket_for_entry(p_user_id, p_competition_id, p_ticket_type)
$$;

-- ---------------------------------------------------------------------------------------------------------
-- Save predictions
-- ---------------------------------------------------------------------------------------------------------

-- Insert or update the caller's predictions of one entry: a JSON array of {fixture_id, home_goals, away_goals}.
-- All or nothing. Codes: saved, locked, not_found, invalid_fixture, invalid_score.
create function private.save_scout_predictions(p_entry_id uuid, p_predictions jsonb) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_e public.scout_entries%rowtype;
  v_c public.competitions%rowtype;
  v_bad integer;
begin
  select * into v_e from public.scout_entries e where e.id = p_entry_id and e.user_id = (select auth.uid());
  if not found then
    return 'not_found';
  end if;
  select * into v_c from public.competitions c where c.id = v_e.competition_id;
  if v_c.status <> 'active' or v_c.current_match_day <> v_e.match_day
     or not public.selection_open(v_e.league, v_e.season, v_e.match_day) then
    return 'locked';
  end if;
  if p_predictions is null or pg_catalog.jsonb_typeof(p_predictions) <> 'array'
     or pg_catalog.jsonb_array_length(p_predictions) = 0 or pg_catalog.jsonb_array_length(p_predictions) > 100 then
    return 'invalid_score';
  end if;
  -- every element an object with whole-number goals 0..9 and a numeric fixture id
  select count(*) into v_bad from pg_catalog.jsonb_array_elements(p_predictions) x
   where pg_catalog.jsonb_typeof(x.value) <> 'object'
      or coalesce(x.value ->> 'home_goals', '') !~ '^[0-9]$'
      or coalesce(x.value ->> 'away_goals', '') !~ '^[0-9]$';
  if v_bad > 0 then
    return 'invalid_score';
  end if;
  select count(*) into v_bad from pg_catalog.jsonb_array_elements(p_predictions) x
   where coalesce(x.value ->> 'fixture_id', '') !~ '^[0-9]{1,18}$'
      or not exists (select 1 from public.fixtures f
                      where f.id = (x.value ->> 'fixture_id')::bigint and f.league = v_e.league
                        and f.season = v_e.season and f.match_day = v_e.match_day);
  if v_bad > 0 then
    return 'invalid_fixture';
  end if;

  insert into public.scout_predictions as p (scout_entry_id, fixture_id, home_goals, away_goals)
  select distinct on ((x.value ->> 'fixture_id')::bigint)
         v_e.id, (x.value ->> 'fixture_id')::bigint, (x.value ->> 'home_goals')::integer, (x.value ->> 'away_goals')::integer
    from pg_catalog.jsonb_array_elements(p_predictions) with ordinality x
   order by (x.value ->> 'fixture_id')::bigint, x.ordinality desc
  on conflict (scout_entry_id, fixture_id) do update
     set home_goals = excluded.home_goals, away_goals = excluded.away_goals
   where (p.home_goals, p.away_goals) is distinct from (excluded.home_goals, excluded.away_goals);
  return 'saved';
end
$$;

create function public.save_scout_predictions(p_entry_id uuid, p_predictions jsonb) returns text
  language sql
  set search_path = ''
as $$
  select private.save_scout_predictions(p_entry_id, p_predictions)
$$;

-- ---------------------------------------------------------------------------------------------------------
-- Leaderboards (every signed-in player sees them; names only, never predictions)
-- ---------------------------------------------------------------------------------------------------------

create function private.scout_display_name(p_user_id uuid) returns text
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select coalesce(p.display_name, p.username) from public.profiles p where p.id = p_user_id
$$;

-- Top entries of a match day: total points, then exact count, then earliest created.
create function private.get_scout_leaderboard_matchday(p_league text, p_season text, p_match_day integer, p_limit integer)
returns table (rank bigint, user_id uuid, display_name text, total_points integer, exact_count integer, entry_index integer)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select pg_catalog.row_number() over (order by e.total_points desc, e.exact_count desc, e.created_at, e.id),
         e.user_id, coalesce(p.display_name, p.username), e.total_points, e.exact_count, e.entry_index
    from (select * from public.scout_entries e
           where e.league = p_league and e.season = p_season and e.match_day = p_match_day
           order by e.total_points desc, e.exact_count desc, e.created_at, e.id
           limit least(greatest(coalesce(p_limit, 100), 1), 100)) e
    join public.profiles p on p.id = e.user_id
   order by 1
$$;

-- One player's best entry of a match day with its true rank (no row when the player has no entry).
create function private.get_scout_leaderboard_matchday_player(p_league text, p_season text, p_match_day integer, p_user_id uuid)
returns table (rank bigint, user_id uuid, display_name text, total_points integer, exact_count integer, entry_index integer)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select 1 + (select count(*) from public.scout_entries o
               where o.league = p_league and o.season = p_season and o.match_day = p_match_day
                 and (o.total_points > b.total_points
                      or (o.total_points = b.total_points and o.exact_count > b.exact_count)
                      or (o.total_points = b.total_points and o.exact_count = b.exact_count
                          and (o.created_at, o.id) < (b.created_at, b.id)))),
         b.user_id, private.scout_display_name(b.user_id), b.total_points, b.exact_count, b.entry_index
    from (select * from public.scout_entries e
           where e.league = p_league and e.season = p_season and e.match_day = p_match_day and e.user_id = p_user_id
           order by e.total_points desc, e.exact_count desc, e.created_at, e.id
           limit 1) b
$$;

-- Season: per player the sum of the best entry of each match day.
create function private.get_scout_leaderboard_season(p_league text, p_season text, p_limit integer)
returns table (rank bigint, user_id uuid, display_name text, total_points integer, exact_count integer, best_entry_index integer)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select pg_catalog.row_number() over (order by s.total_points desc, s.exact_count desc, s.first_entry_at, s.user_id),
         s.user_id, coalesce(p.display_name, p.username), s.total_points, s.exact_count, s.best_entry_index
    from (select * from public.scout_season_totals s
           where s.league = p_league and s.season = p_season
           order by s.total_points desc, s.exact_count desc, s.first_entry_at, s.user_id
           limit least(greatest(coalesce(p_limit, 100), 1), 100)) s
    join public.profiles p on p.id = s.user_id
   order by 1
$$;

create function private.get_scout_leaderboard_season_player(p_league text, p_season text, p_user_id uuid)
returns table (rank bigint, user_id uuid, display_name text, total_points integer, exact_count integer, best_entry_index integer)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select 1 + (select count(*) from public.scout_season_totals o
               where o.league = p_league and o.season = p_season
                 and (o.total_points > s.total_points
                      or (o.total_points = s.total_points and o.exact_count > s.exact_count)
                      or (o.total_points = s.total_points and o.exact_count = s.exact_count
                          and (o.first_entry_at, o.user_id) < (s.first_entry_at, s.user_id)))),
         s.user_id, private.scout_display_name(s.user_id), s.total_points, s.exact_count, s.best_entry_index
    from public.scout_season_totals s
   where s.league = p_league and s.season = p_season and s.user_id = p_user_id
$$;

create function public.get_scout_leaderboard_matchday(p_league text, p_season text, p_match_day integer, p_limit integer default 100)
returns table (rank bigint, user_id uuid, display_name text, total_points integer, exact_count integer, entry_index integer)
  language sql
  stable
  set search_path = ''
as $$
  select * from private.get_scout_leaderboard_matchday(p_league, p_season, p_match_day, p_limit)
$$;

create function public.get_scout_leaderboard_matchday_player(p_league text, p_season text, p_match_day integer, p_user_id uuid)
returns table (rank bigint, user_id uuid, display_name text, total_points integer, exact_count integer, entry_index integer)
  language sql
  stable
  set search_path = ''
as $$
  select * from private.get_scout_leaderboard_matchday_player(p_league, p_season, p_match_day, p_user_id)
$$;

create function public.get_scout_leaderboard_season(p_league text, p_season text, p_limit integer default 100)
returns table (rank bigint, user_id uuid, display_name text, total_points integer, exact_count integer, best_entry_index integer)
  language sql
  stable
  set search_path = ''
as $$
  select * from private.get_scout_leaderboard_season(p_league, p_season, p_limit)
$$;

create function public.get_scout_leaderboard_season_player(p_league text, p_season text, p_user_id uuid)
returns table (rank bigint, user_id uuid, display_name text, total_points integer, exact_count integer, best_entry_index integer)
  language sql
  stable
  set search_path = ''
as $$
  select * from private.get_scout_leaderboard_season_player(p_league, p_season, p_user_id)
$$;

-- ---------------------------------------------------------------------------------------------------------
-- Hidden predictions: other players' entries and predictions become readable once their match day locks
-- ---------------------------------------------------------------------------------------------------------

create policy scout_entries_select_after_lock on public.scout_entries
  for select to authenticated
  using (public.matchday_deadline_passed(league, season, match_day));

create policy scout_predictions_select_after_lock on public.scout_predictions
  for select to authenticated
  using (exists (
    select 1 from public.scout_entries e
     where e.id = scout_entry_id and public.matchday_deadline_passed(e.league, e.season, e.match_day)
  ));

-- ---------------------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------------------

revoke all on table private.scout_scoring_queue from public, anon, authenticated;
revoke all on function private.scout_points(integer, integer, text, integer, integer) from public;
revoke all on function private.refresh_scout_season_totals(text, text, uuid[]) from public;
revoke all on function private.lock_scout_competitions(text[], text[]) from public;
revoke all on function private.score_scout_fixtures(bigint[]) from public;
revoke all on function private.advance_scout_competitions(text, text) from public;
revoke all on function private.fixtures_queue_scout_scoring() from public;
revoke all on function private.drain_scout_scoring_queue() from public;
revoke all on function private.grant_footycoach_tickets_for_competition() from public;
revoke all on function private.grant_footycoach_tickets_for_profile() from public;
revoke all on function private.scout_display_name(uuid) from public;
revoke all on function private.score_scout_sweep() from public, anon;
grant execute on function private.score_scout_sweep() to authenticated, service_role;
revoke all on function public.score_scout_sweep() from public, anon;
grant execute on function public.score_scout_sweep() to authenticated, service_role;

revoke all on function private.redeem_ticket_for_entry(uuid, uuid, text) from public, anon;
grant execute on function private.redeem_ticket_for_entry(uuid, uuid, text) to authenticated, service_role;
revoke all on function private.save_scout_predictions(uuid, jsonb) from public, anon;
grant execute on function private.save_scout_predictions(uuid, jsonb) to authenticated, service_role;
revoke all on function public.redeem_ticket_for_entry(uuid, uuid, text) from public, anon;
grant execute on function public.redeem_ticket_for_entry(uuid, uuid, text) to authenticated, service_role;
revoke all on function public.save_scout_predictions(uuid, jsonb) from public, anon;
grant execute on function public.save_scout_predictions(uuid, jsonb) to authenticated, service_role;
revoke all on function public.get_scout_state(uuid) from public, anon;
grant execute on function public.get_scout_state(uuid) to authenticated, service_role;

revoke all on function private.get_scout_leaderboard_matchday(text, text, integer, integer) from public, anon;
grant execute on function private.get_scout_leaderboard_matchday(text, text, integer, integer) to authenticated, service_role;
revoke all on function private.get_scout_leaderboard_matchday_player(text, text, integer, uuid) from public, anon;
grant execute on function private.get_scout_leaderboard_matchday_player(text, text, integer, uuid) to authenticated, service_role;
revoke all on function private.get_scout_leaderboard_season(text, text, integer) from public, anon;
grant execute on function private.get_scout_leaderboard_season(text, text, integer) to authenticated, service_role;
revoke all on function private.get_scout_leaderboard_season_player(text, text, uuid) from public, anon;
grant execute on function private.get_scout_leaderboard_season_player(text, text, uuid) to authenticated, service_role;
revoke all on function public.get_scout_leaderboard_matchday(text, text, integer, integer) from public, anon;
grant execute on function public.get_scout_leaderboard_matchday(text, text, integer, integer) to authenticated, service_role;
revoke all on function public.get_scout_leaderboard_matchday_player(text, text, integer, uuid) from public, anon;
grant execute on function public.get_scout_leaderboard_matchday_player(text, text, integer, uuid) to authenticated, service_role;
revoke all on function public.get_scout_leaderboard_season(text, text, integer) from public, anon;
grant execute on function public.get_scout_leaderboard_season(text, text, integer) to authenticated, service_role;
revoke all on function public.get_scout_leaderboard_season_player(text, text, uuid) from public, anon;
grant execute on function public.get_scout_leaderboard_season_player(text, text, uuid) to authenticated, service_role;
