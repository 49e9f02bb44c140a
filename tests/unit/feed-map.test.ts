import { describe, expect, it } from "vitest";
import { mapMatch, mapMatchesResponse, scoreAfter90 } from "../../workers/scheduler/feed/map";
import { extraTimeScore, feedTeam, finishedScore, scheduledMatch } from "../../scripts/feed/v4-matches";

const home = feedTeam(57, "Arsenal");
const away = feedTeam(61, "Chelsea");
const base = scheduledMatch(4001, 12, new Date("2033-11-08T15:00:00Z"), home, away, new Date("2033-11-01T09:00:00Z"));

describe("v4 statuses -> the app's (rules file: Fixtures and results from a data feed)", () => {
  it.each([
    ["SCHEDULED", "pending"],
    ["TIMED", "pending"],
    ["IN_PLAY", "live"],
    ["PAUSED", "live"],
    ["FINISHED", "complete"],
    ["AWARDED", "complete"],
    ["POSTPONED", "postponed"],
    ["SUSPENDED", "postponed"],
    ["CANCELLED", "postponed"],
  ])("%s is %s", (status, state) => {
    const score = state === "complete" ? finishedScore(1, 0) : base.score;
    const mapped = mapMatch({ ...base, status, score });
    expect(mapped).toMatchObject({ row: { state } });
  });

  it("skips a status it does not know instead of guessing", () => {
    expect(mapMatch({ ...base, status: "LIVE_EXTRA_PERIOD" })).toEqual({
      skipped: { id: 4001, reason: "unknown status LIVE_EXTRA_PERIOD" },
    });
  });

  it("SCHEDULED has a date and no time yet (00:00 UTC is the service's placeholder); every other status has a time", () => {
    const dateOnly = { ...base, status: "SCHEDULED", utcDate: "2033-11-08T00:00:00Z" };
    expect(mapMatch(dateOnly)).toMatchObject({ row: { kickoff: "2033-11-08T00:00:00.000Z", time_confirmed: false, state: "pending" } });
    for (const status of ["TIMED", "IN_PLAY", "PAUSED", "POSTPONED", "SUSPENDED", "CANCELLED"]) {
      expect(mapMatch({ ...base, status })).toMatchObject({ row: { time_confirmed: true } });
    }
    expect(mapMatch({ ...base, status: "AWARDED", score: finishedScore(3, 0) })).toMatchObject({ row: { time_confirmed: true } });
  });

  it("reads the match as the sync function takes it", () => {
    expect(mapMatch({ ...base, status: "FINISHED", score: finishedScore(2, 1) })).toEqual({
      row: {
        id: 4001,
        kickoff: "2033-11-08T15:00:00.000Z",
        time_confirmed: true,
        match_day: 12,
        state: "complete",
        live_status: null,
        home_id: 57,
        home_name: "Arsenal FC",
        home_short: "Arsenal",
        home_tla: "ARS",
        away_id: 61,
        away_name: "Chelsea FC",
        away_short: "Chelsea",
        away_tla: "CHE",
        home_score: 2,
        away_score: 1,
        last_updated: "2033-11-01T09:00:00.000Z",
      },
    });
  });
});

describe("the score after 90 minutes", () => {
  it("is fullTime after regular time", () => {
    expect(scoreAfter90(finishedScore(3, 2))).toEqual({ home: 3, away: 2 });
  });

  it("is regularTime after extra time and after penalties (fullTime counts both)", () => {
    expect(scoreAfter90(extraTimeScore([1, 1], [1, 0]))).toEqual({ home: 1, away: 1 });
    expect(scoreAfter90(extraTimeScore([0, 0], [0, 0], [4, 3]))).toEqual({ home: 0, away: 0 });
  });

  it("is fullTime less extra time and the shootout when regularTime is missing", () => {
    const withoutRegular = { ...extraTimeScore([2, 2], [0, 1], [5, 4]), regularTime: undefined };
    expect(scoreAfter90(withoutRegular)).toEqual({ home: 2, away: 2 });
  });

  it("skips a finished match whose 90-minute score cannot be told", () => {
    const score = { duration: "EXTRA_TIME", fullTime: { home: 2, away: 1 }, halfTime: { home: 0, away: 0 } };
    expect(mapMatch({ ...base, status: "FINISHED", score })).toEqual({
      skipped: { id: 4001, reason: "finished without a score after 90 minutes" },
    });
  });

  it("keeps a live score apart from a result: the running score while in play", () => {
    const score = { duration: "REGULAR", fullTime: { home: 1, away: 0 }, halfTime: { home: null, away: null } };
    expect(mapMatch({ ...base, status: "IN_PLAY", score })).toMatchObject({
      row: { state: "live", live_status: "IN_PLAY", home_score: 1, away_score: 0 },
    });
  });
});

describe("what does not fit is skipped on its own", () => {
  it("reads the rest of an answer when one match is unreadable, once per id", () => {
    const result = mapMatchesResponse({
      matches: [base, { id: 9, utcDate: 5 }, { ...base, id: 4002, homeTeam: { id: null, name: null } }, base, "x"],
    });
    expect(result).toMatchObject({ ok: true, rows: [{ id: 4001 }] });
    expect(result.ok && result.skipped.map((s) => s.reason)).toEqual([
      "unreadable match (utcDate)",
      "teams not known yet",
      "listed twice",
      "unreadable match (match)",
    ]);
  });

  it("refuses an answer without a list of matches", () => {
    expect(mapMatchesResponse({ message: "ok" })).toEqual({ ok: false, error: "The feed's answer has no list of matches." });
    expect(mapMatchesResponse(null)).toEqual({ ok: false, error: "The feed's answer has no list of matches." });
  });

  it("skips a score the game cannot hold (0 to 30) and a match without a match day", () => {
    expect(mapMatch({ ...base, status: "FINISHED", score: finishedScore(31, 0) })).toMatchObject({
      skipped: { reason: "score outside 0 to 30" },
    });
    expect(mapMatch({ ...base, matchday: null })).toMatchObject({ skipped: { reason: "no match day" } });
  });
});
