import { describe, expect, it } from "vitest";
import { knockoutOutcomeText, liveLineText, pickScoreText, rankChange, stillInText, type LiveLine } from "~/lib/live";

/** The live match day's words (decision 022); the outcomes themselves come from SQL (public.if_it_ended_now). */
const base: LiveLine = {
  competitionId: "c",
  type: "knockout",
  league: "Premier League",
  season: "2025/26",
  matchDay: 7,
  inPlay: true,
  team: "Arsenal",
  opponent: "Chelsea",
  teamGoals: 1,
  opponentGoals: 0,
  fixtureState: "in_play",
  outcome: "through",
  points: null,
  stillIn: 3,
  remaining: 5,
  livesLeft: 1,
  autoPicked: false,
};

describe("liveLineText", () => {
  it("knockout: up, down, a draw, half-time, full time", () => {
    expect(liveLineText(base)).toBe("Arsenal 1-0 up: through if it ends now");
    expect(liveLineText({ ...base, teamGoals: 0, opponentGoals: 1, outcome: "out" })).toBe("Arsenal 0-1 down: out if it ends now");
    expect(liveLineText({ ...base, teamGoals: 1, opponentGoals: 1, outcome: "out" })).toBe(
      "Arsenal 1-1: out if it ends now (a draw eliminates)",
    );
    expect(liveLineText({ ...base, fixtureState: "paused" })).toBe("Arsenal 1-0 up (half-time): through if it ends now");
    expect(liveLineText({ ...base, fixtureState: "complete", teamGoals: 2 })).toBe("Arsenal 2-0 up (full time): through if it ends now");
  });

  it("knockout: roll-over, no pick, not started, postponed, already out", () => {
    expect(liveLineText({ ...base, teamGoals: 0, opponentGoals: 2, outcome: "rolled_over" })).toBe(
      "Arsenal 0-2 down: everyone still in would go out, so nobody does if it ends now (roll-over)",
    );
    expect(liveLineText({ ...base, team: null, teamGoals: null, opponentGoals: null, fixtureState: null, outcome: "out" })).toBe(
      "No pick: out if it ends now",
    );
    expect(liveLineText({ ...base, teamGoals: null, opponentGoals: null, fixtureState: "not_started", outcome: "waiting" })).toBe(
      "Arsenal: not started yet",
    );
    expect(liveLineText({ ...base, fixtureState: "postponed", teamGoals: null, opponentGoals: null })).toBe(
      "Arsenal (postponed): through (a postponed match keeps you in)",
    );
    expect(liveLineText({ ...base, outcome: "not_playing" })).toBeNull();
  });

  it("season: points if it ends now", () => {
    const season = { ...base, type: "season" as const, stillIn: null, remaining: null };
    expect(liveLineText({ ...season, outcome: "win", points: 3 })).toBe("Arsenal 1-0 up: 3 points if it ends now");
    expect(liveLineText({ ...season, outcome: "draw", points: 1, teamGoals: 0, opponentGoals: 0 })).toBe(
      "Arsenal 0-0: 1 point if it ends now",
    );
    expect(stillInText(season)).toBeNull();
  });

  it("how many are still in", () => {
    expect(stillInText(base)).toBe("If it ended now: 3 of 5 still in");
  });
});

describe("the provisional tables' words", () => {
  it("rank changes: an arrow for the eye, words for screen readers", () => {
    expect(rankChange(3, 1)).toEqual({ dir: "up", arrow: "▲2", text: "up 2 places" });
    expect(rankChange(1, 2)).toEqual({ dir: "down", arrow: "▼1", text: "down 1 place" });
    expect(rankChange(4, 4)).toEqual({ dir: "same", arrow: "–", text: "no change" });
    expect(rankChange(null, 4).text).toBe("no change");
  });

  it("knockout outcomes and picks with their score", () => {
    expect(knockoutOutcomeText({ outcome: "through", knockedOutOn: null })).toBe("Through");
    expect(knockoutOutcomeText({ outcome: "rolled_over", knockedOutOn: null })).toBe("Through (roll-over)");
    expect(knockoutOutcomeText({ outcome: "out", knockedOutOn: 7 })).toBe("Out");
    expect(knockoutOutcomeText({ outcome: "eliminated", knockedOutOn: 3 })).toBe("Eliminated (Match Day 3)");
    expect(pickScoreText({ team: "Arsenal", teamGoals: 1, opponentGoals: 0, fixtureState: "paused" })).toBe("Arsenal 1-0 (half-time)");
    expect(pickScoreText({ team: "Arsenal", teamGoals: null, opponentGoals: null, fixtureState: "not_started" })).toBe(
      "Arsenal (not started)",
    );
    expect(pickScoreText(null)).toBe("No pick");
  });
});

describe("the organiser's rules in the live words (decision 028)", () => {
  it("a life lost, joint winners", () => {
    const draw = { ...base, teamGoals: 1, opponentGoals: 1 };
    expect(liveLineText({ ...draw, outcome: "life_lost", livesLeft: 1 })).toBe("Arsenal 1-1: loses a life if it ends now (1 life left)");
    expect(liveLineText({ ...draw, outcome: "life_lost", livesLeft: 2 })).toBe("Arsenal 1-1: loses a life if it ends now (2 lives left)");
    expect(liveLineText({ ...base, teamGoals: 0, opponentGoals: 2, outcome: "joint_winner" })).toBe(
      "Arsenal 0-2 down: everyone still in would go out, so you would all win together if it ends now (joint winners)",
    );
    expect(knockoutOutcomeText({ outcome: "life_lost", knockedOutOn: null })).toBe("Loses a life");
    expect(knockoutOutcomeText({ outcome: "joint_winner", knockedOutOn: null })).toBe("Joint winner");
  });
});
