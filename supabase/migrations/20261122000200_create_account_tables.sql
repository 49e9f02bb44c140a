-- The app's own accounts: credentials, sessions, password reset tokens, the login/reset throttle counter and
-- the development mail outbox. Schema "account" is never exposed: no grants to anon/authenticated, RLS
-- enabled with no policies (so even an accidental grant reads nothing). Only the server's owner connection
-- uses these tables.

create schema account;
revoke all on schema account from public;

create table account.accounts (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  password_hash text not null,
  created_at timestamptz not null default public.app_now(),
  updated_at timestamptz not null default public.app_now(),
  constraint accounts_email_key unique (email),
  constraint accounts_email_format check (
    email = lower(email) and email = btrim(email)
    and char_length(email) between 3 and 254 and position('@' in email) > 1
  ),
  constraint accounts_password_hash_not_blank check (password_hash <> '')
);

comment on column account.accounts.password_hash is
  'bcrypt hash made in SQL: extensions.crypt(password, extensions.gen_salt(''bf'', 10)); same format as Supabase Auth.';

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

create table account.auth_attempts (
  id bigint generated always as identity primary key,
  key text not null,  -- e.g. 'login:email:x@example.com' or 'login:ip:1.2.3.4'
  kind text not null,
  success boolean not null,
  created_at timestamptz not null default public.app_now(),
  constraint auth_attempts_kind_check check (kind in ('login', 'reset')),
  constraint auth_attempts_key_length check (char_length(key) between 1 and 400)
);

create index auth_attempts_key_created_at_idx on account.auth_attempts (key, created_at);

create table account.mail_outbox (
  id bigint generated always as identity primary key,
  to_email text not null,
  subject text not null,
  body_text text not null,
  created_at timestamptz not null default public.app_now()
);

alter table account.accounts enable row level security;
alter table account.sessions enable row level security;
alter table account.password_reset_tokens enable row level security;
alter table account.auth_attempts enable row level security;
alter table account.mail_outbox enable row level security;

revoke all on all tables in schema account from public, anon, authenticated;
revoke all on all sequences in schema account from public, anon, authenticated;
