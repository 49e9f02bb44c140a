import { describe, expect, it } from "vitest";
import { playerStatusLabel } from "~/lib/player-status";
import { missedPickConsequence, missedPickOutcome } from "~/lib/deadline-messages";

describe("playerStatusLabel", () => {
  const ko = { type: "knockout", competitionStatus: "active" };
  const season = { type: "season", competitionStatus: "active" };
  it("reads Still In for a knockout player who is in (never Active)", () => {
    expect(playerStatusLabel({ ...ko, membershipStatus: "active" })).toBe("Still In");
    expect(playerStatusLabel({ ...ko, membershipStatus: "eliminated" })).toBe("Eliminated");
  });
  it("reads Winner for a title win, Completed for any other ended competition", () => {
    expect(playerStatusLabel({ ...ko, competitionStatus: "inactive", membershipStatus: "completed" })).toBe("Winner");
    expect(playerStatusLabel({ ...ko, competitionStatus: "inactive", membershipStatus: "eliminated" })).toBe("Eliminated");
    expect(playerStatusLabel({ ...season, competitionStatus: "inactive", membershipStatus: "active", rank: 1 })).toBe("Winner");
    expect(playerStatusLabel({ ...season, competitionStatus: "inactive", membershipStatus: "active", rank: 2 })).toBe("Completed");
  });
  it("reads Active for a season player", () => {
    expect(playerStatusLabel({ ...season, membershipStatus: "active", rank: 3 })).toBe("Active");
  });
});

describe("missed pick wording", () => {
  it("says plainly what no pick means", () => {
    expect(missedPickConsequence("knockout")).toBe("No pick means you are eliminated.");
    expect(missedPickConsequence("season")).toBe("No pick scores 0 points.");
    expect(missedPickOutcome("knockout", 10)).toMatch(/Match Day 10.*eliminated/);
    expect(missedPickOutcome("season", 10)).toMatch(/Match Day 10.*0 points/);
  });
});
