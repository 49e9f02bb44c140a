import type { Db, ServiceTx as Tx, SessionUser } from "~/db/types";
import { ACCOUNT_MESSAGES } from "~/lib/account-settings-messages";
import { randomToken, sha256Hex } from "~/lib/crypto";
import { isThrottled, newPasswordHash, passwordMatches, recordAttempt, THROTTLED_MESSAGE } from "./auth-throttle.server";
import { CONFIRM_TOKEN_TTL_HOURS } from "./account.server";

/**
 * The Account section of /profile (rules file, "Your account and your data"; decision 029): change password, change
 * e-mail, sign out everywhere else, delete the account. Each is one transaction on the server path, which first
 * finds the request's session still there (locking the account row: a replay after a deletion, or two requests at
 * once, find it gone and answer `signedOut`), then checks the password under the throttle, kind 'account', per account
 * and per client address: 10 wrong passwords in 15 minutes on either key answer 429, as logins do; a wrong password
 * changes nothing. A change of e-mail and "sign out everywhere else" also count as attempts (10 per 15 minutes per
 * account), so a signed-in player cannot mail link after link.
 */

type Who = Pick<SessionUser, "id" | "sessionId">;

export type AccountOutcome<T = Record<never, never>> =
  | ({ ok: true } & T)
  | { ok: false; signedOut: true }
  | { ok: false; signedOut: false; status: 400 | 403 | 409 | 429; message: string; field?: string };

const keysOf = (who: Who, address: string) => [`account:user:${who.id}`, `account:ip:${address}`];
const refused = (status: 400 | 403 | 409 | 429, message: string, field?: string) => ({
  ok: false as const,
  signedOut: false as const,
  status,
  message,
  ...(field ? { field } : {}),
});

/**
 * The common frame: session present, throttle, password (when given), then `act`. `countAll`: every attempt counts
 * towards the limit (mail and sign-outs), not only wrong passwords.
 */
async function inAccountTransaction<T extends object>(
  db: Db,
  who: Who,
  address: string,
  opts: { password: string | null; passwordField?: string; countAll?: boolean },
  act: (tx: Tx, account: { email: string }) => Promise<AccountOutcome<T>>,
): Promise<AccountOutcome<T>> {
  const keys = keysOf(who, address);
  return db.serviceTransaction(async (tx) => {
    const [account] = await tx<{ email: string; matches: boolean }[]>`
      select a.email, ${opts.password === null ? tx`false` : passwordMatches(tx, opts.password)} as matches
        from account.accounts a
        join account.sessions s on s.user_id = a.id and s.id = ${who.sessionId} and s.expires_at > public.app_now()
       where a.id = ${who.id} and a.email is not null
         for update of a`;
    if (!account) return { ok: false as const, signedOut: true as const };
    if (await isThrottled(tx, keys, opts.countAll ?? false)) return refused(429, THROTTLED_MESSAGE);
    if (opts.password !== null) {
      if (!account.matches) {
        await recordAttempt(tx, "account", keys, false);
        return refused(403, ACCOUNT_MESSAGES.wrongPassword, opts.passwordField ?? "password");
      }
      // The right password clears the account's failures (the address keeps its count), as a good login does.
      await tx`delete from account.auth_attempts where key = ${keys[0]} and not success`;
    }
    if (opts.countAll) await recordAttempt(tx, "account", keys, true);
    return act(tx, { email: account.email });
  });
}

/** Sets a new password and ends every other session of the account; this one stays. */
export async function changePassword(db: Db, who: Who, currentPassword: string, newPassword: string, address: string) {
  return inAccountTransaction(db, who, address, { password: currentPassword, passwordField: "currentPassword" }, async (tx) => {
    await tx`update account.accounts set password_hash = ${newPasswordHash(tx, newPassword)}, updated_at = public.app_now()
              where id = ${who.id}`;
    await tx`delete from account.sessions where user_id = ${who.id} and id <> ${who.sessionId}`;
    return { ok: true as const };
  });
}

/** Ends every session of the account but this one; how many ended. */
export async function signOutOthers(db: Db, who: Who, address: string) {
  return inAccountTransaction(db, who, address, { password: null, countAll: true }, async (tx) => {
    const ended = await tx`delete from account.sessions where user_id = ${who.id} and id <> ${who.sessionId}`;
    return { ok: true as const, ended: ended.count };
  });
}

/**
 * Asks for a change of e-mail: the address changes only when the link mailed to the new address is opened. The
 * answer is the same whether the new address is free or taken (`token` null when taken: the caller tells that
 * address it already has an account, and nothing else changes), so the form tells nobody which addresses have one.
 */
export async function requestEmailChange(db: Db, who: Who, password: string, newEmail: string, address: string) {
  const token = randomToken(32);
  const hash = await sha256Hex(token);
  return inAccountTransaction<{ token: string | null }>(db, who, address, { password, countAll: true }, async (tx, account) => {
    if (account.email === newEmail) return refused(400, ACCOUNT_MESSAGES.sameEmail, "newEmail");
    const made = await tx`
      insert into account.email_change_tokens (token_hash, user_id, new_email, created_at, expires_at)
      select ${hash}, ${who.id}, ${newEmail}, public.app_now(), public.app_now() + make_interval(hours => ${CONFIRM_TOKEN_TTL_HOURS})
       where not exists (select 1 from account.accounts where email = ${newEmail})`;
    return { ok: true as const, token: made.count ? token : null };
  });
}

/** Tokens this module makes are 43 characters; anything far from that is not worth hashing or looking up. */
const plausibleToken = (token: string) => token.length >= 20 && token.length <= 200;

/** Whether an e-mail change link can still be used (unused, not expired); read-only, for the page on arrival. */
export async function emailChangeTokenUsable(db: Db, token: string): Promise<boolean> {
  if (!plausibleToken(token)) return false;
  const hash = await sha256Hex(token);
  return db.serviceTransaction(async (tx) => {
    const rows = await tx`
      select 1 from account.email_change_tokens where token_hash = ${hash} and used_at is null and expires_at > public.app_now()`;
    return rows.length > 0;
  });
}

type EmailChangeResult = { ok: true; oldEmail: string; newEmail: string } | { ok: false; throttled: boolean; message: string };

/**
 * Spends an e-mail change link once: the account's address becomes the new one and its other open change links are
 * void. Bad links are throttled per client address (as confirmation links). The new address may have been taken
 * since the link was mailed: then nothing changes and the page says so (only whoever reads that inbox learns it).
 */
export async function confirmEmailChange(db: Db, token: string, address: string): Promise<EmailChangeResult> {
  const invalid = { ok: false as const, throttled: false, message: ACCOUNT_MESSAGES.invalidChangeLink };
  if (!plausibleToken(token)) return invalid;
  const hash = await sha256Hex(token);
  const keys = [`confirm:ip:${address}`];
  return db.serviceTransaction(async (tx) => {
    if (await isThrottled(tx, keys, false)) return { ok: false as const, throttled: true, message: THROTTLED_MESSAGE };
    const [used] = await tx<{ user_id: string; new_email: string }[]>`
      update account.email_change_tokens set used_at = public.app_now()
       where token_hash = ${hash} and used_at is null and expires_at > public.app_now()
      returning user_id, new_email`;
    if (!used) {
      await recordAttempt(tx, "confirm", keys, false);
      return invalid;
    }
    const [old] = await tx<{ email: string | null }[]>`select email from account.accounts where id = ${used.user_id} for update`;
    if (!old?.email) return invalid; // deleted since the link was mailed
    await tx`update account.email_change_tokens set used_at = public.app_now() where user_id = ${used.user_id} and used_at is null`;
    // The unique e-mail decides a race with a sign-up of the same address (update ... where not exists alone cannot).
    const changed = await tx
      .savepoint(
        (sp) => sp`update account.accounts set email = ${used.new_email}, updated_at = public.app_now() where id = ${used.user_id}`,
      )
      .then(
        () => true,
        (error: { code?: string }) => {
          if (error?.code === "23505") return false;
          throw error;
        },
      );
    if (!changed) return { ok: false as const, throttled: false, message: ACCOUNT_MESSAGES.emailTaken };
    return { ok: true as const, oldEmail: old.email, newEmail: used.new_email };
  });
}

/**
 * Deletes the account (private.delete_account, supabase/schemas/98_account_data.sql) once the password is right and
 * the word DELETE typed, in the same transaction; the last admin is refused and nothing changes.
 */
export async function deleteAccount(db: Db, who: Who, password: string, address: string) {
  return inAccountTransaction(db, who, address, { password }, async (tx) => {
    const [row] = await tx<{ outcome: "deleted" | "last_admin" | "not_found" }[]>`select private.delete_account(${who.id}) as outcome`;
    if (row.outcome === "last_admin") return refused(409, ACCOUNT_MESSAGES.lastAdmin);
    if (row.outcome === "not_found") return { ok: false as const, signedOut: true as const };
    return { ok: true as const };
  });
}
