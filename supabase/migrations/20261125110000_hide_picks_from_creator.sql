-- Issue 18, item 6: the creator saw other members' picks before the deadline (Manage Selections showed a
-- member's Liverpool). The rules file settles it: the creator is a player too, so the hidden-picks rule holds
-- for them. Before the deadline Manage Selections shows each member as "Picked" or "Not picked yet" (never the
-- team) and the creator may set a pick only for a member without one; after the deadline it shows every pick
-- and the creator may change any of them. Admins keep seeing every pick (team_selections_select_admin).
--
-- 1. private.can_see_match_day_picks loses "or the caller created the competition" (added by 20261124140100):
--    back to members after the deadline only.
-- 2. public.manage_selections(competition): the creator's (and admins') list, Picked / Not picked yet, with the
--    team only once the deadline has passed (or for an admin). Security definer: the creator learns whether a
--    member picked without being able to read the pick itself.
-- 3. private.set_player_selection (from 20261122200300): before the deadline a creator who is not an admin may
--    not replace a member's existing pick ('already_picked').

create or replace function private.can_see_match_day_picks(p_competition_id uuid, p_match_day integer) returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (
    select 1
    from public.competitions c
    where c.id = p_competition_id
      and public.matchday_deadline_passed(c.league, c.season, p_match_day)
      and exists (
        select 1 from public.user_selections us
        where us.competition_id = c.id and us.user_id = (select auth.uid())
      )
  )
$$;

create function private.manage_selections(p_competition_id uuid)
  returns table (user_id uuid, username text, membership_status text, has_selection boolean, current_selection text)
  language sql stable security definer
  set search_path = ''
as $$
  select us.user_id, pn.username, us.status, ts.selected_team is not null,
         case when (select private.is_admin())
                or public.matchday_deadline_passed(c.league, c.season, c.current_match_day)
              then ts.selected_team end
    from public.competitions c
    join public.user_selections us on us.competition_id = c.id
    left join public.player_names pn on pn.id = us.user_id
    left join public.team_selections ts
      on ts.user_id = us.user_id and ts.competition_id = c.id and ts.match_day = c.current_match_day
   where c.id = p_competition_id
     and (c.created_by = (select auth.uid()) or (select private.is_admin()))
   order by lower(pn.username), us.user_id
$$;

create function public.manage_selections(p_competition_id uuid)
  returns table (user_id uuid, username text, membership_status text, has_selection boolean, current_selection text)
  language sql stable
  set search_path = ''
as $$
  select * from private.manage_selections(p_competition_id)
$$;

revoke all on function private.manage_selections(uuid) from public, anon;
grant execute on function private.manage_selections(uuid) to authenticated, service_role;
revoke all on function public.manage_selections(uuid) from public, anon;
grant execute on function public.manage_selections(uuid) to authenticated, service_role;

create or replace function private.set_player_selection(p_competition_id uuid, p_user_id uuid, p_team text) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_admin boolean := private.is_admin();
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

  if v_uid is null or (v_competition.created_by is distinct from v_uid and not v_admin) then
    return 'forbidden';
  end if;

  perform 1
     from public.user_selections us
    where us.user_id = p_user_id and us.competition_id = p_competition_id
      for update;
  if not found then
    return 'not_registered';
  end if;

  -- Hidden picks hold for the creator: before the deadline a member's own pick is theirs to change.
  if not v_admin
     and not public.matchday_deadline_passed(v_competition.league, v_competition.season, v_competition.current_match_day)
     and exists (select 1 from public.team_selections ts
                  where ts.user_id = p_user_id and ts.competition_id = p_competition_id
                    and ts.match_day = v_competition.current_match_day) then
    return 'already_picked';
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
