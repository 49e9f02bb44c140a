import type { Page } from "@playwright/test";
import { createPlayer } from "../support/factories";
import { currentMatchDay, LEAGUE, SEASON } from "./arrange";
import { E2E } from "./env";
import { CHECK_EMAIL, confirmEmail, db, expect, removeAfterTest, signUpHttp, test, uniqueEmail, uniqueName } from "./fixtures";

/**
 * Referrals (the award when the referred friend confirms their e-mail, /profile's panel with copy and share
 * links) and the admin's Scout competition with its prize. Referral awards: public.handle_referral_signup (tests/db/referrals.test.ts).
 */

const AWARDED = "Signup successful! Your referrer has been awarded a bonus ticket.";
const PLAIN = "Signup successful! Let's set up your profile.";

async function codeOf(userId: string): Promise<string> {
  const [row] = await db()<{ code: string }[]>`select referral_code as code from public.profiles where id = ${userId}`;
  return row.code;
}

async function referralFigures(page: Page) {
  await page.goto("/profile");
  const panel = page.getByRole("region", { name: "Refer a friend" });
  await expect(panel).toBeVisible();
  return { friends: panel.getByTestId("friends-referred"), tickets: panel.getByTestId("referral-tickets"), panel };
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test("a sign-up with a referral code awards the referrer when the friend confirms: count and tickets rise on their profile", async ({
  page,
  browser,
  loginAs,
  isMobile,
}) => {
  test.slow(); // two friends sign up, each confirming through the mailed link
  const referrer = await loginAs("player");
  const code = await codeOf(referrer.id);
  let figures = await referralFigures(page);
  await expect(figures.panel.getByText(code, { exact: true })).toBeVisible();
  await expect(figures.friends).toHaveText("0");
  await expect(figures.tickets).toHaveText("0");
  if (isMobile) await noSidewaysScroll(page);

  // A friend follows the shared link (lower case on purpose): the field is filled in, upper-cased.
  const friend = await browser.newContext();
  const friendPage = await friend.newPage();
  await friendPage.goto(`/signup?ref=${code.toLowerCase()}`);
  await expect(friendPage.getByLabel("Referral code (optional)")).toHaveValue(code);
  const email = uniqueEmail("referred");
  await friendPage.getByLabel("Email").fill(email);
  await friendPage.getByLabel("Password").fill(E2E.password);
  await friendPage.getByRole("button", { name: "Sign Up" }).click();
  await expect(friendPage).toHaveURL(/\/login$/);
  await expect(friendPage.getByText(CHECK_EMAIL)).toBeVisible();

  // Nothing is awarded until the friend opens the mailed link.
  figures = await referralFigures(page);
  await expect(figures.tickets).toHaveText("0");
  await confirmEmail(friendPage, email);
  await expect(friendPage.getByText(AWARDED)).toBeVisible();

  // A second friend types the code by hand.
  await friend.clearCookies();
  await friendPage.goto("/signup");
  const second = uniqueEmail("referred");
  await friendPage.getByLabel("Email").fill(second);
  await friendPage.getByLabel("Password").fill(E2E.password);
  await friendPage.getByLabel("Referral code (optional)").fill(code);
  await friendPage.getByRole("button", { name: "Sign Up" }).click();
  await expect(friendPage.getByText(CHECK_EMAIL)).toBeVisible();
  await confirmEmail(friendPage, second);
  await expect(friendPage.getByText(AWARDED)).toBeVisible();
  await friend.close();

  figures = await referralFigures(page);
  await expect(figures.friends).toHaveText("2");
  await expect(figures.tickets).toHaveText("2");
});

test("a sign-up with an unknown code still signs up, and awards nobody", async ({ page }) => {
  // The code alphabet has no 0, so this is never anyone's code.
  const email = uniqueEmail("unknowncode");
  await page.goto("/signup?ref=ZZZZ0000");
  await expect(page.getByLabel("Referral code (optional)")).toHaveValue("ZZZZ0000");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(E2E.password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText(CHECK_EMAIL)).toBeVisible();
  await confirmEmail(page, email);
  await expect(page.getByText(PLAIN)).toBeVisible();
  const rows = await db()`select r.id from public.referrals r join account.accounts a on a.id = r.referred_id where a.email = ${email}`;
  expect(rows).toHaveLength(0);

  // A ?ref= that is not a code is not filled in.
  await page.context().clearCookies();
  await page.goto("/signup?ref=%3Cscript%3E");
  await expect(page.getByLabel("Referral code (optional)")).toHaveValue("");
});

test("a referral code typed with a dash or a space never blocks the sign-up, and a real one still counts", async ({ page, request }) => {
  // Through the page: "ab-12345" is no code anyone has (the alphabet has no 1), but the sign-up goes through.
  const email = uniqueEmail("dashed");
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(E2E.password);
  await page.getByLabel("Referral code (optional)").fill("ab-12345");
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(CHECK_EMAIL)).toBeVisible();
  const [account] = await db()`select signup_referral_code from account.accounts where email = ${email}`;
  expect(account.signup_referral_code).toBe("AB12345");

  // A friend's real code posted as typed, lower case with a space (no JavaScript to tidy it): the referrer is
  // awarded when the friend confirms.
  const referrer = await createPlayer(db(), { username: uniqueName(), password: E2E.password });
  const code = await codeOf(referrer.id);
  for (const typed of [`${code.slice(0, 4).toLowerCase()} ${code.slice(4)}`, `${code.slice(0, 4)}-${code.slice(4)}`]) {
    await signUpHttp(request, uniqueEmail("typed"), { referralCode: typed });
  }
  const [row] = await db()<{ n: number }[]>`
    select count(*)::int as n from public.tickets where user_id = ${referrer.id} and ticket_type = 'referral'`;
  expect(row.n).toBe(2);
});

test("profile: copy the referral code, share links to /signup?ref=CODE, and a display name", async ({
  page,
  context,
  loginAs,
  isMobile,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const me = await loginAs("player");
  const code = await codeOf(me.id);
  const { panel } = await referralFigures(page);
  await panel.getByRole("button", { name: "Copy referral code" }).click();
  await expect(panel.getByText("Copied!")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  await expect(panel.getByText("Copied!")).toBeHidden({ timeout: 3000 });

  const signupUrl = new URL(`/signup?ref=${code}`, test.info().project.use.baseURL).toString();
  await expect(panel.getByRole("link", { name: "Share your referral code by WhatsApp" })).toHaveAttribute(
    "href",
    `https://wa.me/?text=${encodeURIComponent(`Join me on FootyCoach, the football prediction game! Sign up with my referral code ${code}: ${signupUrl}`)}`,
  );
  await panel.getByRole("button", { name: "Copy sign-up link" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(signupUrl);
  if (isMobile) await noSidewaysScroll(page);

  // Display name: set on the profile form, shown on /profile.
  await expect(page.getByText("Not set").first()).toBeVisible();
  await page.getByRole("link", { name: "Edit Profile" }).click();
  await page.getByLabel("Display name (optional)").fill("x".repeat(41));
  await expect(page.getByLabel("Display name (optional)")).toHaveValue("x".repeat(40)); // maxLength
  // Display names are unique across players (this test runs on desktop and mobile against one database).
  const gaffer = `The Gaffer ${uniqueName("")}`;
  await page.getByLabel("Display name (optional)").fill(`  ${gaffer}  `);
  await page.getByRole("button", { name: "Save Profile" }).click();
  await expect(page.getByRole("heading", { name: "Profile Complete!" })).toBeVisible();
  await page.goto("/profile");
  await expect(page.getByText(gaffer, { exact: true })).toBeVisible();
  const [row] = await db()<{ display_name: string }[]>`select display_name from public.profiles where id = ${me.id}`;
  expect(row.display_name).toBe(gaffer);
});

test("an admin creates a Scout competition with a prize (https only)", async ({ page, loginAs }) => {
  await loginAs("admin");
  const name = uniqueName("Scout Prize ");
  removeAfterTest({ name });
  const { matchDay } = await currentMatchDay();
  await page.goto("/admin/competitions");
  const prize = page.getByRole("group", { name: "Scout prize" });
  await page.getByLabel("Competition Name").fill(name);
  await page.getByLabel("Type").selectOption("knockout");
  await expect(prize).toBeHidden();
  await page.getByLabel("Type").selectOption("scout");
  await expect(prize).toBeVisible();
  await page.getByLabel("League").selectOption(LEAGUE);
  await page.getByLabel("Season").selectOption(SEASON);
  await page.getByLabel("Start Date").fill(new Date().toISOString().slice(0, 10));
  await page.getByLabel("Start Match Day").fill(String(matchDay));
  await prize.getByLabel("Prize title").fill("Signed match ball");
  await prize.getByLabel("Prize description").fill("Signed by the whole squad.");
  await prize.getByLabel("Prize terms URL").fill("http://example.com/terms");
  await prize.getByLabel("Prize image URL").fill("https://example.com/ball.png");
  await page.getByRole("button", { name: "Create Competition" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Prize terms URL must be an https:// address." }).first()).toBeVisible();
  expect(await db()`select 1 from public.competitions where name = ${name}`).toHaveLength(0);

  // The refused form kept what was typed (the prize fields still showing for Scout).
  await expect(prize.getByLabel("Prize title")).toHaveValue("Signed match ball");
  await prize.getByLabel("Prize terms URL").fill("https://example.com/terms");
  await page.getByRole("button", { name: "Create Competition" }).click();
  await expect(page.getByText("Competition created successfully!")).toBeVisible();
  const [row] = await db()`
    select type, visibility, status, current_match_day, prize_title, prize_description, prize_terms_url, prize_image_url
      from public.competitions where name = ${name}`;
  expect(row).toEqual({
    type: "scout",
    visibility: "public",
    status: "active",
    current_match_day: matchDay,
    prize_title: "Signed match ball",
    prize_description: "Signed by the whole squad.",
    prize_terms_url: "https://example.com/terms",
    prize_image_url: "https://example.com/ball.png",
  });

  // Scout competitions stay out of the knockout/season lists (open ones starting today come first there).
  await page.goto("/competitions");
  await expect(page.getByRole("heading", { level: 1, name: "Competitions" })).toBeVisible();
  await expect(page.getByText(name)).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the prize fields show, marked Scout only, and a knockout with a prize is refused", async ({ page, loginAs }) => {
    await loginAs("admin");
    const name = uniqueName("NoJs Prize ");
    removeAfterTest({ name });
    const { matchDay } = await currentMatchDay();
    await page.goto("/admin/competitions");
    const prize = page.getByRole("group", { name: "Scout prize" });
    await expect(prize).toBeVisible();
    await expect(prize.getByText(/Scout only/)).toBeVisible();
    await page.getByLabel("Competition Name").fill(name);
    await page.getByLabel("Type").selectOption("knockout");
    await page.getByLabel("League").selectOption(LEAGUE);
    await page.getByLabel("Season").selectOption(SEASON);
    await page.getByLabel("Start Date").fill(new Date().toISOString().slice(0, 10));
    await page.getByLabel("Start Match Day").fill(String(matchDay));
    await prize.getByLabel("Prize title").fill("Shirt");
    await page.getByRole("button", { name: "Create Competition" }).click();
    await expect(page.getByText("Prize details are for Scout competitions only.").first()).toBeVisible();
    await page.getByLabel("Type").selectOption("scout");
    await page.getByRole("button", { name: "Create Competition" }).click();
    await expect(page.getByText("Competition created successfully!")).toBeVisible();
    const [row] = await db()`select type, prize_title from public.competitions where name = ${name}`;
    expect(row).toEqual({ type: "scout", prize_title: "Shirt" });
  });

  test("a referral sign-up and its confirmation work with plain form posts", async ({ page }) => {
    const referrer = await createPlayer(db(), { username: uniqueName(), password: E2E.password });
    const code = await codeOf(referrer.id);
    await page.goto(`/signup?ref=${code}`);
    const email = uniqueEmail("nojs");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(E2E.password);
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText(CHECK_EMAIL)).toBeVisible();
    await confirmEmail(page, email);
    await expect(page.getByText(AWARDED)).toBeVisible();
    const [row] = await db()<
      { n: number }[]
    >`select count(*)::int as n from public.tickets where user_id = ${referrer.id} and ticket_type = 'referral'`;
    expect(row.n).toBe(1);
  });
});
