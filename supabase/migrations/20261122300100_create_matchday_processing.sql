-- Match-day processing: the one home of "a match day is over, apply the rules" (rules file: Competitions,
-- Knockout, Season). See docs/decisions/006-results-processing.md.
--
-- A competition's current match day is finished when its (league, season, current_match_day) has fixtures and
-- every one of them is complete or postponed. Processing it:
--   knockout: each active member survives when their pick won or its fixture was postponed; a draw, a loss or
--     no pick eliminates (knocked_out_on = that match day) - unless that would eliminate every remaining member
--     (roll-over: nobody is). Then exactly one left -> knockout_winner, membership completed, competition
--     inactive/completed; last match day with several left -> all completed (status Winner), the first in
--     leaderboard order (sort_name, user_id) stored as knockout_winner, competition inactive/completed.
--   season: standings are already stored (triggers); after the last match day the competition ends
--     (inactive/completed); the champion is membership_ranks rank 1.
--   otherwise current_match_day moves on by one. Registration still open is closed (its deadline has passed).
-- Each processed (competition, match day) gets a row in public.competition_matchday_results, so running again
-- changes nothing. A change of a result of a processed match day re-derives everything from that match day on
-- (private.reprocess_competition): memberships eliminated on or after it and winners become active again, the
-- competition re-opens at that match day, and processing runs forward again as far as results allow.
--
-- Every step is a set-based statement per competition (no loop over members). Lock order as in
-- 20261122200000_add_membership_stats.sql: the competition row first, then memberships.

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
  v_out uuid[];
  v_rolled boolean;
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
    -- finished: has fixtures, none pending
    exit when not exists (select 1 from public.fixtures f
                           where f.league = v_c.league and f.season = v_c.season and f.match_day = v_md)
           or exists (select 1 from public.fixtures f
                       where f.league = v_c.league and f.season = v_c.season and f.match_day = v_md
                         and f.status = 'pending');

    v_rolled := false;
    v_left := null;
    v_out := null;
    if v_c.type = 'knockout' then
      select count(*)::integer,
             pg_catalog.array_agg(x.user_id) filter (where not x.survives)
        into v_remaining, v_out
        from (
          select us.user_id,
                 coalesce(f.status = 'postponed'
                          or (f.status = 'complete'
                              and ((ts.selected_team = f.home_team and f.home_score > f.away_score)
                                   or (ts.selected_team = f.away_team and f.away_score > f.home_score))),
                          false) as survives
            from public.user_selections us
            left join public.team_selections ts
              on ts.user_id = us.user_id and ts.competition_id = us.competition_id and ts.match_day = v_md
            left join public.fixtures f on f.id = ts.fixture_id
           where us.competition_id = p_competition_id and us.status = 'active'
        ) x;

      if v_out is not null and pg_catalog.cardinality(v_out) = v_remaining then
        v_rolled := true;  -- every remaining member would go out: nobody does
        v_out := null;
      end if;
      if v_out is not null then
        update public.user_selections us
           set status = 'eliminated', knocked_out_on = v_md
          from pg_catalog.unnest(v_out) as o (user_id)
         where us.competition_id = p_competition_id and us.user_id = o.user_id and us.status = 'active';
      end if;
      v_left := v_remaining - coalesce(pg_catalog.cardinality(v_out), 0);

      if v_left = 1 or (v_left > 1 and v_md >= v_c.total_match_days) then
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
            case when v_c.type = 'knockout' then coalesce(pg_catalog.cardinality(v_out), 0) end, v_rolled);
    v_done := v_done + 1;
  end loop;
  return v_done;
end
$$;

-- Undo everything derived from match day p_from_match_day on, then process forward again. Used when a result
-- (or postponement) of an already processed match day changes. Returns the number of match days processed.
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
  if exists (select 1 from public.competition_matchday_results r
              where r.competition_id = p_competition_id and r.match_day >= v_from) then
    delete from public.competition_matchday_results r
     where r.competition_id = p_competition_id and r.match_day >= v_from;
    if v_c.type = 'knockout' then
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

-- A fixture of (league, season, match_day) was saved: re-derive competitions that had processed that match
-- day when p_changed, and process any competition whose current match day may now be finished. Competitions
-- are handled in id order. Returns the number of competitions that processed at least one match day.
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
begin
  perform private.lock_competitions_of(p_league, p_season);
  for v_id in
    select c.id from public.competitions c
     where c.league = p_league and c.season = p_season and c.type in ('knockout', 'season')
       and c.start_match_day <= p_match_day
     order by c.id
  loop
    if p_changed and exists (select 1 from public.competition_matchday_results r
                              where r.competition_id = v_id and r.match_day = p_match_day) then
      v_n := private.reprocess_competition(v_id, p_match_day);
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

-- The time-based step: close registration of active competitions whose start match day's deadline passed.
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
     and public.matchday_deadline(c.league, c.season, c.start_match_day) <= public.app_now()
   order by c.id
     for no key update;
  update public.competitions c
     set registration_status = 'closed'
   where c.registration_status = 'open'
     and c.status = 'active'
     and c.type in ('knockout', 'season')
     and public.matchday_deadline(c.league, c.season, c.start_match_day) <= public.app_now();
  get diagnostics v_n = row_count;
  return v_n;
end
$$;

-- Safety net / scheduler step: close due registrations, then process every active competition whose current
-- match day is finished. Returns the number of competitions that processed at least one match day.
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
       and exists (select 1 from public.fixtures f
                    where f.league = c.league and f.season = c.season and f.match_day = c.current_match_day)
       and not exists (select 1 from public.fixtures f
                        where f.league = c.league and f.season = c.season and f.match_day = c.current_match_day
                          and f.status = 'pending')
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
revoke all on function private.after_fixture_change(text, text, integer, boolean) from public;
revoke all on function private.close_due_registrations() from public;
revoke all on function private.process_due_matchdays() from public, anon;
grant execute on function private.process_due_matchdays() to authenticated, service_role;
revoke all on function public.process_due_matchdays() from public, anon;
grant execute on function public.process_due_matchdays() to authenticated, service_role;
