import type { Locator, Page } from "@playwright/test";
import { asUser } from "../support/pg";
import {
  createFixtures,
  createPlayer,
  createScoutCompetition,
  giveReferralTickets,
  spendFootyCoachTickets,
  type CreatedFixture,
} from "../support/factories";
import { db, expect, removeAfterTest, setClock, test, uniqueName } from "./fixtures";

/**
 * /scout through the real pages. Each test gets a Scout competition on a season of its own (its own fixtures,
 * lock and leaderboards), so tests running in parallel never see each other's entries.
 */

const LEAGUE = "Premier League";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function arrangeScout(opts: { withFixtures?: boolean; prize?: boolean } = {}) {
  const tag = uniqueName("");
  const season = `SC ${tag}`;
  // Match day 1 kicks off in three days (on the hour), match day 2 a week later.
  const t = new Date(Math.ceil((Date.now() + 3 * DAY) / HOUR) * HOUR);
  const teams = ["Alpha", "Bravo", "Charlie", "Delta"].map((n) => `${n} ${tag}`);
  const [A, B, C, D] = teams;
  const fixtures: CreatedFixture[] =
    opts.withFixtures === false
      ? []
      : await createFixtures(db(), LEAGUE, season, [
          { matchDay: 1, kickoff: t, home: A, away: B },
          { matchDay: 1, kickoff: new Date(t.getTime() + HOUR), home: C, away: D },
          { matchDay: 2, kickoff: new Date(t.getTime() + 7 * DAY), home: A, away: C },
          { matchDay: 2, kickoff: new Date(t.getTime() + 7 * DAY + HOUR), home: B, away: D },
        ]);
  const competition = await createScoutCompetition(db(), {
    name: `Scout ${tag}`,
    league: LEAGUE,
    season,
    startDate: "today",
    startMatchDay: 1,
    totalMatchDays: 3,
    ...(opts.prize
      ? {
          prizeTitle: `Signed shirt ${tag}`,
          prizeDescription: "A signed shirt for the season's best scout.",
          prizeTermsUrl: "https://example.com/terms",
          prizeImageUrl: "https://example.com/shirt.png",
        }
      : {}),
  });
  removeAfterTest(competition);
  return { ...competition, season, tag, firstKickoff: t, md1: fixtures.slice(0, 2), md2: fixtures.slice(2) };
}

type Scout = Awaited<ReturnType<typeof arrangeScout>>;

/** As the player, straight through the database functions the page calls (arranging, not what is tested). */
async function entryWithPredictions(userId: string, scout: Scout, scores: [number, number][]) {
  return asUser(db(), userId, async (tx) => {
    const [{ code }] = await tx<{ code: string }[]>`select public.redeem_ticket_for_entry(${userId}, ${scout.id}) as code`;
    expect(code).toBe("created");
    const [entry] = await tx<{ id: string }[]>`
      select id from public.scout_entries where competition_id = ${scout.id} and user_id = ${userId}
       order by entry_index desc limit 1`;
    const predictions = scout.md1.map((f, i) => ({ fixture_id: f.id, home_goals: scores[i][0], away_goals: scores[i][1] }));
    const [{ saved }] = await tx<{ saved: string }[]>`
      select public.save_scout_predictions(${entry.id}, ${tx.json(predictions)}) as saved`;
    expect(saved).toBe("saved");
    return entry.id;
  });
}

/** The admin's result entry (the same database function the admin panel calls), after the kickoff. */
async function enterResult(adminId: string, fixtureId: string, home: number, away: number, at: Date) {
  const code = await asUser(
    db(),
    adminId,
    async (tx) => {
      const [row] = await tx<
        { code: string }[]
      >`select public.save_fixture_result(${fixtureId}::bigint, ${home}::int, ${away}::int) as code`;
      return row.code;
    },
    { now: at },
  );
  expect(code).toBe("saved");
}

const entry = (page: Page, n: number) => page.getByTestId(`entry-${n}`);
const fixtureRow = (scope: Locator, fixtureId: string) => scope.getByTestId(`fixture-${fixtureId}`);
const score = (row: Locator, team: string) => row.getByLabel(new RegExp(`^${team} score`));

/** Phone width: no sideways page scroll, the board does not scroll inside itself, every cell's text fits on screen. */
async function expectNoClipping(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const clipped = await page
    .locator("table.scout-board td, table.scout-board th")
    .evaluateAll((cells) =>
      cells
        .filter((c) => c.scrollWidth > c.clientWidth + 1 || c.getBoundingClientRect().right > document.documentElement.clientWidth)
        .map((c) => c.textContent),
    );
  expect(clipped).toEqual([]);
  const tableOverflow = await page
    .locator("table.scout-board")
    .first()
    .evaluate((t) => t.scrollWidth - t.clientWidth);
  expect(tableOverflow).toBeLessThanOrEqual(0);
}

async function openTab(page: Page, isMobile: boolean, name: string) {
  if (isMobile) await page.getByLabel("Section", { exact: true }).selectOption({ label: name });
  else await page.getByRole("navigation", { name: "Scout sections" }).getByRole("link", { name }).click();
}

test("redeem, predict, save one, save the whole entry, edit and cancel", async ({ page, loginAs, isMobile }) => {
  const scout = await arrangeScout({ prize: true });
  const me = await loginAs("player");
  await giveReferralTickets(db(), me.id, 1);
  const [f1, f2] = scout.md1;

  await page.goto(`/scout?competition=${scout.id}`);
  await expect(page.getByRole("heading", { name: "Scout", level: 1 })).toBeVisible();
  // More than one active Scout competition (the demo one and this one): cards, this one current.
  await expect(
    page.getByRole("navigation", { name: "Scout competitions" }).getByRole("link", { name: new RegExp(scout.name) }),
  ).toHaveAttribute("aria-current", "page");
  // About three days to the lock: days and hours, not "71h 5m".
  await expect(page.getByTestId("scout-lock")).toHaveText(/^Predictions Lock in 2d \d+h$/);
  // On a phone the first screen reaches the primary action (the prize comes after the tabs).
  if (isMobile) await expect(page.getByRole("button", { name: "Redeem Ticket" })).toBeInViewport();
  // Before a ticket is redeemed the match day's fixtures are shown, read-only.
  const preview = page.getByTestId("scout-preview");
  await expect(preview).toContainText(`${f1.home_team} vs ${f1.away_team}`);
  await expect(preview).toContainText(`${f2.home_team} vs ${f2.away_team}`);
  await expect(preview.getByRole("textbox")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: `Signed shirt ${scout.tag}` })).toBeVisible();
  await expect(page.getByRole("link", { name: "Prize terms and conditions" })).toHaveAttribute("href", "https://example.com/terms");
  await expect(page.getByTestId("footycoach-tickets")).toHaveText("1");
  await expect(page.getByTestId("referral-tickets")).toHaveText("1");

  // Redeem: the FootyCoach ticket first, then the referral ticket, then none left.
  await page.getByRole("button", { name: "Redeem Ticket" }).click();
  await expect(page.getByText("New entry created! Ticket redeemed.")).toBeVisible();
  await expect(entry(page, 1).getByRole("heading", { name: "Entry 1" })).toBeVisible();
  await expect(page.getByTestId("footycoach-tickets")).toHaveText("0");
  await expect(page.getByTestId("referral-tickets")).toHaveText("1");
  await page.getByRole("button", { name: "Redeem Ticket" }).click();
  await expect(entry(page, 2).getByRole("heading", { name: "Entry 2" })).toBeVisible();
  await expect(page.getByTestId("referral-tickets")).toHaveText("0");
  // No ticket left: no Redeem button, but how to get one.
  await expect(page.getByRole("button", { name: "Redeem Ticket" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "No tickets left" })).toBeVisible();
  await expect(page.getByTestId("scout-state")).toContainText("one FootyCoach ticket for this competition");
  await expect(page.getByTestId("scout-state")).toContainText("Referral tickets are earned one per referred friend");

  // One Save per entry (no Save per fixture); saving one fixture: unsaved (amber) while typed, then saved
  // (green), focus back on the entry's heading.
  const e1 = entry(page, 1);
  await expect(e1.getByRole("button")).toHaveText(["Save Entry"]);
  const r1 = fixtureRow(e1, f1.id);
  await score(r1, f1.home_team).fill("2");
  await score(r1, f1.away_team).fill("1");
  await expect(r1).toHaveClass(/is-unsaved/);
  await expect(r1.getByText("Unsaved changes")).toBeVisible();
  await e1.getByRole("button", { name: "Save Entry" }).click();
  await expect(page.getByText("Prediction saved!")).toBeVisible();
  await expect(r1).toHaveClass(/is-saved/);
  await expect(score(r1, f1.home_team)).toHaveAttribute("readonly", "");
  await expect(e1.getByRole("heading", { name: "Entry 1" })).toBeFocused();

  // One side only: refused in place.
  const r2 = fixtureRow(e1, f2.id);
  await score(r2, f2.home_team).fill("1");
  await e1.getByRole("button", { name: "Save Entry" }).click();
  await expect(e1.getByRole("alert")).toHaveText("Please enter both scores");
  await expect(score(r2, f2.home_team)).toHaveValue("1");
  await expect(score(r2, f2.home_team)).toHaveAttribute("aria-invalid", "true");

  // Save the whole second entry with one submit.
  const e2 = entry(page, 2);
  await score(fixtureRow(e2, f1.id), f1.home_team).fill("3");
  await score(fixtureRow(e2, f1.id), f1.away_team).fill("1");
  await score(fixtureRow(e2, f2.id), f2.home_team).fill("0");
  await score(fixtureRow(e2, f2.id), f2.away_team).fill("1");
  await e2.getByRole("button", { name: "Save Entry" }).click();
  await expect(page.getByText("Prediction saved!")).toBeVisible();
  await expect(fixtureRow(e2, f1.id)).toHaveClass(/is-saved/);
  await expect(fixtureRow(e2, f2.id)).toHaveClass(/is-saved/);

  // Edit, cancel (restores the saved scores), edit again and save.
  await e1.getByRole("link", { name: "Update Prediction" }).click();
  await expect(score(r1, f1.home_team)).not.toHaveAttribute("readonly", "");
  await score(r1, f1.home_team).fill("4");
  await expect(r1).toHaveClass(/is-unsaved/);
  await e1.getByRole("link", { name: "Cancel" }).click();
  await expect(score(r1, f1.home_team)).toHaveValue("2");
  await expect(r1).toHaveClass(/is-saved/);
  await e1.getByRole("link", { name: "Update Prediction" }).click();
  await score(r1, f1.home_team).fill("3");
  await e1.getByRole("button", { name: "Save Entry" }).click();
  await expect(score(r1, f1.home_team)).toHaveValue("3");
  await expect(r1).toHaveClass(/is-saved/);

  const rows = await db()<{ entry_index: number; fixture_id: string; home_goals: number; away_goals: number }[]>`
    select e.entry_index, p.fixture_id::text, p.home_goals, p.away_goals
      from public.scout_predictions p join public.scout_entries e on e.id = p.scout_entry_id
     where e.competition_id = ${scout.id} order by e.entry_index, p.fixture_id`;
  expect(rows).toEqual([
    { entry_index: 0, fixture_id: f1.id, home_goals: 3, away_goals: 1 },
    { entry_index: 1, fixture_id: f1.id, home_goals: 3, away_goals: 1 },
    { entry_index: 1, fixture_id: f2.id, home_goals: 0, away_goals: 1 },
  ]);

  // My Picks: pending fixtures show their kickoff and the Pending badge.
  await openTab(page, isMobile, "My Picks");
  await expect(page).toHaveURL(/tab=my-picks/);
  const picks = page.getByTestId("picks-2");
  await expect(picks.getByTestId(`pick-${f1.id}`)).toContainText("Your pick 3 - 1");
  await expect(picks.getByTestId(`pick-${f1.id}`).getByTestId("pick-badge")).toHaveText("Pending");
  await expect(picks.getByTestId(`pick-${f1.id}`).locator("time")).toBeVisible();

  // Rules.
  await openTab(page, isMobile, "Rules");
  await expect(page.getByText("Exact score: 5 points.")).toBeVisible();
  await expect(page.getByText("Redeeming uses a FootyCoach ticket first, then a referral ticket.")).toBeVisible();
});

test("the lock, results turning badges into points, and both leaderboards", async ({ page, context, loginAs, isMobile }) => {
  const scout = await arrangeScout();
  const me = await loginAs("player");
  const rival = await createPlayer(db(), { username: uniqueName("Rival") });
  // A display name replaces the username on Scout boards; 40 characters without a space must still fit on a phone.
  const rivalName = `Supercalifragilistic${uniqueName("")}Scout`.padEnd(40, "x").slice(0, 40);
  await db()`update public.profiles set display_name = ${rivalName} where id = ${rival.id}`;
  const admin = await createPlayer(db(), { role: "admin" });
  await giveReferralTickets(db(), me.id, 1);
  const [f1, f2] = scout.md1;
  // Results will be 2-1 and 0-0. Mine: entry 1 = Exact! (5) + Result (1) = 6; entry 2 = Stacked (3) + Goals (2) = 5.
  await entryWithPredictions(me.id, scout, [
    [2, 1],
    [1, 1],
  ]);
  await entryWithPredictions(me.id, scout, [
    [3, 1],
    [0, 1],
  ]);
  // The rival: Miss (0) + Exact! (5) = 5 with one exact, ranked above my second entry.
  await entryWithPredictions(rival.id, scout, [
    [0, 2],
    [0, 0],
  ]);

  // Half an hour before the first kickoff: locked (the server decides; the inputs are read-only, no save).
  await setClock(context, new Date(scout.firstKickoff.getTime() - HOUR / 2));
  await page.goto(`/scout?competition=${scout.id}`);
  await expect(page.getByTestId("scout-lock")).toHaveText("Predictions Locked");
  await expect(page.getByRole("heading", { name: "Predictions Locked" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Redeem Ticket" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Save/ })).toHaveCount(0);
  await expect(score(fixtureRow(entry(page, 1), f1.id), f1.home_team)).toHaveAttribute("readonly", "");

  // The admin enters the first result: the saved prediction shows its points while the match day is current.
  const afterKickoff = new Date(scout.firstKickoff.getTime() + 3 * HOUR);
  await enterResult(admin.id, f1.id, 2, 1, afterKickoff);
  await setClock(context, afterKickoff);
  await page.reload();
  await expect(fixtureRow(entry(page, 1), f1.id)).toContainText("5 pts · Exact!");
  await expect(fixtureRow(entry(page, 2), f1.id)).toContainText("3 pts");

  // The second result completes match day 1 (the competition moves on to match day 2).
  await enterResult(admin.id, f2.id, 0, 0, afterKickoff);
  await page.goto(`/scout?competition=${scout.id}&tab=my-picks&md=1`);
  const badge = (n: number, f: CreatedFixture) => page.getByTestId(`picks-${n}`).getByTestId(`pick-${f.id}`).getByTestId("pick-badge");
  await expect(badge(1, f1)).toHaveText("Exact! (5)");
  await expect(badge(1, f2)).toHaveText("Result (1)");
  await expect(badge(2, f1)).toHaveText("Stacked (3)");
  await expect(badge(2, f2)).toHaveText("Goals (2)");
  await expect(page.getByTestId("picks-1").getByTestId(`pick-${f1.id}`)).toContainText("Final 2 - 1");
  await expect(page.getByTestId("picks-1")).toContainText("6 pts · 1 exact");

  // Match day leaderboard: points, then exact count; ordinal ranks; entry numbers from 1; progress bars.
  await page.goto(`/scout?competition=${scout.id}&tab=leaderboard&md=1`);
  await expect(page.getByRole("heading", { name: "Match Day 1 Leaderboard" })).toBeVisible();
  const board = page.locator("table.scout-board").first();
  const body = board.locator("tbody tr");
  await expect(body).toHaveCount(3);
  await expect(body.nth(0)).toContainText("1st");
  await expect(body.nth(0).locator("td").nth(1)).toHaveText("6");
  await expect(body.nth(0).locator("td").last()).toHaveText("1");
  await expect(body.nth(1)).toContainText(rivalName);
  await expect(body.nth(1)).not.toContainText(rival.username);
  await expect(body.nth(1)).toContainText("2nd");
  await expect(body.nth(2)).toContainText("3rd");
  await expect(body.nth(2).locator("td").last()).toHaveText("2");
  await expect(board.getByTestId("scout-progress")).toHaveCount(3);
  await expect(board.getByTestId("scout-progress").first().locator("span")).toHaveAttribute("style", /width: ?100%/);
  await expect(page.getByText("Showing top 100 entries")).toHaveCount(0);
  // The match day picker lists 2 then 1.
  await expect(page.getByLabel("Match Day", { exact: true }).locator("option")).toHaveText(["Match Day 2", "Match Day 1"]);

  if (isMobile) await expectNoClipping(page);

  // Season view: one row per player, best entry index.
  await page.getByRole("link", { name: "Season", exact: true }).click();
  await expect(page).toHaveURL(/view=season/);
  await expect(page.getByRole("heading", { name: "Season Leaderboard" })).toBeVisible();
  const season = page.locator("table.scout-board").first().locator("tbody tr");
  await expect(season).toHaveCount(2);
  await expect(season.nth(0)).toContainText(me.username);
  await expect(season.nth(0).locator("td").nth(1)).toHaveText("6");
  await expect(season.nth(1)).toContainText(rivalName);
  await expect(page.locator("table.scout-board").first().getByTestId("scout-progress")).toHaveCount(2);

  if (isMobile) await expectNoClipping(page);
});

test("Ticket Required, No Fixtures Available and an unknown competition", async ({ page, loginAs }) => {
  const scout = await arrangeScout();
  const me = await loginAs("player");
  await spendFootyCoachTickets(db(), me.id, scout.id);
  await page.goto(`/scout?competition=${scout.id}`);
  await expect(page.getByRole("heading", { name: "Ticket Required" })).toBeVisible();
  await expect(page.getByTestId("footycoach-tickets")).toHaveText("0");
  // No Redeem with no ticket: how to get one instead, and the fixtures read-only.
  await expect(page.getByRole("button", { name: /Redeem|Referral Ticket/ })).toHaveCount(0);
  await expect(page.getByTestId("scout-state")).toContainText("your next one comes for Match Day 2");
  await expect(page.getByTestId("scout-state").getByRole("link", { name: "profile" })).toHaveAttribute("href", "/profile");
  await expect(page.getByTestId("scout-preview")).toContainText(scout.md1[0].home_team);

  const empty = await arrangeScout({ withFixtures: false });
  await page.goto(`/scout?competition=${empty.id}`);
  await expect(page.getByRole("heading", { name: "No Fixtures Available" })).toBeVisible();
  await expect(page.getByTestId("scout-lock")).toHaveCount(0);

  expect((await page.goto("/scout?competition=00000000-0000-4000-8000-000000000000"))?.status()).toBe(404);
  await expect(page.getByText("Scout competition not found")).toBeVisible();
  expect((await page.goto("/scout?competition=not-a-uuid"))?.status()).toBe(404);
  expect((await page.goto(`/scout?competition=${scout.id}&tab=nope&md=99999&view=x`))?.status()).toBe(200);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("redeem, save one, save the entry, edit and cancel, refused input, tabs", async ({ page, loginAs, isMobile }) => {
    const scout = await arrangeScout();
    const me = await loginAs("player");
    const [f1, f2] = scout.md1;
    await page.goto(`/scout?competition=${scout.id}`);
    await expect(page.getByTestId("scout-preview")).toContainText(`${f1.home_team} vs ${f1.away_team}`);
    await page.getByRole("button", { name: "Redeem Ticket" }).click();
    await expect(page.getByText("New entry created! Ticket redeemed.")).toBeVisible();
    const e1 = entry(page, 1);
    const r1 = fixtureRow(e1, f1.id);
    const r2 = fixtureRow(e1, f2.id);

    // One fixture (the entry's one Save sends the filled fixtures only).
    await score(r1, f1.home_team).fill("1");
    await score(r1, f1.away_team).fill("0");
    await e1.getByRole("button", { name: "Save Entry" }).click();
    await expect(page.getByText("Prediction saved!")).toBeVisible();
    await expect(score(r1, f1.home_team)).toHaveAttribute("readonly", "");

    // One side only: the message in place, the typed value kept.
    await score(r2, f2.away_team).fill("2");
    await entry(page, 1).getByRole("button", { name: "Save Entry" }).click();
    await expect(e1.getByRole("alert")).toHaveText("Please enter both scores");
    await expect(score(fixtureRow(entry(page, 1), f2.id), f2.away_team)).toHaveValue("2");

    // The whole entry.
    await score(fixtureRow(entry(page, 1), f2.id), f2.home_team).fill("2");
    await entry(page, 1).getByRole("button", { name: "Save Entry" }).click();
    await expect(page.getByText("Prediction saved!")).toBeVisible();
    await expect(fixtureRow(entry(page, 1), f2.id)).toHaveClass(/is-saved/);

    // Edit through ?edit=, cancel back, then edit and save.
    await entry(page, 1).getByRole("link", { name: "Update Prediction" }).click();
    await expect(page).toHaveURL(/edit=/);
    await expect(score(fixtureRow(entry(page, 1), f1.id), f1.home_team)).not.toHaveAttribute("readonly", "");
    await entry(page, 1).getByRole("link", { name: "Cancel" }).click();
    await expect(page).not.toHaveURL(/edit=/);
    await expect(score(fixtureRow(entry(page, 1), f1.id), f1.home_team)).toHaveValue("1");
    await entry(page, 1).getByRole("link", { name: "Update Prediction" }).click();
    await score(fixtureRow(entry(page, 1), f1.id), f1.home_team).fill("5");
    await entry(page, 1).getByRole("button", { name: "Save Entry" }).click();
    await expect(page.getByText("Prediction saved!")).toBeVisible();
    await expect(score(fixtureRow(entry(page, 1), f1.id), f1.home_team)).toHaveValue("5");
    await expect(score(fixtureRow(entry(page, 1), f1.id), f1.home_team)).toHaveAttribute("readonly", "");

    // Tabs: links on desktop, the dropdown with Go on mobile; the match day picker with Go.
    if (isMobile) {
      await page.getByLabel("Section", { exact: true }).selectOption({ label: "Leaderboard" });
      await page.locator("form.tabs-mobile").getByRole("button", { name: "Go" }).click();
    } else {
      await page.getByRole("navigation", { name: "Scout sections" }).getByRole("link", { name: "Leaderboard" }).click();
    }
    await expect(page).toHaveURL(/tab=leaderboard/);
    await expect(page.getByRole("heading", { name: "Match Day 1 Leaderboard" })).toBeVisible();
    const rows = page.locator("table.scout-board").first().locator("tbody tr");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(me.username);
    // Before any result nobody is ranked (every entry is level).
    await expect(rows.first().locator("td").first()).toHaveText("-");
    await expect(page.getByTestId("scout-unranked")).toBeVisible();
    await page.getByRole("link", { name: "Season", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Season Leaderboard" })).toBeVisible();
  });
});

test("the player's own best row is pinned when outside the rows shown", async ({ page, loginAs }) => {
  const scout = await arrangeScout();
  const me = await loginAs("player");
  // 100 other entrants with an exact score each ahead of my miss; the top 100 fill up without me.
  const others = await db()<{ id: string }[]>`select id from public.profiles where id <> ${me.id} order by id limit 100`;
  if (others.length < 100) {
    for (let i = others.length; i < 100; i++) others.push(await createPlayer(db()));
  }
  await db()`
    insert into public.scout_entries (competition_id, user_id, match_day, league, season, entry_index, total_points, exact_count)
    select ${scout.id}, o.id, 1, ${LEAGUE}, ${scout.season}, 0, 5, 1 from unnest(${others.map((o) => o.id)}::uuid[]) o(id)`;
  await entryWithPredictions(me.id, scout, [
    [9, 9],
    [9, 9],
  ]);
  await page.goto(`/scout?competition=${scout.id}&tab=leaderboard`);
  await expect(page.getByText("Showing top 100 entries")).toBeVisible();
  await expect(page.locator("table.scout-board").first().locator("tbody tr")).toHaveCount(100);
  await expect(page.locator("table.scout-board").first().getByTestId("scout-progress")).toHaveCount(10);
  const pinned = page.getByRole("region", { name: "Your best" });
  await expect(pinned).toContainText(me.username);
  await expect(pinned).toContainText("101st");
});

test("a postponed fixture's prediction reads 'Postponed: not counted'", async ({ page, loginAs }) => {
  const scout = await arrangeScout();
  const me = await loginAs("player");
  const [f1, f2] = scout.md1;
  await entryWithPredictions(me.id, scout, [
    [1, 0],
    [2, 2],
  ]);
  await db()`update public.fixtures set status = 'postponed' where id = ${f2.id}`;
  await page.goto(`/scout?competition=${scout.id}`);
  await expect(fixtureRow(entry(page, 1), f2.id)).toContainText("Postponed: not counted");
  await expect(fixtureRow(entry(page, 1), f1.id)).not.toContainText("Postponed");
  await page.goto(`/scout?competition=${scout.id}&tab=my-picks`);
  const badge = (f: CreatedFixture) => page.getByTestId("picks-1").getByTestId(`pick-${f.id}`).getByTestId("pick-badge");
  await expect(badge(f2)).toHaveText("Postponed: not counted");
  await expect(badge(f1)).toHaveText("Pending");
});
