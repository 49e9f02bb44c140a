-- The eligibility rule, in one place: the teams a player may pick now in a competition.
--
-- Teams with a (not postponed) fixture on the competition's current match day, only while that match day's
-- deadline has not passed (public.matchday_deadline > public.app_now()), only for an active member of an active
-- season/knockout competition. Knockout: minus the teams the player picked on any other match day of this
-- competition (the current match day's own pick stays eligible, so it can be changed back). Season: no reuse
-- rule. Empty for anyone asking about another player unless an admin.
--
-- private.eligible_teams is the definer (it reads the player's picks whatever the caller's row-level view);
-- save_team_selection calls it too, so the page and the write apply the same rule.

create function private.eligible_teams(p_competition_id uuid, p_user_id uuid) returns table (team text)
  language sql stable
  security definer
  set search_path = ''
as $$
  select distinct t.team
    from public.competitions c
    join public.user_selections us
      on us.competition_id = c.id and us.user_id = p_user_id and us.status = 'active'
    join public.fixtures f
      on f.league = c.league and f.season = c.season and f.match_day = c.current_match_day
     and f.status <> 'postponed'
    cross join lateral (values (f.home_team), (f.away_team)) as t (team)
   where c.id = p_competition_id
     and c.status = 'active'
     and c.type in ('knockout', 'season')
     and (p_user_id = (select auth.uid()) or (select private.is_admin()))
     and public.matchday_deadline(c.league, c.season, c.current_match_day) > public.app_now()
     and (c.type <> 'knockout'
          or not exists (
            select 1
              from public.team_selections ts
             where ts.user_id = p_user_id
               and ts.competition_id = c.id
               and ts.match_day <> c.current_match_day
               and ts.selected_team = t.team))
   order by t.team
$$;

create function public.get_eligible_teams(p_competition_id uuid, p_user_id uuid) returns table (team text)
  language sql stable
  set search_path = ''
as $$
  select e.team from private.eligible_teams(p_competition_id, p_user_id) as e order by e.team
$$;

revoke all on function private.eligible_teams(uuid, uuid) from public, anon;
grant execute on function private.eligible_teams(uuid, uuid) to authenticated, service_role;
revoke all on function public.get_eligible_teams(uuid, uuid) from public, anon;
grant execute on function public.get_eligible_teams(uuid, uuid) to authenticated, service_role;
