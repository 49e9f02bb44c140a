import type { Page } from "@playwright/test";
import { addPick } from "../support/factories";
import { arrangeCompetition, fixturesOf, type CompetitionToArrange } from "./arrange";
import { db, expect, setClock, test, uniqueName } from "./fixtures";

/** A fresh competition on the demo league's current match day, arranged directly in the database. */
function dashCompetition(type: "knockout" | "season", members: string[] = [], opts: Partial<CompetitionToArrange> = {}) {
  return arrangeCompetition({ namePrefix: `Dash ${type} `, type, members, ...opts });
}

function statements(serverTiming: string | undefined): number {
  return Number(/db;desc="statements";dur=(\d+)/.exec(serverTiming ?? "")?.[1]);
}

/** One markup at every width: a table row, shown as a card on phones (decision 023, addendum). */
function registeredRow(page: Page, name: string) {
  return page.getByRole("row").filter({ hasText: name });
}

test("upcoming competitions show a countdown and player count", async ({ page, loginAs }) => {
  await loginAs("player");
  // Starting today, as a competition created today does: open competitions are listed by deadline, then start date.
  const { name } = await dashCompetition("knockout", [], { startDate: "today" });
  await page.goto("/dashboard");
  const upcoming = page.getByRole("list", { name: "Upcoming competitions" });
  const card = upcoming.getByRole("listitem").filter({ hasText: name });
  await expect(card).toBeVisible();
  await expect(card.getByText("Until registration closes")).toBeVisible();
  // One countdown format everywhere: "2d 18h", "5h 12m", "45m".
  await expect(card.locator(".countdown-value")).toHaveText(/^(\d+d \d+h|\d+h \d+m|\d+m)$/);
  await expect(card.getByText("0 Players")).toBeVisible();

  // Join is on the card (a plain form, the competitions page's join action); then Select Team is the next step.
  await card.getByRole("button", { name: "Join" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(card.getByRole("link", { name: "Select Team" })).toHaveAttribute("href", /\/select-team\//);
});

test("Scout competitions are never listed among the upcoming ones", async ({ page, loginAs }) => {
  await loginAs("player");
  // A Scout and a knockout arranged alike, starting today on the current match day (registration open, and
  // the earliest start a new competition can have), the Scout's name sorting just before the knockout's:
  // were Scouts not left out, the Scout would be listed wherever the knockout is.
  const tag = uniqueName("Dash ");
  const arranged = { startDate: "today", registrationStatus: "open", status: "active" } as const;
  const scout = await arrangeCompetition({ ...arranged, name: `${tag} 1 scout`, type: "scout" });
  const knockout = await arrangeCompetition({ ...arranged, name: `${tag} 2 knockout`, type: "knockout" });
  await page.goto("/dashboard");
  const upcoming = page.getByRole("list", { name: "Upcoming competitions" });
  await expect(upcoming.getByRole("listitem").filter({ hasText: knockout.name })).toBeVisible();
  await expect(upcoming.getByText(scout.name)).toHaveCount(0);
  await expect(upcoming.getByText("The Scout: Premier League")).toHaveCount(0);
});

test("registered competitions: select, edit, selection closed and eliminated", async ({ page, isMobile, context, loginAs }) => {
  const { id: me } = await loginAs("player");
  const ko = await dashCompetition("knockout", [me]);
  const season = await dashCompetition("season", [me]);

  await page.goto("/dashboard");
  const koRow = registeredRow(page, ko.name);
  await expect(koRow.getByRole("link", { name: "Select Team" })).toHaveAttribute("href", `/select-team/${ko.id}`);
  // The time left to pick and what a missed pick means, where the pick is made.
  await expect(koRow.getByText("Until team selection closes")).toBeVisible();
  await expect(koRow.getByText("No pick means you are eliminated.")).toBeVisible();
  await expect(registeredRow(page, season.name).getByText("No pick scores 0 points.")).toBeVisible();
  if (!isMobile) {
    // Knockout rows show dashes for rank, GF, GA and points.
    // The status column shows on desktop too, in the standings' words.
    await expect(koRow.getByRole("cell")).toHaveText(["Knockout", "Still In", "–", "0", "0", "0", "–", "–", "–", /^Select Team/]);
    const seasonRow = registeredRow(page, season.name);
    await expect(seasonRow.getByRole("cell").nth(1)).toHaveText("Active");
    await expect(seasonRow.getByRole("cell").nth(2)).toHaveText("1st");
  }

  // With a pick the action reads Edit Team and the current selection shows on mobile cards.
  const [fixture] = await fixturesOf(ko.matchDay);
  await addPick(db(), { userId: me, competitionId: ko.id, matchDay: ko.matchDay, team: fixture.home_team });
  await page.reload();
  await expect(koRow.getByRole("link", { name: "Edit Team" })).toBeVisible();
  if (isMobile) await expect(koRow.getByText(fixture.home_team)).toBeVisible();

  // An hour before the first kickoff selection closes (the app's clock moves, the page follows the server).
  await setClock(context, new Date(ko.firstKickoff.getTime() - 30 * 60_000));
  await page.reload();
  await expect(koRow.getByText("Selection Closed")).toBeVisible();
  await expect(koRow.getByRole("link", { name: /Team/ })).toHaveCount(0);
  // The season row had no pick: it says what that means.
  await expect(registeredRow(page, season.name).getByText(/no pick for Match Day \d+: it scores 0 points/)).toBeVisible();

  await db()`update user_selections set status = 'eliminated', knocked_out_on = ${ko.matchDay - 1}
              where user_id = ${me} and competition_id = ${season.id}`;
  await page.reload();
  // Eliminated shows as the status and as the badge that replaces Select Team.
  await expect(registeredRow(page, season.name).getByText("Eliminated").first()).toBeVisible();
});

test("the dashboard loader's database work does not grow with the number of competitions", async ({ page, loginAs }) => {
  const { id: me } = await loginAs("player");
  await dashCompetition("season", [me]);
  const few = statements((await page.request.get("/dashboard")).headers()["server-timing"]);
  for (let i = 0; i < 12; i++) await dashCompetition(i % 2 ? "season" : "knockout", [me]);
  const res = await page.request.get("/dashboard");
  expect(res.status()).toBe(200);
  const many = statements(res.headers()["server-timing"]);
  console.log(`dashboard statements: ${few} with 1 competition, ${many} with 13`);
  expect(many).toBe(few);
  // Session lookup + BEGIN + one pipelined batch (claims, 3 queries, the live match day's lines (decision 022), the
  // create form's leagues and match days (decision 028), the app shell's unread notices and newest release note) + COMMIT.
  expect(many).toBeLessThanOrEqual(11);
});

test("your private competitions: key with copy, invite links and the creation modal", async ({ page, context, loginAs }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await loginAs({ email: "player@footycoach.test" });
  await page.goto("/dashboard");
  const section = page.getByRole("region", { name: "Your Private Competitions" });
  const list = section.getByRole("row");
  const scope = list.filter({ hasText: "DemoPlayer's Mates" });
  await expect(scope.getByText("MATES234")).toBeVisible();
  await expect(scope.getByRole("link", { name: /by WhatsApp/ }).first()).toHaveAttribute("href", /wa\.me\/\?text=.*MATES234/);
  await scope
    .getByRole("button", { name: /Copy registration key of DemoPlayer's Mates/ })
    .first()
    .click();
  await expect(scope.getByText("Copied!").first()).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("MATES234");
  await expect(
    section.getByRole("link", { name: "+ Private Competition" }).or(section.getByRole("button", { name: "+ Private Competition" })),
  ).toBeVisible();
});
