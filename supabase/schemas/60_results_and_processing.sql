-- Results and match-day processing: entering a result or a postponement (admin panel), the CSV fixtures upload,
-- and the one home of "a match day is over, apply the rules": knockout eliminations and roll-over, the winner,
-- the end of a season, the advance of current_match_day, registration closing at the deadline, re-processing
-- after a corrected result; and the one result path every writer uses (private.apply_fixture_result: admin panel,
-- CSV upload, data feed) with the result history (public.fixture_result_changes) and corrections.
-- Rules: docs/game-rules.md "Competitions" (match-day advance), "Knockout", "Season", "Admin".
-- Decisions: 006-results-processing.md, 013-scheduler-worker-and-reminders.md (process_due_matchdays),
-- 020-data-feed-and-corrections.md (result history, corrections).
--
-- The notices a correction gives players are written by private.notify_result_correction, with public.notices in
-- 90_push_and_scheduler.sql (it needs the Scout predictions and the push deliveries); the data feed's sync is in
-- 85_data_feed.sql.
--
-- A competition's current match day is finished when its (league, season, current_match_day) has fixtures,
-- every one of them is complete or postponed, and its deadline has passed (public.matchday_closed: match-day
-- processing never runs while picks are open, so nobody is out "for no pick" early). Processing it:
--   at the deadline, with the organiser's "Auto-pick", each active member without a pick gets the server's
--     (private.auto_pick, 45_plans_and_jokers.sql), before anything is processed;
--   knockout: each active member keeps their lives when their pick won, its fixture was postponed, or it drew
--     and a draw is enough (competitions.draw_rule); a loss, a draw (unless enough) or no pick costs a life
--     (private.pick_costs_life), and a member whose last life goes is eliminated (knocked_out_on = that match
--     day) - unless that would eliminate every remaining member: roll-over (the default: nobody loses a life) or
--     joint winners (competitions.everyone_out_rule: they all win, the competition ends). Each life lost is a row
--     of public.knockout_life_losses (50_standings.sql). Then exactly one left ->
--     knockout_winner, membership completed, competition inactive/completed; last match day with several left ->
--     all completed (status Winner), the first in leaderboard order (sort_name, user_id) stored as
--     knockout_winner, competition inactive/completed.
--   season: standings are already stored (triggers of 50_standings.sql, points by the competition's rules and
--     jokers); after the last match day the competition ends (inactive/completed); the champion is
--     membership_ranks rank 1.
--   otherwise current_match_day moves on by one. Registration still open is closed (its deadline has passed).
-- Each processed (competition, match day) gets a row in public.competition_matchday_results, so running again
-- changes nothing. A change of a result of a processed match day re-derives everything from that match day on
-- (private.reprocess_competition): memberships eliminated on or after it and winners become active again, lives
-- lost and auto-picks from it on are undone, the competition re-opens at that match day, and processing runs
-- forward again as far as results allow (auto-picking again with the corrected league table).
--
-- Every step is a set-based statement per competition (no loop over members). Lock order
-- (30_competitions_and_membership.sql): the competition rows first, in id order, then memberships. Scout
-- scoring of a changed result runs at commit (80_scout.sql).

-- ---------------------------------------------------------------------------------------------------------
-- Processed match days
-- ---------------------------------------------------------------------------------------------------------

create table public.competition_matchday_results (
  competition_id uuid not null references public.competitions (id) on delete cascade,
  match_day integer not null,
  processed_at timestamptz not null default public.app_now(),
  still_in integer,    -- knockout: members still in after this match day (null for season)
  eliminated integer,  -- knockout: members eliminated on this match day
  rolled_over boolean not null default false,
  primary key (competition_id, match_day),
  constraint competition_matchday_results_match_day_check check (match_day >= 1)
);

comment on table public.competition_matchday_results is
  'Processed match days per competition (written only by match-day processing); re-running changes nothing.';

alter table public.competition_matchday_results enable row level security;

create policy competition_matchday_results_select_authenticated on public.competition_matchday_results
  for select to authenticated
  using (true);

revoke all on table public.competition_matchday_results from public, anon, authenticated;
grant select on table public.competition_matchday_results to authenticated;
grant select on table public.competition_matchday_results to service_role;

-- Does this pick's outcome cost a knockout life? A loss and no pick always; a draw unless the organiser chose "A
-- draw is enough" (draw_rule 'through'); a win or a postponed match never. The one home of the rule: processing
-- and "if it ended now" both read it. No SET clause, so the planner inlines it.
create function private.pick_costs_life(p_pick_outcome text, p_draw_rule text) returns boolean
  language sql immutable
as $$
  select p_pick_outcome in ('loss', 'no_pick') or (p_pick_outcome = 'draw' and p_draw_rule is distinct from 'through')
$$;
revoke all on function private.pick_costs_life(text, text) from public, anon;
grant execute on function private.pick_costs_life(text, text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- Processing
-- ---------------------------------------------------------------------------------------------------------

-- Process every finished match day of one competition, from its current match day on; the number processed.
create function private.process_competition(p_competition_id uuid) returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_c public.competitions%rowtype;
  v_md integer;
  v_done integer := 0;
  v_remaining integer;
  v_out_count integer;
  v_losers uuid[];
  v_losses text[];
  v_out uuid[];
  v_eliminated integer;
  v_rolled boolean;
  v_joint boolean;
  v_left integer;
  v_winner uuid;
begin
  perform private.lock_competition(p_competition_id);
  loop
    select * into v_c from public.competitions c where c.id = p_competition_id;
    exit when not found or v_c.status <> 'active' or v_c.type not in ('knockout', 'season');
    v_md := v_c.current_match_day;
    exit when exists (select 1 from public.competition_matchday_results r
                       where r.competition_id = p_competition_id and r.match_day = v_md);
    -- never before the match day's deadline: picks are still open, nobody is out "for no pick" yet
    exit when not public.matchday_closed(v_c.league, v_c.season, v_md);
    -- the deadline has passed: a missed pick becomes the server's (missed pick: auto-pick; idempotent)
    if v_c.missed_pick_rule = 'auto' then
      perform private.auto_pick(p_competition_id, v_md);
    end if;
    -- finished: has fixtures, none pending
    exit when not exists (select 1 from public.fixtures f
                           where f.league = v_c.league and f.season = v_c.season and f.match_day = v_md)
           or exists (select 1 from public.fixtures f
                       where f.league = v_c.league and f.season = v_c.season and f.match_day = v_md
                         and f.status = 'pending');

    v_rolled := false;
    v_joint := false;
    v_left := null;
    v_losers := null;
    v_losses := null;
    v_eliminated := 0;
    if v_c.type = 'knockout' then
      select count(*)::integer,
             (count(*) filter (where x.costs and x.last_life))::integer,
             pg_catalog.array_agg(x.user_id) filter (where x.costs),
             pg_catalog.array_agg(x.outcome) filter (where x.costs),
             pg_catalog.array_agg(x.user_id) filter (where x.costs and x.last_life)
        into v_remaining, v_out_count, v_losers, v_losses, v_out
        from (
          select us.user_id, o.outcome,
                 private.pick_costs_life(o.outcome, v_c.draw_rule) as costs,
                 v_c.lives - coalesce(ll.n, 0) <= 1 as last_life
            from public.user_selections us
            left join (select l.user_id, count(*)::integer as n from public.knockout_life_losses l
                        where l.competition_id = p_competition_id group by l.user_id) ll on ll.user_id = us.user_id
            left join public.team_selections ts
              on ts.user_id = us.user_id and ts.competition_id = us.competition_id and ts.match_day = v_md
            -- The pick's outcome has one home, private.pick_outcome_now (also "if it ended now"), read once per
            -- team of the match day (private.match_day_outcomes_now), not once per member: on a processed match
            -- day every fixture is complete or postponed, so it is win, draw, loss, postponed or no_pick here.
            left join private.match_day_outcomes_now(v_c.league, v_c.season, v_md) t
              on t.fixture_id = ts.fixture_id and t.team = ts.selected_team
            cross join lateral (select case when ts.selected_team is null then 'no_pick' else t.outcome end as outcome) o
           where us.competition_id = p_competition_id and us.status = 'active'
        ) x;

      if v_out_count > 0 and v_out_count = v_remaining then
        -- every remaining member would go out: roll-over (nobody loses a life) or joint winners (they all win)
        if v_c.everyone_out_rule = 'joint' then
          v_joint := true;
        else
          v_rolled := true;
        end if;
        v_losers := null;
      end if;
      if v_losers is not null then
        insert into public.knockout_life_losses (competition_id, user_id, match_day, outcome)
        select p_competition_id, l.user_id, v_md, l.outcome
          from rows from (pg_catalog.unnest(v_losers), pg_catalog.unnest(v_losses)) as l (user_id, outcome);
        -- only the members whose last life went are written (a lost life is its row above)
        if v_out is not null then
          update public.user_selections us
             set status = 'eliminated', knocked_out_on = v_md
            from pg_catalog.unnest(v_out) as o (user_id)
           where us.competition_id = p_competition_id and us.user_id = o.user_id and us.status = 'active';
        end if;
        v_eliminated := v_out_count;
      end if;
      v_left := v_remaining - v_eliminated;

      if v_joint or v_left = 1 or (v_left > 1 and v_md >= v_c.total_match_days) then
        select us.user_id into v_winner
          from public.user_selections us
         where us.competition_id = p_competition_id and us.status = 'active'
         order by (us.status = 'eliminated'), us.knocked_out_on desc nulls first, us.sort_name, us.user_id
         limit 1;
        update public.user_selections us set status = 'completed'
         where us.competition_id = p_competition_id and us.status = 'active';
        update public.competitions c
           set knockout_winner = v_winner, status = 'inactive', registration_status = 'completed'
         where c.id = p_competition_id;
      elsif v_md >= v_c.total_match_days then
        update public.competitions c set status = 'inactive', registration_status = 'completed'
         where c.id = p_competition_id;
      else
        update public.competitions c
           set current_match_day = v_md + 1,
               registration_status = case when c.registration_status = 'open' then 'closed'
                                          else c.registration_status end
         where c.id = p_competition_id;
      end if;
    else
      if v_md >= v_c.total_match_days then
        update public.competitions c set status = 'inactive', registration_status = 'completed'
         where c.id = p_competition_id;
      else
        update public.competitions c
           set current_match_day = v_md + 1,
               registration_status = case when c.registration_status = 'open' then 'closed'
                                          else c.registration_status end
         where c.id = p_competition_id;
      end if;
    end if;

    insert into public.competition_matchday_results as r
      (competition_id, match_day, processed_at, still_in, eliminated, rolled_over)
    values (p_competition_id, v_md, public.app_now(), v_left,
            case when v_c.type = 'knockout' then v_eliminated end, v_rolled);
    v_done := v_done + 1;
  end loop;
  return v_done;
end
$$;

-- Undo everything derived from match day p_from_match_day on, then process forward again. Used when a result
-- (or postponement) of an already processed match day changes, or a result an auto-pick's league table read.
-- Lives lost and auto-picks from that match day on go (the auto-pick runs again at each match day, with the
-- corrected table); jokers need nothing here (they are part of the stored standings). Returns the number of
-- match days processed.
create function private.reprocess_competition(p_competition_id uuid, p_from_match_day integer) returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_c public.competitions%rowtype;
  v_from integer;
begin
  perform private.lock_competition(p_competition_id);
  select * into v_c from public.competitions c where c.id = p_competition_id;
  if not found or v_c.type not in ('knockout', 'season') then
    return 0;
  end if;
  v_from := greatest(p_from_match_day, v_c.start_match_day);
  delete from public.team_selections ts
   where ts.competition_id = p_competition_id and ts.match_day >= v_from and ts.auto_picked;
  if exists (select 1 from public.competition_matchday_results r
              where r.competition_id = p_competition_id and r.match_day >= v_from) then
    delete from public.competition_matchday_results r
     where r.competition_id = p_competition_id and r.match_day >= v_from;
    if v_c.type = 'knockout' then
      delete from public.knockout_life_losses l
       where l.competition_id = p_competition_id and l.match_day >= v_from;
      -- members out on or after it, and winners, play on (with the lives they had lost before it)
      update public.user_selections us
         set status = 'active', knocked_out_on = null
       where us.competition_id = p_competition_id
         and ((us.status = 'eliminated' and us.knocked_out_on >= v_from) or us.status = 'completed');
    end if;
    update public.competitions c
       set current_match_day = least(v_from, c.total_match_days),
           status = 'active',
           knockout_winner = null,
           registration_status = case when c.registration_status = 'completed' then 'closed'
                                      else c.registration_status end
     where c.id = p_competition_id;
  end if;
  return private.process_competition(p_competition_id);
end
$$;

-- Lock the season/knockout competitions of a (league, season), in id order (before a fixture of it changes).
create function private.lock_competitions_of(p_league text, p_season text) returns void
  language sql
  security definer
  set search_path = ''
as $$
  select null::void from (
    select c.id from public.competitions c
     where c.league = p_league and c.season = p_season and c.type in ('knockout', 'season')
     order by c.id
       for no key update
  ) x
$$;

-- Lock the season/knockout competitions of several (league, season) pairs (given as league || E'\x1f' ||
-- season) in one id order.
create function private.lock_competitions_of_many(p_keys text[]) returns void
  language sql
  security definer
  set search_path = ''
as $$
  select null::void from (
    select c.id from public.competitions c
     where c.type in ('knockout', 'season')
       and (c.league || E'\x1f' || c.season) = any (p_keys)
     order by c.id
       for no key update
  ) x
$$;

-- A fixture of (league, season, match_day) was saved: re-derive competitions that had processed that match day
-- when p_changed, and process any competition whose current match day may now be finished. A competition that
-- auto-picked on a later match day re-derives from there too (its league table read this result: decision 028).
-- Competitions are handled in id order. Returns the number of competitions that processed at least one match day.
create function private.after_fixture_change(p_league text, p_season text, p_match_day integer, p_changed boolean)
returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_id uuid;
  v_advanced integer := 0;
  v_n integer;
  v_auto_from integer;
begin
  perform private.lock_competitions_of(p_league, p_season);
  for v_id in
    select c.id from public.competitions c
     where c.league = p_league and c.season = p_season and c.type in ('knockout', 'season')
       and (c.start_match_day <= p_match_day or (p_changed and c.missed_pick_rule = 'auto'))
     order by c.id
  loop
    v_auto_from := null;
    if p_changed then
      select min(ts.match_day) into v_auto_from
        from public.team_selections ts
       where ts.competition_id = v_id and ts.auto_picked and ts.match_day > p_match_day;
    end if;
    if p_changed and exists (select 1 from public.competition_matchday_results r
                              where r.competition_id = v_id and r.match_day = p_match_day) then
      v_n := private.reprocess_competition(v_id, p_match_day);
    elsif v_auto_from is not null then
      v_n := private.reprocess_competition(v_id, v_auto_from);
    else
      v_n := private.process_competition(v_id);
    end if;
    if v_n > 0 then
      v_advanced := v_advanced + 1;
    end if;
  end loop;
  return v_advanced;
end
$$;

-- The time-based step: close registration of active competitions whose start match day's deadline passed
-- (what private.registration_state already answers between two runs).
create function private.close_due_registrations() returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_n integer;
begin
  -- lock order: competition rows in id order
  perform 1 from public.competitions c
   where c.registration_status = 'open'
     and c.status = 'active'
     and c.type in ('knockout', 'season')
     and public.matchday_deadline_passed(c.league, c.season, c.start_match_day)
   order by c.id
     for no key update;
  update public.competitions c
     set registration_status = 'closed'
   where c.registration_status = 'open'
     and c.status = 'active'
     and c.type in ('knockout', 'season')
     and public.matchday_deadline_passed(c.league, c.season, c.start_match_day);
  get diagnostics v_n = row_count;
  return v_n;
end
$$;

-- Safety net / scheduler step (the "matchdays" job): close due registrations, then process every active
-- competition whose current match day is finished, and auto-pick (in the same pass, by process_competition) for
-- every competition with "Auto-pick" whose current match day's deadline has passed. Returns the number of
-- competitions that processed at least one match day.
create function private.process_due_matchdays() returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_id uuid;
  v_advanced integer := 0;
begin
  -- Players may not run it (the role setting is the API role also inside this definer function).
  if pg_catalog.current_setting('role', true) in ('authenticated', 'anon') and not private.is_admin() then
    raise exception using errcode = '42501', message = 'Access denied. Admins only.';
  end if;
  perform private.close_due_registrations();
  for v_id in
    select c.id from public.competitions c
     where c.status = 'active' and c.type in ('knockout', 'season')
       and not exists (select 1 from public.competition_matchday_results r
                        where r.competition_id = c.id and r.match_day = c.current_match_day)
       and ((exists (select 1 from public.fixtures f
                      where f.league = c.league and f.season = c.season and f.match_day = c.current_match_day)
             and not exists (select 1 from public.fixtures f
                              where f.league = c.league and f.season = c.season and f.match_day = c.current_match_day
                                and f.status = 'pending'))
            or (c.missed_pick_rule = 'auto'
                and public.matchday_deadline_passed(c.league, c.season, c.current_match_day)))
     order by c.id
  loop
    if private.process_competition(v_id) > 0 then
      v_advanced := v_advanced + 1;
    end if;
  end loop;
  return v_advanced;
end
$$;

-- Callable by admins and by the server's service path (service_role or the owner connection); players get
-- 42501 'Access denied. Admins only.'.
create function public.process_due_matchdays() returns integer
  language sql
  set search_path = ''
as $$
  select private.process_due_matchdays()
$$;

revoke all on function private.process_competition(uuid) from public;
revoke all on function private.reprocess_competition(uuid, integer) from public;
revoke all on function private.lock_competitions_of(text, text) from public;
revoke all on function private.lock_competitions_of_many(text[]) from public;
revoke all on function private.after_fixture_change(text, text, integer, boolean) from public;
revoke all on function private.close_due_registrations() from public;
revoke all on function private.process_due_matchdays() from public, anon;
grant execute on function private.process_due_matchdays() to authenticated, service_role;
revoke all on function public.process_due_matchdays() from public, anon;
grant execute on function public.process_due_matchdays() to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- Result history and the one result path (decision 020)
-- ---------------------------------------------------------------------------------------------------------

-- Every result change is kept: who changed a fixture's status or score, when, through which path (admin panel,
-- CSV upload, data feed), from what to what, and why. Where the current result came from is
-- public.fixtures.result_source (20_fixtures_and_matchdays.sql).
create table public.fixture_result_changes (
  id bigint generated always as identity primary key,
  fixture_id bigint not null references public.fixtures (id) on delete cascade,
  changed_at timestamptz not null default public.app_now(),
  source text not null,
  -- the admin who made it (null for the feed's own changes)
  changed_by uuid references public.profiles (id) on delete set null,
  old_status text not null,
  old_home_score integer,
  old_away_score integer,
  new_status text not null,
  new_home_score integer,
  new_away_score integer,
  reason text,
  -- the fixture had a complete result before: what depended on it was re-processed and players were told
  is_correction boolean not null,
  -- how many players got a notice about it
  notices integer not null default 0,
  constraint fixture_result_changes_source_check check (source in ('admin', 'csv', 'feed')),
  constraint fixture_result_changes_status_check
    check (old_status in ('pending', 'complete', 'postponed') and new_status in ('pending', 'complete', 'postponed')),
  constraint fixture_result_changes_reason_length check (char_length(reason) <= 500)
);

create index fixture_result_changes_fixture_idx on public.fixture_result_changes (fixture_id, id);

alter table public.fixture_result_changes enable row level security;
revoke all on table public.fixture_result_changes from public, anon, authenticated;
grant select on table public.fixture_result_changes to authenticated;
grant all on table public.fixture_result_changes to service_role;

-- Written only by private.apply_fixture_result (definer); read by admins in the admin panel.
create policy fixture_result_changes_select_admin on public.fixture_result_changes for select to authenticated
  using ((select private.is_admin()));

comment on table public.fixture_result_changes is
  'History of every result change (first entry, correction, postponement) with its source, time, who and why.';

-- One result path for every writer: the admin panel (save_fixture_result, set_fixture_postponed), the CSV upload
-- (upsert_fixtures) and the data feed (private.sync_feed_league, private.accept_feed_result: 85_data_feed.sql)
-- all change a fixture's status and score through private.apply_fixture_result, which
--   - keeps the change in public.fixture_result_changes (source, time, who, old and new score, reason),
--   - records where the current result came from (fixtures.result_source: the feed never overwrites admin/csv),
--   - requires a reason when an admin corrects a complete result ("A reason is required to correct a result."),
--   - re-processes what depends on the fixture (private.after_fixture_change, decision 006; Scout points follow at
--     COMMIT, decision 015), and
--   - for a correction, gives every player whose outcome changed one notice (and a push when notifications are on).

-- "2-1", "postponed" or "no result": how a notice names a result.
create function private.result_text(p_status text, p_home integer, p_away integer) returns text
  language sql immutable
  set search_path = ''
as $$
  select case when p_status = 'complete' then p_home::text || '-' || p_away::text
              when p_status = 'postponed' then 'postponed'
              else 'no result' end
$$;
revoke all on function private.result_text(text, integer, integer) from public, anon, authenticated;

-- "1 point", "3 points".
create function private.points_text(p_points integer) returns text
  language sql immutable
  set search_path = ''
as $$
  select p_points::text || case when p_points = 1 then ' point' else ' points' end
$$;
revoke all on function private.points_text(integer) from public, anon, authenticated;

-- A knockout member's outcome as a notice names it; with more than one life (p_lives_left not null), a player
-- still in says how many are left.
create function private.knockout_outcome_text(p_status text, p_knocked_out_on integer, p_lives_left integer)
returns text
  language sql immutable
  set search_path = ''
as $$
  select case when p_status = 'eliminated' then 'eliminated on Match Day ' || p_knocked_out_on::text
              when p_status = 'completed' then 'a winner'
              when p_lives_left is null then 'still in'
              else 'still in with ' || p_lives_left::text || case when p_lives_left = 1 then ' life' else ' lives' end
                   || ' left' end
$$;
revoke all on function private.knockout_outcome_text(text, integer, integer) from public, anon, authenticated;

-- Before a correction is re-processed: every outcome it could change. Knockout: all members of the league's
-- knockout competitions from that match day on (an elimination can move later match days), and of those that
-- auto-pick (the league table the auto-pick reads may change) - status and lives. Season: the members
-- who picked this fixture (nobody else's points depend on it). Scout needs no snapshot: its points before and
-- after come from private.scout_points over the old and new score.
create function private.snapshot_result_outcomes(p_league text, p_season text, p_match_day integer, p_fixture_id bigint)
  returns void
  language plpgsql security definer
  set search_path = ''
as $$
begin
  create temporary table if not exists result_outcomes_before (
    competition_id uuid not null,
    user_id uuid not null,
    type text not null,
    name text not null,
    status text not null,
    knocked_out_on integer,
    points integer not null,
    goals_for integer not null,
    goals_against integer not null,
    lives integer not null,
    lives_lost integer not null
  ) on commit drop;
  delete from pg_temp.result_outcomes_before;
  insert into pg_temp.result_outcomes_before
  select us.competition_id, us.user_id, c.type, c.name, us.status, us.knocked_out_on, us.points, us.goals_for, us.goals_against,
         c.lives, public.lives_lost(c.id, us.user_id)
    from public.competitions c
    join public.user_selections us on us.competition_id = c.id
   where c.league = p_league and c.season = p_season and c.type = 'knockout'
     and (c.start_match_day <= p_match_day or c.missed_pick_rule = 'auto')
  union all
  select us.competition_id, us.user_id, c.type, c.name, us.status, us.knocked_out_on, us.points, us.goals_for, us.goals_against,
         c.lives, public.lives_lost(c.id, us.user_id)
    from public.team_selections ts
    join public.competitions c on c.id = ts.competition_id and c.type = 'season'
    join public.user_selections us on us.competition_id = ts.competition_id and us.user_id = ts.user_id
   where ts.fixture_id = p_fixture_id;
  analyze pg_temp.result_outcomes_before;  -- planned on real counts below (a new temporary table has no statistics)
end
$$;
revoke all on function private.snapshot_result_outcomes(text, text, integer, bigint) from public, anon, authenticated;

-- The one way a fixture's status and score change. p_status: pending | complete | postponed (scores only with
-- complete). p_source: admin | csv | feed; p_actor: the admin (null for the feed). p_process false: the caller
-- re-processes the match day itself once for many fixtures (CSV, feed); a correction is always re-processed
-- here, since its notices compare the outcomes before and after.
-- Returns not_found | before_kickoff (a result for a match not yet played: refused for every source) |
-- unchanged | saved | corrected (the fixture had a complete result; re-processed and players told).
-- The notices of a correction: private.notify_result_correction (90_push_and_scheduler.sql, next to
-- public.notices and the push deliveries it writes; it also reads the Scout predictions of 80_scout.sql).
create function private.apply_fixture_result(
  p_fixture_id bigint,
  p_status text,
  p_home_score integer,
  p_away_score integer,
  p_source text,
  p_actor uuid,
  p_reason text,
  p_process boolean default true
) returns text
  language plpgsql security definer
  set search_path = ''
as $$
declare
  v_f public.fixtures%rowtype;
  v_reason text := nullif(pg_catalog.btrim(p_reason), '');
  v_result text;
  v_correction boolean;
  v_change bigint;
begin
  if p_status is null or p_status not in ('pending', 'complete', 'postponed') then
    raise exception using errcode = '22023', message = 'Unknown fixture status.';
  end if;
  if p_source is null or p_source not in ('admin', 'csv', 'feed') then
    raise exception using errcode = '22023', message = 'Unknown result source.';
  end if;
  if p_status = 'complete' then
    if p_home_score is null or p_away_score is null
       or p_home_score not between 0 and 30 or p_away_score not between 0 and 30 then
      raise exception using errcode = 'P0001', message = 'Scores must be whole numbers from 0 to 30.';
    end if;
  else
    p_home_score := null;
    p_away_score := null;
  end if;
  if pg_catalog.char_length(v_reason) > 500 then
    raise exception using errcode = 'P0001', message = 'The reason must be at most 500 characters.';
  end if;

  select * into v_f from public.fixtures f where f.id = p_fixture_id;
  if not found then
    return 'not_found';
  end if;
  -- lock order (decision 005): the league's competitions, then the fixture
  perform private.lock_competitions_of(v_f.league, v_f.season);
  select * into v_f from public.fixtures f where f.id = p_fixture_id for update;

  if p_status = 'complete' and v_f.kickoff_time > public.app_now() then
    return 'before_kickoff';
  end if;
  if (v_f.status, v_f.home_score, v_f.away_score) is not distinct from (p_status, p_home_score, p_away_score) then
    if p_process then
      perform private.after_fixture_change(v_f.league, v_f.season, v_f.match_day, false);
    end if;
    return 'unchanged';
  end if;

  v_correction := v_f.status = 'complete';
  if v_correction and p_source <> 'feed' and v_reason is null then
    raise exception using errcode = 'P0001', message = 'A reason is required to correct a result.';
  end if;
  if v_correction then
    perform private.snapshot_result_outcomes(v_f.league, v_f.season, v_f.match_day, v_f.id);
  end if;

  v_result := case when p_status <> 'complete' then null
                   when p_home_score > p_away_score then 'home_win'
                   when p_home_score < p_away_score then 'away_win'
                   else 'draw' end;
  update public.fixtures f
     set status = p_status, home_score = p_home_score, away_score = p_away_score, result = v_result,
         result_source = case when p_status = 'pending' then null else p_source end,
         -- a new result: an earlier "Keep mine" was about the previous one
         feed_kept_result = null,
         live_status = case when p_status = 'pending' then f.live_status end,
         live_home_score = case when p_status = 'pending' then f.live_home_score end,
         live_away_score = case when p_status = 'pending' then f.live_away_score end
   where f.id = p_fixture_id;
  insert into public.fixture_result_changes
    (fixture_id, source, changed_by, old_status, old_home_score, old_away_score,
     new_status, new_home_score, new_away_score, reason, is_correction, changed_at)
  values (p_fixture_id, p_source, p_actor, v_f.status, v_f.home_score, v_f.away_score,
          p_status, p_home_score, p_away_score, v_reason, v_correction, public.app_now())
  returning id into v_change;

  if p_process or v_correction then
    perform private.after_fixture_change(v_f.league, v_f.season, v_f.match_day, true);
  end if;
  if v_correction then
    perform private.notify_result_correction(v_change);
    return 'corrected';
  end if;
  return 'saved';
end
$$;
revoke all on function private.apply_fixture_result(bigint, text, integer, integer, text, uuid, text, boolean)
  from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------------
-- Result entry and postponement (admin panel). Admins only: others get 42501 'Access denied. Admins only.'.
-- ---------------------------------------------------------------------------------------------------------

-- save_fixture_result sets both scores (0..30, else P0001 'Scores must be whole numbers from 0 to 30.'),
-- derives result and sets status complete, only once the fixture's kickoff has passed ('A result can be entered
-- only after kickoff.'). set_fixture_postponed(true) clears scores/result and sets postponed (abandoned is stored
-- as postponed), (false) puts a postponed fixture back to pending. In the same transaction the match-day
-- processing runs (private.after_fixture_change): a change to a match day that was already processed re-derives
-- every affected competition from that match day on; otherwise a competition whose current match day is now
-- finished is processed. Saving the same result again changes nothing. Answers: 'saved' or 'not_found'.
-- Both write through private.apply_fixture_result (source admin): the change is kept in the history, and
-- p_reason is required when it corrects a complete result (another score, postponed, back to pending).
-- Lock order: the (league, season)'s competitions in id order, then the fixture (whose stats trigger locks a
-- subset of the same competitions, re-entrantly), then memberships.
create function private.save_fixture_result(p_fixture_id bigint, p_home_score integer, p_away_score integer,
                                            p_reason text default null) returns text
  language plpgsql security definer
  set search_path = ''
as $$
declare
  v_code text;
begin
  perform private.require_admin();
  if p_home_score is null or p_away_score is null
     or p_home_score not between 0 and 30 or p_away_score not between 0 and 30 then
    raise exception using errcode = 'P0001', message = 'Scores must be whole numbers from 0 to 30.';
  end if;
  v_code := private.apply_fixture_result(p_fixture_id, 'complete', p_home_score, p_away_score,
                                         'admin', (select auth.uid()), p_reason, true);
  if v_code = 'not_found' then
    return 'not_found';
  elsif v_code = 'before_kickoff' then
    raise exception using errcode = 'P0001', message = 'A result can be entered only after kickoff.';
  end if;
  return 'saved';
end
$$;
revoke all on function private.save_fixture_result(bigint, integer, integer, text) from public, anon, authenticated;
grant execute on function private.save_fixture_result(bigint, integer, integer, text) to authenticated, service_role;

create function public.save_fixture_result(p_fixture_id bigint, p_home_score integer, p_away_score integer,
                                           p_reason text default null) returns text
  language sql
  set search_path = ''
as $$
  select private.save_fixture_result(p_fixture_id, p_home_score, p_away_score, p_reason)
$$;
revoke all on function public.save_fixture_result(bigint, integer, integer, text) from public, anon, authenticated;
grant execute on function public.save_fixture_result(bigint, integer, integer, text) to authenticated, service_role;

-- Postponing a complete fixture is a correction too (its result goes): the reason is required then.
create function private.set_fixture_postponed(p_fixture_id bigint, p_postponed boolean, p_reason text default null)
  returns text
  language plpgsql security definer
  set search_path = ''
as $$
declare
  v_f public.fixtures%rowtype;
begin
  perform private.require_admin();
  select * into v_f from public.fixtures f where f.id = p_fixture_id;
  if not found then
    return 'not_found';
  end if;
  if coalesce(p_postponed, false) and v_f.status <> 'postponed' then
    perform private.apply_fixture_result(p_fixture_id, 'postponed', null, null, 'admin', (select auth.uid()), p_reason, true);
  elsif not coalesce(p_postponed, false) and v_f.status = 'postponed' then
    perform private.apply_fixture_result(p_fixture_id, 'pending', null, null, 'admin', (select auth.uid()), p_reason, true);
  else
    -- nothing to change (as before: the match day is still looked at)
    perform private.lock_competitions_of(v_f.league, v_f.season);
    perform private.after_fixture_change(v_f.league, v_f.season, v_f.match_day, false);
  end if;
  return 'saved';
end
$$;
revoke all on function private.set_fixture_postponed(bigint, boolean, text) from public, anon, authenticated;
grant execute on function private.set_fixture_postponed(bigint, boolean, text) to authenticated, service_role;

create function public.set_fixture_postponed(p_fixture_id bigint, p_postponed boolean, p_reason text default null)
  returns text
  language sql
  set search_path = ''
as $$
  select private.set_fixture_postponed(p_fixture_id, p_postponed, p_reason)
$$;
revoke all on function public.set_fixture_postponed(bigint, boolean, text) from public, anon, authenticated;
grant execute on function public.set_fixture_postponed(bigint, boolean, text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- CSV fixtures upload (admin panel). Admins only.
-- ---------------------------------------------------------------------------------------------------------

-- A CSV cell as text: trimmed, empty = null.
create function private.csv_text(p_row jsonb, p_key text) returns text
  language sql immutable
  set search_path = ''
as $$
  select nullif(pg_catalog.btrim(p_row ->> p_key), '')
$$;

-- One home for the team-name rule (app/lib/csv.ts mirrors it for the upload preview only): letters (Latin,
-- with accents), digits, spaces and . ' & -, starting with a letter or digit, so a CSV cell such as
-- =HYPERLINK(...) or +SUM(1+1) is refused per row and no formula reaches any export.
create function private.is_team_name(p_name text) returns boolean
  language sql
  immutable
  set search_path = ''
as $$
  select p_name ~ '^[A-Za-z0-9\u00C0-\u024F][A-Za-z0-9\u00C0-\u024F .''&-]*$'
$$;

revoke all on function private.csv_text(jsonb, text) from public;
revoke all on function private.is_team_name(text) from public, anon;

-- p_rows: a JSON array of objects, one per CSV row, with text or number values: line (the row's line number in
-- the file, reported back), league, season, match_day, home_team, away_team, kickoff_time, status (pending |
-- complete | postponed; empty -> pending), optional id, optional home_score / away_score (empty = omitted),
-- optional reason (required on a row that corrects a complete result). Each row writes the teams, match day and
-- kickoff itself, and its status and score through private.apply_fixture_result (source csv).
-- Each row is validated and saved on its own inside a subtransaction (BEGIN ... EXCEPTION), so a bad row is
-- reported and never half-saved while good rows are kept. A row with id updates that fixture (an unknown id is an
-- error: ids are never invented by an upload); without id it is upserted on (league, season, match_day,
-- home_team, away_team). result is derived from the scores of a complete row; a complete row is refused before
-- its kickoff. A kickoff_time without an offset is read as UTC.
--
-- Returns {"succeeded": n, "failed": [{"line": k, "reason": "..."}]}. Afterwards the match days touched are
-- processed as by save_fixture_result (private.after_fixture_change), so complete rows advance competitions and
-- corrections re-derive processed match days. Lock order: the competitions of every (league, season) named in
-- the upload are locked first, in id order.
create function private.upsert_fixtures(p_rows jsonb) returns jsonb
  language plpgsql
  security definer
  set search_path = ''
  set timezone to 'UTC'
as $$
declare
  v_row jsonb;
  v_idx bigint;
  v_line integer;
  v_ok integer := 0;
  v_failed jsonb := '[]'::jsonb;
  v_id bigint;
  v_league text;
  v_season text;
  v_md integer;
  v_home text;
  v_away text;
  v_kick timestamptz;
  v_status text;
  v_hs integer;
  v_as integer;
  v_text text;
  v_reason text;
  v_code text;
  v_old public.fixtures%rowtype;
  v_new public.fixtures%rowtype;
  v_keys_league text[] := '{}';
  v_keys_season text[] := '{}';
  v_keys_md integer[] := '{}';
  v_keys_changed boolean[] := '{}';
  v_key record;
begin
  perform private.require_admin();
  if p_rows is null or pg_catalog.jsonb_typeof(p_rows) <> 'array' then
    raise exception using errcode = '22023', message = 'Rows must be a JSON array.';
  end if;

  perform private.lock_competitions_of_many(
    array(select distinct private.csv_text(e.value, 'league') || E'\x1f' || private.csv_text(e.value, 'season')
            from pg_catalog.jsonb_array_elements(p_rows) e
           where pg_catalog.jsonb_typeof(e.value) = 'object'));

  for v_row, v_idx in select e.value, e.ordinality from pg_catalog.jsonb_array_elements(p_rows) with ordinality e
  loop
    v_line := case when pg_catalog.jsonb_typeof(v_row) = 'object' and (v_row ->> 'line') ~ '^[0-9]{1,9}$'
                   then (v_row ->> 'line')::integer else v_idx::integer end;
    begin
      if pg_catalog.jsonb_typeof(v_row) <> 'object' then
        raise exception using errcode = 'P0001', message = 'The row could not be read.';
      end if;
      v_league := private.csv_text(v_row, 'league');
      v_season := private.csv_text(v_row, 'season');
      v_home := private.csv_text(v_row, 'home_team');
      v_away := private.csv_text(v_row, 'away_team');
      if v_league is null then
        raise exception using errcode = 'P0001', message = 'Missing required field: league.';
      elsif v_season is null then
        raise exception using errcode = 'P0001', message = 'Missing required field: season.';
      elsif private.csv_text(v_row, 'match_day') is null then
        raise exception using errcode = 'P0001', message = 'Missing required field: match_day.';
      elsif v_home is null then
        raise exception using errcode = 'P0001', message = 'Missing required field: home_team.';
      elsif v_away is null then
        raise exception using errcode = 'P0001', message = 'Missing required field: away_team.';
      elsif private.csv_text(v_row, 'kickoff_time') is null then
        raise exception using errcode = 'P0001', message = 'Missing required field: kickoff_time.';
      end if;
      if pg_catalog.char_length(v_league) > 60 then
        raise exception using errcode = 'P0001', message = 'league must be at most 60 characters.';
      elsif pg_catalog.char_length(v_season) > 20 then
        raise exception using errcode = 'P0001', message = 'season must be at most 20 characters.';
      elsif pg_catalog.char_length(v_home) > 60 or pg_catalog.char_length(v_away) > 60 then
        raise exception using errcode = 'P0001', message = 'Team names must be at most 60 characters.';
      elsif not private.is_team_name(v_home) or not private.is_team_name(v_away) then
        raise exception using errcode = 'P0001',
          message = 'Team names may contain only letters, digits, spaces and . '' & - (starting with a letter or digit).';
      elsif v_home = v_away then
        raise exception using errcode = 'P0001', message = 'home_team and away_team must be different.';
      end if;

      v_text := private.csv_text(v_row, 'match_day');
      if v_text !~ '^[0-9]{1,6}$' or v_text::integer < 1 then
        raise exception using errcode = 'P0001', message = 'match_day must be a whole number from 1.';
      end if;
      v_md := v_text::integer;

      begin
        v_kick := private.csv_text(v_row, 'kickoff_time')::timestamptz;
      exception when others then
        raise exception using errcode = 'P0001', message = 'kickoff_time is not a valid date and time.';
      end;

      v_status := coalesce(pg_catalog.lower(private.csv_text(v_row, 'status')), 'pending');
      if v_status not in ('pending', 'complete', 'postponed') then
        raise exception using errcode = 'P0001', message = 'status must be pending, complete or postponed.';
      end if;

      v_text := private.csv_text(v_row, 'home_score');
      if v_text is not null and (v_text !~ '^[0-9]{1,2}$' or v_text::integer > 30) then
        raise exception using errcode = 'P0001', message = 'Scores must be whole numbers from 0 to 30.';
      end if;
      v_hs := v_text::integer;
      v_text := private.csv_text(v_row, 'away_score');
      if v_text is not null and (v_text !~ '^[0-9]{1,2}$' or v_text::integer > 30) then
        raise exception using errcode = 'P0001', message = 'Scores must be whole numbers from 0 to 30.';
      end if;
      v_as := v_text::integer;
      if v_status = 'complete' and (v_hs is null or v_as is null) then
        raise exception using errcode = 'P0001', message = 'A complete fixture needs both scores.';
      elsif v_status <> 'complete' and (v_hs is not null or v_as is not null) then
        raise exception using errcode = 'P0001', message = 'Only a complete fixture can have scores.';
      end if;
      v_reason := private.csv_text(v_row, 'reason');

      v_text := private.csv_text(v_row, 'id');
      v_id := null;
      if v_text is not null then
        if v_text !~ '^[0-9]{1,18}$' then
          raise exception using errcode = 'P0001', message = 'id must be a whole number.';
        end if;
        v_id := v_text::bigint;
      end if;

      -- the fixture itself (teams, match day, kickoff); its status and score below. A kickoff the row changes is a
      -- time the admin gives, so a date the feed gave without one (decision 027) has its time from then on; the same
      -- placeholder uploaded back stays "Time TBC".
      v_old := null;
      if v_id is not null then
        select * into v_old from public.fixtures f where f.id = v_id for update;
        if not found then
          raise exception using errcode = 'P0001', message = pg_catalog.format('No fixture with id %s.', v_id);
        end if;
        update public.fixtures f
           set league = v_league, season = v_season, match_day = v_md, home_team = v_home, away_team = v_away,
               kickoff_time = v_kick, kickoff_confirmed = f.kickoff_confirmed or f.kickoff_time is distinct from v_kick
         where f.id = v_id
        returning * into v_new;
      else
        select * into v_old from public.fixtures f
         where f.league = v_league and f.season = v_season and f.match_day = v_md
           and f.home_team = v_home and f.away_team = v_away
           for update;
        if v_old.id is null then
          insert into public.fixtures (league, season, match_day, home_team, away_team, kickoff_time)
          values (v_league, v_season, v_md, v_home, v_away, v_kick)
          returning * into v_new;
        else
          update public.fixtures f
             set kickoff_time = v_kick, kickoff_confirmed = f.kickoff_confirmed or f.kickoff_time is distinct from v_kick
           where f.id = v_old.id
          returning * into v_new;
        end if;
      end if;

      v_code := private.apply_fixture_result(v_new.id, v_status, v_hs, v_as, 'csv', (select auth.uid()), v_reason, false);
      if v_code = 'before_kickoff' then
        raise exception using errcode = 'P0001', message = 'A result can be entered only after kickoff.';
      end if;

      -- 'corrected' was re-processed already; the match day is still looked at once below
      v_keys_league := v_keys_league || v_new.league;
      v_keys_season := v_keys_season || v_new.season;
      v_keys_md := v_keys_md || v_new.match_day;
      v_keys_changed := v_keys_changed
        || (v_old.id is null or v_code = 'saved'
            or (v_old.home_team, v_old.away_team, v_old.league, v_old.season, v_old.match_day)
               is distinct from (v_new.home_team, v_new.away_team, v_new.league, v_new.season, v_new.match_day));
      if v_old.id is not null
         and (v_old.league, v_old.season, v_old.match_day) is distinct from (v_new.league, v_new.season, v_new.match_day)
      then
        v_keys_league := v_keys_league || v_old.league;
        v_keys_season := v_keys_season || v_old.season;
        v_keys_md := v_keys_md || v_old.match_day;
        v_keys_changed := v_keys_changed || true;
      end if;
      v_ok := v_ok + 1;
    exception
      when unique_violation then
        v_failed := v_failed || pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_object(
          'line', v_line, 'reason', 'Another fixture already has these teams on this match day.'));
      when others then
        v_failed := v_failed || pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_object(
          'line', v_line, 'reason', sqlerrm));
    end;
  end loop;

  for v_key in
    select k.league, k.season, k.md, bool_or(k.changed) as changed
      from rows from (pg_catalog.unnest(v_keys_league), pg_catalog.unnest(v_keys_season),
                     pg_catalog.unnest(v_keys_md), pg_catalog.unnest(v_keys_changed)) as k (league, season, md, changed)
     group by k.league, k.season, k.md
     order by k.league, k.season, k.md
  loop
    perform private.after_fixture_change(v_key.league, v_key.season, v_key.md, v_key.changed);
  end loop;

  return pg_catalog.jsonb_build_object('succeeded', v_ok, 'failed', v_failed);
end
$$;

create function public.upsert_fixtures(p_rows jsonb) returns jsonb
  language sql
  set search_path = ''
as $$
  select private.upsert_fixtures(p_rows)
$$;

revoke all on function private.upsert_fixtures(jsonb) from public, anon;
grant execute on function private.upsert_fixtures(jsonb) to authenticated, service_role;
revoke all on function public.upsert_fixtures(jsonb) from public, anon;
grant execute on function public.upsert_fixtures(jsonb) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- Live match day (decision 022): an admin's live score, and "if it ended now" (provisional, never a result).
-- ---------------------------------------------------------------------------------------------------------

-- An admin enters a running score without completing the match (as the feed's IN_PLAY/PAUSED does): only on a
-- pending fixture whose kickoff has passed; p_status IN_PLAY or PAUSED (half-time), or null to clear it. It
-- writes no result, no history and processes nothing: final results still come only from complete fixtures.
-- Answers 'saved' or 'not_found'; bad input P0001 with the form's words.
create function private.set_fixture_live_score(p_fixture_id bigint, p_home_score integer, p_away_score integer,
                                               p_status text default 'IN_PLAY') returns text
  language plpgsql security definer
  set search_path = ''
as $$
declare
  v_f public.fixtures%rowtype;
begin
  perform private.require_admin();
  select * into v_f from public.fixtures f where f.id = p_fixture_id for update;
  if not found then
    return 'not_found';
  end if;
  if v_f.status <> 'pending' then
    raise exception using errcode = 'P0001', message = 'A live score can be entered only for a fixture still to be completed.';
  end if;
  if v_f.kickoff_time > public.app_now() then
    raise exception using errcode = 'P0001', message = 'A live score can be entered only after kickoff.';
  end if;
  if p_status is null then
    update public.fixtures f
       set live_status = null, live_home_score = null, live_away_score = null, live_updated_at = public.app_now()
     where f.id = p_fixture_id;
    return 'saved';
  end if;
  if p_status not in ('IN_PLAY', 'PAUSED') then
    raise exception using errcode = 'P0001', message = 'Unknown live state.';
  end if;
  if p_home_score is null or p_away_score is null
     or p_home_score not between 0 and 30 or p_away_score not between 0 and 30 then
    raise exception using errcode = 'P0001', message = 'Scores must be whole numbers from 0 to 30.';
  end if;
  update public.fixtures f
     set live_status = p_status, live_home_score = p_home_score, live_away_score = p_away_score,
         live_updated_at = public.app_now()
   where f.id = p_fixture_id;
  return 'saved';
end
$$;
revoke all on function private.set_fixture_live_score(bigint, integer, integer, text) from public, anon, authenticated;
grant execute on function private.set_fixture_live_score(bigint, integer, integer, text) to authenticated, service_role;

create function public.set_fixture_live_score(p_fixture_id bigint, p_home_score integer, p_away_score integer,
                                              p_status text default 'IN_PLAY') returns text
  language sql
  set search_path = ''
as $$
  select private.set_fixture_live_score(p_fixture_id, p_home_score, p_away_score, p_status)
$$;
revoke all on function public.set_fixture_live_score(bigint, integer, integer, text) from public, anon, authenticated;
grant execute on function public.set_fixture_live_score(bigint, integer, integer, text) to authenticated, service_role;

-- A pick's outcome if its match ended now: the final score of a complete fixture, else the live score of one in
-- play: win | draw | loss | postponed | not_started (no score yet) | no_pick. The one home of this mapping: match-day
-- processing (process_competition) and "if it ended now" both read it.
create function private.pick_outcome_now(p_team text, p_fixture public.fixtures) returns text
  language sql immutable
  set search_path = ''
as $$
  select case
    when p_team is null then 'no_pick'
    when (p_fixture).status = 'postponed' then 'postponed'
    when (p_fixture).status = 'pending' and (p_fixture).live_status is null then 'not_started'
    else (
      select case when t.mine > t.theirs then 'win' when t.mine = t.theirs then 'draw' else 'loss' end
        from (select case when p_team = (p_fixture).home_team then g.h else g.a end as mine,
                     case when p_team = (p_fixture).home_team then g.a else g.h end as theirs
                from (select case when (p_fixture).status = 'complete' then (p_fixture).home_score
                                  else (p_fixture).live_home_score end as h,
                             case when (p_fixture).status = 'complete' then (p_fixture).away_score
                                  else (p_fixture).live_away_score end as a) g) t)
  end
$$;
revoke all on function private.pick_outcome_now(text, public.fixtures) from public, anon;
grant execute on function private.pick_outcome_now(text, public.fixtures) to authenticated, service_role;

-- A knockout pick's outcome if the match day ended now, from the pick's outcome (private.pick_outcome_now), the
-- competition's rules (draw rule, everyone out), the member's lives left before the match day, and how many of the
-- players still in would go out: process_competition's rules (private.pick_costs_life). through: keeps every life;
-- waiting: the match has not started; life_lost: loses a life but stays in; out: loses the last one; rolled_over /
-- joint_winner: every remaining player would go out, so nobody does / they all win. No SET clause so the planner
-- inlines it.
create function private.knockout_outcome_now(p_pick_outcome text, p_draw_rule text, p_lives_left integer,
                                             p_everyone_out text, p_out_count integer, p_remaining integer) returns text
  language sql immutable
as $$
  select case
    when p_pick_outcome = 'not_started' then 'waiting'
    when not private.pick_costs_life(p_pick_outcome, p_draw_rule) then 'through'
    when p_out_count = p_remaining then case when p_everyone_out = 'joint' then 'joint_winner' else 'rolled_over' end
    when p_lives_left > 1 then 'life_lost'
    else 'out'
  end
$$;
revoke all on function private.knockout_outcome_now(text, text, integer, text, integer, integer) from public, anon;
grant execute on function private.knockout_outcome_now(text, text, integer, text, integer, integer) to authenticated, service_role;

-- How many players would still be in if the match day ended now: those not out, or all of them on a roll-over
-- (every remaining player out: nobody is; process_competition's rule, as in knockout_outcome_now). No SET clause
-- so the planner inlines it.
create function private.knockout_still_in_now(p_out_count integer, p_remaining integer) returns integer
  language sql immutable
as $$
  select case when p_out_count = p_remaining then p_remaining else p_remaining - p_out_count end
$$;
revoke all on function private.knockout_still_in_now(integer, integer) from public, anon;
grant execute on function private.knockout_still_in_now(integer, integer) to authenticated, service_role;

-- Is this competition's current match day being played, so that its provisional view shows? Active, its deadline
-- passed, not processed yet, and one of its fixtures in play or complete (the same test as if_it_ended_now).
create function private.match_day_in_play(p_competition_id uuid) returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (
    select 1 from public.competitions c
     where c.id = p_competition_id and c.status = 'active'
       and public.matchday_deadline_passed(c.league, c.season, c.current_match_day)
       and not exists (select 1 from public.competition_matchday_results r
                        where r.competition_id = c.id and r.match_day = c.current_match_day)
       and exists (select 1 from public.fixtures f
                    where f.league = c.league and f.season = c.season and f.match_day = c.current_match_day
                      and (f.live_status is not null or f.status = 'complete')))
$$;
revoke all on function private.match_day_in_play(uuid) from public, anon;
grant execute on function private.match_day_in_play(uuid) to authenticated, service_role;

-- Each team of a match day's fixtures with its outcome if the match ended now (private.pick_outcome_now) and its
-- score (final, else live): at most two rows per fixture. The provisional views join picks to it on (fixture,
-- team), so the outcome rule runs once per team, not once per player.
create function private.match_day_outcomes_now(p_league text, p_season text, p_match_day integer)
  returns table (fixture_id bigint, team text, outcome text, team_goals integer, opponent_goals integer,
                 fixture_state text)
  language sql stable security definer
  set search_path = ''
as $$
  select f.id, t.team, private.pick_outcome_now(t.team, f),
         case when f.status = 'complete' then case when t.home then f.home_score else f.away_score end
              else case when t.home then f.live_home_score else f.live_away_score end end,
         case when f.status = 'complete' then case when t.home then f.away_score else f.home_score end
              else case when t.home then f.live_away_score else f.live_home_score end end,
         case when f.status in ('complete', 'postponed') then f.status
              when f.live_status = 'IN_PLAY' then 'in_play'
              when f.live_status = 'PAUSED' then 'paused'
              else 'not_started' end
    from public.fixtures f
    cross join lateral (values (f.home_team, true), (f.away_team, false)) t (team, home)
   where f.league = p_league and f.season = p_season and f.match_day = p_match_day
$$;
revoke all on function private.match_day_outcomes_now(text, text, integer) from public, anon, authenticated;
grant execute on function private.match_day_outcomes_now(text, text, integer) to service_role;

-- A knockout match day if it ended now: how many of the players still in would go out (their pick costs a life,
-- private.pick_costs_life, and it is their last) and how many are still in before it.
create function private.knockout_counts_now(p_competition_id uuid, p_match_day integer)
  returns table (out_count integer, remaining integer)
  language sql stable security definer
  set search_path = ''
  set work_mem = '64MB'  -- the whole competition (100,000 rows) is hashed and sorted in memory, not on disk
as $$
  with c as (select c.id, c.league, c.season, c.lives, c.draw_rule from public.competitions c where c.id = p_competition_id),
  o as (select o.* from c cross join lateral private.match_day_outcomes_now(c.league, c.season, p_match_day) o)
  select (count(*) filter (where c.lives - coalesce(ll.n, 0) <= 1
                             and private.pick_costs_life(case when ts.selected_team is null then 'no_pick' else o.outcome end,
                                                         c.draw_rule)))::integer,
         count(*)::integer
    from c
    join public.user_selections us on us.competition_id = c.id and us.status = 'active'
    left join (select l.user_id, count(*)::integer as n from public.knockout_life_losses l
                where l.competition_id = p_competition_id group by l.user_id) ll on ll.user_id = us.user_id
    left join public.team_selections ts
      on ts.competition_id = c.id and ts.user_id = us.user_id and ts.match_day = p_match_day
    left join o on o.fixture_id = ts.fixture_id and o.team = ts.selected_team
$$;
revoke all on function private.knockout_counts_now(uuid, integer) from public, anon, authenticated;
grant execute on function private.knockout_counts_now(uuid, integer) to service_role;

-- "If it ended now" for the caller, one row per competition of theirs (all, or p_competition_id) whose current
-- match day is being played: its deadline has passed and it is not processed yet; in_play says whether one of its
-- fixtures is in play or complete (pages show the provisional view only then, and listen for changes from the
-- deadline on). The rules are process_competition's, applied to the live and final scores, with the competition's
-- own rules (decision 028): knockout (private.knockout_outcome_now): a pick that keeps its lives -> through; one that
-- costs a life -> life_lost, or out when it is the last; if every remaining player would be out, nobody is
-- (rolled_over) or they all win (joint_winner). A pick whose match has not started counts as not out yet (waiting).
-- season: the pick's points by the competition's rules, doubled on the caller's joker (private.pick_points).
-- still_in / remaining: knockout players through (or waiting) if it ended now / active before the match day;
-- lives_left: the caller's lives if it ended now (knockout); auto_picked: the server made the caller's pick. Only
-- the caller's own line and counts leave this function (no other player's pick).
create function private.if_it_ended_now(p_competition_id uuid default null)
  returns table (competition_id uuid, competition_type text, league text, season text, match_day integer,
                 in_play boolean, team text, opponent text, team_goals integer, opponent_goals integer,
                 fixture_state text, outcome text, points integer, still_in integer, remaining integer,
                 lives_left integer, auto_picked boolean)
  language sql stable security definer
  set search_path = ''
as $$
  with c as (
    select c.id, c.type, c.league, c.season, c.current_match_day as md, me.status as my_status,
           c.draw_rule, c.everyone_out_rule, c.win_points, c.draw_points, c.loss_points,
           c.lives - public.lives_lost(c.id, me.user_id) as my_lives,
           c.joker and exists (select 1 from public.season_jokers j
                                where j.competition_id = c.id and j.user_id = me.user_id
                                  and j.match_day = c.current_match_day) as joker,
           exists (select 1 from public.fixtures f
                    where f.league = c.league and f.season = c.season and f.match_day = c.current_match_day
                      and (f.live_status is not null or f.status = 'complete')) as in_play
      from public.competitions c
      join public.user_selections me on me.competition_id = c.id and me.user_id = (select auth.uid())
     where (p_competition_id is null or c.id = p_competition_id)
       and c.status = 'active' and c.type in ('knockout', 'season')
       and public.matchday_deadline_passed(c.league, c.season, c.current_match_day)
       and not exists (select 1 from public.competition_matchday_results r
                        where r.competition_id = c.id and r.match_day = c.current_match_day)
  ),
  -- the caller's own pick
  p as (
    select c.id as competition_id, ts.selected_team as team, coalesce(ts.auto_picked, false) as auto_picked, f as fx,
           private.pick_outcome_now(ts.selected_team, f) as o
      from c
      left join public.team_selections ts
        on ts.competition_id = c.id and ts.user_id = (select auth.uid()) and ts.match_day = c.md
      left join public.fixtures f on f.id = ts.fixture_id
  ),
  -- knockout: every player still in and how many would go out; an outcome belongs to a (fixture, team), so it is
  -- read once per team picked, not once per player (private.knockout_counts_now)
  k as (
    select c.id as competition_id, n.out_count, n.remaining
      from c cross join lateral private.knockout_counts_now(c.id, c.md) n
     where c.type = 'knockout'
  ),
  r as (
    select c.*, p.team, p.auto_picked, p.fx, p.o, k.out_count, k.remaining,
           case when c.type = 'season' then p.o
                when c.my_status <> 'active' then 'not_playing'
                else private.knockout_outcome_now(p.o, c.draw_rule, c.my_lives, c.everyone_out_rule, k.out_count,
                                                  k.remaining) end as outcome
      from c
      join p on p.competition_id = c.id
      left join k on k.competition_id = c.id
  )
  select r.id, r.type, r.league, r.season, r.md, r.in_play, r.team,
         case when r.team = (r.fx).home_team then (r.fx).away_team else (r.fx).home_team end,
         case when (r.fx).status = 'complete' then
                case when r.team = (r.fx).home_team then (r.fx).home_score else (r.fx).away_score end
              else case when r.team = (r.fx).home_team then (r.fx).live_home_score else (r.fx).live_away_score end end,
         case when (r.fx).status = 'complete' then
                case when r.team = (r.fx).home_team then (r.fx).away_score else (r.fx).home_score end
              else case when r.team = (r.fx).home_team then (r.fx).live_away_score else (r.fx).live_home_score end end,
         case when r.team is null then null
              when (r.fx).status in ('complete', 'postponed') then (r.fx).status
              when (r.fx).live_status = 'IN_PLAY' then 'in_play'
              when (r.fx).live_status = 'PAUSED' then 'paused'
              else 'not_started' end,
         r.outcome,
         case when r.type = 'season' then private.pick_points(r.o, r.win_points, r.draw_points, r.loss_points, r.joker) end,
         case when r.type = 'knockout' then
                private.knockout_still_in_now(r.out_count, r.remaining) end,
         case when r.type = 'knockout' then r.remaining end,
         case when r.type = 'knockout' then
                case when r.outcome = 'out' or r.my_status = 'eliminated' then 0
                     else r.my_lives - (r.outcome = 'life_lost')::integer end end,
         r.auto_picked
    from r
$$;
revoke all on function private.if_it_ended_now(uuid) from public, anon, authenticated;
grant execute on function private.if_it_ended_now(uuid) to authenticated, service_role;

create function public.if_it_ended_now(p_competition_id uuid default null)
  returns table (competition_id uuid, competition_type text, league text, season text, match_day integer,
                 in_play boolean, team text, opponent text, team_goals integer, opponent_goals integer,
                 fixture_state text, outcome text, points integer, still_in integer, remaining integer,
                 lives_left integer, auto_picked boolean)
  language sql stable
  set search_path = ''
as $$
  select * from private.if_it_ended_now(p_competition_id)
$$;
revoke all on function public.if_it_ended_now(uuid) from public, anon, authenticated;
grant execute on function public.if_it_ended_now(uuid) to authenticated, service_role;

-- The current match day's picks per team, once they are revealed (after the deadline, to members: the hidden-picks
-- rule, private.can_see_match_day_picks); before that no row, not even the caller's own pick.
-- Runs as its owner so that row-level security is not asked once per pick (at 100,000 players the policy's
-- private.can_see_match_day_picks per row took most of the time): the same rule is checked once, for the
-- competition's current match day.
create function private.match_day_pick_shares(p_competition_id uuid)
  returns table (team text, picks integer, share integer, total integer)
  language sql stable security definer
  set search_path = ''
as $$
  select ts.selected_team, count(*)::integer,
         round(100.0 * count(*) / sum(count(*)) over ())::integer,
         (sum(count(*)) over ())::integer
    from public.competitions c
    join public.team_selections ts on ts.competition_id = c.id and ts.match_day = c.current_match_day
   where c.id = p_competition_id
     and private.can_see_match_day_picks(c.id, c.current_match_day)
   group by ts.selected_team
   order by count(*) desc, ts.selected_team
$$;
revoke all on function private.match_day_pick_shares(uuid) from public, anon, authenticated;
grant execute on function private.match_day_pick_shares(uuid) to authenticated, service_role;

create function public.match_day_pick_shares(p_competition_id uuid)
  returns table (team text, picks integer, share integer, total integer)
  language sql stable
  set search_path = ''
as $$
  select * from private.match_day_pick_shares(p_competition_id)
$$;
revoke all on function public.match_day_pick_shares(uuid) from public, anon, authenticated;
grant execute on function public.match_day_pick_shares(uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- Live match day: the provisional tables computed once per change and shared (decision 025)
-- ---------------------------------------------------------------------------------------------------------

-- The live version of a match day: bumped in the writing transaction by every change a provisional table reads
-- (a fixture's score or status, a membership, a pick of the match day, a Scout entry or prediction). A cached
-- table carries the version it was computed at; a different version means: compute again.
create table private.live_versions (
  league text not null,
  season text not null,
  match_day integer not null,
  version bigint not null default 1,
  primary key (league, season, match_day)
);
revoke all on table private.live_versions from public, anon, authenticated;

create function private.live_version(p_league text, p_season text, p_match_day integer) returns bigint
  language sql stable
  set search_path = ''
as $$
  select coalesce((select v.version from private.live_versions v
                    where v.league = p_league and v.season = p_season and v.match_day = p_match_day), 0)
$$;
revoke all on function private.live_version(text, text, integer) from public, anon, authenticated;

create function private.bump_live_version(p_league text, p_season text, p_match_day integer) returns void
  language sql
  security definer
  set search_path = ''
as $$
  insert into private.live_versions as v (league, season, match_day) values (p_league, p_season, p_match_day)
  on conflict (league, season, match_day) do update set version = v.version + 1
$$;
revoke all on function private.bump_live_version(text, text, integer) from public, anon, authenticated;

-- A match day whose picks may already be read by a provisional table: its deadline has passed, or is less than
-- five minutes away (a write validated just before the deadline may commit just after it; five minutes bounds
-- that). Writes before that need no bump: nothing is cached for a match day before its deadline.
create function private.live_version_matters(p_league text, p_season text, p_match_day integer) returns boolean
  language sql stable
  set search_path = ''
as $$
  select coalesce(public.matchday_deadline(p_league, p_season, p_match_day) <= public.app_now() + interval '5 minutes', false)
$$;
revoke all on function private.live_version_matters(text, text, integer) from public, anon, authenticated;

-- A fixture's score, live score, status, teams, kickoff or match day changed: its match day (old and new) moves on.
create function private.fixtures_bump_live_version() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if tg_op = 'UPDATE'
     and (new.league, new.season, new.match_day, new.status, new.home_score, new.away_score, new.live_status,
          new.live_home_score, new.live_away_score, new.home_team, new.away_team, new.kickoff_time)
         is not distinct from
         (old.league, old.season, old.match_day, old.status, old.home_score, old.away_score, old.live_status,
          old.live_home_score, old.live_away_score, old.home_team, old.away_team, old.kickoff_time) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    perform private.bump_live_version(old.league, old.season, old.match_day);
  end if;
  if tg_op = 'INSERT'
     or (tg_op = 'UPDATE' and (new.league, new.season, new.match_day) is distinct from (old.league, old.season, old.match_day)) then
    perform private.bump_live_version(new.league, new.season, new.match_day);
  end if;
  return null;
end
$$;
revoke all on function private.fixtures_bump_live_version() from public;

create trigger fixtures_bump_live_version
  after insert or delete or update on public.fixtures
  for each row execute function private.fixtures_bump_live_version();

-- Memberships (status, standings, names) and picks of a competition's current match day: one bump per match day
-- per statement (processing and standings rewrite many rows at once), only when it matters (see above).
create function private.selections_bump_live_version() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  -- live_version_matters once per match day, not once per changed row (a processing step rewrites 100,000)
  perform private.bump_live_version(k.league, k.season, k.match_day)
     from (select distinct c.league, c.season, c.current_match_day as match_day
             from changed_rows r
             join public.competitions c on c.id = r.competition_id
            where tg_table_name = 'user_selections' or r.match_day = c.current_match_day) k
    where private.live_version_matters(k.league, k.season, k.match_day)
    order by k.league, k.season, k.match_day;
  return null;
end
$$;
revoke all on function private.selections_bump_live_version() from public;

create trigger user_selections_bump_live_version_insert
  after insert on public.user_selections
  referencing new table as changed_rows
  for each statement execute function private.selections_bump_live_version();
create trigger user_selections_bump_live_version_update
  after update on public.user_selections
  referencing new table as changed_rows
  for each statement execute function private.selections_bump_live_version();
create trigger user_selections_bump_live_version_delete
  after delete on public.user_selections
  referencing old table as changed_rows
  for each statement execute function private.selections_bump_live_version();
create trigger team_selections_bump_live_version_insert
  after insert on public.team_selections
  referencing new table as changed_rows
  for each statement execute function private.selections_bump_live_version();
create trigger team_selections_bump_live_version_update
  after update on public.team_selections
  referencing new table as changed_rows
  for each statement execute function private.selections_bump_live_version();
create trigger team_selections_bump_live_version_delete
  after delete on public.team_selections
  referencing old table as changed_rows
  for each statement execute function private.selections_bump_live_version();
-- a joker on the current match day doubles its points in the provisional season table (decision 028)
create trigger season_jokers_bump_live_version_insert
  after insert on public.season_jokers
  referencing new table as changed_rows
  for each statement execute function private.selections_bump_live_version();
create trigger season_jokers_bump_live_version_update
  after update on public.season_jokers
  referencing new table as changed_rows
  for each statement execute function private.selections_bump_live_version();
create trigger season_jokers_bump_live_version_delete
  after delete on public.season_jokers
  referencing old table as changed_rows
  for each statement execute function private.selections_bump_live_version();

-- The cached provisional tables: the whole competition ranked once per (match day, live version), the same for
-- every reader (no caller's identity in them); the functions below check who may see them on every call and read
-- one page. Unlogged: a cache, recomputed after a crash empties it.
create unlogged table private.live_table_cache (
  competition_id uuid primary key,
  match_day integer not null,
  version bigint not null
);
revoke all on table private.live_table_cache from public, anon, authenticated;

create unlogged table private.live_knockout_rows (
  competition_id uuid not null,
  "position" integer not null,
  user_id uuid not null,
  knocked_out_on integer,
  team text,
  team_goals integer,
  opponent_goals integer,
  fixture_state text,
  outcome text not null,
  still_in integer not null,
  remaining integer not null,
  lives_left integer,
  auto_picked boolean not null default false,
  primary key (competition_id, "position")
);
revoke all on table private.live_knockout_rows from public, anon, authenticated;

create unlogged table private.live_season_rows (
  competition_id uuid not null,
  "position" integer not null,
  user_id uuid not null,
  team text,
  team_goals integer,
  opponent_goals integer,
  fixture_state text,
  live_points integer,
  points integer,
  goal_difference integer,
  goals_for integer,
  wins integer,
  draws integer,
  losses integer,
  rank integer not null,
  auto_picked boolean not null default false,
  joker boolean not null default false,
  primary key (competition_id, "position")
);
revoke all on table private.live_season_rows from public, anon, authenticated;

-- Makes sure the competition's provisional table is cached for its current match day at the current live version:
-- nothing to do when it is; otherwise one transaction computes it (an advisory lock per competition, held to the
-- end of the transaction: a second reader waits, then finds it stored), the others read it.
create function private.ensure_live_table(p_competition_id uuid) returns void
  language plpgsql
  security definer
  set search_path = ''
  set work_mem = '64MB'  -- the whole competition (100,000 rows) is hashed and sorted in memory, not on disk
as $$
declare
  v_type text;
  v_league text;
  v_season text;
  v_md integer;
  v_version bigint;
  v_c public.competitions%rowtype;
begin
  select * into v_c from public.competitions c where c.id = p_competition_id;
  v_type := v_c.type;
  v_league := v_c.league;
  v_season := v_c.season;
  v_md := v_c.current_match_day;
  if v_type is null or v_type not in ('knockout', 'season') then
    return;
  end if;
  v_version := private.live_version(v_league, v_season, v_md);
  if exists (select 1 from private.live_table_cache k
              where k.competition_id = p_competition_id and k.match_day = v_md and k.version = v_version) then
    return;
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('live_table:' || p_competition_id::text, 0));
  -- a new statement, a new snapshot: what another reader stored while this one waited; the version is read before
  -- the rows, so rows stored under it are never older than it
  v_version := private.live_version(v_league, v_season, v_md);
  if exists (select 1 from private.live_table_cache k
              where k.competition_id = p_competition_id and k.match_day = v_md and k.version = v_version) then
    return;
  end if;
  delete from private.live_knockout_rows r where r.competition_id = p_competition_id;
  delete from private.live_season_rows r where r.competition_id = p_competition_id;
  if v_type = 'knockout' then
    insert into private.live_knockout_rows (competition_id, "position", user_id, knocked_out_on, team, team_goals,
                                            opponent_goals, fixture_state, outcome, still_in, remaining, lives_left,
                                            auto_picked)
    with o as (select o.* from private.match_day_outcomes_now(v_league, v_season, v_md) o),
    p as (
      select us.user_id, us.status, us.knocked_out_on, us.sort_name, ts.selected_team as team, ts.fixture_id,
             coalesce(ts.auto_picked, false) as auto_picked, v_c.lives - coalesce(ll.n, 0) as lives,
             case when us.status <> 'active' then null
                  when ts.selected_team is null then 'no_pick'
                  else coalesce(o.outcome, 'not_started') end as o
        from public.user_selections us
        left join (select l.user_id, count(*)::integer as n from public.knockout_life_losses l
                    where l.competition_id = p_competition_id group by l.user_id) ll on ll.user_id = us.user_id
        left join public.team_selections ts
          on ts.competition_id = us.competition_id and ts.user_id = us.user_id and ts.match_day = v_md
         and us.status = 'active'
        left join o on o.fixture_id = ts.fixture_id and o.team = ts.selected_team
       where us.competition_id = p_competition_id
    ),
    k as (
      select count(*) filter (where p.lives <= 1 and private.pick_costs_life(p.o, v_c.draw_rule))::integer as out_count,
             count(*) filter (where p.status = 'active')::integer as remaining
        from p
    ),
    r as (
      select p.*, case when p.status = 'active'
                       then private.knockout_outcome_now(p.o, v_c.draw_rule, p.lives, v_c.everyone_out_rule,
                                                         k.out_count, k.remaining)
                       else 'eliminated' end as outcome,
             k.out_count, k.remaining
        from p cross join k
    ),
    -- the order processing would give: still in (alphabetical), then out now, then out before (latest first)
    n as (
      select r.*, pg_catalog.row_number() over (
               order by r.outcome in ('out', 'eliminated'),
                        case when r.outcome = 'out' then 2147483647 else r.knocked_out_on end desc nulls first,
                        r.sort_name, r.user_id) as n
        from r
    )
    select p_competition_id, g.n, g.user_id,
           case when g.outcome = 'out' then v_md else g.knocked_out_on end,
           g.team, o.team_goals, o.opponent_goals, o.fixture_state, g.outcome,
           private.knockout_still_in_now(g.out_count, g.remaining),
           g.remaining,
           case when g.outcome in ('out', 'eliminated') then 0 else g.lives - (g.outcome = 'life_lost')::integer end,
           g.auto_picked
      from n g
      left join o on o.fixture_id = g.fixture_id and o.team = g.team;
  else
    insert into private.live_season_rows (competition_id, "position", user_id, team, team_goals, opponent_goals,
                                          fixture_state, live_points, points, goal_difference, goals_for, wins,
                                          draws, losses, rank, auto_picked, joker)
    with o as (select o.* from private.match_day_outcomes_now(v_league, v_season, v_md) o),
    p as (
      select us.user_id, us.sort_name, us.points, us.goal_difference, us.goals_for, us.wins, us.draws, us.losses,
             ts.selected_team as team, ts.fixture_id, o.outcome as o_all, o.fixture_state,
             coalesce(ts.auto_picked, false) as auto_picked, v_c.joker and j.match_day is not null as joker,
             -- a complete match is already in the stored standings: only a match in play adds to them
             case when o.fixture_state in ('in_play', 'paused') then o.outcome end as o,
             o.team_goals as gf, o.opponent_goals as ga
        from public.user_selections us
        left join public.team_selections ts
          on ts.competition_id = us.competition_id and ts.user_id = us.user_id and ts.match_day = v_md
        left join o on o.fixture_id = ts.fixture_id and o.team = ts.selected_team
        left join public.season_jokers j
          on j.competition_id = us.competition_id and j.user_id = us.user_id and j.match_day = v_md
       where us.competition_id = p_competition_id
    ),
    n as (
      select p.*,
             p.points + coalesce(private.pick_points(p.o, v_c.win_points, v_c.draw_points, v_c.loss_points, p.joker), 0)
               as points_now,
             p.goal_difference + case when p.o is null then 0 else p.gf - p.ga end as gd_now,
             p.goals_for + case when p.o is null then 0 else p.gf end as gf_now,
             p.wins + (p.o = 'win')::integer as wins_now
        from p
    ),
    -- the season's order (points, goal difference, goals for, wins; equal on all four share a rank), then name
    g as (
      select n.*,
             pg_catalog.rank() over (order by n.points_now desc, n.gd_now desc, n.gf_now desc, n.wins_now desc) as rank_now,
             pg_catalog.row_number() over (order by n.points_now desc, n.gd_now desc, n.gf_now desc, n.wins_now desc,
                                                    n.sort_name, n.user_id) as pos
        from n
    )
    select p_competition_id, g.pos, g.user_id, g.team, g.gf, g.ga, g.fixture_state,
           private.pick_points(case when g.fixture_state in ('complete', 'in_play', 'paused') then g.o_all end,
                               v_c.win_points, v_c.draw_points, v_c.loss_points, g.joker),
           g.points_now, g.gd_now, g.gf_now, g.wins_now,
           g.draws + (g.o = 'draw')::integer, g.losses + (g.o = 'loss')::integer, g.rank_now, g.auto_picked, g.joker
      from g;
  end if;
  insert into private.live_table_cache (competition_id, match_day, version)
  values (p_competition_id, v_md, v_version)
  on conflict (competition_id) do update set match_day = excluded.match_day, version = excluded.version;
end
$$;
revoke all on function private.ensure_live_table(uuid) from public, anon, authenticated;

-- The knockout's provisional leaderboard if the match day ended now: every member, in the leaderboard's order as
-- it would be after processing: still in (through, waiting for a match not started, or everybody on a
-- roll-over) first, alphabetical; then out on this match day; then the players eliminated before, latest first.
-- Only while the match day is played (private.match_day_in_play) and only to whoever may see its picks (members
-- after the deadline, private.can_see_match_day_picks: the hidden-picks rule); no row otherwise: checked on every
-- call, before the shared table (private.ensure_live_table, computed once per change) is read. One page (offset,
-- limit at most 100); still_in / remaining on every row.
create function private.live_knockout_table(p_competition_id uuid, p_offset integer, p_limit integer)
  returns table (user_id uuid, username text, knocked_out_on integer, team text, team_goals integer,
                 opponent_goals integer, fixture_state text, outcome text, "position" integer,
                 still_in integer, remaining integer, lives_left integer, auto_picked boolean)
  language plpgsql
  security definer
  set search_path = ''
  set max_parallel_workers_per_gather = 0  -- a page of stored rows: starting parallel workers cost more than it
as $$
#variable_conflict use_column
declare
  v_from integer := greatest(coalesce(p_offset, 0), 0);
  v_to integer := greatest(coalesce(p_offset, 0), 0) + greatest(least(coalesce(p_limit, 10), 100), 0);
begin
  if not exists (select 1 from public.competitions c
                  where c.id = p_competition_id and c.type = 'knockout'
                    and private.match_day_in_play(c.id)
                    and private.can_see_match_day_picks(c.id, c.current_match_day)) then
    return;
  end if;
  perform private.ensure_live_table(p_competition_id);
  return query
    select r.user_id, pn.username, r.knocked_out_on, r.team, r.team_goals, r.opponent_goals, r.fixture_state,
           r.outcome, r."position", r.still_in, r.remaining, r.lives_left, r.auto_picked
      from private.live_knockout_rows r
      left join public.player_names pn on pn.id = r.user_id
     where r.competition_id = p_competition_id and r."position" > v_from and r."position" <= v_to
     order by r."position";
end
$$;
revoke all on function private.live_knockout_table(uuid, integer, integer) from public, anon, authenticated;
grant execute on function private.live_knockout_table(uuid, integer, integer) to authenticated, service_role;

create function public.live_knockout_table(p_competition_id uuid, p_offset integer default 0, p_limit integer default 10)
  returns table (user_id uuid, username text, knocked_out_on integer, team text, team_goals integer,
                 opponent_goals integer, fixture_state text, outcome text, "position" integer,
                 still_in integer, remaining integer, lives_left integer, auto_picked boolean)
  language sql
  set search_path = ''
as $$
  select * from private.live_knockout_table(p_competition_id, p_offset, p_limit)
$$;
revoke all on function public.live_knockout_table(uuid, integer, integer) from public, anon, authenticated;
grant execute on function public.live_knockout_table(uuid, integer, integer) to authenticated, service_role;

-- The season's provisional table if the match day ended now: the stored standings (complete fixtures, the
-- match day's finished ones included) plus each pick on a match in play scored on its live score (3 / 1 / 0,
-- goals for and against), ranked by the season's order (points, goal difference, goals for, wins; equal on all
-- four share a rank); rank_before is the stored rank, so the page shows the change. Same visibility as the
-- knockout's, checked on every call: while the match day is played, to members after the deadline. One page (at
-- most 100 rows) of the shared table (private.ensure_live_table).
create function private.live_season_table(p_competition_id uuid, p_offset integer, p_limit integer)
  returns table (user_id uuid, username text, team text, team_goals integer, opponent_goals integer,
                 fixture_state text, live_points integer, points integer, goal_difference integer,
                 goals_for integer, wins integer, draws integer, losses integer, rank integer,
                 rank_before integer, "position" integer, auto_picked boolean, joker boolean)
  language plpgsql
  security definer
  set search_path = ''
  set max_parallel_workers_per_gather = 0  -- a page of stored rows: starting parallel workers cost more than it
as $$
#variable_conflict use_column
declare
  v_from integer := greatest(coalesce(p_offset, 0), 0);
  v_to integer := greatest(coalesce(p_offset, 0), 0) + greatest(least(coalesce(p_limit, 10), 100), 0);
begin
  if not exists (select 1 from public.competitions c
                  where c.id = p_competition_id and c.type = 'season'
                    and private.match_day_in_play(c.id)
                    and private.can_see_match_day_picks(c.id, c.current_match_day)) then
    return;
  end if;
  perform private.ensure_live_table(p_competition_id);
  return query
    select r.user_id, pn.username, r.team, r.team_goals, r.opponent_goals, r.fixture_state, r.live_points,
           r.points, r.goal_difference, r.goals_for, r.wins, r.draws, r.losses, r.rank, mr.rank, r."position",
           r.auto_picked, r.joker
      from private.live_season_rows r
      left join public.membership_ranks mr on mr.competition_id = p_competition_id and mr.user_id = r.user_id
      left join public.player_names pn on pn.id = r.user_id
     where r.competition_id = p_competition_id and r."position" > v_from and r."position" <= v_to
     order by r."position";
end
$$;
revoke all on function private.live_season_table(uuid, integer, integer) from public, anon, authenticated;
grant execute on function private.live_season_table(uuid, integer, integer) to authenticated, service_role;

create function public.live_season_table(p_competition_id uuid, p_offset integer default 0, p_limit integer default 10)
  returns table (user_id uuid, username text, team text, team_goals integer, opponent_goals integer,
                 fixture_state text, live_points integer, points integer, goal_difference integer,
                 goals_for integer, wins integer, draws integer, losses integer, rank integer,
                 rank_before integer, "position" integer, auto_picked boolean, joker boolean)
  language sql
  set search_path = ''
as $$
  select * from private.live_season_table(p_competition_id, p_offset, p_limit)
$$;
revoke all on function public.live_season_table(uuid, integer, integer) from public, anon, authenticated;
grant execute on function public.live_season_table(uuid, integer, integer) to authenticated, service_role;

-- A knockout player's route: the teams they used (with the match day) and, while they are still in, the teams
-- still available for the rest of the season (a fixture from the next match day open for picks to the
-- competition's last one, never used before). Security invoker: team_selections is read under row-level security,
-- so another player's pick of a match day shows only once its deadline has passed, and only to members (the
-- hidden-picks rule); the caller's own picks always. A caller who is not a member gets no row.
create function public.knockout_route(p_competition_id uuid, p_user_id uuid)
  returns table (team text, match_day integer, used boolean, auto_picked boolean)
  language sql stable
  set search_path = ''
as $$
  with c as (
    select c.id, c.league, c.season, c.total_match_days, us.status,
           c.current_match_day
             + case when public.matchday_deadline_passed(c.league, c.season, c.current_match_day) then 1 else 0 end
             as first_open
      from public.competitions c
      join public.user_selections us on us.competition_id = c.id and us.user_id = p_user_id
     where c.id = p_competition_id and c.type = 'knockout'
       and exists (select 1 from public.user_selections me
                    where me.competition_id = c.id and me.user_id = (select auth.uid()))
  ),
  used as (
    select ts.selected_team, ts.match_day, ts.auto_picked
      from c join public.team_selections ts on ts.competition_id = c.id and ts.user_id = p_user_id
  )
  select u.selected_team, u.match_day, true, u.auto_picked from used u
  union all
  select t.team, null::integer, false, false
    from c
    cross join lateral (
      select distinct x.team
        from public.fixtures f
        cross join lateral (values (f.home_team), (f.away_team)) x (team)
       where f.league = c.league and f.season = c.season
         and f.match_day between c.first_open and c.total_match_days
    ) t
   where c.status = 'active'
     and not exists (select 1 from used u where u.selected_team = t.team)
   order by 3 desc, 2, 1
$$;
revoke all on function public.knockout_route(uuid, uuid) from public, anon, authenticated;
grant execute on function public.knockout_route(uuid, uuid) to authenticated, service_role;
