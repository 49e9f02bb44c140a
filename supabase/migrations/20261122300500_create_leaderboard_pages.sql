-- Leaderboard pages for large competitions. The views (knockout_leaderboard_view, user_competition_stats_view)
-- number or sort the whole competition; these functions read one page straight off an ordered index of
-- user_selections (20261122300000_add_membership_sort_name.sql) and join the names, picks and ranks of that
-- page only. Security invoker: the caller's row-level security applies (another player's current pick stays
-- hidden before the deadline, as in the views).
--
-- knockout_leaderboard_page(competition, offset, limit): the columns of knockout_leaderboard_view, same order
--   (not eliminated first by username case-insensitively, then eliminated by latest knocked_out_on, then
--   username); position = offset + place on the page (1-based).
-- knockout_leaderboard_position(competition, user): that member's position (null when not a member).
-- season_leaderboard_page(competition, offset, limit): rank (ties share: 1, 1, 3), username, W/D/L, goals,
--   points, position; order: points, goal difference, goals for, wins (desc), then username.
-- season_leaderboard_position(competition, user): that member's position (null when not a member).
-- The total for a pager is competitions.player_count.

create function public.knockout_leaderboard_page(p_competition_id uuid, p_offset integer, p_limit integer)
returns table (
  competition_id uuid, user_id uuid, user_username text, status text, knocked_out_on integer,
  current_selection text, selection_hidden boolean, "position" integer
)
  language plpgsql stable
  set search_path = ''
as $fn$
begin
  -- Dynamic SQL so that the plan is made for the actual offset and limit (a generic plan of LIMIT $n
  -- estimates a tenth of the competition and sorts it instead of reading the index).
  return query execute $q$
  select p.competition_id,
         p.user_id,
         pn.username,
         case
           when c.knockout_winner = p.user_id
             or (c.status = 'inactive' and p.status in ('active', 'completed')) then 'Winner'
           when p.status = 'eliminated' then 'Eliminated'
           else 'Still In'
         end,
         p.knocked_out_on,
         ts.selected_team,
         (p.user_id is distinct from (select auth.uid())
            and not coalesce(public.matchday_deadline(c.league, c.season, c.current_match_day) <= public.app_now(),
                             false)),
         ($2 + p.n)::integer
    from (
      select x.*, pg_catalog.row_number() over () as n
        from (
          select us.competition_id, us.user_id, us.status, us.knocked_out_on
            from public.user_selections us
           where us.competition_id = $1
           order by (us.status = 'eliminated'), us.knocked_out_on desc nulls first, us.sort_name, us.user_id
          offset $2
           limit $3
        ) x
    ) p
    join public.competitions c on c.id = p.competition_id
    left join public.player_names pn on pn.id = p.user_id
    left join public.team_selections ts
      on ts.user_id = p.user_id and ts.competition_id = p.competition_id and ts.match_day = c.current_match_day
   order by p.n
  $q$ using p_competition_id, greatest(p_offset, 0), greatest(least(p_limit, 1000), 0);
end
$fn$;

create function public.knockout_leaderboard_position(p_competition_id uuid, p_user_id uuid)
returns integer
  language sql stable
  set search_path = ''
as $$
  -- 1 + members strictly before this one in the leaderboard order, as range counts on the leaderboard index.
  select (1 + case
    when me.status <> 'eliminated' then (
      select count(*) from public.user_selections o
       where o.competition_id = me.competition_id and (o.status = 'eliminated') = false
         and o.knocked_out_on is null and (o.sort_name, o.user_id) < (me.sort_name, me.user_id))
    else (
      select count(*) from public.user_selections o
       where o.competition_id = me.competition_id and (o.status = 'eliminated') = false)
      + (
      select count(*) from public.user_selections o
       where o.competition_id = me.competition_id and (o.status = 'eliminated') = true
         and o.knocked_out_on > me.knocked_out_on)
      + (
      select count(*) from public.user_selections o
       where o.competition_id = me.competition_id and (o.status = 'eliminated') = true
         and o.knocked_out_on = me.knocked_out_on and (o.sort_name, o.user_id) < (me.sort_name, me.user_id))
  end)::integer
    from public.user_selections me
   where me.competition_id = p_competition_id and me.user_id = p_user_id
$$;

create function public.season_leaderboard_page(p_competition_id uuid, p_offset integer, p_limit integer)
returns table (
  competition_id uuid, user_id uuid, username text, rank integer, wins integer, draws integer, losses integer,
  goals_for integer, goals_against integer, goal_difference integer, points integer, "position" integer
)
  language plpgsql stable
  set search_path = ''
as $fn$
begin
  return query execute $q$
  select us.competition_id, us.user_id, pn.username, mr.rank, us.wins, us.draws, us.losses, us.goals_for,
         us.goals_against, us.goal_difference, us.points, ($2 + p.n)::integer
    from (
      -- index columns only (an index-only scan skips the offset), then the page's rows
      select x.*, pg_catalog.row_number() over () as n
        from (
          select us.competition_id, us.user_id
            from public.user_selections us
           where us.competition_id = $1
           order by us.points desc, us.goal_difference desc, us.goals_for desc, us.wins desc, us.sort_name,
                    us.user_id
          offset $2
           limit $3
        ) x
    ) p
    join public.user_selections us on us.user_id = p.user_id and us.competition_id = p.competition_id
    left join public.player_names pn on pn.id = p.user_id
    left join public.membership_ranks mr on mr.competition_id = p.competition_id and mr.user_id = p.user_id
   order by p.n
  $q$ using p_competition_id, greatest(p_offset, 0), greatest(least(p_limit, 1000), 0);
end
$fn$;

create function public.season_leaderboard_position(p_competition_id uuid, p_user_id uuid) returns integer
  language sql stable
  set search_path = ''
as $$
  select (1 + (
    select count(*)
      from public.user_selections o
     where o.competition_id = me.competition_id
       and (o.points, o.goal_difference, o.goals_for, o.wins) >= (me.points, me.goal_difference, me.goals_for, me.wins)
       and ((o.points, o.goal_difference, o.goals_for, o.wins) > (me.points, me.goal_difference, me.goals_for, me.wins)
            or (o.sort_name, o.user_id) < (me.sort_name, me.user_id))
  ))::integer
    from public.user_selections me
   where me.competition_id = p_competition_id and me.user_id = p_user_id
$$;

revoke all on function public.knockout_leaderboard_page(uuid, integer, integer) from public, anon;
grant execute on function public.knockout_leaderboard_page(uuid, integer, integer) to authenticated, service_role;
revoke all on function public.knockout_leaderboard_position(uuid, uuid) from public, anon;
grant execute on function public.knockout_leaderboard_position(uuid, uuid) to authenticated, service_role;
revoke all on function public.season_leaderboard_page(uuid, integer, integer) from public, anon;
grant execute on function public.season_leaderboard_page(uuid, integer, integer) to authenticated, service_role;
revoke all on function public.season_leaderboard_position(uuid, uuid) from public, anon;
grant execute on function public.season_leaderboard_position(uuid, uuid) to authenticated, service_role;
