-- Sync now at once (decision 027). "Sync now" in the admin panel only asked: the league waited for the next
-- minute's feed tick, and a league asked in the last 50 seconds for the tick after. Now the web Worker, after
-- committing the request, asks the scheduler Worker (service binding FEED_SYNC) to sync that league at once,
-- which it does when the feed's budget allows it; otherwise the page says when a tick will.
--
-- private.feed_paused_until: the plan's limits are the token's, so a pause (429, or the minute's requests spent)
--   holds every league, also one linked after it: the latest paused_until of a linked league.
-- private.feed_league_free_at: when a league may next be asked (50 seconds after its last request, not while the
--   feed is paused), the one home of both rules for the tick's claim and Sync now's.
-- public.feed_sync_expected_at: the first feed tick at or after that, for the admin panel.
-- private.claim_due_feed_league: through feed_league_free_at; a kickoff whose time is not known yet (fixtures.
--   kickoff_confirmed, migration 20261128200000) is no reason to ask every minute.
-- private.claim_requested_feed_league: Sync now's claim of the one league asked for.
-- private.pause_feed_requests: the plan's minute budget spent (X-Requests-Available-Minute: 0) pauses the feed
--   until the counter resets, so neither a tick nor Sync now meets a 429.

create function private.feed_paused_until() returns timestamptz
  language sql stable
  set search_path = ''
as $$
  select max(l.paused_until) from public.feed_leagues l where l.linked
$$;
revoke all on function private.feed_paused_until() from public, anon, authenticated;
grant execute on function private.feed_paused_until() to authenticated, service_role;

create function private.feed_league_free_at(p_last_attempt_at timestamptz) returns timestamptz
  language sql stable
  set search_path = ''
as $$
  select greatest(p_last_attempt_at + interval '50 seconds', private.feed_paused_until())
$$;
revoke all on function private.feed_league_free_at(timestamptz) from public, anon, authenticated;
grant execute on function private.feed_league_free_at(timestamptz) to authenticated, service_role;

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

create or replace function private.claim_due_feed_league(p_now timestamptz)
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

create function private.pause_feed_requests(p_until timestamptz) returns void
  language sql
  set search_path = ''
as $$
  update public.feed_leagues l set paused_until = greatest(l.paused_until, p_until)
   where l.linked and l.paused_until is distinct from greatest(l.paused_until, p_until)
$$;
revoke all on function private.pause_feed_requests(timestamptz) from public, anon, authenticated;
grant execute on function private.pause_feed_requests(timestamptz) to service_role;
