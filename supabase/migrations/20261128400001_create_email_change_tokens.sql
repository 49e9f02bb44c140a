-- The Account section of /profile (rules file, "Your account and your data"; decision 029): a change of e-mail waits
-- for the link mailed to the new address. As confirmation links, only the SHA-256 of the mailed 256-bit token is
-- kept; valid 24 hours, used once; opening one voids the account's other open links. The throttle gets the kind
-- 'account' for the section's actions (keys 'account:user:<account id>' and 'account:ip:<client address>').
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

alter table account.email_change_tokens enable row level security;
revoke all on table account.email_change_tokens from public, anon, authenticated;

alter table account.auth_attempts drop constraint auth_attempts_kind_check;
alter table account.auth_attempts add constraint auth_attempts_kind_check
  check (kind in ('login', 'reset', 'signup', 'resend', 'confirm', 'account'));
