/**
 * The data feed and corrections as an admin and a player see them (decision 020): the Data Feed section (link,
 * Sync now, unlink, the last error, the review of hand-entered results), a correction's reason, and the notices
 * (with the unread count in the navigation). The feed job is the scheduler's own code (runFeed), run here against
 * a local server that speaks football-data.org v4; the pages are the real Worker's. Link and Sync now reach the real
 * scheduler Worker, started here in the web Worker's dev registry (decision 027).
 *
 * Serial and desktop-only: the feed job syncs every linked league of the shared database, so these tests must not
 * overlap (the mobile project would run them again at the same time); the admin panel has no layout of its own here.
 */
import type { Worker } from "../../scripts/app-server";
import { runFeed } from "../../workers/scheduler/feed/job";
import { startFootballDataServer, type FootballDataServer } from "../../scripts/feed/football-data-server";
import { buildSeason, feedTeam, finishedScore, scheduledMatch } from "../../scripts/feed/v4-matches";
import { addMember, addPick, createCompetition, createFixtures, createPlayer } from "../support/factories";
import { adminResult, leagueCard, linkInDb, openFeed, startScheduler } from "./feed-arrange";
import { db, expect, signIn, test, uniqueName } from "./fixtures";

// Each test drives several pages and a feed run: more than the default minute on a loaded machine.
test.describe.configure({ mode: "serial", timeout: 150_000 });

const TOKEN = "e2e-feed-token";
const DAY = 86_400_000;
let server: FootballDataServer;
let scheduler: Worker;

test.beforeAll(async () => {
  server = await startFootballDataServer({ token: TOKEN, limitPerMinute: 1000 });
  scheduler = await startScheduler(server.url, TOKEN);
});
test.afterAll(async () => {
  await scheduler?.stop();
  await server?.close();
});
test.afterEach(async () => {
  await db()`delete from public.feed_leagues`;
});

const origin = () => new URL(test.info().project.use.baseURL!).origin;

/** The scheduler's feed job, once, at `now`. */
const feedRun = (now = new Date(), token = TOKEN) => runFeed(db(), { url: server.url, token }, now);

test("@desktop-only an admin links a league, asks for a sync and unlinks it; a player is refused", async ({ page, loginAs, browser }) => {
  const player = await browser.newContext();
  await signIn(player, test.info().project.use.baseURL!, "player");
  const playerPage = await player.newPage();
  await playerPage.goto("/admin/feed");
  await expect(playerPage.getByText("Access denied. Admins only.")).toBeVisible();
  const crafted = await playerPage.request.post("/admin/feed", {
    form: { intent: "link", league: "Ligue 1", season: "2024/25" },
    headers: { Origin: origin() },
    maxRedirects: 0,
  });
  expect([302, 303]).toContain(crafted.status());
  expect(await db()`select 1 from public.feed_leagues`).toHaveLength(0);
  await player.close();

  await loginAs("admin");
  await openFeed(page);
  for (const [league, code] of [
    ["Premier League", "PL"],
    ["La Liga", "PD"],
    ["Serie A", "SA"],
    ["Bundesliga", "BL1"],
    ["Ligue 1", "FL1"],
    ["Championship", "ELC"],
  ]) {
    await expect(leagueCard(page, league).getByText(`feed code ${code}`)).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: /^MLS/ })).toHaveCount(0);

  // Link syncs the season at once: the web Worker asks the scheduler Worker after its COMMIT (decision 027)
  const base = 3_000_000 + Math.floor(Math.random() * 100_000) * 10; // team ids of this run (the feed's map keeps names)
  const tag = uniqueName("").slice(0, 5);
  const teams = ["Loire", "Rhone", "Seine", "Somme"].map((n) => `${n} ${tag}`);
  server.setMatches(
    "FL1",
    2024,
    buildSeason({ teams, firstMatchId: base * 10, firstTeamId: base, firstKickoff: new Date(Date.now() + 10 * DAY) }),
  );
  const card = leagueCard(page, "Ligue 1");
  try {
    await card.getByLabel("Season to link (Ligue 1)").selectOption("2024/25");
    await card.getByRole("button", { name: "Link Ligue 1" }).click();
    await expect(page.getByText("Ligue 1 2024/25 is linked to the data feed and synced: 12 fixtures and 0 results changed.")).toBeVisible();
    const row = card.getByRole("row", { name: /^2024\/25/ });
    await expect(row).toContainText("Linked");
    await expect(row).toContainText("12 fixtures, 0 results");
    await expect(row).not.toContainText("Sync requested");
    const [linked] = await db()`select code, season_year, linked from public.feed_leagues where league = 'Ligue 1' and season = '2024/25'`;
    expect(linked).toEqual({ code: "FL1", season_year: 2024, linked: true });
    expect(await db()`select 1 from public.fixtures where league = 'Ligue 1' and season = '2024/25'`).toHaveLength(12);

    // asked again within 50 seconds of that request: not now; the page names the feed tick that will sync it
    await row.getByRole("button", { name: "Sync now Ligue 1 2024/25" }).click();
    await expect(page.getByText(/^Sync requested: Ligue 1 2024\/25 will sync at \d\d:\d\d \S+\.$/)).toBeVisible();
    await expect(row).toContainText(/Sync requested\s*will sync at \d\d:\d\d/);
    const asked = await fetch(`${server.origin}/__control/requests?code=FL1&season=2024`).then((r) => r.json());
    expect(asked).toHaveLength(1);
    await row.getByRole("button", { name: "Unlink Ligue 1 2024/25" }).click();
    await expect(page.getByText("Ligue 1 2024/25 is unlinked from the data feed.")).toBeVisible();
    await expect(card.getByRole("row", { name: /^2024\/25/ })).toContainText("Unlinked");
    await expect(card.getByRole("button", { name: "Link Ligue 1 2024/25" })).toBeVisible();
  } finally {
    await db()`delete from public.fixtures where league = 'Ligue 1' and season = '2024/25'`;
  }
});

test("@desktop-only the panel shows a league's last error (a wrong token), then the sync once the token is right", async ({
  page,
  loginAs,
}) => {
  const league = "Serie A";
  const season = "2024/25";
  server.setMatches(
    "SA",
    2024,
    buildSeason({
      teams: ["Adige", "Arno", "Po", "Tevere"],
      firstMatchId: 7_100_000,
      firstTeamId: 71_000,
      firstKickoff: new Date(Date.now() + 10 * DAY),
    }),
  );
  await linkInDb(league, season);
  try {
    await feedRun(new Date(), "wrong-token");
    await loginAs("admin");
    await openFeed(page);
    const row = leagueCard(page, league).getByRole("row", { name: /^2024\/25/ });
    await expect(row).toContainText(
      "The feed refused the token (HTTP 403: The resource you are looking for is restricted and apparently not within your permissions. Please check your subscription.). Check FOOTBALL_DATA_TOKEN and the plan.",
    );
    await expect(row).toContainText("Never");
    await expect(row).toContainText("next try");

    await feedRun(new Date(Date.now() + 5 * 60_000));
    await page.reload();
    await expect(row).toContainText("12 fixtures, 0 results");
    await expect(row).not.toContainText("refused");
    await expect(row.getByRole("cell").nth(3)).toHaveText("None");
  } finally {
    await db()`delete from public.fixtures where league = ${league} and season = ${season}`;
  }
});

test("@desktop-only a hand-entered result the feed disagrees with is listed for review: Accept feed, Keep mine", async ({
  page,
  loginAs,
}) => {
  const league = "Bundesliga";
  const season = "2024/25";
  const tag = uniqueName("").slice(0, 5);
  const names = [`Rhein ${tag}`, `Main ${tag}`, `Elbe ${tag}`, `Oder ${tag}`];
  const kickoff = new Date(Date.now() - 2 * DAY);
  const md = 30 + Math.floor(Math.random() * 8);
  const [f1, f2] = await createFixtures(db(), league, season, [
    { matchDay: md, kickoff, home: names[0], away: names[1] },
    { matchDay: md, kickoff, home: names[2], away: names[3] },
  ]);
  const admin = await loginAs("admin");
  await adminResult(admin.id, f1.id, 3, 0);
  await adminResult(admin.id, f2.id, 1, 1);
  // ids of this attempt only: the feed's team map keeps a team id's first name for good (a retry has new names)
  const base = 72_000 + Math.floor(Math.random() * 100_000) * 10;
  const teams = names.map((n, i) => feedTeam(base + i, n));
  server.setMatches("BL1", 2024, [
    { ...scheduledMatch(base * 100 + 1, md, kickoff, teams[0], teams[1]), status: "FINISHED", score: finishedScore(2, 1) },
    { ...scheduledMatch(base * 100 + 2, md, kickoff, teams[2], teams[3]), status: "FINISHED", score: finishedScore(0, 0) },
  ]);
  await linkInDb(league, season);
  try {
    await feedRun();
    await openFeed(page);
    const review = page.getByRole("list", { name: "Results to review" });
    const first = review.getByRole("listitem", { name: `${names[0]} v ${names[1]}` });
    await expect(first).toContainText("Yours: 3-0 (admin panel) · the data feed's: 2-1");
    await expect(review.getByRole("listitem", { name: `${names[2]} v ${names[3]}` })).toContainText(
      "Yours: 1-1 (admin panel) · the data feed's: 0-0",
    );

    await first.getByRole("button", { name: `Accept feed ${names[0]} v ${names[1]}` }).click();
    await expect(page.getByText("The data feed's result is saved.")).toBeVisible();
    await expect(review.getByRole("listitem")).toHaveCount(1);
    const [accepted] = await db()`select home_score, away_score, result_source from public.fixtures where id = ${f1.id}`;
    expect(accepted).toEqual({ home_score: 2, away_score: 1, result_source: "feed" });

    await page.getByRole("button", { name: `Keep mine ${names[2]} v ${names[3]}` }).click();
    await expect(page.getByText("Your result stays.")).toBeVisible();
    await expect(page.getByText("No hand-entered result disagrees with the data feed.")).toBeVisible();
    const [kept] = await db()`select home_score, away_score, result_source from public.fixtures where id = ${f2.id}`;
    expect(kept).toEqual({ home_score: 1, away_score: 1, result_source: "admin" });
  } finally {
    await db()`delete from public.fixtures where id in (${f1.id}, ${f2.id})`;
  }
});

test("@desktop-only correcting a result needs a reason, and the players it changed are told in Notices", async ({
  page,
  loginAs,
  browser,
}) => {
  const league = "La Liga";
  const season = "2024/25";
  const md = 20 + Math.floor(Math.random() * 18);
  const tag = uniqueName("").slice(0, 5);
  const kickoff = new Date(Date.now() - 2 * DAY);
  await db()`delete from public.fixtures where league = ${league} and season = ${season} and match_day = ${md}`;
  const [f1, f2] = await createFixtures(db(), league, season, [
    { matchDay: md, kickoff, home: `Sol ${tag}`, away: `Luna ${tag}` },
    { matchDay: md, kickoff: new Date(kickoff.getTime() + 3_600_000), home: `Mar ${tag}`, away: `Rio ${tag}` },
  ]);
  const competition = await createCompetition(db(), {
    league,
    season,
    name: uniqueName("Notice Cup "),
    startMatchDay: md,
    registrationStatus: "closed",
  });
  const told = await createPlayer(db(), { username: uniqueName("told"), password: "footycoach" });
  const others = [await createPlayer(db()), await createPlayer(db())];
  for (const p of [told, ...others]) await addMember(db(), competition.id, p.id);
  await addPick(db(), { userId: told.id, competitionId: competition.id, matchDay: md, team: `Sol ${tag}` });
  await addPick(db(), { userId: others[0].id, competitionId: competition.id, matchDay: md, team: `Mar ${tag}` });
  await addPick(db(), { userId: others[1].id, competitionId: competition.id, matchDay: md, team: `Rio ${tag}` });
  const admin = await loginAs("admin");
  await adminResult(admin.id, f1.id, 1, 0);
  await adminResult(admin.id, f2.id, 0, 1);
  try {
    await page.goto(`/admin/fixtures?league=${encodeURIComponent(league)}&season=${encodeURIComponent(season)}&md=${md}`);
    const row = page.getByTestId(`fixture-${f1.id}`);
    await expect(row).toContainText(`Result 1-0 (admin panel by ${admin.username})`);

    // the server refuses a correction without a reason (a crafted post past the form's required field)
    const crafted = await page.request.post(`/admin/fixtures?league=${encodeURIComponent(league)}&md=${md}`, {
      form: { intent: "save-result", fixtureId: f1.id, homeScore: "0", awayScore: "1" },
      headers: { Origin: origin() },
      maxRedirects: 0,
    });
    expect(crafted.status()).toBe(400);
    expect(await crafted.text()).toContain("A reason is required to correct a result.");
    const [unchanged] = await db()`select home_score from public.fixtures where id = ${f1.id}`;
    expect(unchanged.home_score).toBe(1);

    await row.getByRole("link", { name: /^Edit/ }).click();
    await row.getByLabel(`Sol ${tag} score`).fill("0");
    await row.getByLabel(`Luna ${tag} score`).fill("1");
    await row.getByLabel("Reason").fill("Goal given to the wrong team");
    await row.getByRole("button", { name: /^Save/ }).click();
    await expect(page.getByText("Result saved.")).toBeVisible();
    await expect(row).toContainText(`Changed from 1-0 to 0-1 (admin panel by ${admin.username})`);
    await expect(row).toContainText("“Goal given to the wrong team” · 2 changes");

    // the player whose outcome changed: an unread notice in the navigation, the notice on /notices
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signIn(context, test.info().project.use.baseURL!, { email: told.email });
    const playerPage = await context.newPage();
    await playerPage.goto("/dashboard");
    const nav = playerPage.getByRole("navigation", { name: "Main navigation" }).first();
    await expect(nav.getByRole("link", { name: "Notices 1 unread" })).toBeVisible();
    await nav.getByRole("link", { name: "Notices 1 unread" }).click();
    await expect(playerPage.getByRole("heading", { level: 1, name: "Notices" })).toBeVisible();
    const [{ name }] = await db()<{ name: string }[]>`select name from public.competitions where id = ${competition.id}`;
    await expect(playerPage.getByRole("list", { name: "Notices" })).toContainText(
      `Result corrected: Sol ${tag} v Luna ${tag} (La Liga 2024/25, Match Day ${md}) is now 0-1 (was 1-0). ${name}: eliminated on Match Day ${md} (was still in).`,
    );
    await playerPage.getByRole("button", { name: "Mark as read" }).click();
    await expect(playerPage.getByText("Notice marked as read.")).toBeVisible();
    await expect(nav.getByRole("link", { name: "Notices", exact: true })).toBeVisible();
    await context.close();
  } finally {
    await db()`delete from public.competitions where id = ${competition.id}`;
    await db()`delete from public.fixtures where id in (${f1.id}, ${f2.id})`;
  }
});
