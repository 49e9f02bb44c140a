/**
 * Sessions made straight in the database, as tests/e2e/fixtures.ts startSession does: a random token whose
 * SHA-256 is the row's id in account.sessions, and the app's signed cookie "<user id>:<token>" (signed with the
 * Worker's SESSION_SECRET). For benchmarks and tests that need many signed-in players without logging each in
 * through bcrypt.
 */
import { createHash, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/cloudflare";
import type postgres from "postgres";

/** Inserts one session per user (30 days) and returns the Cookie header value of each, in the order given. */
export async function insertSessions(sql: postgres.Sql, userIds: string[], secret: string, cookieName = "fc_session"): Promise<string[]> {
  const cookie = createCookie(cookieName, { path: "/", httpOnly: true, sameSite: "lax", secrets: [secret] });
  const tokens = userIds.map(() => randomBytes(32).toString("base64url"));
  const ids = tokens.map((t) => createHash("sha256").update(t).digest("hex"));
  for (let i = 0; i < userIds.length; i += 1000) {
    await sql`
      insert into account.sessions (id, user_id, expires_at)
      select s.id, s.user_id, now() + interval '30 days'
        from unnest(${ids.slice(i, i + 1000)}::text[], ${userIds.slice(i, i + 1000)}::uuid[]) as s (id, user_id)`;
  }
  return Promise.all(userIds.map(async (userId, i) => (await cookie.serialize(`${userId}:${tokens[i]}`)).split(";")[0]));
}
