-- CSV fixtures upload (admin panel). Admins only (42501 'Access denied. Admins only.').
--
-- p_rows: a JSON array of objects, one per CSV row, with text or number values: line (the row's line number in
-- the file, reported back), league, season, match_day, home_team, away_team, kickoff_time, status (pending |
-- complete | postponed; empty -> pending), optional id, optional home_score / away_score (empty = omitted).
-- Each row is validated and saved on its own inside a subtransaction (BEGIN ... EXCEPTION), so a bad row is
-- reported and never half-saved while good rows are kept. A row with id updates that fixture (an unknown id
-- is an error: ids are never invented by an upload); without id it is upserted on (league, season, match_day,
-- home_team, away_team). result is derived from the scores of a complete row. A kickoff_time without an offset
-- is read as UTC.
--
-- Returns {"succeeded": n, "failed": [{"line": k, "reason": "..."}]}. Afterwards the match days touched are
-- processed as by save_fixture_result (private.after_fixture_change), so complete rows advance competitions and
-- corrections re-derive processed match days.
--
-- Lock order: the competitions of every (league, season) named in the upload are locked first, in id order.

create function private.csv_text(p_row jsonb, p_key text) returns text
  language sql immutable
  set search_path = ''
as $$
  select nullif(pg_catalog.btrim(p_row ->> p_key), '')
$$;

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
  v_result text;
  v_text text;
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
      v_result := case when v_status <> 'complete' then null
                       when v_hs > v_as then 'home_win'
                       when v_hs < v_as then 'away_win'
                       else 'draw' end;

      v_text := private.csv_text(v_row, 'id');
      v_id := null;
      if v_text is not null then
        if v_text !~ '^[0-9]{1,18}$' then
          raise exception using errcode = 'P0001', message = 'id must be a whole number.';
        end if;
        v_id := v_text::bigint;
      end if;

      v_old := null;
      if v_id is not null then
        select * into v_old from public.fixtures f where f.id = v_id for update;
        if not found then
          raise exception using errcode = 'P0001', message = pg_catalog.format('No fixture with id %s.', v_id);
        end if;
        update public.fixtures f
           set league = v_league, season = v_season, match_day = v_md, home_team = v_home, away_team = v_away,
               kickoff_time = v_kick, status = v_status, home_score = v_hs, away_score = v_as, result = v_result
         where f.id = v_id
        returning * into v_new;
      else
        select * into v_old from public.fixtures f
         where f.league = v_league and f.season = v_season and f.match_day = v_md
           and f.home_team = v_home and f.away_team = v_away
           for update;
        insert into public.fixtures as f
          (league, season, match_day, home_team, away_team, kickoff_time, status, home_score, away_score, result)
        values (v_league, v_season, v_md, v_home, v_away, v_kick, v_status, v_hs, v_as, v_result)
        on conflict on constraint fixtures_match_key do update
          set kickoff_time = excluded.kickoff_time, status = excluded.status, home_score = excluded.home_score,
              away_score = excluded.away_score, result = excluded.result
        returning * into v_new;
      end if;

      v_keys_league := v_keys_league || v_new.league;
      v_keys_season := v_keys_season || v_new.season;
      v_keys_md := v_keys_md || v_new.match_day;
      v_keys_changed := v_keys_changed
        || (v_old.id is null
            or (v_old.status, v_old.home_score, v_old.away_score, v_old.home_team, v_old.away_team,
                v_old.league, v_old.season, v_old.match_day)
               is distinct from (v_new.status, v_new.home_score, v_new.away_score, v_new.home_team,
                                 v_new.away_team, v_new.league, v_new.season, v_new.match_day));
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

create function public.upsert_fixtures(p_rows jsonb) returns jsonb
  language sql
  set search_path = ''
as $$
  select private.upsert_fixtures(p_rows)
$$;

revoke all on function private.csv_text(jsonb, text) from public;
revoke all on function private.lock_competitions_of_many(text[]) from public;
revoke all on function private.upsert_fixtures(jsonb) from public, anon;
grant execute on function private.upsert_fixtures(jsonb) to authenticated, service_role;
revoke all on function public.upsert_fixtures(jsonb) from public, anon;
grant execute on function public.upsert_fixtures(jsonb) to authenticated, service_role;
