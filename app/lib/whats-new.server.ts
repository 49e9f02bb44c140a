import { createCookie } from "@remix-run/cloudflare";
import type { Env } from "~/env.server";
import { readCookie } from "~/lib/read-cookie.server";

/*
 * What's new read state: the key of the newest release note the player has seen (newestPublishedNoteKey), kept in
 * a cookie per browser and per player (the value names the player: another account in the same browser starts
 * unseen). Cheap: no column, no write to the database; the app shell compares it with the newest published key it
 * reads with the session check. /whats-new sets it when opened.
 */

const ONE_YEAR = 60 * 60 * 24 * 365;

function seenCookie(env: Env) {
  return createCookie("fc_whats_new", {
    httpOnly: true,
    sameSite: "lax",
    secure: env.ENVIRONMENT === "production",
    path: "/",
    maxAge: ONE_YEAR,
  });
}

const isKey = (v: unknown): v is string => typeof v === "string" && /^\d{1,20}$/.test(v);

/** The key this player last saw in this browser, or null. */
export async function readSeenNoteKey(request: Request, env: Env, userId: string): Promise<string | null> {
  const value = await readCookie(seenCookie(env), request);
  if (!value || typeof value !== "object") return null;
  const { u, k } = value as { u?: unknown; k?: unknown };
  return u === userId && isKey(k) ? k : null;
}

/** The Set-Cookie header recording that this player has seen everything up to `key`. */
export function seenNoteKeyCookie(env: Env, userId: string, key: string): Promise<string> {
  return seenCookie(env).serialize({ u: userId, k: key });
}

/** The newest key when it is newer than the one seen (the shell then shows "New"), else null. */
export function unseenNoteKey(newest: string | null, seen: string | null): string | null {
  if (!isKey(newest)) return null;
  if (!seen) return newest;
  return BigInt(newest) > BigInt(seen) ? newest : null;
}
