import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";
import postgres from "postgres";
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

export const test = base.extend<{ isMobile: boolean }>({
  isMobile: async ({ viewport }, use) => {
    await use((viewport?.width ?? 1280) < 768);
  },
});
