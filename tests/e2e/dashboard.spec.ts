import type { Page } from "@playwright/test";
import { db, expect, logIn, newPlayer, setClock, test, uniqueName } from "./fixtures";

/** A fresh open competition on the demo league's current match day, arranged directly in the database. */
async function arrangeCompetition(type: "knockout" | "season", members: string[] = [], startDate?: string) {
  const sql = db();
  const [c] = await sql`
    insert into competitions (name, type, league, season, start_date, start_match_day, current_match_day, created_by)
    select ${uniqueName(`Dash ${type} `)}, ${type}, 'Premier League', '2025/26', coalesce(${startDate ?? null}::date, current_date), m.match_day, m.match_day, null
      from matchdays m
     where m.league = 'Premier League' and m.season = '2025/26' and m.first_kickoff_time > now() + interval '1 hour'
     order by m.match_day limit 1
    returning id, name, current_match_day, (select first_kickoff_time from matchdays m2 where m2.league = 'Premier League'
      and m2.season = '2025/26' and m2.match_day = competitions.current_match_day) as first_kickoff`;
  for (const userId of members) {
    await sql`insert into user_selections (user_id, competition_id, league, season, match_day)
              values (${userId}, ${c.id}, 'Premier League', '2025/26', ${c.current_match_day})`;
  }
  return c as { id: string; name: string; current_match_day: number; first_kickoff: Date };
}

async function userId(email: string): Promise<string> {
  return (await db()`select id from account.accounts where email = ${email}`)[0].id;
}

function statements(serverTiming: string | undefined): number {
  return Number(/db;desc="statements";dur=(\d+)/.exec(serverTiming ?? "")?.[1]);
}

function registeredRow(page: Page, name: string, isMobile: boolean) {
  return isMobile
    ? page.getByRole("list", { name: "Registered competitions" }).getByRole("listitem").filter({ hasText: name })
    : page.getByRole("row").filter({ hasText: name });
}

test("upcoming competitions show a countdown and player count", async ({ page }) => {
  await newPlayer(page);
  // An earlier start date than any other spec uses (they go back to about 1663), so it is among the first shown.
  const daysBack = Math.floor(Date.now() / 1000) % 86_400;
  const early = new Date(Date.UTC(1400, 0, 1) - daysBack * 86_400_000).toISOString().slice(0, 10);
  const { name } = await arrangeCompetition("knockout", [], early);
  await page.goto("/dashboard");
  const upcoming = page.getByRole("list", { name: "Upcoming competitions" });
  const card = upcoming.getByRole("listitem").filter({ hasText: name });
  await expect(card).toBeVisible();
  await expect(card.getByText("Until registration closes")).toBeVisible();
  await expect(card.locator(".countdown-value")).toHaveText(/^\d+d:\d+h:\d+m$/);
  await expect(card.getByText("0 Players")).toBeVisible();
  // Scout competitions are never listed here.
  await expect(upcoming.getByText("The Scout: Premier League")).toHaveCount(0);
});

test("registered competitions: select, edit, selection closed and eliminated", async ({ page, isMobile, context }) => {
  const { email } = await newPlayer(page);
  const me = await userId(email);
  const ko = await arrangeCompetition("knockout", [me]);
  const season = await arrangeCompetition("season", [me]);

  await page.goto("/dashboard");
  const koRow = registeredRow(page, ko.name, isMobile);
  await expect(koRow.getByRole("link", { name: "Select Team" })).toHaveAttribute("href", `/select-team/${ko.id}`);
  if (!isMobile) {
    // Knockout rows show dashes for rank, GF, GA and points.
    await expect(koRow.getByRole("cell")).toHaveText(["Knockout", "–", "0", "0", "0", "–", "–", "–", "Select Team"]);
    const seasonRow = registeredRow(page, season.name, isMobile);
    await expect(seasonRow.getByRole("cell").nth(1)).toHaveText("1st");
  }

  // With a pick the action reads Edit Team and the current selection shows on mobile cards.
  const [fixture] = await db()`select id, home_team from fixtures where league = 'Premier League' and season = '2025/26'
                                 and match_day = ${ko.current_match_day} order by kickoff_time limit 1`;
  await db()`insert into team_selections (user_id, competition_id, match_day, fixture_id, selected_team)
             values (${me}, ${ko.id}, ${ko.current_match_day}, ${fixture.id}, ${fixture.home_team})`;
  await page.reload();
  await expect(koRow.getByRole("link", { name: "Edit Team" })).toBeVisible();
  if (isMobile) await expect(koRow.getByText(fixture.home_team)).toBeVisible();

  // An hour before the first kickoff selection closes (the app's clock moves, the page follows the server).
  await setClock(context, new Date(new Date(ko.first_kickoff).getTime() - 30 * 60_000));
  await page.reload();
  await expect(koRow.getByText("Selection Closed")).toBeVisible();
  await expect(koRow.getByRole("link", { name: /Team/ })).toHaveCount(0);

  await db()`update user_selections set status = 'eliminated', knocked_out_on = ${ko.current_match_day - 1}
              where user_id = ${me} and competition_id = ${season.id}`;
  await page.reload();
  await expect(registeredRow(page, season.name, isMobile).getByText("Eliminated")).toBeVisible();
});

test("the dashboard loader's database work does not grow with the number of competitions", async ({ page }) => {
  const { email } = await newPlayer(page);
  const me = await userId(email);
  await arrangeCompetition("season", [me]);
  const few = statements((await page.request.get("/dashboard")).headers()["server-timing"]);
  for (let i = 0; i < 12; i++) await arrangeCompetition(i % 2 ? "season" : "knockout", [me]);
  const res = await page.request.get("/dashboard");
  expect(res.status()).toBe(200);
  const many = statements(res.headers()["server-timing"]);
  console.log(`dashboard statements: ${few} with 1 competition, ${many} with 13`);
  expect(many).toBe(few);
  // Session lookup + BEGIN + one pipelined batch (claims and 3 queries) + COMMIT.
  expect(many).toBeLessThanOrEqual(7);
});

test("your private competitions: key with copy, invite links and the creation modal", async ({ page, context, isMobile }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await logIn(page, "player@footycoach.test");
  await expect(page).toHaveURL(/\/dashboard$/);
  const section = page.getByRole("region", { name: "Your Private Competitions" });
  const list = isMobile ? section.getByRole("list", { name: "Your private competitions" }).getByRole("listitem") : section.getByRole("row");
  const scope = list.filter({ hasText: "DemoPlayer's Mates" });
  await expect(scope.getByText("MATES234")).toBeVisible();
  await expect(scope.getByRole("link", { name: /by WhatsApp/ }).first()).toHaveAttribute("href", /wa\.me\/\?text=.*MATES234/);
  await scope.getByRole("button", { name: /Copy registration key of DemoPlayer's Mates/ }).first().click();
  await expect(scope.getByText("Copied!").first()).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("MATES234");
  await expect(section.getByRole("link", { name: "+ Private Competition" }).or(section.getByRole("button", { name: "+ Private Competition" }))).toBeVisible();
});
