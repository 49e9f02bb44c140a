import { createCookie, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import type { Env } from "./env.server";
import type { Db } from "./db/types";
import type { SessionUser } from "./db/types";
import { randomToken, sha256Hex } from "./lib/crypto";
import { isUuid } from "./lib/ids";
import { readCookie } from "./lib/read-cookie.server";

const SESSION_DAYS = 30;

/**
 * The session cookie holds "<user id>:<random token>", signed; the database keeps only the token's SHA-256, so
 * a leaked table row is useless. The user id lets a page send its reads before the database has confirmed the
 * session (decision 012): they run as the session's identity, and are used only when it is this user's.
 */
function sessionCookie(env: Env) {
  const secure = env.ENVIRONMENT === "production";
  // `__Host-` pins the cookie to this exact origin over HTTPS; plain-http local serving cannot use it.
  return createCookie(secure ? "__Host-fc_session" : "fc_session", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: SESSION_DAYS * 24 * 3600,
    secrets: [env.SESSION_SECRET],
  });
}

interface SessionCookie {
  userId: string;
  token: string;
  /** SHA-256 (hex) of the token: the sessions table's key. */
  hash: string;
}

async function readSession(request: Request, env: Env): Promise<SessionCookie | null> {
  const value = await readCookie(sessionCookie(env), request);
  if (typeof value !== "string") return null;
  const match = /^([0-9a-f-]{36}):([A-Za-z0-9_-]{32,200})$/.exec(value);
  if (!match || !isUuid(match[1])) return null;
  return { userId: match[1], token: match[2], hash: await sha256Hex(match[2]) };
}

async function readToken(request: Request, env: Env): Promise<string | null> {
  return (await readSession(request, env))?.token ?? null;
}

/**
 * The session as this request sees it. `userId()` comes from the signed cookie (no database) and starts the
 * session check, the first statement of the request's transaction (Db.authenticate), so reads a loader sends
 * right after it travel in the same message; `user()` is the check's answer, null for an unknown or expired
 * session, or one that is not the cookie's user.
 */
export function requestSession(request: Request, env: Env, db: Db) {
  const cookie = readSession(request, env);
  let checked: Promise<SessionUser | null> | undefined;
  // No session cookie: signed out, without asking the database.
  const start = (s: SessionCookie | null) =>
    (checked ??= s ? db.authenticate(s.hash).then((user) => (user && user.id === s.userId ? user : null)) : Promise.resolve(null));
  return {
    /** Whether the request carries a well-signed session cookie (no database: the session may be stale). */
    hasCookie: () => cookie.then((s) => s !== null),
    user: () => cookie.then(start),
    userId: () =>
      cookie.then((s) => {
        void start(s);
        return s?.userId ?? null;
      }),
  };
}

/**
 * Starts a fresh session for the user and returns its Set-Cookie header. A session the browser
 * already carried is ended first, so a planted cookie can never be promoted (no session fixation).
 */
export async function startSession(request: Request, env: Env, db: Db, userId: string): Promise<string> {
  const cookie = sessionCookie(env);
  const previous = await readToken(request, env);
  const token = randomToken(32);
  const [id, previousId] = await Promise.all([sha256Hex(token), previous ? sha256Hex(previous) : null]);
  const expires = new Date(db.now.getTime() + SESSION_DAYS * 24 * 3600 * 1000);
  await db.serviceTransaction(async (tx) => {
    if (previousId) await tx`delete from account.sessions where id = ${previousId}`;
    await tx`insert into account.sessions (id, user_id, created_at, expires_at, last_seen_at)
             values (${id}, ${userId}, ${db.now.toISOString()}, ${expires.toISOString()}, ${db.now.toISOString()})`;
  });
  return cookie.serialize(`${userId}:${token}`);
}

/** Ends the session server-side and returns the Set-Cookie header that clears it. */
export async function endSession(request: Request, env: Env, db: Db): Promise<string> {
  const token = await readToken(request, env);
  if (token) {
    const id = await sha256Hex(token);
    await db.serviceStatement((sql) => sql`delete from account.sessions where id = ${id}`);
  }
  return sessionCookie(env).serialize("", { maxAge: 0 });
}

function loginRedirect(request: Request): never {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  throw redirect(back && back !== "/" ? `/login?redirectTo=${encodeURIComponent(back)}` : "/login");
}

/**
 * The signed-in user and the page's reads together: `read` starts with the user id from the signed cookie
 * while the database checks the session in the same round trip; its result is used only when the check
 * confirms the session (else the login redirect, and what was read is dropped).
 */
export async function requireUserWith<T>(
  request: Request,
  context: AppLoadContext,
  read: (userId: string) => Promise<T>,
): Promise<{ user: SessionUser; data: T }> {
  const userId = await context.userId();
  if (!userId) loginRedirect(request);
  const reading = read(userId);
  // What was read may be dropped (no session, or the database is down): never an unhandled rejection.
  reading.catch(() => {});
  const user = await context.user();
  if (!user) loginRedirect(request);
  return { user, data: await reading };
}

/**
 * A write's first step: a request without a session cookie goes to the login page before its body is read.
 * Nothing is asked of the database here: the session is checked together with the write (requireUserWith),
 * in the same message.
 */
export async function requireSessionCookie(request: Request, context: AppLoadContext): Promise<void> {
  if (!(await context.hasSessionCookie())) loginRedirect(request);
}

/**
 * An action's write as the signed-in player: sent with the session check in one message (so a write costs the
 * check-and-write round trip and the COMMIT). When the session is not confirmed the answer is the login
 * redirect and the write, which ran with no identity, is rolled back.
 */
export async function writeAsUser<T>(request: Request, context: AppLoadContext, write: (userId: string) => Promise<T>): Promise<T> {
  return (await requireUserWith(request, context, write)).data;
}

/** The signed-in user, or a redirect to /login that brings them back here afterwards. */
export async function requireUser(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const user = await context.user();
  if (!user) loginRedirect(request);
  return user;
}
