-- Integrity rules from the attack run (issue 8), enforced where every path passes:
-- * A result only after kickoff: save_fixture_result and CSV rows with status complete refuse a fixture whose
--   kickoff is still in the future ('A result can be entered only after kickoff.').
-- * Processing never before the deadline: process_competition stops at a match day whose deadline has not
--   passed (public.matchday_closed), so an all-postponed or early-entered match day eliminates nobody "for no
--   pick" while picks are open; the scheduler's process_due_matchdays picks it up after the deadline.
-- * Team names are letters (Latin, with accents), digits, spaces and . ' & -, starting with a letter or digit:
--   a CSV cell such as =HYPERLINK(...) or +SUM(1+1) is refused per row (no formula reaches any export).
-- The three functions are copied whole from their earlier migrations with only these changes.

-- One home for the team-name rule (app/lib/csv.ts mirrors it for the upload preview only).
create function private.is_team_name(p_name text) returns boolean
  language sql
  immutable
  set search_path = ''
as $$
  select p_name ~ '^[A-Za-z0-9\u00C0-\u024F][A-Za-z0-9\u00C0-\u024F .''&-]*$'
$$;

revoke all on function private.is_team_name(text) from public, anon;

create or replace function private.process_competition(p_competition_id uuid) returns integer
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
    -- never before the match day's deadline: picks are still open, nobody is out "for no pick" yet
    exit when not public.matchday_closed(v_c.league, v_c.season, v_md);
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

create or replace function private.save_fixture_result(p_fixture_id bigint, p_home_score integer, p_away_score integer)
returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_f public.fixtures%rowtype;
  v_result text;
  v_changed integer;
begin
  perform private.require_admin();
  if p_home_score is null or p_away_score is null
     or p_home_score not between 0 and 30 or p_away_score not between 0 and 30 then
    raise exception using errcode = 'P0001', message = 'Scores must be whole numbers from 0 to 30.';
  end if;
  select * into v_f from public.fixtures f where f.id = p_fixture_id;
  if not found then
    return 'not_found';
  end if;
  if v_f.kickoff_time > public.app_now() then
    raise exception using errcode = 'P0001', message = 'A result can be entered only after kickoff.';
  end if;
  perform private.lock_competitions_of(v_f.league, v_f.season);

  v_result := case when p_home_score > p_away_score then 'home_win'
                   when p_home_score < p_away_score then 'away_win'
                   else 'draw' end;
  update public.fixtures f
     set home_score = p_home_score, away_score = p_away_score, result = v_result, status = 'complete'
   where f.id = p_fixture_id
     and (f.home_score, f.away_score, f.result, f.status)
         is distinct from (p_home_score, p_away_score, v_result, 'complete')
  returning * into v_f;
  get diagnostics v_changed = row_count;
  if v_changed = 0 then
    select * into v_f from public.fixtures f where f.id = p_fixture_id;
  end if;
  perform private.after_fixture_change(v_f.league, v_f.season, v_f.match_day, v_changed > 0);
  return 'saved';
end
$$;

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
      if v_status = 'complete' and v_kick > public.app_now() then
        raise exception using errcode = 'P0001', message = 'A result can be entered only after kickoff.';
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
