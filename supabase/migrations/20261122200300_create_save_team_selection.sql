-- Saving picks: the player's own (save_team_selection) and the creator's Manage Selections
-- (set_player_selection). One pick per (player, competition, match day): inserted, or updated in place.
--
-- save_team_selection re-checks everything in its own transaction: membership (row locked FOR UPDATE, so two
-- concurrent saves of one player serialise and cannot both pass the knockout reuse rule), active status, the
-- deadline and eligibility through private.eligible_teams (the one home of the rule). The competition row is
-- locked first (FOR NO KEY UPDATE: the standings lock order of 20261122200000, the same order as a match-day
-- advance: competition, then memberships), so the current match day cannot move under a save and a pick that
-- changes the standings can re-rank without deadlocking against other saves.
-- Codes: saved | not_found | not_registered | eliminated | selection_closed | not_eligible.
--
-- set_player_selection: the competition's creator or an admin sets a member's pick for the current match day,
-- also after the deadline, with any team that has a fixture that match day; set_by/set_at record who and when.
-- Codes: saved | not_found | forbidden | not_registered | no_fixture.

create function private.save_team_selection(p_competition_id uuid, p_team text) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_competition record;
  v_status text;
  v_fixture_id bigint;
  v_deadline timestamptz;
begin
  select c.id, c.league, c.season, c.current_match_day, c.status, c.registration_status
    into v_competition
    from public.competitions c
   where c.id = p_competition_id
     for no key update;
  if not found then
    return 'not_found';
  end if;

  if v_uid is null then
    return 'not_registered';
  end if;

  select us.status into v_status
    from public.user_selections us
   where us.user_id = v_uid and us.competition_id = p_competition_id
     for update;
  if not found then
    return 'not_registered';
  end if;
  if v_status = 'eliminated' then
    return 'eliminated';
  end if;

  v_deadline := public.matchday_deadline(v_competition.league, v_competition.season, v_competition.current_match_day);
  if v_status <> 'active'
     or v_competition.status <> 'active'
     or v_competition.registration_status = 'completed'
     or v_deadline is null
     or v_deadline <= public.app_now() then
    return 'selection_closed';
  end if;

  if p_team is null
     or not exists (select 1 from private.eligible_teams(p_competition_id, v_uid) e where e.team = p_team) then
    return 'not_eligible';
  end if;

  select f.id into v_fixture_id
    from public.fixtures f
   where f.league = v_competition.league and f.season = v_competition.season
     and f.match_day = v_competition.current_match_day
     and f.status <> 'postponed'
     and p_team in (f.home_team, f.away_team)
   order by f.kickoff_time, f.id
   limit 1;
  if v_fixture_id is null then
    return 'not_eligible';
  end if;

  -- prediction is derived by the team_selections trigger from the side of the team.
  insert into public.team_selections as ts
    (user_id, competition_id, match_day, fixture_id, selected_team, prediction, set_by, set_at)
  values (v_uid, p_competition_id, v_competition.current_match_day, v_fixture_id, p_team, 'home_win', null, null)
  on conflict (user_id, competition_id, match_day) do update
    set fixture_id = excluded.fixture_id,
        selected_team = excluded.selected_team,
        set_by = null,
        set_at = null;

  return 'saved';
end
$$;

create function private.set_player_selection(p_competition_id uuid, p_user_id uuid, p_team text) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_competition record;
  v_fixture_id bigint;
begin
  select c.id, c.league, c.season, c.current_match_day, c.created_by
    into v_competition
    from public.competitions c
   where c.id = p_competition_id
     for no key update;
  if not found then
    return 'not_found';
  end if;

  if v_uid is null or (v_competition.created_by is distinct from v_uid and not private.is_admin()) then
    return 'forbidden';
  end if;

  perform 1
     from public.user_selections us
    where us.user_id = p_user_id and us.competition_id = p_competition_id
      for update;
  if not found then
    return 'not_registered';
  end if;

  -- A played fixture first; a postponed one still counts as a fixture of the match day.
  select f.id into v_fixture_id
    from public.fixtures f
   where f.league = v_competition.league and f.season = v_competition.season
     and f.match_day = v_competition.current_match_day
     and p_team in (f.home_team, f.away_team)
   order by (f.status = 'postponed'), f.kickoff_time, f.id
   limit 1;
  if v_fixture_id is null then
    return 'no_fixture';
  end if;

  insert into public.team_selections as ts
    (user_id, competition_id, match_day, fixture_id, selected_team, prediction, set_by, set_at)
  values (p_user_id, p_competition_id, v_competition.current_match_day, v_fixture_id, p_team, 'home_win',
          v_uid, public.app_now())
  on conflict (user_id, competition_id, match_day) do update
    set fixture_id = excluded.fixture_id,
        selected_team = excluded.selected_team,
        set_by = excluded.set_by,
        set_at = excluded.set_at;

  return 'saved';
end
$$;

create function public.save_team_selection(p_competition_id uuid, p_team text) returns text
  language sql
  set search_path = ''
as $$
  select private.save_team_selection(p_competition_id, p_team)
$$;

create function public.set_player_selection(p_competition_id uuid, p_user_id uuid, p_team text) returns text
  language sql
  set search_path = ''
as $$
  select private.set_player_selection(p_competition_id, p_user_id, p_team)
$$;

revoke all on function private.save_team_selection(uuid, text) from public, anon;
revoke all on function private.set_player_selection(uuid, uuid, text) from public, anon;
grant execute on function private.save_team_selection(uuid, text) to authenticated, service_role;
grant execute on function private.set_player_selection(uuid, uuid, text) to authenticated, service_role;
revoke all on function public.save_team_selection(uuid, text) from public, anon;
revoke all on function public.set_player_selection(uuid, uuid, text) from public, anon;
grant execute on function public.save_team_selection(uuid, text) to authenticated, service_role;
grant execute on function public.set_player_selection(uuid, uuid, text) to authenticated, service_role;
