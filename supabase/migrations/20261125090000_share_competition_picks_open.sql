-- "May a competition's members pick now?" gets one home, public.competition_picks_open: the competition is
-- active, not completed, and its current match day is open for selection (selection_open). The membership view's
-- selection_status (what every page shows) and the scheduler's reminders (private.queue_reminders, which asks it
-- once per competition rather than once per member) both read it. The view is unchanged in what it returns.

create function public.competition_picks_open(
  p_status text, p_registration_status text, p_league text, p_season text, p_current_match_day integer
) returns boolean
  language sql stable
  set search_path = ''
as $$
  select p_status = 'active' and p_registration_status <> 'completed'
         and public.selection_open(p_league, p_season, p_current_match_day)
$$;

comment on function public.competition_picks_open(text, text, text, text, integer) is
  'A competition''s active members may pick now: the competition is active, not completed, and selection_open() for its current match day. The one home of the rule.';

revoke all on function public.competition_picks_open(text, text, text, text, integer) from public, anon;
grant execute on function public.competition_picks_open(text, text, text, text, integer) to authenticated, service_role;

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
