import {
  CHECK_EMAIL,
  completeProfile,
  confirmationLink,
  db,
  expect,
  logIn,
  newPlayer,
  signUp,
  test,
  uniqueEmail,
  uniqueName,
} from "./fixtures";
import { createAccount, createPlayer } from "../support/factories";
import { E2E } from "./env";

const RESENT = "If that email has an account waiting for confirmation, a new confirmation link has been sent to it.";

test("sign up, the 18+ rule, profile setup and the dashboard", async ({ page }) => {
  const email = uniqueEmail();
  await signUp(page, email);
  await expect(page.getByText("Welcome to FootyCoach!")).toBeVisible();

  // One day short of 18 in the player's own calendar.
  const now = new Date();
  const tooYoung = new Date(Date.UTC(now.getUTCFullYear() - 18, now.getUTCMonth(), now.getUTCDate() + 2)).toISOString().slice(0, 10);
  await completeProfile(page, uniqueName(), tooYoung);
  await expect(page.getByText("You must be at least 18 years old to join FootyCoach.")).toBeVisible();

  await completeProfile(page, uniqueName(), "1995-03-04");
  await expect(page.getByRole("heading", { name: "Profile Complete!" })).toBeVisible();
  await page.getByRole("link", { name: "Continue to Dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();

  // The browser's time zone was saved with the profile.
  const [row] = await db()`select p.time_zone from profiles p join account.accounts a on a.id = p.id where a.email = ${email}`;
  expect(row.time_zone).toBeTruthy();
});

test("self-describe shows the text field with its counter", async ({ page }) => {
  await signUp(page, uniqueEmail());
  await page.getByLabel("Prefer to self-describe").check();
  const text = page.getByPlaceholder("Your term here");
  await text.fill("Footballer");
  await expect(page.getByText("10 / 50")).toBeVisible();
});

test("logout ends the session and protected pages go back to /login", async ({ page, isMobile, loginAs }) => {
  await loginAs();
  await page.goto("/dashboard");
  if (isMobile) {
    await page.getByRole("button", { name: "More" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Logout" }).click();
  } else {
    await page.getByRole("navigation", { name: /main/i }).getByRole("button", { name: "Logout" }).click();
  }
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/my-competitions");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fmy-competitions$/);
});

test("login goes to / with a username (then the dashboard) and to /setup-profile without one", async ({ page }) => {
  const { email } = await createPlayer(db(), { password: E2E.password });
  await logIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);

  const bare = await createAccount(db(), { email: uniqueEmail("bare"), password: E2E.password });
  await page.context().clearCookies();
  await logIn(page, bare.email);
  await expect(page).toHaveURL(/\/setup-profile$/);
});

test("after login a player returns to the page that asked for it", async ({ page }) => {
  const { email } = await createPlayer(db(), { password: E2E.password });
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fprofile/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("footycoach");
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole("heading", { name: "Profile Settings" })).toBeVisible();
});

test("wrong password shows the auth error", async ({ page }) => {
  const { email } = await createPlayer(db(), { password: E2E.password });
  await logIn(page, email, "not-the-password");
  await expect(page.getByRole("alert")).toHaveText("Invalid login credentials");
});

test("forgot and reset password through the local outbox", async ({ page }) => {
  test.slow(); // the whole reset flow, then a login with the new password
  const { email } = await createPlayer(db(), { password: E2E.password });
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot Password" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText("A password reset link has been sent to your email.")).toBeVisible();

  await page.goto("/dev/outbox");
  const mail = page.locator("li", { hasText: email }).first();
  await expect(mail).toContainText("Reset your FootyCoach password");
  const link = await mail.getByRole("link").first().getAttribute("href");
  await page.goto(link!);

  await page.getByLabel("New password").fill("12345");
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(page.getByText("Password must be at least 6 characters long.")).toBeVisible();
  await page.getByLabel("New password").fill("brand-new-pass");
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Password updated. Please log in.")).toBeVisible();

  await logIn(page, email, "brand-new-pass");
  await expect(page).toHaveURL(/\/dashboard$/);

  // The used link says it is invalid on arrival, before any password is typed.
  await page.context().clearCookies();
  await page.goto(link!);
  await expect(page.getByRole("alert")).toHaveText("This reset link is invalid or has expired.");
  await expect(page.getByLabel("New password")).toHaveCount(0);
});

test("a reset link without a valid token says so on arrival", async ({ page }) => {
  for (const url of ["/reset-password", "/reset-password?token=short", `/reset-password?token=${"x".repeat(43)}`]) {
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("alert")).toHaveText("This reset link is invalid or has expired.");
    await expect(page.getByLabel("New password")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Set New Password" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Forgot Password" })).toHaveAttribute("href", "/forgot-password");
  }
});

test("an unknown email gets the same forgot-password answer and no mail", async ({ page }) => {
  const email = uniqueEmail("nobody");
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText("A password reset link has been sent to your email.")).toBeVisible();
  const rows = await db()`select 1 from account.mail_outbox where to_email = ${email}`;
  expect(rows.length).toBe(0);
});

test("the profile page shows the saved fields", async ({ page }) => {
  const { username } = await newPlayer(page);
  await page.goto("/profile");
  const main = page.getByRole("main");
  await expect(main.getByText(username)).toBeVisible();
  await expect(main.getByText("Prefer not to say")).toBeVisible();
  await expect(page.getByRole("link", { name: "Edit Profile" })).toHaveAttribute("href", "/setup-profile");
  await expect(page.getByRole("link", { name: "Back to Dashboard" })).toHaveAttribute("href", "/dashboard");
});

test("sign-up mails a confirmation link: no login before it is opened, a resend from the login page, each link once", async ({ page }) => {
  test.slow(); // two mails, two logins and three visits of links
  const email = uniqueEmail("confirm");
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(E2E.password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(CHECK_EMAIL)).toBeVisible();
  const first = await confirmationLink(email);

  // Before the link is opened: the spec's message, and the link can be sent again from here.
  await logIn(page, email);
  await expect(page.getByRole("alert")).toHaveText("Please confirm your email first.");
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole("button", { name: "Resend confirmation email" }).click();
  await expect(page.getByText(RESENT)).toBeVisible();
  const second = await confirmationLink(email);
  expect(second).not.toBe(first);

  // The link shows a button (opening it alone changes nothing); confirming signs in and goes to profile setup.
  await page.goto(second);
  await expect(page.getByRole("heading", { name: "Confirm your email" })).toBeVisible();
  await page.getByRole("button", { name: "Confirm my email" }).click();
  await expect(page).toHaveURL(/\/setup-profile$/);
  await expect(page.getByText("Signup successful! Let's set up your profile.")).toBeVisible();
  await expect(page.getByText("Welcome to FootyCoach!")).toBeVisible();

  // Every link of the account is spent now; the page offers a new one (the same answer for any address).
  await page.context().clearCookies();
  await page.goto(first);
  await expect(page.getByRole("alert")).toHaveText("This confirmation link is invalid or has expired.");
  await expect(page.getByRole("button", { name: "Confirm my email" })).toHaveCount(0);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Resend confirmation email" }).click();
  await expect(page.getByText(RESENT)).toBeVisible();
  expect(await confirmationLink(email)).toBe(second);

  await logIn(page, email);
  await expect(page).toHaveURL(/\/setup-profile$/);
});

test("the profile form says which name another player holds, whatever its case or spaces", async ({ page, loginAs }) => {
  const me = await loginAs("player");
  await page.goto("/setup-profile");
  const displayName = page.getByLabel("Display name (optional)");
  const save = page.getByRole("button", { name: "Save Profile" });
  // The demo player's username, as a display name: any case, padded.
  for (const taken of ["DemoPlayer", "demoplayer", " DemoPlayer "]) {
    await displayName.fill(taken);
    await save.click();
    await expect(page.getByText("Display name is already taken."), taken).toBeVisible();
  }
  await displayName.fill("");
  await page.getByLabel("Username").fill("DEMOADMIN");
  await save.click();
  await expect(page.getByText("Username is already taken.")).toBeVisible();
  const [unchanged] = await db()`select username, display_name from public.profiles where id = ${me.id}`;
  expect(unchanged).toEqual({ username: me.username, display_name: null });

  // A player's own username is fine as their display name.
  await page.getByLabel("Username").fill(me.username);
  await displayName.fill(me.username.toUpperCase());
  await save.click();
  await expect(page.getByRole("heading", { name: "Profile Complete!" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a taken display name is refused with its message (the page renders, no 500)", async ({ page, loginAs }) => {
    const me = await loginAs("player");
    await page.goto("/setup-profile");
    await page.getByLabel("Display name (optional)").fill("demoplayer");
    const answer = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/setup-profile"));
    await page.getByRole("button", { name: "Save Profile" }).click();
    expect((await answer).status()).toBe(409);
    await expect(page.getByText("Display name is already taken.")).toBeVisible();
    await expect(page.getByLabel("Username")).toHaveValue(me.username);
  });
});
