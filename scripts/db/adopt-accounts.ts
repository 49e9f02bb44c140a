/**
 * The carry-over of Supabase Auth accounts into account.accounts (decision 019; the corrected procedure of
 * docs/operations/deploy.md). Same id, so every profile, membership and pick stays attached.
 *
 * - soft-deleted users (deleted_at set) are not copied: they asked to be gone;
 * - unconfirmed users (no email_confirmed_at) are copied unconfirmed (confirmed_at null), as an app sign-up that
 *   has not opened its link: login says "Please confirm your email first." and offers a new link;
 * - banned users (banned_until in the future) are copied with login_hold = 'banned' until then, so login refuses
 *   them with a message; neither is ever dropped;
 * - `$2b$` and `$2y$` bcrypt hashes are the same algorithm as `$2a$`, the only prefix pgcrypto on PostgreSQL 15
 *   reads: the prefix is rewritten;
 * - argon2 (or any other) hashes and users without a password cannot be checked: the hash is kept, login_hold =
 *   'password_reset', and the player sets a password with Forgot Password;
 * - an e-mail already taken (an existing account, or the same address twice in different case) skips that user
 *   and is counted; it never aborts the copy.
 *
 * Only id, email and encrypted_password are required of auth.users; the other columns read (deleted_at,
 * banned_until, email_confirmed_at, last_sign_in_at, created_at: added to Supabase Auth over the years) are looked
 * up in information_schema and read when present (decision 026).
 */
import type postgres from "postgres";
import { Columns } from "./original-shape";

export interface AccountsReport {
  candidates: number;
  copied: number;
  rewrittenPrefix: number;
  unconfirmed: number;
  banned: number;
  needReset: number;
  softDeleted: number;
  duplicateEmail: number;
  noEmail: number;
}

/** The one statement set of the carry-over, inside the caller's transaction. Re-running copies nothing twice. */
export async function copyAuthAccounts(tx: postgres.TransactionSql): Promise<AccountsReport> {
  const auth = await Columns.of(tx, "auth");
  const u = (column: string, fallback: string) => auth.or("u", "users", column, fallback);
  const deletedAt = u("deleted_at", "null::timestamptz");
  const bannedUntil = u("banned_until", "null::timestamptz");
  const confirmedAt = u("email_confirmed_at", "null::timestamptz");
  const lastSignIn = u("last_sign_in_at", "null::timestamptz");
  const createdAt = u("created_at", "null::timestamptz");
  await tx.unsafe(`
    create temporary table adopt_auth_users on commit drop as
    select u.id,
           lower(btrim(u.email)) as email,
           ${deletedAt} is not null as soft_deleted,
           -- the account.accounts e-mail rule: lower-case, trimmed, 3..254 characters, an @ after the first
           (u.email is not null and char_length(btrim(u.email)) between 3 and 254 and position('@' in btrim(u.email)) > 1) as usable_email,
           case when u.encrypted_password ~ '^\\$2[by]\\$' then '$2a$' || substr(u.encrypted_password, 5)
                when u.encrypted_password ~ '^\\$2a\\$' then u.encrypted_password
                when coalesce(u.encrypted_password, '') = '' then 'none'
                else u.encrypted_password end as password_hash,
           u.encrypted_password ~ '^\\$2[by]\\$' as rewritten,
           -- a ban first (a reset never lifts it), then a hash that cannot be checked
           case when ${bannedUntil} > now() then 'banned'
                when coalesce(u.encrypted_password, '') !~ '^\\$2[aby]\\$' then 'password_reset' end as login_hold,
           ${confirmedAt} as confirmed_at,
           case when ${bannedUntil} > now() then ${bannedUntil} end as login_hold_until,
           coalesce(${createdAt}, now()) as created_at,
           -- of several rows with one address (in any case) one keeps it: the one spelled in lower case (how
           -- Supabase Auth stores addresses it was given), then a confirmed one, then the last to sign in
           row_number() over (partition by lower(btrim(u.email))
                              order by (u.email = lower(btrim(u.email))) desc, ${confirmedAt} is null,
                                       ${lastSignIn} desc nulls last, ${createdAt}, u.id) as nth
      from auth.users u;

    create temporary table adopt_copied (id uuid primary key) on commit drop;
  `);
  await tx.unsafe(`
    with ins as (
      insert into account.accounts (id, email, password_hash, created_at, updated_at, confirmed_at, login_hold, login_hold_until)
      select id, email, password_hash, created_at, now(), confirmed_at, login_hold, login_hold_until
        from adopt_auth_users
       where not soft_deleted and usable_email and nth = 1
      on conflict do nothing
      returning id)
    insert into adopt_copied select id from ins`);
  const [r] = await tx.unsafe<AccountsReport[]>(`
    select count(*)::int as candidates,
           count(c.id)::int as "copied",
           count(c.id) filter (where u.rewritten)::int as "rewrittenPrefix",
           count(c.id) filter (where u.confirmed_at is null)::int as "unconfirmed",
           count(c.id) filter (where u.login_hold = 'banned')::int as "banned",
           count(c.id) filter (where u.login_hold = 'password_reset')::int as "needReset",
           count(*) filter (where u.soft_deleted)::int as "softDeleted",
           count(*) filter (where c.id is null and not u.soft_deleted and u.usable_email)::int as "duplicateEmail",
           count(*) filter (where not u.soft_deleted and not u.usable_email)::int as "noEmail"
      from adopt_auth_users u left join adopt_copied c on c.id = u.id`);
  return r;
}
