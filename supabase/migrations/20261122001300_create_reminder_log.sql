-- Reminder log: each (player, competition, match day, kind) reminder is sent at most once; the scheduler
-- inserts with ON CONFLICT DO NOTHING before sending.

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
