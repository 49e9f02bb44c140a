/**
 * Bad input from the attack run answers 4xx (or a safe redirect), never a 5xx, and writes nothing:
 * open redirects after login, malformed session cookies, bodies that are not forms, oversize page numbers,
 * impossible dates and results for matches not yet played.
 */
import type { APIRequestContext } from "@playwright/test";
import { db, expect, signUpHttp, test, uniqueEmail } from "./fixtures";
import { LEAGUE, SEASON } from "./arrange";
import { E2E } from "./env";

const origin = () => new URL(test.info().project.use.baseURL!).origin;

async function signedIn(request: APIRequestContext, email: string): Promise<Record<string, string>> {
  const res = await request.post("/login", { form: { email, password: E2E.password }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
  const cookie = res.headersArray().find((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith("fc_session="))!;
  return { Cookie: cookie.value.split(";")[0], Origin: origin() };
}

test.describe("open redirect after login", () => {
  const attacks = [
    "/\t/evil.example",
    "/\n/evil.example",
    "/\\evil.example",
    "//evil.example",
    "https://evil.example/",
    "/\r\nSet-Cookie: x=1",
  ];

  test("POST /login never answers a Location that leaves the site, nor a 500", async ({ request }) => {
    for (const redirectTo of attacks) {
      const res = await request.post("/login", {
        form: { email: "player@footycoach.test", password: E2E.password, redirectTo },
        maxRedirects: 0,
      });
      expect(res.status(), JSON.stringify(redirectTo)).toBe(302);
      expect(res.headers()["location"], JSON.stringify(redirectTo)).toBe("/");
    }
    const ok = await request.post("/login", {
      form: { email: "player@footycoach.test", password: E2E.password, redirectTo: "/my-competitions?page=1" },
      maxRedirects: 0,
    });
    expect(ok.headers()["location"]).toBe("/my-competitions?page=1");
  });

  test("the login page with a tab-smuggled redirectTo lands on this site, with JavaScript", async ({ page }) => {
    await page.goto("/login?redirectTo=%2F%09%2Fevil.example%2Fphish");
    await page.getByLabel("Email").fill("player@footycoach.test");
    await page.getByLabel("Password").fill(E2E.password);
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(new URL(page.url()).origin).toBe(origin());
  });

  test("the inline profile form and competition forms refuse a foreign redirectTo", async ({ request }) => {
    const headers = await signedIn(request, "player@footycoach.test");
    const res = await request.post("/competitions", {
      form: { intent: "join", competitionId: "not-a-uuid", redirectTo: "/\t/evil.example" },
      headers,
      maxRedirects: 0,
    });
    expect(res.status()).toBe(302);
    expect(res.headers()["location"]).toMatch(/^\/competitions/);
  });
});

test("a malformed session cookie reads as signed out on every kind of page, never a 500", async ({ request }) => {
  const bad = ["7b1f3c2e-9f7a-4c55-8d0e-2f4b8a6c1d3e", "%E0%A4%A", "x.y.z", "a".repeat(4000)];
  for (const value of bad) {
    for (const path of ["/dashboard", "/login", "/terms", "/competitions?page=2"]) {
      const res = await request.get(path, { headers: { Cookie: `fc_session=${value}; fc_flash=${value}` }, maxRedirects: 0 });
      expect(res.status(), `${path} with ${value.slice(0, 20)}`).toBeLessThan(500);
      if (path === "/dashboard") expect(res.headers()["location"]).toContain("/login");
    }
  }
});

test("bodies that are not forms answer 400 on every action", async ({ request }) => {
  const headers = await signedIn(request, "admin@footycoach.test");
  const [competition] = await db()<
    { id: string }[]
  >`select id from public.competitions where type = 'knockout' order by created_at limit 1`;
  const actions = [
    "/login",
    "/signup",
    "/confirm-email",
    "/forgot-password",
    "/reset-password",
    "/setup-profile",
    "/profile",
    "/competitions",
    `/competition/${competition.id}`,
    `/select-team/${competition.id}`,
    "/admin/fixtures",
    "/api/consent",
  ];
  const bodies: [string, string][] = [
    ["application/json", '{"email":"player@footycoach.test","password":"footycoach"}'],
    ["multipart/form-data", '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'],
    ["multipart/form-data; boundary=x", '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1'],
    ["text/plain", "intent=join"],
  ];
  for (const path of actions) {
    for (const [type, body] of bodies) {
      const res = await request.post(path, { headers: { ...headers, "Content-Type": type }, data: body, maxRedirects: 0 });
      expect(res.status(), `${path} ${type}`).toBe(400);
    }
  }
});

test("oversize page numbers go to the last page instead of a 500", async ({ request }) => {
  const headers = await signedIn(request, "player@footycoach.test");
  const [competition] = await db()<{ id: string; type: string }[]>`
    select c.id, c.type from public.competitions c
      join public.user_selections us on us.competition_id = c.id
      join public.profiles p on p.id = us.user_id and p.email = 'player@footycoach.test'
     where c.type = 'knockout' limit 1`;
  const [season] = await db()<{ id: string }[]>`select id from public.competitions where type = 'season' limit 1`;
  const huge = "99999999999999999999999";
  for (const path of [
    `/competitions?page=${huge}`,
    `/my-competitions?page=${huge}`,
    `/leaderboard/${competition.id}?page=${huge}`,
    `/season-leaderboard/${season.id}?page=${huge}`,
    `/competition/${competition.id}?playersPage=${huge}`,
    "/competitions?page=-5",
    "/competitions?page=1e400",
  ]) {
    const res = await request.get(path, { headers, maxRedirects: 0 });
    expect(res.status(), path).toBeLessThan(400);
  }
});

test("impossible dates are refused with the form's message, not stored shifted", async ({ request }) => {
  const headers = await signedIn(request, "admin@footycoach.test");
  for (const startDate of ["2027-02-30", "2027-13-45", "0000-01-01"]) {
    const name = `Bad date ${startDate} ${Date.now()}`;
    const res = await request.post("/competitions", {
      form: {
        intent: "create-private",
        _js: "1",
        name,
        type: "knockout",
        league: LEAGUE,
        season: SEASON,
        startDate,
        startMatchDay: "38",
        redirectTo: "/competitions",
      },
      headers,
      maxRedirects: 0,
    });
    expect(res.status(), startDate).toBe(400);
    expect(await res.text()).toContain("Please enter a valid start date.");
    expect((await db()`select 1 from public.competitions where name = ${name}`).length).toBe(0);
  }
});

test("an impossible date of birth is refused on profile setup", async ({ request }) => {
  const email = uniqueEmail("dob");
  const signup = await signUpHttp(request, email);
  const cookie = signup.headersArray().find((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith("fc_session="))!;
  const headers = { Cookie: cookie.value.split(";")[0], Origin: origin() };
  for (const dateOfBirth of ["2000-02-30", "0000-01-01", "1990-13-01"]) {
    const res = await request.post("/setup-profile", {
      form: { username: `dob${Date.now().toString(36)}`, dateOfBirth, gender: "male", timeZone: "UTC" },
      headers,
      maxRedirects: 0,
    });
    expect(res.status(), dateOfBirth).toBe(400);
    expect(await res.text()).toContain("Please enter a valid date of birth.");
  }
  expect((await db()`select 1 from public.profiles p join account.accounts a on a.id = p.id where a.email = ${email}`).length).toBe(0);
});

test("the admin panel refuses a result for a match not yet played, and nobody is processed", async ({ page }) => {
  const [future] = await db()<{ id: string; league: string; season: string; match_day: number; home_team: string }[]>`
    select id::text, league, season, match_day, home_team from public.fixtures
     where kickoff_time > now() + interval '1 day' and status = 'pending' order by kickoff_time limit 1`;
  await page.goto("/login");
  await page.getByLabel("Email").fill("admin@footycoach.test");
  await page.getByLabel("Password").fill(E2E.password);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  const form = { intent: "save-result", fixtureId: future.id, homeScore: "2", awayScore: "1" };
  const res = await page.request.post("/admin/fixtures", { form, headers: { Origin: origin() }, maxRedirects: 0 });
  expect(res.status()).toBe(400);
  // The action's answer (single-fetch data, as the page receives it with JavaScript) carries the reason.
  const data = await page.request.post("/admin/fixtures.data", { form, headers: { Origin: origin() }, maxRedirects: 0 });
  expect(await data.text()).toContain("A result can be entered only after kickoff.");
  const [f] = await db()`select status, home_score from public.fixtures where id = ${future.id}`;
  expect(f).toEqual({ status: "pending", home_score: null });
});
