-- A referral is awarded when the referred account confirms its e-mail, not before (rules file, Referrals).
-- private.handle_referral_signup (from 20261124110000, unchanged since) now also refuses an account whose
-- confirmed_at is null, so the rule holds for every caller, not only for the app's confirmation step
-- (app/models/account.server.ts confirmEmail, which calls it right after setting confirmed_at, in the same
-- transaction). Everything else is as before: once per referred account, never to oneself, false (no error)
-- for an unknown code. Same arguments and return type: create or replace keeps the grants.

create or replace function private.handle_referral_signup(p_referred_user_id uuid, p_referred_email text, p_referral_code text)
returns boolean
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_code text := pg_catalog.upper(pg_catalog.btrim(coalesce(p_referral_code, '')));
  v_email text := pg_catalog.lower(pg_catalog.btrim(coalesce(p_referred_email, '')));
  v_referrer public.profiles%rowtype;
  v_awarded integer;
begin
  if p_referred_user_id is null or v_code !~ '^[A-Z0-9]{1,8}$' then
    return false;
  end if;
  select * into v_referrer from public.profiles p where p.referral_code = v_code;
  if not found then
    return false;
  end if;
  if v_referrer.id = p_referred_user_id or pg_catalog.lower(v_referrer.email) = v_email then
    return false;
  end if;
  -- The referred account must exist (referrals.referred_id references it) and have confirmed its e-mail; its
  -- own email counts as well.
  if not exists (select 1 from account.accounts a
                  where a.id = p_referred_user_id and a.confirmed_at is not null
                    and pg_catalog.lower(a.email) <> pg_catalog.lower(v_referrer.email)) then
    return false;
  end if;

  with referral as (
    insert into public.referrals (referrer_id, referred_id)
    values (v_referrer.id, p_referred_user_id)
    on conflict (referred_id) do nothing
    returning id, referrer_id
  )
  insert into public.tickets (user_id, ticket_type, target_competition_id, referral_id)
  select r.referrer_id, 'referral', null, r.id from referral r;
  get diagnostics v_awarded = row_count;
  return v_awarded > 0;
end
$$;

comment on function private.handle_referral_signup(uuid, text, text) is
  'Awards the owner of p_referral_code one referral ticket for the sign-up of p_referred_user_id once that '
  'account has confirmed its e-mail: once per referred account, never to oneself; false when nothing was '
  'awarded (unknown code, self, not confirmed, already referred).';

comment on column account.accounts.signup_referral_code is
  'The referral code typed at sign-up (normalised: upper-case letters and digits), kept for the award, which '
  'public.handle_referral_signup makes when the account confirms its e-mail (referrals and tickets).';
