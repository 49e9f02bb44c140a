-- Lives and auto-picks wherever standings and picks show (decision 028): the membership and knockout views gain
-- lives, lives_left and the auto-pick marker (at the end), the knockout leaderboard page and the knockout route
-- gain the same.

create or replace view public.user_competition_stats_view with (security_invoker = true) as
select
  c.id as competition_id,
  c.name as competition,
  c.type as competition_type,
  c.league,
  c.season,
  c.status as competition_status,
  c.registration_status,
  c.visibility,
  c.created_by,
  c.current_match_day,
  md.first_kickoff_time,
  dl.deadline as selection_deadline,
  us.user_id,
  pn.username,
  us.status as membership_status,
  us.knocked_out_on,
  us.match_day as joined_match_day,
  us.wins,
  us.draws,
  us.losses,
  us.goals_for,
  us.goals_against,
  us.points,
  case when c.type = 'season' then mr.rank end as rank,
  ts.selected_team is not null as has_selection,
  ts.selected_team as current_selection,
  (us.user_id is distinct from (select auth.uid())
     and not public.matchday_deadline_passed(c.league, c.season, c.current_match_day))
    as selection_hidden,
  -- 'active' = this member may pick now (the page shows Select Team / Edit Team); every page reads this.
  case
    when us.status = 'eliminated' then 'eliminated'
    when us.status <> 'active'
      or not public.competition_picks_open(c.status, c.registration_status, c.league, c.season, c.current_match_day)
      then 'closed'
    else 'active'
  end as selection_status,
  -- knockout lives (decision 028): the competition's lives and this member's left; pages show them when lives > 1
  c.lives,
  c.lives - public.lives_lost(c.id, us.user_id) as lives_left,
  -- the current pick was made by the server at the deadline (missed pick: auto-pick)
  coalesce(ts.auto_picked, false) as current_selection_auto_picked
from public.user_selections us
join public.competitions c on c.id = us.competition_id
left join public.player_names pn on pn.id = us.user_id
left join public.membership_ranks mr on mr.competition_id = us.competition_id and mr.user_id = us.user_id
left join public.matchdays md
  on md.league = c.league and md.season = c.season and md.match_day = c.current_match_day
cross join lateral (select public.matchday_deadline(c.league, c.season, c.current_match_day) as deadline) dl
left join public.team_selections ts
  on ts.user_id = us.user_id and ts.competition_id = us.competition_id and ts.match_day = c.current_match_day;

create or replace view public.knockout_leaderboard_view with (security_invoker = true) as
select
  us.competition_id,
  us.user_id,
  pn.username as user_username,
  private.knockout_status(c.knockout_winner, c.status, us.user_id, us.status) as status,
  us.knocked_out_on,
  ts.selected_team as current_selection,
  (us.user_id is distinct from (select auth.uid())
     and not public.matchday_deadline_passed(c.league, c.season, c.current_match_day))
    as selection_hidden,
  pg_catalog.row_number() over (
    partition by us.competition_id
    order by (us.status = 'eliminated'), us.knocked_out_on desc nulls first, us.sort_name, us.user_id
  )::integer as position,
  c.lives,
  c.lives - public.lives_lost(c.id, us.user_id) as lives_left,
  coalesce(ts.auto_picked, false) as auto_picked
from public.user_selections us
join public.competitions c on c.id = us.competition_id
left join public.player_names pn on pn.id = us.user_id
left join public.team_selections ts
  on ts.user_id = us.user_id and ts.competition_id = us.competition_id and ts.match_day = c.current_match_day;

drop function public.knockout_leaderboard_page(uuid, integer, integer);
create function public.knockout_leaderboard_page(p_competition_id uuid, p_offset integer, p_limit integer)
returns table (
  competition_id uuid, user_id uuid, user_username text, status text, knocked_out_on integer,
  current_selection text, selection_hidden boolean, "position" integer, lives integer, lives_left integer,
  auto_picked boolean
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
         private.knockout_status(c.knockout_winner, c.status, p.user_id, p.status),
         p.knocked_out_on,
         ts.selected_team,
         (p.user_id is distinct from (select auth.uid())
            and not public.matchday_deadline_passed(c.league, c.season, c.current_match_day)),
         ($2 + p.n)::integer,
         c.lives,
         c.lives - public.lives_lost(c.id, p.user_id),
         coalesce(ts.auto_picked, false)
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
revoke all on function public.knockout_leaderboard_page(uuid, integer, integer) from public, anon;
grant execute on function public.knockout_leaderboard_page(uuid, integer, integer) to authenticated, service_role;

drop function public.knockout_route(uuid, uuid);
create function public.knockout_route(p_competition_id uuid, p_user_id uuid)
  returns table (team text, match_day integer, used boolean, auto_picked boolean)
  language sql stable
  set search_path = ''
as $$
  with c as (
    select c.id, c.league, c.season, c.total_match_days, us.status,
           c.current_match_day
             + case when public.matchday_deadline_passed(c.league, c.season, c.current_match_day) then 1 else 0 end
             as first_open
      from public.competitions c
      join public.user_selections us on us.competition_id = c.id and us.user_id = p_user_id
     where c.id = p_competition_id and c.type = 'knockout'
       and exists (select 1 from public.user_selections me
                    where me.competition_id = c.id and me.user_id = (select auth.uid()))
  ),
  used as (
    select ts.selected_team, ts.match_day, ts.auto_picked
      from c join public.team_selections ts on ts.competition_id = c.id and ts.user_id = p_user_id
  )
  select u.selected_team, u.match_day, true, u.auto_picked from used u
  union all
  select t.team, null::integer, false, false
    from c
    cross join lateral (
      select distinct x.team
        from public.fixtures f
        cross join lateral (values (f.home_team), (f.away_team)) x (team)
       where f.league = c.league and f.season = c.season
         and f.match_day between c.first_open and c.total_match_days
    ) t
   where c.status = 'active'
     and not exists (select 1 from used u where u.selected_team = t.team)
   order by 3 desc, 2, 1
$$;
revoke all on function public.knockout_route(uuid, uuid) from public, anon, authenticated;
grant execute on function public.knockout_route(uuid, uuid) to authenticated, service_role;
