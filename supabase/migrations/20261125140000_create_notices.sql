-- In-app notices (issue "data feed, corrections", decision 020): a player whose outcome a result correction
-- changed (eliminated or reinstated, season points, Scout points) gets one row here per correction, listed on
-- /notices with an unread count in the navigation, and a push when notifications are on.
--
-- Rows are written only by the definer functions of the result path (migration 20261125140300); a player reads
-- their own and may set read_at on their own, nothing else.

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
  constraint notices_kind_check check (kind in ('result_correction')),
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
  'One notice per player per result correction that changed their outcome (private.notify_result_correction).';

-- Notice pushes go out through the reminders' delivery path (decision 013). Reminder deliveries are enqueued by
-- the tick that made them; a notice can be made by the web Worker (an admin's correction), which has no queue,
-- so the scheduler's next tick enqueues every notice delivery not enqueued yet (enqueued_at marks it).
alter table private.push_deliveries drop constraint push_deliveries_kind_check;
alter table private.push_deliveries add constraint push_deliveries_kind_check check (kind in ('6h', '3h', 'notice'));
alter table private.push_deliveries add column enqueued_at timestamptz;
create index push_deliveries_unenqueued_notice_idx on private.push_deliveries (id)
  where kind = 'notice' and state = 'queued' and enqueued_at is null;

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
