-- Scout tickets. A FootyCoach ticket targets one competition; a referral ticket is global and comes from one
-- referral. At most one unused FootyCoach ticket per player and competition (double grants fail). Spent and
-- granted by functions (later); players read their own.

create table public.tickets (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  ticket_type text not null,
  target_competition_id uuid references public.competitions (id) on delete cascade,
  referral_id uuid references public.referrals (id) on delete set null,
  used boolean not null default false,
  used_at timestamptz,
  created_at timestamptz not null default public.app_now(),
  constraint tickets_ticket_type_check check (ticket_type in ('footycoach', 'referral')),
  constraint tickets_target_iff_footycoach check (
    (ticket_type = 'footycoach') = (target_competition_id is not null)
  ),
  constraint tickets_referral_only_referral check (referral_id is null or ticket_type = 'referral'),
  constraint tickets_referral_id_key unique (referral_id),
  constraint tickets_used_at_iff_used check (used = (used_at is not null))
);

create index tickets_user_type_used_idx on public.tickets (user_id, ticket_type, used);
create unique index tickets_one_unused_footycoach_key
  on public.tickets (user_id, target_competition_id)
  where ticket_type = 'footycoach' and not used;

alter table public.tickets enable row level security;

create policy tickets_select_own on public.tickets
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy tickets_select_admin on public.tickets
  for select to authenticated
  using ((select private.is_admin()));

revoke all on table public.tickets from public, anon, authenticated;
grant select on table public.tickets to authenticated;
grant all on table public.tickets to service_role;
