import type { Page } from "@playwright/test";
import { createCompetition as insertCompetition } from "../support/factories";
import { db, expect, removeAfterTest, test, uniqueName } from "./fixtures";
import { E2E } from "./env";

/*
 * Competitions list (filters, paging, URL state), joining public and private competitions (with and without
 * JavaScript), private competition creation with its key, and My Competitions' defaults and empty texts.
 * Every test that changes state arranges its own competitions, so tests and projects can run in parallel;
 * they are removed when the test ends (fixtures.ts removeAfterTest), created through the pages or not.
 */

interface NewCompetition {
  name: string;
  type?: "knockout" | "season";
  league?: string;
  season?: string;
  /** Default today. The list shows open competitions by registration deadline, then start date: with the
   * soonest deadline (the default start match day) and today, the earliest a new competition can start, it is on
   * page 1 with only the running tests' competitions around. */
  startDate?: string;
  startMatchDay?: number;
  registrationStatus?: "open" | "closed" | "completed";
  visibility?: "public" | "private";
  status?: "active" | "inactive";
}

/** The first Premier League 2025/26 match day whose selection deadline is still ahead. */
async function upcomingMatchDay(): Promise<number> {
  const [row] = await db()`
    select match_day from public.matchdays
     where league = 'Premier League' and season = '2025/26' and first_kickoff_time > now() + interval '2 hours'
     order by match_day limit 1`;
  return row.match_day as number;
}

async function createCompetition(c: NewCompetition): Promise<{ id: string; key: string | null }> {
  const md = c.startMatchDay ?? (await upcomingMatchDay());
  const row = await insertCompetition(db(), {
    name: c.name,
    type: c.type ?? "knockout",
    league: c.league ?? "Premier League",
    season: c.season ?? "2025/26",
    startDate: c.startDate ?? "today",
    startMatchDay: md,
    registrationStatus: c.registrationStatus ?? "open",
    visibility: c.visibility ?? "public",
    status: c.status ?? "active",
  });
  removeAfterTest(row);
  return { id: row.id, key: row.registrationKey };
}

function card(page: Page, name: string) {
  return page.getByRole("article", { name });
}

test("browse, filter and page through competitions; filters live in the URL", async ({ page, loginAs }) => {
  await loginAs("player");
  // A combination no other test uses: World Cup, closed registration, one season per project.
  const season = test.info().project.name === "mobile" ? "2024/25" : "2025";
  const prefix = uniqueName("wc");
  await db()`delete from public.competitions where league = 'World Cup' and season = ${season}`;
  for (let i = 0; i < 11; i++) {
    await createCompetition({
      name: `${prefix} ${String(i).padStart(2, "0")}`,
      league: "World Cup",
      season,
      type: i % 2 === 0 ? "knockout" : "season",
      startDate: `2030-01-${String(i + 1).padStart(2, "0")}`,
      startMatchDay: 1,
      registrationStatus: "closed",
    });
  }
  // Scout competitions are never listed: this one starts today, before the others, so it would be first.
  await createCompetition({ name: `${prefix} scout`, league: "World Cup", season, startMatchDay: 1, registrationStatus: "closed" }).then(
    ({ id }) => db()`update public.competitions set type = 'scout' where id = ${id}`,
  );

  await page.goto("/competitions");
  await expect(page.getByRole("heading", { name: "Competitions", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Registration Status")).toHaveValue("open");

  await page.getByLabel("League").selectOption("World Cup");
  await expect(page).toHaveURL(/league=World\+Cup/);
  await page.getByLabel("Season").selectOption(season);
  await page.getByLabel("Registration Status").selectOption("closed");
  await expect(page).toHaveURL(/registration=closed/);

  await expect(page.getByText("Page 1 of 2")).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(9);
  // No World Cup fixtures, so no deadlines (TBA): ordered by start date; the scout one never shows.
  await expect(page.getByRole("article").first()).toContainText(`${prefix} 00`);
  await expect(page.getByText(`${prefix} scout`)).toHaveCount(0);
  const first = card(page, `${prefix} 00`);
  await expect(first.getByText("Knockout")).toBeVisible();
  await expect(first.getByText("World Cup")).toBeVisible();
  await expect(first.getByText("0 Players")).toBeVisible();
  await expect(first.getByText("Until registration closes")).toBeVisible();
  await expect(first.getByRole("button", { name: "Register" })).toBeDisabled();
  await expect(first.getByRole("link", { name: "View Competition" })).toHaveAttribute("href", /\/competition\/[0-9a-f-]{36}$/);

  await page.getByRole("link", { name: "Next" }).click();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByRole("article")).toHaveCount(2);
  await expect(card(page, `${prefix} 10`)).toBeVisible();

  // Reload keeps filters and page.
  await page.reload();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect(page.getByLabel("League")).toHaveValue("World Cup");
  await expect(page.getByLabel("Season")).toHaveValue(season);

  // Type filter: 6 knockouts on one page, no pager.
  await page.getByLabel("Type").selectOption("knockout");
  await expect(page.getByRole("article")).toHaveCount(6);
  await expect(page.getByText(/Page \d+ of/)).toHaveCount(0);
  await expect(page).not.toHaveURL(/page=2/);

  await page.getByLabel("Visibility").selectOption("private");
  await expect(page.getByText("No competitions match your filters.")).toBeVisible();

  await page.getByRole("link", { name: "Reset" }).click();
  await expect(page).toHaveURL(/\/competitions$/);
  await expect(page.getByLabel("Registration Status")).toHaveValue("open");
  await expect(page.getByLabel("League")).toHaveValue("");
  await expect(page.getByLabel("Visibility")).toHaveValue("");
});

test("the list puts the soonest registration deadline first, before the start date", async ({ page, loginAs }) => {
  await loginAs("player");
  const md = await upcomingMatchDay();
  const later = uniqueName("Later deadline ");
  const sooner = uniqueName("Sooner deadline ");
  // Starts today but registers until the next match day's deadline; the other starts years later but closes first.
  await createCompetition({ name: later, type: "season", visibility: "private", startMatchDay: md + 1 });
  await createCompetition({ name: sooner, type: "season", visibility: "private", startMatchDay: md, startDate: "2030-06-01" });
  await page.goto("/competitions?type=season&visibility=private");
  await expect(card(page, later)).toBeVisible();
  const texts = await page.getByRole("article").allTextContents();
  const at = (name: string) => texts.findIndex((text) => text.includes(name));
  expect(at(sooner)).toBeGreaterThanOrEqual(0);
  expect(at(sooner)).toBeLessThan(at(later));
});

test("join a public competition: toast, Joined and the player count", async ({ page, loginAs }) => {
  await loginAs("player");
  const name = uniqueName("Public ");
  await createCompetition({ name });
  await page.goto("/competitions");
  const c = card(page, name);
  await expect(c.getByText("0 Players")).toBeVisible();
  await expect(c.getByText("TBA")).toHaveCount(0);
  await c.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("Successfully joined competition!")).toBeVisible();
  await expect(c.getByRole("button", { name: "Joined" })).toBeDisabled();
  // After joining, the next step is picking a team.
  await expect(c.getByRole("link", { name: "Select Team" })).toHaveAttribute("href", /\/select-team\//);
  await expect(c.getByText("1 Player", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/competitions$/);
});

test("join a private competition: a wrong key keeps the dialog open, the right key joins", async ({ page, loginAs }) => {
  // Analytics consent granted: the join events reach the (stubbed) analytics layer.
  await page.route(`${new URL(E2E.analyticsScriptUrl).origin}/**`, (route) =>
    route.fulfill({ contentType: "text/javascript", body: "/* analytics stub */" }),
  );
  await loginAs("player");
  const name = uniqueName("Private ");
  const { key } = await createCompetition({ name, visibility: "private" });
  await page.goto("/competitions?visibility=private");
  const banner = page.getByRole("region", { name: "Analytics consent" });
  await banner.getByRole("button", { name: "Accept" }).click();
  await expect(banner).toBeHidden();
  const layer = () => page.evaluate(() => JSON.stringify((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []));
  const c = card(page, name);
  await expect(c.getByText("Private", { exact: true })).toBeAttached();
  await c.getByRole("button", { name: "Register" }).click();
  const dialog = page.getByRole("dialog", { name: "Enter Registration Key" });
  await expect(dialog).toBeVisible();
  // Opened without navigation.
  await expect(page).toHaveURL(/\/competitions\?visibility=private$/);
  await expect(dialog.getByLabel("Registration Key")).toBeFocused();

  await dialog.getByLabel("Registration Key").fill("WRONGKEY");
  await dialog.getByRole("button", { name: "Join" }).click();
  await expect(dialog.getByText("Invalid registration key. Please check and try again.")).toBeVisible();
  await expect(dialog).toBeVisible();

  await dialog.getByLabel("Registration Key").fill(`  ${key}  `);
  await dialog.getByRole("button", { name: "Join" }).click();
  await expect(page.getByText("Successfully joined competition!")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(c.getByRole("button", { name: "Joined" })).toBeDisabled();
  const events = await layer();
  expect(events.match(/private_join_attempt/g)?.length).toBe(2);
  expect(events.match(/private_join_success/g)?.length).toBe(1);
  expect(events.match(/competition_register/g)?.length).toBe(1);

  // Cancel and Escape close the dialog.
  const other = uniqueName("Private ");
  await createCompetition({ name: other, visibility: "private" });
  await page.reload();
  await card(page, other).getByRole("button", { name: "Register" }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await card(page, other).getByRole("button", { name: "Register" }).click();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
});

test("create a private competition and copy its registration key", async ({ page, context, loginAs }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const me = await loginAs("player");
  const md = await upcomingMatchDay();
  await page.goto("/competitions");
  await page.getByRole("button", { name: "+ Private Competition" }).click();
  const dialog = page.getByRole("dialog", { name: "Create Private Competition" });
  await expect(dialog).toBeVisible();
  // Every player chooses (decision 028); the form starts on a knockout in the first league with a coming match day.
  await expect(dialog.getByLabel("Type")).toBeEnabled();
  await expect(dialog.getByLabel("Type")).toHaveValue("knockout");
  await expect(dialog.getByLabel("League")).toHaveValue("Premier League");
  await expect(dialog.getByLabel("Season")).toHaveValue("2025/26");

  const name = uniqueName("Mates ");
  removeAfterTest({ name });
  await dialog.getByLabel("Competition Name").fill(name);
  await dialog.getByLabel("Start Match Day").fill("1x");
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(dialog.getByText("Start Match Day must be a positive whole number.")).toBeVisible();

  await dialog.getByLabel("Start Match Day").fill(String(md));
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Private competition created successfully!")).toBeVisible();
  const created = page.getByRole("dialog", { name: "Private Competition Created" });
  const key = created.getByTestId("registration-key");
  await expect(key).toHaveText(/^[A-HJ-NP-Z2-9]{8}$/);
  const shown = (await key.textContent())!;

  const [row] = await db()`select registration_key, type, league, season, visibility from public.competitions where name = ${name}`;
  expect(row).toMatchObject({
    registration_key: shown,
    type: "knockout",
    league: "Premier League",
    season: "2025/26",
    visibility: "private",
  });
  // The creator is its first member, without typing the key (created with the competition).
  const [{ id: createdId }] = await db()`select id from public.competitions where name = ${name}`;
  const members = await db()`
    select p.username from public.user_selections us join public.profiles p on p.id = us.user_id where us.competition_id = ${createdId}`;
  expect(members).toEqual([{ username: me.username }]);

  await created.getByRole("button", { name: "Copy registration key" }).click();
  await expect(created.getByText("Copied!")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
  await expect(created.getByText("Copied!")).toBeHidden({ timeout: 3000 });

  // The same name again is refused with the spec's message.
  await created.getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: "+ Private Competition" }).click();
  await dialog.getByLabel("Competition Name").fill(name);
  await dialog.getByLabel("Start Match Day").fill(String(md));
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(dialog.getByText("A competition with this name and type already exists.")).toBeVisible();

  // Its page shows the creator registered: 1 player, Unregister and Select Team instead of a key field.
  await page.goto(`/competition/${createdId}`);
  await expect(page.getByRole("region", { name: "Registered Players" })).toContainText(me.username);
  await expect(page.getByLabel("Registration Key")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Unregister" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Select Team" })).toBeVisible();
});

test("My Competitions: default filter, empty texts and a joined competition", async ({ page, loginAs }) => {
  await loginAs("player");
  await page.goto("/my-competitions");
  await expect(page.getByRole("heading", { name: "My Competitions", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Competition Status")).toHaveValue("active");
  await expect(page.getByLabel("User Status")).toHaveValue("");
  await expect(
    page.getByText("You have no active competitions. Go to the competitions section now to keep up with the game."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "View Competitions" })).toHaveAttribute("href", "/competitions");

  const name = uniqueName("Mine ");
  await createCompetition({ name });
  await page.goto("/competitions");
  await card(page, name).getByRole("button", { name: "Register" }).click();
  await expect(card(page, name).getByRole("button", { name: "Joined" })).toBeVisible();

  await page.goto("/my-competitions");
  const mine = card(page, name);
  await expect(mine).toBeVisible();
  await expect(mine.getByText("Premier League")).toBeVisible();
  await expect(mine.getByText("2025/26")).toBeVisible();
  await expect(mine.getByRole("link", { name: "Select Team" })).toHaveAttribute("href", /\/select-team\//);
  await expect(mine.getByRole("link", { name: "View Competition" })).toBeVisible();

  await page.getByLabel("User Status").selectOption("eliminated");
  await expect(page.getByText("You have not joined any competitions matching these filters.")).toBeVisible();
  await expect(page).toHaveURL(/status=eliminated/);

  await page.getByRole("link", { name: "Reset" }).click();
  await expect(page.getByLabel("User Status")).toHaveValue("active");
  await expect(page.getByLabel("Competition Status")).toHaveValue("");
  await expect(mine).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("join public and private competitions with plain forms", async ({ page, loginAs }) => {
    await loginAs("player");
    const publicName = uniqueName("NoJs ");
    await createCompetition({ name: publicName });
    await page.goto("/competitions?type=knockout");
    await card(page, publicName).getByRole("button", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/competitions\?type=knockout$/);
    await expect(page.getByText("Successfully joined competition!")).toBeVisible();
    await expect(card(page, publicName).getByRole("button", { name: "Joined" })).toBeDisabled();

    const privateName = uniqueName("NoJsPriv ");
    const { key } = await createCompetition({ name: privateName, visibility: "private" });
    await page.goto("/competitions?visibility=private");
    await card(page, privateName).getByRole("button", { name: "Register" }).click();
    await expect(page).toHaveURL(/join=/);
    const dialog = page.getByRole("dialog", { name: "Enter Registration Key" });
    await dialog.getByLabel("Registration Key").fill("NOTTHEKEY");
    await dialog.getByRole("button", { name: "Join" }).click();
    await expect(dialog.getByText("Invalid registration key. Please check and try again.")).toBeVisible();
    await dialog.getByLabel("Registration Key").fill(key!);
    await dialog.getByRole("button", { name: "Join" }).click();
    await expect(page.getByText("Successfully joined competition!")).toBeVisible();
    await expect(page).toHaveURL(/\/competitions\?visibility=private$/);
    await expect(dialog).toHaveCount(0);
    await expect(card(page, privateName).getByRole("button", { name: "Joined" })).toBeDisabled();
  });

  test("create a private competition with plain forms: the key is shown to its creator", async ({ page, loginAs }) => {
    await loginAs("player");
    const md = await upcomingMatchDay();
    await page.goto("/competitions");
    await page.getByRole("button", { name: "+ Private Competition" }).click();
    await expect(page).toHaveURL(/create=1/);
    const dialog = page.getByRole("dialog", { name: "Create Private Competition" });
    const name = uniqueName("NoJsMates ");
    removeAfterTest({ name });
    await dialog.getByLabel("Competition Name").fill(name);
    await dialog.getByLabel("Start Match Day").fill("0");
    await dialog.getByRole("button", { name: "Create" }).click();
    // A validation message comes back as an info toast with the form open again.
    await expect(page.getByText("Start Match Day must be a positive whole number.")).toBeVisible();
    await expect(dialog).toBeVisible();

    await dialog.getByLabel("Competition Name").fill(name);
    await dialog.getByLabel("Start Match Day").fill(String(md));
    await dialog.getByRole("button", { name: "Create" }).click();
    await expect(page).toHaveURL(/\/competitions\?created=[0-9a-f-]{36}$/);
    await expect(page.getByText("Private competition created successfully!")).toBeVisible();
    const [row] = await db()`select registration_key from public.competitions where name = ${name}`;
    await expect(page.getByTestId("registration-key")).toHaveText(row.registration_key as string);
  });
});

test("admins choose the type, league and season of a private competition", async ({ page, loginAs }) => {
  await loginAs("admin");
  const md = await upcomingMatchDay();
  await page.goto("/competitions");
  await page.getByRole("button", { name: "+ Private Competition" }).click();
  const dialog = page.getByRole("dialog", { name: "Create Private Competition" });
  await expect(dialog.getByLabel("Type")).toBeEnabled();
  // Any league with a coming match day (public.creation_match_days): the demo data has Premier League 2025/26 only.
  await expect(dialog.getByLabel("League").locator("option")).toHaveText(["Premier League"]);
  await expect(dialog.getByLabel("Season").locator("option")).toHaveText(["2025/26"]);
  const name = uniqueName("AdminSeason ");
  removeAfterTest({ name });
  await dialog.getByLabel("Competition Name").fill(name);
  await dialog.getByLabel("Type").selectOption("season");
  await dialog.getByLabel("Start Match Day").fill(String(md));
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Private competition created successfully!")).toBeVisible();
  const [row] = await db()`select type, visibility, registration_status from public.competitions where name = ${name}`;
  expect(row).toMatchObject({ type: "season", visibility: "private", registration_status: "open" });
});
