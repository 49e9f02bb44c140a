/**
 * The Account section of /profile (rules file, "Your account and your data"; decision 029) in the browser: the
 * download, a password change that signs the other sessions out, an e-mail change through the mailed link, the
 * deletion (the old session dead, the old name nowhere on the leaderboard), and crafted requests. The actions' rules
 * in depth are tests/db/account-settings.test.ts, account-data.test.ts and account-deletion-walk.test.ts.
 */
import { createHash, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/cloudflare";
import { arrangeCompetition } from "./arrange";
import { db, expect, signIn, test, uniqueEmail } from "./fixtures";
import { E2E } from "./env";

/** A second session of the same player, as another browser would hold it: its Cookie header. */
async function anotherSession(userId: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const id = createHash("sha256").update(token).digest("hex");
  await db()`insert into account.sessions (id, user_id, expires_at) values (${id}, ${userId}, now() + interval '30 days')`;
  const cookie = createCookie("fc_session", { path: "/", httpOnly: true, sameSite: "lax", secrets: [process.env.E2E_SESSION_SECRET!] });
  return (await cookie.serialize(`${userId}:${token}`)).split(";")[0];
}

test("the download is an attachment of the player's own data, never cached", async ({ page, baseURL }) => {
  const me = await signIn(page.context(), baseURL!);
  await page.goto("/profile");
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download My Data" }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe("footycoach-data.json");
  const res = await page.request.get("/profile/data");
  expect(res.headers()["content-disposition"]).toBe('attachment; filename="footycoach-data.json"');
  expect(res.headers()["cache-control"]).toBe("private, no-store");
  const data = await res.json();
  expect(data.account.email).toBe(me.email);
  expect(data.profile.username).toBe(me.username);
  // Signed out: the login page, never someone's data.
  const anonymous = await fetch(`${baseURL}/profile/data`, { redirect: "manual" });
  expect(anonymous.status).toBe(302);
  expect(anonymous.headers.get("location")).toMatch(/^\/login/);
});

test("changing the password: a wrong one says so; the right one keeps this session and ends the other", async ({ page, baseURL }) => {
  const me = await signIn(page.context(), baseURL!);
  const elsewhere = await anotherSession(me.id);
  await page.goto("/profile");
  const form = page.getByRole("form", { name: "Change password" });
  await form.getByLabel("Current password").fill("not-my-password");
  await form.getByLabel("New password").fill("a-new-secret");
  await form.getByRole("button", { name: "Change Password" }).click();
  await expect(form.getByText("That password is not correct. Nothing was changed.")).toBeVisible();

  await form.getByLabel("Current password").fill(E2E.password);
  await form.getByLabel("New password").fill("a-new-secret");
  await form.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText("Password changed. Your other sessions have been signed out.")).toBeVisible();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard/);
  const other = await fetch(`${baseURL}/dashboard`, { headers: { Cookie: elsewhere }, redirect: "manual" });
  expect(other.status).toBe(302);
});

test("changing the e-mail waits for the link mailed to the new address", async ({ page, baseURL }) => {
  const me = await signIn(page.context(), baseURL!);
  const to = uniqueEmail("moved");
  await page.goto("/profile");
  const form = page.getByRole("form", { name: "Change email" });
  await form.getByLabel("New email").fill(to);
  await form.getByLabel("Password").fill(E2E.password);
  await form.getByRole("button", { name: "Change Email" }).click();
  await expect(page.getByText(`We have sent a link to ${to}. Your email changes when you open it.`)).toBeVisible();
  await expect(page.getByText(me.email)).toBeVisible();

  const [mail] = await db()<{ body_text: string }[]>`
    select body_text from account.mail_outbox where to_email = ${to} order by id desc limit 1`;
  const link = /https?:\/\/\S+\/confirm-email-change\?token=[A-Za-z0-9_-]+/.exec(mail.body_text)![0];
  await page.goto(link);
  await page.getByRole("button", { name: "Confirm my new email" }).click();
  await expect(page.getByText("Your email address has been changed.")).toBeVisible();
  await page.goto("/profile");
  await expect(page.getByText(to)).toBeVisible();
  const told = await db()`select 1 from account.mail_outbox where to_email = ${me.email} and subject = 'Your FootyCoach email was changed'`;
  expect(told).toHaveLength(1);
});

test("deleting the account: DELETE and the password; then the session is dead and the name gone", async ({ page, baseURL }) => {
  const me = await signIn(page.context(), baseURL!);
  const competition = await arrangeCompetition({ namePrefix: "Acct KO ", members: [me.id], registrationStatus: "closed" });
  const cookie = (await page.context().cookies()).find((c) => c.name === "fc_session")!;
  await page.goto("/profile");
  const form = page.getByRole("form", { name: "Delete account" });
  await form.getByLabel("Password").fill(E2E.password);
  await form.getByLabel("Type DELETE to confirm").fill("delete");
  await form.getByRole("button", { name: "Delete My Account" }).click();
  await expect(form.getByText("Type DELETE to confirm.", { exact: true })).toBeVisible();

  await form.getByLabel("Password").fill(E2E.password);
  await form.getByLabel("Type DELETE to confirm").fill("DELETE");
  await form.getByRole("button", { name: "Delete My Account" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Your account has been deleted.")).toBeVisible();

  // The old cookie, replayed: signed out.
  const replay = await fetch(`${baseURL}/dashboard`, { headers: { Cookie: `fc_session=${cookie.value}` }, redirect: "manual" });
  expect(replay.status).toBe(302);
  // Another member sees "Deleted player" in the registered players, never the old name.
  await signIn(page.context(), baseURL!, "admin");
  await page.goto(`/competition/${competition.id}`);
  await expect(page.getByText(/Deleted player [A-Z2-9]{4}/).first()).toBeVisible();
  await expect(page.getByText(me.username)).toHaveCount(0);
});

test("crafted requests: another origin, no session, a bad word or a missing password change nothing", async ({ page, baseURL }) => {
  const me = await signIn(page.context(), baseURL!);
  const cookie = (await page.context().cookies()).find((c) => c.name === "fc_session")!;
  const post = (form: Record<string, string>, headers: Record<string, string> = { Origin: baseURL! }) =>
    fetch(`${baseURL}/profile`, {
      method: "POST",
      headers: { Cookie: `fc_session=${cookie.value}`, "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form).toString(),
      redirect: "manual",
    });
  expect(
    (await post({ intent: "delete-account", password: E2E.password, confirm: "DELETE" }, { Origin: "https://evil.example" })).status,
  ).toBe(403);
  expect((await post({ intent: "delete-account", password: E2E.password, confirm: "Delete" })).status).toBe(400);
  expect((await post({ intent: "delete-account", confirm: "DELETE" })).status).toBe(400);
  expect((await post({ intent: "change-email", newEmail: "not an address", password: E2E.password })).status).toBe(400);
  expect((await post({ intent: "change-password", currentPassword: E2E.password, newPassword: "x" })).status).toBe(400);
  // A user id in the form is not read: the session says whose account it is.
  expect(
    (await post({ intent: "delete-account", userId: "00000000-0000-0000-0000-000000000000", password: "wrong", confirm: "DELETE" })).status,
  ).toBe(403);
  const anonymous = await fetch(`${baseURL}/profile`, {
    method: "POST",
    headers: { Origin: baseURL!, "Content-Type": "application/x-www-form-urlencoded" },
    body: "intent=delete-account&password=x&confirm=DELETE",
    redirect: "manual",
  });
  expect(anonymous.status).toBe(302);
  const [row] = await db()`select email from account.accounts where id = ${me.id}`;
  expect(row.email).toBe(me.email);
});
