-- Referrals: one row per referred account (so a referrer is awarded at most once per friend). The referred
-- account may not have a profile yet when the referral is recorded at sign-up, hence the account reference.
-- Written by the sign-up function (later); players read the rows they are part of.

create table public.referrals (
  id uuid primary key default gen_random_uuid(),
  referrer_id uuid not null references public.profiles (id) on delete cascade,
  referred_id uuid not null references account.accounts (id) on delete cascade,
  created_at timestamptz not null default public.app_now(),
  constraint referrals_referred_id_key unique (referred_id),
  constraint referrals_not_self check (referrer_id <> referred_id)
);

create index referrals_referrer_id_idx on public.referrals (referrer_id);

alter table public.referrals enable row level security;

create policy referrals_select_own on public.referrals
  for select to authenticated
  using (referrer_id = (select auth.uid()) or referred_id = (select auth.uid()));

create policy referrals_select_admin on public.referrals
  for select to authenticated
  using ((select private.is_admin()));

revoke all on table public.referrals from public, anon, authenticated;
grant select on table public.referrals to authenticated;
grant all on table public.referrals to service_role;
