import { createHash, randomBytes } from "node:crypto";
import { test as base, expect, type APIRequestContext, type APIResponse, type BrowserContext, type Page } from "@playwright/test";
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

/** The spec's answer to a sign-up: the account works once the mailed link is opened. */
export const CHECK_EMAIL = "Signup successful! Please check your email to confirm your account.";

/** A client address of its own (sign-ups, resends and logins are throttled per address, as real clients are). */
export function clientAddress(): string {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return `10.${octet()}.${octet()}.${octet()}`;
}

/**
 * The newest confirmation link mailed to `email`: the app's mail path writes it to the local outbox
 * (account.mail_outbox, /dev/outbox) in tests.
 */
export async function confirmationLink(email: string): Promise<string> {
  const [mail] = await db()<{ body_text: string }[]>`
    select body_text from account.mail_outbox
     where to_email = ${email} and subject = 'Confirm your FootyCoach account'
     order by id desc limit 1`;
  const link = /https?:\/\/\S+\/confirm-email\?token=[A-Za-z0-9_-]+/.exec(mail?.body_text ?? "")?.[0];
  if (!link) throw new Error(`no confirmation mail for ${email} in the outbox`);
  return link;
}

/** Opens the newest confirmation link mailed to `email` and confirms: signed in, on profile setup. */
export async function confirmEmail(page: Page, email: string) {
  // Two page loads and a form post more than signing up used to take: on a busy machine that is seconds.
  test.info().setTimeout(test.info().timeout + 30_000);
  await page.goto(await confirmationLink(email));
  await page.getByRole("button", { name: "Confirm my email" }).click();
  await expect(page).toHaveURL(/\/setup-profile/);
}

/**
 * Signs up and confirms over HTTP, without a browser, from a client address of its own: returns the
 * confirmation's answer (a redirect to /setup-profile carrying the new session cookie).
 */
export async function signUpHttp(
  request: APIRequestContext,
  email: string,
  opts: { password?: string; referralCode?: string; address?: string } = {},
): Promise<APIResponse> {
  const headers = { "CF-Connecting-IP": opts.address ?? clientAddress() };
  const form = { email, password: opts.password ?? E2E.password, referralCode: opts.referralCode ?? "" };
  const signup = await request.post("/signup", { form, headers, maxRedirects: 0 });
  expect(signup.status(), await signup.text()).toBe(302);
  expect(signup.headers()["location"]).toBe("/login");
  const token = new URL(await confirmationLink(email)).searchParams.get("token")!;
  const confirmed = await request.post("/confirm-email", { form: { intent: "confirm", token }, headers, maxRedirects: 0 });
  expect(confirmed.status()).toBe(302);
  expect(confirmed.headers()["location"]).toBe("/setup-profile");
  return confirmed;
}

/** Signs up through the page, then confirms through the mailed link, as a player does: signed in, on profile setup. */
export async function signUp(page: Page, email: string, password = E2E.password) {
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(CHECK_EMAIL)).toBeVisible();
  await confirmEmail(page, email);
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
      // A fixed far date, not now + 7 days: a page whose clock is set years ahead (screenshots.spec.ts) stays snoozed.
      localStorage.setItem("footycoach.pushPrompt.snoozedUntil", String(Date.UTC(2100, 0, 1)));
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
 * Removes the competition when the running test ends (pass or fail). Open competitions sort by registration
 * deadline, then start date, and the ones tests need on the first page start today (as a competition created
 * today does), so the lists hold only the running tests' own instead of every competition the run has made so far.
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
  // Each test is a client of its own (its own CF-Connecting-IP, for pages and `request` alike): sign-ups and
  // confirmation resends are throttled per client address (10 per 15 minutes), and a run signs up far more
  // players than that from one machine. security.spec.ts tests the per-address throttles with addresses it sets.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  extraHTTPHeaders: async ({}, use) => {
    await use({ "CF-Connecting-IP": clientAddress() });
  },
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
