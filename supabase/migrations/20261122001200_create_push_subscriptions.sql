-- Push subscriptions: Web Push (endpoint + keys) or FCM (token). Saved and removed by the save-subscription
-- function and the scheduler (later); players read their own.

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
