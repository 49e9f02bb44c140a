-- Planning ahead (decision 028; rules file): a plan whose match is postponed or moved to another match day, or whose
-- team no longer plays that match day, is dropped and its player gets a notice (kind plan_dropped) and a push when
-- notifications are on.

alter table public.notices drop constraint notices_kind_check;
alter table public.notices add constraint notices_kind_check check (kind in ('result_correction', 'plan_dropped'));

comment on table public.notices is
  'In-app notices: a result correction that changed the player''s outcome (private.notify_result_correction), a plan dropped because its match was postponed or moved (private.fixtures_drop_broken_plans).';

-- Planning ahead (rules file): if a planned team's match is postponed, moved to another match day, or the team has
-- no match that match day, the plan for that match day is dropped and the player gets a notice (and a push when
-- notifications are on), so they can pick again before the deadline. Dropped: a plan (a pick of a match day after
-- the competition's current one) on a fixture that became postponed, and any pick whose deadline has not passed on
-- a fixture that left its match day (or league, season) or whose teams no longer include the picked team. A pick of
-- the current match day on a postponed match still counts as postponed (rules file, Knockout), and nothing whose
-- deadline has passed changes. Statement level, set-based (a CSV upload or a feed sync changes many fixtures);
-- here, next to public.notices, which it writes. The writers of fixtures hold the competitions' lock first
-- (private.lock_competitions_of), the lock order the picks' own trigger follows.
create function private.fixtures_drop_broken_plans() returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  with changed as (
    select n.id, n.league, n.season, n.match_day, n.home_team, n.away_team,
           n.status = 'postponed' and o.status <> 'postponed' as postponed
      from new_rows n
      join old_rows o on o.id = n.id
     where (n.status = 'postponed' and o.status <> 'postponed')
        or (n.league, n.season, n.match_day, n.home_team, n.away_team)
           is distinct from (o.league, o.season, o.match_day, o.home_team, o.away_team)
  ),
  broken as (
    select ts.id, ts.user_id, ts.competition_id, ts.match_day, ts.selected_team, c.name,
           case when (ch.league, ch.season, ch.match_day) is distinct from (c.league, c.season, ts.match_day)
                  then 'its match moved to another match day'
                when ts.selected_team not in (ch.home_team, ch.away_team) then 'that team has no match that match day'
                else 'its match was postponed' end as why
      from changed ch
      join public.team_selections ts on ts.fixture_id = ch.id
      join public.competitions c on c.id = ts.competition_id
     where not public.matchday_deadline_passed(c.league, c.season, ts.match_day)
       and ((ch.league, ch.season, ch.match_day) is distinct from (c.league, c.season, ts.match_day)
            or ts.selected_team not in (ch.home_team, ch.away_team)
            or (ch.postponed and ts.match_day > c.current_match_day))
  ),
  dropped as (
    delete from public.team_selections ts using broken b where ts.id = b.id
    returning ts.id
  ),
  told as (
    insert into public.notices (user_id, kind, body, params, link, created_at)
    select b.user_id, 'plan_dropped',
           pg_catalog.format('Your pick of %s for Match Day %s in %s was dropped: %s. Pick again before the deadline.',
                             b.selected_team, b.match_day, b.name, b.why),
           pg_catalog.jsonb_build_object('competition_id', b.competition_id, 'match_day', b.match_day,
                                         'team', b.selected_team, 'reason', b.why),
           '/select-team/' || b.competition_id::text || '?md=' || b.match_day::text,
           public.app_now()
      from broken b
      join dropped d on d.id = b.id
    returning user_id, body, link
  )
  insert into private.push_deliveries (user_id, subscription_id, kind, title, body, link, created_at)
  select t.user_id, s.id, 'notice', 'FootyCoach', t.body, t.link, public.app_now()
    from told t
    join public.profiles p on p.id = t.user_id and p.notifications_enabled
    join public.push_subscriptions s on s.user_id = t.user_id;
  return null;
end
$$;
revoke all on function private.fixtures_drop_broken_plans() from public;

create trigger fixtures_drop_broken_plans
  after update on public.fixtures
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.fixtures_drop_broken_plans();
