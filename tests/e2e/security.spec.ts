import type { APIRequestContext, APIResponse } from "@playwright/test";
import { db, expect, signUpHttp, test, uniqueEmail } from "./fixtures";

function sessionCookie(res: APIResponse): string | undefined {
  return res
    .headersArray()
    .filter((h) => h.name.toLowerCase() === "set-cookie")
    .map((h) => h.value)
    .find((v) => v.startsWith("fc_session="));
}

function cookieValue(setCookie: string) {
  return setCookie.split(";")[0];
}

const login = (request: APIRequestContext, email: string, password: string, ip?: string) =>
  request.post("/login", { form: { email, password }, maxRedirects: 0, headers: ip ? { "CF-Connecting-IP": ip } : {} });

test("the session cookie is HttpOnly, SameSite=Lax and signed; logout ends it server-side", async ({ request }) => {
  const email = uniqueEmail();
  const res = await signUpHttp(request, email);
  const cookie = sessionCookie(res)!;
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Lax/i);
  expect(cookie).toMatch(/Path=\//);
  // The browser holds a signed random token; the database holds only its hash.
  const raw = decodeURIComponent(cookieValue(cookie).split("=")[1]);
  const sessions = await db()`select s.id from account.sessions s join account.accounts a on a.id = s.user_id where a.email = ${email}`;
  expect(sessions.length).toBe(1);
  expect(raw).not.toContain(sessions[0].id);

  const headers = { Cookie: cookieValue(cookie) };
  expect((await request.get("/profile", { headers, maxRedirects: 0 })).status()).toBe(200);
  const out = await request.post("/logout", { headers, maxRedirects: 0 });
  expect(out.headers()["location"]).toBe("/login");
  expect((await db()`select 1 from account.sessions s join account.accounts a on a.id = s.user_id where a.email = ${email}`).length).toBe(
    0,
  );
  // Replaying the old cookie no longer works.
  const replay = await request.get("/profile", { headers, maxRedirects: 0 });
  expect(replay.status()).toBe(302);
  expect(replay.headers()["location"]).toContain("/login");
});

test("a cross-site POST is refused with 403 and changes nothing", async ({ request }) => {
  const email = uniqueEmail("csrf");
  const res = await request.post("/signup", {
    form: { email, password: "footycoach" },
    headers: { Origin: "https://evil.example" },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(403);
  expect((await db()`select 1 from account.accounts where email = ${email}`).length).toBe(0);
  const same = await request.post("/signup", {
    form: { email, password: "footycoach" },
    headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
    maxRedirects: 0,
  });
  expect(same.status()).toBe(302);
});

test("login is throttled after 10 failures in 15 minutes, per account", async ({ playwright }) => {
  const email = uniqueEmail("throttle");
  await signUpHttp(await playwright.request.newContext({ baseURL: test.info().project.use.baseURL }), email);
  // A client without a session: a signed-in one would be sent away from /login.
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  for (let i = 0; i < 10; i++) {
    // A different client address each time: the per-account counter alone must trip.
    expect((await login(request, email, `wrong-${i}`, `10.1.${i}.${Math.floor(Math.random() * 250)}`)).status()).toBe(401);
  }
  const blocked = await login(request, email, "footycoach", "10.2.0.1");
  expect(blocked.status()).toBe(429);
  expect(await blocked.text()).toContain("Too many attempts. Please wait 15 minutes and try again.");

  // 15 minutes later (the app's clock moved) the account can log in again. Plain fetch: no cookie jar.
  const later = new Date(Date.now() + 16 * 60_000).toISOString();
  const ok = await fetch(`${test.info().project.use.baseURL}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: `fc_test_now=${later}`, "CF-Connecting-IP": "10.2.0.2" },
    body: new URLSearchParams({ email, password: "footycoach" }),
  });
  expect(ok.status).toBe(302);
});

test("a reset token works once and ends the account's other sessions", async ({ request }) => {
  const email = uniqueEmail("reset");
  const signup = await signUpHttp(request, email);
  const oldCookie = cookieValue(sessionCookie(signup)!);
  await request.post("/forgot-password", { form: { email }, headers: { "CF-Connecting-IP": "10.3.0.1" } });
  const [mail] = await db()`select body_text from account.mail_outbox where to_email = ${email} order by id desc limit 1`;
  const token = /token=([A-Za-z0-9_-]+)/.exec(mail.body_text)![1];
  expect(token.length).toBeGreaterThanOrEqual(22); // at least 128 bits in base64url

  const first = await request.post("/reset-password", { form: { token, password: "another-pass" }, maxRedirects: 0 });
  expect(first.status()).toBe(302);
  const again = await request.post("/reset-password", { form: { token, password: "third-pass1" }, maxRedirects: 0 });
  expect(again.status()).toBe(400);
  expect(await again.text()).toContain("Reset failed");

  const stale = await request.get("/profile", { headers: { Cookie: oldCookie }, maxRedirects: 0 });
  expect(stale.status()).toBe(302);
  expect((await login(request, email, "another-pass", "10.3.0.2")).status()).toBe(302);
});

test("no session fixation: a planted session cookie is replaced at login and never becomes the victim's", async ({ request }) => {
  const attacker = uniqueEmail("attacker");
  const victim = uniqueEmail("victim");
  const planted = cookieValue(sessionCookie(await signUpHttp(request, attacker))!);
  await signUpHttp(request, victim);

  const res = await request.post("/login", {
    form: { email: victim, password: "footycoach" },
    headers: { Cookie: planted },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
  const fresh = cookieValue(sessionCookie(res)!);
  expect(fresh).not.toBe(planted);
  // The planted cookie does not open the victim's (or any) session now.
  const withPlanted = await request.get("/profile", { headers: { Cookie: planted }, maxRedirects: 0 });
  expect(withPlanted.status()).toBe(302);
  const withFresh = await request.get("/setup-profile", { headers: { Cookie: fresh }, maxRedirects: 0 });
  expect(withFresh.status()).toBe(200);
});

test("the forgot-password request is throttled per client address", async ({ request }) => {
  const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  for (let i = 0; i < 10; i++) {
    const res = await request.post("/forgot-password", { form: { email: uniqueEmail("flood") }, headers: { "CF-Connecting-IP": ip } });
    expect(res.status()).toBe(200);
  }
  const res = await request.post("/forgot-password", { form: { email: uniqueEmail("flood") }, headers: { "CF-Connecting-IP": ip } });
  expect(res.status()).toBe(429);
});

test("sign-up starts no session; the link confirms only by a same-site POST, once", async ({ request }) => {
  const email = uniqueEmail("confirm");
  const signup = await request.post("/signup", { form: { email, password: "footycoach" }, maxRedirects: 0 });
  expect(signup.status()).toBe(302);
  expect(signup.headers()["location"]).toBe("/login");
  expect(sessionCookie(signup)).toBeUndefined();
  expect((await db()`select 1 from account.sessions s join account.accounts a on a.id = s.user_id where a.email = ${email}`).length).toBe(
    0,
  );

  const [mail] = await db()`select body_text from account.mail_outbox where to_email = ${email} order by id desc limit 1`;
  const token = /confirm-email\?token=([A-Za-z0-9_-]+)/.exec(mail.body_text)![1];
  // The database keeps only the token's hash.
  expect((await db()`select 1 from account.email_confirmation_tokens where token_hash = ${token}`).length).toBe(0);
  // Opening the link (GET) changes nothing: mail scanners open links too.
  const opened = await request.get(`/confirm-email?token=${token}`, { maxRedirects: 0 });
  expect(opened.status()).toBe(200);
  expect(opened.headers()["referrer-policy"]).toBe("same-origin");
  expect(sessionCookie(opened)).toBeUndefined();
  expect((await db()`select confirmed_at from account.accounts where email = ${email}`)[0].confirmed_at).toBeNull();
  // Another site cannot post it (it would sign its visitor into this account).
  const crossSite = await request.post("/confirm-email", {
    form: { intent: "confirm", token },
    headers: { Origin: "https://evil.example" },
    maxRedirects: 0,
  });
  expect(crossSite.status()).toBe(403);
  expect((await db()`select confirmed_at from account.accounts where email = ${email}`)[0].confirmed_at).toBeNull();

  const confirmed = await request.post("/confirm-email", { form: { intent: "confirm", token }, maxRedirects: 0 });
  expect(confirmed.status()).toBe(302);
  expect(confirmed.headers()["location"]).toBe("/setup-profile");
  expect(sessionCookie(confirmed)).toMatch(/HttpOnly/i);
  const again = await request.post("/confirm-email", { form: { intent: "confirm", token }, maxRedirects: 0 });
  expect(again.status()).toBe(400);
  expect(await again.text()).toContain("This confirmation link is invalid or has expired.");
});

test("malformed confirmation requests answer 4xx, never 5xx", async ({ request }) => {
  for (const token of ["", "x", "x".repeat(43), "%00".repeat(30), "x".repeat(20_000)]) {
    const get = await request.get(`/confirm-email?token=${token}`, { maxRedirects: 0 });
    expect(get.status(), `GET ${token.slice(0, 10)}`).toBe(200);
    const post = await request.post("/confirm-email", { form: { intent: "confirm", token }, maxRedirects: 0 });
    expect(post.status(), `POST ${token.slice(0, 10)}`).toBe(400);
  }
  expect((await request.post("/confirm-email", { form: { intent: "confirm" }, maxRedirects: 0 })).status()).toBe(400);
  expect((await request.post("/confirm-email", { form: { intent: "nope" }, maxRedirects: 0 })).status()).toBe(400);
  expect((await request.post("/confirm-email", { form: { intent: "resend", email: "x".repeat(5000) }, maxRedirects: 0 })).status()).toBe(
    400,
  );
});

test("sign-ups are throttled per client address (the referral farming report)", async ({ request }) => {
  const ip = `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const signUpFrom = (email: string) =>
    request.post("/signup", { form: { email, password: "footycoach" }, headers: { "CF-Connecting-IP": ip }, maxRedirects: 0 });
  for (let i = 0; i < 10; i++) expect((await signUpFrom(uniqueEmail("farm"))).status()).toBe(302);
  const blocked = await signUpFrom(uniqueEmail("farm"));
  expect(blocked.status()).toBe(429);
  expect(await blocked.text()).toContain("Too many attempts. Please wait 15 minutes and try again.");
});

test("a resend answers the same for an unknown address and one waiting for confirmation", async ({ request }) => {
  const waiting = uniqueEmail("waiting");
  expect((await request.post("/signup", { form: { email: waiting, password: "footycoach" }, maxRedirects: 0 })).status()).toBe(302);
  const answer = async (email: string) => {
    const res = await request.post("/confirm-email", { form: { intent: "resend", email }, maxRedirects: 0 });
    // The page's main content (the document around it carries per-request values such as script nonces).
    const main = /<main[\s\S]*?<\/main>/.exec(await res.text())?.[0] ?? "";
    return { status: res.status(), body: main.replaceAll(email, "EMAIL") };
  };
  const known = await answer(waiting);
  const unknown = await answer(uniqueEmail("nobody"));
  expect(known.status).toBe(200);
  expect(unknown).toEqual(known);
  expect(known.body).toContain("If that email has an account waiting for confirmation, a new confirmation link has been sent to it.");
  const mails = await db()`select 1 from account.mail_outbox where to_email = ${waiting} and subject = 'Confirm your FootyCoach account'`;
  expect(mails.length).toBe(2);
});
