import type { Page } from "@playwright/test";
import { db, expect, logIn, newPlayer, test, uniqueName } from "./fixtures";

const ADMIN = "admin@footycoach.test";

async function asAdmin(page: Page, path: string) {
  await logIn(page, ADMIN);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: "Admin Panel" })).toBeVisible();
}

function isoDate(days: number) {
  return new Date(Date.now() + days * 86400_000).toISOString().slice(0, 10);
}

test("a player is refused by the page and by the action", async ({ page }) => {
  await newPlayer(page);
  await page.goto("/admin/release-notes");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Access denied. Admins only.")).toBeVisible();

  // A crafted POST gets the same answer (redirect to / with the toast), and writes nothing.
  const version = uniqueName("v");
  const res = await page.request.post("/admin/release-notes", {
    form: { intent: "create-note", version, title: "Nope", content: "Nope" },
    headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
    maxRedirects: 0,
  });
  expect([302, 303]).toContain(res.status());
  expect(res.headers()["location"]).toBe("/");
  const rows = await db()`select 1 from public.release_notes where version = ${version}`;
  expect(rows).toHaveLength(0);

  const template = await page.request.get("/admin/fixtures-template.csv", { maxRedirects: 0 });
  expect(template.status()).toBe(302);
});

test("an admin enters a match day's results; saved results lock until Edit", async ({ page, isMobile }) => {
  // A league/season/match day of this test only (desktop and mobile run in parallel).
  const league = isMobile ? "Ligue 1" : "MLS";
  const season = "2025";
  const md = 20 + Math.floor(Math.random() * 18);
  const tag = uniqueName("");
  const teams = { h1: `Home ${tag}`, a1: `Away ${tag}`, h2: `Host ${tag}`, a2: `Guest ${tag}` };
  // Played two days ago: a result can be entered only after kickoff.
  const kickoff = new Date(Date.now() - 2 * 86400_000);
  await db()`delete from public.fixtures where league = ${league} and season = ${season} and match_day = ${md}`;
  const [f1, f2] = await db()<{ id: string }[]>`
    insert into public.fixtures (league, season, match_day, home_team, away_team, kickoff_time)
    values (${league}, ${season}, ${md}, ${teams.h1}, ${teams.a1}, ${kickoff}),
           (${league}, ${season}, ${md}, ${teams.h2}, ${teams.a2}, ${new Date(kickoff.getTime() + 3600_000)})
    returning id::text`;

  await asAdmin(page, "/admin/fixtures");
  await page.getByLabel("League").selectOption(league);
  await page.getByLabel("Season").selectOption(season);
  await page.getByLabel("Match Day").selectOption(String(md));
  await page.getByRole("button", { name: "Show Fixtures" }).click();
  await expect(page.getByText(`${league} ${season}, Match Day ${md}`)).toBeVisible();

  const row1 = page.getByTestId(`fixture-${f1.id}`);
  const home1 = row1.getByLabel(`${teams.h1} score`);
  const away1 = row1.getByLabel(`${teams.a1} score`);
  await expect(home1).toHaveAttribute("inputmode", "numeric");
  await home1.fill("2");
  await away1.fill("1");
  await row1.getByRole("button", { name: /^Save/ }).click();
  await expect(page.getByText("Result saved.")).toBeVisible();
  await expect(home1).toHaveValue("2");
  await expect(home1).toHaveAttribute("readonly", "");
  await expect(away1).toHaveAttribute("readonly", "");
  await expect(row1.getByRole("button", { name: /^Save/ })).toHaveCount(0);
  let [saved] = await db()<{ status: string; result: string }[]>`select status, result from public.fixtures where id = ${f1.id}`;
  expect(saved).toEqual({ status: "complete", result: "home_win" });

  // Edit unlocks; a correction needs its reason; it is saved and locks again.
  await row1.getByRole("link", { name: /^Edit/ }).click();
  await expect(home1).not.toHaveAttribute("readonly", "");
  await home1.fill("1");
  await row1.getByLabel("Reason").fill("Typed the wrong score");
  await row1.getByRole("button", { name: /^Save/ }).click();
  await expect(home1).toHaveAttribute("readonly", "");
  await expect(home1).toHaveValue("1");
  [saved] = await db()<{ status: string; result: string }[]>`select status, result from public.fixtures where id = ${f1.id}`;
  expect(saved).toEqual({ status: "complete", result: "draw" });

  // Postpone and undo.
  const row2 = page.getByTestId(`fixture-${f2.id}`);
  await row2.getByRole("button", { name: "Postpone" }).click();
  await expect(row2.getByText("Postponed", { exact: true })).toBeVisible();
  await expect(row2.getByLabel(`${teams.h2} score`)).toBeDisabled();
  await row2.getByRole("button", { name: "Undo postpone" }).click();
  await expect(row2.getByText("Pending", { exact: true })).toBeVisible();

  // The server re-checks the bounds (a crafted request past the browser's min/max): 400 with the message.
  const crafted = await page.request.post("/admin/fixtures", {
    form: { intent: "save-result", fixtureId: f2.id, homeScore: "31", awayScore: "0" },
    headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
    maxRedirects: 0,
  });
  expect(crafted.status()).toBe(400);
  expect(await crafted.text()).toContain("Scores must be whole numbers from 0 to 30.");
  const [untouched] = await db()<{ status: string }[]>`select status from public.fixtures where id = ${f2.id}`;
  expect(untouched.status).toBe("pending");

  // Without a match day in the URL the first one with a pending fixture is shown (only this test uses the league).
  await page.goto(`/admin/fixtures?league=${encodeURIComponent(league)}&season=${season}`);
  await expect(page.getByText(`${league} ${season}, Match Day ${md}`)).toBeVisible();

  // Team filter and its empty text.
  await page.getByLabel("Team").fill(teams.h2);
  await page.getByRole("button", { name: "Show Fixtures" }).click();
  await expect(page.getByTestId(`fixture-${f2.id}`)).toBeVisible();
  await expect(page.getByTestId(`fixture-${f1.id}`)).toHaveCount(0);
  await page.getByLabel("Team").fill("Nobody FC");
  await page.getByRole("button", { name: "Show Fixtures" }).click();
  await expect(page.getByText("No fixtures available for Nobody FC.")).toBeVisible();
});

function fixturesCsv(league: string) {
  return [
    "id,league,season,match_day,home_team,away_team,kickoff_time,status,home_score,away_score",
    `,${league},2025/26,1,Alpha,Beta,2025-08-16T14:00:00Z,,,`, // 2 ok (status defaults to pending)
    `,${league},2025/26,1,Gamma,Gamma,2025-08-16T14:00:00Z,pending,,`, // 3 same team twice
    `,${league},2025/26,1,Delta,Epsilon,2025-08-16T16:30:00Z,complete,2,1`, // 4 ok
    `999999999,${league},2025/26,1,Zeta,Eta,2025-08-16T16:30:00Z,pending,,`, // 5 unknown id (refused by the server)
  ].join("\n");
}

test("CSV upload previews rows, imports good ones and lists the failed lines", async ({ page }) => {
  const league = uniqueName("CSV League ");
  await asAdmin(page, "/admin/upload");
  await expect(page.getByRole("link", { name: "Download template CSV" })).toHaveAttribute("href", "/admin/fixtures-template.csv");

  // A broken file is refused in the preview.
  await page.getByLabel("CSV file").setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("league,season\nX,Y\n") });
  await expect(page.getByText(/^CSV parse error: missing required columns/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Import" })).toBeDisabled();

  await page.getByLabel("CSV file").setInputFiles({ name: "fixtures.csv", mimeType: "text/csv", buffer: Buffer.from(fixturesCsv(league)) });
  await expect(page.getByText("3 rows ready, 1 with errors.")).toBeVisible();
  await expect(page.getByText("home_team and away_team must be different teams.")).toBeVisible();
  await page.getByRole("button", { name: "Import" }).click();

  const summary = page.getByTestId("upload-summary");
  await expect(summary).toHaveText("Upload complete: 2 succeeded, 2 failed.");
  const failed = page.getByRole("list", { name: "Failed lines" });
  await expect(failed.getByRole("listitem")).toHaveText([
    "Line 3: home_team and away_team must be different teams.",
    "Line 5: No fixture with id 999999999.",
  ]);
  const rows = await db()<{ home_team: string; status: string; result: string | null }[]>`
    select home_team, status, result from public.fixtures where league = ${league} order by home_team`;
  expect(rows).toEqual([
    { home_team: "Alpha", status: "pending", result: null },
    { home_team: "Delta", status: "complete", result: "home_win" },
  ]);

  const template = await page.request.get("/admin/fixtures-template.csv");
  expect(template.headers()["content-type"]).toContain("text/csv");
  expect(await template.text()).toMatch(/^id,league,season,match_day,home_team,away_team,kickoff_time,status/);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the plain upload form still imports and reports", async ({ page }) => {
    const league = uniqueName("NoJS League ");
    await asAdmin(page, "/admin/upload");
    await page
      .getByLabel("CSV file")
      .setInputFiles({ name: "fixtures.csv", mimeType: "text/csv", buffer: Buffer.from(fixturesCsv(league)) });
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByTestId("upload-summary")).toHaveText("Upload complete: 2 succeeded, 2 failed.");
    await expect(page.getByText("Line 5: No fixture with id 999999999.")).toBeVisible();
  });
});

test("release notes: create, Markdown without raw HTML, publish, edit, delete", async ({ page }) => {
  const version = uniqueName("v");
  await asAdmin(page, "/admin/release-notes");

  await page.getByRole("button", { name: "Create Release Note" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Please fill in all required fields" }).first()).toBeVisible();

  await page.getByLabel("Version").fill(version);
  await page.getByLabel("Title").fill("Shiny things");
  await page.getByLabel("Content (Markdown)").fill("Some **bold** news.\n\n<script>window.__pwned = 1</script>\n");
  await page.getByRole("button", { name: "Create Release Note" }).click();
  await expect(page.getByText("Release note created!")).toBeVisible();

  const card = page.locator("li.release-note", { hasText: version });
  await expect(card.getByText("Draft", { exact: true })).toBeVisible();
  await expect(card.locator("strong")).toHaveText("bold");
  await expect(card.getByText("<script>window.__pwned = 1</script>")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  await card.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Release note published!")).toBeVisible();
  await expect(card.getByText("Published", { exact: true })).toBeVisible();
  await card.getByRole("button", { name: "Unpublish" }).click();
  await expect(page.getByText("Release note unpublished!")).toBeVisible();
  await expect(card.getByText("Draft", { exact: true })).toBeVisible();

  await card.getByRole("link", { name: `Edit release note ${version}` }).click();
  await expect(page.getByRole("heading", { name: `Edit Release Note ${version}` })).toBeVisible();
  await page.getByLabel("Title").fill("Shinier things");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Release note updated!")).toBeVisible();
  await expect(card).toContainText("Shinier things");

  await card.getByRole("link", { name: `Delete release note ${version}` }).click();
  const dialog = page.getByRole("dialog", { name: "Delete Release Note" });
  await expect(dialog).toContainText("Are you sure you want to delete this release note?");
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await card.getByRole("link", { name: `Delete release note ${version}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Release note deleted!")).toBeVisible();
  await expect(card).toHaveCount(0);
  expect(await db()`select 1 from public.release_notes where version = ${version}`).toHaveLength(0);
});

test("create competition: validation messages, then success", async ({ page }) => {
  const name = uniqueName("Admin Cup ");
  await asAdmin(page, "/admin/competitions");

  await page.getByRole("button", { name: "Create Competition" }).click();
  // Shown once: inline above the form, no toast beside it.
  await expect(page.getByRole("alert").filter({ hasText: "Please fill in all required fields." })).toHaveCount(1);
  await expect(page.locator(".toaster .toast")).toHaveCount(0);

  await page.getByLabel("Competition Name").fill(name);
  await page.getByLabel("Type").selectOption("season");
  await page.getByLabel("League").selectOption("Premier League");
  await page.getByLabel("Season").selectOption("2025/26");
  await page.getByLabel("Start Date").fill(isoDate(-3));
  await page.getByLabel("Start Match Day").fill("30");
  await page.getByRole("button", { name: "Create Competition" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Start date must be today or a future date." })).toHaveCount(1);
  await expect(page.getByText("Start date must be today or a future date.")).toHaveCount(1);

  // The form kept the values; fix the date and add a prize.
  await expect(page.getByLabel("Competition Name")).toHaveValue(name);
  await page.getByLabel("Start Date").fill(isoDate(3));
  await page.getByLabel("Prize (optional)").fill("A golden boot");
  await page.getByRole("button", { name: "Create Competition" }).click();
  await expect(page.getByText("Competition created successfully!")).toBeVisible();
  const [row] = await db()<{ type: string; visibility: string; prize: string; current_match_day: number; registration_status: string }[]>`
    select type, visibility, prize, current_match_day, registration_status from public.competitions where name = ${name}`;
  expect(row).toEqual({ type: "season", visibility: "public", prize: "A golden boot", current_match_day: 30, registration_status: "open" });
});

test("the old single-page URLs lead to the section pages; an unknown intent is refused", async ({ page }) => {
  await asAdmin(page, "/admin");
  await expect(page).toHaveURL(/\/admin\/fixtures$/);
  await expect(page.getByRole("heading", { level: 2, name: "Results" })).toBeVisible();

  // Each old ?section= URL answers with a redirect to its page, keeping the other query parameters.
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const noteId = "00000000-0000-4000-8000-000000000000";
  for (const [old, now] of [
    ["/admin/fixtures?section=create", "/admin/competitions"],
    ["/admin/fixtures?section=upload", "/admin/upload"],
    ["/admin/fixtures?section=notes", "/admin/release-notes"],
    [`/admin/fixtures?section=notes&editNote=${noteId}`, `/admin/release-notes?editNote=${noteId}`],
    ["/admin?section=create", "/admin/fixtures?section=create"],
  ]) {
    const res = await page.request.get(old, { maxRedirects: 0 });
    expect([301, 302], old).toContain(res.status());
    expect(res.headers()["location"], old).toBe(now);
  }

  // In the browser they open the section, marked as the current tab.
  const tabs = page.getByRole("navigation", { name: "Admin sections" });
  for (const [old, heading, tab] of [
    ["/admin/fixtures?section=create", "Create Competition", "Create Competition"],
    ["/admin/fixtures?section=upload", "CSV Fixtures Upload", "CSV Upload"],
    ["/admin/fixtures?section=notes", "Release Notes", "Release Notes"],
    ["/admin/fixtures?section=results&league=Serie%20A&season=2025%2F26&md=3", "Results", "Results"],
  ]) {
    await page.goto(old);
    await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
    await expect(tabs.getByRole("link", { name: tab })).toHaveAttribute("aria-current", "page");
  }
  await expect(page.getByText("Serie A 2025/26, Match Day 3")).toBeVisible();

  // The tabs link the new pages.
  await tabs.getByRole("link", { name: "CSV Upload" }).click();
  await expect(page).toHaveURL(/\/admin\/upload$/);
  await tabs.getByRole("link", { name: "Release Notes" }).click();
  await expect(page).toHaveURL(/\/admin\/release-notes$/);

  // Every section's action knows only its own intents: anything else is a 400, and nothing happens.
  for (const path of ["/admin/fixtures", "/admin/competitions", "/admin/upload", "/admin/release-notes"]) {
    const res = await page.request.post(path, { form: { intent: "drop-tables" }, headers: { Origin: origin }, maxRedirects: 0 });
    expect(res.status(), path).toBe(400);
  }
  const elsewhere = await page.request.post("/admin/competitions", {
    form: { intent: "create-note", version: uniqueName("v"), title: "Wrong page", content: "Wrong page" },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(elsewhere.status()).toBe(400);
  expect(await elsewhere.text()).toContain("Unknown action.");

  // A form of the old page still reaches its section: the post is handed on with its method (307).
  const moved = await page.request.post("/admin/fixtures?section=notes", {
    form: { intent: "create-note" },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(moved.status()).toBe(307);
  expect(moved.headers()["location"]).toBe("/admin/release-notes");
});
