import type { Browser, Page } from "@playwright/test";
import { addMember, addPick, createCompetition, createFixtures, createPlayer, createScoutCompetition } from "../support/factories";
import { db, expect, removeAfterTest, signIn, test, uniqueName } from "./fixtures";

/**
 * The live match day (decision 022): an admin enters live scores; two players' pages (two browser contexts, a
 * competition page and a dashboard) update without a reload, through the LiveMatchDay Durable Object's socket
 * and a revalidation of their loaders; the knockout player's "out if it ends now" line comes and goes as goals
 * go in, roll-over included; an open Scout page shows its provisional points and board as scores come in.
 */

const LEAGUE = "Championship";
const SEASON = "2025";

async function playerPage(browser: Browser, baseURL: string, userId: string, email: string, path: string) {
  const context = await browser.newContext({ baseURL });
  await signIn(context, baseURL, { email });
  const page = await context.newPage();
  const socket = page.waitForEvent("websocket", (ws) => ws.url().includes("/live?"));
  await page.goto(path);
  await socket;
  // set after load: a reload would lose it
  await page.evaluate(() => ((window as unknown as { liveMarker: string }).liveMarker = "no reload"));
  return { page, userId, close: () => context.close() };
}

async function notReloaded(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)).toBe("no reload");
}

async function liveScore(admin: Page, home: string, away: string, homeGoals: number, awayGoals: number, state = "IN_PLAY") {
  const form = admin.getByRole("form", { name: `Live score ${home} v ${away}` });
  await form.getByLabel(`${home} live goals`).fill(String(homeGoals));
  await form.getByLabel(`${away} live goals`).fill(String(awayGoals));
  await form.getByLabel("State").selectOption(state);
  await form.getByRole("button", { name: `Update live score ${home} v ${away}` }).click();
  await expect(admin.getByText("Live score saved.").first()).toBeVisible();
}

test("live scores reach two players' pages without a reload; 'out if it ends now' comes and goes", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const sql = db();
  const tag = uniqueName("");
  const [H1, A1, H2, A2] = ["Harbour", "Anvil", "Heath", "Ashby"].map((t) => `${t} ${tag}`);
  await sql`delete from public.fixtures where league = ${LEAGUE} and season = ${SEASON}`;
  // kicked off half an hour ago: the deadline (first kickoff - 1 hour) has passed, both matches are being played
  const kickoff = new Date(Date.now() - 30 * 60_000);
  await createFixtures(sql, LEAGUE, SEASON, [
    { matchDay: 1, home: H1, away: A1, kickoff },
    { matchDay: 1, home: H2, away: A2, kickoff },
  ]);
  const ko = await createCompetition(sql, {
    league: LEAGUE,
    season: SEASON,
    startDate: "today",
    startMatchDay: 1,
    totalMatchDays: 3,
    name: `Live KO ${tag}`,
    type: "knockout",
  });
  removeAfterTest(ko);
  const me = await createPlayer(sql, { username: `Me${tag}`, email: `me${tag.toLowerCase()}@live.test`, timeZone: "Europe/London" });
  const other = await createPlayer(sql, { username: `Ot${tag}`, email: `ot${tag.toLowerCase()}@live.test`, timeZone: "Europe/London" });
  for (const p of [me, other]) await addMember(sql, ko.id, p.id, { matchDay: 1 });
  await addPick(sql, { userId: me.id, competitionId: ko.id, matchDay: 1, team: H1 });
  await addPick(sql, { userId: other.id, competitionId: ko.id, matchDay: 1, team: H2 });

  const mine = await playerPage(browser, baseURL!, me.id, me.email, `/competition/${ko.id}`);
  const theirs = await playerPage(browser, baseURL!, other.id, other.email, "/dashboard");
  const myLine = mine.page.getByTestId("live-own-line");
  const theirLine = theirs.page.getByTestId(`live-line-${ko.id}`);
  // nothing in play yet: no provisional view
  await expect(mine.page.getByTestId("live-panel")).toHaveCount(0);

  const adminContext = await browser.newContext({ baseURL });
  await signIn(adminContext, baseURL!, "admin");
  const admin = await adminContext.newPage();
  await admin.goto(`/admin/fixtures?league=${encodeURIComponent(LEAGUE)}&season=${encodeURIComponent(SEASON)}&md=1`);
  await expect(admin.getByText(`${LEAGUE} ${SEASON}, Match Day 1`)).toBeVisible();

  const timeout = { timeout: 15_000 };
  // my team goes a goal down; the other match has not started (its player is not out yet)
  await liveScore(admin, H1, A1, 0, 1);
  await expect(myLine).toHaveText(`${H1} 0-1 down: out if it ends now`, timeout);
  await expect(mine.page.getByTestId("live-panel")).toContainText("Provisional");
  await expect(mine.page.getByTestId("live-still-in")).toHaveText("If it ended now: 1 of 2 still in");
  await expect(theirLine).toContainText(`${H2}: not started yet`, timeout);

  // the other player's team scores: they are through, I am out
  await liveScore(admin, H2, A2, 1, 0);
  await expect(theirLine).toContainText(`${H2} 1-0 up: through if it ends now`, timeout);
  await expect(myLine).toHaveText(`${H1} 0-1 down: out if it ends now`);

  // an equaliser at half-time: a draw still eliminates
  await liveScore(admin, H1, A1, 1, 1, "PAUSED");
  await expect(myLine).toHaveText(`${H1} 1-1 (half-time): out if it ends now (a draw eliminates)`, timeout);
  await expect(mine.page.getByTestId("live-panel")).toContainText("Half-time");

  // the other team falls behind too: everyone still in would go out, so nobody does (roll-over)
  await liveScore(admin, H2, A2, 1, 2);
  await expect(myLine).toContainText("nobody does if it ends now (roll-over)", timeout);
  await expect(theirLine).toContainText("roll-over", timeout);

  // my team goes ahead: the out line disappears
  await liveScore(admin, H1, A1, 2, 1);
  await expect(myLine).toHaveText(`${H1} 2-1 up: through if it ends now`, timeout);
  await expect(mine.page.getByText("out if it ends now")).toHaveCount(0);
  await expect(theirLine).toContainText(`${H2} 1-2 down: out if it ends now`, timeout);

  await notReloaded(mine.page);
  await notReloaded(theirs.page);
  // the knockout leaderboard shows the same provisional line
  await mine.page.goto(`/leaderboard/${ko.id}`);
  await expect(mine.page.getByTestId("live-own-line")).toHaveText(`${H1} 2-1 up: through if it ends now`);
  // ... and the provisional leaderboard: who would go through and who would be out
  const provisional = mine.page.getByTestId("provisional-table");
  await expect(provisional).toContainText("Provisional: if it ended now");
  await expect(provisional.getByRole("row", { name: new RegExp(me.username) })).toContainText(`${H1} 2-1Through`);
  await expect(provisional.getByRole("row", { name: new RegExp(other.username) })).toContainText(`${H2} 1-2Out`);
  await expect(mine.page.getByTestId("pick-shares")).toContainText(`50% picked ${H1}`);
  // my route: the team I used this match day
  await expect(mine.page.getByTestId("route")).toContainText(`Match Day 1: ${H1}`);
  // only final results count: nobody was eliminated by a live score
  const [{ n }] = await sql<{ n: number }[]>`
    select count(*)::int as n from public.user_selections where competition_id = ${ko.id} and status = 'active'`;
  expect(n).toBe(2);

  await mine.close();
  await theirs.close();
  await adminContext.close();
});

test("the season leaderboard's provisional table changes as the admin enters live scores (rank changes; without JavaScript a reload shows it)", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const sql = db();
  const tag = uniqueName("");
  // a league and season of its own (the first test uses Championship 2025)
  const [league, season] = ["Championship", "2024/25"];
  const [H1, A1, H2, A2] = ["Harrow", "Alder", "Hythe", "Arden"].map((t) => `${t} ${tag}`);
  await sql`delete from public.fixtures where league = ${league} and season = ${season}`;
  const kickoff = new Date(Date.now() - 30 * 60_000);
  await createFixtures(sql, league, season, [
    { matchDay: 1, home: H1, away: A1, kickoff },
    { matchDay: 1, home: H2, away: A2, kickoff },
  ]);
  const se = await createCompetition(sql, {
    league,
    season,
    startDate: "today",
    startMatchDay: 1,
    totalMatchDays: 3,
    name: `Live Season ${tag}`,
    type: "season",
  });
  removeAfterTest(se);
  const players = [];
  for (const [name, team] of [
    ["Sa", H1],
    ["Sb", A1],
    ["Sc", H2],
  ]) {
    const p = await createPlayer(sql, { username: `${name}${tag}`, email: `${name.toLowerCase()}${tag.toLowerCase()}@live.test` });
    await addMember(sql, se.id, p.id, { matchDay: 1 });
    await addPick(sql, { userId: p.id, competitionId: se.id, matchDay: 1, team });
    players.push(p);
  }
  const [a, b, c] = players;
  const path = `/season-leaderboard/${se.id}`;

  const mine = await playerPage(browser, baseURL!, a.id, a.email, path);
  const table = mine.page.getByTestId("provisional-table");
  const row = (p: { username: string }) => table.getByRole("row", { name: new RegExp(p.username) });
  // nothing in play yet: no provisional table; the picks are revealed (after the deadline)
  await expect(table).toHaveCount(0);
  await expect(mine.page.getByTestId("pick-shares")).toContainText(`33% picked ${H1}`);

  // without JavaScript: the same page, a reload shows what changed
  const plainContext = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await signIn(plainContext, baseURL!, { email: b.email });
  const plain = await plainContext.newPage();
  await plain.goto(path);
  await expect(plain.getByTestId("provisional-table")).toHaveCount(0);

  const adminContext = await browser.newContext({ baseURL });
  await signIn(adminContext, baseURL!, "admin");
  const admin = await adminContext.newPage();
  await admin.goto(`/admin/fixtures?league=${encodeURIComponent(league)}&season=${encodeURIComponent(season)}&md=1`);
  await expect(admin.getByText(`${league} ${season}, Match Day 1`)).toBeVisible();

  const timeout = { timeout: 15_000 };
  // H1 leads: a (H1) 3 points, top; c (H2, not started) 2nd; b (A1, goal difference -1) 3rd
  await liveScore(admin, H1, A1, 1, 0);
  await expect(table).toContainText("Provisional: if it ended now", timeout);
  await expect(row(a)).toContainText("1st", timeout);
  await expect(row(a)).toContainText("no change");
  await expect(row(c)).toContainText("2nd");
  await expect(row(c)).toContainText("down 1 place");
  await expect(row(c)).toContainText(`${H2} (not started)`);
  await expect(row(b)).toContainText("3rd");
  await expect(row(b)).toContainText("down 2 places");

  // H2 leads 2-0: c passes a on goal difference
  await liveScore(admin, H2, A2, 2, 0);
  await expect(row(c)).toContainText("1st", timeout);
  await expect(row(c)).toContainText("no change");
  await expect(row(a)).toContainText("2nd");
  await expect(row(a)).toContainText("down 1 place");
  await expect(row(b)).toContainText("3rd");
  await expect(row(b)).toContainText("down 2 places");
  await notReloaded(mine.page);

  await plain.reload();
  await expect(plain.getByTestId("provisional-table").getByRole("row", { name: new RegExp(c.username) })).toContainText("1st");
  // the real standings did not move
  const [{ n }] = await sql<{ n: number }[]>`
    select count(*)::int as n from public.user_selections where competition_id = ${se.id} and points > 0`;
  expect(n).toBe(0);

  await mine.close();
  await plainContext.close();
  await adminContext.close();
});

test("an open Scout page shows provisional points and the provisional board as the admin enters live scores", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const sql = db();
  const tag = uniqueName("");
  // a league and season of its own (the other tests here use Championship 2025 and 2024/25)
  const [league, season] = ["Championship", "2025/26"];
  const [H1, A1, H2, A2] = ["Hale", "Acton", "Hove", "Alton"].map((t) => `${t} ${tag}`);
  await sql`delete from public.fixtures where league = ${league} and season = ${season}`;
  // kicked off half an hour ago: locked, entries public, the matches being played
  const kickoff = new Date(Date.now() - 30 * 60_000);
  const fixtures = await createFixtures(sql, league, season, [
    { matchDay: 1, home: H1, away: A1, kickoff },
    { matchDay: 1, home: H2, away: A2, kickoff },
  ]);
  const scout = await createScoutCompetition(sql, {
    league,
    season,
    startDate: "today",
    startMatchDay: 1,
    totalMatchDays: 3,
    name: `Live Scout ${tag}`,
  });
  removeAfterTest(scout);
  // two entries made before the lock (arranged directly): I say 1-0 in the first match, they say 2-0
  const players = [];
  for (const [name, home] of [
    ["Sx", 1],
    ["Sy", 2],
  ] as const) {
    const p = await createPlayer(sql, { username: `${name}${tag}`, email: `${name.toLowerCase()}${tag.toLowerCase()}@live.test` });
    const [entry] = await sql<{ id: string }[]>`
      insert into public.scout_entries (competition_id, user_id, match_day, league, season, entry_index, total_points, exact_count)
      values (${scout.id}, ${p.id}, 1, ${league}, ${season}, 0, 0, 0) returning id`;
    await sql`
      insert into public.scout_predictions (scout_entry_id, fixture_id, home_goals, away_goals)
      values (${entry.id}, ${fixtures[0].id}, ${home}, 0), (${entry.id}, ${fixtures[1].id}, 0, 0)`;
    players.push(p);
  }
  const [me, other] = players;

  const mine = await playerPage(browser, baseURL!, me.id, me.email, `/scout?competition=${scout.id}&tab=my-picks`);
  const board = await playerPage(browser, baseURL!, other.id, other.email, `/scout?competition=${scout.id}&tab=leaderboard`);
  const entries = mine.page.getByTestId("scout-provisional-entries");
  const provisional = board.page.getByTestId("scout-provisional-board");
  const row = (p: { username: string }) => provisional.getByRole("row", { name: new RegExp(p.username) });
  // nothing in play yet: no provisional view
  await expect(entries).toHaveCount(0);
  await expect(provisional).toHaveCount(0);

  const adminContext = await browser.newContext({ baseURL });
  await signIn(adminContext, baseURL!, "admin");
  const admin = await adminContext.newPage();
  await admin.goto(`/admin/fixtures?league=${encodeURIComponent(league)}&season=${encodeURIComponent(season)}&md=1`);
  await expect(admin.getByText(`${league} ${season}, Match Day 1`)).toBeVisible();

  const timeout = { timeout: 15_000 };
  // 1-0: my exact score (5), their right result (3)
  await liveScore(admin, H1, A1, 1, 0);
  await expect(entries).toContainText("Provisional: if it ended now", timeout);
  await expect(entries).toContainText("Entry 1: 5 pts (5 from matches in play) · 1st", timeout);
  await expect(provisional).toContainText("Provisional: if it ended now", timeout);
  await expect(row(me)).toContainText("1st", timeout);
  await expect(row(other)).toContainText("2nd");

  // 2-0: their exact score (5), my right result and away goals (3): the board turns
  await liveScore(admin, H1, A1, 2, 0);
  await expect(entries).toContainText("Entry 1: 3 pts (3 from matches in play) · 2nd", timeout);
  await expect(row(other)).toContainText("1st", timeout);
  await expect(row(me)).toContainText("2nd");

  await notReloaded(mine.page);
  await notReloaded(board.page);
  // only final results count: no entry has stored points
  const [{ n }] = await sql<{ n: number }[]>`
    select count(*)::int as n from public.scout_entries where competition_id = ${scout.id} and total_points > 0`;
  expect(n).toBe(0);

  await mine.close();
  await board.close();
  await adminContext.close();
});
