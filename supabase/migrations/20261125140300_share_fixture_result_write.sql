-- One result path for every writer (decision 020): the admin panel (save_fixture_result, set_fixture_postponed),
-- the CSV upload (upsert_fixtures) and the data feed (migration 20261125140500) all change a fixture's status and
-- score through private.apply_fixture_result, which
--   - keeps the change in public.fixture_result_changes (source, time, who, old and new score, reason),
--   - records where the current result came from (fixtures.result_source: the feed never overwrites admin/csv),
--   - requires a reason when an admin corrects a complete result ("A reason is required to correct a result."),
--   - re-processes what depends on the fixture (private.after_fixture_change, decision 006; Scout points follow at
--     COMMIT, decision 015), and
--   - for a correction, gives every player whose outcome changed one notice (and a push when notifications are on).
--
-- Replaces (same rules, now on the shared path):
--   private/public.save_fixture_result(bigint, integer, integer)  from 20261123100100 -> (..., p_reason text)
--   private/public.set_fixture_postponed(bigint, boolean)         from 20261122300200 -> (..., p_reason text)
--   private.upsert_fixtures(jsonb)                                from 20261123100100 (same signature; rows may
--                                                                 carry a reason)

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

-- A knockout member's outcome as a notice names it.
create function private.knockout_outcome_text(p_status text, p_knocked_out_on integer) returns text
  language sql immutable
  set search_path = ''
as $$
  select case when p_status = 'eliminated' then 'eliminated on Match Day ' || p_knocked_out_on::text
              when p_status = 'completed' then 'a winner'
              else 'still in' end
$$;
revoke all on function private.knockout_outcome_text(text, integer) from public, anon, authenticated;

-- Before a correction is re-processed: every outcome it could change. Knockout: all members of the league's
-- knockout competitions from that match day on (an elimination can move later match days). Season: the members
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
    goals_against integer not null
  ) on commit drop;
  delete from pg_temp.result_outcomes_before;
  insert into pg_temp.result_outcomes_before
  select us.competition_id, us.user_id, c.type, c.name, us.status, us.knocked_out_on, us.points, us.goals_for, us.goals_against
    from public.competitions c
    join public.user_selections us on us.competition_id = c.id
   where c.league = p_league and c.season = p_season and c.type = 'knockout' and c.start_match_day <= p_match_day
  union all
  select us.competition_id, us.user_id, c.type, c.name, us.status, us.knocked_out_on, us.points, us.goals_for, us.goals_against
    from public.team_selections ts
    join public.competitions c on c.id = ts.competition_id and c.type = 'season'
    join public.user_selections us on us.competition_id = ts.competition_id and us.user_id = ts.user_id
   where ts.fixture_id = p_fixture_id;
  analyze pg_temp.result_outcomes_before;  -- planned on real counts below (a new temporary table has no statistics)
end
$$;
revoke all on function private.snapshot_result_outcomes(text, text, integer, bigint) from public, anon, authenticated;

-- After a correction was re-processed: one notice per player whose outcome changed, naming the match, the old and
-- new score and what changed for them; a push for those with notifications on and a subscription (delivered by
-- the scheduler's queue, decision 013). Set-based: a correction can touch 100,000 players. Returns the number of
-- notices.
create function private.notify_result_correction(p_change_id bigint) returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  v_c public.fixture_result_changes%rowtype;
  v_f public.fixtures%rowtype;
  v_headline text;
  v_n integer;
begin
  select * into v_c from public.fixture_result_changes r where r.id = p_change_id;
  select * into v_f from public.fixtures f where f.id = v_c.fixture_id;
  v_headline := pg_catalog.format('Result corrected: %s v %s (%s %s, Match Day %s) is now %s (was %s).',
    v_f.home_team, v_f.away_team, v_f.league, v_f.season, v_f.match_day,
    private.result_text(v_c.new_status, v_c.new_home_score, v_c.new_away_score),
    private.result_text(v_c.old_status, v_c.old_home_score, v_c.old_away_score));

  with game as (
    select b.user_id, b.name,
           case
             when b.type = 'knockout' and (b.status, b.knocked_out_on) is distinct from (us.status, us.knocked_out_on) then
               pg_catalog.format('%s: %s (was %s).', b.name, private.knockout_outcome_text(us.status, us.knocked_out_on),
                                 private.knockout_outcome_text(b.status, b.knocked_out_on))
             when b.type = 'season' and b.points <> us.points then
               pg_catalog.format('%s: %s (was %s).', b.name, private.points_text(us.points), b.points)
             when b.type = 'season' and (b.goals_for, b.goals_against) <> (us.goals_for, us.goals_against) then
               pg_catalog.format('%s: goals %s-%s (was %s-%s).', b.name, us.goals_for, us.goals_against, b.goals_for, b.goals_against)
           end as line,
           -- the facts behind the line, compact (a correction can write 100,000 of these)
           case when b.type = 'knockout'
                then pg_catalog.jsonb_build_object('competition_id', b.competition_id, 'type', 'knockout',
                       'before', private.knockout_outcome_text(b.status, b.knocked_out_on),
                       'after', private.knockout_outcome_text(us.status, us.knocked_out_on))
                else pg_catalog.jsonb_build_object('competition_id', b.competition_id, 'type', 'season',
                       'before', pg_catalog.jsonb_build_array(b.points, b.goals_for, b.goals_against),
                       'after', pg_catalog.jsonb_build_array(us.points, us.goals_for, us.goals_against)) end as change
      from pg_temp.result_outcomes_before b
      join public.user_selections us on us.competition_id = b.competition_id and us.user_id = b.user_id
  ),
  scout as (
    select e.user_id,
           sum(private.scout_points(p.home_goals, p.away_goals, v_c.old_status, v_c.old_home_score, v_c.old_away_score))::integer as before,
           sum(private.scout_points(p.home_goals, p.away_goals, v_c.new_status, v_c.new_home_score, v_c.new_away_score))::integer as after
      from public.scout_predictions p
      join public.scout_entries e on e.id = p.scout_entry_id
     where p.fixture_id = v_c.fixture_id
     group by e.user_id
  ),
  lines as (
    select g.user_id, 0 as ord, g.name, g.line, g.change from game g where g.line is not null
    union all
    select s.user_id, 1, 'Scout',
           pg_catalog.format('Scout: your predictions of this match score %s (was %s).', private.points_text(s.after), s.before),
           pg_catalog.jsonb_build_object('type', 'scout', 'before', s.before, 'after', s.after)
      from scout s where s.before <> s.after
  ),
  per_player as (
    select l.user_id,
           pg_catalog.string_agg(l.line, ' ' order by l.ord, l.name) as text,
           pg_catalog.jsonb_agg(l.change order by l.ord, l.name) as changes
      from lines l
     group by l.user_id
  ),
  inserted as (
    insert into public.notices (user_id, kind, body, params, link, created_at)
    select pp.user_id, 'result_correction',
           pg_catalog.left(v_headline || ' ' || pp.text, 3990),
           -- the match, its old and new score: the change row (public.fixture_result_changes) has them
           pg_catalog.jsonb_build_object('change_id', v_c.id, 'fixture_id', v_f.id, 'changes', pp.changes),
           '/notices', public.app_now()
      from per_player pp
    returning user_id, body
  ),
  pushed as (
    -- a push carries at most ~1,000 characters (Web Push payloads are small); the notice keeps the whole text
    insert into private.push_deliveries (user_id, subscription_id, kind, title, body, link, created_at)
    select i.user_id, s.id, 'notice', 'FootyCoach',
           case when pg_catalog.char_length(i.body) > 1000 then pg_catalog.left(i.body, 960) || ' ... (see Notices)' else i.body end,
           '/notices', public.app_now()
      from inserted i
      join public.profiles p on p.id = i.user_id and p.notifications_enabled
      join public.push_subscriptions s on s.user_id = i.user_id
    returning 1
  )
  select count(*)::integer into v_n from inserted;

  update public.fixture_result_changes r set notices = v_n where r.id = p_change_id;
  return v_n;
end
$$;
revoke all on function private.notify_result_correction(bigint) from public, anon, authenticated;

-- The one way a fixture's status and score change. p_status: pending | complete | postponed (scores only with
-- complete). p_source: admin | csv | feed; p_actor: the admin (null for the feed). p_process false: the caller
-- re-processes the match day itself once for many fixtures (CSV, feed); a correction is always re-processed
-- here, since its notices compare the outcomes before and after.
-- Returns not_found | before_kickoff (a result for a match not yet played: refused for every source) |
-- unchanged | saved | corrected (the fixture had a complete result; re-processed and players told).
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
-- The admin panel's result entry: now with the reason (required when correcting a complete result).

drop function public.save_fixture_result(bigint, integer, integer);
drop function private.save_fixture_result(bigint, integer, integer);

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

drop function public.set_fixture_postponed(bigint, boolean);
drop function private.set_fixture_postponed(bigint, boolean);

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
-- The CSV upload: rows write teams, match day and kickoff themselves, and their status and score through
-- apply_fixture_result (source csv). A row that corrects a complete result needs a `reason` cell.

create or replace function private.upsert_fixtures(p_rows jsonb) returns jsonb
  language plpgsql security definer
  set search_path = ''
  set "TimeZone" to 'UTC'
as $_$
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

      -- the fixture itself (teams, match day, kickoff); its status and score below
      v_old := null;
      if v_id is not null then
        select * into v_old from public.fixtures f where f.id = v_id for update;
        if not found then
          raise exception using errcode = 'P0001', message = pg_catalog.format('No fixture with id %s.', v_id);
        end if;
        update public.fixtures f
           set league = v_league, season = v_season, match_day = v_md, home_team = v_home, away_team = v_away,
               kickoff_time = v_kick
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
          update public.fixtures f set kickoff_time = v_kick where f.id = v_old.id returning * into v_new;
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
$_$;
