-- The feed's sync with kickoff times not known yet and the season's number of match days (decision 027).
-- private.sync_feed_league reads time_confirmed per match (false for the feed's SCHEDULED: the kickoff is the date at
-- 00:00 UTC; a row without it reads as true) and keeps it with the kickoff (fixtures.kickoff_confirmed, migration
-- 20261128200000): a kickoff whose time was not known follows the feed after its match day's deadline too (nobody
-- picked against it); a kept kickoff keeps the feed's word in feed_kickoff_confirmed. The match days whose deadline
-- had passed are read through public.matchday_deadline (the rule's one home) instead of a copy of it. A whole
-- season's answer gives its number of match days (feed_leagues.match_days, migration 20261128200001), and the
-- league's active competitions of that season take it before the sync's match days are processed. Same arguments
-- and return type: grants are kept.

create or replace function private.sync_feed_league(p_league text, p_season text, p_matches jsonb, p_now timestamptz,
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
