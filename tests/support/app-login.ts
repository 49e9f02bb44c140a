/**
 * Signs a player in through the app's own request path, without a browser or workerd: the /login route's action
 * (verifyLogin, then a session row and the signed cookie), then a request carrying that cookie through the
 * session check (private.authenticate, the first statement of every signed-in request) and the My Competitions
 * loader, which reads under row-level security as that player. The context is the one workers/web builds.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { createDb } from "~/db/request-db.server";
import { readEnv, type Bindings } from "~/env.server";
import { action as loginAction } from "~/routes/login";
import { loader as myCompetitionsLoader } from "~/routes/_app.my-competitions";
import { requestSession } from "~/session.server";

const ORIGIN = "http://footycoach.test";

function contextFor(request: Request, databaseUrl: string): AppLoadContext {
  const env = readEnv({
    ENVIRONMENT: "test",
    SESSION_SECRET: "adopted-login-test-secret-0123456789abcdef",
    MAIL_PROVIDER: "outbox",
    HYPERDRIVE: { connectionString: databaseUrl },
  } as unknown as Bindings);
  const now = new Date();
  const db = createDb(databaseUrl, now);
  const session = requestSession(request, env, db);
  return {
    env,
    db,
    now,
    user: session.user,
    userId: session.userId,
    hasSessionCookie: session.hasCookie,
    clientAddress: "203.0.113.9",
    waitUntil: () => {},
    notifyLive: () => {},
    // No scheduler here: a "Sync now" would answer that the feed tick syncs it (not used by a login).
    syncFeedLeague: () => Promise.resolve(null),
  };
}

export interface AppLogin {
  /** The login action's answer: 302 signed in, 401/403 refused. */
  status: number;
  /** The refusal's message (for 401/403). */
  message: string | null;
  /** The user the session check found for the cookie the login set (null when not signed in). */
  user: { id: string; username: string | null } | null;
  /** My Competitions as that player sees it (every competition, any status). */
  competitions: { name: string; type: string; eliminated: boolean; membershipStatus: string }[];
}

export async function logInThroughApp(databaseUrl: string, email: string, password: string): Promise<AppLogin> {
  const request = new Request(`${ORIGIN}/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
    body: new URLSearchParams({ email, password }),
  });
  const context = contextFor(request, databaseUrl);
  let answer: unknown;
  try {
    answer = await loginAction({ request, context, params: {} });
  } finally {
    await context.db.finish();
  }
  if (!(answer instanceof Response)) {
    const refused = answer as { init: { status?: number } | null; data: { message?: string } };
    return { status: refused.init?.status ?? 200, message: refused.data.message ?? null, user: null, competitions: [] };
  }
  const cookie = (answer.headers.get("Set-Cookie") ?? "").split(";")[0];
  const page = new Request(`${ORIGIN}/my-competitions?status=&competitionStatus=`, { headers: { Cookie: cookie } });
  const pageContext = contextFor(page, databaseUrl);
  try {
    const user = await pageContext.user();
    const list = (await myCompetitionsLoader({ request: page, context: pageContext, params: {} })) as {
      competitions: AppLogin["competitions"];
    };
    return {
      status: answer.status,
      message: null,
      user: user && { id: user.id, username: user.username },
      competitions: list.competitions.map((c) => ({
        name: c.name,
        type: c.type,
        eliminated: c.eliminated,
        membershipStatus: c.membershipStatus,
      })),
    };
  } finally {
    await pageContext.db.finish();
  }
}
