-- A kickoff whose time is not known yet (decision 027). football-data.org lists a match as SCHEDULED when its date
-- is set and its time is not, and sends 00:00 UTC of that date as the time: the admin panel showed a 00:00 kickoff,
-- and the match day's deadline became 23:00 UTC the day before. The rules file ("Fixtures and results from a data
-- feed"): pages show the date with "Time TBC"; an unconfirmed kickoff never makes a match day's deadline earlier; a
-- match day whose matches all wait for their times has its deadline TBA.
--
-- 1. fixtures.kickoff_confirmed (false only for the feed's SCHEDULED) and feed_kickoff_confirmed (the same for the
--    kickoff the feed gave when the game kept its own). Every existing fixture has a time; the feed's next sync
--    marks its SCHEDULED matches (private.sync_feed_league, migration 20261128200002).
-- 2. matchdays.first_kickoff_time is the first kickoff with a known time (or of a match already started: a live
--    score or a result), null while none is known: the deadline (matchday_deadline) is then TBA. The row stays
--    while the match day has fixtures, so selection_open can tell "no fixtures" (not open) from "deadline TBA"
--    (open: nothing closes on a placeholder; match-day processing, registration closing and reminders wait for a
--    real deadline).

alter table public.fixtures
  add column kickoff_confirmed boolean not null default true,
  add column feed_kickoff_confirmed boolean not null default true;

alter table public.matchdays alter column first_kickoff_time drop not null;

create or replace function private.refresh_matchday(p_league text, p_season text, p_match_day integer) returns void
  language plpgsql
  set search_path = ''
as $$
declare
  v_first timestamptz;
  v_fixtures integer;
begin
  perform pg_catalog.pg_advisory_xact_lock(
    7301, pg_catalog.hashtext(p_league || '|' || p_season || '|' || p_match_day::text));

  select min(f.kickoff_time) filter (where f.kickoff_confirmed or f.status = 'complete' or f.live_status is not null),
         count(*)
    into v_first, v_fixtures
  from public.fixtures f
  where f.league = p_league and f.season = p_season and f.match_day = p_match_day;

  if v_fixtures = 0 then
    delete from public.matchdays m
    where m.league = p_league and m.season = p_season and m.match_day = p_match_day;
  else
    insert into public.matchdays as m (league, season, match_day, first_kickoff_time)
    values (p_league, p_season, p_match_day, v_first)
    on conflict (league, season, match_day) do update
      set first_kickoff_time = excluded.first_kickoff_time
      where m.first_kickoff_time is distinct from excluded.first_kickoff_time;
  end if;
end
$$;

create or replace function private.fixtures_refresh_matchdays() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  -- A result or a live score on a fixture whose time is known changes nothing here (most updates of fixtures).
  if tg_op = 'UPDATE' and new.kickoff_confirmed and old.kickoff_confirmed
     and (new.league, new.season, new.match_day, new.kickoff_time)
         is not distinct from (old.league, old.season, old.match_day, old.kickoff_time) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    perform private.refresh_matchday(old.league, old.season, old.match_day);
  end if;
  if tg_op = 'INSERT'
     or (tg_op = 'UPDATE'
         and (new.league, new.season, new.match_day) is distinct from (old.league, old.season, old.match_day)) then
    perform private.refresh_matchday(new.league, new.season, new.match_day);
  end if;
  return null;
end
$$;

drop trigger fixtures_refresh_matchdays on public.fixtures;
create trigger fixtures_refresh_matchdays
  after insert or delete or update of league, season, match_day, kickoff_time, kickoff_confirmed, status, live_status
  on public.fixtures
  for each row execute function private.fixtures_refresh_matchdays();

create or replace function public.selection_open(p_league text, p_season text, p_match_day integer) returns boolean
  language sql stable
as $$
  select exists (select 1 from public.matchdays m
                  where m.league = p_league and m.season = p_season and m.match_day = p_match_day)
         and coalesce(public.matchday_deadline(p_league, p_season, p_match_day) > public.app_now(), true)
$$;

comment on function public.selection_open(text, text, integer) is
  'Picks may be made for this match day now: it has fixtures and its deadline (first known kickoff - 1 h) has not passed on app_now(), or none of its kickoff times is known yet (deadline TBA). The one home of the rule.';

comment on function public.matchday_deadline_passed(text, text, integer) is
  'The match day''s deadline has passed on app_now() (false while it has none: no fixtures, or no kickoff time known yet): other players'' picks are revealed, registration of a competition starting on it closes, it may be processed.';
