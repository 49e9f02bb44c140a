import type { Browser, Page } from "@playwright/test";
import { addMember, addPick, createCompetition, createFixtures, createPlayer } from "../support/factories";
import { db, expect, removeAfterTest, signIn, test, uniqueName } from "./fixtures";

/**
 * The whole results engine through the real pages: an admin enters a match day's results; knockout players
 * who drew or lost are eliminated and see it; the leaderboard shows Match Day n; the season table updates;
 * the competitions end with their champions (and confetti on the season leaderboard).
 */

const SEASON = "2024/25";

function player(name: string) {
  return createPlayer(db(), { username: name, email: `${name.toLowerCase()}@flow.test`, timeZone: "Europe/London" });
}

async function enterResult(page: Page, fixtureId: string, home: string, away: string, homeScore: number, awayScore: number) {
  const row = page.getByTestId(`fixture-${fixtureId}`);
  await row.getByLabel(`${home} score`).fill(String(homeScore));
  await row.getByLabel(`${away} score`).fill(String(awayScore));
  await row.getByRole("button", { name: /^Save/ }).click();
  await expect(row.getByLabel(`${home} score`)).toHaveAttribute("readonly", "");
}

async function adminPage(browser: Browser, baseURL: string, league: string, matchDay: number) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(context, baseURL, "admin");
  await page.goto(`/admin/fixtures?league=${encodeURIComponent(league)}&season=${encodeURIComponent(SEASON)}&md=${matchDay}`);
  await page.getByLabel("Match Day").selectOption(String(matchDay));
  await page.getByRole("button", { name: "Show Fixtures" }).click();
  await expect(page.getByText(`${league} ${SEASON}, Match Day ${matchDay}`)).toBeVisible();
  return { page, close: () => context.close() };
}

test("results in: eliminations, Match Day n, season table, champions and confetti", async ({ page, browser, isMobile, loginAs }) => {
  test.setTimeout(120_000);
  // A league of this test only (desktop and mobile run in parallel; the admin spec uses Ligue 1 and MLS).
  const league = isMobile ? "Bundesliga" : "La Liga";
  const tag = uniqueName("");
  const [A, B, C, D] = ["Alpha", "Bravo", "Charlie", "Delta"].map((t) => `${t} ${tag}`);
  const sql = db();
  await sql`delete from public.fixtures where league = ${league} and season = ${SEASON}`;
  // Both match days have kicked off (results can be entered); picks are arranged directly.
  const soon = Date.now() - 26 * 3600_000;
  const [f1, f2, f3, f4] = await createFixtures(sql, league, SEASON, [
    { matchDay: 1, home: A, away: B, kickoff: new Date(soon) },
    { matchDay: 1, home: C, away: D, kickoff: new Date(soon + 3600_000) },
    { matchDay: 2, home: A, away: C, kickoff: new Date(soon + 24 * 3600_000) },
    { matchDay: 2, home: B, away: D, kickoff: new Date(soon + 24 * 3600_000) },
  ]);
  const competition = { league, season: SEASON, startDate: "today", startMatchDay: 1, totalMatchDays: 2 } as const;
  const ko = await createCompetition(sql, { ...competition, name: `Flow KO ${tag}`, type: "knockout" });
  const season = await createCompetition(sql, { ...competition, name: `Flow Season ${tag}`, type: "season" });
  removeAfterTest(ko);
  removeAfterTest(season);
  const [winner, me, third] = [await player(`Win${tag}`), await player(`Me${tag}`), await player(`Third${tag}`)];
  for (const p of [winner, me, third]) {
    for (const c of [ko, season]) await addMember(sql, c.id, p.id, { matchDay: 1 });
  }
  const pick = (
    userId: string,
    competitionId: string,
    matchDay: number,
    fixture: { home_team: string; away_team: string },
    team: string,
  ) => {
    expect([fixture.home_team, fixture.away_team]).toContain(team);
    return addPick(sql, { userId, competitionId, matchDay, team });
  };
  // Knockout, match day 1: a win, a draw and a loss.
  await pick(winner.id, ko.id, 1, f1, A);
  await pick(me.id, ko.id, 1, f2, C);
  await pick(third.id, ko.id, 1, f1, B);
  // Season, match day 1.
  await pick(winner.id, season.id, 1, f1, A);
  await pick(me.id, season.id, 1, f2, D);
  await pick(third.id, season.id, 1, f1, B);

  // The admin enters match day 1: Alpha 2-0 Bravo, Charlie 1-1 Delta.
  const admin1 = await adminPage(browser, test.info().project.use.baseURL!, league, 1);
  await enterResult(admin1.page, f1.id, A, B, 2, 0);
  await enterResult(admin1.page, f2.id, C, D, 1, 1);
  await admin1.close();

  // The player who drew is out and sees it.
  await loginAs({ email: me.email });
  await page.goto("/dashboard");
  // One markup at every width: a table row (a card on phones).
  const koRow = page.getByRole("row").filter({ hasText: ko.name });
  // Both the Status column and the Selection column say so.
  await expect(koRow.getByText("Eliminated")).toHaveCount(2);
  await expect(koRow.getByText("Eliminated").first()).toBeVisible();

  // Knockout leaderboard: the last player standing won; the others went out on Match Day 1.
  await page.goto(`/leaderboard/${ko.id}`);
  const standings = page.getByRole("region", { name: "Competition Standings" });
  await expect(standings.getByText(winner.username)).toBeVisible();
  await expect(standings.getByText("Winner").first()).toBeVisible();
  await expect(standings.getByText("Match Day 1").first()).toBeVisible();
  await page.goto(`/competition/${ko.id}`);
  await expect(page.getByText(`Champion: ${winner.username}`)).toBeVisible();

  // Season table after match day 1: 3, 1, 0 points.
  await page.goto(`/season-leaderboard/${season.id}`);
  const table = page.getByRole("region", { name: "Competition Standings" });
  await expect(table.getByRole("row").filter({ hasText: winner.username })).toContainText("1st");
  await expect(table.getByRole("row").filter({ hasText: me.username })).toContainText("2nd");

  // Match day 2 picks, then its results: Alpha 0-3 Charlie, Bravo 2-2 Delta.
  await pick(winner.id, season.id, 2, f3, A);
  await pick(me.id, season.id, 2, f4, D);
  await pick(third.id, season.id, 2, f3, C);
  const admin2 = await adminPage(browser, test.info().project.use.baseURL!, league, 2);
  await enterResult(admin2.page, f3.id, A, C, 0, 3);
  await enterResult(admin2.page, f4.id, B, D, 2, 2);
  await admin2.close();

  // Final: third 3 pts (GD +1), winner 3 pts (GD -1), me 2 pts. The season ends with its champion. The player's
  // open page updates by itself (the live match day, decision 022), and the champion's confetti plays there.
  await expect(table.getByRole("row").filter({ hasText: third.username })).toContainText("1st");
  await expect(table.getByRole("row").filter({ hasText: me.username })).toContainText("3rd");
  await expect(page.getByText(`Congratulations to ${third.username}`)).toBeVisible();
  await expect(page.locator("[data-confetti]")).toHaveAttribute("data-confetti", /^(playing|done)$/);
  const [done] = await sql`select status, registration_status from public.competitions where id = ${season.id}`;
  expect(done).toEqual({ status: "inactive", registration_status: "completed" });
});
