-- The throttle counter (account.auth_attempts, 20261122000200) also counts sign-ups, confirmation resends and
-- bad confirmation links (rules file, Accounts: "Sign-ups and confirmation resends are throttled per address
-- and per e-mail, as logins are"). Keys stay '<kind>:email:<address>' and '<kind>:ip:<client address>'.
--   signup:  every sign-up attempt that passed the form's checks, per e-mail and per client address
--   resend:  every request for a new confirmation link, per e-mail and per client address
--   confirm: confirmation links that matched no usable token, per client address (as bad reset tokens)

alter table account.auth_attempts drop constraint auth_attempts_kind_check;
alter table account.auth_attempts add constraint auth_attempts_kind_check
  check (kind in ('login', 'reset', 'signup', 'resend', 'confirm'));
