-- Accounts carried over from the hosted project's Supabase Auth (scripts/db/adopt.ts, decision 019) arrive in
-- states the app did not have: a ban (banned_until in the future), or a password hash pgcrypto cannot check
-- (argon2, or none: magic-link and OAuth users). Such an account is kept, never dropped, with the reason it cannot
-- log in yet; login refuses it with a message that says what to do, and a password reset (which proves the player
-- reads the address) lifts 'password_reset'. A ban lifts itself at login_hold_until. An e-mail never confirmed is
-- not a hold: it is confirmed_at null (20261125130000), as for an app sign-up whose link was not opened.
alter table account.accounts add column login_hold text;
alter table account.accounts add column login_hold_until timestamptz;
alter table account.accounts add constraint accounts_login_hold_check
  check (login_hold in ('banned', 'password_reset'));
alter table account.accounts add constraint accounts_login_hold_until_only_banned
  check (login_hold_until is null or login_hold = 'banned');

comment on column account.accounts.login_hold is
  'Why the account cannot log in yet (carried over from Supabase Auth): banned (until login_hold_until) or '
  'password_reset (the hash could not be carried over); null for every account made by the app.';
