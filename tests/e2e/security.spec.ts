import type { APIRequestContext, APIResponse } from "@playwright/test";
import { db, expect, test, uniqueEmail } from "./fixtures";

async function signUpHttp(request: APIRequestContext, email: string, password = "footycoach") {
  const res = await request.post("/signup", { form: { email, password, referralCode: "" }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
  return res;
}

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
