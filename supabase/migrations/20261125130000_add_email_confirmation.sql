-- E-mail confirmation (rules file, Accounts; decision 004, superseded part): an account can log in only after
-- the link mailed at sign-up is opened, and a referral is awarded only then. Before this, sign-up signed the
-- player in at once, so 20 scripted sign-ups with one code gave 20 referral tickets without 20 mailboxes.
--
-- * account.accounts.confirmed_at: when the link was opened; null = not confirmed (no login, no referral award).
--   No default: every path that makes an account decides (the app's sign-up leaves it null; the demo seed, the
--   test factories and the Supabase Auth carry-over in docs/operations/deploy.md set it).
-- * Backfill: the accounts that exist now were made when sign-up needed no confirmation, so they are marked
--   confirmed as of their creation (they could log in yesterday; they can today). updated_at is left as it was:
--   nothing about the account changed (the row trigger would otherwise stamp every account with today).
-- * account.email_confirmation_tokens: like password_reset_tokens (20261122000200), only the SHA-256 of the
--   mailed 256-bit token is kept; valid 24 hours, used once (used_at); a newer link (resend) does not void an
--   older one, but confirming voids every open link of the account (app/models/account.server.ts).

alter table account.accounts add column confirmed_at timestamptz;

comment on column account.accounts.confirmed_at is
  'When the account''s confirmation link was opened; null = not confirmed yet: no login and no referral award. '
  'Accounts older than migration 20261125130000 were marked confirmed as of their creation.';

alter table account.accounts disable trigger accounts_set_updated_at;
update account.accounts set confirmed_at = created_at where confirmed_at is null;
alter table account.accounts enable trigger accounts_set_updated_at;

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

alter table account.email_confirmation_tokens enable row level security;
revoke all on account.email_confirmation_tokens from public, anon, authenticated;
