-- The CSV upload gives a time to a kickoff the data feed gave as a date only (decision 027): a row that changes a
-- fixture's kickoff sets kickoff_confirmed, so an admin can confirm a SCHEDULED match's time by hand (the match day's
-- deadline then counts it); the same placeholder uploaded back stays "Time TBC". Same arguments and return type:
-- grants are kept.

create or replace function private.upsert_fixtures(p_rows jsonb) returns jsonb
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
