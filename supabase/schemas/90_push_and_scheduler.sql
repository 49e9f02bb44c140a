-- Push and scheduler: a player's push subscriptions (Web Push or FCM) and how they are saved and cleared, the
-- reminder ledger, the scheduler Worker's job runs, push deliveries and the functions its jobs call, and the
-- in-app notices (a result correction's notices and their pushes).
-- Rules: docs/game-rules.md "Reminders", "Admin" (corrections). Decisions: 013-scheduler-worker-and-reminders.md,
-- 014-browser-push-and-service-worker.md, 020-data-feed-and-corrections.md (notices).
--
-- The scheduler's other jobs call public.process_due_matchdays (60_results_and_processing.sql),
-- public.score_scout_sweep (80_scout.sql) and, job feed, private.claim_due_feed_league, private.sync_feed_league
-- and private.record_feed_failure (85_data_feed.sql).

-- ---------------------------------------------------------------------------------------------------------
-- Push subscriptions
-- ---------------------------------------------------------------------------------------------------------

-- Web Push (endpoint + keys) or FCM (token). Saved and removed by the functions below (the save-subscription
-- function and the /profile notifications toggle) and by the scheduler; players read their own.
create table public.push_subscriptions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  kind text not null,
  endpoint text,
  p256dh text,
  auth text,
  fcm_token text,
  created_at timestamptz not null default public.app_now(),
  updated_at timestamptz not null default public.app_now(),
  constraint push_subscriptions_kind_check check (kind in ('webpush', 'fcm')),
  constraint push_subscriptions_endpoint_key unique (endpoint),
  constraint push_subscriptions_fcm_token_key unique (fcm_token),
  constraint push_subscriptions_endpoint_format check (
    char_length(endpoint) <= 2000 and endpoint ~ '^https://'
  ),
  constraint push_subscriptions_fields_match_kind check (
    (kind = 'webpush' and endpoint is not null and p256dh is not null and auth is not null and fcm_token is null)
    or (kind = 'fcm' and fcm_token is not null and endpoint is null and p256dh is null and auth is null)
  )
);

create index push_subscriptions_user_id_idx on public.push_subscriptions (user_id);

create trigger push_subscriptions_set_updated_at
  before update on public.push_subscriptions
  for each row execute function private.set_updated_at();

alter table public.push_subscriptions enable row level security;

create policy push_subscriptions_select_own on public.push_subscriptions
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy push_subscriptions_select_admin on public.push_subscriptions
  for select to authenticated
  using ((select private.is_admin()));

revoke all on table public.push_subscriptions from public, anon, authenticated;
grant select on table public.push_subscriptions to authenticated;
grant all on table public.push_subscriptions to service_role;

-- save_push_subscription: Web Push (endpoint + keys) or FCM (token). Idempotent: an upsert on the endpoint or the
-- token; a subscription (the same browser) that another account had saved moves to the caller, because the
-- browser belongs to whoever is signed in on it now. Saving turns notifications_enabled on; an FCM token is also
-- kept on the profile with its time (fcm_token, fcm_token_updated_at, as the spec's profile fields).
-- Endpoints only on a known push service's host (https, lower case, no userinfo, no port but 443; the home of
-- the rule is app/lib/push-services.ts, this is the backstop for calls that skip the web function). A player
-- keeps at most 10 subscriptions: the profile row is locked first (concurrent saves of one player queue), and
-- the oldest beyond 10 are removed after the save, never the one just saved.
-- Codes: saved; errors: 28000 (no identity), P0002 (no profile), 22023 (bad value, refused before any write).
create function private.save_push_subscription(
  p_kind text,
  p_endpoint text default null,
  p_p256dh text default null,
  p_auth text default null,
  p_fcm_token text default null
) returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_saved uuid;
begin
  if v_uid is null then
    raise exception using errcode = '28000', message = 'not signed in';
  end if;
  -- The per-player lock of the 10-subscription cap (see the header), and the profile check.
  perform 1 from public.profiles p where p.id = v_uid for no key update;
  if not found then
    raise exception using errcode = 'P0002', message = 'No profile found. Let''s get you set up!';
  end if;

  if p_kind = 'webpush' then
    -- https, a known push service's host written plainly (lower case), no userinfo, port 443 at most, then
    -- printable ASCII: app/lib/push-services.ts's list and rules, which the save-subscription function applies
    -- first (stricter: it also checks the keys).
    if p_endpoint is null or char_length(p_endpoint) > 2000
       or p_endpoint !~ ('^https://(fcm\.googleapis\.com|jmt17\.google\.com'
                         || '|([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+(push\.services\.mozilla\.com|push\.apple\.com|notify\.windows\.com))'
                         || '(:443)?([/?#][\x21-\x7e]*)?$')
       or coalesce(char_length(p_p256dh), 0) not between 1 and 200
       or coalesce(char_length(p_auth), 0) not between 1 and 100 then
      raise exception using errcode = '22023', message = 'invalid push subscription';
    end if;
    insert into public.push_subscriptions (user_id, kind, endpoint, p256dh, auth)
    values (v_uid, 'webpush', p_endpoint, p_p256dh, p_auth)
    on conflict (endpoint) do update
      set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth
      where (push_subscriptions.user_id, push_subscriptions.p256dh, push_subscriptions.auth)
            is distinct from (excluded.user_id, excluded.p256dh, excluded.auth);
    -- The caller's row either way (an unchanged re-save updates nothing and returns nothing).
    select s.id into v_saved from public.push_subscriptions s where s.endpoint = p_endpoint;
    update public.profiles set notifications_enabled = true
     where id = v_uid and not notifications_enabled;
  elsif p_kind = 'fcm' then
    if coalesce(char_length(p_fcm_token), 0) not between 1 and 4096 then
      raise exception using errcode = '22023', message = 'invalid FCM token';
    end if;
    insert into public.push_subscriptions (user_id, kind, fcm_token)
    values (v_uid, 'fcm', p_fcm_token)
    on conflict (fcm_token) do update
      set user_id = excluded.user_id
      where push_subscriptions.user_id is distinct from excluded.user_id;
    select s.id into v_saved from public.push_subscriptions s where s.fcm_token = p_fcm_token;
    -- Another account that held this token on its profile no longer does (the browser is the caller's now).
    update public.profiles set fcm_token = null, fcm_token_updated_at = null
     where fcm_token = p_fcm_token and id <> v_uid;
    update public.profiles
       set notifications_enabled = true,
           fcm_token = p_fcm_token,
           fcm_token_updated_at = case when fcm_token is distinct from p_fcm_token then public.app_now()
                                       else coalesce(fcm_token_updated_at, public.app_now()) end
     where id = v_uid;
  else
    raise exception using errcode = '22023', message = 'invalid push subscription type';
  end if;

  -- At most 10: the one just saved and the 9 newest others stay. A removed FCM token leaves the profile too.
  with removed as (
    delete from public.push_subscriptions s
     where s.user_id = v_uid
       and s.id not in (select k.id from public.push_subscriptions k
                         where k.user_id = v_uid
                         order by k.id = v_saved desc, k.created_at desc, k.id desc
                         limit 10)
    returning s.fcm_token
  )
  update public.profiles p set fcm_token = null, fcm_token_updated_at = null
    from removed r
   where p.id = v_uid and p.fcm_token = r.fcm_token;
  return 'saved';
end
$$;

-- Removes the caller's subscription with this endpoint or token (other players' rows are never touched) and
-- clears the profile's token when it is that one. Codes: deleted | not_found.
create function private.delete_push_subscription(p_endpoint text default null, p_fcm_token text default null)
  returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_deleted integer;
begin
  if v_uid is null then
    raise exception using errcode = '28000', message = 'not signed in';
  end if;
  if (p_endpoint is null) = (p_fcm_token is null) then
    raise exception using errcode = '22023', message = 'give an endpoint or an FCM token';
  end if;
  delete from public.push_subscriptions s
   where s.user_id = v_uid
     and (s.endpoint = p_endpoint or s.fcm_token = p_fcm_token);
  get diagnostics v_deleted = row_count;
  if p_fcm_token is not null then
    update public.profiles set fcm_token = null, fcm_token_updated_at = null
     where id = v_uid and fcm_token = p_fcm_token;
  end if;
  return case when v_deleted > 0 then 'deleted' else 'not_found' end;
end
$$;

-- The toggle's off: every subscription of the caller removed, notifications_enabled false, the profile's token
-- and its time null. Code: disabled.
create function private.disable_notifications() returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
begin
  if v_uid is null then
    raise exception using errcode = '28000', message = 'not signed in';
  end if;
  delete from public.push_subscriptions s where s.user_id = v_uid;
  update public.profiles
     set notifications_enabled = false, fcm_token = null, fcm_token_updated_at = null
   where id = v_uid;
  return 'disabled';
end
$$;

create function public.save_push_subscription(
  p_kind text,
  p_endpoint text default null,
  p_p256dh text default null,
  p_auth text default null,
  p_fcm_token text default null
) returns text
  language sql
  set search_path = ''
as $$
  select private.save_push_subscription(p_kind, p_endpoint, p_p256dh, p_auth, p_fcm_token)
$$;

create function public.delete_push_subscription(p_endpoint text default null, p_fcm_token text default null)
  returns text
  language sql
  set search_path = ''
as $$
  select private.delete_push_subscription(p_endpoint, p_fcm_token)
$$;

create function public.disable_notifications() returns text
  language sql
  set search_path = ''
as $$
  select private.disable_notifications()
$$;

revoke all on function private.save_push_subscription(text, text, text, text, text) from public, anon;
revoke all on function private.delete_push_subscription(text, text) from public, anon;
revoke all on function private.disable_notifications() from public, anon;
grant execute on function private.save_push_subscription(text, text, text, text, text) to authenticated, service_role;
grant execute on function private.delete_push_subscription(text, text) to authenticated, service_role;
grant execute on function private.disable_notifications() to authenticated, service_role;
revoke all on function public.save_push_subscription(text, text, text, text, text) from public, anon;
revoke all on function public.delete_push_subscription(text, text) from public, anon;
revoke all on function public.disable_notifications() from public, anon;
grant execute on function public.save_push_subscription(text, text, text, text, text) to authenticated, service_role;
grant execute on function public.delete_push_subscription(text, text) to authenticated, service_role;
grant execute on function public.disable_notifications() to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------------------
-- The reminder ledger
-- ---------------------------------------------------------------------------------------------------------

-- Each (player, competition, match day, kind) reminder is sent at most once: the scheduler inserts with
-- ON CONFLICT DO NOTHING before sending (private.queue_reminders).
create table public.reminder_log (
  user_id uuid not null references public.profiles (id) on delete cascade,
  competition_id uuid not null references public.competitions (id) on delete cascade,
  match_day integer not null,
  kind text not null,
  sent_at timestamptz not null default public.app_now(),
  primary key (user_id, competition_id, match_day, kind),
  constraint reminder_log_match_day_check check (match_day >= 1),
  constraint reminder_log_kind_check check (kind in ('6h', '3h'))
);

create index reminder_log_competition_match_day_idx on public.reminder_log (competition_id, match_day);

alter table public.reminder_log enable row level security;

create policy reminder_log_select_own on public.reminder_log
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy reminder_log_select_admin on public.reminder_log
  for select to authenticated
  using ((select private.is_admin()));

revoke all on table public.reminder_log from public, anon, authenticated;
grant select on table public.reminder_log to authenticated;
grant all on table public.reminder_log to service_role;

-- ---------------------------------------------------------------------------------------------------------
-- The scheduler Worker: job runs and push deliveries
-- ---------------------------------------------------------------------------------------------------------

-- Everything below runs on the server's service path (the scheduler connects as the database owner); no API role
-- gets any of it.
--
-- Exactly once: a reminder is a row of public.reminder_log keyed by (player, competition, match day, kind),
-- inserted with ON CONFLICT DO NOTHING, so overlapping, repeated or late ticks cannot send it twice; a tick
-- builds pushes only from the ledger rows it inserted itself. A delivery (one push to one subscription) is sent
-- only by whoever moved it from queued/retry to sending, so a replayed queue message sends nothing twice.

create table private.job_runs (
  job text not null,
  scheduled_at timestamptz not null,
  started_at timestamptz not null default pg_catalog.now(),
  finished_at timestamptz,
  result jsonb,
  constraint job_runs_pkey primary key (job, scheduled_at),
  constraint job_runs_job_check check (job in ('reminders', 'matchdays', 'scout_sweep', 'cleanup', 'feed'))
);

-- No foreign keys on the deliveries: at 100,000 reminders a tick would spend much of its time in per-row checks.
-- A delivery whose player or subscription is gone is harmless (it is marked gone when claimed) and goes with the
-- history cleanup below.
-- One push (per player and kind, summarising every competition due; or one notice, kind 'notice') to one of the
-- player's subscriptions.
--
-- Notice pushes go out through the reminders' delivery path (decision 013). Reminder deliveries are enqueued by
-- the tick that made them; a notice can be made by the web Worker (an admin's correction), which has no queue,
-- so the scheduler's next tick enqueues every notice delivery not enqueued yet (enqueued_at marks it).
create table private.push_deliveries (
  id bigint generated always as identity primary key,
  user_id uuid not null,
  subscription_id uuid not null,
  kind text not null,
  title text not null,
  body text not null,
  -- a path of the app (/select-team/<id> or /dashboard); the Worker makes it absolute with APP_URL
  link text not null,
  state text not null default 'queued',
  attempts integer not null default 0,
  last_status integer,
  claimed_at timestamptz,
  sent_at timestamptz,
  -- 'outbox' when development kept it in the push outbox instead of sending it
  provider text,
  created_at timestamptz not null default public.app_now(),
  enqueued_at timestamptz,
  constraint push_deliveries_kind_check check (kind in ('6h', '3h', 'notice')),
  constraint push_deliveries_state_check check (state in ('queued', 'sending', 'retry', 'sent', 'failed', 'gone'))
);

-- the tick's safety net looks for deliveries that never left (a tick or consumer that died half-way)
create index push_deliveries_unfinished_idx on private.push_deliveries (created_at) where state in ('queued', 'sending', 'retry');
-- the notice deliveries the next tick enqueues
create index push_deliveries_unenqueued_notice_idx on private.push_deliveries (id)
  where kind = 'notice' and state = 'queued' and enqueued_at is null;

alter table private.job_runs enable row level security;
alter table private.push_deliveries enable row level security;
revoke all on table private.job_runs, private.push_deliveries from public, anon, authenticated;
grant all on table private.job_runs, private.push_deliveries to service_role;

-- A job's run for one scheduled time: true for the first caller only (a replayed tick skips the job).
create function private.claim_job_run(p_job text, p_scheduled_at timestamptz) returns boolean
  language sql
  set search_path = ''
as $$
  with claimed as (
    insert into private.job_runs (job, scheduled_at) values (p_job, p_scheduled_at)
    on conflict do nothing
    returning 1
  )
  select exists (select 1 from claimed)
$$;

create function private.finish_job_run(p_job text, p_scheduled_at timestamptz, p_result jsonb) returns void
  language sql
  set search_path = ''
as $$
  update private.job_runs set finished_at = pg_catalog.clock_timestamp(), result = p_result
   where job = p_job and scheduled_at = p_scheduled_at
$$;

-- The time left before a deadline as the reminder says it ("5 hours", "1 hour", "45 minutes"), counted to
-- the nearest minute from the tick's clock: a late tick states the real time left (rules file, Reminders).
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

-- The reminders due at p_now (rules file, Reminders): for each match day whose deadline (matchday_deadline) is
-- at most 6 hours away, the 3-hour kind once it is 3 hours or less away (a late tick then skips the 6-hour one),
-- else the 6-hour kind. Targets: active members without a pick of knockout and season competitions whose members
-- may pick now (competition_picks_open, asked once per competition: per member it was most of a 100,000-player
-- tick), with notifications on and at least one subscription. Returns the new deliveries. Run with app.now = p_now.
create function private.queue_reminders(p_now timestamptz) returns table (delivery_id bigint)
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

-- Deliveries that should be on the queue but may not be: queued or retrying for over 10 minutes, or claimed
-- by a consumer that never reported back (its lease of 10 minutes has run out). The tick enqueues them again;
-- the claim makes that safe.
create function private.stranded_push_deliveries(p_now timestamptz) returns table (delivery_id bigint)
  language sql stable
  set search_path = ''
as $$
  select d.id
    from private.push_deliveries d
   where d.state in ('queued', 'sending', 'retry')
     and coalesce(d.claimed_at, d.created_at) < p_now - interval '10 minutes'
     and d.created_at > p_now - interval '1 day'
   order by d.id
   limit 100000
$$;

-- The notice deliveries nobody has put on the queue yet, marked as enqueued (the tick sends them right after its
-- commit; one lost on the way is re-enqueued by stranded_push_deliveries after 10 minutes).
create function private.take_unqueued_notice_deliveries(p_now timestamptz) returns table (delivery_id bigint)
  language sql
  set search_path = ''
as $$
  with taken as (
    select d.id from private.push_deliveries d
     where d.kind = 'notice' and d.state = 'queued' and d.enqueued_at is null
     order by d.id
     limit 200000
       for update skip locked
  )
  update private.push_deliveries d set enqueued_at = p_now
    from taken t
   where d.id = t.id
  returning d.id
$$;

revoke all on function private.take_unqueued_notice_deliveries(timestamptz) from public, anon, authenticated;
grant execute on function private.take_unqueued_notice_deliveries(timestamptz) to service_role;

-- The consumer's claim: moves the given deliveries that are queued, retrying or stranded to sending and
-- returns what to send. A delivery whose subscription is gone becomes 'gone' here (nothing to send).
create function private.claim_push_deliveries(p_ids bigint[], p_now timestamptz)
  returns table (delivery_id bigint, attempts integer, subscription_id uuid, kind text, endpoint text, p256dh text,
                 auth text, fcm_token text, title text, body text, link text)
  language sql
  set search_path = ''
as $$
  with claimed as (
    update private.push_deliveries d
       set state = case when exists (select 1 from public.push_subscriptions s where s.id = d.subscription_id) then 'sending' else 'gone' end,
           claimed_at = p_now,
           attempts = d.attempts + 1
     where d.id = any (p_ids)
       and (d.state in ('queued', 'retry') or (d.state = 'sending' and d.claimed_at < p_now - interval '10 minutes'))
    returning d.id, d.attempts, d.subscription_id, d.state, d.title, d.body, d.link
  )
  select c.id, c.attempts, c.subscription_id, s.kind, s.endpoint, s.p256dh, s.auth, s.fcm_token, c.title, c.body, c.link
    from claimed c
    join public.push_subscriptions s on s.id = c.subscription_id
   where c.state = 'sending'
$$;

-- What the push services answered: [{id, state: sent|retry|failed|gone, status, provider}]. A subscription the
-- service reported gone (404/410) is removed (rules file, Reminders).
create function private.record_push_outcomes(p_outcomes jsonb, p_now timestamptz) returns void
  language sql
  set search_path = ''
as $$
  with o as (
    select * from pg_catalog.jsonb_to_recordset(p_outcomes) as x(id bigint, state text, status integer, provider text)
  ),
  updated as (
    update private.push_deliveries d
       set state = o.state,
           last_status = o.status,
           provider = coalesce(o.provider, d.provider),
           sent_at = case when o.state = 'sent' then p_now else d.sent_at end
      from o
     where d.id = o.id and d.state = 'sending'
    returning d.subscription_id, d.state
  )
  delete from public.push_subscriptions s
   using updated u
   where u.state = 'gone' and s.id = u.subscription_id
$$;

-- History kept 90 days (job runs 30): every deadline it refers to has long passed, so nothing can be sent again.
create function private.clean_scheduler_history(p_now timestamptz) returns integer
  language plpgsql
  set search_path = ''
as $$
declare
  v_deliveries integer;
  v_reminders integer;
begin
  delete from private.push_deliveries
   where created_at < p_now - interval '90 days' and state in ('sent', 'failed', 'gone');
  get diagnostics v_deliveries = row_count;
  delete from public.reminder_log where sent_at < p_now - interval '90 days';
  get diagnostics v_reminders = row_count;
  delete from private.job_runs where scheduled_at < p_now - interval '30 days';
  return v_deliveries + v_reminders;
end
$$;

revoke all on function private.claim_job_run(text, timestamptz) from public;
revoke all on function private.clean_scheduler_history(timestamptz) from public;
revoke all on function private.finish_job_run(text, timestamptz, jsonb) from public;
revoke all on function private.queue_reminders(timestamptz) from public;
revoke all on function private.stranded_push_deliveries(timestamptz) from public;
revoke all on function private.claim_push_deliveries(bigint[], timestamptz) from public;
revoke all on function private.record_push_outcomes(jsonb, timestamptz) from public;
grant execute on function private.claim_job_run(text, timestamptz), private.finish_job_run(text, timestamptz, jsonb),
  private.queue_reminders(timestamptz), private.stranded_push_deliveries(timestamptz),
  private.claim_push_deliveries(bigint[], timestamptz), private.record_push_outcomes(jsonb, timestamptz),
  private.clean_scheduler_history(timestamptz) to service_role;

-- ---------------------------------------------------------------------------------------------------------
-- Notices
-- ---------------------------------------------------------------------------------------------------------

-- In-app notices (decision 020): a player whose outcome a result correction changed (eliminated or reinstated,
-- season points, Scout points) gets one row here per correction, listed on /notices with an unread count in the
-- navigation, and a push when notifications are on (kind 'notice' in private.push_deliveries above).
--
-- Rows are written only by private.notify_result_correction (below, called by private.apply_fixture_result,
-- 60_results_and_processing.sql), private.fixtures_drop_broken_plans (a plan dropped because its match was
-- postponed or moved; decision 028) and private.start_next_season (97_history.sql); a player reads their own and may
-- set read_at on their own, nothing else.
create table public.notices (
  id bigint generated always as identity primary key,
  user_id uuid not null references public.profiles (id) on delete cascade,
  kind text not null,
  -- the text the player reads (and the push carries); params hold the same facts for pages that want them
  body text not null,
  params jsonb not null default '{}'::jsonb,
  -- a path of the app the notice opens
  link text not null default '/notices',
  created_at timestamptz not null default public.app_now(),
  read_at timestamptz,
  -- result_correction: private.notify_result_correction (below); plan_dropped: private.fixtures_drop_broken_plans;
  -- next_season: an invitation to the next season of a competition the player was in (private.start_next_season,
  -- 97_history.sql), whose params name it
  constraint notices_kind_check check (kind in ('result_correction', 'plan_dropped', 'next_season')),
  constraint notices_body_length check (char_length(body) between 1 and 4000)
);

-- the list (newest first) and the navigation's unread count read only these
create index notices_user_created_idx on public.notices (user_id, created_at desc, id desc);
create index notices_user_unread_idx on public.notices (user_id) where read_at is null;

alter table public.notices enable row level security;
revoke all on table public.notices from public, anon, authenticated;
grant select on table public.notices to authenticated;
-- marking read is the only change a player makes
grant update (read_at) on table public.notices to authenticated;
grant all on table public.notices to service_role;

create policy notices_select_own on public.notices for select to authenticated
  using (user_id = (select auth.uid()));
create policy notices_update_own on public.notices for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

comment on table public.notices is
  'In-app notices: a result correction that changed the player''s outcome (private.notify_result_correction), a plan dropped because its match was postponed or moved (private.fixtures_drop_broken_plans), and an invitation to a next season (private.start_next_season).';

-- After a correction was re-processed: one notice per player whose outcome changed, naming the match, the old and
-- new score and what changed for them; a push for those with notifications on and a subscription (delivered by
-- the scheduler's queue, decision 013). Set-based: a correction can touch 100,000 players. Returns the number of
-- notices. (Here rather than with the result path in 60_results_and_processing.sql: it writes public.notices and
-- the push deliveries above and reads the Scout predictions of 80_scout.sql. Its "before" snapshot is taken by
-- private.snapshot_result_outcomes, 60.)
create function private.notify_result_correction(p_change_id bigint) returns integer
  language plpgsql security definer
  set search_path = ''
as $$
declare
  v_c public.fixture_result_changes%rowtype;
  v_f public.fixtures%rowtype;
  v_headline text;
  v_n integer;
begin
  select * into v_c from public.fixture_result_changes r where r.id = p_change_id;
  select * into v_f from public.fixtures f where f.id = v_c.fixture_id;
  v_headline := pg_catalog.format('Result corrected: %s v %s (%s %s, Match Day %s) is now %s (was %s).',
    v_f.home_team, v_f.away_team, v_f.league, v_f.season, v_f.match_day,
    private.result_text(v_c.new_status, v_c.new_home_score, v_c.new_away_score),
    private.result_text(v_c.old_status, v_c.old_home_score, v_c.old_away_score));

  with game as (
    select b.user_id, b.name,
           case
             when b.type = 'knockout'
                  and (b.status, b.knocked_out_on, b.lives_lost)
                      is distinct from (us.status, us.knocked_out_on, public.lives_lost(us.competition_id, us.user_id)) then
               pg_catalog.format('%s: %s (was %s).', b.name,
                                 private.knockout_outcome_text(us.status, us.knocked_out_on,
                                                               case when b.lives > 1 then b.lives - public.lives_lost(us.competition_id, us.user_id) end),
                                 private.knockout_outcome_text(b.status, b.knocked_out_on,
                                                               case when b.lives > 1 then b.lives - b.lives_lost end))
             when b.type = 'season' and b.points <> us.points then
               pg_catalog.format('%s: %s (was %s).', b.name, private.points_text(us.points), b.points)
             when b.type = 'season' and (b.goals_for, b.goals_against) <> (us.goals_for, us.goals_against) then
               pg_catalog.format('%s: goals %s-%s (was %s-%s).', b.name, us.goals_for, us.goals_against, b.goals_for, b.goals_against)
           end as line,
           -- the facts behind the line, compact (a correction can write 100,000 of these)
           case when b.type = 'knockout'
                then pg_catalog.jsonb_build_object('competition_id', b.competition_id, 'type', 'knockout',
                       'before', private.knockout_outcome_text(b.status, b.knocked_out_on,
                                                               case when b.lives > 1 then b.lives - b.lives_lost end),
                       'after', private.knockout_outcome_text(us.status, us.knocked_out_on,
                                                              case when b.lives > 1 then b.lives - public.lives_lost(us.competition_id, us.user_id) end))
                else pg_catalog.jsonb_build_object('competition_id', b.competition_id, 'type', 'season',
                       'before', pg_catalog.jsonb_build_array(b.points, b.goals_for, b.goals_against),
                       'after', pg_catalog.jsonb_build_array(us.points, us.goals_for, us.goals_against)) end as change
      from pg_temp.result_outcomes_before b
      join public.user_selections us on us.competition_id = b.competition_id and us.user_id = b.user_id
  ),
  scout as (
    select e.user_id,
           sum(private.scout_points(p.home_goals, p.away_goals, v_c.old_status, v_c.old_home_score, v_c.old_away_score))::integer as before,
           sum(private.scout_points(p.home_goals, p.away_goals, v_c.new_status, v_c.new_home_score, v_c.new_away_score))::integer as after
      from public.scout_predictions p
      join public.scout_entries e on e.id = p.scout_entry_id
     where p.fixture_id = v_c.fixture_id
     group by e.user_id
  ),
  lines as (
    select g.user_id, 0 as ord, g.name, g.line, g.change from game g where g.line is not null
    union all
    select s.user_id, 1, 'Scout',
           pg_catalog.format('Scout: your predictions of this match score %s (was %s).', private.points_text(s.after), s.before),
           pg_catalog.jsonb_build_object('type', 'scout', 'before', s.before, 'after', s.after)
      from scout s where s.before <> s.after
  ),
  per_player as (
    select l.user_id,
           pg_catalog.string_agg(l.line, ' ' order by l.ord, l.name) as text,
           pg_catalog.jsonb_agg(l.change order by l.ord, l.name) as changes
      from lines l
     group by l.user_id
  ),
  inserted as (
    insert into public.notices (user_id, kind, body, params, link, created_at)
    select pp.user_id, 'result_correction',
           pg_catalog.left(v_headline || ' ' || pp.text, 3990),
           -- the match, its old and new score: the change row (public.fixture_result_changes) has them
           pg_catalog.jsonb_build_object('change_id', v_c.id, 'fixture_id', v_f.id, 'changes', pp.changes),
           '/notices', public.app_now()
      from per_player pp
    returning user_id, body
  ),
  pushed as (
    -- a push carries at most ~1,000 characters (Web Push payloads are small); the notice keeps the whole text
    insert into private.push_deliveries (user_id, subscription_id, kind, title, body, link, created_at)
    select i.user_id, s.id, 'notice', 'FootyCoach',
           case when pg_catalog.char_length(i.body) > 1000 then pg_catalog.left(i.body, 960) || ' ... (see Notices)' else i.body end,
           '/notices', public.app_now()
      from inserted i
      join public.profiles p on p.id = i.user_id and p.notifications_enabled
      join public.push_subscriptions s on s.user_id = i.user_id
    returning 1
  )
  select count(*)::integer into v_n from inserted;

  update public.fixture_result_changes r set notices = v_n where r.id = p_change_id;
  return v_n;
end
$$;
revoke all on function private.notify_result_correction(bigint) from public, anon, authenticated;

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
