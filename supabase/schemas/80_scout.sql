-- The Scout: entries (one per redeemed ticket) and their score predictions, the lock, redeeming a ticket, saving
-- predictions, points, scoring (hooked into every fixture change, run once per transaction at commit), the
-- match-day advance of Scout competitions, season totals and both leaderboards.
-- Rules: docs/game-rules.md "Scout". Decision: 015-scout-scoring-at-commit.md. One home each:
--   lock ............ public.selection_open(league, season, current_match_day) (false = locked;
--                     20_fixtures_and_matchdays.sql)
--   points .......... private.scout_points
--   ticket use ...... private.redeem_ticket_for_entry
--   save ............ private.save_scout_predictions
--   scoring ......... private.score_scout_fixtures (idempotent: only changed predictions are written)
--   season totals ... public.scout_season_totals, kept by scoring
-- Tickets and how they are granted: 70_referrals_and_tickets.sql. Scout competitions are created by
-- private.create_competition (30_competitions_and_membership.sql).

-- ---------------------------------------------------------------------------------------------------------
-- Entries and predictions
-- ---------------------------------------------------------------------------------------------------------

-- entry_index 0..9 per player, competition and match day; one entry per ticket.
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

revoke all on function private.scout_entries_before_write() from public;

-- Scoring rewrites points in bulk: leave room on each page (fillfactor 85) so those updates stay HOT (no index
-- writes), and keep updated_at for the player's own changes (scores), not the scorer's.
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
) with (fillfactor = 85);

create index scout_predictions_fixture_id_idx on public.scout_predictions (fixture_id);

create trigger scout_predictions_set_updated_at
  before update of home_goals, away_goals on public.scout_predictions
  for each row execute function private.set_updated_at();

-- Players read their own entries and predictions; other players' become readable once their match day locks
-- (matchday_deadline_passed); admins read all. Writes go through the functions below.
alter table public.scout_entries enable row level security;

create policy scout_entries_select_own on public.scout_entries
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy scout_entries_select_admin on public.scout_entries
  for select to authenticated
  using ((select private.is_admin()));

create policy scout_entries_select_after_lock on public.scout_entries
  for select to authenticated
  using (public.matchday_deadline_passed(league, season, match_day));

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

create policy scout_predictions_select_after_lock on public.scout_predictions
  for select to authenticated
  using (exists (
    select 1 from public.scout_entries e
     where e.id = scout_entry_id and public.matchday_deadline_passed(e.league, e.season, e.match_day)
  ));

revoke all on table public.scout_entries from public, anon, authenticated;
revoke all on table public.scout_predictions from public, anon, authenticated;
grant select on table public.scout_entries to authenticated;
grant select on table public.scout_predictions to authenticated;
grant all on table public.scout_entries to service_role;
grant all on table public.scout_predictions to service_role;

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

revoke all on function private.scout_points(integer, integer, text, integer, integer) from public;

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

revoke all on function private.refresh_scout_season_totals(text, text, uuid[]) from public;

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
-- competitions whose match day finished. Set-based and idempotent: a prediction whose points are already right is
-- not written. Returns the number of predictions whose points changed.
-- At 100,000 players: each entry's change comes from the rewritten predictions themselves (old and new points
-- side by side), not from re-summing every touched entry's predictions, and both bests of a touched (player,
-- match day) come from one ranked pass (a join of "best before" and "best after", misjudged by the planner at one
-- row, ran as a nested loop: 70 s at 30,000 players).
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

  -- 1. Re-score (only predictions whose points change are written) and keep each touched entry's change: it
  -- drives the season totals below.
  create temporary table if not exists scout_entry_changes (
    entry_id uuid primary key, d_points integer not null, d_exact integer not null, n_predictions integer not null
  ) on commit drop;
  delete from pg_temp.scout_entry_changes;
  -- The change of each touched entry comes from the rewritten rows themselves (old and new points side by side),
  -- so entries are not re-summed from their predictions.
  with scored as (
    select q.ctid as row_id, q.points_awarded as old_points, q.exact as old_exact,
           private.scout_points(q.home_goals, q.away_goals, f.status, f.home_score, f.away_score) as new_points
      from public.scout_predictions q
      join public.fixtures f on f.id = q.fixture_id
     where q.fixture_id = any (p_fixture_ids)
  ), changed as (
    update public.scout_predictions p
       set points_awarded = s.new_points, exact = s.new_points = 5
      from scored s
     where p.ctid = s.row_id and s.new_points <> s.old_points
    returning p.scout_entry_id, s.new_points - s.old_points as d_points, (s.new_points = 5)::integer - s.old_exact::integer as d_exact
  )
  insert into pg_temp.scout_entry_changes (entry_id, d_points, d_exact, n_predictions)
  select c.scout_entry_id, sum(c.d_points)::integer, sum(c.d_exact)::integer, count(*)::integer
    from changed c group by c.scout_entry_id;
  select coalesce(sum(c.n_predictions), 0)::integer into v_changed from pg_temp.scout_entry_changes c;
  analyze pg_temp.scout_entry_changes;  -- a new temporary table has no statistics: plan the joins below on real counts

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
    ), ranked as (
      -- each entry of a touched (player, match day) with its rank before (stored totals) and after (+ change);
      -- one pass, no join of the two bests (the planner misjudged that join's size and ran it as a nested loop)
      select e.league, e.season, e.match_day, e.user_id, e.entry_index,
             e.total_points as old_p, e.exact_count as old_e,
             e.total_points + coalesce(c.d_points, 0) as new_p, e.exact_count + coalesce(c.d_exact, 0) as new_e,
             pg_catalog.row_number() over (partition by e.league, e.season, e.match_day, e.user_id
                                           order by e.total_points desc, e.exact_count desc, e.created_at, e.id) as old_rank,
             pg_catalog.row_number() over (partition by e.league, e.season, e.match_day, e.user_id
                                           order by e.total_points + coalesce(c.d_points, 0) desc,
                                                    e.exact_count + coalesce(c.d_exact, 0) desc, e.created_at, e.id) as new_rank
        from touched t
        join public.scout_entries e
          on e.user_id = t.user_id and e.league = t.league and e.season = t.season and e.match_day = t.match_day
        left join pg_temp.scout_entry_changes c on c.entry_id = e.id
    ), per_day as (
      select r.league, r.season, r.match_day, r.user_id,
             max(r.new_p) filter (where r.new_rank = 1) - max(r.old_p) filter (where r.old_rank = 1) as d_points,
             max(r.new_e) filter (where r.new_rank = 1) - max(r.old_e) filter (where r.old_rank = 1) as d_exact,
             max(r.entry_index) filter (where r.new_rank = 1) as entry_index
        from ranked r
       group by r.league, r.season, r.match_day, r.user_id
    ), delta as (
      select p.league, p.season, p.user_id,
             sum(p.d_points)::integer as d_points, sum(p.d_exact)::integer as d_exact,
             max(p.match_day) as match_day,
             (pg_catalog.array_agg(p.entry_index order by p.match_day desc))[1] as entry_index
        from per_day p
       group by p.league, p.season, p.user_id
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
-- FootyCoach tickets (70_referrals_and_tickets.sql). Returns the number of competitions that moved.
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

revoke all on function private.lock_scout_competitions(text[], text[]) from public;
revoke all on function private.score_scout_fixtures(bigint[]) from public;
revoke all on function private.advance_scout_competitions(text, text) from public;

-- Fixtures whose result or status changed wait here until the transaction commits; the deferred trigger below
-- then scores them all in one pass (a CSV upload of 380 rows scores once, not 380 times).
create table private.scout_scoring_queue (
  fixture_id bigint primary key
);

revoke all on table private.scout_scoring_queue from public, anon, authenticated;

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

revoke all on function private.fixtures_queue_scout_scoring() from public;
revoke all on function private.drain_scout_scoring_queue() from public;

-- Safety net for the scheduler (the "scout_sweep" job): score every prediction whose points disagree with its
-- fixture, and advance every active Scout competition whose match day finished. Returns the number re-scored.
-- Admins and the service path only.
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

revoke all on function private.score_scout_sweep() from public, anon;
grant execute on function private.score_scout_sweep() to authenticated, service_role;
revoke all on function public.score_scout_sweep() from public, anon;
grant execute on function public.score_scout_sweep() to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- The Scout page
-- ---------------------------------------------------------------------------------------------------------

-- The page header for the caller: lock time and state, fixtures present, the caller's usable tickets, the
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

revoke all on function public.get_scout_state(uuid) from public, anon;
grant execute on function public.get_scout_state(uuid) to authenticated, service_role;

-- Spend one ticket of the caller for a new entry on the competition's current match day: FootyCoach first, then
-- referral (or only the type asked for); a FootyCoach redeem grants the fresh ticket of the next match day. At
-- most 10 entries per player, competition and match day. Locked (including no fixtures yet: nothing to predict)
-- when the current match day is not open for selection. Codes: created, no_tickets, max_entries, locked,
-- not_found. Atomic and serialised per player (profile row lock), so concurrent redeems never spend a ticket
-- twice or exceed 10.
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

revoke all on function private.redeem_ticket_for_entry(uuid, uuid, text) from public, anon;
grant execute on function private.redeem_ticket_for_entry(uuid, uuid, text) to authenticated, service_role;
revoke all on function public.redeem_ticket_for_entry(uuid, uuid, text) from public, anon;
grant execute on function public.redeem_ticket_for_entry(uuid, uuid, text) to authenticated, service_role;

-- Insert or update the caller's predictions of one entry: a JSON array of {fixture_id, home_goals, away_goals}.
-- All or nothing; refused once the entry's match day is locked. Codes: saved, locked, not_found,
-- invalid_fixture, invalid_score.
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

revoke all on function private.save_scout_predictions(uuid, jsonb) from public, anon;
grant execute on function private.save_scout_predictions(uuid, jsonb) to authenticated, service_role;
revoke all on function public.save_scout_predictions(uuid, jsonb) from public, anon;
grant execute on function public.save_scout_predictions(uuid, jsonb) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- Leaderboards (every signed-in player sees them; names only, never predictions)
-- ---------------------------------------------------------------------------------------------------------

-- The profile's display name when set, else the username.
create function private.scout_display_name(p_user_id uuid) returns text
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select coalesce(p.display_name, p.username) from public.profiles p where p.id = p_user_id
$$;

revoke all on function private.scout_display_name(uuid) from public;

-- Top entries of a match day: total points, then exact count, then earliest created; entries equal on points and
-- exact count share a rank.
create function private.get_scout_leaderboard_matchday(p_league text, p_season text, p_match_day integer, p_limit integer)
returns table (rank bigint, user_id uuid, display_name text, total_points integer, exact_count integer, entry_index integer)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select pg_catalog.rank() over (order by e.total_points desc, e.exact_count desc),
         e.user_id, coalesce(p.display_name, p.username), e.total_points, e.exact_count, e.entry_index
    from (select * from public.scout_entries e
           where e.league = p_league and e.season = p_season and e.match_day = p_match_day
           order by e.total_points desc, e.exact_count desc, e.created_at, e.id
           limit least(greatest(coalesce(p_limit, 100), 1), 100)) e
    join public.profiles p on p.id = e.user_id
   order by e.total_points desc, e.exact_count desc, e.created_at, e.id
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
                      or (o.total_points = b.total_points and o.exact_count > b.exact_count))),
         b.user_id, private.scout_display_name(b.user_id), b.total_points, b.exact_count, b.entry_index
    from (select * from public.scout_entries e
           where e.league = p_league and e.season = p_season and e.match_day = p_match_day and e.user_id = p_user_id
           order by e.total_points desc, e.exact_count desc, e.created_at, e.id
           limit 1) b
$$;

-- Season: per player the sum of the best entry of each match day; shows the index of the best entry of the
-- latest match day.
create function private.get_scout_leaderboard_season(p_league text, p_season text, p_limit integer)
returns table (rank bigint, user_id uuid, display_name text, total_points integer, exact_count integer, best_entry_index integer)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select pg_catalog.rank() over (order by s.total_points desc, s.exact_count desc),
         s.user_id, coalesce(p.display_name, p.username), s.total_points, s.exact_count, s.best_entry_index
    from (select * from public.scout_season_totals s
           where s.league = p_league and s.season = p_season
           order by s.total_points desc, s.exact_count desc, s.first_entry_at, s.user_id
           limit least(greatest(coalesce(p_limit, 100), 1), 100)) s
    join public.profiles p on p.id = s.user_id
   order by s.total_points desc, s.exact_count desc, s.first_entry_at, s.user_id
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
                      or (o.total_points = s.total_points and o.exact_count > s.exact_count))),
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

-- ---------------------------------------------------------------------------------------------------------
-- Live match day (decision 022): provisional points and board
-- ---------------------------------------------------------------------------------------------------------

-- Scout entries and predictions of a match day bump its live version (decision 025), like picks: once per
-- statement for entries (scoring rewrites them in bulk), per row for predictions (saved ten at a time), only when
-- it matters (private.live_version_matters: the deadline passed or is less than five minutes away).
create function private.scout_entries_bump_live_version() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  perform private.bump_live_version(k.league, k.season, k.match_day)
     from (select distinct r.league, r.season, r.match_day from changed_rows r
            where private.live_version_matters(r.league, r.season, r.match_day)) k
    order by k.league, k.season, k.match_day;
  return null;
end
$$;
revoke all on function private.scout_entries_bump_live_version() from public;

create trigger scout_entries_bump_live_version_insert
  after insert on public.scout_entries
  referencing new table as changed_rows
  for each statement execute function private.scout_entries_bump_live_version();
create trigger scout_entries_bump_live_version_update
  after update on public.scout_entries
  referencing new table as changed_rows
  for each statement execute function private.scout_entries_bump_live_version();
create trigger scout_entries_bump_live_version_delete
  after delete on public.scout_entries
  referencing old table as changed_rows
  for each statement execute function private.scout_entries_bump_live_version();

create function private.scout_predictions_bump_live_version() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_entry uuid := case when tg_op = 'DELETE' then old.scout_entry_id else new.scout_entry_id end;
begin
  perform private.bump_live_version(e.league, e.season, e.match_day)
     from public.scout_entries e
    where e.id = v_entry and private.live_version_matters(e.league, e.season, e.match_day);
  return null;
end
$$;
revoke all on function private.scout_predictions_bump_live_version() from public;

create trigger scout_predictions_bump_live_version
  after insert or delete or update of home_goals, away_goals, fixture_id, scout_entry_id on public.scout_predictions
  for each row execute function private.scout_predictions_bump_live_version();

-- The cached provisional Scout board of a match day: every entry ranked once per live version, the same for every
-- reader; who sees it (after the lock, while a match is in play) and which rows are the caller's are decided on
-- every call (private.live_scout_board). Unlogged: a cache.
create unlogged table private.live_scout_cache (
  league text not null,
  season text not null,
  match_day integer not null,
  version bigint not null,
  -- the rows' key: one small number instead of the three columns (100,000 index entries written per change)
  board_id integer generated always as identity unique,
  primary key (league, season, match_day)
);
revoke all on table private.live_scout_cache from public, anon, authenticated;

create unlogged table private.live_scout_rows (
  board_id integer not null,
  "position" integer not null,
  rank integer not null,
  entry_id uuid not null,
  user_id uuid not null,
  entry_index integer not null,
  total_points integer not null,
  exact_count integer not null,
  live_points integer not null,
  primary key (board_id, "position")
);
create index live_scout_rows_user_idx on private.live_scout_rows (board_id, user_id);
revoke all on table private.live_scout_rows from public, anon, authenticated;

-- Makes sure the match day's provisional board is cached at the current live version (as private.ensure_live_table:
-- an advisory lock per match day, held to the end of the transaction, so it is computed once).
create function private.ensure_live_scout_board(p_league text, p_season text, p_match_day integer) returns void
  language plpgsql
  security definer
  set search_path = ''
  set work_mem = '64MB'  -- every entry of the match day is sorted in memory, not on disk
as $$
declare
  v_version bigint := private.live_version(p_league, p_season, p_match_day);
  v_board integer;
begin
  if exists (select 1 from private.live_scout_cache k
              where k.league = p_league and k.season = p_season and k.match_day = p_match_day
                and k.version = v_version) then
    return;
  end if;
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('live_scout:' || p_league || '|' || p_season || '|' || p_match_day, 0));
  v_version := private.live_version(p_league, p_season, p_match_day);
  if exists (select 1 from private.live_scout_cache k
              where k.league = p_league and k.season = p_season and k.match_day = p_match_day
                and k.version = v_version) then
    return;
  end if;
  insert into private.live_scout_cache as k (league, season, match_day, version)
  values (p_league, p_season, p_match_day, v_version)
  on conflict (league, season, match_day) do update set version = excluded.version
  returning k.board_id into v_board;
  delete from private.live_scout_rows r where r.board_id = v_board;
  insert into private.live_scout_rows (board_id, "position", rank, entry_id, user_id, entry_index, total_points,
                                       exact_count, live_points)
  with live as (
    select f.id, f.live_home_score, f.live_away_score
      from public.fixtures f
     where f.league = p_league and f.season = p_season and f.match_day = p_match_day
       and f.status = 'pending' and f.live_status is not null
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
  )
  select v_board,
         pg_catalog.row_number() over (order by e.total_now desc, e.exact_now desc, e.created_at, e.id),
         pg_catalog.rank() over (order by e.total_now desc, e.exact_now desc),
         e.id, e.user_id, e.entry_index, e.total_now, e.exact_now, e.live_pts
    from e;
end
$$;
revoke all on function private.ensure_live_scout_board(text, text, integer) from public, anon, authenticated;

-- Scout "if it ended now": each entry of a match day with its stored points (complete fixtures) plus its
-- predictions of matches in play scored by private.scout_points on the live score as if the match had ended
-- (the one home of Scout's points). Only while a fixture of that match day is in play and after its lock (when
-- entries are revealed to every player); no row otherwise (checked on every call). Returns the top p_limit
-- entries (at most 100) in the board's order and every entry of the caller (mine), each with its provisional rank
-- (equal points and exact count share a rank) and its live points, read off the shared board
-- (private.ensure_live_scout_board, computed once per change).
create function private.live_scout_board(p_league text, p_season text, p_match_day integer, p_limit integer)
  returns table (rank integer, entry_id uuid, user_id uuid, display_name text, entry_index integer,
                 total_points integer, exact_count integer, live_points integer, mine boolean)
  language plpgsql
  security definer
  set search_path = ''
  set max_parallel_workers_per_gather = 0  -- a page of stored rows: starting parallel workers cost more than it
as $$
#variable_conflict use_column
declare
  v_me uuid := (select auth.uid());
  v_top integer := least(greatest(coalesce(p_limit, 100), 1), 100);
  v_board integer;
begin
  if not (public.matchday_deadline_passed(p_league, p_season, p_match_day)
          and exists (select 1 from public.fixtures f
                       where f.league = p_league and f.season = p_season and f.match_day = p_match_day
                         and f.status = 'pending' and f.live_status is not null)) then
    return;
  end if;
  perform private.ensure_live_scout_board(p_league, p_season, p_match_day);
  select k.board_id into v_board from private.live_scout_cache k
   where k.league = p_league and k.season = p_season and k.match_day = p_match_day;
  return query
    select r.rank, r.entry_id, r.user_id, coalesce(p.display_name, p.username), r.entry_index, r.total_points,
           r.exact_count, r.live_points, r.user_id = v_me
      from (select r.* from private.live_scout_rows r
             where r.board_id = v_board and r."position" <= v_top
            union all
            select r.* from private.live_scout_rows r
             where r.board_id = v_board and r.user_id = v_me and r."position" > v_top) r
      join public.profiles p on p.id = r.user_id
     order by r."position";
end
$$;
revoke all on function private.live_scout_board(text, text, integer, integer) from public, anon, authenticated;
grant execute on function private.live_scout_board(text, text, integer, integer) to authenticated, service_role;

create function public.live_scout_board(p_league text, p_season text, p_match_day integer, p_limit integer default 100)
  returns table (rank integer, entry_id uuid, user_id uuid, display_name text, entry_index integer,
                 total_points integer, exact_count integer, live_points integer, mine boolean)
  language sql
  set search_path = ''
as $$
  select * from private.live_scout_board(p_league, p_season, p_match_day, p_limit)
$$;
revoke all on function public.live_scout_board(text, text, integer, integer) from public, anon, authenticated;
grant execute on function public.live_scout_board(text, text, integer, integer) to authenticated, service_role;
