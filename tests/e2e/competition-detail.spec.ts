import { createPlayer } from "../support/factories";
import { db, expect, setClock, test } from "./fixtures";
import type { Page } from "@playwright/test";
import { arrangeCompetition, currentMatchDay, demoPlayers, fixturesOf, type CompetitionToArrange } from "./arrange";

/** Competitions of this spec's own (tests change their state); the options' defaults suit the detail page. */
function createCompetition(opts: Omit<CompetitionToArrange, "namePrefix"> = {}) {
  return arrangeCompetition({ namePrefix: "Detail ", ...opts });
}

async function openTab(page: Page, isMobile: boolean, label: string) {
  if (isMobile) await page.getByLabel("Section", { exact: true }).selectOption({ label });
  else await page.getByRole("navigation", { name: "Competition sections" }).getByRole("link", { name: label }).click();
}

test("tabs live in the URL; My Selections and Manage Selections only when allowed", async ({ page, isMobile, loginAs }) => {
  await loginAs("player");
  const [c] = await db()<{ id: string }[]>`select id from public.competitions where name = 'Premier League Season Challenge'`;
  await page.goto(`/competition/${c.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Premier League Season Challenge" })).toBeVisible();
  await expect(page.getByText("Created By")).toBeVisible();
  await expect(page.getByText("DemoAdmin").first()).toBeVisible();

  await openTab(page, isMobile, "Details");
  await expect(page).toHaveURL(/tab=details/);
  const details = page.getByRole("region", { name: "Details" });
  await expect(details.getByText("League", { exact: true })).toBeVisible();
  await expect(details.getByText("Premier League", { exact: true })).toBeVisible();
  await expect(details.getByText("2025/26", { exact: true })).toBeVisible();

  await openTab(page, isMobile, "Prizes");
  await expect(page).toHaveURL(/tab=prizes/);
  await expect(page.getByText("Season champion's trophy")).toBeVisible();

  // Not a member, not the creator: neither tab exists, and asking for them by URL shows the Overview.
  await expect(page.getByRole("link", { name: "My Selections" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Manage Selections" })).toHaveCount(0);
  await page.goto(`/competition/${c.id}?tab=manage-selections`);
  await expect(page.getByText("Created By")).toBeVisible();

  // Standings (season: ranks and points) with a View All link, registered players paged by 10, fixtures.
  const standings = page.getByRole("region", { name: "Competition Standings" });
  await expect(standings.getByRole("link", { name: "View All" })).toHaveAttribute("href", `/season-leaderboard/${c.id}`);
  await expect(standings.getByText("1st").first()).toBeVisible();
  const players = page.getByRole("region", { name: "Registered Players" });
  await expect(players.locator("tbody tr")).toHaveCount(10);
  await expect(players.getByText(/Page 1 of \d/)).toBeVisible();
  await players.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/playersPage=2/);
  await expect(page.getByRole("region", { name: /Fixtures - Match Day/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "How to play" })).toBeVisible();

  expect((await page.goto("/competition/00000000-0000-4000-8000-000000000000"))?.status()).toBe(404);
  await expect(page.getByText("Competition not found")).toBeVisible();
  expect((await page.goto("/competition/nope"))?.status()).toBe(404);
});

test("register and unregister from the detail page; unregistering asks first", async ({ page, isMobile, loginAs }) => {
  const me = await loginAs("player");
  const c = await createCompetition({ registrationStatus: "open" });
  const memberships = async () =>
    (await db()`select 1 from public.user_selections where competition_id = ${c.id} and user_id = ${me.id}`).length;
  await page.goto(`/competition/${c.id}`);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("Successfully registered!")).toBeVisible();
  // The Register button is gone after the redirect: the focus stays with the answer, not on the page body.
  await expect(page.locator(".toaster .toast")).toBeFocused();
  await expect(page.getByRole("link", { name: "Select Team" })).toBeVisible();
  await openTab(page, isMobile, "My Selections");
  await expect(page).toHaveURL(/tab=my-selections/);
  await expect(page.getByText("You have not selected a team yet.")).toBeVisible();

  await openTab(page, isMobile, "Overview");
  // One tap does not delete the membership: a dialog asks, and Cancel keeps it.
  await page.getByRole("link", { name: "Unregister" }).click();
  await expect(page).toHaveURL(/confirm=unregister/);
  const dialog = page.getByRole("dialog", { name: "Unregister" });
  await expect(dialog).toContainText(`Are you sure you want to unregister from ${c.name}?`);
  await expect(dialog.getByRole("link", { name: "Cancel" })).toBeFocused();
  expect(await memberships()).toBe(1);
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/confirm=/);
  expect(await memberships()).toBe(1);
  // Escape cancels as well.
  await page.getByRole("link", { name: "Unregister" }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  expect(await memberships()).toBe(1);

  await page.getByRole("link", { name: "Unregister" }).click();
  await dialog.getByRole("button", { name: "Unregister" }).click();
  await expect(page.getByText("You have been unregistered.")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Register" })).toBeVisible();
  expect(await memberships()).toBe(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("unregistering goes through the confirm step, whose form unregisters", async ({ page, loginAs }) => {
    const me = await loginAs("player");
    const c = await createCompetition({ registrationStatus: "open", members: [me.id] });
    await page.goto(`/competition/${c.id}`);
    await page.getByRole("link", { name: "Unregister" }).click();
    await expect(page).toHaveURL(new RegExp(`/competition/${c.id}\\?confirm=unregister$`));
    const dialog = page.getByRole("dialog", { name: "Unregister" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    expect((await db()`select 1 from public.user_selections where competition_id = ${c.id}`).length).toBe(1);

    await page.goto(`/competition/${c.id}?confirm=unregister`);
    await page.getByRole("dialog", { name: "Unregister" }).getByRole("button", { name: "Unregister" }).click();
    await expect(page).toHaveURL(new RegExp(`/competition/${c.id}$`));
    await expect(page.getByText("You have been unregistered.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Register" })).toBeVisible();
    expect((await db()`select 1 from public.user_selections where competition_id = ${c.id}`).length).toBe(0);
  });

  test("a non-member asking for the confirm step gets no dialog", async ({ page, loginAs }) => {
    await loginAs("player");
    const c = await createCompetition({ registrationStatus: "open" });
    await page.goto(`/competition/${c.id}?confirm=unregister`);
    await expect(page.getByRole("button", { name: "Register" })).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });
});

test("private competition: register with the registration key, in any letter case; one toast at a time", async ({ page, loginAs }) => {
  await loginAs("player");
  const c = await createCompetition({ registrationStatus: "open" });
  await db()`update public.competitions set visibility = 'private' where id = ${c.id}`;
  const [{ registration_key: key }] = await db()`select registration_key from public.competitions where id = ${c.id}`;
  await page.goto(`/competition/${c.id}`);
  await page.getByLabel("Registration Key").fill("WRONGKEY");
  await page.getByRole("button", { name: "Register" }).click();
  const invalid = page.getByText("Invalid registration key. Please check and try again.");
  await expect(invalid).toBeVisible();
  // Typed in lower case (keys are upper case): accepted, and the stale error toast goes when the success arrives.
  await page.getByLabel("Registration Key").fill(`  ${(key as string).toLowerCase()} `);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("Successfully registered!")).toBeVisible();
  await expect(invalid).toHaveCount(0);
  await expect(page.locator(".toaster .toast")).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Unregister" })).toBeVisible();
});

test("the creator sets a player's pick in Manage Selections; others may not", async ({ page, browser, isMobile, loginAs }) => {
  const creator = await loginAs("player");
  const [member] = await demoPlayers(1);
  const c = await createCompetition({ createdBy: creator.id, members: [member.id] });
  const [fixture] = await fixturesOf(c.matchDay);

  await page.goto(`/competition/${c.id}`);
  await openTab(page, isMobile, "Manage Selections");
  await expect(page).toHaveURL(/tab=manage-selections/);
  await page.getByLabel("Player", { exact: true }).selectOption({ label: member.username });
  await page.getByLabel("Team", { exact: true }).selectOption({ label: fixture.home_team });
  await page.getByRole("button", { name: "Update Selection" }).click();
  await expect(page.getByText("Selection updated successfully.")).toBeVisible();
  const [saved] =
    await db()`select selected_team, set_by from public.team_selections where competition_id = ${c.id} and user_id = ${member.id}`;
  expect(saved.selected_team).toBe(fixture.home_team);
  expect(saved.set_by).toBe(creator.id);
  // The creator is a player too: before the deadline the row says "Picked", never the team, and a member who
  // has picked can no longer be chosen (rules: Creator's Manage Selections).
  const memberRow = page.getByRole("region", { name: "Manage Selections" }).getByRole("row").filter({ hasText: member.username });
  await expect(memberRow).toContainText("Picked");
  await expect(memberRow).not.toContainText(fixture.home_team);
  await expect(page.getByLabel("Player", { exact: true }).locator("option", { hasText: member.username })).toHaveCount(0);
  // A crafted POST replacing the member's pick before the deadline is refused, and the pick stays.
  const replace = await page.request.post(`/competition/${c.id}`, {
    form: { intent: "set-selection", userId: member.id, team: fixture.away_team },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(replace.status()).toBe(302);
  await page.goto(replace.headers()["location"]);
  await expect(page.getByText("This player has already picked. You can change their pick after the deadline.")).toBeVisible();
  // After the deadline the creator sees the team.
  await setClock(page.context(), new Date(c.firstKickoff.getTime() - 30 * 60_000));
  await page.goto(`/competition/${c.id}?tab=manage-selections`);
  await expect(memberRow).toContainText(fixture.home_team);

  // Another player does not see the tab, and a crafted POST is refused by the server.
  const other = await browser.newContext({ ...(isMobile ? { viewport: { width: 393, height: 851 } } : {}) });
  const otherPage = await other.newPage();
  await loginAs("player", other);
  await otherPage.goto(`/competition/${c.id}`);
  await expect(otherPage.getByRole("link", { name: "Manage Selections" })).toHaveCount(0);
  const [, second] = await fixturesOf(c.matchDay);
  const response = await otherPage.request.post(`/competition/${c.id}`, {
    form: { intent: "set-selection", userId: member.id, team: second.away_team },
    headers: { Origin: new URL(otherPage.url()).origin },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  await otherPage.goto(response.headers()["location"]);
  await expect(otherPage.getByText("Failed to update selection.")).toBeVisible();
  const [unchanged] =
    await db()`select selected_team from public.team_selections where competition_id = ${c.id} and user_id = ${member.id}`;
  expect(unchanged.selected_team).toBe(fixture.home_team);
  await other.close();
});

test("another player's pick stays hidden in the standings until the deadline", async ({ page, context, loginAs }) => {
  const viewer = await loginAs("player");
  const [picker] = await demoPlayers(1);
  const c = await createCompetition({ members: [picker.id, viewer.id] });
  const [fixture] = await fixturesOf(c.matchDay);
  await db()`insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction)
             values (${picker.id}, ${c.id}, ${c.matchDay}, ${fixture.id}, ${fixture.home_team}, 'home_win')`;

  const pickerRow = () => page.getByRole("region", { name: "Competition Standings" }).getByRole("row").filter({ hasText: picker.username });
  await page.goto(`/competition/${c.id}`);
  // The column is named as on the leaderboard.
  await expect(page.getByRole("region", { name: "Competition Standings" }).locator("th", { hasText: "Elimination Match Day" })).toHaveCount(
    1,
  );
  await expect(pickerRow()).toContainText("Hidden");
  await expect(pickerRow()).not.toContainText(fixture.home_team);
  // The viewer has no pick yet: the time left and what a missed pick means, next to Select Team (issue 22).
  await expect(page.getByText("Until team selection closes")).toBeVisible();
  await expect(page.locator(".tab-panel .countdown-value")).toHaveText(/^(\d+d \d+h|\d+h \d+m|\d+m)$/);
  await expect(page.getByText("No pick means you are eliminated.")).toBeVisible();
  await expect(page.getByTestId("my-status")).toHaveText("Still In");
  // One vocabulary: Registered Players reads Still In as the standings do, never Active.
  const players = page.getByRole("region", { name: "Registered Players" });
  await expect(players.getByText("Still In").first()).toBeVisible();
  await expect(players.getByText("Active", { exact: true })).toHaveCount(0);
  // Club badges are drawn next to the team names of the fixtures (decorative).
  await expect(page.locator(".fixture-list svg.team-badge").first()).toHaveAttribute("aria-hidden", "true");

  const { firstKickoff } = await currentMatchDay();
  await setClock(context, new Date(firstKickoff.getTime() - 60 * 60 * 1000 + 60 * 1000));
  await page.goto(`/competition/${c.id}`);
  await expect(pickerRow()).toContainText(fixture.home_team);
  await expect(page.getByText("Selection Closed")).toBeVisible();
  // After the lock a knockout player without a pick is told plainly: out when the match day is processed.
  await expect(page.getByText(`You made no pick for Match Day ${c.matchDay}: you will be eliminated when it is processed.`)).toBeVisible();
});

test("season overview shows the player's rank and points", async ({ page, loginAs }) => {
  const me = await loginAs("player");
  const c = await createCompetition({ type: "season", members: [me.id] });
  await page.goto(`/competition/${c.id}`);
  await expect(page.getByTestId("my-status")).toHaveText("Active");
  await expect(page.getByTestId("my-rank")).toHaveText(/^(\d+(st|nd|rd|th)|--)$/);
  await expect(page.getByTestId("my-points")).toHaveText("0");
  await expect(page.getByText("No pick scores 0 points.")).toBeVisible();
});

test("champion banner for an inactive knockout with a winner", async ({ page, loginAs }) => {
  await loginAs("player");
  const [winner, runnerUp] = await demoPlayers(2);
  const c = await createCompetition({
    status: "inactive",
    registrationStatus: "completed",
    knockoutWinner: winner.id,
    members: [winner.id, runnerUp.id],
  });
  await page.goto(`/competition/${c.id}`);
  const banner = page.getByRole("region", { name: "Champion" });
  await expect(banner).toContainText(`Champion: ${winner.username}`);
  await expect(banner).toContainText("Congratulations");
  await expect(page.getByRole("button", { name: "Register" })).toHaveCount(0);
});

test("the loader's database work does not grow with the number of players", async ({ page, loginAs }) => {
  await loginAs("player");
  const small = await createCompetition({ members: (await demoPlayers(2)).map((p) => p.id) });
  // 40 members: the demo players plus accounts made here.
  const demo = await demoPlayers(40);
  const extra: string[] = [];
  for (let i = demo.length; i < 40; i++) extra.push((await createPlayer(db())).id);
  const large = await createCompetition({ members: [...demo.map((p) => p.id), ...extra] });
  const [{ n }] = await db()`select count(*)::int as n from public.user_selections where competition_id = ${large.id}`;
  expect(n).toBe(40);

  const statements = async (id: string) => {
    const response = await page.request.get(`/competition/${id}`);
    expect(response.status()).toBe(200);
    const timing = response.headers()["server-timing"] ?? "";
    const match = /db;desc="statements";dur=(\d+)/.exec(timing);
    expect(match, `Server-Timing: ${timing}`).not.toBeNull();
    return Number(match![1]);
  };
  const a = await statements(small.id);
  const b = await statements(large.id);
  console.log(`[competition-detail] statements per page: 2 members ${a}, 40 members ${b}`);
  expect(b).toBe(a);
  // statementCount() counts statements, not round trips: session lookup (1) + BEGIN, the claims statement and
  // the page's 15 queries (3 of them the live match day's, decision 022; 3 history and seasons', decision 030) and
  // the app shell's unread notices count and newest release note sent together in one pipelined batch, COMMIT = 21
  // seen; no query per player.
  expect(a).toBeLessThanOrEqual(21);
});

test.describe("Registered Players on a phone 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("one compact line per player, own row highlighted, own registration pinned on the other page", async ({ page, loginAs }) => {
    const me = await loginAs("player");
    const others = await demoPlayers(12);
    const c = await createCompetition({ members: [me.id, ...others.map((p) => p.id)] });
    const players = page.getByRole("region", { name: "Registered Players" });
    let sawMine = false;
    let sawPinned = false;
    for (const n of [1, 2]) {
      await page.goto(`/competition/${c.id}?playersPage=${n}`);
      const rows = players.locator("tbody tr");
      await expect(rows.first()).toBeVisible();
      for (const h of await rows.evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height))) expect(h).toBeLessThan(56);
      const mine = rows.filter({ hasText: me.username });
      if ((await mine.count()) > 0) {
        sawMine = true;
        await expect(mine).toHaveClass(/is-me/);
        await expect(mine.locator(".lb-username")).toHaveAttribute("title", me.username);
        await expect(players.getByTestId("players-pinned")).toHaveCount(0);
      } else {
        sawPinned = true;
        await expect(players.getByTestId("players-pinned")).toContainText(me.username);
        // A knockout member reads Still In, as in the standings (one vocabulary).
        await expect(players.getByTestId("players-pinned")).toContainText("Still In");
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    }
    expect([sawMine, sawPinned]).toEqual([true, true]);
  });
});
