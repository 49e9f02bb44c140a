/**
 * The organiser's rules and planning ahead (issue 32, decision 028) as the pages show them: the create forms with
 * the rules (and their refusals, crafted posts included), the Rules panel before joining, on the Overview and in How
 * to play, the creator's change until the start match day's deadline, lives left and "Auto-picked" wherever standings
 * and picks show, Team Selection's coming match days with plans, and the season joker. The rules themselves are
 * SQL's and tested in tests/db (competition-rules, rules-processing, plans-and-jokers); these test the pages.
 * State is arranged in the database (arrange.ts, factories.ts); every competition is removed when its test ends.
 */
import type { APIResponse, Page } from "@playwright/test";
import { addMember, addPick, createCompetition, createFixtures, createPlayer } from "../support/factories";
import { arrangeCompetition, currentMatchDay, fixturesOf } from "./arrange";
import { db, expect, removeAfterTest, setClock, test, uniqueName } from "./fixtures";
import { E2E } from "./env";

const HOUR = 3_600_000;

/** A form post as a crafted request would send it (same origin, no redirects followed). */
function post(page: Page, path: string, form: Record<string, string>): Promise<APIResponse> {
  return page.request.post(path, { form, headers: { Origin: new URL(page.url()).origin }, maxRedirects: 0 });
}

/** The answer's page with its data, quotes unescaped (the action's message travels in the page's data stream). */
async function answerText(res: APIResponse): Promise<string> {
  return (await res.text()).replace(/\\/g, "");
}

async function competitionNamed(name: string) {
  return db()<Record<string, unknown>[]>`
    select type, league, season, lives, draw_rule, missed_pick_rule, everyone_out_rule, win_points, draw_points, loss_points, joker
      from public.competitions where name = ${name}`;
}

test("create a private competition with its rules; a refusal shows next to its field; a crafted post outside the values creates nothing", async ({
  page,
  loginAs,
}) => {
  await loginAs("player");
  const { matchDay } = await currentMatchDay();
  await page.goto("/dashboard");
  await page.getByRole("button", { name: "+ Private Competition" }).click();
  const dialog = page.getByRole("dialog", { name: "Create Private Competition" });
  // The start match day is offered with its deadline in the player's zone; the knockout's rules show, grouped.
  await expect(dialog.getByLabel("Start Match Day")).toHaveValue(String(matchDay));
  await expect(
    dialog.getByText(new RegExp(`Selection for Match Day ${matchDay} closes \\w{3} \\d+ \\w{3}, \\d{2}:\\d{2} [A-Z]`)),
  ).toBeVisible();
  await expect(dialog.getByRole("group", { name: "Lives" })).toBeVisible();
  await expect(dialog.getByRole("group", { name: "Points" })).toBeHidden();

  // A season: its points and joker instead; win 2, draw 2 is refused next to Points, then corrected.
  const name = uniqueName("Rules Season ");
  removeAfterTest({ name });
  await dialog.getByLabel("Competition Name").fill(name);
  await dialog.getByLabel("Type").selectOption("season");
  await expect(dialog.getByRole("group", { name: "Lives" })).toBeHidden();
  const points = dialog.getByRole("group", { name: "Points" });
  await points.getByLabel("Win").fill("2");
  await points.getByLabel("Draw").fill("2");
  await dialog.getByRole("group", { name: "Joker" }).getByLabel("On").check();
  await dialog.getByRole("button", { name: "Create" }).click();
  const order = "Points for a win must be more than for a draw, and a draw at least as many as a loss.";
  await expect(points.getByRole("alert")).toHaveText(order);
  await expect(points.getByLabel("Win")).toHaveAttribute("aria-invalid", "true");
  expect(await competitionNamed(name)).toHaveLength(0);

  await points.getByLabel("Win").fill("5");
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Private competition created successfully!")).toBeVisible();
  expect(await competitionNamed(name)).toEqual([
    {
      type: "season",
      league: "Premier League",
      season: "2025/26",
      lives: 1,
      draw_rule: "costs-life",
      missed_pick_rule: "costs-life",
      everyone_out_rule: "rollover",
      win_points: 5,
      draw_points: 2,
      loss_points: 0,
      joker: true,
    },
  ]);

  // Crafted posts (intent=create-private to /competitions): anything outside the values is a 4xx with its message.
  const crafted = uniqueName("Crafted ");
  removeAfterTest({ name: crafted });
  const base = { intent: "create-private", _js: "1", name: crafted, type: "knockout", league: "Premier League", season: "2025/26" };
  const form = { ...base, startDate: new Date().toISOString().slice(0, 10), startMatchDay: String(matchDay) };
  const refusals: [Record<string, string>, string][] = [
    [{ type: "cup" }, "Type must be knockout or season."],
    [{ league: "Eredivisie" }, "Please choose a league from the list."],
    [{ lives: "4" }, "Lives must be 1, 2 or 3."],
    [{ draws: "sometimes" }, 'Draws must be "A draw costs a life" or "A draw is enough".'],
    [{ missedPick: "random" }, 'Missed pick must be "No pick costs a life" or "Auto-pick".'],
    [{ everyoneOut: "replay" }, 'If everyone is out must be "Roll-over" or "Joint winners".'],
    [{ winPoints: "11" }, "Points must be whole numbers from 0 to 10."],
    [{ joker: "maybe" }, "Joker must be on or off."],
  ];
  for (const [bad, message] of refusals) {
    const res = await post(page, "/competitions", { ...form, ...bad });
    expect(res.status(), JSON.stringify(bad)).toBe(400);
    expect(await answerText(res), JSON.stringify(bad)).toContain(message);
  }
  expect(await competitionNamed(crafted)).toHaveLength(0);
  // The same fields, in range, create it.
  const ok = await post(page, "/competitions", { ...form, lives: "2", draws: "through", missedPick: "auto", everyoneOut: "joint" });
  expect(ok.status()).toBe(200);
  expect(await competitionNamed(crafted)).toMatchObject([{ type: "knockout", lives: 2, draw_rule: "through", missed_pick_rule: "auto" }]);
});

test("the admin's Create Competition offers the rules of the chosen type, none for Scout", async ({ page, loginAs }) => {
  await loginAs("admin");
  const { matchDay } = await currentMatchDay();
  await page.goto("/admin/competitions");
  const name = uniqueName("Admin Rules ");
  removeAfterTest({ name });
  await page.getByLabel("Competition Name").fill(name);
  await page.getByLabel("Type").selectOption("scout");
  await expect(page.getByRole("group", { name: "Lives" })).toBeHidden();
  await expect(page.getByRole("group", { name: "Points" })).toBeHidden();
  await page.getByLabel("Type").selectOption("season");
  await page.getByLabel("League").selectOption("Premier League");
  await page.getByLabel("Season").selectOption("2025/26");
  await expect(page.getByLabel("Start Match Day")).toHaveValue(String(matchDay));
  await page.getByLabel("Start Date").fill(new Date().toISOString().slice(0, 10));
  const points = page.getByRole("group", { name: "Points" });
  await points.getByLabel("Win").fill("1");
  await points.getByLabel("Draw").fill("1");
  await page.getByRole("button", { name: "Create Competition" }).click();
  // Refused next to the points, the form as it was sent.
  await expect(points.getByRole("alert")).toHaveText(
    "Points for a win must be more than for a draw, and a draw at least as many as a loss.",
  );
  await expect(page.getByLabel("Competition Name")).toHaveValue(name);
  await points.getByLabel("Win").fill("2");
  await page.getByRole("group", { name: "Joker" }).getByLabel("On").check();
  await page.getByRole("button", { name: "Create Competition" }).click();
  await expect(page.getByText("Competition created successfully!")).toBeVisible();
  expect(await competitionNamed(name)).toMatchObject([
    { type: "season", win_points: 2, draw_points: 1, loss_points: 0, joker: true, lives: 1 },
  ]);
});

test("the Rules panel before joining, on the Overview and in How to play; the creator changes the rules until the start match day's deadline", async ({
  page,
  browser,
  loginAs,
}) => {
  const creator = await createPlayer(db(), { username: uniqueName("org"), password: E2E.password });
  const rules = { lives: 2, draw_rule: "through", missed_pick_rule: "auto", everyone_out_rule: "joint" };
  const c = await arrangeCompetition({ namePrefix: "Rules KO ", visibility: "private", startDate: "today", createdBy: creator.id, rules });
  await addMember(db(), c.id, creator.id, { matchDay: c.matchDay });
  const lines = ["Lives: 2", "A draw is enough", "Missed pick: auto-pick", "If everyone is out: joint winners"];

  // A player who has not joined sees them on the card and in the key dialog, and on the competition page.
  await loginAs("player");
  await page.goto("/competitions?visibility=private");
  const card = page.getByRole("article", { name: c.name });
  await expect(card.getByRole("list", { name: `Rules of ${c.name}` }).getByRole("listitem")).toHaveText(lines);
  await card.getByRole("button", { name: "Register" }).click();
  await expect(page.getByRole("dialog", { name: "Enter Registration Key" }).getByRole("listitem")).toHaveText(lines);
  await page.goto(`/competition/${c.id}`);
  const panel = page.getByRole("region", { name: "Rules" });
  await expect(panel.getByRole("listitem")).toHaveText(lines);
  await expect(panel.getByText("Change rules")).toHaveCount(0);
  const how = page.getByRole("region", { name: "How to play" });
  await expect(how.getByText("You have 2 lives. If your team wins or draws you are still in; a loss costs a life")).toBeVisible();
  await expect(how.getByText("they are joint winners and the competition ends")).toBeVisible();
  await expect(how.getByRole("list", { name: "This competition's rules" }).getByRole("listitem")).toHaveText(lines);
  // Only its creator (or an admin) may change them: a crafted post gets the server's refusal.
  const notMine = await post(page, `/competition/${c.id}`, { intent: "update-rules", lives: "3" });
  expect(notMine.status()).toBe(403);
  expect(await answerText(notMine)).toContain("Only the competition's creator can change its rules.");

  // The creator: a disclosure with the rules' fields, the values they hold; a bad value comes back next to its field.
  const mine = await browser.newContext();
  await loginAs({ email: creator.email }, mine);
  const own = await mine.newPage();
  await own.goto(`/competition/${c.id}`);
  const ownPanel = own.getByRole("region", { name: "Rules" });
  await ownPanel.getByText("Change rules").click();
  await expect(ownPanel.getByText(`You can change the rules until selection for Match Day ${c.matchDay} closes`)).toBeVisible();
  await expect(ownPanel.getByRole("group", { name: "Lives" }).getByLabel("2")).toBeChecked();
  await expect(ownPanel.getByRole("group", { name: "Points" })).toHaveCount(0);
  await ownPanel.getByRole("group", { name: "Lives" }).getByLabel("3").check();
  await ownPanel.getByRole("group", { name: "Draws" }).getByLabel("A draw costs a life").check();
  await ownPanel.getByRole("button", { name: "Save rules" }).click();
  await expect(own.getByText("Rules saved.")).toBeVisible();
  await expect(ownPanel.getByRole("list").first().getByRole("listitem")).toHaveText([
    "Lives: 3",
    "A draw costs a life",
    "Missed pick: auto-pick",
    "If everyone is out: joint winners",
  ]);
  const refused = await post(own, `/competition/${c.id}`, { intent: "update-rules", lives: "5" });
  expect(refused.status()).toBe(400);
  expect(await answerText(refused)).toContain("Lives must be 1, 2 or 3.");

  // From the start match day's deadline the rules are fixed: no form, and the server refuses a change.
  await setClock(mine, new Date(c.firstKickoff.getTime() - HOUR + 60_000));
  await own.goto(`/competition/${c.id}`);
  await expect(ownPanel.getByText("The rules are fixed once the competition has started.")).toBeVisible();
  await expect(ownPanel.getByText("Change rules")).toHaveCount(0);
  const late = await post(own, `/competition/${c.id}`, { intent: "update-rules", lives: "1" });
  expect(late.status()).toBe(400);
  expect(await answerText(late)).toContain("The rules are fixed once the competition has started.");
  const [row] = await db()`select lives, draw_rule from public.competitions where id = ${c.id}`;
  expect(row).toEqual({ lives: 3, draw_rule: "costs-life" });
  await mine.close();
});

test("lives left on the knockout boards and the dashboard; Auto-picked beside the team wherever picks show", async ({ page, loginAs }) => {
  test.setTimeout(90_000);
  const sql = db();
  const tag = uniqueName("");
  const season = `Lives ${tag}`.slice(0, 20);
  const [H1, A1, H2, A2] = ["Harbour", "Anvil", "Heath", "Ashby"].map((t) => `${t} ${tag}`);
  // Kicked off half an hour ago: the deadline has passed, picks are revealed and both matches are being played.
  const kickoff = new Date(Date.now() - 30 * 60_000);
  await createFixtures(sql, "Premier League", season, [
    { matchDay: 1, home: H1, away: A1, kickoff },
    { matchDay: 1, home: H2, away: A2, kickoff },
    { matchDay: 2, home: H1, away: H2, kickoff: new Date(Date.now() + 7 * 24 * HOUR) },
  ]);
  const me = await loginAs("player");
  const rival = await createPlayer(sql, { username: uniqueName("riv"), password: E2E.password });
  const ko = await createCompetition(sql, {
    name: `Lives KO ${tag}`,
    league: "Premier League",
    season,
    startMatchDay: 1,
    totalMatchDays: 2,
    createdBy: me.id,
    columns: { lives: 3, missed_pick_rule: "auto" },
  });
  const single = await createCompetition(sql, {
    name: `One Life ${tag}`,
    league: "Premier League",
    season,
    startMatchDay: 1,
    totalMatchDays: 2,
  });
  removeAfterTest(ko);
  removeAfterTest(single);
  for (const p of [me, rival]) await addMember(sql, ko.id, p.id, { matchDay: 1 });
  await addMember(sql, single.id, me.id, { matchDay: 1 });
  await addPick(sql, { userId: me.id, competitionId: ko.id, matchDay: 1, team: H1 });
  await addPick(sql, { userId: rival.id, competitionId: ko.id, matchDay: 1, team: H2 });
  await sql`update public.team_selections set auto_picked = true where competition_id = ${ko.id} and user_id = ${me.id}`;
  // One life lost (as processing records it): 2 of 3 left.
  await sql`insert into public.knockout_life_losses (competition_id, user_id, match_day, outcome) values (${ko.id}, ${me.id}, 1, 'no_pick')`;
  await sql`update public.fixtures set live_status = 'IN_PLAY', live_home_score = 1, live_away_score = 0
             where league = 'Premier League' and season = ${season} and home_team = ${H1} and match_day = 1`;

  // The knockout leaderboard: a Lives Left column, the auto-pick marked in the standings, the provisional table and the route.
  await page.goto(`/leaderboard/${ko.id}`);
  const standings = page.getByRole("region", { name: "Competition Standings" });
  await expect(standings.getByRole("columnheader", { name: "Lives Left" })).toBeVisible();
  await expect(standings.getByRole("row").filter({ hasText: me.username }).getByTestId("lives-left")).toHaveText("2");
  await expect(standings.getByRole("row").filter({ hasText: rival.username }).getByTestId("lives-left")).toHaveText("3");
  await expect(standings.getByRole("row").filter({ hasText: me.username })).toContainText(`${H1} Auto-picked`);
  await expect(standings.getByRole("row").filter({ hasText: rival.username })).not.toContainText("Auto-picked");
  const provisional = page.getByTestId("provisional-table");
  await expect(provisional.getByRole("columnheader", { name: "Lives" })).toBeVisible();
  await expect(provisional.getByRole("row").filter({ hasText: me.username })).toContainText("Auto-picked");
  await expect(page.getByTestId("route")).toContainText(`Match Day 1: ${H1} Auto-picked`);

  // The competition page: the player's lives, the standings, the live line, My Selections and Manage Selections.
  await page.goto(`/competition/${ko.id}`);
  await expect(page.getByTestId("my-lives")).toHaveText("2");
  await expect(page.getByTestId("current-selection")).toHaveText(`${H1} Auto-picked`);
  await expect(page.getByTestId("live-own-line")).toContainText("Auto-picked");
  const compStandings = page.getByRole("region", { name: "Competition Standings" });
  await expect(compStandings.getByRole("row").filter({ hasText: me.username })).toContainText("2");
  await expect(compStandings.getByRole("columnheader", { name: "Lives Left" })).toBeVisible();
  await page.goto(`/competition/${ko.id}?tab=my-selections`);
  await expect(page.getByRole("region", { name: "My Selections" }).getByRole("row").filter({ hasText: H1 })).toContainText("Auto-picked");
  await page.goto(`/competition/${ko.id}?tab=manage-selections`);
  const manage = page.getByRole("region", { name: "Manage Selections" });
  await expect(manage.getByRole("row").filter({ hasText: me.username })).toContainText(`${H1} Auto-picked`);

  // The dashboard: lives left beside the status, the auto-pick named, the live line marked.
  await page.goto("/dashboard");
  const row = page.getByRole("row").filter({ hasText: ko.name });
  await expect(row.getByTestId(`lives-left-${ko.id}`)).toHaveText("2 lives left");
  await expect(row.locator(".dash-auto-pick")).toHaveText(`${H1} Auto-picked`);
  await expect(page.getByTestId(`live-line-${ko.id}`)).toContainText("Auto-picked");
  // A competition of one life says nothing about lives (existing competitions look as before).
  await expect(page.getByTestId(`lives-left-${single.id}`)).toHaveCount(0);
  await page.goto(`/leaderboard/${single.id}`);
  await expect(page.getByRole("columnheader", { name: "Elimination Match Day" }).first()).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Lives Left" })).toHaveCount(0);
});

test("planning ahead: Team Selection shows each coming match day with its plan and deadline; a planned team is used", async ({
  page,
  loginAs,
}) => {
  const me = await loginAs("player");
  const c = await arrangeCompetition({ namePrefix: "Plans KO ", members: [me.id] });
  const md = c.matchDay;
  const next = md + 1;
  const [planned] = await fixturesOf(next);
  const team = planned.home_team;

  await page.goto(`/select-team/${c.id}`);
  const coming = page.getByRole("region", { name: "Your coming match days" });
  await expect(coming.getByTestId(`coming-${md}`)).toContainText("No pick yet");
  await expect(coming.getByTestId(`coming-${md}`).getByRole("link", { name: `Match Day ${md}` })).toHaveAttribute("aria-current", "page");
  await expect(coming.getByTestId(`coming-${next}`)).toContainText(/No pick yet\s*\w{3} \d+ \w{3}, \d{2}:\d{2} [A-Z]/);

  // The next match day's fixtures, by its link; a pick there is a plan for it.
  await coming.getByRole("link", { name: `Match Day ${next}`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/select-team/${c.id}\\?md=${next}$`));
  await expect(page.getByRole("heading", { name: `Match Day ${next} Fixtures` })).toBeVisible();
  await page.getByRole("main").getByRole("button", { name: team, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Confirm Your Selection" });
  await expect(dialog).toContainText(`Do you want to select ${team} for Match Day ${next}?`);
  await dialog.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText("Team selection saved successfully!")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`\\?md=${next}$`));
  await expect(page.getByTestId("current-selection")).toHaveText(team);
  await expect(coming.getByTestId(`coming-${next}`)).toContainText(team);
  const rows = await db()`select match_day, selected_team from public.team_selections where competition_id = ${c.id}`;
  expect(rows).toEqual([{ match_day: next, selected_team: team }]);

  // Knockout: the planned team is not offered on the current match day, and the page says why.
  await page
    .getByRole("link", { name: `Match Day ${md}`, exact: true })
    .first()
    .click();
  await expect(page.getByRole("heading", { name: `Match Day ${md} Fixtures` })).toBeVisible();
  const button = page.getByRole("main").getByRole("button", { name: team, exact: true });
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(`Planned for Match Day ${next}`);
  const crafted = await post(page, `/select-team/${c.id}`, { intent: "select", team });
  expect(crafted.headers()["location"]).toContain("error=not_eligible");
  // A match day that is not a coming one is refused.
  const past = await post(page, `/select-team/${c.id}`, { intent: "select", team, matchDay: String(md - 1) });
  expect(past.headers()["location"]).toContain("error=selection_closed");
});

test("season joker: played on a coming match day, moved, taken back; fixed once its match day has started", async ({
  page,
  context,
  loginAs,
}) => {
  const me = await loginAs("player");
  const c = await arrangeCompetition({ namePrefix: "Joker ", type: "season", members: [me.id], rules: { joker: true } });
  const plain = await arrangeCompetition({ namePrefix: "No Joker ", type: "season", members: [me.id] });
  const md = c.matchDay;
  const joker = page.getByRole("region", { name: "Joker" });

  await page.goto(`/select-team/${c.id}?md=${md + 1}`);
  await expect(joker.getByTestId("joker-status")).toHaveText(/You have not played it yet\./);
  await joker.getByRole("button", { name: `Play joker on Match Day ${md + 1}` }).click();
  await expect(page.getByText("Joker played: that match day's points count double.")).toBeVisible();
  await expect(joker.getByTestId("joker-status")).toHaveText(`Your joker is on Match Day ${md + 1}: its points count double.`);
  await expect(page.getByTestId(`coming-${md + 1}`)).toContainText("Joker");

  // Once per competition: on another match day it moves there.
  await page.goto(`/select-team/${c.id}?md=${md}`);
  await joker.getByRole("button", { name: `Move joker to Match Day ${md}` }).click();
  await expect(page.getByTestId(`coming-${md}`)).toContainText("Joker");
  await expect(page.getByTestId(`coming-${md + 1}`)).not.toContainText("Joker");
  expect(await db()`select match_day from public.season_jokers where competition_id = ${c.id}`).toEqual([{ match_day: md }]);

  // After its match day's deadline it stays: no buttons, and the server refuses a move.
  await setClock(context, new Date(c.firstKickoff.getTime() - HOUR + 60_000));
  await page.goto(`/select-team/${c.id}?md=${md + 1}`);
  await expect(joker.getByTestId("joker-status")).toContainText("Its match day has started, so it stays there.");
  await expect(joker.getByRole("button")).toHaveCount(0);
  const late = await post(page, `/select-team/${c.id}`, { intent: "joker", matchDay: String(md + 1) });
  expect(late.status()).toBe(400);
  expect(await answerText(late)).toContain("Your joker's match day has started: it can no longer move.");

  // Before that deadline it can be taken back; a competition without the joker has no panel and refuses one.
  await setClock(context, new Date());
  await page.goto(`/select-team/${c.id}`);
  await joker.getByRole("button", { name: "Take joker back" }).click();
  await expect(page.getByText("Joker taken back.")).toBeVisible();
  expect(await db()`select 1 from public.season_jokers where competition_id = ${c.id}`).toHaveLength(0);
  await page.goto(`/select-team/${plain.id}`);
  await expect(joker).toHaveCount(0);
  const off = await post(page, `/select-team/${plain.id}`, { intent: "joker", matchDay: String(md) });
  expect(off.status()).toBe(400);
  expect(await answerText(off)).toContain("This competition has no joker.");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("create with both types' rules, change the rules, plan a coming match day and play the joker with plain forms", async ({
    page,
    loginAs,
  }) => {
    const me = await loginAs("player");
    const { matchDay } = await currentMatchDay();
    await page.goto("/competitions?create=1");
    const dialog = page.getByRole("dialog", { name: "Create Private Competition" });
    // Before JavaScript both groups show, each under its type's name.
    await expect(dialog.getByRole("group", { name: "Knockout rules" })).toBeVisible();
    await expect(dialog.getByRole("group", { name: "Season rules" })).toBeVisible();
    const name = uniqueName("NoJs Rules ");
    removeAfterTest({ name });
    await dialog.getByLabel("Competition Name").fill(name);
    await dialog.getByRole("group", { name: "Lives" }).getByLabel("3").check();
    await dialog.getByRole("group", { name: "Missed pick" }).getByLabel("Auto-pick").check();
    await dialog.getByRole("button", { name: "Create" }).click();
    await expect(page.getByText("Private competition created successfully!")).toBeVisible();
    // A knockout stores the season's fields at their defaults.
    expect(await competitionNamed(name)).toMatchObject([
      { type: "knockout", lives: 3, missed_pick_rule: "auto", win_points: 3, joker: false },
    ]);

    // Its creator changes the rules on the Overview (a disclosure and a plain form).
    const [{ id }] = await db()<{ id: string }[]>`select id from public.competitions where name = ${name}`;
    await page.goto(`/competition/${id}`);
    const panel = page.getByRole("region", { name: "Rules" });
    await panel.getByText("Change rules").click();
    await panel.getByRole("group", { name: "If everyone is out" }).getByLabel("Joint winners").check();
    await panel.getByRole("button", { name: "Save rules" }).click();
    await expect(page.getByText("Rules saved.")).toBeVisible();
    await expect(panel.getByText("If everyone is out: joint winners")).toBeVisible();

    // A plan for the next match day through the server-rendered confirm step.
    const [fixture] = await fixturesOf(matchDay + 1);
    await page.goto(`/select-team/${id}?md=${matchDay + 1}`);
    await page.getByRole("main").getByRole("button", { name: fixture.away_team, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`md=${matchDay + 1}&confirm=`));
    await page.getByRole("dialog", { name: "Confirm Your Selection" }).getByRole("button", { name: "Yes" }).click();
    await expect(page).toHaveURL(new RegExp(`/select-team/${id}\\?md=${matchDay + 1}$`));
    await expect(page.getByTestId("current-selection")).toHaveText(fixture.away_team);

    // The joker of a season with it on.
    const season = await arrangeCompetition({ namePrefix: "NoJs Joker ", type: "season", members: [me.id], rules: { joker: true } });
    await page.goto(`/select-team/${season.id}`);
    await page
      .getByRole("region", { name: "Joker" })
      .getByRole("button", { name: `Play joker on Match Day ${matchDay}` })
      .click();
    await expect(page.getByText("Joker played: that match day's points count double.")).toBeVisible();
    expect(await db()`select match_day from public.season_jokers where competition_id = ${season.id}`).toEqual([{ match_day: matchDay }]);
  });
});
