/// <reference types="@cloudflare/vitest-pool-workers/types" />
/**
 * The data feed (decision 020) in workerd on the real database, against a local server that speaks
 * football-data.org v4 (auth header, rate-limit headers, 429, 5xx, malformed JSON, unknown statuses), never the
 * real service. Each test has its own league and season, match ids and team ids, and times in its own weeks of
 * 2033, and unlinks its league when it ends, so no other test's tick syncs it.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildSeason, extraTimeScore, finishedScore, type V4MatchData } from "../../scripts/feed/v4-matches";
import { addMember, addPick, createAdmin, createCompetition, createFixtures, createPlayer, type Sql } from "../support/factories";
import { db, eventually, received, settle, subscribedPlayer } from "./arrange";
import {
  allRequests,
  asAdmin,
  feedLeague,
  feedSettings,
  feedTick,
  feedTickWith,
  fixtureByFeedId,
  fixtures,
  linkLeague,
  mainTick,
  patchMatch,
  requestsFor,
  resetFeedServer,
  respondWith,
  setSeason,
} from "./feed-arrange";
import { FOOTBALL_DATA_TEST_TOKEN } from "./ports";
import { LIVE, liveSocket } from "./live-arrange";
import type { LiveMatchDay } from "../../workers/web/live";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

let sql: Sql;
beforeAll(() => {
  sql = db();
});
beforeEach(() => resetFeedServer());
afterEach(async () => {
  await sql`update public.feed_leagues set linked = false`;
});
afterAll(settle);

const CLUBS = [
  "Arsenal",
  "Aston Villa",
  "AFC Bournemouth",
  "Brentford",
  "Brighton & Hove Albion",
  "Burnley",
  "Chelsea",
  "Crystal Palace",
  "Everton",
  "Fulham",
  "Leeds United",
  "Liverpool",
  "Manchester City",
  "Manchester United",
  "Newcastle United",
  "Nottingham Forest",
  "Sunderland",
  "Tottenham Hotspur",
  "West Ham United",
  "Wolverhampton Wanderers",
];

/** A four-team season (6 match days of 2 matches, a week apart, an hour apart within a day). */
function smallSeason(tag: number, firstKickoff: Date, teams = ["North", "South", "East", "West"]) {
  return buildSeason({ teams, firstMatchId: tag * 10_000, firstTeamId: tag * 100, firstKickoff });
}

/** A finished match as the API lists it after the final whistle. */
const finished = (m: V4MatchData, home: number, away: number): V4MatchData => ({
  ...m,
  status: "FINISHED",
  score: finishedScore(home, away),
  lastUpdated: new Date(Date.parse(m.utcDate) + 2 * HOUR).toISOString(),
});

describe("importing a season", () => {
  it("first import of a season: every fixture once, results after 90 minutes, teams matched by normalised names", async () => {
    const league = "Premier League";
    const season = "2025/26";
    const kickoff = new Date("2033-08-06T14:00:00Z");
    const matches = buildSeason({ teams: CLUBS, firstMatchId: 1_000_000, firstTeamId: 9_000, firstKickoff: kickoff }).map((m) =>
      m.matchday! <= 10 ? finished(m, m.id % 3, m.id % 2) : m,
    );
    // Match day 1 was uploaded by CSV before the league was linked, under the app's names.
    const names = new Map(CLUBS.map((c, i) => [9_000 + i, c]));
    const csv = await createFixtures(
      sql,
      league,
      season,
      matches
        .filter((m) => m.matchday === 1)
        .map((m) => ({ matchDay: 1, kickoff: new Date(m.utcDate), home: names.get(m.homeTeam.id!)!, away: names.get(m.awayTeam.id!)! })),
    );
    expect(
      matches.find((m) => m.homeTeam.name === "Brighton & Hove Albion FC" || m.awayTeam.name === "Brighton & Hove Albion FC"),
    ).toBeTruthy();
    await setSeason("PL", 2025, matches);
    const now = new Date("2033-10-12T12:00:00Z"); // after match day 10
    await linkLeague(sql, league, season, now);

    await feedTick(now);

    const rows = await fixtures(sql, league, season);
    expect(rows).toHaveLength(380);
    // the uploaded fixtures are the feed's matches now (same rows), and every team kept its one name in the app
    const day1 = rows.filter((r) => r.match_day === 1);
    expect(day1.map((r) => r.id).sort()).toEqual(csv.map((c) => c.id).sort());
    expect(day1.every((r) => r.feed_match_id !== null)).toBe(true);
    expect([...new Set(rows.flatMap((r) => [r.home_team, r.away_team]))].sort()).toEqual([...CLUBS].sort());
    // results of match days 1-10, from the feed; the rest pending at the feed's kickoffs
    const played = rows.filter((r) => r.match_day <= 10);
    expect(played.every((r) => r.status === "complete" && r.result_source === "feed")).toBe(true);
    const byFeedId = new Map(matches.map((m) => [String(m.id), m]));
    expect(played.every((r) => r.home_score === byFeedId.get(r.feed_match_id!)!.score.fullTime.home)).toBe(true);
    expect(rows.filter((r) => r.match_day > 10).every((r) => r.status === "pending" && r.home_score === null)).toBe(true);
    expect(rows.every((r) => r.kickoff_time.toISOString().slice(0, 19) === byFeedId.get(r.feed_match_id!)!.utcDate.slice(0, 19))).toBe(
      true,
    );
    const [{ n }] = await sql<{ n: number }[]>`
      select count(*)::int as n from public.fixture_result_changes c join public.fixtures f on f.id = c.fixture_id
       where f.league = ${league} and f.season = ${season} and c.source = 'feed' and not c.is_correction`;
    expect(n).toBe(100);

    expect(await feedLeague(sql, league, season)).toMatchObject({
      last_synced_at: now,
      last_error: null,
      last_fixtures_changed: 370,
      last_results_changed: 100,
      requests: 1,
    });
    const requests = await requestsFor("PL", 2025);
    expect(requests).toEqual([
      expect.objectContaining({ path: "/v4/competitions/PL/matches?season=2025", token: FOOTBALL_DATA_TEST_TOKEN, status: 200 }),
    ]);
  });

  it("re-import changes nothing; a quiet league is asked again after 15 minutes, not every minute", async () => {
    const league = "La Liga";
    const season = "2025/26";
    const kickoff = new Date("2033-09-03T16:00:00Z");
    const matches = smallSeason(2, kickoff).map((m) => (m.matchday! <= 2 ? finished(m, 2, 2) : m));
    await setSeason("PD", 2025, matches);
    const now = new Date("2033-09-20T09:00:00Z");
    await linkLeague(sql, league, season, now);
    await feedTick(now);
    const before = await fixtures(sql, league, season);
    expect(before).toHaveLength(12);
    const history = () => sql`select count(*)::int as n from public.fixture_result_changes c join public.fixtures f on f.id = c.fixture_id
                               where f.league = ${league} and f.season = ${season}`;
    const [{ n: changes }] = await history();

    await feedTick(at(now, MINUTE)); // not due again yet
    expect(await requestsFor("PD", 2025)).toHaveLength(1);
    await feedTick(at(now, 15 * MINUTE));
    expect(await requestsFor("PD", 2025)).toHaveLength(2);

    expect(await fixtures(sql, league, season)).toEqual(before); // not a row touched (updated_at included)
    expect((await history())[0].n).toBe(changes);
    expect(await feedLeague(sql, league, season)).toMatchObject({ last_fixtures_changed: 0, last_results_changed: 0, requests: 2 });
  });
});

describe("the feed's statuses", () => {
  it("postponed and rescheduled: pending again (and the deadline moves) before the deadline, kept postponed after it", async () => {
    const league = "Serie A";
    const season = "2025/26";
    const kickoff = new Date("2033-03-05T15:00:00Z");
    const matches = smallSeason(3, kickoff);
    await setSeason("SA", 2025, matches);
    const [m1a, m1b, m2a, m2b] = matches;
    await linkLeague(sql, league, season, at(kickoff, -3 * DAY));
    await feedTick(at(kickoff, -3 * DAY));

    // match day 2: postponed, then rescheduled later the same week while its deadline is still ahead
    await patchMatch("SA", 2025, m2a.id, { status: "POSTPONED" });
    await feedTick(at(kickoff, -2 * DAY));
    expect(await fixtureByFeedId(sql, m2a.id)).toMatchObject({ status: "postponed", result_source: "feed" });
    const rescheduled = at(kickoff, 7 * DAY + 5 * HOUR);
    await patchMatch("SA", 2025, m2a.id, { status: "TIMED", utcDate: rescheduled.toISOString() });
    await feedTick(at(kickoff, -1 * DAY));
    expect(await fixtureByFeedId(sql, m2a.id)).toMatchObject({ status: "pending", result_source: null, kickoff_time: rescheduled });
    const [md2] = await sql<{ first_kickoff_time: Date }[]>`
      select first_kickoff_time from public.matchdays where league = ${league} and season = ${season} and match_day = 2`;
    expect(md2.first_kickoff_time).toEqual(new Date(m2b.utcDate)); // the deadline follows the new first kickoff

    // match day 1 under way: a knockout where one player picked a match that is then postponed
    const competition = await createCompetition(sql, { league, season, name: "Postponement Cup", registrationStatus: "closed" });
    const [p1, p2, p3] = [await createPlayer(sql), await createPlayer(sql), await createPlayer(sql)];
    for (const p of [p1, p2, p3]) await addMember(sql, competition.id, p.id);
    await addPick(sql, { userId: p1.id, competitionId: competition.id, matchDay: 1, team: "East" }); // m1b's side
    await addPick(sql, { userId: p2.id, competitionId: competition.id, matchDay: 1, team: m1a.homeTeam.shortName! });
    await patchMatch("SA", 2025, m1b.id, { status: "POSTPONED" });
    await patchMatch("SA", 2025, m1a.id, { status: "FINISHED", score: finishedScore(1, 0) });
    await feedTick(at(kickoff, 3 * HOUR));
    const members = () =>
      sql<
        { user_id: string; status: string }[]
      >`select user_id, status from public.user_selections where competition_id = ${competition.id}`;
    const statusOf = async () => Object.fromEntries((await members()).map((m) => [m.user_id, m.status]));
    expect(await statusOf()).toEqual({ [p1.id]: "active", [p2.id]: "active", [p3.id]: "eliminated" });

    // rescheduled weeks later, after match day 1 was played: it stays postponed, the feed's date is shown
    const weeksLater = at(kickoff, 21 * DAY);
    await patchMatch("SA", 2025, m1b.id, { status: "TIMED", utcDate: weeksLater.toISOString() });
    await feedTick(at(kickoff, 3 * DAY));
    expect(await fixtureByFeedId(sql, m1b.id)).toMatchObject({
      status: "postponed",
      kickoff_time: new Date(m1b.utcDate),
      feed_status: "pending",
      feed_kickoff_time: weeksLater,
    });
    expect(await statusOf()).toEqual({ [p1.id]: "active", [p2.id]: "active", [p3.id]: "eliminated" });
    const [c] = await sql<{ current_match_day: number }[]>`select current_match_day from public.competitions where id = ${competition.id}`;
    expect(c.current_match_day).toBe(2);
  });

  it("finished after extra time and after penalties: the score after 90 minutes", async () => {
    const league = "Bundesliga";
    const season = "2025/26";
    const kickoff = new Date("2033-04-02T13:30:00Z");
    const [a, b, ...rest] = smallSeason(4, kickoff);
    await setSeason("BL1", 2025, [
      { ...a, status: "FINISHED", score: extraTimeScore([1, 1], [1, 0]) },
      { ...b, status: "FINISHED", score: extraTimeScore([0, 0], [0, 0], [4, 3]) },
      ...rest,
    ]);
    await linkLeague(sql, league, season, at(kickoff, DAY));
    await feedTick(at(kickoff, DAY));
    expect(await fixtureByFeedId(sql, a.id)).toMatchObject({ status: "complete", home_score: 1, away_score: 1 });
    expect(await fixtureByFeedId(sql, b.id)).toMatchObject({ status: "complete", home_score: 0, away_score: 0 });
    const [r] = await sql<{ result: string }[]>`select result from public.fixtures where feed_match_id = ${a.id}`;
    expect(r.result).toBe("draw");
  });

  it("in play: a live score on a pending fixture, never a result; the league is asked every minute meanwhile", async () => {
    const league = "La Liga";
    const season = "2024/25";
    const kickoff = new Date("2033-05-07T18:00:00Z");
    const matches = smallSeason(5, kickoff);
    const m = matches[0];
    await setSeason("PD", 2024, matches);
    await linkLeague(sql, league, season, at(kickoff, -DAY));
    await feedTick(at(kickoff, -DAY));

    await patchMatch("PD", 2024, m.id, {
      status: "IN_PLAY",
      score: { duration: "REGULAR", fullTime: { home: 1, away: 0 }, halfTime: { home: null, away: null } },
    });
    await feedTick(at(kickoff, 20 * MINUTE));
    expect(await fixtureByFeedId(sql, m.id)).toMatchObject({
      status: "pending",
      home_score: null,
      live_status: "IN_PLAY",
      live_home_score: 1,
      live_away_score: 0,
    });
    await patchMatch("PD", 2024, m.id, {
      status: "PAUSED",
      score: { duration: "REGULAR", fullTime: { home: 1, away: 1 }, halfTime: { home: 1, away: 1 } },
    });
    await feedTick(at(kickoff, 21 * MINUTE)); // a minute later: asked again while its match is on
    expect(await fixtureByFeedId(sql, m.id)).toMatchObject({
      status: "pending",
      live_status: "PAUSED",
      live_home_score: 1,
      live_away_score: 1,
    });
    expect(await requestsFor("PD", 2024)).toHaveLength(3);
    const [{ n }] = await sql<
      { n: number }[]
    >`select count(*)::int as n from public.fixture_result_changes c join public.fixtures f on f.id = c.fixture_id where f.feed_match_id = ${m.id}`;
    expect(n).toBe(0);

    await patchMatch("PD", 2024, m.id, { status: "FINISHED", score: finishedScore(2, 1) });
    await feedTick(at(kickoff, 2 * HOUR));
    expect(await fixtureByFeedId(sql, m.id)).toMatchObject({
      status: "complete",
      home_score: 2,
      away_score: 1,
      live_status: null,
      live_home_score: null,
    });
  });

  it("a result before kickoff is refused as from an admin, and taken once the match has kicked off", async () => {
    const league = "Serie A";
    const season = "2024/25";
    const kickoff = new Date("2033-06-04T19:00:00Z");
    const matches = smallSeason(6, kickoff);
    await setSeason("SA", 2024, [finished(matches[0], 3, 0), ...matches.slice(1)]);
    await linkLeague(sql, league, season, at(kickoff, -HOUR * 5));
    await feedTick(at(kickoff, -HOUR * 5));
    expect(await fixtureByFeedId(sql, matches[0].id)).toMatchObject({ status: "pending", home_score: null });
    expect(await feedLeague(sql, league, season)).toMatchObject({ last_results_changed: 0, last_error: null });
    await feedTick(at(kickoff, 3 * HOUR));
    expect(await fixtureByFeedId(sql, matches[0].id)).toMatchObject({ status: "complete", home_score: 3, away_score: 0 });
  });

  it("skips a match with a status it does not know and imports the rest", async () => {
    const league = "Premier League";
    const season = "2024/25";
    const kickoff = new Date("2033-07-02T14:00:00Z");
    const matches = smallSeason(7, kickoff);
    await setSeason("PL", 2024, [{ ...matches[0], status: "LIVE_EXTRA_PERIOD" }, ...matches.slice(1)]);
    await linkLeague(sql, league, season, at(kickoff, -DAY));
    await feedTick(at(kickoff, -DAY));
    expect(await fixtures(sql, league, season)).toHaveLength(11);
    expect(await fixtureByFeedId(sql, matches[0].id)).toBeUndefined();
    expect(await feedLeague(sql, league, season)).toMatchObject({ last_error: null, last_fixtures_changed: 11 });
  });
});

describe("corrections and hand-entered results", () => {
  it("a result corrected by the feed re-processes, is kept in the history, and tells each player whose outcome changed", async () => {
    const league = "Ligue 1";
    const season = "2025/26";
    const kickoff = new Date("2033-02-05T20:00:00Z");
    const matches = smallSeason(8, kickoff);
    const [m1, m2] = matches;
    await setSeason("FL1", 2025, matches);
    await linkLeague(sql, league, season, at(kickoff, -DAY));
    await feedTick(at(kickoff, -DAY));

    const competition = await createCompetition(sql, { league, season, name: "Corrected Cup", registrationStatus: "closed" });
    const amy = await createPlayer(sql);
    const bob = await subscribedPlayer(sql);
    const cat = await createPlayer(sql);
    for (const p of [amy, bob, cat]) await addMember(sql, competition.id, p.id);
    await addPick(sql, { userId: amy.id, competitionId: competition.id, matchDay: 1, team: m1.homeTeam.shortName! });
    await addPick(sql, { userId: bob.id, competitionId: competition.id, matchDay: 1, team: m1.awayTeam.shortName! });
    await addPick(sql, { userId: cat.id, competitionId: competition.id, matchDay: 1, team: m2.homeTeam.shortName! });
    await patchMatch("FL1", 2025, m1.id, { status: "FINISHED", score: finishedScore(2, 1) });
    await patchMatch("FL1", 2025, m2.id, { status: "FINISHED", score: finishedScore(1, 0) });
    await feedTick(at(kickoff, 3 * HOUR));
    const outcome = async () =>
      Object.fromEntries(
        (
          await sql<
            { user_id: string; status: string }[]
          >`select user_id, status from public.user_selections where competition_id = ${competition.id}`
        ).map((r) => [r.user_id, r.status]),
      );
    expect(await outcome()).toEqual({ [amy.id]: "active", [bob.id]: "eliminated", [cat.id]: "active" });

    await patchMatch("FL1", 2025, m1.id, { score: finishedScore(1, 2) });
    await feedTick(at(kickoff, 20 * HOUR));

    expect(await fixtureByFeedId(sql, m1.id)).toMatchObject({ home_score: 1, away_score: 2, result_source: "feed" });
    expect(await outcome()).toEqual({ [amy.id]: "eliminated", [bob.id]: "active", [cat.id]: "active" });
    const [change] = await sql`
      select source, changed_by, old_home_score, old_away_score, new_home_score, new_away_score, reason, is_correction, notices
        from public.fixture_result_changes c join public.fixtures f on f.id = c.fixture_id
       where f.feed_match_id = ${m1.id} order by c.id desc limit 1`;
    expect(change).toEqual({
      source: "feed",
      changed_by: null,
      old_home_score: 2,
      old_away_score: 1,
      new_home_score: 1,
      new_away_score: 2,
      reason: "The data feed changed the result.",
      is_correction: true,
      notices: 2,
    });
    const notices = await sql<{ user_id: string; body: string; link: string }[]>`
      select user_id, body, link from public.notices where user_id in (${amy.id}, ${bob.id}, ${cat.id}) order by id`;
    expect(notices.map((n) => n.user_id).sort()).toEqual([amy.id, bob.id].sort());
    const headline = `Result corrected: ${m1.homeTeam.shortName} v ${m1.awayTeam.shortName} (Ligue 1 2025/26, Match Day 1) is now 1-2 (was 2-1).`;
    expect(notices.find((n) => n.user_id === amy.id)!.body).toBe(`${headline} Corrected Cup: eliminated on Match Day 1 (was still in).`);
    expect(notices.find((n) => n.user_id === bob.id)!.body).toBe(`${headline} Corrected Cup: still in (was eliminated on Match Day 1).`);

    // Bob has notifications on: the notice reaches his browser through the push queue.
    const pushes = await eventually(async () => {
      const got = await received(bob.subscription.endpoint);
      return got.length > 0 ? got : undefined;
    });
    expect(pushes).toHaveLength(1);
    expect(pushes[0].payload).toMatchObject({
      title: "FootyCoach",
      body: notices.find((n) => n.user_id === bob.id)!.body,
      link: "http://footycoach.test/notices",
    });
  });

  it("an admin's result is never overwritten: the feed's is listed for review; Keep mine, then Accept feed", async () => {
    const league = "Championship";
    const season = "2025/26";
    const kickoff = new Date("2033-01-08T15:00:00Z");
    const matches = smallSeason(9, kickoff);
    const m = matches[0];
    await setSeason("ELC", 2025, matches);
    await linkLeague(sql, league, season, at(kickoff, -DAY));
    await feedTick(at(kickoff, -DAY));
    const admin = await createAdmin(sql);
    const fixture = await fixtureByFeedId(sql, m.id);
    await asAdmin(sql, admin.id, at(kickoff, 2 * HOUR), (tx) => tx`select public.save_fixture_result(${fixture.id}, 3, 0)`);

    await patchMatch("ELC", 2025, m.id, { status: "FINISHED", score: finishedScore(2, 1) });
    await feedTick(at(kickoff, 3 * HOUR));
    expect(await fixtureByFeedId(sql, m.id)).toMatchObject({
      status: "complete",
      home_score: 3,
      away_score: 0,
      result_source: "admin",
      feed_status: "complete",
      feed_home_score: 2,
      feed_away_score: 1,
    });
    // what the admin panel lists for review (app/models/feed.server.ts reads the same condition)
    const review = () =>
      sql<{ id: string }[]>`
        select f.id::text from public.fixtures f
         where f.league = ${league} and f.season = ${season} and f.result_source in ('admin', 'csv')
           and f.feed_status in ('complete', 'postponed')
           and (f.feed_status, f.feed_home_score, f.feed_away_score) is distinct from (f.status, f.home_score, f.away_score)
           and f.feed_kept_result is distinct from public.feed_result_key(f.feed_status, f.feed_home_score, f.feed_away_score)`;
    expect(await review()).toEqual([{ id: fixture.id }]);

    await asAdmin(sql, admin.id, at(kickoff, 4 * HOUR), (tx) => tx`select public.keep_manual_result(${fixture.id})`);
    expect(await review()).toEqual([]);
    await patchMatch("ELC", 2025, m.id, { score: finishedScore(2, 2) });
    await feedTick(at(kickoff, 5 * HOUR));
    expect(await fixtureByFeedId(sql, m.id)).toMatchObject({ home_score: 3, away_score: 0, feed_home_score: 2, feed_away_score: 2 });
    expect(await review()).toEqual([{ id: fixture.id }]);

    await asAdmin(sql, admin.id, at(kickoff, 6 * HOUR), (tx) => tx`select public.accept_feed_result(${fixture.id})`);
    expect(await fixtureByFeedId(sql, m.id)).toMatchObject({ home_score: 2, away_score: 2, result_source: "feed" });
    const history = await sql`
      select source, changed_by, old_home_score, new_home_score, new_away_score, reason from public.fixture_result_changes
       where fixture_id = ${fixture.id} order by id`;
    expect(history).toEqual([
      { source: "admin", changed_by: admin.id, old_home_score: null, new_home_score: 3, new_away_score: 0, reason: null },
      {
        source: "feed",
        changed_by: admin.id,
        old_home_score: 3,
        new_home_score: 2,
        new_away_score: 2,
        reason: "Accepted the data feed's result.",
      },
    ]);
    // from then on the feed keeps it up to date
    await patchMatch("ELC", 2025, m.id, { score: finishedScore(2, 3) });
    await feedTick(at(kickoff, 8 * HOUR));
    expect(await fixtureByFeedId(sql, m.id)).toMatchObject({ home_score: 2, away_score: 3, result_source: "feed" });
  });

  it("a match moved to another match day moves with it, unless picks were made on it (then it is flagged)", async () => {
    const league = "Premier League";
    const season = "2025";
    const kickoff = new Date("2033-11-05T15:00:00Z");
    const matches = smallSeason(10, kickoff);
    await setSeason("PL", 2025, matches);
    await linkLeague(sql, league, season, at(kickoff, -DAY));
    await feedTick(at(kickoff, -DAY));
    const [x, y] = matches.filter((m) => m.matchday === 3);
    const competition = await createCompetition(sql, { league, season, type: "season", name: "Moves League", startMatchDay: 3 });
    const picker = await createPlayer(sql);
    await addMember(sql, competition.id, picker.id);
    await addPick(sql, { userId: picker.id, competitionId: competition.id, matchDay: 3, team: y.homeTeam.shortName! });

    await patchMatch("PL", 2025, x.id, { matchday: 5, utcDate: at(kickoff, 28 * DAY + 3 * HOUR).toISOString() });
    await patchMatch("PL", 2025, y.id, { matchday: 4 });
    await feedTick(at(kickoff, -DAY + 15 * MINUTE));

    expect(await fixtureByFeedId(sql, x.id)).toMatchObject({ match_day: 5, feed_flag: null });
    expect(await fixtureByFeedId(sql, y.id)).toMatchObject({ match_day: 3, feed_flag: "moved_with_picks", feed_match_day: 4 });
    const days = await sql<{ match_day: number; n: number }[]>`
      select match_day, count(*)::int as n from public.fixtures where league = ${league} and season = ${season} group by 1 order by 1`;
    expect(days).toEqual([
      { match_day: 1, n: 2 },
      { match_day: 2, n: 2 },
      { match_day: 3, n: 1 },
      { match_day: 4, n: 2 },
      { match_day: 5, n: 3 },
      { match_day: 6, n: 2 },
    ]);
  });
});

describe("failures never stop anything", () => {
  it("a wrong token (403, then 401) is recorded as the league's error, with a backoff", async () => {
    const league = "Serie A";
    const season = "2025";
    const kickoff = new Date("2033-10-01T18:45:00Z");
    await setSeason("SA", 2025, smallSeason(11, kickoff));
    const now = at(kickoff, -DAY);
    await linkLeague(sql, league, season, now);
    await feedSettings({ token: "another-token" }); // the server no longer knows ours
    await feedTick(now);
    expect(await feedLeague(sql, league, season)).toMatchObject({
      last_error: expect.stringMatching(
        /^The feed refused the token \(HTTP 403: The resource you are looking for is restricted.*\)\. Check FOOTBALL_DATA_TOKEN and the plan\.$/,
      ),
      failures: 1,
      next_attempt_at: at(now, MINUTE),
      last_synced_at: null,
    });
    expect(await requestsFor("SA", 2025)).toEqual([expect.objectContaining({ token: FOOTBALL_DATA_TEST_TOKEN, status: 403 })]);

    await feedSettings({ authFailureStatus: 401 });
    await feedTick(at(now, 30 * 1000 + MINUTE)); // the backoff is over
    expect(await feedLeague(sql, league, season)).toMatchObject({
      last_error: "The feed refused the token (HTTP 401: Your API token is invalid.). Check FOOTBALL_DATA_TOKEN and the plan.",
      failures: 2,
      next_attempt_at: at(now, 30 * 1000 + 3 * MINUTE),
    });
    await feedTick(at(now, 2 * MINUTE)); // still backing off: no request
    expect(await requestsFor("SA", 2025)).toHaveLength(2);
    expect(await fixtures(sql, league, season)).toEqual([]);
  });

  it("malformed JSON and an answer without matches are the league's error, never a crash, and write nothing", async () => {
    const league = "Bundesliga";
    const season = "2024/25";
    const kickoff = new Date("2033-12-03T14:30:00Z");
    await setSeason("BL1", 2024, smallSeason(12, kickoff));
    const now = at(kickoff, -DAY);
    await linkLeague(sql, league, season, now);
    await respondWith("BL1", 2024, [{ raw: '{"matches": [{"id": 1, ' }, { body: { message: "ok" } }]);
    await feedTick(now);
    expect(await feedLeague(sql, league, season)).toMatchObject({ last_error: "The feed answered with malformed JSON.", failures: 1 });
    await feedTick(at(now, 2 * MINUTE));
    expect(await feedLeague(sql, league, season)).toMatchObject({ last_error: "The feed's answer has no list of matches.", failures: 2 });
    expect(await fixtures(sql, league, season)).toEqual([]);
    await feedTick(at(now, 10 * MINUTE));
    expect(await feedLeague(sql, league, season)).toMatchObject({ last_error: null, failures: 0, last_fixtures_changed: 12 });
  });

  it("keeps within the plan: no request past X-Requests-Available-Minute, none while a 429's Retry-After runs", async () => {
    const kickoff = new Date("2033-04-30T15:00:00Z");
    const leagues = [
      ["La Liga", "2025", "PD"],
      ["Ligue 1", "2025", "FL1"],
      ["Championship", "2025", "ELC"],
    ] as const;
    for (const [i, [, , code]] of leagues.entries()) await setSeason(code, 2025, smallSeason(13 + i, kickoff));
    const now = at(kickoff, -2 * DAY);
    for (const [league, season] of leagues) await linkLeague(sql, league, season, now);
    await feedSettings({ limitPerMinute: 2 });

    await feedTick(now);
    expect(await allRequests()).toHaveLength(2); // the server said 0 left after the second
    const attempted = await sql<{ league: string }[]>`
      select league from public.feed_leagues where linked and last_attempt_at is not null order by league`;
    expect(attempted).toHaveLength(2);

    await feedSettings({ limitPerMinute: 100 });
    const third = leagues.find(([league]) => !attempted.some((a) => a.league === league))!;
    await respondWith(third[2], 2025, [
      {
        status: 429,
        body: { message: "You reached your request limit. Wait 120 seconds.", errorCode: 429 },
        headers: { "Retry-After": "120" },
      },
    ]);
    await feedTick(at(now, MINUTE));
    expect(await feedLeague(sql, third[0], third[1])).toMatchObject({
      last_error: "The feed's rate limit was reached (HTTP 429): next request after 120 s.",
      paused_until: at(now, MINUTE + 120_000),
    });
    await feedTick(at(now, 2 * MINUTE)); // paused: nobody asks
    expect(await allRequests()).toHaveLength(3);
    await feedTick(at(now, 4 * MINUTE));
    expect(await feedLeague(sql, third[0], third[1])).toMatchObject({ last_error: null, last_fixtures_changed: 12 });
  });

  it("the feed down for a day: every other job runs on every tick, the feed backs off, then catches up", async () => {
    const league = "Bundesliga";
    const season = "2025";
    const start = new Date("2033-02-19T00:00:00Z");
    const kickoff = at(start, 20 * HOUR);
    const matches = smallSeason(16, kickoff);
    await setSeason("BL1", 2025, matches);
    await linkLeague(sql, league, season, start);
    await feedTick(start);
    // a knockout open for registration until match day 1's deadline, which falls during the outage
    const competition = await createCompetition(sql, { league, season, name: "Outage Cup", registrationStatus: "open" });
    await feedSettings({ down: 503 });

    // the feed's cron every 15 minutes (every minute in production: the backoff, not the tick, paces it), the main
    // tick every hour (every 15 minutes in production; fewer here to keep the test short)
    for (let i = 1; i <= 24 * 4; i++) {
      const t = at(start, i * 15 * MINUTE);
      if (i % 4 === 0) await mainTick(t);
      await feedTick(t);
    }
    const [{ done }] = await sql<{ done: number }[]>`
      select count(*)::int as done from private.job_runs
       where job = 'matchdays' and finished_at is not null and scheduled_at > ${start} and scheduled_at <= ${at(start, DAY)}`;
    expect(done).toBe(24);
    const [c] = await sql<
      { registration_status: string }[]
    >`select registration_status from public.competitions where id = ${competition.id}`;
    expect(c.registration_status).toBe("closed");
    const state = await feedLeague(sql, league, season);
    expect(state.last_error).toBe("The feed is unavailable (HTTP 503).");
    expect(state.last_synced_at).toEqual(start);
    // backoff 1, 2, 4 ... 60 minutes: about 30 requests in the day, not 96
    const during = (await requestsFor("BL1", 2025)).filter((r) => r.status === 503).length;
    expect(during).toBeGreaterThan(20);
    expect(during).toBeLessThan(35);

    await feedSettings({ down: null });
    await patchMatch("BL1", 2025, matches[0].id, { status: "FINISHED", score: finishedScore(0, 1) });
    await feedTick(at(start, DAY + 2 * HOUR)); // the backoff (at most an hour) is over
    expect(await feedLeague(sql, league, season)).toMatchObject({ last_error: null, failures: 0, last_results_changed: 1 });
    expect(await fixtureByFeedId(sql, matches[0].id)).toMatchObject({ status: "complete", home_score: 0, away_score: 1 });
  }, 240_000);
});

describe("the live pages (decision 022): the feed tells the match day's LiveMatchDay after its COMMIT", () => {
  it("a sync that changes two live scores of a match day sends that match day's sockets one change, no other match day's", async () => {
    const league = "Ligue 1";
    const season = "2023/24";
    const kickoff = new Date("2034-03-04T20:00:00Z");
    const matches = smallSeason(40, kickoff);
    await setSeason("FL1", 2023, matches);
    await linkLeague(sql, league, season, at(kickoff, -DAY));
    await feedTick(at(kickoff, -DAY)); // the import (it tells every match day it created)

    const day1 = await liveSocket(league, season, 1);
    const day2 = await liveSocket(league, season, 2);
    const hello1 = await day1.next();
    const hello2 = await day2.next();
    expect(hello1).toMatchObject({ kind: "hello" });
    expect(hello2).toMatchObject({ kind: "hello" });

    const [a, b] = matches.filter((m) => m.matchday === 1);
    const live = (home: number, away: number) => ({
      status: "IN_PLAY" as const,
      score: { duration: "REGULAR" as const, fullTime: { home, away }, halfTime: { home: null, away: null } },
    });
    await patchMatch("FL1", 2023, a.id, live(1, 0));
    await patchMatch("FL1", 2023, b.id, live(0, 2));
    const tickAt = at(kickoff, 80 * MINUTE);
    await feedTick(tickAt);

    expect(await fixtureByFeedId(sql, a.id)).toMatchObject({ live_status: "IN_PLAY", live_home_score: 1, live_away_score: 0 });
    // one notify for the match day (two fixtures changed): the next sequence number, once
    expect(await day1.next()).toEqual({ seq: hello1!.seq + 1, kind: "changed" });
    day1.ws.send(JSON.stringify({ resync: hello1!.seq + 1 }));
    expect(await day1.next()).toEqual({ seq: hello1!.seq + 1, kind: "resync", changed: false });
    // match day 2 was not written: its object was not told
    day2.ws.send(JSON.stringify({ resync: hello2!.seq }));
    expect(await day2.next()).toEqual({ seq: hello2!.seq, kind: "resync", changed: false });
    const [run] = await sql<{ result: Record<string, number> }[]>`
      select result from private.job_runs where job = 'feed' and scheduled_at = ${tickAt}`;
    expect(run.result).toMatchObject({ synced: 1, live_notified: 1, live_failed: 0 });

    // an unchanged re-sync writes nothing and tells nobody
    await linkLeague(sql, league, season, at(kickoff, 82 * MINUTE));
    await feedTick(at(kickoff, 82 * MINUTE));
    expect(await day1.next(300)).toBeNull();
    day1.ws.close(1000, "done");
    day2.ws.close(1000, "done");
  });

  it("a notify that fails is logged: the feed's result stays saved and the job is done", async () => {
    const league = "Championship";
    const season = "2023/24";
    const kickoff = new Date("2034-04-01T14:00:00Z");
    const matches = smallSeason(41, kickoff);
    await setSeason("ELC", 2023, matches);
    await linkLeague(sql, league, season, at(kickoff, -DAY));
    await feedTick(at(kickoff, -DAY));

    await patchMatch("ELC", 2023, matches[0].id, { status: "FINISHED", score: finishedScore(2, 1) });
    const unreachable = {
      idFromName: (name: string) => LIVE.idFromName(name),
      get: () => ({ notify: () => Promise.reject(new Error("the object cannot be reached")) }),
    } as unknown as DurableObjectNamespace<LiveMatchDay>;
    const errors: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args.map(String).join(" "));
    const tickAt = at(kickoff, 3 * HOUR);
    try {
      await feedTickWith(tickAt, { LIVE: unreachable });
    } finally {
      console.error = original;
    }

    expect(await fixtureByFeedId(sql, matches[0].id)).toMatchObject({
      status: "complete",
      home_score: 2,
      away_score: 1,
      result_source: "feed",
    });
    const [run] = await sql<{ result: Record<string, number> }[]>`
      select result from private.job_runs where job = 'feed' and scheduled_at = ${tickAt}`;
    expect(run.result).toMatchObject({ synced: 1, failed: 0, results: 1, live_notified: 0, live_failed: 1 });
    expect(errors).toContainEqual(
      expect.stringMatching(/^live notify \["Championship","2023\/24",1\] failed: the object cannot be reached/),
    );
    expect(await feedLeague(sql, league, season)).toMatchObject({ last_error: null, last_results_changed: 1 });
  });
});
