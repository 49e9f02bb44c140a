/// <reference types="@cloudflare/vitest-pool-workers/types" />
/**
 * The data feed on the answer shapes football-data.org v4 documents (docs.football-data.org/general/v4: "Lookup
 * Tables" for the statuses, "Dealing with scores" for the score node), served by the local v4 server, in workerd on
 * the real database (decision 027):
 * - SCHEDULED: the match's date is set and its time is not; utcDate is that date at 00:00 UTC. The rules file: never a
 *   midnight kickoff, never an earlier deadline, the deadline TBA while a match day's times are all unknown;
 * - AWARDED: a result like FINISHED;
 * - a match whose team is not known yet: a team object whose fields are all null;
 * - a league of 18 clubs: 34 match days, which its competitions take from the feed;
 * - a penalty shoot-out: fullTime counts the shoot-out's goals, regularTime is the score after 90 minutes.
 * Each test has its own league and season, match and team ids (unlike feed.test.ts's) and times (2034-2035), and
 * unlinks its league when it ends.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildSeason, feedTeam, finishedScore, scheduledMatch, type V4MatchData } from "../../scripts/feed/v4-matches";
import { addMember, createCompetition, type Sql } from "../support/factories";
import { db, settle, subscribedPlayer } from "./arrange";
import {
  feedLeague,
  feedTick,
  fixtureByFeedId,
  fixtures,
  linkLeague,
  mainTick,
  patchMatch,
  resetFeedServer,
  setSeason,
} from "./feed-arrange";

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

/** A match whose date is set and whose time is not, as the service lists it. */
const dateOnly = (m: V4MatchData, day: string): V4MatchData => ({ ...m, status: "SCHEDULED", utcDate: `${day}T00:00:00Z` });

const deadlineOf = async (league: string, season: string, md: number) =>
  (await sql<{ d: Date | null }[]>`select public.matchday_deadline(${league}, ${season}, ${md}) as d`)[0].d;

const competitionState = async (id: string) =>
  (
    await sql<{ registration_status: string; registration: string; current_match_day: number; status: string; total_match_days: number }[]>`
      select c.registration_status, public.registration_state(c.id) as registration, c.current_match_day, c.status, c.total_match_days
        from public.competitions c where c.id = ${id}`
  )[0];

describe("SCHEDULED: a date without a time", () => {
  it("is kept as a date with its time not known, and never makes its match day's deadline earlier", async () => {
    const [league, season] = ["Serie A", "2035/36"];
    const teams = ["Adda", "Brenta", "Piave", "Ticino"].map((n, i) => feedTeam(21_000 + i, n));
    const sat = new Date("2035-09-08T16:00:00Z");
    const timed = scheduledMatch(2_100_001, 1, sat, teams[0], teams[1]);
    const friday = dateOnly(scheduledMatch(2_100_002, 1, sat, teams[2], teams[3]), "2035-09-07");
    await setSeason("SA", 2035, [timed, friday]);
    const now = new Date("2035-09-01T10:00:00Z");
    await linkLeague(sql, league, season, now);
    await feedTick(now);

    // the deadline counts the known time only (the placeholder would have made it Thursday 23:00)
    expect(await deadlineOf(league, season, 1)).toEqual(at(sat, -HOUR));
    const [row] = await sql`select kickoff_time, kickoff_confirmed from public.fixtures where feed_match_id = ${friday.id}`;
    expect(row).toEqual({ kickoff_time: new Date("2035-09-07T00:00:00Z"), kickoff_confirmed: false });
    const competition = await createCompetition(sql, { league, season, name: "Time TBC Cup", registrationStatus: "open" });
    await mainTick(new Date("2035-09-07T06:00:00Z"));
    expect(await competitionState(competition.id)).toMatchObject({ registration_status: "open", registration: "open" });

    // its time is announced (TIMED): Friday evening, so the match day's deadline moves earlier to it
    const fridayKickoff = new Date("2035-09-07T19:00:00Z");
    await patchMatch("SA", 2035, friday.id, { status: "TIMED", utcDate: fridayKickoff.toISOString() });
    await feedTick(new Date("2035-09-07T07:00:00Z"));
    expect(await fixtureByFeedId(sql, friday.id)).toMatchObject({ kickoff_time: fridayKickoff });
    expect(await deadlineOf(league, season, 1)).toEqual(at(fridayKickoff, -HOUR));
  });

  it("a match day whose times are all unknown has no deadline (TBA): nothing closes, is processed or reminded until a time is known", async () => {
    const [league, season] = ["Ligue 1", "2035/36"];
    const season35 = buildSeason({
      teams: ["Loire", "Rhone", "Seine", "Somme"],
      firstMatchId: 2_200_000,
      firstTeamId: 22_000,
      firstKickoff: new Date("2035-10-13T18:00:00Z"),
    });
    const [a, b, ...rest] = season35;
    await setSeason("FL1", 2035, [dateOnly(a, "2035-10-13"), dateOnly(b, "2035-10-14"), ...rest]);
    const now = new Date("2035-10-01T09:00:00Z");
    await linkLeague(sql, league, season, now);
    await feedTick(now);
    expect(await deadlineOf(league, season, 1)).toBeNull();
    const [{ open }] = await sql`select public.selection_open(${league}, ${season}, 1) as open`;
    expect(open).toBe(true);

    const competition = await createCompetition(sql, { league, season, name: "TBA Cup", registrationStatus: "open" });
    const player = await subscribedPlayer(sql);
    await addMember(sql, competition.id, player.id);
    const reminders = () => sql`select kind from public.reminder_log where competition_id = ${competition.id} order by kind`;
    // on the match days' dates, past any placeholder deadline: still open, nothing processed, nobody reminded
    for (const t of ["2035-10-12T23:30:00Z", "2035-10-13T06:00:00Z"]) await mainTick(new Date(t));
    expect(await competitionState(competition.id)).toMatchObject({ registration_status: "open", current_match_day: 1, status: "active" });
    expect(await reminders()).toEqual([]);

    // the times are announced: the deadline is the first one less an hour; reminders and closing follow it
    await patchMatch("FL1", 2035, a.id, { status: "TIMED", utcDate: a.utcDate });
    await patchMatch("FL1", 2035, b.id, { status: "TIMED", utcDate: "2035-10-14T14:00:00Z" });
    await feedTick(new Date("2035-10-13T06:15:00Z"));
    expect(await deadlineOf(league, season, 1)).toEqual(new Date("2035-10-13T17:00:00Z"));
    await mainTick(new Date("2035-10-13T11:00:00Z"));
    expect(await reminders()).toEqual([{ kind: "6h" }]);
    await mainTick(new Date("2035-10-13T17:00:00Z"));
    expect(await competitionState(competition.id)).toMatchObject({ registration_status: "closed" });
  });
});

describe("the statuses and shapes of the v4 documentation", () => {
  it("AWARDED is a result like FINISHED; a shoot-out's result is regularTime, not fullTime (which counts the shoot-out)", async () => {
    const [league, season] = ["Championship", "2035/36"];
    const kickoff = new Date("2035-11-03T15:00:00Z");
    const [m1, m2, ...rest] = buildSeason({
      teams: ["Avon", "Dee", "Exe", "Wye"],
      firstMatchId: 2_300_000,
      firstTeamId: 23_000,
      firstKickoff: kickoff,
    });
    const awarded = { ...m1, status: "AWARDED", score: finishedScore(3, 0) };
    const shootOut = {
      ...m2,
      status: "FINISHED",
      score: {
        winner: "HOME_TEAM" as const,
        duration: "PENALTY_SHOOTOUT",
        fullTime: { home: 7, away: 6 },
        halfTime: { home: 1, away: 0 },
        regularTime: { home: 1, away: 1 },
        extraTime: { home: 0, away: 0 },
        penalties: { home: 6, away: 5 },
      },
    };
    await setSeason("ELC", 2035, [awarded, shootOut, ...rest]);
    await linkLeague(sql, league, season, at(kickoff, DAY));
    await feedTick(at(kickoff, DAY));
    expect(await fixtureByFeedId(sql, awarded.id)).toMatchObject({
      status: "complete",
      home_score: 3,
      away_score: 0,
      result_source: "feed",
    });
    expect(await fixtureByFeedId(sql, shootOut.id)).toMatchObject({ status: "complete", home_score: 1, away_score: 1 });
  });

  it("a match whose team is not known yet (every field null) is skipped and counted; the rest of the sync goes on", async () => {
    const [league, season] = ["La Liga", "2035/36"];
    const kickoff = new Date("2035-12-01T20:00:00Z");
    const matches = buildSeason({
      teams: ["Duero", "Ebro", "Tajo", "Turia"],
      firstMatchId: 2_400_000,
      firstTeamId: 24_000,
      firstKickoff: kickoff,
    });
    const unknown = { id: null, name: null, shortName: null, tla: null, crest: null };
    const open = { ...matches[0], homeTeam: unknown };
    await setSeason("PD", 2035, [open, ...matches.slice(1)]);
    const now = at(kickoff, -7 * DAY);
    await linkLeague(sql, league, season, now);
    await feedTick(now);
    expect(await fixtures(sql, league, season)).toHaveLength(11);
    expect(await fixtureByFeedId(sql, open.id)).toBeUndefined();
    expect(await feedLeague(sql, league, season)).toMatchObject({ last_error: null, last_fixtures_changed: 11 });
    const [run] = await sql<{ result: { skipped: number; synced: number } }[]>`
      select result from private.job_runs where job = 'feed' and scheduled_at = ${now}`;
    expect(run.result).toMatchObject({ synced: 1, skipped: 1 });

    await patchMatch("PD", 2035, open.id, { homeTeam: matches[0].homeTeam });
    await feedTick(at(now, 15 * MINUTE));
    expect(await fixtureByFeedId(sql, open.id)).toMatchObject({ home_team: "Duero", match_day: 1 });
  });

  it("leagues of 18 clubs have 34 match days: their competitions take the number from the feed and end on the 34th", async () => {
    const clubs = (prefix: string) => Array.from({ length: 18 }, (_, i) => `${prefix} ${String.fromCharCode(65 + i)}`);
    const firstKickoff = new Date("2034-08-19T13:30:00Z");
    const bundesliga = buildSeason({ teams: clubs("Fluss"), firstMatchId: 4_500_000, firstTeamId: 45_000, firstKickoff }).map((m) => ({
      ...m,
      status: "FINISHED",
      score: finishedScore(m.id % 3, m.id % 2),
    }));
    const ligue1 = buildSeason({ teams: clubs("Riviere"), firstMatchId: 4_600_000, firstTeamId: 46_000, firstKickoff });
    expect(Math.max(...bundesliga.map((m) => m.matchday!))).toBe(34);
    await setSeason("BL1", 2034, bundesliga);
    await setSeason("FL1", 2034, ligue1);
    // a season competition on the Bundesliga's last match day, made before the league was linked (38 match days then)
    const last = await createCompetition(sql, {
      league: "Bundesliga",
      season: "2034/35",
      type: "season",
      name: "Matchday 34 League",
      startMatchDay: 34,
    });
    expect((await competitionState(last.id)).total_match_days).toBe(38);

    const now = new Date("2035-05-20T12:00:00Z"); // after match day 34
    await linkLeague(sql, "Bundesliga", "2034/35", now);
    await linkLeague(sql, "Ligue 1", "2034/35", now);
    await feedTick(now);
    // match day 34 processed as the last one: the competition is over
    expect(await competitionState(last.id)).toMatchObject({ total_match_days: 34, current_match_day: 34, status: "inactive" });
    for (const league of ["Bundesliga", "Ligue 1"]) {
      expect(await fixtures(sql, league, "2034/35")).toHaveLength(306);
      const [{ match_days }] = await sql`select match_days from public.feed_leagues where league = ${league} and season = '2034/35'`;
      expect(match_days).toBe(34);
    }
    // and one made afterwards has 34 match days from the start
    const later = await createCompetition(sql, { league: "Ligue 1", season: "2034/35", name: "Ligue 1 Cup", startMatchDay: 1 });
    expect((await competitionState(later.id)).total_match_days).toBe(34);
  });
});
