import { render } from "../lib/sql-inline";
import type { SessionUser } from "./types";

/**
 * The statements that open a player's transaction (decision 012): the request clock, then the session check.
 *
 * The check is private.authenticate(session hash) (supabase/schemas/10_accounts.sql): a security-definer
 * function that returns the session's user when the session exists and has not expired on the request clock,
 * and only then sets the transaction's identity (request.jwt.claims, read by auth.uid()). The same statement
 * sets the role `authenticated`, always (the left join gives exactly one row): a loader's reads may travel in
 * the same message as this check, and as `anon` a permission error there would fail the whole message, the
 * check included. Without an identity row-level security shows them nothing personal, and they are dropped
 * unless the check confirms the session (Db.asUser).
 */
export function clockStatement(nowIso: string): string {
  return render(["select set_config('app.now', ", ", true)"], [nowIso]);
}

export function sessionCheckStatement(sessionHash: string | null): string {
  return render(
    [
      `select u.id, u.email, u.username, u.role, u.time_zone as "timeZone", u.analytics_consent as "analyticsConsent",
       u.session_id as "sessionId", set_config('role', 'authenticated', true) as "_role"
  from (select 1) one left join private.authenticate(`,
      ") u on true",
    ],
    [sessionHash ?? ""],
  );
}

type CheckRow = Omit<SessionUser, "role"> & { role: SessionUser["role"] | null };

/** The check's one row as the signed-in user, or null (no session, or an expired one). */
export function sessionUserFrom(rows: readonly CheckRow[]): SessionUser | null {
  const row = rows[0];
  if (!row?.id) return null;
  const { id, email, username, role, timeZone, analyticsConsent, sessionId } = row;
  return { id, email, username, role: role ?? "player", timeZone, analyticsConsent, sessionId };
}
