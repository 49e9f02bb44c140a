import { createHash, randomBytes } from "node:crypto";
import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";
import { createCookie } from "@remix-run/cloudflare";
import postgres from "postgres";
import { createPlayer, type Player } from "../support/factories";
import { E2E } from "./env";

export { expect };

let sqlClient: postgres.Sql | undefined;
/** Direct database access for arranging data and reading the outbox (never for what the app should show). */
export function db(): postgres.Sql {
  sqlClient ??= postgres(process.env.E2E_DATABASE_URL!, { max: 2, onnotice: () => {} });
  return sqlClient;
}

export function uniqueEmail(prefix = "player"): string {
  return `${prefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.test`;
}

export function uniqueName(prefix = "p"): string {
  return `${prefix}${Math.random().toString(36).slice(2, 10)}`;
}

/** Moves the app's clock for this browser context (honoured only because the test Worker has TEST_CLOCK=enabled). */
export async function setClock(context: BrowserContext, at: Date) {
  await context.addCookies([{ name: "fc_test_now", value: at.toISOString(), url: test.info().project.use.baseURL! }]);
}

export async function signUp(page: Page, email: string, password = E2E.password) {
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page).toHaveURL(/\/setup-profile/);
}

export async function completeProfile(page: Page, username: string, dateOfBirth = "1990-05-17") {
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Date of Birth").fill(dateOfBirth);
  await page.getByLabel("Prefer not to say").check();
  await page.getByRole("button", { name: /Save Profile|Continue/ }).click();
}

export async function logIn(page: Page, email: string, password = E2E.password) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log In" }).click();
}

/** A signed-up player with a complete profile, created through the real pages. */
export async function newPlayer(page: Page) {
  const email = uniqueEmail();
  const username = uniqueName();
  await signUp(page, email);
  await completeProfile(page, username);
  await expect(page.getByRole("heading", { name: "Profile Complete!" })).toBeVisible();
  return { email, username };
}

// ---------------------------------------------------------------------------------------------------------
// Signing in without the login page

/** Who to sign in: a fresh player or admin (tests/support/factories.ts), or an existing account by email. */
export type Who = "player" | "admin" | { email: string };

/** The account a test is signed in as. Fresh accounts have the password E2E.password, so /login works too. */
export type SignedIn = Player;

/**
 * The session cookie as the Worker sets it (app/session.server.ts): "<user id>:<random token>" signed with the Worker's
 * SESSION_SECRET (global-setup exports it) by Remix's createCookie; the database keeps the token's SHA-256.
 */
async function startSession(userId: string): Promise<{ name: string; value: string }> {
  const secret = process.env.E2E_SESSION_SECRET;
  if (!secret) throw new Error("E2E_SESSION_SECRET is not set: tests/e2e/global-setup.ts exports it");
  const token = randomBytes(32).toString("base64url");
  const id = createHash("sha256").update(token).digest("hex");
  await db()`insert into account.sessions (id, user_id, expires_at) values (${id}, ${userId}, now() + interval '30 days')`;
  const setCookie = await createCookie("fc_session", { path: "/", httpOnly: true, sameSite: "lax", secrets: [secret] }).serialize(
    `${userId}:${token}`,
  );
  const pair = setCookie.split(";")[0];
  const eq = pair.indexOf("=");
  return { name: pair.slice(0, eq), value: pair.slice(eq + 1) };
}

async function accountOf(who: Who): Promise<SignedIn> {
  if (typeof who === "string") return createPlayer(db(), { username: uniqueName(), password: E2E.password, role: who });
  const [row] = await db()<SignedIn[]>`
    select a.id, a.email, p.username, coalesce(p.role, 'player') as role
      from account.accounts a left join public.profiles p on p.id = a.id
     where a.email = ${who.email}`;
  if (!row) throw new Error(`no account ${who.email}`);
  return row;
}

/**
 * The push permission prompt (decision 014) would cover the pages of every test whose player is in an active
 * competition: contexts start as a player who already chose Maybe Later. tests/e2e/push.spec.ts tests the prompt
 * in contexts of its own.
 */
export async function snoozePushPrompt(context: BrowserContext) {
  await context.addInitScript(() => {
    try {
      localStorage.setItem("footycoach.pushPrompt.snoozedUntil", String(Date.now() + 7 * 24 * 3600 * 1000));
    } catch {
      // No storage on this page (about:blank): nothing to snooze.
    }
  });
}

/** Signs a browser context in as `who` straight through the database (no /login round trip). */
export async function signIn(
  context: BrowserContext,
  baseURL: string,
  who: Who = "player",
  opts: { pushPrompt?: boolean } = {},
): Promise<SignedIn> {
  if (!opts.pushPrompt) await snoozePushPrompt(context);
  const account = await accountOf(who);
  const cookie = await startSession(account.id);
  await context.addCookies([{ ...cookie, url: baseURL, httpOnly: true, sameSite: "Lax" }]);
  return account;
}

// ---------------------------------------------------------------------------------------------------------
// Competitions a test made: removed when it ends

const madeByThisTest = { ids: new Set<string>(), names: new Set<string>() };

/**
 * Removes the competition when the running test ends (pass or fail). Open competitions sort by start date,
 * and the ones tests need on the first page start today (as a competition created today does), so the lists
 * hold only the running tests' own instead of every competition the run has made so far.
 */
export function removeAfterTest(competition: { id: string } | { name: string }) {
  if ("id" in competition) madeByThisTest.ids.add(competition.id);
  else madeByThisTest.names.add(competition.name);
}

export const test = base.extend<{
  isMobile: boolean;
  /** Signs this test's browser context (or the one given) in as a fresh player, a fresh admin or an
   * existing account, without the login page. */
  loginAs: (who?: Who, context?: BrowserContext) => Promise<SignedIn>;
  removeCompetitions: void;
}>({
  context: async ({ context }, use) => {
    await snoozePushPrompt(context);
    await use(context);
  },
  isMobile: async ({ viewport }, use) => {
    await use((viewport?.width ?? 1280) < 768);
  },
  loginAs: async ({ context, baseURL }, use) => {
    await use((who = "player", other) => signIn(other ?? context, baseURL!, who));
  },
  removeCompetitions: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
    async ({}, use) => {
      madeByThisTest.ids.clear();
      madeByThisTest.names.clear();
      await use();
      const ids = [...madeByThisTest.ids];
      const names = [...madeByThisTest.names];
      if (ids.length || names.length) {
        await db()`delete from public.competitions where id::text in ${db()(ids.length ? ids : [""])}
                                                      or name in ${db()(names.length ? names : [""])}`;
      }
    },
    { auto: true },
  ],
});
