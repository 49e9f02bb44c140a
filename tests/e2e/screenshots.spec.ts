/**
 * Screenshots of the main pages at desktop (1280x800) and phone (Pixel 5) size (issue 22): log in, dashboard,
 * competition overview, team selection, the knockout leaderboard and Scout. They guard the look against layout
 * changes; axe and the clipping audit stay in layout-a11y.spec.ts.
 *
 * Deterministic: the app's clock and the browser's are fixed at CLOCK, every row the pages show is made here with
 * fixed names (a season of its own, so no other test's fixtures or competitions reach these pages), animations are
 * off and the caret hidden. What other tests running at the same time can change is hidden while the screenshot is
 * taken (screenshots.css): the dashboard's Upcoming list (every open competition), the Scout competition picker
 * (every active Scout competition) and the What's new dot (a release note another test publishes).
 *
 * One test per viewport visits the pages in sequence (decision 021: the browser suite must not grow). Baselines:
 * tests/e2e/__screenshots__ (playwright.config.ts snapshotPathTemplate), made with Debian's Chromium on this machine
 * type; `npx playwright test tests/e2e/screenshots.spec.ts --update-snapshots` rewrites them after an intended change.
 */
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { asUser } from "../support/pg";
import { addMember, addPick, createCompetition, createFixtures, createPlayer, createScoutCompetition } from "../support/factories";
import { db, expect, setClock, test } from "./fixtures";
import { E2E } from "./env";

const CLOCK = new Date("2030-03-01T12:00:00Z");
const KICKOFF = new Date("2030-03-02T15:00:00Z");
const HOUR = 3_600_000;
const STYLE_PATH = fileURLToPath(new URL("./screenshots.css", import.meta.url));

test.use({ timezoneId: "UTC", colorScheme: "light" });

/** The same rows every run: removed first (a retry, or a second run against the same database), then made. */
async function arrange(tag: "D" | "M") {
  const season = `Shots ${tag}`;
  const sql = db();
  await sql`delete from public.competitions where league = 'Premier League' and season = ${season}`;
  await sql`delete from public.fixtures where league = 'Premier League' and season = ${season}`;
  await sql`delete from account.accounts where email like ${`shot.%.${tag.toLowerCase()}@example.test`}`;

  const names = ["Morgan", "Avery", "Blake", "Casey"];
  const players = [];
  for (const name of names) {
    players.push(
      await createPlayer(sql, {
        username: `${name}_${tag}`,
        email: `shot.${name.toLowerCase()}.${tag.toLowerCase()}@example.test`,
        password: E2E.password,
      }),
    );
  }
  const [me, ...rivals] = players;
  const fixtures = await createFixtures(sql, "Premier League", season, [
    { matchDay: 1, kickoff: KICKOFF, home: "Arsenal", away: "Chelsea" },
    { matchDay: 1, kickoff: new Date(KICKOFF.getTime() + 2.5 * HOUR), home: "Liverpool", away: "Everton" },
    { matchDay: 1, kickoff: new Date(KICKOFF.getTime() + 24 * HOUR), home: "Tottenham Hotspur", away: "Manchester United" },
    { matchDay: 2, kickoff: new Date(KICKOFF.getTime() + 7 * 24 * HOUR), home: "Chelsea", away: "Liverpool" },
  ]);
  const common = { league: "Premier League", season, startMatchDay: 1, startDate: "2030-03-01", registrationStatus: "open" as const };
  const knockout = await createCompetition(sql, { ...common, name: `Shots Knockout Cup ${tag}`, type: "knockout" });
  const league = await createCompetition(sql, { ...common, name: `Shots Season League ${tag}`, type: "season" });
  for (const p of players) {
    await addMember(sql, knockout.id, p.id, { matchDay: 1 });
    await addMember(sql, league.id, p.id, { matchDay: 1 });
  }
  await addPick(sql, { userId: me.id, competitionId: knockout.id, matchDay: 1, team: "Arsenal" });
  await addPick(sql, { userId: rivals[0].id, competitionId: knockout.id, matchDay: 1, team: "Liverpool" });

  // Scout: every player existing at its insert gets the FootyCoach ticket; Morgan spends it on an entry.
  const scout = await createScoutCompetition(sql, { ...common, name: `Shots Scout ${tag}`, totalMatchDays: 2 });
  await asUser(sql, me.id, async (tx) => {
    await tx`select public.redeem_ticket_for_entry(${me.id}, ${scout.id})`;
    const [entry] = await tx<{ id: string }[]>`
      select id from public.scout_entries where competition_id = ${scout.id} and user_id = ${me.id}`;
    const predictions = fixtures.filter((f) => f.match_day === 1).map((f, i) => ({ fixture_id: f.id, home_goals: 2 - i, away_goals: 1 }));
    await tx`select public.save_scout_predictions(${entry.id}, ${tx.json(predictions)})`;
  });
  return { me, knockout, scout };
}

/**
 * One page, loaded and settled (web fonts are awaited by toHaveScreenshot), compared with its baseline: what the
 * player sees first, the viewport (a full-page capture draws the phone's fixed bars in the middle of the page).
 */
async function shot(page: Page, url: string, name: string, heading: string | RegExp) {
  const response = await page.goto(url);
  expect(response?.status(), url).toBe(200);
  await expect(page).toHaveURL(url);
  await expect(page.locator("h1").first()).toHaveText(heading);
  await page.waitForLoadState("networkidle");
  await expect(page).toHaveScreenshot(`${name}.png`, {
    animations: "disabled",
    caret: "hide",
    stylePath: STYLE_PATH,
    maxDiffPixelRatio: 0.01,
  });
}

async function visitMainPages(page: Page, tag: "D" | "M") {
  const { me, knockout, scout } = await arrange(tag);
  await page.clock.setFixedTime(CLOCK);
  await setClock(page.context(), CLOCK);

  await shot(page, "/login", "login", "Log in to FootyCoach");
  // The analytics question is answered once (consent.spec.ts tests the banner): it would cover the other pages.
  await page.getByRole("region", { name: "Analytics consent" }).getByRole("button", { name: "Decline" }).click();
  await expect(page.getByRole("region", { name: "Analytics consent" })).toBeHidden();
  // Through the form: the session is made on the app's clock (one made on the real clock would have expired by then).
  await page.getByLabel("Email").fill(me.email);
  await page.getByLabel("Password").fill(E2E.password);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await shot(page, "/dashboard", "dashboard", "Dashboard");
  await shot(page, `/competition/${knockout.id}`, "competition", knockout.name);
  await shot(page, `/select-team/${knockout.id}`, "select-team", /Team Selection/);
  await shot(page, `/leaderboard/${knockout.id}`, "leaderboard", /Leaderboard|Standings/);
  await shot(page, `/scout?competition=${scout.id}`, "scout", /Scout/);
}

test("the main pages look as they did: desktop @desktop-only", async ({ page }) => {
  await visitMainPages(page, "D");
});

test("the main pages look as they did: phone @mobile-only", async ({ page }) => {
  await visitMainPages(page, "M");
});
