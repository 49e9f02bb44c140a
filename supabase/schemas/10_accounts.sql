-- Accounts: the app's own credentials, sessions, password reset tokens, the login/reset throttle counter and the
-- development mail outbox, and the session check that starts every player request (private.authenticate).
-- Decisions: docs/decisions/002-accounts-and-sessions.md, 011-one-home-per-rule.md (authenticate).
--
-- Schema "account" is never exposed: no grants to anon/authenticated, RLS enabled with no policies (so even an
-- accidental grant reads nothing). Only the server's owner connection uses these tables. The player's profile
-- (username, date of birth, role, ...) is in 11_profiles.sql.

create schema account;
revoke all on schema account from public;

-- ---------------------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------------------

-- A player who deleted their account keeps its row (its id holds their past picks under "Deleted player XXXX",
-- 98_account_data.sql) with neither e-mail nor password: nobody can log in to it, and the address is free to sign
-- up again.
create table account.accounts (
  id uuid primary key default gen_random_uuid(),
  email text,
  password_hash text,
  created_at timestamptz not null default public.app_now(),
  updated_at timestamptz not null default public.app_now(),
  -- The referral code a player typed at sign-up (optional, up to 8 upper-case letters or digits), kept on the
  -- account as a record: the profile does not exist yet at sign-up (award: 70_referrals_and_tickets.sql).
  signup_referral_code text,
  -- When the link mailed at sign-up was opened; null = not confirmed: no login and no referral award (rules file,
  -- Accounts). No default: every path that makes an account decides (the app's sign-up leaves it null; the demo
  -- seed, the test factories and the adoption of Supabase Auth accounts set it).
  confirmed_at timestamptz,
  -- Accounts carried over from Supabase Auth (scripts/db/adopt.ts, decision 019) may arrive unable to log in yet:
  -- a ban (until login_hold_until), or a hash pgcrypto cannot check (argon2, or none). Login refuses them saying
  -- what to do; a password reset lifts 'password_reset' (and confirms the address).
  login_hold text,
  login_hold_until timestamptz,
  constraint accounts_email_key unique (email),
  constraint accounts_email_format check (
    email = lower(email) and email = btrim(email)
    and char_length(email) between 3 and 254 and position('@' in email) > 1
  ),
  constraint accounts_password_hash_not_blank check (password_hash <> ''),
  constraint accounts_signup_referral_code_format check (signup_referral_code ~ '^[A-Z0-9]{1,8}$'),
  constraint accounts_login_hold_check check (login_hold in ('banned', 'password_reset')),
  constraint accounts_login_hold_until_only_banned check (login_hold_until is null or login_hold = 'banned'),
  constraint accounts_credentials_together check ((email is null) = (password_hash is null))
);

comment on column account.accounts.password_hash is
  'bcrypt hash made in SQL: extensions.crypt(password, extensions.gen_salt(''bf'', 10)); same format as Supabase Auth.';
comment on column account.accounts.confirmed_at is
  'When the account''s confirmation link was opened; null = not confirmed yet: no login and no referral award. '
  'Accounts older than migration 20261125130000 were marked confirmed as of their creation.';
comment on column account.accounts.login_hold is
  'Why the account cannot log in yet (carried over from Supabase Auth): banned (until login_hold_until) or '
  'password_reset (the hash could not be carried over); null for every account made by the app.';

create trigger accounts_set_updated_at
  before update on account.accounts
  for each row execute function private.set_updated_at();

create table account.sessions (
  id text primary key,  -- sha256 hex of the random cookie token; the token itself is never stored
  user_id uuid not null references account.accounts (id) on delete cascade,
  created_at timestamptz not null default public.app_now(),
  expires_at timestamptz not null,
  last_seen_at timestamptz not null default public.app_now(),
  constraint sessions_id_is_sha256_hex check (id ~ '^[0-9a-f]{64}$'),
  constraint sessions_expiry_after_creation check (expires_at > created_at)
);

create index sessions_user_id_idx on account.sessions (user_id);
create index sessions_expires_at_idx on account.sessions (expires_at);

create table account.password_reset_tokens (
  token_hash text primary key,  -- sha256 hex of the emailed token
  user_id uuid not null references account.accounts (id) on delete cascade,
  created_at timestamptz not null default public.app_now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  constraint password_reset_tokens_hash_is_sha256_hex check (token_hash ~ '^[0-9a-f]{64}$'),
  constraint password_reset_tokens_expiry_after_creation check (expires_at > created_at)
);

create index password_reset_tokens_user_id_idx on account.password_reset_tokens (user_id);

-- E-mail confirmation links: as reset tokens, only the SHA-256 of the mailed 256-bit token is kept; valid 24
-- hours, used once (used_at); a newer link (resend) does not void an older one, but confirming voids every open
-- link of the account (app/models/account.server.ts).
create table account.email_confirmation_tokens (
  token_hash text primary key,  -- sha256 hex of the mailed token; the token itself is never stored
  user_id uuid not null references account.accounts (id) on delete cascade,
  created_at timestamptz not null default public.app_now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  constraint email_confirmation_tokens_hash_is_sha256_hex check (token_hash ~ '^[0-9a-f]{64}$'),
  constraint email_confirmation_tokens_expiry_after_creation check (expires_at > created_at)
);

create index email_confirmation_tokens_user_id_idx on account.email_confirmation_tokens (user_id);

-- A change of e-mail waits for the link mailed to the new address (rules file, "Your account and your data"): as
-- confirmation links, only the SHA-256 of the mailed 256-bit token is kept; valid 24 hours, used once; opening one
-- voids the account's other open links (app/models/account-settings.server.ts).
create table account.email_change_tokens (
  token_hash text primary key,  -- sha256 hex of the mailed token; the token itself is never stored
  user_id uuid not null references account.accounts (id) on delete cascade,
  new_email text not null,
  created_at timestamptz not null default public.app_now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  constraint email_change_tokens_hash_is_sha256_hex check (token_hash ~ '^[0-9a-f]{64}$'),
  constraint email_change_tokens_expiry_after_creation check (expires_at > created_at),
  constraint email_change_tokens_new_email_format check (
    new_email = lower(new_email) and new_email = btrim(new_email)
    and char_length(new_email) between 3 and 254 and position('@' in new_email) > 1
  )
);

create index email_change_tokens_user_id_idx on account.email_change_tokens (user_id);

-- The throttle: one row per attempt, counted per key over a recent window by the server. Keys are
-- '<kind>:email:<address>', '<kind>:user:<account id>' and '<kind>:ip:<client address>'. login and reset: failed
-- attempts; signup and resend: every sign-up or new confirmation link asked for; confirm: confirmation and e-mail
-- change links that matched no usable token; account: the Account section of /profile, per account and address
-- (a wrong password fails; a change of e-mail and "sign out everywhere else" count as successes).
create table account.auth_attempts (
  id bigint generated always as identity primary key,
  key text not null,  -- e.g. 'login:email:x@example.com' or 'login:ip:1.2.3.4'
  kind text not null,
  success boolean not null,
  created_at timestamptz not null default public.app_now(),
  constraint auth_attempts_kind_check check (kind in ('login', 'reset', 'signup', 'resend', 'confirm', 'account')),
  constraint auth_attempts_key_length check (char_length(key) between 1 and 400)
);

create index auth_attempts_key_created_at_idx on account.auth_attempts (key, created_at);

-- Development mail outbox (/dev/outbox): mail is not sent locally.
create table account.mail_outbox (
  id bigint generated always as identity primary key,
  to_email text not null,
  subject text not null,
  body_text text not null,
  created_at timestamptz not null default public.app_now()
);

-- ---------------------------------------------------------------------------------------------------------
-- Security: RLS on, no policies, no grants to the API roles
-- ---------------------------------------------------------------------------------------------------------

alter table account.accounts enable row level security;
alter table account.sessions enable row level security;
alter table account.password_reset_tokens enable row level security;
alter table account.email_confirmation_tokens enable row level security;
alter table account.email_change_tokens enable row level security;
alter table account.auth_attempts enable row level security;
alter table account.mail_outbox enable row level security;

revoke all on all tables in schema account from public, anon, authenticated;
revoke all on all sequences in schema account from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------------------
-- The session check of a player's request (decision 012), the first statement of the request's transaction.
-- ---------------------------------------------------------------------------------------------------------

-- Given the SHA-256 (hex) of the session cookie's token, it returns the signed-in user when the session exists
-- and has not expired on the request clock, and only then sets the transaction's identity (request.jwt.claims)
-- that row-level security reads through auth.uid(). No row: no identity. The caller sets the role in the same
-- statement, always 'authenticated' (a security-definer function may not set the role itself): reads sent in
-- the same message would fail as 'anon' and take the check down with them; without an identity row-level
-- security shows them nothing personal (decision 012). Only the server's owner connection calls it.
create function private.authenticate(p_session_hash text)
returns table (id uuid, email text, username text, role text, time_zone text, analytics_consent boolean, session_id text)
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  v_user uuid;
begin
  select s.user_id into v_user
    from account.sessions s
   where s.id = p_session_hash and s.expires_at > public.app_now();
  perform pg_catalog.set_config('request.jwt.claims',
    case when v_user is null then ''
         else pg_catalog.json_build_object('sub', v_user, 'role', 'authenticated')::text end, true);
  return query
    select a.id, a.email::text, p.username::text, coalesce(p.role, 'player')::text, p.time_zone::text,
           p.analytics_consent, p_session_hash
      from account.accounts a
      left join public.profiles p on p.id = a.id
     where a.id = v_user;
end
$$;

revoke all on function private.authenticate(text) from public, anon, authenticated;
