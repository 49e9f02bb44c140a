-- Leagues linked to the data feed (football-data.org v4 first; decision 020), the feed's state per league, and
-- the feed's team-name map. Admins link, unlink, ask for a sync and review disagreements through the definer
-- functions below; everything else here is written by the scheduler's feed job on the service path
-- (migration 20261125140500). Admins read the tables in the admin panel (row-level security).

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
  constraint feed_leagues_pkey primary key (league, season),
  constraint feed_leagues_provider_check check (provider in ('football-data')),
  constraint feed_leagues_code_check check (code ~ '^[A-Z0-9]{2,5}$'),
  constraint feed_leagues_error_length check (char_length(last_error) <= 500)
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

-- "Sync now": the scheduler's next feed tick (every minute) syncs it, ahead of its cadence and its backoff (not of
-- the plan's rate-limit pause).
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
