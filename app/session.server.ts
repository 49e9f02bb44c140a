import { createCookie, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import type { Env } from "./env.server";
import type { Db } from "./db.server";
import type { SessionUser } from "./context";
import { randomToken, sha256Hex } from "./lib/crypto";
import { readCookie } from "./lib/read-cookie.server";

const SESSION_DAYS = 30;

/** The session cookie holds a random token; the database keeps only its SHA-256, so a leaked table row is useless. */
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

async function readToken(request: Request, env: Env): Promise<string | null> {
  const value = await readCookie(sessionCookie(env), request);
  return typeof value === "string" && value.length >= 32 ? value : null;
}

/**
 * The signed-in user or null: the session token's hash goes to the database as the first statement of the
 * request's transaction (Db.authenticate), which validates it and sets the request's identity.
 */
export async function lookupSessionUser(request: Request, env: Env, db: Db): Promise<SessionUser | null> {
  const token = await readToken(request, env);
  return db.authenticate(token ? await sha256Hex(token) : null);
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
  await db.asService(async (tx) => {
    if (previousId) await tx`delete from account.sessions where id = ${previousId}`;
    await tx`insert into account.sessions (id, user_id, created_at, expires_at, last_seen_at)
             values (${id}, ${userId}, ${db.now.toISOString()}, ${expires.toISOString()}, ${db.now.toISOString()})`;
  });
  return cookie.serialize(token);
}

/** Ends the session server-side and returns the Set-Cookie header that clears it. */
export async function endSession(request: Request, env: Env, db: Db): Promise<string> {
  const token = await readToken(request, env);
  if (token) {
    const id = await sha256Hex(token);
    await db.service((sql) => sql`delete from account.sessions where id = ${id}`);
  }
  return sessionCookie(env).serialize("", { maxAge: 0 });
}

function loginRedirect(request: Request): never {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  throw redirect(back && back !== "/" ? `/login?redirectTo=${encodeURIComponent(back)}` : "/login");
}

/** The signed-in user, or a redirect to /login that brings them back here afterwards. */
export async function requireUser(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const user = await context.user();
  if (!user) loginRedirect(request);
  return user;
}
