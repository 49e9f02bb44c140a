-- Standings and dashboard views, both security_invoker: the caller's row-level security applies, so another
-- player's pick of the current match day stays hidden before its deadline (team_selections policies) and
-- current_selection is then NULL.
--
-- user_competition_stats_view: one row per membership; W/D/L, goals, points and rank (season only; ties share a
-- rank: 1, 1, 3) are the stored standings (20261122200000_add_membership_stats.sql). Every column is a per-row
-- lookup, so `where user_id = ...` (dashboard: unique (user_id, competition_id)) and
-- `where competition_id = ...` (leaderboard: user_selections_competition_id_idx) both use indexes.
--
-- knockout_leaderboard_view: position = row_number() per competition (still in first, alphabetical by
-- username case-insensitively; then eliminated, latest knocked_out_on first, alphabetical within). The window
-- is partitioned by competition_id, so `where competition_id = ...` is pushed below it and uses the index.

create view public.user_competition_stats_view with (security_invoker = true) as
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
  (us.user_id is distinct from (select auth.uid()) and not coalesce(dl.deadline <= public.app_now(), false))
    as selection_hidden,
  case
    when us.status = 'eliminated' then 'eliminated'
    when dl.deadline <= public.app_now() or c.status <> 'active' or c.registration_status = 'completed'
      then 'closed'
    else 'active'
  end as selection_status
from public.user_selections us
join public.competitions c on c.id = us.competition_id
left join public.player_names pn on pn.id = us.user_id
left join public.membership_ranks mr on mr.competition_id = us.competition_id and mr.user_id = us.user_id
left join public.matchdays md
  on md.league = c.league and md.season = c.season and md.match_day = c.current_match_day
cross join lateral (select public.matchday_deadline(c.league, c.season, c.current_match_day) as deadline) dl
left join public.team_selections ts
  on ts.user_id = us.user_id and ts.competition_id = us.competition_id and ts.match_day = c.current_match_day;

create view public.knockout_leaderboard_view with (security_invoker = true) as
select
  us.competition_id,
  us.user_id,
  pn.username as user_username,
  case
    when c.knockout_winner = us.user_id
      or (c.status = 'inactive' and us.status in ('active', 'completed')) then 'Winner'
    when us.status = 'eliminated' then 'Eliminated'
    else 'Still In'
  end as status,
  us.knocked_out_on,
  ts.selected_team as current_selection,
  (us.user_id is distinct from (select auth.uid())
     and not coalesce(public.matchday_deadline(c.league, c.season, c.current_match_day) <= public.app_now(), false))
    as selection_hidden,
  pg_catalog.row_number() over (
    partition by us.competition_id
    order by (us.status = 'eliminated'), us.knocked_out_on desc nulls first,
             pg_catalog.lower(pn.username), pn.username, us.user_id
  )::integer as position
from public.user_selections us
join public.competitions c on c.id = us.competition_id
left join public.player_names pn on pn.id = us.user_id
left join public.team_selections ts
  on ts.user_id = us.user_id and ts.competition_id = us.competition_id and ts.match_day = c.current_match_day;

revoke all on table public.user_competition_stats_view from public, anon, authenticated;
revoke all on table public.knockout_leaderboard_view from public, anon, authenticated;
grant select on table public.user_competition_stats_view to authenticated, service_role;
grant select on table public.knockout_leaderboard_view to authenticated, service_role;
