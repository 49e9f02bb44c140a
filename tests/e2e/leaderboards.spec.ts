import { db, expect, setClock, test } from "./fixtures";
import type { Page } from "@playwright/test";
import { arrangeCompetition, currentMatchDay, demoPlayers, fixturesOf, type CompetitionToArrange } from "./arrange";

type BoardCompetition = Omit<CompetitionToArrange, "namePrefix" | "startMatchDay"> & { type: "knockout" | "season" };

/**
 * Leaderboard competitions started three match days back, so eliminations can fall on earlier match days,
 * and closed for registration unless a test says otherwise.
 */
async function createCompetition(opts: BoardCompetition) {
  const { matchDay } = await currentMatchDay();
  return arrangeCompetition({
    ...opts,
    namePrefix: "Board ",
    startMatchDay: Math.max(1, matchDay - 3),
    registrationStatus: opts.registrationStatus ?? "closed",
  });
}

const byName = (a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);

const section = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
/** Body rows of a section's standings table (the header row excluded). */
const bodyRows = (page: Page, name: string) => section(page, name).locator("tbody tr");

test("knockout leaderboard: order, elimination match day, hidden picks until the deadline", async ({ page, context, loginAs }) => {
  const me = await loginAs("player");
  const meId = me.id;
  const others = await demoPlayers(5);
  const [stillA, stillB, outEarly, outLateA, outLateB] = others;
  const c = await createCompetition({ type: "knockout", members: [meId, ...others.map((p) => p.id)] });
  // Eliminations arranged directly (processing is not this page's job).
  await db()`update public.user_selections set status = 'eliminated', knocked_out_on = ${c.matchDay - 2}
              where competition_id = ${c.id} and user_id = ${outEarly.id}`;
  await db()`update public.user_selections set status = 'eliminated', knocked_out_on = ${c.matchDay - 1}
              where competition_id = ${c.id} and user_id in ${db()([outLateA.id, outLateB.id])}`;
  const [f1, f2] = await fixturesOf(c.matchDay);
  await db()`insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction)
             values (${meId}, ${c.id}, ${c.matchDay}, ${f1.id}, ${f1.home_team}, 'home_win'),
                    (${stillA.id}, ${c.id}, ${c.matchDay}, ${f2.id}, ${f2.away_team}, 'away_win')`;

  await page.goto(`/leaderboard/${c.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Knockout Leaderboard" })).toBeVisible();
  await expect(page.getByRole("link", { name: "View Competition" })).toHaveAttribute("href", `/competition/${c.id}`);

  // Still in (alphabetical), then eliminated: latest elimination first, alphabetical within a match day.
  const expected = [
    ...[me.username, stillA.username, stillB.username].sort(byName),
    ...[outLateA.username, outLateB.username].sort(byName),
    outEarly.username,
  ];
  const rows = bodyRows(page, "Competition Standings");
  await expect(rows).toHaveCount(6);
  for (const [i, name] of expected.entries()) await expect(rows.nth(i)).toContainText(name);

  const row = (name: string) => rows.filter({ hasText: name });
  await expect(row(stillA.username)).toContainText("Still In");
  await expect(row(stillA.username)).toContainText("--");
  await expect(row(outEarly.username)).toContainText(`Match Day ${c.matchDay - 2}`);
  await expect(row(outLateA.username)).toContainText(`Match Day ${c.matchDay - 1}`);
  await expect(row(outLateA.username).getByText("Eliminated")).toHaveCount(2); // status and selection

  // Before the deadline: my own pick shows; the others' are Hidden (in italics), never their team.
  await expect(row(me.username)).toContainText(f1.home_team);
  await expect(row(stillA.username).locator("em", { hasText: "Hidden" })).toBeVisible();
  await expect(row(stillA.username)).not.toContainText(f2.away_team);
  await expect(row(stillB.username)).toContainText("Hidden");
  const mine = bodyRows(page, "Your Standings");
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText(me.username);
  await expect(mine).toContainText("Still In");
  await expect(mine).toContainText(f1.home_team);

  // After the deadline everyone's pick is visible; no pick shows --.
  const { firstKickoff } = await currentMatchDay();
  await setClock(context, new Date(firstKickoff.getTime() - 60 * 60 * 1000 + 60 * 1000));
  await page.goto(`/leaderboard/${c.id}`);
  await expect(row(stillA.username)).toContainText(f2.away_team);
  await expect(row(stillA.username)).not.toContainText("Hidden");
  await expect(row(stillB.username).locator("td").last()).toHaveText("--");
});

test("knockout leaderboard: Not found without an own row, 10 per page, redirects and 404", async ({ page, loginAs }) => {
  await loginAs("player");
  const members = await demoPlayers(12);
  expect(members.length).toBe(12);
  const c = await createCompetition({ type: "knockout", members: members.map((p) => p.id) });

  await page.goto(`/leaderboard/${c.id}`);
  await expect(section(page, "Your Standings")).toContainText("Not found");
  await expect(bodyRows(page, "Competition Standings")).toHaveCount(10);
  await expect(section(page, "Competition Standings").getByText("Page 1 of 2", { exact: true })).toBeVisible();
  await section(page, "Competition Standings").getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/[?&]page=2/);
  await expect(section(page, "Competition Standings").getByText("Page 2 of 2", { exact: true })).toBeVisible();
  await expect(bodyRows(page, "Competition Standings")).toHaveCount(2);

  // The other kind of leaderboard redirects to the right one.
  const s = await createCompetition({ type: "season", members: [members[0].id] });
  await page.goto(`/leaderboard/${s.id}`);
  await expect(page).toHaveURL(new RegExp(`/season-leaderboard/${s.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Season Leaderboard" })).toBeVisible();
  await page.goto(`/season-leaderboard/${c.id}`);
  await expect(page).toHaveURL(new RegExp(`/leaderboard/${c.id}$`));

  expect((await page.goto("/leaderboard/00000000-0000-4000-8000-000000000000"))?.status()).toBe(404);
  await expect(page.getByText("Competition not found")).toBeVisible();
  expect((await page.goto("/season-leaderboard/nope"))?.status()).toBe(404);
  await expect(page.getByText("Competition not found")).toBeVisible();
});

async function setStats(competitionId: string, uid: string, s: { w: number; d: number; l: number; gf: number; ga: number }) {
  await db()`update public.user_selections
                set wins = ${s.w}, draws = ${s.d}, losses = ${s.l}, goals_for = ${s.gf}, goals_against = ${s.ga},
                    points = ${3 * s.w + s.d}
              where competition_id = ${competitionId} and user_id = ${uid}`;
}

/** A season competition with arranged standings (stored stats, then the stored ranks recomputed). */
async function seasonWithStandings(meId: string | null, finished: boolean) {
  const [a, b, d] = await demoPlayers(3);
  const members = [a.id, b.id, d.id, ...(meId ? [meId] : [])];
  const c = await createCompetition({
    type: "season",
    status: finished ? "inactive" : "active",
    registrationStatus: finished ? "completed" : "closed",
    members,
  });
  // a and b tie on everything (both 1st); me 3rd; d 4th.
  await setStats(c.id, a.id, { w: 2, d: 1, l: 0, gf: 5, ga: 1 });
  await setStats(c.id, b.id, { w: 2, d: 1, l: 0, gf: 5, ga: 1 });
  if (meId) await setStats(c.id, meId, { w: 1, d: 1, l: 1, gf: 3, ga: 3 });
  await setStats(c.id, d.id, { w: 0, d: 0, l: 3, gf: 1, ga: 7 });
  await db()`select private.rerank_competition(${c.id}::uuid)`;
  return { c, a, b, d };
}

test("season leaderboard: ordinal ranks with a tie and W D L GF GA Pts", async ({ page, loginAs }) => {
  const me = await loginAs("player");
  const { c, a, b, d } = await seasonWithStandings(me.id, false);

  await page.goto(`/season-leaderboard/${c.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Season Leaderboard" })).toBeVisible();
  await expect(page.getByRole("link", { name: "View Competition" })).toHaveAttribute("href", `/competition/${c.id}`);
  const table = section(page, "Competition Standings").getByRole("table");
  for (const h of ["Rank", "Username", "W", "D", "L", "GF", "GA", "Pts"]) {
    await expect(table.getByRole("columnheader", { name: h, exact: true })).toBeAttached();
  }
  const rows = bodyRows(page, "Competition Standings");
  await expect(rows).toHaveCount(4);
  const [first, second] = [a.username, b.username].sort(byName);
  // The name cell's name (its own row also carries the You badge).
  const cells = async (i: number) => (await rows.nth(i).locator("th .lb-username, td").allInnerTexts()).map((t) => t.trim());
  expect(await cells(0)).toEqual(["1st", first, "2", "1", "0", "5", "1", "7"]);
  expect(await cells(1)).toEqual(["1st", second, "2", "1", "0", "5", "1", "7"]);
  expect(await cells(2)).toEqual(["3rd", me.username, "1", "1", "1", "3", "3", "4"]);
  expect(await cells(3)).toEqual(["4th", d.username, "0", "0", "3", "1", "7", "0"]);

  const mine = bodyRows(page, "Your Standings");
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText("3rd");
  await expect(mine).toContainText(me.username);
  // An active competition has no champion yet.
  await expect(page.getByRole("region", { name: "Champion" })).toHaveCount(0);
  await expect(page.locator("canvas")).toHaveCount(0);
});

test("finished season: champion banner and confetti once per competition", async ({ page, loginAs }) => {
  await loginAs("player");
  const { c, a, b } = await seasonWithStandings(null, true);
  const champion = [a.username, b.username].sort(byName)[0];

  await page.goto(`/season-leaderboard/${c.id}`);
  const banner = page.getByRole("region", { name: "Champion" });
  await expect(banner).toContainText(`Congratulations to ${champion}, champion of ${c.name}!`);
  await expect(section(page, "Your Standings")).toContainText("Not found");
  await expect(page.locator("canvas.confetti-canvas")).toBeAttached();
  await expect(page.locator("[data-confetti]")).toHaveAttribute("data-confetti", /playing|done/);

  // Second visit: remembered for this competition, no confetti (the banner stays).
  await page.goto(`/season-leaderboard/${c.id}`);
  await expect(banner).toContainText(`Congratulations to ${champion}`);
  await expect(page.locator("[data-confetti]")).toHaveAttribute("data-confetti", "skipped");
  await expect(page.locator("canvas")).toHaveCount(0);
});

test.describe("reduced motion", () => {
  test.use({ reducedMotion: "reduce" });

  test("no confetti when the player prefers reduced motion", async ({ page, loginAs }) => {
    await loginAs("player");
    const { c } = await seasonWithStandings(null, true);
    await page.goto(`/season-leaderboard/${c.id}`);
    await expect(page.getByRole("region", { name: "Champion" })).toContainText("Congratulations to");
    await expect(page.locator("[data-confetti]")).toHaveAttribute("data-confetti", "skipped");
    await expect(page.locator("canvas")).toHaveCount(0);
    const remembered = await page.evaluate((key) => window.localStorage.getItem(key), `footycoach:confetti:${c.id}`);
    expect(remembered).toBeNull();
  });
});

test.describe("on a phone 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("both boards: one compact line per player, long names end in an ellipsis with the full name as title, own row highlighted", async ({
    page,
    loginAs,
  }) => {
    const me = await loginAs("player");
    const others = await demoPlayers(9);
    for (const type of ["knockout", "season"] as const) {
      const c = await createCompetition({ type, members: [me.id, ...others.map((p) => p.id)] });
      await page.goto(type === "season" ? `/season-leaderboard/${c.id}` : `/leaderboard/${c.id}`);
      const rows = bodyRows(page, "Competition Standings");
      await expect(rows).toHaveCount(10);
      // One line each: about 40 px, not a four-line card.
      for (const h of await rows.evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height))) expect(h).toBeLessThan(56);
      const mineRow = rows.filter({ hasText: me.username });
      await expect(mineRow).toHaveClass(/is-me/);
      await expect(mineRow.getByText("You", { exact: true })).toBeVisible();
      await expect(mineRow.locator(".lb-username")).toHaveAttribute("title", me.username);
      await expect(bodyRows(page, "Your Standings")).toHaveClass(/is-me/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    }
  });
});
