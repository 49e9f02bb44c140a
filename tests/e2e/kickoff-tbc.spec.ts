/**
 * A kickoff whose time the data feed has not given yet (decision 027; rules file, "Fixtures and results from a data
 * feed"): football-data.org lists the match as SCHEDULED with its date at 00:00 UTC. The pages show that date with
 * "Time TBC", never a midnight kickoff (in the player's zone, the day before west of UTC), and the deadline counts
 * known times only: "TBA" with no countdown while a match day has none. The fixtures are written as the feed writes
 * them (the scheduler's own mapping of a v4 answer, then private.sync_feed_league), in one transaction that leaves
 * the league unlinked, so no feed run of another test ever syncs it.
 */
import { mapMatchesResponse } from "../../workers/scheduler/feed/map";
import { feedTeam, scheduledMatch, type V4MatchData } from "../../scripts/feed/v4-matches";
import { addMember, createCompetition, createScoutCompetition } from "../support/factories";
import { db, expect, removeAfterTest, test, uniqueName } from "./fixtures";

const DAY = 86_400_000;
// The admin's results page offers the app's leagues and seasons only; nothing else in the browser suite uses this pair.
const [LEAGUE, SEASON] = ["Serie A", "2025"];

/** What the feed writes for these matches of the league, as of `now`. */
async function writtenByTheFeed(matches: V4MatchData[], now: Date) {
  const mapped = mapMatchesResponse({ matches });
  if (!mapped.ok) throw new Error(mapped.error);
  await db().begin(async (tx) => {
    await tx`select set_config('app.now', ${now.toISOString()}, true)`;
    await tx`insert into public.feed_leagues (league, season, code, season_year)
             values (${LEAGUE}, ${SEASON}, 'SA', 2025) on conflict (league, season) do update set linked = true`;
    await tx`select private.sync_feed_league(${LEAGUE}, ${SEASON}, ${tx.json(mapped.rows as never)}, ${now})`;
    await tx`delete from public.feed_leagues where league = ${LEAGUE} and season = ${SEASON}`;
  });
}

const utcDate = (t: number, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat("en-GB", { ...options, timeZone: "UTC" }).format(new Date(t));

test("@desktop-only a date without a time shows Time TBC; a match day with no known time has its deadline TBA", async ({
  page,
  loginAs,
}) => {
  const md = 20 + Math.floor(Math.random() * 17);
  await db()`delete from public.fixtures where league = ${LEAGUE} and season = ${SEASON} and match_day in (${md}, ${md + 1})`;
  const tag = uniqueName("").slice(0, 6);
  // ids of this run only, apart from admin-feed.spec.ts's: the feed's team map keeps a team id's first name for good
  const base = 2_000_000 + Math.floor(Math.random() * 100_000) * 10;
  const [a, b, c, d] = ["Arno", "Brenta", "Chiese", "Dora"].map((n, i) => feedTeam(base + i, `${n} ${tag}`));
  const day = Math.floor(Date.now() / DAY) * DAY + 10 * DAY; // a date ten days ahead, 00:00 UTC
  const dateOnly = (m: V4MatchData, t: number): V4MatchData => ({ ...m, status: "SCHEDULED", utcDate: new Date(t).toISOString() });
  const ids = 100 * base;
  await writtenByTheFeed(
    [
      // match day md: Saturday 19:45 known, the day before's time not known yet
      scheduledMatch(ids + 1, md, new Date(day + 19 * 3_600_000 + 45 * 60_000), a, b),
      dateOnly(scheduledMatch(ids + 2, md, new Date(day), c, d), day - DAY),
      // match day md + 1: no time known yet
      dateOnly(scheduledMatch(ids + 3, md + 1, new Date(day), a, c), day + 7 * DAY),
      dateOnly(scheduledMatch(ids + 4, md + 1, new Date(day), b, d), day + 8 * DAY),
    ],
    new Date(),
  );
  const player = await loginAs("player");
  const common = { league: LEAGUE, season: SEASON, registrationStatus: "closed" as const };
  const timed = await createCompetition(db(), { ...common, name: uniqueName("TBC Cup "), startMatchDay: md });
  const tba = await createCompetition(db(), { ...common, name: uniqueName("TBA Cup "), startMatchDay: md + 1 });
  for (const competition of [timed, tba]) {
    removeAfterTest(competition);
    await addMember(db(), competition.id, player.id);
  }
  const longDate = (t: number) => utcDate(t, { weekday: "long", day: "numeric", month: "long", year: "numeric" });

  // the team selection page: the date the feed gave, Time TBC, and the deadline from the known time
  await page.goto(`/select-team/${timed.id}`);
  const dayBefore = page.getByRole("region", { name: longDate(day - DAY) });
  await expect(dayBefore.getByRole("listitem")).toHaveText(/Chiese .*Time TBC.*Dora /);
  await expect(page.getByRole("region", { name: longDate(day) })).toContainText(/\d\d:\d\d/);
  await expect(page.getByRole("region", { name: "Selection deadline" })).toContainText(/\d+d \d+h/);
  await page.goto(`/competition/${timed.id}`);
  await expect(page.getByRole("region", { name: longDate(day - DAY) })).toContainText("Time TBC");

  // a match day whose times are all unknown: deadline TBA, no countdown, and picks are open
  await page.goto(`/select-team/${tba.id}`);
  await expect(page.getByRole("region", { name: "Selection deadline" })).toContainText("TBA");
  await expect(page.getByText("Time TBC")).toHaveCount(2);
  await expect(page.getByRole("button", { name: `Arno ${tag}` })).toBeEnabled();

  // Scout: the lock is TBA too
  const scout = await createScoutCompetition(db(), { league: LEAGUE, season: SEASON, startDate: "today", startMatchDay: md + 1 });
  removeAfterTest(scout);
  await page.goto(`/scout?competition=${scout.id}`);
  await expect(page.getByTestId("scout-lock")).toHaveText("Predictions Lock: TBA");
  await expect(page.getByText("Time TBC").first()).toBeVisible();

  // the admin's results list
  await loginAs("admin");
  await page.goto(`/admin/fixtures?league=${encodeURIComponent(LEAGUE)}&season=${SEASON}&md=${md}`);
  const shortDate = utcDate(day - DAY, { weekday: "short", day: "numeric", month: "short", year: "numeric" });
  await expect(page.getByRole("listitem", { name: `Chiese ${tag} v Dora ${tag}` })).toContainText(`${shortDate}, Time TBC`);
});
