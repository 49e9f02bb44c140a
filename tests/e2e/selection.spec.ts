import { db, expect, setClock, test } from "./fixtures";
import type { Page } from "@playwright/test";
import { arrangeCompetition, currentMatchDay, fixturesOf } from "./arrange";

/** A knockout competition of our own (tests change its state), created by the player, with the player as a member. */
async function knockoutWithMember(uid: string, opts: { startMatchDay?: number } = {}) {
  const c = await arrangeCompetition({ namePrefix: "KO ", createdBy: uid, members: [uid], startMatchDay: opts.startMatchDay });
  return { id: c.id, uid, matchDay: c.matchDay };
}

function teamButton(page: Page, team: string) {
  return page.getByRole("main").getByRole("button", { name: team, exact: true });
}

async function pick(page: Page, team: string) {
  await teamButton(page, team).click();
  const dialog = page.getByRole("dialog", { name: "Confirm Your Selection" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(team);
  await dialog.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText("Team selection saved successfully!")).toBeVisible();
  await expect(page.getByTestId("current-selection")).toHaveText(team);
  // The dialog's Yes is gone (and the picked team's button disabled): the focus stays near the answer, not on the body.
  await expect.poll(() => page.evaluate(() => document.activeElement?.tagName ?? "BODY")).not.toBe("BODY");
}

test("pick a team through the confirm dialog, then change it", async ({ page, loginAs }) => {
  const me = await loginAs("player");
  const { id, matchDay } = await knockoutWithMember(me.id);
  const [first, second] = await fixturesOf(matchDay);

  await page.goto(`/select-team/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Team Selection - KO /);
  await expect(page.getByTestId("current-selection")).toHaveText("--");
  // The deadline where the pick is made, and what a missed pick means (issue 22).
  await expect(page.getByText("Until team selection closes")).toBeVisible();
  await expect(page.locator(".countdown-value")).toHaveText(/^(\d+d \d+h|\d+h \d+m|\d+m)$/);
  await expect(page.getByText("No pick means you are eliminated.")).toBeVisible();
  // Kickoff times name the player's zone ("15:00 GMT"); every team has its club badge, the name stays the button's name.
  await expect(page.locator(".fixture time").first()).toHaveText(/^\d{2}:\d{2} [A-Z][A-Za-z0-9+:-]*$/);
  await expect(teamButton(page, first.home_team).locator("svg.team-badge")).toHaveAttribute("aria-hidden", "true");
  // On every width the kickoff times line up: the time column has one x position in every row.
  const lefts = await page.locator(".fixture .score").evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().left)));
  expect(new Set(lefts).size).toBe(1);
  await expect(page.getByRole("link", { name: "View Competition" }).first()).toBeVisible();

  // Cancel closes the dialog without saving (Escape too).
  await teamButton(page, first.home_team).click();
  await page.getByRole("dialog").getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
  await teamButton(page, first.home_team).click();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(page.getByTestId("current-selection")).toHaveText("--");

  await pick(page, first.home_team);
  // After a pick the page points onward.
  const next = page.getByRole("region", { name: "Next steps" });
  await expect(next.getByRole("link", { name: "Back to competition" })).toHaveAttribute("href", `/competition/${id}`);
  await expect(next.getByRole("link", { name: "Go to Dashboard" })).toHaveAttribute("href", "/dashboard");
  await expect(teamButton(page, first.home_team)).toBeDisabled();
  await expect(teamButton(page, first.home_team)).toHaveAttribute("aria-pressed", "true");

  await pick(page, second.away_team);
  await expect(teamButton(page, first.home_team)).toBeEnabled();
  await expect(teamButton(page, first.home_team)).toHaveAttribute("aria-pressed", "false");
  await expect(teamButton(page, second.away_team)).toBeDisabled();

  const rows = await db()`select selected_team from public.team_selections where competition_id = ${id}`;
  expect(rows.map((r) => r.selected_team)).toEqual([second.away_team]);
});

test("knockout: a team picked on an earlier match day is disabled", async ({ page, loginAs }) => {
  const me = await loginAs("player");
  const { matchDay } = await currentMatchDay();
  const { id, uid } = await knockoutWithMember(me.id, { startMatchDay: matchDay - 1 });
  const [earlier] = await fixturesOf(matchDay - 1);
  await db()`insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team, prediction)
             values (${uid}, ${id}, ${matchDay - 1}, ${earlier.id}, ${earlier.home_team}, 'home_win')`;
  const current = await fixturesOf(matchDay);
  const other = current.flatMap((f) => [f.home_team, f.away_team]).find((t) => t !== earlier.home_team)!;

  await page.goto(`/select-team/${id}`);
  await expect(teamButton(page, earlier.home_team)).toBeDisabled();
  // The reason is said, not only shown in grey.
  await expect(page.getByText(`Used on Match Day ${matchDay - 1}`)).toBeVisible();
  await expect(teamButton(page, earlier.home_team)).toHaveAccessibleDescription(`Used on Match Day ${matchDay - 1}`);
  await expect(teamButton(page, other)).toBeEnabled();

  // A crafted request gets the same answer as the page.
  const origin = new URL(page.url()).origin;
  const response = await page.request.post(`/select-team/${id}`, {
    form: { intent: "select", team: earlier.home_team },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  expect(response.headers()["location"]).toContain("error=not_eligible");
  await page.goto(response.headers()["location"]);
  await expect(page.getByText("Failed to save team selection.")).toBeVisible();
  await expect(page.getByText("That team is not available to you for this match day.")).toBeVisible();
});

test("Selection Closed after the deadline", async ({ page, context, loginAs }) => {
  const me = await loginAs("player");
  const { id, matchDay } = await knockoutWithMember(me.id);
  const { firstKickoff } = await currentMatchDay();
  const [fixture] = await fixturesOf(matchDay);

  await setClock(context, new Date(firstKickoff.getTime() - 60 * 60 * 1000 + 60 * 1000));
  await page.goto(`/select-team/${id}`);
  await expect(page.getByText("Selection Closed")).toBeVisible();
  await expect(page.getByText(`You made no pick for Match Day ${matchDay}: you will be eliminated when it is processed.`)).toBeVisible();
  await expect(teamButton(page, fixture.home_team)).toBeDisabled();
  await expect(page.getByRole("main").getByRole("button", { disabled: false, name: fixture.away_team, exact: true })).toHaveCount(0);
});

test("a non-member is told to register first; unknown ids are not found", async ({ page, loginAs }) => {
  await loginAs("player");
  const [c] = await db()<{ id: string }[]>`select id from public.competitions where name = 'Last One Standing'`;
  await page.goto(`/select-team/${c.id}`);
  await expect(page.getByText("You are not registered for this competition.")).toBeVisible();
  const response = await page.goto("/select-team/00000000-0000-4000-8000-000000000000");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Competition not found")).toBeVisible();
  expect((await page.goto("/select-team/not-a-uuid"))?.status()).toBe(404);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("picking a team works through the server-rendered confirm step", async ({ page, loginAs }) => {
    const me = await loginAs("player");
    const { id, matchDay } = await knockoutWithMember(me.id);
    const [first] = await fixturesOf(matchDay);

    await page.goto(`/select-team/${id}`);
    await teamButton(page, first.away_team).click();
    await expect(page).toHaveURL(/confirm=/);
    const dialog = page.getByRole("dialog", { name: "Confirm Your Selection" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Yes" }).click();
    await expect(page).toHaveURL(new RegExp(`/select-team/${id}$`));
    await expect(page.getByText("Team selection saved successfully!")).toBeVisible();
    await expect(page.getByTestId("current-selection")).toHaveText(first.away_team);
    await expect(teamButton(page, first.away_team)).toBeDisabled();
  });
});
