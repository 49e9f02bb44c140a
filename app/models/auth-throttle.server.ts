import type { ServiceTx as Tx } from "~/db/types";

/**
 * The throttle of everything that checks a secret or sends mail (decision 002): one account.auth_attempts row per
 * attempt, counted per key over a recent window; over the limit the answer is 429 with THROTTLED_MESSAGE. Keys are
 * '<kind>:email:<address>', '<kind>:user:<account id>' and '<kind>:ip:<client address>' (10_accounts.sql).
 */

/** Attempts allowed per key (account, client address) inside the window before answering 429. */
const THROTTLE_LIMIT = 10;
const THROTTLE_WINDOW_MINUTES = 15;
export const THROTTLED_MESSAGE = "Too many attempts. Please wait 15 minutes and try again.";

/** account.auth_attempts.kind (the table's check lists them). */
export type AttemptKind = "login" | "reset" | "signup" | "resend" | "confirm" | "account";

/** Whether any of the keys reached the limit: counting failures only, or every attempt (`countAll`). */
export async function isThrottled(tx: Tx, keys: string[], countAll: boolean): Promise<boolean> {
  const [row] = await tx<{ worst: number }[]>`
    select coalesce(max(n), 0)::int as worst from (
      select count(*) as n from account.auth_attempts
       where key in ${tx(keys)}
         and (${countAll} or not success)
         and created_at > public.app_now() - make_interval(mins => ${THROTTLE_WINDOW_MINUTES})
       group by key) counts`;
  return row.worst >= THROTTLE_LIMIT;
}

export async function recordAttempt(tx: Tx, kind: AttemptKind, keys: string[], success: boolean) {
  // created_at defaults to app_now(), the request's clock.
  await tx`insert into account.auth_attempts ${tx(keys.map((key) => ({ key, kind, success })))}`;
}

/**
 * Whether `password` is the password of the account row `a` (a fragment for a query over account.accounts a):
 * bcrypt inside Postgres. Only bcrypt hashes are checked: an account carried over with another kind (argon2, none)
 * or a deleted one (no hash) gets a fresh salt, so it never matches and crypt() never sees a salt it cannot read.
 */
export function passwordMatches(tx: Tx, password: string) {
  return tx`coalesce(a.password_hash = extensions.crypt(${password},
              case when a.password_hash like '$2a$%' then a.password_hash else extensions.gen_salt('bf', 10) end), false)`;
}

/** A new password's hash (bcrypt, cost 10: the format Supabase Auth keeps). */
export function newPasswordHash(tx: Tx, password: string) {
  return tx`extensions.crypt(${password}, extensions.gen_salt('bf', 10))`;
}
