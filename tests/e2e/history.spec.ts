/**
 * History and seasons (decision 030) in the browser: /stats with its chart and table, the archive of ended
 * competitions, an ended competition's page (champion, picks by match day, downloads), "Start next season" and the
 * one-tap Join from /notices, and both CSV downloads (403 for a player who is neither creator nor admin, 404 for a
 * crafted id). The rules themselves are tested in tests/db/history-*.test.ts.
 */
import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { addMember, addPick, createCompetition, createPlayer } from "../support/factories";
import { currentMatchDay, fixturesOf, LEAGUE, SEASON } from "./arrange";
import { db, expect, removeAfterTest, test, uniqueName } from "./fixtures";

/** A private knockout that ended on the match day before the demo's current one: `winner` beat `loser` there. */
async function endedKnockout(creator: string, loser: string) {
  const { matchDay } = await currentMatchDay();
  const played = matchDay - 1;
  const [fixture] = await fixturesOf(played);
  const [{ home_score, away_score }] = await db()<{ home_score: number; away_score: number }[]>`
    select home_score, away_score from public.fixtures where id = ${fixture.id}`;
  const c = await createCompetition(db(), {
    name: uniqueName("History "),
    league: LEAGUE,
    season: SEASON,
    startMatchDay: played,
    visibility: "private",
    createdBy: creator,
    status: "inactive",
    registrationStatus: "completed",
    knockoutWinner: creator,
  });
  removeAfterTest({ name: c.name }); // its next season too (same name)
  await addMember(db(), c.id, creator, { status: "completed" });
  await addMember(db(), c.id, loser, { knockedOutOn: played });
  const winning = home_score >= away_score ? fixture.home_team : fixture.away_team;
  const losing = winning === fixture.home_team ? fixture.away_team : fixture.home_team;
  await addPick(db(), { userId: creator, competitionId: c.id, matchDay: played, team: winning });
  await addPick(db(), { userId: loser, competitionId: c.id, matchDay: played, team: losing });
  const draw = home_score === away_score;
  return { ...c, played, winning, losing, draw };
}

test("Your stats: the numbers, and the pick record per season as a chart and a table", async ({ page, loginAs }) => {
  const me = await loginAs("player");
  const other = await createPlayer(db(), { username: uniqueName() });
  const c = await endedKnockout(me.id, other.id);

  await page.goto("/profile");
  await page.getByRole("link", { name: "Your stats" }).click();
  await expect(page).toHaveURL(/\/stats$/);
  await expect(page.getByRole("heading", { level: 1, name: "Your stats" })).toBeVisible();
  const competitions = page.getByRole("region", { name: "Competitions" });
  await expect(competitions.getByText("Played").locator("..")).toContainText("1");
  await expect(competitions.getByText("Won", { exact: true }).locator("..")).toContainText("1");
  await expect(competitions.getByText("Best finish").locator("..")).toContainText("1st");
  // arranged as ended, never processed: no match day survived
  await expect(competitions.getByText("Longest knockout run").locator("..")).toContainText("0 match days");

  const won = c.draw ? 0 : 1;
  const drawn = c.draw ? 1 : 0;
  await expect(page.getByRole("img", { name: /Pick record per season/ })).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(`^${SEASON}`) });
  await expect(row.getByRole("cell")).toHaveText(["1", String(won), String(drawn), "0"]);
  await expect(page.getByRole("region", { name: "Teams you picked most" })).toContainText(`${c.winning} 1 pick`);
});

test("archive, ended competition, downloads, next season and the one-tap Join", async ({ page, browser, loginAs, baseURL }) => {
  test.setTimeout(90_000);
  const creator = await loginAs("player");
  const otherContext = await browser.newContext();
  const other = await loginAs("player", otherContext);
  const c = await endedKnockout(creator.id, other.id);

  // The archive lists it for its members; its page keeps the champion and the match day's picks.
  await page.goto("/competitions");
  await page.getByRole("link", { name: "Ended competitions" }).click();
  await expect(page).toHaveURL(/status=ended/);
  await page.getByRole("link", { name: c.name }).click();
  await expect(page.getByRole("region", { name: "Champion" })).toContainText(creator.username);
  const picks = page.getByRole("region", { name: "Picks by match day" });
  await expect(picks.getByRole("row", { name: new RegExp(other.username) })).toContainText(c.losing);
  // The page with its archive, downloads and next-season form passes axe (serious and critical).
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  // Both downloads: UTF-8 CSV with one header row, names as players see them.
  const standings = await downloadText(page, "Standings (CSV)");
  expect(standings.name).toMatch(/-standings\.csv$/);
  expect(standings.text.split("\r\n")[0]).toBe("Position,Player,Status,Knocked Out On");
  expect(standings.text).toContain(`1,${creator.username},Winner,`);
  const picksCsv = await downloadText(page, "Picks (CSV)");
  expect(picksCsv.text.split("\r\n").slice(0, 1)).toEqual(["Match Day,Player,Team,Match,Score,Result"]);
  expect(picksCsv.text).toContain(`${c.played},${other.username},${c.losing},`);
  // Neither creator nor admin: 403; a crafted id: 404.
  const otherPage = await otherContext.newPage();
  for (const file of ["standings.csv", "picks.csv"]) {
    expect((await otherPage.request.get(`${baseURL}/competition/${c.id}/${file}`)).status()).toBe(403);
    expect((await page.request.get(`/competition/00000000-0000-4000-8000-000000000000/${file}`)).status()).toBe(404);
  }

  // Start next season: a new competition with the same name; the other player is invited, not joined.
  const { matchDay } = await currentMatchDay();
  await page.getByLabel(/Start Match Day/).selectOption(String(matchDay));
  await page.getByRole("button", { name: "Start next season" }).click();
  await expect(page.getByText("Next season started!")).toBeVisible();
  await expect(page).not.toHaveURL(new RegExp(c.id));
  const nextId = page.url().split("/competition/")[1];
  await expect(page.getByRole("heading", { level: 1, name: c.name })).toBeVisible();
  const members = () => db()<{ user_id: string }[]>`select user_id from public.user_selections where competition_id = ${nextId}`;
  expect(await members()).toEqual([{ user_id: creator.id }]);

  // The other player's notice, with its one tap.
  await otherPage.goto("/notices");
  const notice = otherPage.getByRole("listitem").filter({ hasText: `started the next season of ${c.name}` });
  await notice.getByRole("button", { name: "Join" }).click();
  await expect(otherPage).toHaveURL(new RegExp(`/competition/${nextId}$`));
  await expect(otherPage.getByText("Successfully joined competition!")).toBeVisible();
  expect((await members()).map((m) => m.user_id).sort()).toEqual([creator.id, other.id].sort());
  await otherContext.close();
});

async function downloadText(page: import("@playwright/test").Page, link: string) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: link }).click()]);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), "utf8") };
}
