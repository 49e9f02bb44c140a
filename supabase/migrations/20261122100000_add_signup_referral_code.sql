-- The referral code a player typed at sign-up (optional, up to 8 upper-case letters or digits), kept on the
-- account until the referral step awards the referrer (the profile does not exist yet at sign-up).
alter table account.accounts
  add column signup_referral_code text,
  add constraint accounts_signup_referral_code_format check (signup_referral_code ~ '^[A-Z0-9]{1,8}$');
