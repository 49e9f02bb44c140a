import type { Db, ServiceTx as Tx } from "~/db/types";
import { INVALID_CONFIRMATION_LINK, UNCONFIRMED } from "~/lib/account-messages";
import { randomToken, sha256Hex } from "~/lib/crypto";
import { isThrottled, newPasswordHash, passwordMatches, recordAttempt, THROTTLED_MESSAGE, type AttemptKind } from "./auth-throttle.server";

export const RESET_TOKEN_TTL_MINUTES = 60;
/** How long a confirmation link works (rules file, Accounts). */
export const CONFIRM_TOKEN_TTL_HOURS = 24;
const INVALID_CREDENTIALS = "Invalid login credentials";

function throttleKeys(kind: AttemptKind, email: string, address: string) {
  return [`${kind}:email:${email}`, `${kind}:ip:${address}`];
}

type SignupResult = { ok: true; userId: string; token: string } | { ok: false; throttled: boolean; message: string };

/**
 * Creates an unconfirmed account and its confirmation token (256 random bits, returned for mailing; only its
 * SHA-256 is stored), under the sign-up throttle: every attempt that reaches here counts, per e-mail and per
 * client address. One transaction. Nothing is awarded and no session starts: the account can log in, and a
 * referral code counts, only once the link is opened (confirmEmail).
 */
export async function createAccount(
  db: Db,
  email: string,
  password: string,
  referralCode: string | null,
  address: string,
): Promise<SignupResult> {
  const keys = throttleKeys("signup", email, address);
  const token = randomToken(32);
  const hash = await sha256Hex(token);
  return db.serviceTransaction(async (tx) => {
    if (await isThrottled(tx, keys, true)) return { ok: false as const, throttled: true, message: THROTTLED_MESSAGE };
    const rows = await tx<{ id: string }[]>`
      insert into account.accounts (email, password_hash, signup_referral_code, created_at, updated_at)
      values (${email}, ${newPasswordHash(tx, password)}, ${referralCode}, public.app_now(), public.app_now())
      on conflict (email) do nothing
      returning id`;
    await recordAttempt(tx, "signup", keys, rows.length > 0);
    if (!rows[0]) return { ok: false as const, throttled: false, message: "User already registered" };
    const userId = rows[0].id;
    await insertConfirmationToken(tx, userId, hash);
    return { ok: true as const, userId, token };
  });
}

async function insertConfirmationToken(tx: Tx, userId: string, hash: string) {
  await tx`
    insert into account.email_confirmation_tokens (token_hash, user_id, created_at, expires_at)
    values (${hash}, ${userId}, public.app_now(), public.app_now() + make_interval(hours => ${CONFIRM_TOKEN_TTL_HOURS}))`;
}

/** Tokens this module makes are 43 characters; anything far from that is not worth hashing or looking up. */
const plausibleToken = (token: string) => token.length >= 20 && token.length <= 200;

/** Whether a confirmation link's token can still be used (unused, not expired); read-only, for the page on arrival. */
export async function confirmationTokenUsable(db: Db, token: string): Promise<boolean> {
  if (!plausibleToken(token)) return false;
  const hash = await sha256Hex(token);
  return db.serviceTransaction(async (tx) => {
    const rows = await tx`
      select 1 from account.email_confirmation_tokens
       where token_hash = ${hash} and used_at is null and expires_at > public.app_now()`;
    return rows.length > 0;
  });
}

type ConfirmResult = { ok: true; userId: string; referralAwarded: boolean } | { ok: false; throttled: boolean; message: string };

/**
 * Spends a confirmation token once: confirms the account, voids its other open links and, when it signed up
 * with a referral code, awards the referrer now (public.handle_referral_signup, which itself refuses an
 * unconfirmed account). One transaction; two simultaneous uses of one link confirm once (the token row's
 * update waits for the other and then finds it used). Bad links are throttled per client address.
 */
export async function confirmEmail(db: Db, token: string, address: string): Promise<ConfirmResult> {
  const invalid = { ok: false as const, throttled: false, message: INVALID_CONFIRMATION_LINK };
  if (!plausibleToken(token)) return invalid;
  const hash = await sha256Hex(token);
  const keys = [`confirm:ip:${address}`];
  return db.serviceTransaction(async (tx) => {
    if (await isThrottled(tx, keys, false)) return { ok: false as const, throttled: true, message: THROTTLED_MESSAGE };
    const [used] = await tx<{ user_id: string }[]>`
      update account.email_confirmation_tokens set used_at = public.app_now()
       where token_hash = ${hash} and used_at is null and expires_at > public.app_now()
      returning user_id`;
    if (!used) {
      await recordAttempt(tx, "confirm", keys, false);
      return invalid;
    }
    const [account] = await tx<{ email: string; code: string | null }[]>`
      update account.accounts set confirmed_at = coalesce(confirmed_at, public.app_now())
       where id = ${used.user_id}
      returning email, signup_referral_code as code`;
    await tx`update account.email_confirmation_tokens set used_at = public.app_now() where user_id = ${used.user_id} and used_at is null`;
    const referralAwarded = account.code ? await awardReferral(tx, used.user_id, account.email, account.code) : false;
    return { ok: true as const, userId: used.user_id, referralAwarded };
  });
}

type ResendRequest = { throttled: true } | { throttled: false; token: string | null };

/**
 * A fresh confirmation link for an account that is not confirmed yet (null for an unknown or confirmed
 * e-mail: the caller answers the same either way). Throttled per e-mail and per client address, every request
 * counted, as forgot-password.
 */
export async function resendConfirmation(db: Db, email: string, address: string): Promise<ResendRequest> {
  const keys = throttleKeys("resend", email, address);
  const token = randomToken(32);
  const hash = await sha256Hex(token);
  return db.serviceTransaction(async (tx) => {
    if (await isThrottled(tx, keys, true)) return { throttled: true as const };
    await recordAttempt(tx, "resend", keys, true);
    const rows = await tx`
      insert into account.email_confirmation_tokens (token_hash, user_id, created_at, expires_at)
      select ${hash}, id, public.app_now(), public.app_now() + make_interval(hours => ${CONFIRM_TOKEN_TTL_HOURS})
        from account.accounts where email = ${email} and confirmed_at is null
      returning user_id`;
    return { throttled: false as const, token: rows.length ? token : null };
  });
}

/**
 * The referral step of a confirmation, under a savepoint: an unknown code or a failure here is only logged and
 * never blocks the confirmation (spec part 2: "a referral failure is only logged").
 */
async function awardReferral(tx: Tx, userId: string, email: string, code: string): Promise<boolean> {
  try {
    const [row] = await tx.savepoint(
      (sp) => sp<{ awarded: boolean }[]>`select public.handle_referral_signup(${userId}, ${email}, ${code}) as awarded`,
    );
    // Unknown code, the referrer's own address, or already referred: nothing to award (the code is no secret).
    if (row?.awarded !== true) console.info(`referral code ${code} awarded nothing at confirmation (unknown code or not eligible)`);
    return row?.awarded === true;
  } catch (error) {
    console.error("referral award failed (confirmation goes on):", (error as Error)?.message ?? error);
    return false;
  }
}

/** Why an account carried over from Supabase Auth cannot log in yet (account.accounts.login_hold, decision 019). */
type LoginHold = "banned" | "password_reset";
export const HOLD_MESSAGES: Record<LoginHold, string> = {
  banned: "This account is suspended.",
  password_reset: "Your password has to be set again: use Forgot Password to get a link.",
};

type LoginResult =
  { ok: true; userId: string; username: string | null } | { ok: false; throttled: boolean; unconfirmed: boolean; message: string };

/**
 * Checks the password (bcrypt inside Postgres) under the login throttle; one transaction. An account that has
 * not opened its confirmation link is refused with UNCONFIRMED, and only after the right password, so
 * the answer tells nobody else that the address has an account waiting.
 */
export async function verifyLogin(db: Db, email: string, password: string, address: string): Promise<LoginResult> {
  const keys = throttleKeys("login", email, address);
  return db.serviceTransaction(async (tx) => {
    if (await isThrottled(tx, keys, false)) return { ok: false as const, throttled: true, unconfirmed: false, message: THROTTLED_MESSAGE };
    // With no matching account a fresh salt is hashed anyway, so a wrong email costs the same bcrypt
    // work as a wrong password (no timing hint about which accounts exist).
    // An account carried over with a hash pgcrypto cannot check (argon2, none) is held for a reset: it never matches.
    const [row] = await tx<{ id: string | null; ok: boolean; confirmed: boolean; username: string | null; hold: LoginHold | null }[]>`
      select a.id,
             ${passwordMatches(tx, password)} and a.id is not null as ok,
             a.confirmed_at is not null as confirmed,
             p.username,
             case when a.login_hold = 'banned' and a.login_hold_until <= public.app_now() then null else a.login_hold end as hold
        from (select 1) one
        left join account.accounts a on a.email = ${email}
        left join public.profiles p on p.id = a.id`;
    if (!row?.ok || !row.id) {
      await recordAttempt(tx, "login", keys, false);
      return { ok: false as const, throttled: false, unconfirmed: false, message: INVALID_CREDENTIALS };
    }
    // Said only to whoever knows the password, so it tells nobody else that the account exists. A hold
    // (a ban, a hash to set again) goes first: confirming the address would not lift it.
    if (row.hold) return { ok: false as const, throttled: false, unconfirmed: false, message: HOLD_MESSAGES[row.hold] };
    // The right password of an account whose link was not opened: not a failed guess (nothing recorded).
    if (!row.confirmed) return { ok: false as const, throttled: false, unconfirmed: true, message: UNCONFIRMED };
    // A good login clears the account's failures; the address keeps its count.
    await tx`delete from account.auth_attempts where key = ${keys[0]} and not success`;
    return { ok: true as const, userId: row.id, username: row.username };
  });
}

type ResetRequest = { throttled: true } | { throttled: false; token: string | null };

/**
 * Issues a reset token when the account exists. The caller answers the same either way; the token
 * (256 random bits) is returned for mailing and only its SHA-256 is stored.
 */
export async function requestPasswordReset(db: Db, email: string, address: string): Promise<ResetRequest> {
  const keys = throttleKeys("reset", email, address);
  const token = randomToken(32);
  const hash = await sha256Hex(token);
  return db.serviceTransaction(async (tx) => {
    if (await isThrottled(tx, keys, true)) return { throttled: true as const };
    await recordAttempt(tx, "reset", keys, true);
    const rows = await tx`
      insert into account.password_reset_tokens (token_hash, user_id, created_at, expires_at)
      select ${hash}, id, public.app_now(), public.app_now() + make_interval(mins => ${RESET_TOKEN_TTL_MINUTES})
        from account.accounts where email = ${email}
      returning user_id`;
    return { throttled: false as const, token: rows.length ? token : null };
  });
}

type ResetResult = { ok: true } | { ok: false; throttled: boolean; message: string };

/** Spends a reset token once, sets the new password and ends every session of the account. */
/** Whether a reset link's token can still be used (unused and not expired); read-only, so the page can say so on arrival. */
export async function resetTokenUsable(db: Db, token: string): Promise<boolean> {
  if (token.length < 20 || token.length > 200) return false;
  const hash = await sha256Hex(token);
  return db.serviceTransaction(async (tx) => {
    const rows = await tx`
      select 1 from account.password_reset_tokens
       where token_hash = ${hash} and used_at is null and expires_at > public.app_now()`;
    return rows.length > 0;
  });
}

export async function resetPassword(db: Db, token: string, password: string, address: string): Promise<ResetResult> {
  const hash = await sha256Hex(token);
  const keys = [`reset:ip:${address}`];
  return db.serviceTransaction(async (tx) => {
    if (await isThrottled(tx, keys, false)) return { ok: false as const, throttled: true, message: THROTTLED_MESSAGE };
    const [used] = await tx<{ user_id: string }[]>`
      update account.password_reset_tokens set used_at = public.app_now()
       where token_hash = ${hash} and used_at is null and expires_at > public.app_now()
      returning user_id`;
    if (!used) {
      await recordAttempt(tx, "reset", keys, false);
      return { ok: false as const, throttled: false, message: "This reset link is invalid or has expired." };
    }
    await tx`update account.accounts
                set password_hash = ${newPasswordHash(tx, password)}, updated_at = public.app_now(),
                    -- the link reached the player's inbox: the address is confirmed and the password is new
                    confirmed_at = coalesce(confirmed_at, public.app_now()),
                    login_hold = case when login_hold = 'banned' then login_hold end
              where id = ${used.user_id}`;
    await tx`delete from account.sessions where user_id = ${used.user_id}`;
    await tx`update account.password_reset_tokens set used_at = public.app_now() where user_id = ${used.user_id} and used_at is null`;
    return { ok: true as const };
  });
}
