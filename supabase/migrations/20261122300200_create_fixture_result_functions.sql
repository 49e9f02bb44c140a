-- Result entry and postponement (admin panel). Admins only: others get 42501 'Access denied. Admins only.'.
--
-- save_fixture_result sets both scores (0..30, else P0001 'Scores must be whole numbers from 0 to 30.'),
-- derives result and sets status complete; set_fixture_postponed(true) clears scores/result and sets
-- postponed, (false) puts a postponed fixture back to pending. In the same transaction the match-day processing
-- runs (private.after_fixture_change): a change to a match day that was already processed re-derives every
-- affected competition from that match day on; otherwise a competition whose current match day is now finished
-- is processed. Saving the same result again changes nothing. Answers: 'saved' or 'not_found'.
--
-- Lock order: the (league, season)'s competitions in id order, then the fixture (whose stats trigger locks a
-- subset of the same competitions, re-entrantly), then memberships.

create function private.require_admin() returns void
  language plpgsql
  stable
  security definer
  set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception using errcode = '42501', message = 'Access denied. Admins only.';
  end if;
end
$$;

create function private.save_fixture_result(p_fixture_id bigint, p_home_score integer, p_away_score integer)
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

create function private.set_fixture_postponed(p_fixture_id bigint, p_postponed boolean) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_f public.fixtures%rowtype;
  v_changed integer := 0;
begin
  perform private.require_admin();
  select * into v_f from public.fixtures f where f.id = p_fixture_id;
  if not found then
    return 'not_found';
  end if;
  perform private.lock_competitions_of(v_f.league, v_f.season);

  if coalesce(p_postponed, false) then
    update public.fixtures f
       set home_score = null, away_score = null, result = null, status = 'postponed'
     where f.id = p_fixture_id and f.status <> 'postponed';
  else
    update public.fixtures f
       set home_score = null, away_score = null, result = null, status = 'pending'
     where f.id = p_fixture_id and f.status = 'postponed';
  end if;
  get diagnostics v_changed = row_count;
  perform private.after_fixture_change(v_f.league, v_f.season, v_f.match_day, v_changed > 0);
  return 'saved';
end
$$;

create function public.save_fixture_result(p_fixture_id bigint, p_home_score integer, p_away_score integer)
returns text
  language sql
  set search_path = ''
as $$
  select private.save_fixture_result(p_fixture_id, p_home_score, p_away_score)
$$;

create function public.set_fixture_postponed(p_fixture_id bigint, p_postponed boolean) returns text
  language sql
  set search_path = ''
as $$
  select private.set_fixture_postponed(p_fixture_id, p_postponed)
$$;

revoke all on function private.require_admin() from public, anon;
grant execute on function private.require_admin() to authenticated, service_role;
revoke all on function private.save_fixture_result(bigint, integer, integer) from public, anon;
grant execute on function private.save_fixture_result(bigint, integer, integer) to authenticated, service_role;
revoke all on function private.set_fixture_postponed(bigint, boolean) from public, anon;
grant execute on function private.set_fixture_postponed(bigint, boolean) to authenticated, service_role;
revoke all on function public.save_fixture_result(bigint, integer, integer) from public, anon;
grant execute on function public.save_fixture_result(bigint, integer, integer) to authenticated, service_role;
revoke all on function public.set_fixture_postponed(bigint, boolean) from public, anon;
grant execute on function public.set_fixture_postponed(bigint, boolean) to authenticated, service_role;
