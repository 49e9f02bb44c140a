-- Issue 13, item 5: Manage Selections showed "Hidden" after the creator set a player's pick.
--
-- A player's pick of a match day is hidden from other players until that match day's deadline
-- (team_selections_select_revealed -> can_see_match_day_picks). Admins already see every pick
-- (team_selections_select_admin). The creator of a competition may set any member's pick (set_player_selection),
-- so they now also see the picks of their own competition: the rule below gains "or the caller created the
-- competition". For every other player the hiding is unchanged (a member sees others' picks after the deadline).

create or replace function private.can_see_match_day_picks(p_competition_id uuid, p_match_day integer) returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (
    select 1
    from public.competitions c
    where c.id = p_competition_id
      and (
        c.created_by = (select auth.uid())
        or (public.matchday_deadline_passed(c.league, c.season, p_match_day)
            and exists (
              select 1 from public.user_selections us
              where us.competition_id = c.id and us.user_id = (select auth.uid())
            ))
      )
  )
$$;
