-- The data feed (football-data.org v4 first): the leagues linked to it and the feed's state per league, the
-- feed's team-name map, the admin panel's Data Feed section (link, unlink, "Sync now", and the review of
-- hand-entered results the feed disagrees with: "Accept feed" / "Keep mine"), and the scheduler's feed job on the
-- service path: which linked league to sync now, the sync of one league's season in one transaction (fixtures,
-- kickoffs, match days, live scores and results), and the record of a failed request with its backoff.
-- Rules: docs/game-rules.md "Fixtures and results from a data feed", "Admin". Decision:
-- 020-data-feed-and-corrections.md.
--
-- The feed writes results like an admin does, through private.apply_fixture_result (60_results_and_processing.sql:
-- the result history, hand-entered results win, corrections re-processed and players told); what it knows about a
-- fixture is in the feed_* and live_* columns of public.fixtures (20_fixtures_and_matchdays.sql). The scheduler's
-- job feed (private.job_runs) is in 90_push_and_scheduler.sql; its client and mapping in workers/scheduler/feed/.
-- Admins link, unlink, ask for a sync and review disagreements through the definer functions below; everything
-- else here is written by the feed job. Admins read the tables in the admin panel (row-level security).

-- ---------------------------------------------------------------------------------------------------------
-- Codes, seasons and team names
-- ---------------------------------------------------------------------------------------------------------

-- football-data.org's competition codes for the app's leagues (MLS has none in its plans).
create function private.feed_competition_code(p_league text) returns text
  language sql immutable
  set search_path = ''
as $$
  select case p_league
           when 'Premier League' then 'PL'
           when 'La Liga' then 'PD'
           when 'Serie A' then 'SA'
           when 'Bundesliga' then 'BL1'
           when 'Ligue 1' then 'FL1'
           when 'Championship' then 'ELC'
         end
$$;
revoke all on function private.feed_competition_code(text) from public, anon, authenticated;

-- The leagues the feed has, with their codes, for the admin panel (the codes' one home is the function above).
create function private.feed_competitions() returns table (league text, code text)
  language sql stable security definer
  set search_path = ''
as $$
  select l.league, private.feed_competition_code(l.league)
    from pg_catalog.unnest(private.competition_leagues()) with ordinality as l (league, n)
   where private.feed_competition_code(l.league) is not null
   order by l.n
$$;
revoke all on function private.feed_competitions() from public, anon, authenticated;
grant execute on function private.feed_competitions() to authenticated, service_role;

create function public.feed_competitions() returns table (league text, code text)
  language sql stable
  set search_path = ''
as $$
  select * from private.feed_competitions()
$$;
revoke all on function public.feed_competitions() from public, anon, authenticated;
grant execute on function public.feed_competitions() to authenticated, service_role;

-- The feed names a season by the year it starts: 2025/26 and 2025 are both 2025.
create function private.season_start_year(p_season text) returns integer
  language sql immutable
  set search_path = ''
as $$
  select (pg_catalog.substring(p_season, '^([0-9]{4})'))::integer
$$;
revoke all on function private.season_start_year(text) from public, anon, authenticated;

-- A team name as compared across sources: lower case, accents and punctuation gone, & read as "and", and the
-- words that only say "club" dropped, so "Arsenal FC" = "Arsenal" and "Brighton & Hove Albion FC" =
-- "Brighton and Hove Albion" = "Brighton & Hove Albion".
create function private.normalise_team_name(p_name text) returns text
  language sql immutable
  set search_path = ''
as $$
  select pg_catalog.array_to_string(array(
           select w.word
             from pg_catalog.regexp_split_to_table(
                    pg_catalog.btrim(pg_catalog.regexp_replace(
                      pg_catalog.translate(
                        pg_catalog.replace(pg_catalog.replace(pg_catalog.lower(coalesce(p_name, '')), 'ß', 'ss'), '&', ' and '),
                        'àáâãäåāăąçćčďèéêëēėęěìíîïīįıñńňòóôõöøōőùúûüūůűųýÿžźżšśşťţğł',
                        'aaaaaaaaacccdeeeeeeeeiiiiiiinnnoooooooouuuuuuuuyyzzzsssttgl'),
                      '[^a-z0-9]+', ' ', 'g')),
                    ' ') with ordinality as w (word, n)
            where w.word not in ('', 'fc', 'afc', 'cf', 'sc', 'ac', 'ssc', 'and', 'the')
            order by w.n), ' ')
$$;
revoke all on function private.normalise_team_name(text) from public, anon, authenticated;

-- The name a team new to the app gets from the feed: its name without a trailing "FC" ("Arsenal FC" ->
-- "Arsenal"), else its short name, reduced to the characters team names allow (private.is_team_name).
create function private.feed_team_display_name(p_name text, p_short_name text) returns text
  language plpgsql immutable
  set search_path = ''
as $$
declare
  v_name text;
begin
  foreach v_name in array array[p_name, p_short_name] loop
    v_name := pg_catalog.regexp_replace(coalesce(v_name, ''), '\s+(FC|AFC|CF)$', '', 'i');
    v_name := pg_catalog.regexp_replace(v_name, '[^A-Za-z0-9\u00C0-\u024F .''&-]+', ' ', 'g');
    v_name := pg_catalog.btrim(pg_catalog.left(pg_catalog.btrim(pg_catalog.regexp_replace(v_name, '\s+', ' ', 'g')), 60));
    if v_name <> '' and private.is_team_name(v_name) then
      return v_name;
    end if;
  end loop;
  return null;
end
$$;
revoke all on function private.feed_team_display_name(text, text) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------------
-- Linked leagues and the feed's team names
-- ---------------------------------------------------------------------------------------------------------

create table public.feed_leagues (
  league text not null,
  season text not null,
  provider text not null default 'football-data',
  -- the feed's competition code (PL, PD, SA, BL1, FL1, ELC) and the season's start year (?season=)
  code text not null,
  season_year integer not null,
  linked boolean not null default true,
  linked_at timestamptz,
  linked_by uuid references public.profiles (id) on delete set null,
  -- "Sync now": the next feed tick syncs this league whatever its cadence or backoff
  sync_requested_at timestamptz,
  last_attempt_at timestamptz,
  last_synced_at timestamptz,
  -- after a failure: not before this time (exponential backoff); paused_until: the plan's rate limit (429)
  next_attempt_at timestamptz,
  paused_until timestamptz,
  failures integer not null default 0,
  last_error text,
  last_error_at timestamptz,
  -- what the last successful sync changed, and totals since linking
  last_fixtures_changed integer not null default 0,
  last_results_changed integer not null default 0,
  fixtures_changed integer not null default 0,
  results_changed integer not null default 0,
  requests integer not null default 0,
  -- the season's number of match days as the feed lists it (decision 027), which the league's competitions of that
  -- season take as their total_match_days; null until a sync has seen the whole season
  match_days integer,
  constraint feed_leagues_pkey primary key (league, season),
  constraint feed_leagues_provider_check check (provider in ('football-data')),
  constraint feed_leagues_code_check check (code ~ '^[A-Z0-9]{2,5}$'),
  constraint feed_leagues_error_length check (char_length(last_error) <= 500),
  constraint feed_leagues_match_days_range check (match_days between 1 and 60)
);

-- provider + the feed's team id -> the team's one name in the app, whatever the feed calls it
create table public.feed_teams (
  provider text not null default 'football-data',
  feed_team_id bigint not null,
  team text not null,
  feed_name text not null,
  feed_short_name text,
  tla text,
  league text not null,
  created_at timestamptz not null default public.app_now(),
  constraint feed_teams_pkey primary key (provider, feed_team_id),
  constraint feed_teams_provider_check check (provider in ('football-data')),
  constraint feed_teams_team_name check (private.is_team_name(team) and char_length(team) <= 60)
);

alter table public.feed_leagues enable row level security;
alter table public.feed_teams enable row level security;
revoke all on table public.feed_leagues, public.feed_teams from public, anon, authenticated;
grant select on table public.feed_leagues, public.feed_teams to authenticated;
grant all on table public.feed_leagues, public.feed_teams to service_role;
create policy feed_leagues_select_admin on public.feed_leagues for select to authenticated
  using ((select private.is_admin()));
create policy feed_teams_select_admin on public.feed_teams for select to authenticated
  using ((select private.is_admin()));

-- ---------------------------------------------------------------------------------------------------------
-- The admin panel's Data Feed section
-- ---------------------------------------------------------------------------------------------------------

-- Link (or re-link) a league's season: synced by the next feed tick.
create function private.link_feed_league(p_league text, p_season text) returns text
  language plpgsql security definer
  set search_path = ''
as $$
declare
  v_code text := private.feed_competition_code(p_league);
begin
  perform private.require_admin();
  if v_code is null then
    raise exception using errcode = 'P0001', message = 'This league has no data feed.';
  end if;
  if p_season is null or not (p_season = any (private.competition_seasons())) then
    raise exception using errcode = 'P0001', message = 'Choose a season.';
  end if;
  insert into public.feed_leagues as l (league, season, code, season_year, linked, linked_at, linked_by, sync_requested_at)
  values (p_league, p_season, v_code, private.season_start_year(p_season), true, public.app_now(), (select auth.uid()),
          public.app_now())
  on conflict (league, season) do update
    set linked = true, linked_at = excluded.linked_at, linked_by = excluded.linked_by,
        sync_requested_at = excluded.sync_requested_at, next_attempt_at = null, failures = 0;
  return 'linked';
end
$$;
revoke all on function private.link_feed_league(text, text) from public, anon, authenticated;
grant execute on function private.link_feed_league(text, text) to authenticated, service_role;

-- Unlink: the feed stops; fixtures keep what it wrote (and their feed ids, for a later re-link).
create function private.unlink_feed_league(p_league text, p_season text) returns text
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform private.require_admin();
  update public.feed_leagues l set linked = false, sync_requested_at = null
   where l.league = p_league and l.season = p_season and l.linked;
  return case when found then 'unlinked' else 'not_linked' end;
end
$$;
revoke all on function private.unlink_feed_league(text, text) from public, anon, authenticated;
grant execute on function private.unlink_feed_league(text, text) to authenticated, service_role;

-- "Sync now": asked for, ahead of its cadence and its backoff (not of the plan's budget: feed_league_free_at). The web
-- Worker then asks the scheduler Worker to sync it at once (private.claim_requested_feed_league, decision 027);
-- when the budget does not allow it yet, the first feed tick that it allows does (feed_sync_expected_at).
create function private.request_feed_sync(p_league text, p_season text) returns text
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform private.require_admin();
  update public.feed_leagues l set sync_requested_at = public.app_now()
   where l.league = p_league and l.season = p_season and l.linked;
  return case when found then 'requested' else 'not_linked' end;
end
$$;
revoke all on function private.request_feed_sync(text, text) from public, anon, authenticated;
grant execute on function private.request_feed_sync(text, text) to authenticated, service_role;

-- "Accept feed": the feed's result replaces the hand-entered one (a correction on the shared path: history,
-- re-processing, notices); from then on the feed keeps it up to date.
create function private.accept_feed_result(p_fixture_id bigint) returns text
  language plpgsql security definer
  set search_path = ''
as $$
declare
  v_f public.fixtures%rowtype;
  v_code text;
begin
  perform private.require_admin();
  select * into v_f from public.fixtures f where f.id = p_fixture_id;
  if not found then
    return 'not_found';
  end if;
  if v_f.feed_status is null or v_f.feed_status not in ('complete', 'postponed') then
    return 'nothing_to_accept';
  end if;
  v_code := private.apply_fixture_result(p_fixture_id, v_f.feed_status, v_f.feed_home_score, v_f.feed_away_score,
                                         'feed', (select auth.uid()), 'Accepted the data feed''s result.', true);
  if v_code = 'before_kickoff' then
    raise exception using errcode = 'P0001', message = 'A result can be entered only after kickoff.';
  end if;
  if v_code = 'unchanged' then
    -- the same result: it is the feed's from now on
    update public.fixtures f set result_source = 'feed', feed_kept_result = null where f.id = p_fixture_id;
  end if;
  return 'saved';
end
$$;
revoke all on function private.accept_feed_result(bigint) from public, anon, authenticated;
grant execute on function private.accept_feed_result(bigint) to authenticated, service_role;

-- "Keep mine": the hand-entered result stays and this feed result is no longer listed (a different one would be).
create function private.keep_manual_result(p_fixture_id bigint) returns text
  language plpgsql security definer
  set search_path = ''
as $$
begin
  perform private.require_admin();
  update public.fixtures f
     set feed_kept_result = f.feed_status || ':' || coalesce(f.feed_home_score::text, '') || ':' || coalesce(f.feed_away_score::text, '')
   where f.id = p_fixture_id and f.feed_status is not null;
  return case when found then 'kept' else 'not_found' end;
end
$$;
revoke all on function private.keep_manual_result(bigint) from public, anon, authenticated;
grant execute on function private.keep_manual_result(bigint) to authenticated, service_role;

-- The same key keep_manual_result stores: a review row is listed while they differ.
create function public.feed_result_key(p_status text, p_home integer, p_away integer) returns text
  language sql immutable
  set search_path = ''
as $$
  select p_status || ':' || coalesce(p_home::text, '') || ':' || coalesce(p_away::text, '')
$$;
revoke all on function public.feed_result_key(text, integer, integer) from public, anon;
grant execute on function public.feed_result_key(text, integer, integer) to authenticated, service_role;

create function public.link_feed_league(p_league text, p_season text) returns text
  language sql set search_path = '' as $$ select private.link_feed_league(p_league, p_season) $$;
create function public.unlink_feed_league(p_league text, p_season text) returns text
  language sql set search_path = '' as $$ select private.unlink_feed_league(p_league, p_season) $$;
create function public.request_feed_sync(p_league text, p_season text) returns text
  language sql set search_path = '' as $$ select private.request_feed_sync(p_league, p_season) $$;
create function public.accept_feed_result(p_fixture_id bigint) returns text
  language sql set search_path = '' as $$ select private.accept_feed_result(p_fixture_id) $$;
create function public.keep_manual_result(p_fixture_id bigint) returns text
  language sql set search_path = '' as $$ select private.keep_manual_result(p_fixture_id) $$;

revoke all on function public.link_feed_league(text, text), public.unlink_feed_league(text, text),
  public.request_feed_sync(text, text), public.accept_feed_result(bigint), public.keep_manual_result(bigint)
  from public, anon, authenticated;
grant execute on function public.link_feed_league(text, text), public.unlink_feed_league(text, text),
  public.request_feed_sync(text, text), public.accept_feed_result(bigint), public.keep_manual_result(bigint)
  to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- The scheduler's feed job (service path)
-- ---------------------------------------------------------------------------------------------------------

-- The plan's limits are the token's, not a league's: a pause (a 429's Retry-After, or the minute's requests spent)
-- holds every league, also one linked after it, until the latest paused_until a linked league holds.
create function private.feed_paused_until() returns timestamptz
  language sql stable
  set search_path = ''
as $$
  select max(l.paused_until) from public.feed_leagues l where l.linked
$$;
revoke all on function private.feed_paused_until() from public, anon, authenticated;
grant execute on function private.feed_paused_until() to authenticated, service_role;

-- When a linked league may next be asked, whoever asks (a feed tick or Sync now): never twice within 50 seconds (one
-- request per league per tick), never while the plan's budget pauses the feed. Null: now.
create function private.feed_league_free_at(p_last_attempt_at timestamptz) returns timestamptz
  language sql stable
  set search_path = ''
as $$
  select greatest(p_last_attempt_at + interval '50 seconds', private.feed_paused_until())
$$;
revoke all on function private.feed_league_free_at(timestamptz) from public, anon, authenticated;
grant execute on function private.feed_league_free_at(timestamptz) to authenticated, service_role;

-- When a league whose sync was asked for will be synced if Sync now could not do it at once: by the first feed
-- tick (every minute, on the minute) at or after the time its budget allows. The admin panel says so.
create function public.feed_sync_expected_at(p_last_attempt_at timestamptz, p_now timestamptz) returns timestamptz
  language sql stable
  set search_path = ''
as $$
  select pg_catalog.date_trunc('minute', t.at)
         + case when t.at = pg_catalog.date_trunc('minute', t.at) then interval '0' else interval '1 minute' end
    from (select greatest(p_now, private.feed_league_free_at(p_last_attempt_at)) as at) t
$$;
revoke all on function public.feed_sync_expected_at(timestamptz, timestamptz) from public, anon;
grant execute on function public.feed_sync_expected_at(timestamptz, timestamptz) to authenticated, service_role;

-- The next linked league due for a request, claimed (last_attempt_at) so a concurrent tick takes another one, or
-- none. Due: asked for ("Sync now"); after a failure, once its backoff has run out; otherwise every 15 minutes,
-- and every minute while one of its matches is about to start or in play (live scores, results as they come; a
-- kickoff whose time is not known yet is not about to start). Never before feed_league_free_at.
create function private.claim_due_feed_league(p_now timestamptz)
  returns table (league text, season text, code text, season_year integer)
  language sql
  set search_path = ''
as $$
  with due as (
    select l.league, l.season
      from public.feed_leagues l
     where l.linked
       and coalesce(private.feed_league_free_at(l.last_attempt_at) <= p_now, true)
       and (l.sync_requested_at is not null
            or (l.failures > 0 and (l.next_attempt_at is null or l.next_attempt_at <= p_now))
            or (l.failures = 0
                and (l.last_attempt_at is null
                     or l.last_attempt_at <= p_now - interval '14 minutes'
                     or exists (select 1 from public.fixtures f
                                 where f.league = l.league and f.season = l.season and f.status = 'pending'
                                   and f.kickoff_confirmed and f.kickoff_time between p_now - interval '3 hours' and p_now + interval '5 minutes'))))
     order by l.sync_requested_at nulls last, l.last_attempt_at nulls first, l.league, l.season
     limit 1
       for update skip locked
  )
  update public.feed_leagues l set last_attempt_at = p_now
    from due d
   where l.league = d.league and l.season = d.season
  returning l.league, l.season, l.code, l.season_year
$$;
revoke all on function private.claim_due_feed_league(timestamptz) from public, anon, authenticated;
grant execute on function private.claim_due_feed_league(timestamptz) to service_role;

-- Sync now (decision 027): the league asked for, claimed as a tick claims it, when its budget allows it now
-- (feed_league_free_at); else none, and feed_sync_expected_at says when a tick will sync it.
create function private.claim_requested_feed_league(p_league text, p_season text, p_now timestamptz)
  returns table (league text, season text, code text, season_year integer)
  language sql
  set search_path = ''
as $$
  update public.feed_leagues l set last_attempt_at = p_now
   where l.league = p_league and l.season = p_season and l.linked and l.sync_requested_at is not null
     and coalesce(private.feed_league_free_at(l.last_attempt_at) <= p_now, true)
  returning l.league, l.season, l.code, l.season_year
$$;
revoke all on function private.claim_requested_feed_league(text, text, timestamptz) from public, anon, authenticated;
grant execute on function private.claim_requested_feed_league(text, text, timestamptz) to service_role;

-- The plan's minute budget is spent (an answer said X-Requests-Available-Minute: 0): no league is asked, by a tick
-- or by Sync now, before the counter resets (X-RequestCounter-Reset), so no request meets a 429.
create function private.pause_feed_requests(p_until timestamptz) returns void
  language sql
  set search_path = ''
as $$
  update public.feed_leagues l set paused_until = greatest(l.paused_until, p_until)
   where l.linked and l.paused_until is distinct from greatest(l.paused_until, p_until)
$$;
revoke all on function private.pause_feed_requests(timestamptz) from public, anon, authenticated;
grant execute on function private.pause_feed_requests(timestamptz) to service_role;

-- A request that failed (network, 5xx, 401/403, 429, unreadable answer): the error as the admin panel shows it,
-- and the next attempt after 1, 2, 4 ... at most 60 minutes, or after Retry-After when that is longer.
-- p_pause_all: the plan's rate limit (429) holds for every league until then.
create function private.record_feed_failure(p_league text, p_season text, p_now timestamptz, p_error text,
                                            p_retry_after_seconds integer, p_pause_all boolean, p_requests integer)
  returns timestamptz
  language plpgsql
  set search_path = ''
as $$
declare
  v_next timestamptz;
begin
  update public.feed_leagues l
     set failures = l.failures + 1,
         last_error = pg_catalog.left(coalesce(nullif(p_error, ''), 'The feed failed.'), 500),
         last_error_at = p_now,
         requests = l.requests + coalesce(p_requests, 0),
         next_attempt_at = p_now + greatest(
           pg_catalog.make_interval(secs => coalesce(p_retry_after_seconds, 0)),
           least(interval '1 minute' * (2 ^ least(l.failures, 10)), interval '60 minutes'))
   where l.league = p_league and l.season = p_season
  returning l.next_attempt_at into v_next;
  if p_pause_all and p_retry_after_seconds is not null then
    update public.feed_leagues l
       set paused_until = greatest(coalesce(l.paused_until, p_now), p_now + pg_catalog.make_interval(secs => p_retry_after_seconds))
     where l.linked;
  end if;
  return v_next;
end
$$;
revoke all on function private.record_feed_failure(text, text, timestamptz, text, integer, boolean, integer)
  from public, anon, authenticated;
grant execute on function private.record_feed_failure(text, text, timestamptz, text, integer, boolean, integer) to service_role;

-- One league's season from the feed, in the caller's one transaction. p_matches: the matches the scheduler read
-- and mapped (workers/scheduler/feed/map.ts), one object each:
--   id, kickoff, time_confirmed (false for SCHEDULED: kickoff is the date at 00:00 UTC, its time not known yet;
--   missing reads as true), match_day, state (pending | live | complete | postponed), live_status (IN_PLAY | PAUSED),
--   home_id, home_name, home_short, home_tla, away_id, away_name, away_short, away_tla,
--   home_score, away_score (after 90 minutes when complete; the running score when live), last_updated.
-- A match the feed has not changed since it was last applied (same last_updated and facts) is skipped.
-- The summary's match_days lists every match day this sync wrote a match of (a moved match: both), so the scheduler
-- can tell those match days' live pages after COMMIT (decision 022); an unchanged re-sync lists none.
create function private.sync_feed_league(p_league text, p_season text, p_matches jsonb, p_now timestamptz,
                                         p_requests integer default 1)
  returns jsonb
  language plpgsql security definer
  set search_path = ''
as $$
declare
  v_link public.feed_leagues%rowtype;
  v_m record;
  v_f public.fixtures%rowtype;
  v_code text;
  v_deadline_passed boolean;
  v_new boolean;
  v_live boolean;
  v_fs text;
  v_fh integer;
  v_fa integer;
  v_flag text;
  v_flag_md integer;
  v_kickoff timestamptz;
  v_confirmed boolean;
  v_feed_kickoff timestamptz;
  v_feed_confirmed boolean;
  v_days integer;
  v_clubs integer;
  v_created integer := 0;
  v_matched integer := 0;
  v_updated integer := 0;
  v_results integer := 0;
  v_corrections integer := 0;
  v_refused integer := 0;
  v_kept integer := 0;
  v_skipped integer := 0;
  v_seen integer := 0;
  v_keys_md integer[] := '{}';
  v_keys_changed boolean[] := '{}';
  v_key record;
  v_closed integer[];
  v_written_md integer[] := '{}';
begin
  if p_matches is null or pg_catalog.jsonb_typeof(p_matches) <> 'array' then
    raise exception using errcode = '22023', message = 'Matches must be a JSON array.';
  end if;
  select * into v_link from public.feed_leagues l where l.league = p_league and l.season = p_season for update;
  if not found or not v_link.linked then
    return pg_catalog.jsonb_build_object('skipped', true);
  end if;
  perform private.lock_competitions_of(p_league, p_season);
  -- The match days whose deadline had passed when this sync began: players picked against their schedule. (Taken
  -- before any change, so a sync that moves a whole match day earlier moves all of it.)
  select coalesce(pg_catalog.array_agg(m.match_day), '{}') into v_closed
    from public.matchdays m
   where m.league = p_league and m.season = p_season
     and public.matchday_deadline(m.league, m.season, m.match_day) <= p_now;

  -- Teams the feed names for the first time get their one name in the app: the name of a team this league
  -- already has that reads the same (normalised name or short name), else one made from the feed's name.
  -- (Only for teams not in the map yet, so an unchanged re-sync reads no names.)
  with new_teams as materialized (
    select distinct on (t.id) t.id, t.name, t.short, t.tla
      from (
        select x.home_id as id, x.home_name as name, x.home_short as short, x.home_tla as tla
          from pg_catalog.jsonb_to_recordset(p_matches) as x (home_id bigint, home_name text, home_short text, home_tla text)
        union all
        select x.away_id, x.away_name, x.away_short, x.away_tla
          from pg_catalog.jsonb_to_recordset(p_matches) as x (away_id bigint, away_name text, away_short text, away_tla text)
      ) t
     where t.id is not null and t.name is not null
       and not exists (select 1 from public.feed_teams ft where ft.provider = 'football-data' and ft.feed_team_id = t.id)
     order by t.id
  ),
  known as materialized (
    select u.team, bool_or(f.season = p_season) as this_season, private.normalise_team_name(u.team) as norm
      from public.fixtures f
     cross join lateral (values (f.home_team), (f.away_team)) as u (team)
     where f.league = p_league and exists (select 1 from new_teams)
     group by u.team
  )
  insert into public.feed_teams (provider, feed_team_id, team, feed_name, feed_short_name, tla, league)
  select 'football-data', t.id, n.team, t.name, t.short, t.tla, p_league
    from new_teams t
    cross join lateral (
      select coalesce(
               (select k.team from known k
                 where k.norm <> ''
                   and k.norm in (private.normalise_team_name(t.name), private.normalise_team_name(t.short))
                 order by k.this_season desc, k.team
                 limit 1),
               private.feed_team_display_name(t.name, t.short)) as team
    ) n
   where n.team is not null
  on conflict do nothing;

  for v_m in
    select x.*, coalesce(x.time_confirmed, true) as confirmed, ht.team as home_team, awt.team as away_team,
           f.id as fixture_id, f.league as fixture_league, f.season as fixture_season
      from pg_catalog.jsonb_to_recordset(p_matches) as x (
             id bigint, kickoff timestamptz, time_confirmed boolean, match_day integer, state text, live_status text,
             home_id bigint, away_id bigint, home_score integer, away_score integer, last_updated timestamptz)
      left join public.feed_teams ht on ht.provider = 'football-data' and ht.feed_team_id = x.home_id
      left join public.feed_teams awt on awt.provider = 'football-data' and awt.feed_team_id = x.away_id
      left join public.fixtures f on f.feed_match_id = x.id
     -- unchanged since last applied: the same lastUpdated and the same facts (lastUpdated has whole seconds, so two
     -- changes within one second share it: the facts tell them apart)
     where f.id is null or x.last_updated is null or f.feed_updated_at is distinct from x.last_updated
        or (f.feed_status, f.feed_home_score, f.feed_away_score)
           is distinct from (x.state, case when x.state in ('complete', 'live') then x.home_score end,
                                      case when x.state in ('complete', 'live') then x.away_score end)
        or x.kickoff is distinct from coalesce(f.feed_kickoff_time, f.kickoff_time)
        or coalesce(x.time_confirmed, true)
           is distinct from case when f.feed_kickoff_time is null then f.kickoff_confirmed else f.feed_kickoff_confirmed end
        or x.match_day is distinct from coalesce(f.feed_match_day, f.match_day)
        or (x.state = 'live' and x.live_status is distinct from f.live_status and f.status = 'pending')
     order by x.match_day, x.kickoff, x.id
  loop
    v_seen := v_seen + 1;
    if v_m.id is null or v_m.kickoff is null or v_m.match_day is null or v_m.match_day < 1
       or v_m.state is null or v_m.state not in ('pending', 'live', 'complete', 'postponed')
       or v_m.home_team is null or v_m.away_team is null or v_m.home_team = v_m.away_team
       or (v_m.fixture_id is not null and (v_m.fixture_league, v_m.fixture_season) <> (p_league, p_season)) then
      v_skipped := v_skipped + 1;
      continue;
    end if;

    -- What the feed says about the result (kept for the admin panel's review of hand-entered results) and the
    -- live score of a match in play. Written with the rest of the match in one statement below.
    v_fs := v_m.state;
    v_fh := case when v_m.state in ('complete', 'live') then v_m.home_score end;
    v_fa := case when v_m.state in ('complete', 'live') then v_m.away_score end;

    -- The fixture: by the feed's match id once seen; the first time by match day and teams, else by teams alone
    -- (a pairing is played once a season: the match may have been moved to another match day); else a new one,
    -- written whole in one statement.
    v_new := false;
    if v_m.fixture_id is not null then
      select * into v_f from public.fixtures f where f.id = v_m.fixture_id for update;
    else
      select * into v_f from public.fixtures f
       where f.league = p_league and f.season = p_season and f.feed_match_id is null
         and f.home_team = v_m.home_team and f.away_team = v_m.away_team
       order by (f.match_day = v_m.match_day) desc,
                abs(extract(epoch from f.kickoff_time - v_m.kickoff)), f.id
       limit 1
         for update;
      if found then
        v_matched := v_matched + 1;
      else
        insert into public.fixtures as f (league, season, match_day, home_team, away_team, kickoff_time,
                                          kickoff_confirmed, feed_match_id,
                                          feed_status, feed_home_score, feed_away_score, feed_updated_at,
                                          live_status, live_home_score, live_away_score, live_updated_at)
        values (p_league, p_season, v_m.match_day, v_m.home_team, v_m.away_team, v_m.kickoff, v_m.confirmed, v_m.id,
                v_fs, v_fh, v_fa, v_m.last_updated,
                case when v_m.state = 'live' then v_m.live_status end,
                case when v_m.state = 'live' then v_m.home_score end,
                case when v_m.state = 'live' then v_m.away_score end,
                case when v_m.state = 'live' then p_now end)
        on conflict on constraint fixtures_match_key do nothing
        returning * into v_f;
        if v_f.id is null then
          -- another fixture (linked to another feed match) already has these teams on this match day
          v_skipped := v_skipped + 1;
          continue;
        end if;
        v_new := true;
        v_created := v_created + 1;
        v_keys_md := v_keys_md || v_f.match_day;
        v_keys_changed := v_keys_changed || true;
      end if;
    end if;

    if not v_new then
      -- Another match day: moves with it unless picks were made on it (then the admin panel flags it).
      v_flag := null;
      v_flag_md := null;
      if v_m.match_day <> v_f.match_day then
        if exists (select 1 from public.team_selections ts where ts.fixture_id = v_f.id)
           or exists (select 1 from public.scout_predictions sp where sp.fixture_id = v_f.id) then
          v_flag := 'moved_with_picks';
          v_flag_md := v_m.match_day;
          v_kept := v_kept + 1;
        else
          begin
            update public.fixtures f set match_day = v_m.match_day where f.id = v_f.id;
            v_keys_md := v_keys_md || v_f.match_day || v_m.match_day;
            v_keys_changed := v_keys_changed || true || true;
            v_f.match_day := v_m.match_day;
            v_updated := v_updated + 1;
          exception when unique_violation then
            v_flag := 'move_refused';
            v_flag_md := v_m.match_day;
            v_kept := v_kept + 1;
          end;
        end if;
      end if;

      -- A moved kickoff (or its time, once known: decision 027) moves the match day's deadline
      -- (fixtures_refresh_matchdays), until that deadline has passed: after it players picked against this
      -- schedule, so the game keeps it and the admin panel shows the feed's. A kickoff whose time was not known was
      -- never picked against: it follows the feed after the deadline too (and cannot move a passed deadline later:
      -- the first known kickoff only gains a candidate).
      v_deadline_passed := v_f.match_day = any (v_closed);
      v_kickoff := v_f.kickoff_time;
      v_confirmed := v_f.kickoff_confirmed;
      v_feed_kickoff := null;
      v_feed_confirmed := true;
      if (v_m.kickoff, v_m.confirmed) is distinct from (v_f.kickoff_time, v_f.kickoff_confirmed) then
        if not v_deadline_passed or not v_f.kickoff_confirmed then
          v_kickoff := v_m.kickoff;
          v_confirmed := v_m.confirmed;
          v_updated := v_updated + 1;
        else
          v_feed_kickoff := v_m.kickoff;
          v_feed_confirmed := v_m.confirmed;
        end if;
      end if;

      -- In play: a live score on a pending fixture the feed may update, never a result. A result entered by hand
      -- ends the match for the game; a final status clears it (apply_fixture_result).
      v_live := v_f.status = 'pending' and v_m.state in ('live', 'pending');
      update public.fixtures f
         set feed_match_id = v_m.id, kickoff_time = v_kickoff, kickoff_confirmed = v_confirmed,
             feed_kickoff_time = v_feed_kickoff, feed_kickoff_confirmed = v_feed_confirmed,
             feed_flag = v_flag, feed_match_day = v_flag_md,
             feed_status = v_fs, feed_home_score = v_fh, feed_away_score = v_fa, feed_updated_at = v_m.last_updated,
             live_status = case when not v_live then f.live_status when v_m.state = 'live' then v_m.live_status end,
             live_home_score = case when not v_live then f.live_home_score when v_m.state = 'live' then v_m.home_score end,
             live_away_score = case when not v_live then f.live_away_score when v_m.state = 'live' then v_m.away_score end,
             live_updated_at = case when v_live and (v_m.state = 'live' or f.live_status is not null) then p_now
                                    else f.live_updated_at end
       where f.id = v_f.id
      returning * into v_f;
    else
      v_deadline_passed := v_f.match_day = any (v_closed);
    end if;

    v_code := null;
    if v_f.result_source in ('admin', 'csv') and v_f.status <> 'pending' then
      null;  -- entered by hand: the feed never overwrites it (a disagreement is listed for review)
    elsif v_m.state = 'complete' then
      v_code := private.apply_fixture_result(v_f.id, 'complete', v_m.home_score, v_m.away_score, 'feed', null,
                  case when v_f.status = 'complete' then 'The data feed changed the result.' end, false);
    elsif v_m.state = 'postponed' then
      if v_f.status <> 'postponed' then
        v_code := private.apply_fixture_result(v_f.id, 'postponed', null, null, 'feed', null,
                    case when v_f.status = 'complete' then 'The data feed postponed the match.' end, false);
      end if;
    elsif v_f.status = 'postponed' and not v_deadline_passed then
      -- rescheduled while its match day is still open: pending again. After the deadline the match day was played
      -- (or processed) with it postponed, so it stays postponed (the admin panel shows the feed's new kickoff).
      v_code := private.apply_fixture_result(v_f.id, 'pending', null, null, 'feed', null, null, false);
    end if;
    -- (a complete result the feed later calls pending or live again is kept: only a final status replaces one)
    v_written_md := v_written_md || v_f.match_day;

    if v_code = 'saved' then
      v_results := v_results + 1;
      v_keys_md := v_keys_md || v_f.match_day;
      v_keys_changed := v_keys_changed || true;
    elsif v_code = 'corrected' then
      v_results := v_results + 1;
      v_corrections := v_corrections + 1;
    elsif v_code = 'before_kickoff' then
      -- a result before kickoff is refused, as from an admin: the match is read again on the next sync
      v_refused := v_refused + 1;
      update public.fixtures f set feed_updated_at = null where f.id = v_f.id;
    end if;
  end loop;

  -- The season's number of match days (decision 027). A league's season is a double round-robin: 2 x (clubs - 1)
  -- match days (Bundesliga and Ligue 1: 18 clubs, 34; the Championship: 24, 46). Only an answer that shows it
  -- whole says so; a partial one (a club or the last match days missing) leaves the number as it was. The
  -- league's active competitions of the season follow it, before the match days below are processed (and new
  -- ones take it: competitions_take_feed_match_days).
  select max(x.match_day), count(distinct t.id) into v_days, v_clubs
    from pg_catalog.jsonb_to_recordset(p_matches) as x (match_day integer, home_id bigint, away_id bigint)
   cross join lateral (values (x.home_id), (x.away_id)) as t (id);
  if v_clubs < 2 or v_days is distinct from 2 * (v_clubs - 1) or v_days > 60 then
    v_days := null;
  else
    update public.competitions c set total_match_days = v_days
     where c.league = p_league and c.season = p_season and c.status = 'active' and c.total_match_days <> v_days
       and c.start_match_day <= v_days and c.current_match_day <= v_days;
  end if;

  -- The match days touched, once each (decision 006: processing waits for the deadline as always).
  for v_key in
    select k.md, bool_or(k.changed) as changed
      from rows from (pg_catalog.unnest(v_keys_md), pg_catalog.unnest(v_keys_changed)) as k (md, changed)
     group by k.md
     order by k.md
  loop
    perform private.after_fixture_change(p_league, p_season, v_key.md, v_key.changed);
  end loop;

  update public.feed_leagues l
     set last_synced_at = p_now,
         match_days = coalesce(v_days, l.match_days),
         sync_requested_at = case when l.sync_requested_at <= p_now then null else l.sync_requested_at end,
         failures = 0, next_attempt_at = null, last_error = null, last_error_at = null,
         last_fixtures_changed = v_created + v_updated,
         last_results_changed = v_results,
         fixtures_changed = l.fixtures_changed + v_created + v_updated,
         results_changed = l.results_changed + v_results,
         requests = l.requests + coalesce(p_requests, 1)
   where l.league = p_league and l.season = p_season;

  return pg_catalog.jsonb_build_object(
    'matches', pg_catalog.jsonb_array_length(p_matches), 'changed', v_seen, 'created', v_created,
    'matched', v_matched, 'updated', v_updated, 'results', v_results, 'corrections', v_corrections,
    'refused', v_refused, 'kept', v_kept, 'skipped', v_skipped,
    'match_days', (select coalesce(pg_catalog.jsonb_agg(distinct d.md order by d.md), '[]')
                     from pg_catalog.unnest(v_written_md || v_keys_md) as d (md)));
end
$$;
revoke all on function private.sync_feed_league(text, text, jsonb, timestamptz, integer) from public, anon, authenticated;
grant execute on function private.sync_feed_league(text, text, jsonb, timestamptz, integer) to service_role;

-- A competition created on a league's season whose number of match days the feed knows (feed_leagues.match_days)
-- takes that number as its total_match_days (decision 027), unless it starts beyond it. Security definer: players
-- create private competitions and cannot read feed_leagues.
create function private.competitions_take_feed_match_days() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_days integer;
begin
  select l.match_days into v_days
    from public.feed_leagues l
   where l.league = new.league and l.season = new.season;
  if v_days is not null and new.start_match_day <= v_days and new.current_match_day <= v_days then
    new.total_match_days := v_days;
  end if;
  return new;
end
$$;
revoke all on function private.competitions_take_feed_match_days() from public, anon, authenticated;

create trigger competitions_take_feed_match_days
  before insert on public.competitions
  for each row execute function private.competitions_take_feed_match_days();
