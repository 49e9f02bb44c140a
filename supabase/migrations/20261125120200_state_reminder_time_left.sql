-- Reminder texts state the real time left when they are sent (rules file, Reminders: "closes in 5 hours" when
-- sent 5 hours before). Before, the 6-hour kind always said 6 hours and the final one 3 hours, so a late tick
-- (or one that skipped to the final reminder) overstated the time left.
--
-- private.reminder_time_left(deadline, now): the time left, counted to the nearest minute (a tick that starts a few
-- seconds after its scheduled minute still reads "6 hours"), then whole hours rounded down from an hour up
-- ("5 hours", "1 hour"), minutes under an hour ("45 minutes", "1 minute"), "less than a minute" below that. Rounding
-- down never tells a player there is more time than there is.
-- private.queue_reminders (previous version: migration 20261125100000) uses it with the tick's clock (p_now) and
-- the player's first deadline of the push (one push covers every competition due; the summary still lists each
-- deadline in the player's time zone). Everything else, including the wording around it, is unchanged; create or
-- replace keeps its grants.

create function private.reminder_time_left(p_deadline timestamptz, p_now timestamptz) returns text
  language sql
  immutable
  set search_path = ''
as $$
  select case
           when m.minutes >= 120 then (m.minutes / 60)::text || ' hours'
           when m.minutes >= 60 then '1 hour'
           when m.minutes >= 2 then m.minutes::text || ' minutes'
           when m.minutes = 1 then '1 minute'
           else 'less than a minute'
         end
    from (select pg_catalog.round(extract(epoch from p_deadline - p_now) / 60)::bigint as minutes) m
$$;

revoke all on function private.reminder_time_left(timestamptz, timestamptz) from public;
grant execute on function private.reminder_time_left(timestamptz, timestamptz) to service_role;

create or replace function private.queue_reminders(p_now timestamptz) returns table (delivery_id bigint)
  language sql
  set search_path = ''
as $$
  with due as (
    select m.league, m.season, m.match_day, d.deadline,
           case when d.deadline - interval '3 hours' <= p_now then '3h' else '6h' end as kind
      from public.matchdays m
      cross join lateral (select public.matchday_deadline(m.league, m.season, m.match_day) as deadline) d
     where d.deadline > p_now and d.deadline <= p_now + interval '6 hours'
  ),
  open_competitions as materialized (
    select c.id, c.name, d.match_day, d.kind, d.deadline
      from due d
      join public.competitions c
        on c.league = d.league and c.season = d.season and c.current_match_day = d.match_day
     where c.type in ('knockout', 'season')
       and public.competition_picks_open(c.status, c.registration_status, c.league, c.season, c.current_match_day)
  ),
  targets as (
    select us.user_id, oc.id as competition_id, oc.name, oc.match_day, oc.kind, oc.deadline, p.time_zone
      from open_competitions oc
      join public.user_selections us on us.competition_id = oc.id and us.status = 'active'
      join public.profiles p on p.id = us.user_id and p.notifications_enabled
     where exists (select 1 from public.push_subscriptions s where s.user_id = us.user_id)
       and not exists (select 1 from public.team_selections t
                        where t.competition_id = oc.id and t.user_id = us.user_id and t.match_day = oc.match_day)
  ),
  recorded as (
    insert into public.reminder_log (user_id, competition_id, match_day, kind, sent_at)
    select t.user_id, t.competition_id, t.match_day, t.kind, p_now from targets t
    on conflict do nothing
    returning user_id, competition_id, kind
  ),
  -- The player's own zone for the deadline; an unknown zone name reads as UTC rather than failing the tick.
  zones as (select z.name from pg_catalog.pg_timezone_names z),
  per_player as (
    select r.user_id, r.kind,
           count(*) as n,
           min(r.competition_id::text) as only_competition,
           pg_catalog.string_agg(
             t.name || ' (' || pg_catalog.to_char(t.deadline at time zone coalesce(z.name, 'UTC'), 'Dy DD Mon HH24:MI') || ')',
             ', ' order by t.deadline, t.name) as summary,
           coalesce(min(z.name), 'UTC') as zone,
           -- the first of the player's deadlines: "closes in" is how long until a pick is first missed
           min(t.deadline) as first_deadline
      from recorded r
      join targets t on t.user_id = r.user_id and t.competition_id = r.competition_id and t.kind = r.kind
      left join zones z on z.name = t.time_zone
     group by r.user_id, r.kind
  ),
  messages as (
    select pp.user_id, pp.kind,
           case when pp.kind = '3h' then 'Final reminder: team selection closes in ' else 'Team selection closes in ' end
             || private.reminder_time_left(pp.first_deadline, p_now) || '. '
             || case when pp.n = 1 then 'Pick your team for ' else 'Pick your teams for ' end
             || pp.summary || ' (' || pp.zone || ').' as body,
           case when pp.n = 1 then '/select-team/' || pp.only_competition else '/dashboard' end as link
      from per_player pp
  )
  insert into private.push_deliveries (user_id, subscription_id, kind, title, body, link, created_at)
  select m.user_id, s.id, m.kind, 'FootyCoach', m.body, m.link, p_now
    from messages m
    join public.push_subscriptions s on s.user_id = m.user_id
  returning id
$$;
